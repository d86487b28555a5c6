"""The seat encoders (``thievery.rl.direct``: observations read straight from the state)
are the view's twins: bit-identical to encoding ``state.view(seat)``. (That they read
nothing the seat cannot know is ``tests/rl/test_secrecy.py``'s: it checks the seat encoder
and the view's encoding alike.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.games.thieves_den.helpers import write_custom_set
from tests.rl.helpers import PLAYERS, random_index
from thievery.core.registry import plugin
from thievery.games.thieves_den.cards import inline_card_set
from thievery.rl.direct import SEAT_ENCODERS
from thievery.rl.match import Match

DIRECT = tuple(SEAT_ENCODERS)


def test_the_fast_games_use_their_seat_encoder() -> None:
    assert "schattendieb" in DIRECT
    for game in DIRECT:
        assert Match(game, PLAYERS[game])._direct is not None


# options that change what the vectors hold (the defaults are played at every count)
OPTIONS = [
    ("schattendieb", {"games": 1}),
    ("schatz-rabatz", {"little_pirates": True, "big_pirates": True}),
    ("schatz-rabatz", {"width": 5, "depth": 6, "short_game": True}),
]


@pytest.mark.parametrize("game", DIRECT)
def test_the_seat_encoder_writes_what_the_view_encodes(game: str) -> None:
    """Every seat, every decision of random games, at several player counts: the seat
    encoder's vector is byte for byte the layout's encoding of the seat's view."""
    spec = plugin(game).spec
    counts = sorted({spec.min_players, PLAYERS[game], 4, spec.max_players})
    for players in counts:
        _compare_along_random_games(Match(game, players))


@pytest.mark.parametrize(("game", "options"), OPTIONS)
def test_the_seat_encoder_follows_the_options(game: str, options: dict[str, object]) -> None:
    _compare_along_random_games(Match(game, PLAYERS[game], options))


def test_the_thieves_den_seat_encoder_follows_the_card_set(tmp_path: Path) -> None:
    """Another card set (the Thieves Den tests' custom one, inline) at 3 players."""
    cards = inline_card_set(write_custom_set(tmp_path))
    _compare_along_random_games(Match("thieves-den", 3, {"cards": cards}))


def _compare_along_random_games(match: Match) -> None:
    """Both vectors of every seat at every decision of two random games, and at the end."""
    game, players = match.game, match.players
    assert match._direct is not None
    rng = np.random.default_rng(players)
    compared = 0
    for seed in range(2):
        match.start(seed)
        while not match.over:
            for s in range(players):
                fast = match.observation(s)
                slow = match.observation_from_view(s)
                assert fast.dtype == slow.dtype == np.float32
                assert fast.tobytes() == slow.tobytes(), (game, players, seed, s)
                compared += 1
            seat = match.current()
            assert seat is not None
            match.act(seat, random_index(match.mask(seat), rng))
        for s in range(players):  # the end, scores and all
            assert match.observation(s).tobytes() == match.observation_from_view(s).tobytes()
    assert compared > 50


def test_thieves_dens_stack_field_marks_the_effect_that_runs_next() -> None:
    """The engine runs its pending effects last in, first out (``queue[-1]`` is resolved
    next): the observation's "stack" one-hot is that effect's op, the counts the rest.
    (Both encoders marked the first entry, the last to run.)"""
    from thievery.games.thieves_den.effects import OP_NAMES

    match = Match("thieves-den", 4)
    field = next(f for f in match.layout.describe() if f["name"] == "stack")
    at, n_ops = field["offset"], len(OP_NAMES)
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(40):
        match.start(seed)
        while not match.over and checked < 20:
            queue = match.state.queue  # type: ignore[attr-defined]
            if len(queue) >= 2 and queue[0][0] != queue[-1][0]:
                later = [0.0] * n_ops
                for entry in queue[:-1]:
                    later[entry[0]] += 1.0
                for s in range(match.players):
                    for vector in (match.observation(s), match.observation_from_view(s)):
                        block = vector[at : at + 2 * n_ops].tolist()
                        assert block[:n_ops] == [float(op == queue[-1][0]) for op in range(n_ops)]
                        assert block[n_ops:] == later
                checked += 1
            seat = match.current()
            assert seat is not None
            match.act(seat, random_index(match.mask(seat), rng))
        if checked >= 20:
            break
    assert checked >= 20  # decisions with two different effects pending
