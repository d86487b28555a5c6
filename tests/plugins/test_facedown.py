"""bench/facedown: boardgame.io's load-test game as a Thievery plug-in, so that the two
servers are measured on the same game. It must be that game (its rules as the harness's
``game.js`` has them) and a well-behaved plug-in (the conformance suite)."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from thievery.core.errors import IllegalAction, InvalidOption, MalformedAction
from thievery.core.rng import Rng
from thievery.testing import check_game

SOURCE = Path(__file__).resolve().parents[2] / "bench" / "facedown" / "src"


@pytest.fixture(scope="module")
def facedown() -> Iterator[ModuleType]:
    sys.path.insert(0, str(SOURCE))
    try:
        import facedown

        yield facedown
    finally:
        sys.path.remove(str(SOURCE))


def test_it_passes_the_conformance_suite(facedown: ModuleType) -> None:
    check_game(facedown.GAME)


def test_it_plays_as_the_boardgame_io_harness_game(facedown: ModuleType) -> None:
    """4 players from seat 0 in order, 4 cards each from 52; a play puts a hand card on the
    table and draws while the deck lasts (36 left after the deal); over after 40 turns."""
    spec = facedown.SPEC
    with pytest.raises(InvalidOption, match="4 to 4 players"):
        spec.new(3)
    state = spec.new(4, seed=11)
    assert [len(h) for h in state.hands] == [4, 4, 4, 4] and len(state.deck) == 36
    every = sorted(c for h in state.hands for c in h) + sorted(state.deck)
    assert sorted(every) == list(range(52))
    rng = random.Random(5)
    for turn in range(40):
        seat = turn % 4
        assert state.to_act == (seat,) and state.result() is None
        legal = state.legal_actions(seat)
        assert [a.card for a in legal] == [facedown.game.CARD_ID[c] for c in state.hands[seat]]
        state.apply(seat, rng.choice(legal))
        assert len(state.table) == turn + 1
        assert len(state.deck) == max(0, 35 - turn)
        assert len(state.hands[seat]) == (4 if turn < 36 else 3 - (turn - 36) // 4)
    assert state.to_act == () and state.result() == {
        "scores": [10, 10, 10, 10],
        "winners": [0, 1, 2, 3],
    }


def test_a_seat_sees_its_own_cards_only_and_bad_actions_change_nothing(
    facedown: ModuleType,
) -> None:
    spec = facedown.SPEC
    state = spec.new(4, seed=2)
    for turn in range(6):
        state.apply(turn % 4, state.legal_actions(turn % 4)[0])
    view = state.view(1)
    ids = facedown.game.CARD_ID
    assert view["hand"] == [ids[c] for c in state.hands[1]]
    assert view["table"] == [0, 1, 2, 3, 0, 1]
    assert view["played"] == [ids[c] for s, c in state.table if s == 1] and len(view["played"]) == 2
    assert view["hand_sizes"] == [4, 4, 4, 4] and view["deck_size"] == 30
    spectator = state.view(None)
    assert spectator["hand"] == [] == spectator["played"]
    assert not any(ids[c] in str(spectator) for c in range(52))  # no card at all
    # re-sampled hidden cards: the seat's view does not change
    for seed in range(5):
        sample = spec.determinize(view, Rng(seed))
        assert sample.view(1) == view
        assert sample.legal_actions(1) == state.legal_actions(1) == []
    before = state.view(None), state.view(2)
    with pytest.raises(IllegalAction):
        state.apply(2, {"type": "play", "card": ids[state.hands[3][0]]})  # not its card
    with pytest.raises(IllegalAction):
        state.apply(3, {"type": "play", "card": ids[state.hands[3][0]]})  # not its turn
    with pytest.raises(MalformedAction):
        state.apply(2, {"type": "play", "card": "1X"})
    with pytest.raises(MalformedAction):
        state.apply(2, {"type": "pass"})
    assert (state.view(None), state.view(2)) == before
