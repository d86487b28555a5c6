"""Search mode (``quiet``): the same game without events, stopping at the end of a game."""

from __future__ import annotations

import pytest

from thievery.core import Rng
from thievery.games.schattendieb.rules import OVER, Schattendieb

from .helpers import GAME, SPEC


@pytest.mark.parametrize("seed", range(6))
def test_quiet_plays_the_same_game_without_events_and_stops_with_it(seed: int) -> None:
    loud = SPEC.new(4, seed, {"games": 2})
    assert isinstance(loud, Schattendieb)
    quiet = loud.clone()
    quiet.quiet = True
    rng = Rng(seed)
    while quiet.to_act:
        assert loud.to_act == quiet.to_act
        seat = loud.to_act[0]
        action = rng.choice(loud.legal_actions(seat))
        assert loud.legal_actions(seat) == quiet.legal_actions(seat)
        assert loud.apply(seat, action)  # a loud state always tells what happened
        assert quiet.apply_trusted(seat, action) == []
        if quiet.to_act:
            assert (loud.hands, loud.safes, loud.pile) == (quiet.hands, quiet.safes, quiet.pile)
    # The first game is over: the loud state dealt the second, the quiet one stopped.
    assert loud.game_no == quiet.game_no == 1
    assert loud.totals == quiet.totals
    assert loud.to_act and quiet.result() is None
    assert quiet.safes == [[], [], [], []]
    assert GAME.hooks.evaluate(quiet) == pytest.approx(GAME.hooks.evaluate(_between(loud)))


def _between(state: Schattendieb) -> Schattendieb:
    """The loud state as search mode leaves it: safes empty, the totals kept."""
    s = state.clone()
    s.safes = [[] for _ in range(s.players)]
    return s


def test_quiet_last_game_ends_the_match() -> None:
    state = SPEC.new(3, 2, {"games": 1})
    assert isinstance(state, Schattendieb)
    state.quiet = True
    rng = Rng(2)
    while state.to_act:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.phase == OVER
    result = state.result()
    assert result is not None and result["scores"] == state.totals


def test_the_search_sampler_gives_quiet_states_and_determinize_loud_ones() -> None:
    state = SPEC.new(4, 1)
    view = state.view(0)
    sampled = GAME.hooks.sampler(view)(Rng(1))
    assert isinstance(sampled, Schattendieb) and sampled.quiet
    plain = SPEC.determinize(view, Rng(1))
    assert isinstance(plain, Schattendieb) and not plain.quiet
