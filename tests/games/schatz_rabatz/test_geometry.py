"""Gravity: every shape in every rotation falls straight down until it rests, checked
against a cell-by-cell falling oracle; hand-worked resting positions; the rim."""

from __future__ import annotations

import doctest

import pytest

from thievery.core import IllegalAction, Rng
from thievery.games.schatz_rabatz import pieces
from thievery.games.schatz_rabatz.actions import Drop
from thievery.games.schatz_rabatz.data import COLOURS, SHAPES
from thievery.games.schatz_rabatz.pieces import CANONICAL, ORIENTATIONS, SHAPE_INDEX, rotate
from thievery.games.schatz_rabatz.rules import SchatzRabatz

from .helpers import SPEC, cells, drop, new, of_type, seeded, wait_hand

Cell = tuple[int, int]


def fall(filled: set[Cell], shape: tuple[Cell, ...], column: int, top: int) -> int:
    """The oracle: lower the shape one row at a time from ``top`` until it would overlap
    a filled cell or the floor; return the row of its lowest cells."""
    row = top
    while row > 0 and not any((column + x, row - 1 + y) in filled for x, y in shape):
        row -= 1
    return row


def uneven_floor() -> tuple[SchatzRabatz, set[Cell]]:
    """Seat 0's chest with heights [1, 1, 1, 0, 1, 4] (its hand ready for the next drop)
    and seat 1 untouched."""
    state = new()
    drop(state, 0, "pearls-red", 0, 0)
    drop(state, 0, "circle-red", 0, 4)
    drop(state, 0, "sword-red", 1, 5)
    wait_hand(state, 0)
    return state, cells(state, 0)


def test_the_uneven_floor() -> None:
    state, filled = uneven_floor()
    assert state.view(0)["chests"][0]["heights"] == [1, 1, 1, 0, 1, 4]
    assert filled == {(0, 0), (1, 0), (2, 0), (4, 0), (5, 0), (5, 1), (5, 2), (5, 3)}


@pytest.mark.parametrize("shape", [name for name, _ in SHAPES])
@pytest.mark.parametrize("rotation", range(4))
def test_every_shape_and_rotation_rests_where_it_falls(shape: str, rotation: int) -> None:
    base, filled = uneven_floor()
    treasure = f"{shape}-blue"
    cells_r = rotate(dict(SHAPES)[shape], rotation)
    width = max(x for x, _ in cells_r) + 1
    tried = 0
    for column in range(6 - width + 1):
        state = base.clone()
        expected = fall(filled, cells_r, column, top=12)
        action = {"type": "drop", "treasure": treasure, "rotation": rotation, "column": column}
        if expected >= 5:  # would lie wholly above the rim
            with pytest.raises(IllegalAction, match="above the rim"):
                state.apply(0, action)
            continue
        row = drop(state, 0, treasure, rotation, column)
        assert row == expected
        piece = {(column + x, row + y) for x, y in cells_r}
        assert not piece & filled
        assert cells(state, 0) == filled | piece
        tried += 1
    assert tried > 0
    # Too far right: refused, naming the columns allowed.
    state = base.clone()
    with pytest.raises(IllegalAction, match=f"its column is 0 to {6 - width}"):
        state.apply(
            0, {"type": "drop", "treasure": treasure, "rotation": rotation, "column": 7 - width}
        )


def test_random_packing_matches_the_falling_oracle() -> None:
    """Hundreds of random drops in random chests: each rests exactly where the oracle
    says, and the chest never has two treasures in one cell."""
    rng = Rng(12)
    checked = 0
    for seed in range(12):
        state = seeded(2, seed, {"width": 4 + seed % 5, "depth": 3 + seed % 6})
        while state.phase == 0:
            seat = rng.choice(state.to_act)
            wait_hand(state, seat)
            legal = state.legal_actions(seat)
            drops = [a for a in legal if isinstance(a, Drop)]
            if not drops:
                state.apply(seat, legal[-1])
                continue
            action = rng.choice(drops)
            before = cells(state, seat)
            shape = SHAPES[SHAPE_INDEX[action.treasure.split("-")[0]]][1]
            piece = rotate(shape, action.rotation)
            expected = fall(before, piece, action.column, top=40)
            (event,) = of_type(state.apply(seat, action), "drop")
            assert event["row"] == expected
            after = cells(state, seat)
            assert len(after) == len(before) + len(piece)
            checked += 1
    assert checked > 200


def test_hand_worked_resting_places() -> None:
    state = new()
    # An upright goblet stands on its stem: the cup's ends leave two holes under them.
    assert drop(state, 0, "goblet-red", 0, 0) == 0
    assert cells(state, 0) == {(1, 0), (0, 1), (1, 1), (2, 1)}
    # A circle dropped over the cup's left end stops on it, not in the hole below.
    assert drop(state, 0, "circle-red", 0, 0) == 2
    # A crown (a U) catches a circle in its cup.
    assert drop(state, 1, "crown-red", 0, 2) == 0
    assert drop(state, 1, "circle-blue", 0, 3) == 1
    # An upside-down crown over the circle rests on the crown's two prongs.
    assert drop(state, 1, "crown-blue", 2, 2) == 2
    assert cells(state, 1) == {
        (2, 0), (3, 0), (4, 0), (2, 1), (4, 1), (3, 1),
        (2, 2), (4, 2), (2, 3), (3, 3), (4, 3),
    }  # fmt: skip
    # A sword on end is four tall, one wide.
    assert drop(state, 1, "sword-red", 1, 0) == 0
    assert state.view(1)["chests"][1]["heights"] == [4, 0, 4, 4, 4, 0]


def test_two_rings_interlock_into_a_block() -> None:
    state = new()
    drop(state, 0, "ring-red", 0, 0)  # an L: (0,0), (1,0), (0,1)
    assert drop(state, 0, "ring-blue", 2, 0) == 1  # turned twice, it hooks over the L
    assert cells(state, 0) == {(x, y) for x in range(2) for y in range(3)}


def test_rotations_that_look_the_same_are_the_same_drop() -> None:
    for shape, _ in SHAPES:
        index = SHAPE_INDEX[shape]
        for r in range(4):
            same = CANONICAL[index][r]
            assert ORIENTATIONS[index][r].cells == ORIENTATIONS[index][same].cells
            parsed = SPEC.parse_action(
                {"type": "drop", "treasure": f"{shape}-red", "rotation": r, "column": 0}
            )
            assert isinstance(parsed, Drop) and parsed.rotation == same
    assert [len(set(CANONICAL[SHAPE_INDEX[s]])) for s, _ in SHAPES] == [1, 2, 4, 2, 4, 2, 1, 4]


def test_every_treasure_exists_once() -> None:
    pool = new().view(None)["pool"]
    assert len(pool) == 40 == len(set(pool))
    assert {p.split("-")[1] for p in pool} == set(COLOURS)
    sizes = {name: len(c) for name, c in SHAPES}
    assert sizes == {
        "circle": 1, "hexagon": 2, "ring": 3, "pearls": 3,
        "goblet": 4, "sword": 4, "goldbar": 4, "crown": 5,
    }  # fmt: skip


def test_legal_actions_list_exactly_the_drops_that_are_legal() -> None:
    """The cached drop tables agree with the rule, checked drop by drop on random chests:
    every treasure in the pool, every distinct rotation, every column."""
    rng = Rng(3)
    for seed in range(6):
        state = seeded(2, seed, {"width": 3 + seed, "depth": 2 + seed})
        while state.phase == 0:
            seat = rng.choice(state.to_act)
            if rng.below(3):  # else the seat's hand may not be ready: no drop is legal
                wait_hand(state, seat)
            listed = set(state.legal_actions(seat))
            expected = {
                Drop(t, r, c)
                for t in state.view(None)["pool"]
                for r in sorted(set(CANONICAL[SHAPE_INDEX[t.split("-")[0]]]))
                for c in range(state.width)
                if state.is_legal(seat, Drop(t, r, c))
            }
            assert {a for a in listed if isinstance(a, Drop)} == expected
            state.apply(seat, rng.choice(sorted(listed, key=str)))


def test_the_geometry_doctests() -> None:
    result = doctest.testmod(pieces)
    assert result.attempted >= 4 and result.failed == 0
