"""The OpenSpiel games: OpenSpiel's own random simulation test on every game, its ISMCTS
bot and evaluate_bots on one, and the tensors' secrecy through resample_from_infostate."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.bots import uniform_random
from open_spiel.python.observation import make_observation

from tests.rl.helpers import GAMES, PLAYERS
from thievery.rl.openspiel import register, short_name

register()


@pytest.mark.parametrize("game", GAMES)
def test_random_sim_test(game: str) -> None:
    g = pyspiel.load_game(short_name(game), {"players": PLAYERS[game]})
    pyspiel.random_sim_test(g, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("game", GAMES)
def test_resampled_infostates_keep_the_seats_tensors(game: str) -> None:
    g = pyspiel.load_game(short_name(game), {"players": PLAYERS[game], "deals": 16})
    state = g.new_initial_state()
    rng = np.random.default_rng(1)
    checked = 0
    while not state.is_terminal() and checked < 40:
        if state.is_chance_node():
            state.apply_action(3)
            continue
        player = state.current_player()
        sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
        assert sample.information_state_tensor(player) == state.information_state_tensor(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))
        checked += 1
    assert checked > 5


class _Restartable(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel 2.0.2's ISMCTSBot lacks the restart_at that evaluate_bots calls; it keeps
    no state between moves, so there is nothing to restart."""

    def restart_at(self, state: pyspiel.State) -> None:
        pass


def test_openspiels_ismcts_bot_plays_through_evaluate_bots() -> None:
    g = pyspiel.load_game(short_name("thieves"), {"players": 3, "deals": 8})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    searcher = _Restartable(
        game=g,
        evaluator=evaluator,
        uct_c=1.0,
        max_simulations=20,
        random_state=np.random.RandomState(0),
    )
    uniform = [uniform_random.UniformRandomBot(p, np.random.RandomState(p)) for p in (1, 2)]
    returns = evaluate_bots.evaluate_bots(
        g.new_initial_state(), [searcher, *uniform], np.random.RandomState(2)
    )
    assert len(returns) == 3 and sum(returns) == pytest.approx(1.0)


@pytest.mark.parametrize("game", GAMES)
def test_the_python_fast_paths_answer_as_openspiel_does(game: str) -> None:
    """legal_actions and is_chance_node answer in Python what OpenSpiel's C++ answers."""
    g = pyspiel.load_game(short_name(game), {"players": PLAYERS[game], "deals": 8})
    state = g.new_initial_state()
    rng = np.random.default_rng(3)
    steps = 0
    while steps < 150:
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for p in range(g.num_players()):
            assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
        if state.is_terminal():
            break
        if state.is_chance_node():
            assert state.chance_outcomes() == [(d, 1 / 8) for d in range(8)]  # one node
        state.apply_action(int(rng.choice(state.legal_actions())))
        steps += 1
    assert steps > 20


def test_many_deals_are_drawn_in_two_small_chance_nodes_every_seed_equally_likely() -> None:
    from thievery.rl.openspiel import seed_parts

    assert seed_parts(1024) == (32, 32)
    assert seed_parts(64) == (64, 1)  # up to SPLIT_ABOVE: one node
    assert seed_parts(96) == (12, 8)
    assert seed_parts(101) == (101, 1)  # a prime: one node
    g = pyspiel.load_game(short_name("thieves"), {"players": 3, "deals": 96})
    assert g.max_chance_outcomes() == 12
    seeds = set()
    for high in range(12):
        for low in range(8):
            state = g.new_initial_state()
            assert state.chance_outcomes() == [(d, 1 / 12) for d in range(12)]
            state.apply_action(high)
            assert state.is_chance_node() and state.match is None
            assert state.chance_outcomes() == [(d, 1 / 8) for d in range(8)]
            state.apply_action(low)
            assert not state.is_chance_node()
            seeds.add(state.match.state.seed)
    assert seeds == set(range(96))  # each seed once: 1/96 each, as one node of 96 gives
    state = g.new_initial_state()
    state.apply_action(5)
    state.apply_action(3)
    again = pyspiel.load_game(short_name("thieves"), {"players": 3, "deals": 96})
    replay = again.deserialize_state(state.serialize())
    assert replay.match.state.seed == state.match.state.seed == 5 * 8 + 3


@pytest.mark.parametrize("game", GAMES)
def test_observers_are_of_a_seats_own_view_and_other_types_are_refused(game: str) -> None:
    """An observer asked for public information only was given each seat's own view:
    its hand, in what OpenSpiel algorithms take to be the same for every player."""
    g = pyspiel.load_game(short_name(game), {"players": PLAYERS[game]})
    state = g.new_initial_state()
    while state.is_chance_node():
        state.apply_action(1)
    kinds = pyspiel.PrivateInfoType
    for public, private in [
        (True, kinds.NONE),
        (True, kinds.ALL_PLAYERS),
        (False, kinds.SINGLE_PLAYER),
    ]:
        for recall in (False, True):
            asked = pyspiel.IIGObservationType(
                perfect_recall=recall, public_info=public, private_info=private
            )
            with pytest.raises(ValueError, match="only a seat's own view"):
                make_observation(g, asked)
    for recall in (False, True):
        own = make_observation(
            g,
            pyspiel.IIGObservationType(
                perfect_recall=recall, public_info=True, private_info=kinds.SINGLE_PLAYER
            ),
        )
        for player in range(PLAYERS[game]):
            own.set_from(state, player)
            assert list(own.tensor) == state.observation_tensor(player)
            text = own.string_from(state, player)
            assert text.startswith(state.observation_string(player))
    default = make_observation(g)  # (OpenSpiel's default type: a seat's own view)
    default.set_from(state, 0)
    assert list(default.tensor) == state.observation_tensor(0)


def _dealt(game: str, players: int) -> pyspiel.State:
    """A new state of ``game`` past its chance nodes (the deal drawn), a few moves in."""
    state = pyspiel.load_game(short_name(game), {"players": players}).new_initial_state()
    rng = np.random.default_rng(5)
    while state.is_chance_node() or len(state.history()) < 8:
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_action_leaves_the_state_and_its_strings_as_they_were(game: str) -> None:
    state = _dealt(game, PLAYERS[game])
    player = state.current_player()
    before = (state.information_state_string(player), state.history(), state.legal_actions())
    illegal = next(a for a in range(state.num_distinct_actions()) if a not in before[2])
    for bad in (illegal, 10**5):
        with pytest.raises(Exception):  # noqa: B017 (pyspiel wraps Python's errors)
            state.apply_action(bad)
    after = (state.information_state_string(player), state.history(), state.legal_actions())
    assert after == before
    clone = state.clone()
    clone.apply_action(before[2][0])  # a legal move after them counts alone
    assert clone.information_state_string(player) != before[0]


@pytest.mark.parametrize("game", GAMES)
def test_a_resampled_state_survives_serialization(game: str) -> None:
    g = pyspiel.load_game(short_name(game), {"players": PLAYERS[game]})
    state = _dealt(game, PLAYERS[game])
    player = state.current_player()
    sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
    again = g.deserialize_state(sample.serialize())
    for seat in range(PLAYERS[game]):  # the sample itself, every seat's view of it
        assert again.information_state_string(seat) == sample.information_state_string(seat)
        assert again.observation_tensor(seat) == sample.observation_tensor(seat)
    assert again.legal_actions() == sample.legal_actions()
    assert str(again) == str(sample)
    real = g.deserialize_state(state.serialize())  # (a real state: from its seed, as before)
    assert str(real) == str(state)


def test_games_pickle_and_a_fresh_process_unpickles_them() -> None:
    import pickle
    import subprocess
    import sys

    g = pyspiel.load_game(short_name("thieves"), {"players": 3})
    data = pickle.dumps(g)
    assert pickle.loads(data).num_players() == 3
    code = "import pickle, sys; print(pickle.loads(sys.stdin.buffer.read()).num_players())"
    out = subprocess.run(
        [sys.executable, "-c", code], input=data, capture_output=True, check=True, timeout=120
    )
    assert out.stdout.strip() == b"3"


def test_a_chance_outcome_that_is_none_is_refused() -> None:
    g = pyspiel.load_game(short_name("thieves"), {"players": 3, "deals": 32})
    state = g.new_initial_state()
    outcomes = [a for a, _ in state.chance_outcomes()]
    assert outcomes == list(range(len(outcomes)))
    for bad in (len(outcomes), 99):
        with pytest.raises(Exception, match="chance outcome"):
            state.apply_action(bad)
    assert state.history() == [] and state.is_chance_node()


def test_the_real_time_games_bound_grows_as_its_step_shrinks_and_bad_steps_are_refused() -> None:
    def bound(step: int) -> int:
        game = pyspiel.load_game(short_name("schatz-rabatz"), {"players": 2, "step_ms": step})
        length: int = game.max_game_length()
        return length

    assert bound(250) == bound(500) == 20_000
    assert bound(10) == 20_000 * 25
    for bad in (0, -5):
        with pytest.raises(Exception, match="step_ms must be positive"):
            pyspiel.load_game(short_name("schatz-rabatz"), {"players": 2, "step_ms": bad})
