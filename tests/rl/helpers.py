"""What the RL tests share: the games, a small player count each, random play."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from thievery.rl.match import Match

GAMES = ("schattendieb", "thieves", "thieves-den", "schatz-rabatz")
PLAYERS = {"schattendieb": 3, "thieves": 3, "thieves-den": 2, "schatz-rabatz": 2}


def random_index(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal index of ``mask``."""
    return int(rng.choice(np.flatnonzero(mask)))


def play_random(match: Match, seed: int, rng: np.random.Generator, limit: int = 5000) -> int:
    """Play one game of ``match`` from ``seed`` with random legal actions; the decisions."""
    match.start(seed)
    decisions = 0
    while not match.over and decisions < limit:
        seat = match.current()
        assert seat is not None
        match.act(seat, random_index(match.mask(seat), rng))
        decisions += 1
    return decisions


def random_decisions(match: Match, seeds: Iterable[int], rng: np.random.Generator) -> Iterator[int]:
    """Random games of ``match``, one from each seed: before each decision yields the
    seed (the state is ``match.state``), then takes a random legal action."""
    for seed in seeds:
        match.start(seed)
        while not match.over:
            yield seed
            seat = match.current()
            assert seat is not None
            match.act(seat, random_index(match.mask(seat), rng))
