"""The Gymnasium environments: Gymnasium's own check_env on every game, the registered ids,
bots in the other seats, masks in info."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import thievery.rl.gymnasium as rl_gym
from tests.rl.helpers import GAMES, PLAYERS, random_index
from thievery.core.errors import ThieveryError


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_check_env(game: str, opponents: str) -> None:
    e = gymnasium.make(rl_gym.ENV_IDS[game], players=PLAYERS[game], opponents=opponents)
    check_env(e.unwrapped, skip_render_check=False)


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_episode_against_heuristic_bots(game: str) -> None:
    players = PLAYERS[game]
    e = gymnasium.make(rl_gym.ENV_IDS[game], players=players, opponents="heuristic", seat=1)
    rng = np.random.default_rng(0)
    obs, info = e.reset(seed=8)
    assert info["seat"] == 1
    assert e.observation_space.contains(obs)
    steps, done, reward = 0, False, 0.0
    while not done:
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() > 0
        obs, reward, terminated, truncated, info = e.step(random_index(mask, rng))
        done = terminated or truncated
        steps += 1
        assert not info.get("illegal")
    assert 0.0 <= reward <= 1.0
    assert steps > 3
    # the other seats were played by bots: the learner took only its own decisions
    match = e.unwrapped.match  # type: ignore[attr-defined]
    learner = [s for s, _ in match.state.history() if s == 1]
    assert len(learner) <= steps
    assert len([s for s, _ in match.state.history() if s not in (1, -1)]) > 0


def test_an_illegal_action_ends_the_episode() -> None:
    e = gymnasium.make("thievery/Thieves-v0", players=4, opponents="heuristic")
    _, info = e.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = e.step(illegal)
    assert terminated and reward == -1.0 and info["illegal"]
    # Ended, though its game is not over: a step now is refused, as at a game's end (it
    # went on with the same game before).
    legal = int(np.flatnonzero(info["action_mask"])[0])
    with pytest.raises(RuntimeError, match="call reset"):
        e.step(legal)
    _, info = e.reset(seed=0)
    _, _, terminated, _, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert not info.get("illegal")


def test_opponents_by_seat_and_refusals() -> None:
    e = gymnasium.make(
        "thievery/Schattendieb-v0", players=4, opponents=["random", "heuristic", "random"]
    )
    assert e.unwrapped.bot_names == {1: "random", 2: "heuristic", 3: "random"}  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="opponents"):
        gymnasium.make("thievery/Schattendieb-v0", players=4, opponents=["random"])
    with pytest.raises(ThieveryError, match="bogus"):  # at make, not at the first reset
        gymnasium.make("thievery/Thieves-v0", players=3, opponents="bogus")


def test_an_action_that_is_no_whole_number_index_is_refused_and_changes_nothing() -> None:
    e = gymnasium.make("thievery/Thieves-v0", players=3, opponents="random")
    _, info = e.reset(seed=3)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    for bad in (legal + 0.7, float(legal), None, [legal, legal], np.array([True]), "1"):
        with pytest.raises(ValueError, match="one whole-number index"):
            e.step(bad)
    fresh = gymnasium.make("thievery/Thieves-v0", players=3, opponents="random")
    fresh.reset(seed=3)  # (nothing was taken: the good step after them is the first one)
    assert np.array_equal(e.step(legal)[0], fresh.step(legal)[0])
    for good in (legal, np.int64(legal), np.array(legal), np.array([legal])):
        e.reset(seed=3)
        assert e.step(good)[4].get("illegal") is not True
