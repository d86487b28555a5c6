"""Thieves! golden playthroughs: fixed seeds and fixed random choices give these games.

If a rule change alters them on purpose, update the numbers; an accidental change (in the
rules, the deal or the random source) shows up here first.
"""

from __future__ import annotations

import json

import pytest

from tests.games.thieves.helpers import SPEC, new, play
from thievery.core import GameRecord, Rng, replay


@pytest.mark.parametrize(
    ("players", "decisions", "scores", "winners", "last_raid"),
    [
        # Version 2 (the Thief's move may be declined): a Thief's choices end in ``pass``,
        # so the random choices at a Thief differ from version 1's from there on.
        (3, 45, [5, 0, 8], [2], [3, 6, 3]),
        (4, 42, [8, 2, 4, 10], [3], [0, 3, 0, 2]),
        (6, 23, [2, 1, 8, 4, 7, 6], [2], None),
    ],
)
def test_golden_random_playthroughs(
    players: int, decisions: int, scores: list[int], winners: list[int], last_raid: list[int] | None
) -> None:
    state = SPEC.new(players, 2024)
    rng = Rng(7)
    while state.to_act:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert len(state.history()) == decisions
    assert state.result() == {"scores": scores, "winners": winners}
    raid = state.view(None)["last_raid"]
    assert (raid["values"] if raid else None) == last_raid


def test_a_stacked_game_records_and_replays() -> None:
    state = new(
        [
            ["double-loot-a", "police-1a", "money-0a"],
            ["police-2a", "money-0b", "money-0c"],
            ["money-3a", "money-3b", "money-3c"],
        ],
        ["money-3e", "money-1a", "money-1b", "money-1c", "roadblock-a", "money-2a"],
    )
    play(state, "police-1a")
    play(state, "police-2a")
    play(state, "money-3a", 2)
    play(state, "double-loot-a")
    state.apply(0, {"type": "remove", "card": "police-2a"})
    play(state, "money-2a", 1)
    record = GameRecord.from_json(json.loads(json.dumps(GameRecord.of(state).to_json())))
    again = replay(record)
    for seat in (None, 0, 1, 2):
        assert again.view(seat) == state.view(seat)
    assert again.locations() == state.locations()
