"""A seeded simulation plays the same games every time, on any machine and under any load.

Search bots have a sample budget and, where the clock is live (a server table, the
terminal's live mode), a wall-clock deadline as well (see :mod:`thievery.bots.realtime`).
A simulation never sets that deadline, so its bots spend the whole budget and the games
follow from the seed alone. Each run below is played twice: as it is, and with a clock
that races ahead a second every time it is read (a machine a million times too slow for
any deadline); both must give the games pinned here, which were recorded before the
deadline existed (commit 3586297): every seat's every action, the clock's ticks too.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import time
from typing import Any

import pytest

from thievery.sim import simulate

# (game, bots, games, seed, options) -> per game: scores, winners, decisions, and the
# first 16 hex digits of the SHA-256 of its actions' JSON.
RUNS: list[tuple[str, tuple[str, ...], int, int, dict[str, Any], list[tuple[Any, ...]]]] = [
    (
        "schatz-rabatz",  # real time: the search bots that get a deadline on a live clock
        ("ismcts-strong", "ismcts", "heuristic"),
        3,
        7,
        {"short_game": True, "width": 4, "depth": 3},  # (a small chest: quick matches)
        [
            ((3, 2, 0), (0,), 83, "1ecb701b817cafff"),
            ((1, 1, 3), (2,), 84, "d0cbdc9fc9df7497"),
            ((3, 3, 2), (0, 1), 105, "8e51358624e92982"),
        ],
    ),
    (
        "schattendieb",
        ("ismcts-strong", "ismcts", "heuristic"),
        1,
        7,
        {"games": 1},
        [((15, 5, 0), (0,), 15, "69571d868e3f8538")],
    ),
    (
        "thieves",
        ("ismcts", "heuristic", "random"),
        1,
        7,
        {},
        [((16, 7, 5), (0,), 41, "8ca2afe7913eb956")],
    ),
    (
        "thieves-den",
        ("ismcts", "heuristic"),
        1,
        7,
        {},
        [((73, 59), (0,), 80, "299268878ee64d6a")],
    ),
]


def played(game: str, bots: tuple[str, ...], games: int, seed: int, options: Any) -> list[Any]:
    out = []
    for o in simulate(game, bots, games, seed, options, history=True):
        actions = json.dumps(o.history, sort_keys=True).encode()
        out.append((o.scores, o.winners, o.decisions, hashlib.sha256(actions).hexdigest()[:16]))
    return out


@pytest.mark.parametrize("run", RUNS, ids=[r[0] for r in RUNS])
def test_a_seeded_simulation_plays_the_pinned_games_however_slow_the_machine(
    run: tuple[Any, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    game, bots, games, seed, options, pinned = run
    assert played(game, bots, games, seed, options) == pinned
    ticks = itertools.count()
    for name in ("perf_counter", "monotonic", "time"):
        real = getattr(time, name)
        monkeypatch.setattr(time, name, lambda real=real: real() + next(ticks))
    assert played(game, bots, games, seed, options) == pinned
