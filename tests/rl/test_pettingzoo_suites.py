"""PettingZoo's own test suites on every game: api_test, parallel_api_test, seed_test,
parallel_seed_test (max_cycles_test does not apply: it plays unmasked random actions and
expects every agent to act every cycle; our turn-based games end the game on an illegal
action, as PettingZoo's classic games do. Truncation is tested in test_pettingzoo.py)."""

from __future__ import annotations

import functools

import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from tests.rl.helpers import GAMES, PLAYERS
from thievery.rl.pettingzoo import env, parallel_env


@pytest.mark.parametrize("game", GAMES)
def test_api_test(game: str) -> None:
    api_test(env(game, PLAYERS[game]), num_cycles=300)


@pytest.mark.parametrize("game", GAMES)
def test_parallel_api_test(game: str) -> None:
    parallel_api_test(parallel_env(game, PLAYERS[game]), num_cycles=300)


@pytest.mark.parametrize("game", GAMES)
def test_seed_test(game: str) -> None:
    seed_test(functools.partial(env, game, PLAYERS[game]), num_cycles=200)


@pytest.mark.parametrize("game", GAMES)
def test_parallel_seed_test(game: str) -> None:
    parallel_seed_test(functools.partial(parallel_env, game, PLAYERS[game]), num_cycles=200)
