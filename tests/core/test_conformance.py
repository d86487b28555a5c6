"""The conformance suite every registered game runs: the protocol's promises, checked by
the library :mod:`thievery.testing` (an outside game runs the same checks with
``thievery.testing.check_game(GAME)``).

Random playouts to the end over many seeds and player counts; every component in exactly
one place at every step; legal actions only for the seats to act; JSON round trips of
actions and views; determinism; record -> replay; the non-interference test (re-sample
everything a seat cannot see: its view and legal actions do not change); illegal and
malformed actions refused with the state unchanged; ``is_legal`` holding exactly for the
listed legal actions; independent clones; keyed deals (a server's seeds) drawn from a
keyed generator, kept by clones; a clear refusal of a bad setup; seat names in
the events' words.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import thievery
import thievery.testing
from thievery.core import UnknownGame
from thievery.testing import (
    check_clone_independence,
    check_determinism,
    check_event_names,
    check_is_legal_matches_legal_actions,
    check_keyed_deals,
    check_non_interference,
    check_random_playouts,
    check_record_replay,
    check_refusals,
    check_spec,
    player_counts,
)

GAMES = thievery.game_names()
CASES = [(name, n) for name in GAMES for n in player_counts(name)]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_playouts_end_cleanly(name: str, players: int) -> None:
    """15 seeds to the end; the first 3 check every step (legal actions only for the seats
    to act, component accounting, JSON round trips of actions, events and views)."""
    check_random_playouts(name, players, seeds=range(15), checked=3)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_same_seed_and_actions_give_the_same_game(name: str, seed: int, data: Any) -> None:
    spec = thievery.game(name)
    players = data.draw(st.integers(spec.min_players, spec.max_players))
    check_determinism(name, players, seed)


@pytest.mark.parametrize("name", GAMES)
def test_record_replays_step_by_step(name: str) -> None:
    check_record_replay(name, seed=7)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_non_interference(name: str, players: int) -> None:
    check_non_interference(name, players, seeds=(0, 1))


@pytest.mark.parametrize("name", GAMES)
def test_illegal_and_malformed_actions_change_nothing(name: str) -> None:
    check_refusals(name, seed=3)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_is_legal_agrees_with_legal_actions(name: str, players: int) -> None:
    check_is_legal_matches_legal_actions(name, players, seeds=(0, 1))


@pytest.mark.parametrize("name", GAMES)
def test_clone_is_independent(name: str) -> None:
    check_clone_independence(name, seed=11, steps=40)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_keyed_deals_are_keyed_and_kept_by_clones(name: str, players: int) -> None:
    check_keyed_deals(name, players)


@pytest.mark.parametrize("name", GAMES)
def test_spec_and_bad_setup(name: str) -> None:
    check_spec(name)
    with pytest.raises(UnknownGame, match="no game 'no-such-game'"):
        thievery.game("no-such-game")


@pytest.mark.parametrize("name", GAMES)
def test_event_words_name_each_seat_by_its_name(name: str) -> None:
    check_event_names(name, seed=4)


def test_the_testing_library_imports_only_the_core() -> None:
    """``thievery.testing`` works for any game: it names no game, no face, no test
    framework (it fails with plain ``AssertionError``)."""
    folder = Path(thievery.testing.__file__).parent
    imported: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(a.name for a in node.names)
    ours = {m for m in imported if m.startswith("thievery")}
    assert ours and all(m.startswith(("thievery.core", "thievery.testing")) for m in ours), ours
    assert not {m.split(".")[0] for m in imported} & {"pytest", "hypothesis"}
