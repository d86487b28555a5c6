"""Bots in real time: when each bot acts, on live or simulated game time.

A bot that has a ``delay_ms(view)`` method takes that long per action (others act at
once). :class:`BotClock` schedules every bot seat that may act, runs the actions that
fall due up to a moment, moving the game's clock to each action's time (so the hourglass
runs out in between when it should), and :func:`play_simulated` plays a whole match of
bots on simulated time (dozens of four-player matches a second).

A real-time game may limit how fast a seat acts: a view's ``hand_ready_ms`` (if present
and not ``None``) is the game time before which the seat's next action that needs its
hand is not legal. A bot is due at the later of its reaction time and that moment, never
earlier, and it is asked once, when due (no polling).

It uses only the protocol (:class:`~thievery.core.protocol.ClockedState`), so it serves
every real-time game: simulations, the terminal's live mode, and tests.

**Thinking in real time.** A search bot's reaction time is game time (``delay_ms``), but
on a live clock its thinking comes on top: the others wait, or race on, while it thinks.
So where the clock is live (the terminal's live mode: ``BotClock(...,
think_seconds=THINK_SECONDS)``; a server table: ``Caps.realtime_think_seconds``) a bot
with a ``deadline`` attribute (a ``time.perf_counter()`` time, see ``Bot`` in
:mod:`thievery.core.plugin`) is given one before each action, and answers by then with
what its search found. On simulated time (:func:`play_simulated`, every simulation and
ladder) no deadline is ever set: the bots search their whole sample budget, so a seeded
run plays the same games on any machine under any load.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Protocol

from thievery.core.protocol import ClockedState, Event
from thievery.core.rng import KEYED, Rng, make_rng

JSON = dict[str, Any]

# How long a search bot may think per action where the clock is live (seconds), on top
# of its reaction time: Schatz-Rabatz's ismcts-strong takes 0.09 s at the median (up to
# 0.6 s; 0.3 s and up to 1 s under load) for its whole budget.
THINK_SECONDS = 0.1
# The most a host may give it (``thievery serve --bot-think-seconds``, which sets
# ``Caps.realtime_think_seconds``): more than that would only hold a bot still while the
# others play on, and it stays well below the 30 s after which a server gives a bot's
# decision up for a random legal action (``Caps.bot_seconds``).
MAX_THINK_SECONDS = 10.0


class TimedBot(Protocol):
    """A bot as :class:`BotClock` sees it (``delay_ms`` is optional on real bots)."""

    def act(self, view: JSON, legal: Any) -> Any:
        """Choose one of the legal actions."""
        ...


def due_ms(when: int, view: Mapping[str, Any]) -> int:
    """The time a seat whose bot would act at ``when`` may act: not before its hand is
    ready (the view's ``hand_ready_ms``, if the game has one and it is set).

    >>> due_ms(1000, {"hand_ready_ms": 1800}), due_ms(1000, {"hand_ready_ms": None})
    (1800, 1000)
    """
    ready = view.get("hand_ready_ms")
    return max(when, ready) if isinstance(ready, int) else when


class BotClock:
    """Schedules the bot seats of one game on its clock.

    Each bot seat that may act gets a due time (now + its delay, but not before its view's
    ``hand_ready_ms``) when it first may act and again after each of its actions; ties go
    by a random order drawn once per schedule.

    ``think_seconds`` (a live clock only, never simulated time): before each action, a
    bot with a ``deadline`` attribute gets one that many seconds from now.
    """

    def __init__(
        self, bots: Mapping[int, TimedBot], rng: Rng, think_seconds: float | None = None
    ) -> None:
        self.bots = dict(bots)
        self.rng = rng
        self.think_seconds = think_seconds
        self.due: dict[int, tuple[int, float]] = {}  # seat -> (time, tie-break)

    def _schedule(self, state: ClockedState) -> None:
        to_act = state.to_act
        for seat in list(self.due):
            if seat not in to_act:
                del self.due[seat]
        now = state.now_ms
        for seat in to_act:
            if seat in self.bots and seat not in self.due:
                bot = self.bots[seat]
                view = state.view(seat)
                delay = bot.delay_ms(view) if hasattr(bot, "delay_ms") else 0
                self.due[seat] = (due_ms(now + int(delay), view), self.rng.random())

    def next_due(self, state: ClockedState) -> tuple[int, int] | None:
        """(time, seat) of the next bot action, or ``None`` if no bot may act."""
        self._schedule(state)
        if not self.due:
            return None
        seat, (when, _) = min(self.due.items(), key=lambda item: item[1])
        return when, seat

    def run_until(self, state: ClockedState, until_ms: int) -> list[Event]:
        """Play every bot action due up to ``until_ms``, then move the clock there."""
        events: list[Event] = []
        while not state.is_over:
            due = self.next_due(state)
            if due is None or due[0] > until_ms:
                break
            events += self.step(state, *due)[0]
        events += state.advance(max(until_ms, state.now_ms))
        return events

    def step(self, state: ClockedState, when: int, seat: int) -> tuple[list[Event], bool]:
        """Move the clock to ``when``; if that changed the game (the hourglass ran out),
        reschedule everyone, else let ``seat`` act. Returns the events and whether it
        acted."""
        events: list[Event] = state.advance(when)
        if events:
            self.due.clear()
            return events, False
        bot = self.bots[seat]
        if self.think_seconds is not None and hasattr(bot, "deadline"):
            bot.deadline = time.perf_counter() + self.think_seconds
        action = bot.act(state.view(seat), state.legal_actions(seat))
        events += state.apply(seat, action)
        del self.due[seat]
        return events, True


def clock_rng(seed: int) -> Rng:
    """The generator that orders bots due at the same moment in a game of seed ``seed``
    played on simulated time: a stream of its own (a keyed one, from the seed), never
    ``Rng(seed)``, the generator that dealt the game (whose draws it would repeat, so
    that who acts first would follow the shuffle).

    >>> clock_rng(3).random() != Rng(3).random()
    True
    """
    return make_rng(KEYED + seed)


def play_simulated(state: ClockedState, bots: Mapping[int, TimedBot], rng: Rng) -> int:
    """Play ``state`` to the end with a bot in every seat on simulated time; returns the
    number of decisions. A bot with no delay acts at once. No bot is given a deadline:
    the games depend on the seeds alone, not on how fast the machine is."""
    clock = BotClock(bots, rng)
    decisions = 0
    while not state.is_over:
        due = clock.next_due(state)
        if due is None:
            raise ValueError("no bot may act and the game is not over")
        decisions += clock.step(state, *due)[1]
    return decisions
