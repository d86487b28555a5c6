"""The level-1 play model behind ``ismcts-strong``: it reads only what its seat knows."""

from __future__ import annotations

import pytest

from thievery.core import Rng
from thievery.games.schattendieb.cards import CARD_INDEX
from thievery.games.schattendieb.model import (
    FEATURES,
    WEIGHTS,
    card_features,
    level_one_action,
    play_probabilities,
    play_scores,
)
from thievery.games.schattendieb.rules import PLAY, Schattendieb

from .helpers import SPEC


def _positions(seed: int, players: int = 4) -> list[Schattendieb]:
    """States along a random game, one per decision."""
    state = SPEC.new(players, seed, {"games": 1})
    assert isinstance(state, Schattendieb)
    rng = Rng(seed)
    out = []
    while state.to_act:
        out.append(state.clone())
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return out


def test_the_weights_are_fitted() -> None:
    assert len(WEIGHTS) == len(FEATURES)
    assert any(WEIGHTS)


@pytest.mark.parametrize("seed", range(4))
def test_the_model_sees_only_its_seats_view(seed: int) -> None:
    """Re-deal everything the seat cannot see: its features and chances stay the same."""
    rng = Rng(seed)
    checked = 0
    for state in _positions(seed):
        if state.phase != PLAY:
            continue
        for seat in state.to_act:
            probs = play_probabilities(state, seat)
            assert sum(probs) == pytest.approx(1.0)
            for _ in range(3):
                other = SPEC.determinize(state.view(seat), rng)
                assert isinstance(other, Schattendieb)
                assert other.hands[seat] == state.hands[seat]
                assert play_probabilities(other, seat) == probs
                checked += 1
    assert checked > 50


def test_closing_features_follow_the_safe() -> None:
    state = next(s for s in _positions(3) if s.phase == PLAY and any(s.safes))
    seat = next(t for t in state.to_act if state.safes[t])
    close = CARD_INDEX["close-15a"]
    f = dict(zip(FEATURES, card_features(state, seat, close), strict=True))
    assert f["close"] == 1.0 and f["close_wasted"] == 0.0
    assert f["close_pile"] == pytest.approx(len(state.pile) / 80)
    state.safes[seat] = []
    f = dict(zip(FEATURES, card_features(state, seat, close), strict=True))
    assert f["close"] == 0.0 and f["close_wasted"] == 1.0


@pytest.mark.parametrize("seed", range(3))
def test_the_level_one_policy_plays_whole_games_legally(seed: int) -> None:
    state = SPEC.new(3, seed, {"games": 1})
    rng = Rng(seed)
    while state.to_act:
        seat = state.to_act[0]
        action = level_one_action(state, seat, rng)
        assert action in state.legal_actions(seat)
        state.apply(seat, action)
    assert state.result() is not None


@pytest.mark.parametrize("seed", range(3))
def test_fast_scores_are_the_weighted_features(seed: int) -> None:
    for state in _positions(seed, players=3):
        if state.phase != PLAY:
            continue
        for seat in state.to_act:
            slow = [
                sum(w * x for w, x in zip(WEIGHTS, card_features(state, seat, c), strict=True))
                for c in state.hands[seat]
            ]
            assert play_scores(state, seat) == pytest.approx(slow)
