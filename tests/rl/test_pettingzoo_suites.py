"""PettingZoo's own test suites on every game: api_test, parallel_api_test, seed_test,
parallel_seed_test and max_cycles_test.

max_cycles_test plays unmasked random actions for ``max_cycles`` cycles and expects every
agent to act once a cycle. That is the Parallel environment (an illegal action is ignored,
a seat not to act waits) and its AEC form by PettingZoo's own ``parallel_to_aec``, which
is what it runs on. The turn-based ``env()`` cannot meet it: only the seat to decide acts
(so agents do not act once a cycle), an illegal action ends the game there (as in
PettingZoo's classic games) and ``raw_env()`` raises on it; its ``max_cycles`` counts
decisions, tested in test_pettingzoo.py."""

from __future__ import annotations

import functools
from types import SimpleNamespace
from typing import Any

import pytest
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)
from pettingzoo.utils.conversions import parallel_to_aec

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


@pytest.mark.parametrize("game", GAMES)
def test_max_cycles_test(game: str) -> None:
    def parallel(**kwargs: Any) -> Any:
        return parallel_env(game, PLAYERS[game], **kwargs)

    module = SimpleNamespace(
        parallel_env=parallel, env=lambda **kwargs: parallel_to_aec(parallel(**kwargs))
    )
    for _ in range(3):  # unseeded random actions: a few games each
        max_cycles_test(module)
