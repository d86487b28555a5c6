"""Observation secrecy: every observation tensor and action mask a seat gets is a function
of what it may know. Re-sample everything the seat cannot know (the game's determinizer,
and its search hooks' sampler) and the seat's tensor and masks must not change, while the
samples do differ in what the seat cannot see. Both ways to the observation vector are
held to it: the game's seat encoder (``thievery.rl.direct``, which reads the state
itself: ``Match.observation``) and the layout's encoding of the view."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.rl.helpers import GAMES, PLAYERS, random_index
from thievery.core.registry import plugin
from thievery.core.rng import Rng
from thievery.rl.match import Match


def _hidden(match: Match, seat: int) -> str:
    """What ``seat`` cannot know, as text: the other seats' views and the locations."""
    state = match.state
    others = [state.view(s) for s in range(match.players) if s != seat]
    return json.dumps([others, state.locations()], sort_keys=True, default=str)


@pytest.mark.parametrize("game", GAMES)
def test_resampling_what_a_seat_cannot_know_changes_none_of_its_tensors(game: str) -> None:
    p = plugin(game)
    spec, hooks = p.spec, p.hooks
    match = Match(game, PLAYERS[game])
    rng = np.random.default_rng(0)
    checked = differed = 0
    for seed in (0, 1):
        match.start(seed)
        step = 0
        while not match.over:
            current = match.current()
            assert current is not None
            if step % 3 == 0:
                for seat in range(match.players):
                    view = match.state.view(seat)
                    obs = match.observation(seat)  # the seat encoder where there is one
                    from_view = match.observation_from_view(seat)
                    mask = match.mask(seat)
                    together = match.mask(seat, together=True)
                    hidden = _hidden(match, seat)
                    draws = [spec.determinize(view, Rng(step * 7 + seat))]
                    draws.append(hooks.sampler(view)(Rng(step * 7 + seat + 1)))
                    for sample in draws:
                        other = match.with_state(sample)
                        assert np.array_equal(other.observation(seat), obs), (game, seed, step)
                        assert np.array_equal(other.observation_from_view(seat), from_view)
                        assert np.array_equal(other.mask(seat), mask), (game, seed, step)
                        assert np.array_equal(other.mask(seat, together=True), together)
                        checked += 1
                        differed += _hidden(other, seat) != hidden
            match.act(current, random_index(match.mask(current), rng))
            step += 1
    assert checked > 50
    assert differed > 0, f"{game}: the samples never differed in what the seat cannot see"
