"""The bot clock honours a real-time view's ``hand_ready_ms``: a bot is due at the later
of its reaction time and the moment its hand is ready, and is never asked before. On a
live clock it gives a search bot a deadline before each action; on simulated time never."""

from __future__ import annotations

import doctest
import math
import time
from collections.abc import Sequence
from typing import Any

import thievery
from thievery.bots import realtime
from thievery.bots.realtime import THINK_SECONDS, BotClock, play_simulated
from thievery.core import Rng
from thievery.core.protocol import Action, ClockedState


class Eager:
    """A bot with no reaction time of its own: it drops the first drop offered, or takes
    whatever it is offered; it notes every view it is asked on."""

    def __init__(self) -> None:
        self.asked: list[dict[str, Any]] = []

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        self.asked.append(view)
        return next((a for a in legal if a.type == "drop"), legal[0])


def test_a_bot_is_due_when_its_hand_is_ready_and_not_before() -> None:
    state = thievery.game("schatz-rabatz").new(2, 4)
    assert isinstance(state, ClockedState)
    eager = Eager()
    clock = BotClock({0: eager}, Rng(1))  # seat 1 is nobody's: it never acts
    assert clock.next_due(state) == (0, 0)
    clock.step(state, 0, 0)  # a drop at 0 ms: the hand is busy until 800 ms
    assert clock.next_due(state) == (800, 0)  # not at once: no spinning, no early close
    clock.run_until(state, 5_000)
    dropped = [v["now_ms"] for v in eager.asked]
    assert dropped[:4] == [0, 800, 1600, 2400]
    assert all(v["hand_ready_ms"] is None for v in eager.asked)  # asked only when ready
    assert state.view(0)["chests"][0]["open"]  # never made to close by a busy hand


def test_the_due_time_doctest() -> None:
    assert doctest.testmod(realtime).attempted > 0
    assert doctest.testmod(realtime).failed == 0


class Searching(Eager):
    """An eager bot with a ``deadline`` (as the search bots have): it notes the time
    left before it on every action."""

    def __init__(self) -> None:
        super().__init__()
        self.deadline = math.inf
        self.left: list[float] = []

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        self.left.append(self.deadline - time.perf_counter())
        return super().act(view, legal)


def test_a_live_clock_gives_a_search_bot_a_deadline_before_each_action() -> None:
    state = thievery.game("schatz-rabatz").new(2, 4)
    assert isinstance(state, ClockedState)
    bot = Searching()
    clock = BotClock({0: bot}, Rng(1), think_seconds=THINK_SECONDS)
    clock.run_until(state, 5_000)
    assert len(bot.left) >= 4
    assert all(0 < left <= THINK_SECONDS for left in bot.left)


def test_simulated_time_never_gives_a_bot_a_deadline() -> None:
    """Simulations play on simulated time: no bot is ever given a deadline there, so a
    seeded run does not depend on how fast the machine is (tests/sim/test_determinism)."""
    state = thievery.game("schatz-rabatz").new(2, 4, {"short_game": True})
    assert isinstance(state, ClockedState)
    bots = {0: Searching(), 1: Searching()}
    assert play_simulated(state, bots, Rng(1)) > 0
    assert all(left == math.inf for bot in bots.values() for left in bot.left)
    clock = BotClock(bots, Rng(1))  # (a clock told no thinking time: none either)
    clock.run_until(thievery.game("schatz-rabatz").new(2, 4), 5_000)  # type: ignore[arg-type]
    assert all(left == math.inf for bot in bots.values() for left in bot.left)
