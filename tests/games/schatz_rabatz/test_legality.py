"""Schatz-Rabatz: one drop has one name. ``legal_actions`` lists each distinct placement
once, at the lowest rotation that looks that way, and ``is_legal`` agrees: a look-alike
rotation given as an action value is refused with the rotation to use (the rulebook
knows no rotations; a circle turned twice is the same drop). From JSON, a look-alike
rotation is read as its lowest one, so clients may send any quarter turn."""

from __future__ import annotations

import pytest

from thievery.core import IllegalAction
from thievery.games.schatz_rabatz.actions import Drop
from thievery.games.schatz_rabatz.pieces import (
    CANONICAL,
    SHAPE_INDEX,
    SHAPE_NAMES,
    TREASURE_INDEX,
)

from .helpers import new, snapshot


@pytest.mark.parametrize(
    ("treasure", "rotation", "same"),
    [("circle-blue", 2, 0), ("goldbar-red", 3, 0), ("hexagon-red", 2, 0), ("hexagon-red", 3, 1)],
)
def test_a_look_alike_rotation_is_refused_with_the_rotation_to_use(
    treasure: str, rotation: int, same: int
) -> None:
    state = new()
    look_alike = Drop(treasure, rotation, 2)
    assert look_alike not in state.legal_actions(0)
    assert Drop(treasure, same, 2) in state.legal_actions(0)
    assert not state.is_legal(0, look_alike)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=f"looks the same as turned {same}"):
        state.apply(0, look_alike)
    assert snapshot(state) == before
    # The JSON form names the same drop by its lowest rotation: accepted as that drop.
    data = {"type": "drop", "treasure": treasure, "rotation": rotation, "column": 2}
    (event,) = [e for e in state.apply(0, data) if e.type == "drop"]
    assert event.data["rotation"] == same


def test_is_legal_admits_exactly_the_listed_drops_for_every_rotation() -> None:
    state = new()
    listed = set(state.legal_actions(0))
    for shape in SHAPE_NAMES:
        treasure = f"{shape}-red"
        for rotation in range(4):
            for column in range(-1, state.width + 1):
                action = Drop(treasure, rotation, column)
                assert state.is_legal(0, action) == (action in listed), action
                if state.is_legal(0, action):
                    assert CANONICAL[SHAPE_INDEX[shape]][rotation] == rotation
    assert any(Drop(t, 0, 0) in listed for t in TREASURE_INDEX)
