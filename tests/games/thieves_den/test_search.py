"""Thieves Den's search hooks: the rollout policy, the evaluation, the sampler and the
memory of passed hands."""

from __future__ import annotations

from thievery.bots import make_bot
from thievery.core import Rng
from thievery.games.thieves_den.rules import ThievesDen
from thievery.games.thieves_den.search import MemoryBot, estimates, rollout_action

from .helpers import GAME, SPEC, new


def _heuristic_game(players: int, seed: int) -> list[tuple[ThievesDen, int]]:
    """Every decision (state before it, seat) of a game between heuristic bots."""
    state = SPEC.new(players, seed)
    assert isinstance(state, ThievesDen)
    bots = [make_bot("heuristic", "thieves-den", s, seed) for s in range(players)]
    seen = []
    while state.to_act:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            seen.append((state.clone(), seat))
        state.apply(seat, bots[seat].act(state.view(seat), legal))
    return seen


def test_the_rollout_policy_chooses_as_the_heuristic_does() -> None:
    # The heuristic breaks exact ties at random: its choice is among the policy's choices
    # over a few seeds, and is the policy's choice with one seed almost always.
    decisions = 0
    same = 0
    for players in (2, 4):
        for state, seat in _heuristic_game(players, 11):
            legal = state.legal_actions(seat)
            bot = make_bot("heuristic", "thieves-den", seat, 3)
            wanted = bot.act(state.view(seat), legal)
            mine = {rollout_action(state, seat, Rng(k)) for k in range(12)}
            assert mine <= set(legal)
            assert wanted in mine
            same += rollout_action(state, seat, Rng(0)) == wanted
            decisions += 1
    assert decisions > 100
    assert same > 0.9 * decisions


def test_the_rollout_policy_plays_sampled_states_to_the_end() -> None:
    rng = Rng(5)
    for players in (2, 3, 5):
        state = SPEC.new(players, players)
        for _ in range(25):  # some way into the game
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        seat = state.to_act[0]
        sample = GAME.hooks.sampler(state.view(seat))(rng)
        assert sample.view(seat) == state.view(seat)
        while sample.to_act:
            s = sample.to_act[0]
            action = GAME.hooks.rollout_action(sample, s, rng)
            assert sample.is_legal(s, action)
            sample.apply(s, action)
        assert sample.result() is not None


def test_evaluate_is_a_share_and_favours_the_richer_seat() -> None:
    for state, _ in _heuristic_game(3, 2)[::10]:
        value = GAME.hooks.evaluate(state)
        assert all(0 <= v <= 1 for v in value)
        assert abs(sum(value) - 1) < 1e-9
    state = new(2)
    before = GAME.hooks.evaluate(state)
    state.prestige[1] += 6
    after = GAME.hooks.evaluate(state)
    assert after[1] > before[1] and after[0] < before[0]
    assert estimates(state)[1] - estimates(state)[0] > 5


def test_the_sampler_draws_as_determinize_does() -> None:
    state = SPEC.new(3, 6)
    rng = Rng(1)
    for _ in range(20):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seat = state.to_act[0]
    view = state.view(seat)
    sample = GAME.hooks.sampler(view)
    for k in range(5):
        a, b = sample(Rng(k)), SPEC.determinize(view, Rng(k))
        assert a.locations() == b.locations()
        assert a.view(seat) == view


def test_a_passed_hand_is_known_to_the_seat_that_passed_it() -> None:
    # 2 players: after the first pick each seat holds what the other passed it.
    state = new(2, first=0)
    bots = [MemoryBot("thieves-den", s, Rng(s), iterations=8) for s in range(2)]
    first = [list(state.view(s)["hand"]) for s in range(2)]
    for s in range(2):
        state.apply(s, bots[s].act(state.view(s), state.legal_actions(s)))
    # Seat 0 decides again; seat 1 holds (and may have picked from) seat 0's first hand.
    state.apply(1, state.legal_actions(1)[0])
    assert state.to_act == (0,)
    view = state.view(0)
    bots[0].act(view, state.legal_actions(0))
    remembered = {**view, "passed_hands": [[r, h] for r, h in bots[0].hands]}
    public = {c for x in view["seats"] for c in x["collected"]} | {
        y["card"] for x in view["seats"] for y in x["locations"]
    }
    passed = {c for c in first[0] if c not in public}
    truth = set(state.locations()["hand1"]) | set(state.locations()["pick1"])
    assert truth == passed
    for k in range(6):
        sample = SPEC.determinize(remembered, Rng(k))
        places = sample.locations()
        assert set(places["hand1"]) | set(places["pick1"]) == passed
        assert sample.view(0) == view
    # Without the memory the sample is left to chance.
    drawn = [SPEC.determinize(view, Rng(k)).locations()["hand1"] for k in range(6)]
    assert any(set(h) != set(state.locations()["hand1"]) for h in drawn)


def test_the_search_bots_play_a_game() -> None:
    state = SPEC.new(2, 9)
    bots = [make_bot(name, "thieves-den", s, 9) for s, name in enumerate(["ismcts", "heuristic"])]
    assert isinstance(bots[0], MemoryBot)
    bots[0].iterations = 10
    while state.to_act:
        seat = state.to_act[0]
        action = bots[seat].act(state.view(seat), state.legal_actions(seat))
        state.apply(seat, action)
    assert state.result() is not None


def test_the_memory_holds_through_whole_games_at_every_player_count() -> None:
    # At every pick the samples agree with the view, and the seat next in the passing
    # direction holds (with its sealed pick) exactly what this seat passed it.
    for players in (3, 4, 5):
        state = SPEC.new(players, 20 + players)
        assert isinstance(state, ThievesDen)
        bots = [MemoryBot("thieves-den", s, Rng(s), iterations=1) for s in range(players)]
        checked = 0
        while state.to_act:
            seat = state.to_act[-1]
            view = state.view(seat)
            legal = state.legal_actions(seat)
            action = bots[seat].act(view, legal)
            if legal[0].type == "pick" and len(bots[seat].hands) > 1:
                remembered = {**view, "passed_hands": [[r, h] for r, h in bots[seat].hands]}
                nxt = (seat + state.direction) % players
                places = state.locations()
                truth = set(places[f"hand{nxt}"]) | set(places[f"pick{nxt}"])
                for k in range(3):
                    sample = SPEC.determinize(remembered, Rng(k))
                    assert sample.view(seat) == view
                    drawn = sample.locations()
                    if len(bots[seat].hands[-2][1]) == len(view["hand"]) + 1:
                        assert set(drawn[f"hand{nxt}"]) | set(drawn[f"pick{nxt}"]) == truth
                checked += 1
            state.apply(seat, action)
        assert checked > 5
