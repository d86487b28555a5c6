"""Thieves!'s search hooks: the rollout policy plays legal moves, the heuristic bot's own
choices (up to its ties); the estimate is a share of the win per seat; rollouts play the
game to its end."""

from __future__ import annotations

import math

from tests.games.thieves.helpers import new, play
from thievery.bots import make_bot
from thievery.core import Rng
from thievery.games.thieves import GAME, SPEC
from thievery.games.thieves.actions import PLAY_TO
from thievery.games.thieves.bots import HeuristicBot, _Estimate
from thievery.games.thieves.cards import CARD_INDEX
from thievery.games.thieves.rules import Thieves
from thievery.games.thieves.search import (
    RacingSearch,
    RolloutSearch,
    _distinct,
    _upper,
    action_class,
)


def positions(games: int = 30, players: int = 4) -> list[Thieves]:
    """Every position of some random games, and determinizations of their views."""
    rng = Rng(11)
    out: list[Thieves] = []
    for g in range(games):
        state = SPEC.new(players + g % 3 - 1, seed=g)
        assert isinstance(state, Thieves)
        while state.to_act:
            seat = state.to_act[0]
            out.append(state.clone())
            sample = SPEC.determinize(state.view(seat), rng)
            assert isinstance(sample, Thieves)
            out.append(sample)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        out.append(state)
    return out


def test_rollout_actions_are_legal_in_every_phase() -> None:
    rng = Rng(3)
    phases = set()
    for state in positions():
        for seat in state.to_act:
            action = GAME.hooks.rollout_action(state, seat, rng)
            assert state.is_legal(seat, action), (action, state.view(seat))
            phases.add(state.phase)
    assert len(phases) == 4  # play, remove, move, double loot


def test_rollouts_play_whole_games() -> None:
    rng = Rng(5)
    for seed in range(20):
        state = SPEC.new(4, seed)
        while state.to_act:
            seat = state.to_act[0]
            state.apply(seat, GAME.hooks.rollout_action(state, seat, rng))
        assert state.result() is not None


def test_evaluate_is_a_share_of_the_win() -> None:
    for state in positions():
        rewards = GAME.hooks.evaluate(state)
        assert len(rewards) == state.players
        assert all(0.0 <= r <= 1.0 for r in rewards)
        assert math.isclose(sum(rewards), 1.0)
        result = state.result()
        if result is not None:
            winners = result["winners"]
            n = state.players
            assert rewards == [1 / len(winners) if s in winners else 0.0 for s in range(n)]


def late_game() -> Thieves:
    """Five getaways placed on seat 0's first draw; seat 0 to play a 3."""
    getaways = [f"getaway-{c}" for c in "abcde"]
    return new(
        [
            ["money-3a", "police-1a", "money-0a"],
            ["money-1a", "police-1b", "money-0c"],
            ["money-1b", "police-1c", "money-1d"],
        ],
        [*getaways, "money-1e", "money-1f", "money-1g", "money-2a", "money-2b", "money-2c"],
    )


def test_evaluate_favours_more_loot_and_fears_the_police() -> None:
    kept, given = late_game(), late_game()
    play(kept, "money-3a", 0)
    play(given, "money-3a", 1)
    assert GAME.hooks.evaluate(kept)[0] > GAME.hooks.evaluate(given)[0]
    calm = GAME.hooks.evaluate(kept)[0]
    play(kept, "police-1b")  # seat 1
    play(kept, "police-1c")  # seat 2
    play(kept, "police-1a")  # seat 0: three cars, seat 0 the police's target
    assert kept.cars == 3 and GAME.hooks.evaluate(kept)[0] < calm


def test_the_policy_keeps_good_money_and_dumps_the_ring_on_a_rival() -> None:
    state = new(
        [
            ["money-3a", "money-0a", "police-1a"],
            ["money-2a", "money-0b", "money-0c"],
            ["money-1b", "money-1c", "money-1d"],
        ],
        ["diamond-ring", "money-2c", "money-1e", "money-1f", "money-1g", "money-1h"],
    )
    rng = Rng(0)
    action = GAME.hooks.rollout_action(state, 0, rng)
    assert action.to_json() == {"type": "play", "card": "money-3a", "to": 0}
    state.apply(0, action)
    play(state, "money-2a", 1)
    play(state, "money-1b", 2)
    # Seat 0 holds the Ring, a zero, a one and a police card; seat 1 leads its rivals.
    action = GAME.hooks.rollout_action(state, 0, rng)
    assert action.to_json() == {"type": "play", "card": "diamond-ring", "to": 1}


def test_the_policy_chooses_as_the_heuristic_bot_does() -> None:
    """On a determinization of a seat's view, the policy picks an action the heuristic bot
    scores best from the view itself (the bot breaks ties at random, so may pick another)."""
    rng = Rng(7)
    checked = 0
    for seed in range(12):
        state = SPEC.new(3 + seed % 4, seed)
        bots = [make_bot("heuristic", "thieves", s, seed) for s in range(state.players)]
        while state.to_act:
            seat = state.to_act[0]
            view, legal = state.view(seat), state.legal_actions(seat)
            bot = bots[seat]
            assert isinstance(bot, HeuristicBot)
            if len(legal) > 1:
                sample = SPEC.determinize(view, rng)
                chosen = GAME.hooks.rollout_action(sample, seat, rng)
                est = _Estimate(view, seat)
                scores = {a: bot._score(view, est, a) for a in legal}
                assert math.isclose(scores[chosen], max(scores.values()), abs_tol=1e-9), (
                    chosen,
                    view,
                )
                checked += 1
            state.apply(seat, bot.act(view, legal))
    assert checked > 200


def test_rollouts_play_to_the_end_of_the_game() -> None:
    assert GAME.hooks.rollout_horizon(SPEC.new(4, 1)) is None
    depth = GAME.hooks.defaults()["rollout_depth"]
    rng = Rng(9)
    for seed in range(100):
        state = SPEC.new(3 + seed % 4, seed)
        decisions = 0
        while state.to_act:
            seat = state.to_act[0]
            state.apply(seat, GAME.hooks.rollout_action(state, seat, rng))
            decisions += 1
        assert decisions < depth / 2


def test_copies_of_a_card_are_one_move_to_the_search() -> None:
    state = new(
        [
            ["money-3a", "money-3b", "police-1a"],
            ["money-2a", "money-0b", "money-0c"],
            ["money-1b", "money-1c", "money-1d"],
        ],
        ["money-1a", "money-2c", "money-1e", "money-1f", "money-1g", "money-1h"],
    )
    a, b = (PLAY_TO[CARD_INDEX[c]][0] for c in ("money-3a", "money-3b"))
    assert action_class(state, a) == action_class(state, b)
    assert action_class(state, a) != action_class(state, PLAY_TO[CARD_INDEX["money-3a"]][1])
    assert action_class(state, a) != action_class(state, PLAY_TO[CARD_INDEX["money-1a"]][0])


def test_the_search_bots_play_from_the_view_alone() -> None:
    """Two true states behind the same view: the same decision with the same seed."""
    rng = Rng(4)
    state = SPEC.new(3, 21)
    checked = 0
    while state.to_act and checked < 6:
        seat = state.to_act[0]
        view, legal = state.view(seat), state.legal_actions(seat)
        if len(legal) > 1:
            other = SPEC.determinize(view, rng)
            assert other.view(seat) == view
            first = RolloutSearch("thieves", seat, Rng(2), iterations=120).act(view, legal)
            second = RolloutSearch("thieves", seat, Rng(2), iterations=120).act(
                other.view(seat), other.legal_actions(seat)
            )
            assert first == second and first in legal
            checked += 1
        state.apply(seat, rng.choice(legal))
    assert checked == 6
    plain, strong = make_bot("ismcts", "thieves", 0, 1), make_bot("ismcts-strong", "thieves", 0, 1)
    assert isinstance(plain, RolloutSearch) and plain.iterations == 100
    assert isinstance(strong, RacingSearch) and strong.iterations == 1200


def _wide_position(least: int) -> tuple[Thieves, int]:
    """A position of a seeded 3-player game whose seat to move has ``least`` distinct
    moves or more."""
    rng = Rng(8)
    state = SPEC.new(3, 33)
    assert isinstance(state, Thieves)
    while state.to_act:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if len(_distinct(state, legal, None)) >= least:
            return state, seat
        state.apply(seat, rng.choice(legal))
    raise AssertionError("no such position")


def test_racing_plays_every_move_on_the_same_samples_and_drops_the_trailing() -> None:
    state, seat = _wide_position(6)
    view = state.view(seat)
    bot = RacingSearch("thieves", seat, Rng(3), iterations=3000)
    sample = bot.sampler(view)
    first = sample(bot.rng)
    assert isinstance(first, Thieves)
    moves = _distinct(first, state.legal_actions(seat), None)
    rewards = bot.race(sample, first, moves)
    counts = [len(r) for r in rewards]
    n = max(counts)
    assert bot.last_iterations == sum(counts) <= 3000
    assert all(0.0 <= x <= 1.0 for r in rewards for x in r)
    left = [i for i, c in enumerate(counts) if c < n]
    assert left, "with 3,000 rollouts some move trails clearly and leaves the race"
    for i in left:  # only at a check, and only when it trailed a move still racing then
        c = counts[i]
        assert c >= bot.warm and c % bot.every == 0
        assert any(
            _upper(rewards[i][:c], rewards[j][:c], bot.z) < 0
            for j in range(len(moves))
            if counts[j] > c
        )
    # Common random numbers: the same move twice gets the very same rollouts.
    twice = RacingSearch("thieves", seat, Rng(3), iterations=200)
    sample = twice.sampler(view)
    first = sample(twice.rng)
    assert isinstance(first, Thieves)
    same = twice.race(sample, first, [moves[0], moves[0]])
    assert same[0] == same[1] and len(same[0]) == 100


def test_racing_keeps_the_guides_move_unless_it_left_the_race_or_is_beaten_surely() -> None:
    """Where the race's leader is not the guide's move: if the guide's move is still in
    the race, a bot that asks for certainty it cannot have plays it (same seed: the same
    race); if it left the race, it trailed by more than ``z`` standard errors."""
    rng = Rng(6)
    kept = left = 0
    for game in range(34, 40):
        state = SPEC.new(3, game)
        while state.to_act:
            seat = state.to_act[0]
            view, legal = state.view(seat), state.legal_actions(seat)
            if len(legal) > 1:
                bold = RacingSearch("thieves", seat, Rng(5), iterations=200, confidence=0.0)
                choice = bold.act(view, legal)
                moves, rewards = bold.last_race
                if choice != bold.guided:
                    n = max(len(r) for r in rewards)
                    c = len(rewards[0])
                    sure = RacingSearch("thieves", seat, Rng(5), iterations=200, confidence=1e9)
                    if c == n:
                        assert sure.act(view, legal) == sure.guided == bold.guided == moves[0]
                        kept += 1
                    else:
                        assert sure.act(view, legal) == choice
                        assert any(
                            _upper(rewards[0][:c], r[:c], bold.z) < 0 for r in rewards if len(r) > c
                        )
                        left += 1
                    if kept and left:
                        return
            state.apply(seat, rng.choice(legal))
    raise AssertionError(f"both cases not met in 6 games ({kept} kept, {left} left)")
