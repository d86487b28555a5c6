"""A real-time game simulated with bots: who of several bots due at the same moment acts
first is drawn from a generator of its own, never from the one that dealt the game
(``Rng(seed)``: its draws would repeat the shuffle's, so that the order of bots that
tie would follow the deal)."""

from __future__ import annotations

from typing import Any

import pytest

import thievery.bots.realtime as realtime
from thievery.core.rng import Rng
from thievery.rl.export import play
from thievery.sim.runner import play_game

SEED = 7


@pytest.fixture
def clocks(monkeypatch: pytest.MonkeyPatch) -> list[Rng]:
    """The generators every simulated real-time game is given (the first draws each)."""
    given: list[Rng] = []
    play = realtime.play_simulated

    def noting(state: Any, bots: Any, rng: Rng) -> int:
        given.append(rng.copy())
        return play(state, bots, rng)

    monkeypatch.setattr(realtime, "play_simulated", noting)
    return given


def draws(rng: Rng, n: int = 8) -> list[float]:
    return [rng.random() for _ in range(n)]


def test_a_simulated_games_ties_are_not_broken_by_the_deals_numbers(clocks: list[Rng]) -> None:
    outcome = play_game("schatz-rabatz", ["packer-instant", "packer-instant"], SEED)
    again = play_game("schatz-rabatz", ["packer-instant", "packer-instant"], SEED)
    assert outcome == again  # (still the same game for the same seed)
    assert len(clocks) == 2
    assert draws(clocks[0].copy()) == draws(clocks[1].copy())
    assert draws(clocks[0]) != draws(Rng(SEED))  # not the deal's stream


def test_an_exports_games_are_not_broken_by_the_deals_numbers(clocks: list[Rng]) -> None:
    """An export plays each game again from its seed: with the simulation's clock."""
    exported = play("schatz-rabatz", ["packer-instant", "packer-instant"], SEED, {})
    simulated = play_game("schatz-rabatz", ["packer-instant", "packer-instant"], SEED)
    assert exported.result() is not None
    assert exported.result()["winners"] == list(simulated.winners)
    assert len(clocks) == 2 and draws(clocks[0]) == draws(clocks[1]) != draws(Rng(SEED))
