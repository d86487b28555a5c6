"""The real-time clock of a table: for a real-time game (a ``ClockedState``) the server's
monotonic clock is the game's clock.

It starts once every human seat has come (or is played by a bot), runs on across a
restart from the game time the stored log reached, and yields the ``tick`` action that
moves the game's clock to now. The table applies and stores that tick like any action
(seat ``CLOCK``), so the log replays the game exactly.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from thievery.core.protocol import CLOCK, JSON, ClockedState, State
from thievery.server.seats import BOT, Seat

TICK = 0.25  # seconds between checks of a real-time game's clock


def game_ms(state: State) -> int:
    """The game's own time (milliseconds; 0 for games without a clock)."""
    return state.now_ms if isinstance(state, ClockedState) else 0


class TableClock:
    """One table's clock: game time since ``base`` (a monotonic time), once it started."""

    def __init__(self, state: State) -> None:
        self.realtime = isinstance(state, ClockedState)
        self.arrived: set[int] = set()  # seats that have connected at least once
        self.base: float | None = None

    @property
    def is_running(self) -> bool:
        """Whether game time is running (a real-time game whose clock started)."""
        return self.realtime and self.base is not None

    def ms(self) -> int | None:
        """Milliseconds of game time now (real-time games), ``None`` before the clock starts."""
        if self.base is None:
            return None
        return int((time.monotonic() - self.base) * 1000)

    def start(self, state: State, seats: Sequence[Seat]) -> bool:
        """Start the clock once every human seat has come (or is played by a bot); whether
        it started now."""
        if not self.realtime or self.base is not None or state.is_over:
            return False
        if all(s.kind == BOT or s.bot or i in self.arrived for i, s in enumerate(seats)):
            self.base = time.monotonic() - game_ms(state) / 1000
            return True
        return False

    def resume(self, state: State) -> None:
        """After a stored action was replayed: if the clock ran before, it runs on from there."""
        if self.realtime and game_ms(state) > 0:
            self.base = time.monotonic() - game_ms(state) / 1000

    def tick(self, state: State, keep_silent: bool) -> JSON | None:
        """The action that moves the game's clock to now, or ``None`` if there is none to
        take: the clock has not started or not moved on, the game is over, or (unless
        ``keep_silent``) nothing but the clock would change (the next action's tick will
        say so)."""
        now = self.ms()
        if now is None or now <= game_ms(state) or state.is_over:
            return None
        tick: JSON = {"type": "tick", "now_ms": now}
        if not keep_silent:
            probe = state.clone()
            if not probe.apply(CLOCK, tick):
                return None
        return tick
