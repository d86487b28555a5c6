"""The conformance suite every registered game runs: the protocol's promises, checked.

Random playouts to the end over many seeds and player counts; every component in exactly
one place at every step; legal actions only for the seats to act; JSON round trips of
actions and views; determinism; record -> replay; the non-interference test (re-sample
everything a seat cannot see: its view and legal actions do not change); illegal and
malformed actions refused with the state unchanged.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import thievery
from thievery.core import (
    GameRecord,
    IllegalAction,
    MalformedAction,
    Rng,
    State,
    UnknownGame,
    replay,
)
from thievery.core.protocol import GameSpec

GAMES = thievery.game_names()
MAX_STEPS = 20_000


def cases() -> list[tuple[str, int]]:
    out = []
    for name in GAMES:
        spec = thievery.game(name)
        out += [(name, n) for n in range(spec.min_players, spec.max_players + 1)]
    return out


def components(state: State) -> Counter[Any]:
    return Counter(c for place in state.locations().values() for c in place)


def all_views(state: State) -> list[Any]:
    return [state.view(s) for s in [None, *range(state.players)]]


def tick(state: State, rng: Rng) -> list[Any]:
    """Real-time games (those with ``advance(now_ms)``): let some time pass, sometimes."""
    advance = getattr(state, "advance", None)
    if advance is None or rng.below(3):
        return []
    events: list[Any] = advance(state.now_ms + rng.below(3000))  # type: ignore[attr-defined]
    return events


def playout(spec: GameSpec, players: int, seed: int, check: bool = True) -> State:
    """A random game to the end; with ``check``, every step's invariants are checked."""
    state = spec.new(players, seed)
    rng = Rng(seed + 99)
    start = components(state)
    assert all(k == 1 for k in start.values()), "a component is in two places at the start"
    for _ in range(MAX_STEPS):
        tick(state, rng)
        to_act = state.to_act
        if not to_act:
            break
        if check:
            for seat in range(players):
                legal = state.legal_actions(seat)
                assert bool(legal) == (seat in to_act)
                for action in legal:
                    assert spec.parse_action(json.loads(json.dumps(action.to_json()))) == action
        seat = rng.choice(to_act)
        action = rng.choice(state.legal_actions(seat))
        events = state.apply(seat, action)
        if check:
            assert components(state) == start, "components were created, lost or duplicated"
            for event in events:
                json.dumps(event.to_json())
                assert isinstance(spec.describe(event, seat), str)
            for view in all_views(state):
                assert json.loads(json.dumps(view)) == view
    else:
        pytest.fail(f"{spec.name} did not end within {MAX_STEPS} steps")
    result = state.result()
    assert result is not None
    assert len(result["scores"]) == players
    assert result["winners"] and all(0 <= w < players for w in result["winners"])
    return state


@pytest.mark.parametrize(("name", "players"), cases())
def test_random_playouts_end_cleanly(name: str, players: int) -> None:
    spec = thievery.game(name)
    for seed in range(3):
        playout(spec, players, seed)
    for seed in range(3, 15):
        playout(spec, players, seed, check=False)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_same_seed_and_actions_give_the_same_game(name: str, seed: int, data: Any) -> None:
    spec = thievery.game(name)
    players = data.draw(st.integers(spec.min_players, spec.max_players))
    first = playout(spec, players, seed, check=False)
    record = GameRecord.of(first)
    again = replay(GameRecord.from_json(json.loads(json.dumps(record.to_json()))))
    assert again.result() == first.result()
    assert all_views(again) == all_views(first)
    assert again.locations() == first.locations()
    # The same seed deals the same game; another seed (almost always) another.
    assert all_views(spec.new(players, seed)) == all_views(spec.new(players, seed))


@pytest.mark.parametrize("name", GAMES)
def test_record_replays_step_by_step(name: str, tmp_path: Any) -> None:
    spec = thievery.game(name)
    state = playout(spec, spec.min_players, 7, check=False)
    path = tmp_path / "game.json"
    GameRecord.of(state).save(path)
    loaded = GameRecord.load(path)
    assert loaded.result == state.result()
    steps = list(loaded.steps())
    assert len(steps) == len(state.history())
    assert all_views(steps[-1][0]) == all_views(state)


def non_interference(spec: GameSpec, state: State, rng: Rng) -> int:
    """Re-sample what each seat cannot see; its view and legal actions stay. Returns how
    many samples differed from the true state (hidden parts really re-sampled)."""
    differed = 0
    for seat in range(state.players):
        view = state.view(seat)
        legal = state.legal_actions(seat)
        for _ in range(2):
            sample = spec.determinize(json.loads(json.dumps(view)), rng)
            assert sample.view(seat) == view
            assert sample.legal_actions(seat) == legal
            assert components(sample) == components(state)
            differed += sample.locations() != state.locations()
    return differed


@pytest.mark.parametrize(("name", "players"), cases())
def test_non_interference(name: str, players: int) -> None:
    spec = thievery.game(name)
    rng = Rng(players)
    differed = 0
    for seed in range(2):
        state = spec.new(players, seed)
        step = 0
        while state.to_act:
            if step % 3 == 0:
                differed += non_interference(spec, state, rng)
                # A sample plays on to the end under the protocol.
                if step % 30 == 0:
                    sample = spec.determinize(state.view(state.to_act[0]), rng)
                    while sample.to_act:
                        s = rng.choice(sample.to_act)
                        sample.apply(s, rng.choice(sample.legal_actions(s)))
            tick(state, rng)
            if not state.to_act:
                break
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            step += 1
    assert differed > 0, "the determinizer never re-sampled anything"


@pytest.mark.parametrize("name", GAMES)
def test_illegal_and_malformed_actions_change_nothing(name: str) -> None:
    spec = thievery.game(name)
    rng = Rng(3)
    state = spec.new(spec.max_players, 3)
    refused = 0
    while state.to_act:
        before = (all_views(state), state.locations(), len(state.history()), state.to_act)
        waiting = [s for s in range(state.players) if s not in state.to_act]
        acting = rng.choice(state.to_act)
        # Another seat's legal action, or a legal action of this seat offered by a seat
        # that is not to act, must be refused.
        for seat in waiting[:2]:
            with pytest.raises(IllegalAction):
                state.apply(seat, rng.choice(state.legal_actions(acting)))
            refused += 1
        for bad in ({"type": "no-such-action"}, {"card": "x"}, {"type": 3}):
            with pytest.raises(MalformedAction):
                state.apply(acting, bad)
        with pytest.raises(MalformedAction):
            state.apply(acting, "play")  # type: ignore[arg-type]
        with pytest.raises(IllegalAction):
            state.apply(state.players, rng.choice(state.legal_actions(acting)))
        after = (all_views(state), state.locations(), len(state.history()), state.to_act)
        assert after == before
        last = (acting, rng.choice(state.legal_actions(acting)))
        state.apply(*last)
    assert refused > 0
    with pytest.raises(IllegalAction, match="over"):
        state.apply(*last)


@pytest.mark.parametrize("name", GAMES)
def test_clone_is_independent(name: str) -> None:
    spec = thievery.game(name)
    rng = Rng(11)
    state = spec.new(spec.min_players, 11)
    for _ in range(40):
        if not state.to_act:
            break
        copy = state.clone()
        before = all_views(copy)
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert all_views(copy) == before
        assert copy.history() == state.history()[:-1]


@pytest.mark.parametrize("name", GAMES)
def test_spec_and_bad_setup(name: str) -> None:
    spec = thievery.game(name)
    info = spec.info()
    assert info["name"] == name and info["min_players"] <= info["max_players"]
    with pytest.raises(thievery.InvalidOption, match=f"{spec.min_players} to"):
        spec.new(spec.min_players - 1, 0)
    with pytest.raises(thievery.InvalidOption, match=f"{spec.max_players} players"):
        spec.new(spec.max_players + 1, 0)
    with pytest.raises(thievery.InvalidOption, match="seed must be a whole number"):
        spec.new(spec.min_players, "7")  # type: ignore[arg-type]
    with pytest.raises(thievery.InvalidOption, match="no option 'nonsense'"):
        spec.new(spec.min_players, 0, {"nonsense": 1})
    with pytest.raises(UnknownGame, match="no game 'no-such-game'"):
        thievery.game("no-such-game")


@pytest.mark.parametrize("name", GAMES)
def test_event_words_name_each_seat_by_its_name(name: str) -> None:
    """Given names, every reader's words name each other seat by its name wherever they
    said "seat N" without names; "you" stays "you", and nothing else changes."""
    spec = thievery.game(name)
    players = spec.max_players
    names = [f"Name-{chr(65 + k)}" for k in range(players)]
    state = spec.new(players, 4)
    rng = Rng(4)
    events = []
    for _ in range(MAX_STEPS):
        events += tick(state, rng)
        if not state.to_act:
            break
        seat = rng.choice(state.to_act)
        events += state.apply(seat, rng.choice(state.legal_actions(seat)))
    named = 0
    for event in events:
        for reader in [None, *range(players)]:
            if not event.is_visible_to(reader):
                continue
            plain = spec.describe(event, reader)
            expected = re.sub(r"\b[Ss]eat (\d+)", lambda m: names[int(m[1])], plain)
            words = spec.describe(event, reader, names)
            assert words == expected, (event, reader)
            named += words != plain
    assert named > len(events)  # the names were used, many times
