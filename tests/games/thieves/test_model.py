"""Thieves!'s level-1 play model (``model.py``): it reads only what the deciding seat
knows, covers every legal play, scores plays as the heuristic bot does, plays whole games
legally, and carries fitted weights; the level-2 search plays its rollouts by it."""

from __future__ import annotations

import math

from thievery.bots import make_bot
from thievery.core import Rng
from thievery.core.protocol import Action, State
from thievery.games.thieves import GAME, SPEC
from thievery.games.thieves.actions import Play
from thievery.games.thieves.bots import HeuristicBot, _Estimate
from thievery.games.thieves.cards import CARD_INDEX
from thievery.games.thieves.model import (
    FEATURES,
    HEURISTIC,
    WEIGHTS,
    card_key,
    dense,
    level_one_action,
    plays,
    probabilities,
)
from thievery.games.thieves.rules import DOUBLE, PLAY, Thieves
from thievery.games.thieves.search import RolloutSearch


def play_positions(games: int = 12) -> list[tuple[Thieves, int]]:
    """Every card-play (and Double Loot) decision of some games between heuristic bots."""
    out: list[tuple[Thieves, int]] = []
    for g in range(games):
        state = SPEC.new(3 + g % 4, seed=100 + g)
        assert isinstance(state, Thieves)
        bots = [make_bot("heuristic", "thieves", s, g) for s in range(state.players)]
        while state.to_act:
            seat = state.to_act[0]
            if state.phase in (PLAY, DOUBLE):
                out.append((state.clone(), seat))
            state.apply(seat, bots[seat].act(state.view(seat), state.legal_actions(seat)))
    return out


def key(action: object) -> tuple[object, ...]:
    assert isinstance(action, Play)
    return (card_key(CARD_INDEX[action.card]), action.to)


def test_the_model_reads_only_what_the_seat_knows() -> None:
    """Re-sample everything the seat cannot know: the same plays, the same chances."""
    rng = Rng(3)
    checked = 0
    for state, seat in play_positions():
        actions, probs = probabilities(state, seat)
        view = state.view(seat)
        for _ in range(3):
            other = SPEC.determinize(view, rng)
            assert isinstance(other, Thieves) and other.view(seat) == view
            other_actions, other_probs = probabilities(other, seat)
            assert [key(a) for a in other_actions] == [key(a) for a in actions]
            assert all(
                math.isclose(p, q, abs_tol=1e-12) for p, q in zip(probs, other_probs, strict=True)
            )
            checked += 1
    assert checked > 300


def test_the_model_offers_every_legal_play_once() -> None:
    for state, seat in play_positions(6):
        actions, _ = plays(state, seat, Rng(0))
        keys = [key(a) for a in actions]
        assert len(set(keys)) == len(keys)
        assert all(state.is_legal(seat, a) for a in actions)
        assert set(keys) == {key(a) for a in state.legal_actions(seat)}


def test_the_heuristic_feature_is_the_heuristic_bots_own_score() -> None:
    checked = 0
    for state, seat in play_positions(6):
        if state.phase != PLAY:
            continue
        view = state.view(seat)
        bot = HeuristicBot("thieves", seat, Rng(0))
        est = _Estimate(view, seat)
        actions, rows = plays(state, seat, Rng(0))
        for action, row in zip(actions, rows, strict=True):
            assert row[0][0] == HEURISTIC
            assert math.isclose(row[0][1], bot._score(view, est, action), abs_tol=1e-9)
            checked += 1
    assert checked > 500


def test_the_level_one_policy_plays_whole_games_legally() -> None:
    rng = Rng(8)
    phases = set()
    for seed in range(24):
        state = SPEC.new(3 + seed % 4, seed)
        assert isinstance(state, Thieves)
        while state.to_act:
            seat = state.to_act[0]
            phases.add(state.phase)
            action = level_one_action(state, seat, rng)
            assert state.is_legal(seat, action), (action, state.view(seat))
            state.apply(seat, action)
        assert state.result() is not None
    assert len(phases) == 4  # play, remove, move, double loot


def test_the_fitted_weights_are_present() -> None:
    assert len(WEIGHTS) == len(FEATURES)
    assert all(math.isfinite(w) for w in WEIGHTS)
    assert sum(1 for w in WEIGHTS if w != 0.0) >= len(FEATURES) // 2


def test_the_level_two_search_plays_its_rollouts_by_the_model() -> None:
    """``RolloutSearch(..., policy=level_one_action)`` (measured in the ladder's docs, not
    a registered level): its rollouts ask the model, and it decides legally."""
    calls = 0

    def counted(state: State, seat: int, rng: Rng) -> Action:
        nonlocal calls
        calls += 1
        return level_one_action(state, seat, rng)

    state = SPEC.new(3, 5)
    seat = state.to_act[0]
    view, legal = state.view(seat), state.legal_actions(seat)
    level2 = RolloutSearch("thieves", seat, Rng(1), iterations=30, policy=counted)
    assert level2.act(view, legal) in legal
    assert calls >= 30  # every rollout plays on by the model, to the end of the game
    plain = make_bot("ismcts", "thieves", 0, 1)
    assert isinstance(plain, RolloutSearch) and plain.policy == GAME.hooks.rollout_action


def test_the_fit_finds_the_likeliest_weights() -> None:
    """Choices drawn from the model with known weights: the fit's weights explain them at
    least as well as the weights that made them (both penalised by the fit's L2), and the
    penalised log-likelihood's gradient is zero there."""
    import numpy as np

    from research import softmax as bench

    rng = Rng(12)
    data = []
    for state, seat in play_positions(20):
        actions, probs = probabilities(state, seat)
        if len(actions) < 2:
            continue
        x, chosen = rng.random(), len(probs) - 1
        for i, p in enumerate(probs):
            x -= p
            if x < 0:
                chosen = i
                break
        data.append(([dense(r) for r in plays(state, seat, Rng(0))[1]], chosen))
    assert len(data) > 300
    l2 = 1e-2
    fitted = bench.fit(data, l2=l2)

    def loglik(w: np.ndarray) -> float:
        feats, real, picked = bench.arrays(data)
        p = bench.chances(w, feats, real)
        return float(np.log(p[np.arange(len(data)), picked]).sum() - l2 / 2 * w @ w)

    assert loglik(fitted) >= loglik(np.array(WEIGHTS)) - 1e-6
    feats, real, picked = bench.arrays(data)
    p = bench.chances(fitted, feats, real)
    grad = feats[np.arange(len(data)), picked].sum(axis=0) - np.einsum("nm,nmk->k", p, feats)
    grad -= l2 * fitted
    assert np.abs(grad).max() < 1e-4
