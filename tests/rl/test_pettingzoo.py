"""The PettingZoo environments beyond PettingZoo's suites: exact seeding, rewards from the
result, truncation, terminal rendering, the action table."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import thievery
from tests.rl.helpers import GAMES, PLAYERS, play_random, random_decisions, random_index
from thievery.core.protocol import ClockedState
from thievery.games.thieves_den.cards import DEFAULT_PATH
from thievery.rl import action_table, observation_layout
from thievery.rl.match import STEP_MS, Match
from thievery.rl.pettingzoo import env, parallel_env, raw_env


def _episode(game: str, seed: int) -> tuple[list[np.ndarray], dict[str, float]]:
    e = env(game, PLAYERS[game])
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen: list[np.ndarray] = []
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        seen.append(obs["observation"])
        e.step(random_index(obs["action_mask"], rng))
    return seen, total


@pytest.mark.parametrize("game", GAMES)
def test_reset_with_a_seed_replays_the_game_exactly_and_rewards_come_from_the_result(
    game: str,
) -> None:
    first, rewards = _episode(game, 11)
    again, rewards_again = _episode(game, 11)
    assert len(first) == len(again) > 0
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert rewards == rewards_again
    assert sum(rewards.values()) == pytest.approx(1.0)  # the winners share 1
    assert max(rewards.values()) > 0


@pytest.mark.parametrize("game", GAMES)
def test_the_seed_is_the_engines_seed(game: str) -> None:
    e = raw_env(game, PLAYERS[game])
    e.reset(seed=5)
    state = thievery.game(game).new(PLAYERS[game], 5)
    seat = e.match.current()
    assert seat is not None
    assert e.match.state.view(seat) == state.view(seat) or isinstance(state, ClockedState)
    # reset() without a seed continues deterministically from the last seed
    e.reset(seed=5)
    e.reset()
    following = e.game_seed
    e.reset(seed=5)
    e.reset()
    assert e.game_seed == following


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_action_ends_the_game_against_its_seat(game: str) -> None:
    e = env(game, PLAYERS[game])
    e.reset(seed=2)
    obs, *_ = e.last()
    agent = e.agent_selection
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1


@pytest.mark.parametrize(("game", "players"), [("thieves-den", 2), ("thieves-den", 5)])
def test_masks_filled_from_the_legal_actions_are_theirs(game: str, players: int) -> None:
    """A game without a table of legal indices (Thieves Den) has its masks filled from
    legal_actions by the codec (ActionCodec.fill): the same as its indices, for every
    seat of every state of random games; the caller's bytes are its own."""
    match = Match(game, players)
    assert match._legal is None and match._bits is None
    compared = 0
    for _ in random_decisions(match, range(2), np.random.default_rng(players)):
        for s in range(players):
            legal, flags = match.masks(s)
            expected = np.zeros(match.codec.size, np.int8)
            if s == match.current():
                expected[match.codec.indices(match.state.legal_actions(s))] = 1
            assert legal == bytes(flags) == expected.tobytes()
            flags[0] ^= 1  # (the caller's copy: the private bytes stay)
            assert legal == expected.tobytes()
            compared += 1
    assert compared > 150


def test_codec_fill_flags_equal_actions_that_are_not_the_interned_values() -> None:
    """ActionCodec.fill finds an action by identity, else by equality (a parsed copy)."""
    match = Match("thieves-den", 3)
    match.start(4)
    seat = match.current()
    assert seat is not None
    legal = match.state.legal_actions(seat)
    copies = [match.spec.parse_action(a.to_json()) for a in legal]
    assert any(c is not a for c, a in zip(copies, legal, strict=True))
    by_identity, by_equality = bytearray(match.codec.size), bytearray(match.codec.size)
    match.codec.fill(by_identity, legal)
    match.codec.fill(by_equality, copies)
    assert by_identity == by_equality
    assert [i for i, x in enumerate(by_identity) if x] == sorted(match.codec.indices(legal))


@pytest.mark.parametrize("game", GAMES)
def test_an_action_is_checked_against_the_mask_handed_out_not_the_callers_array(
    game: str,
) -> None:
    """The engine does not check an action the mask allows again, so the environment
    checks it against its own copy of the mask: a caller that writes into the array it
    got does not get an illegal action into the game (it ends it, as any illegal one)."""
    e = env(game, PLAYERS[game])
    e.reset(seed=2)
    obs, *_ = e.last()
    agent = e.agent_selection
    history = e.match.state.history()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs["action_mask"][illegal] = 1  # the caller's array only
    assert e.observe(agent)["action_mask"][illegal] == 1  # (the same array, as before)
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1
    assert e.match.state.history() == history


@pytest.mark.parametrize("game", GAMES)
def test_max_cycles_truncates_both_apis(game: str) -> None:
    e = env(game, PLAYERS[game], max_cycles=5)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    decisions = 0
    for _ in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(random_index(obs["action_mask"], rng))
        decisions += 1
    assert decisions == 5
    p = parallel_env(game, PLAYERS[game], max_cycles=3)
    observations, _ = p.reset(seed=1)
    for step in range(3):
        acts = {a: random_index(o["action_mask"], rng) for a, o in observations.items()}
        observations, _, terms, truncs, _ = p.step(acts)
        assert all(truncs.values()) == (step == 2)
        assert not any(terms.values())
    assert p.agents == []


@pytest.mark.parametrize("game", GAMES)
def test_render_gives_the_terminal_text_of_the_public_view(game: str) -> None:
    e = env(game, PLAYERS[game], render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    assert isinstance(text, str)
    assert "to decide: seat_" in text
    assert len(text.splitlines()) > 3
    p = parallel_env(game, PLAYERS[game], render_mode="ansi")
    p.reset(seed=4)
    assert p.render() == text


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_action_has_one_index_and_the_table_round_trips(game: str) -> None:
    n = PLAYERS[game]
    table = action_table(game, n)
    assert table[-1] == {"type": "wait"}
    match = Match(game, n)
    spec = match.spec
    for i, entry in enumerate(table[:-1]):
        assert spec.parse_action(entry) == match.codec.actions[i]
    rng = np.random.default_rng(0)
    match.start(3)
    checked = 0
    while not match.over and checked < 300:
        seat = match.current()
        assert seat is not None
        legal = match.state.legal_actions(seat)
        mask = match.mask(seat)
        assert {match.codec.actions[i] for i in np.flatnonzero(mask[:-1])} == set(legal)
        match.act(seat, random_index(mask, rng))
        checked += 1
    assert checked > 10


def test_the_layout_is_documented_field_by_field() -> None:
    for game in GAMES:
        rows = observation_layout(game, PLAYERS[game])
        offsets = [r["offset"] for r in rows]
        assert offsets == sorted(offsets) and offsets[0] == 0
        size = Match(game, PLAYERS[game]).layout.size
        assert rows[-1]["offset"] + rows[-1]["size"] == size
        assert all(r["doc"] for r in rows)


def test_real_time_moves_a_fixed_step_per_moment() -> None:
    match = Match("schatz-rabatz", 2)
    match.start(0)
    state = match.state
    assert isinstance(state, ClockedState)
    start = state.now_ms
    # both seats wait: one moment passes
    for _ in range(2):
        seat = match.current()
        assert seat is not None
        match.act(seat, match.codec.wait)
    assert match.state.now_ms == start + STEP_MS  # type: ignore[attr-defined]
    fast = Match("schatz-rabatz", 2, step_ms=50)
    fast.start(0)
    for _ in range(2):
        seat = fast.current()
        assert seat is not None
        fast.act(seat, fast.codec.wait)
    assert fast.state.now_ms == 50  # type: ignore[attr-defined]
    # and whole games end, turn-based or not
    rng = np.random.default_rng(0)
    assert play_random(match, 3, rng) > 0 and match.over


@pytest.mark.parametrize("game", GAMES)
def test_legal_indices_agree_with_the_mask(game: str) -> None:
    match = Match(game, PLAYERS[game])
    rng = np.random.default_rng(4)
    match.start(4)
    for _ in range(60):
        if match.over:
            break
        seat = match.current()
        assert seat is not None
        mask = match.mask(seat)
        assert match.legal_indices(seat) == [int(i) for i in np.flatnonzero(mask)]
        other = (seat + 1) % match.players
        assert match.legal_indices(other) == [] or other == match.current()
        match.act(seat, random_index(mask, rng))


@pytest.mark.parametrize("game", GAMES)
def test_remembered_masks_are_the_legal_actions_and_each_callers_own(game: str) -> None:
    """Each call gives exactly ``legal_actions`` (and ``WAIT`` where the game allows it),
    in an array of its own: writing into one changes no later mask, also where masks are
    remembered by their bits (Schatz-Rabatz)."""
    match = Match(game, PLAYERS[game])
    rng = np.random.default_rng(6)
    remembers = match._bits is not None
    for seed in (6, 7):
        match.start(seed)
        while not match.over:
            seat = match.current()
            assert seat is not None
            legal = match.state.legal_actions(seat)
            expected = match.codec.mask(legal, wait=match.may_wait(seat))
            mask = match.mask(seat)
            assert mask.dtype == np.int8 and mask.tobytes() == expected.tobytes()
            mask[:] = 1 - mask  # a caller's own array: writable, and nobody else's
            remembered = len(match._masks)
            again = match.mask(seat)  # the remembered one (nothing new remembered)
            assert len(match._masks) == remembered
            assert again.tobytes() == expected.tobytes()
            match.act(seat, random_index(expected, rng))
    assert bool(match._masks) == remembers


def test_docs_list_every_field_and_table_size_at_four_players() -> None:
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "rl.md").read_text()
    for game in GAMES:
        for r in observation_layout(game, 4):
            assert f"| {r['offset']} | {r['size']} | {r['doc'].replace('|', '/')} |" in doc
        assert f"| {len(action_table(game, 4))} |" in doc


@pytest.mark.parametrize("game", GAMES)
def test_a_match_pickles_as_its_seed_and_history(game: str) -> None:
    import pickle

    match = Match(game, PLAYERS[game])
    rng = np.random.default_rng(2)
    match.start(9)
    for _ in range(25):
        seat = match.current()
        assert seat is not None
        match.act(seat, random_index(match.mask(seat), rng))
    again = pickle.loads(pickle.dumps(match))
    seat = match.current()
    assert seat is not None and again.current() == seat
    assert again.state.view(seat) == match.state.view(seat)
    assert np.array_equal(again.mask(seat), match.mask(seat))


@pytest.mark.parametrize("game", GAMES)
def test_the_compiled_encoder_writes_what_the_fields_write(game: str) -> None:
    """ObservationLayout.encode (the fields' code inlined into one function) gives exactly
    what calling each field's writer gives, for every seat of every decision."""
    for players in (PLAYERS[game], 4):
        match = Match(game, players)
        rng = np.random.default_rng(8)
        compared = 0
        for seed in range(3):
            match.start(seed)
            while not match.over:
                for s in range(players):
                    view = match.state.view(s)
                    fast = match.layout.encode(view, s)
                    slow = match.layout.encode_by_fields(view, s)
                    assert fast.dtype == slow.dtype == np.float32
                    assert fast.tobytes() == slow.tobytes()
                    compared += 1
                seat = match.current()
                assert seat is not None
                match.act(seat, random_index(match.mask(seat), rng))
        assert compared > 50


def test_env_enforces_the_order_and_the_bounds_as_pettingzoos_wrappers_do(
    caplog: pytest.LogCaptureFixture,
) -> None:
    e = env("thieves", 3)
    with pytest.raises(AssertionError, match="before step"):
        e.step(0)
    with pytest.raises(AssertionError, match="before observe"):
        e.observe("seat_0")
    with pytest.raises(AssertionError, match="before render"):
        e.render()
    with pytest.raises(AssertionError, match="before agent_iter"):
        e.agent_iter()
    with pytest.raises(AttributeError):
        _ = e.rewards
    e.reset(seed=3)
    with pytest.raises(AssertionError, match="not in action space"):
        e.step(e.action_space(e.agent_selection).n)
    with pytest.raises(AssertionError, match="not in action space"):
        e.step(None)  # only a terminated or truncated agent may pass None
    with pytest.raises(AssertionError, match="step\\(\\) or reset\\(\\)"):
        for _ in e.agent_iter():
            pass  # no step between two agents
    # an illegal action: every agent terminated and truncated, -1 for its seat only
    agent = e.agent_selection
    obs, *_ = e.last()
    e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(e.terminations.values()) and all(e.truncations.values())
    assert e.rewards == {a: (-1.0 if a == agent else 0) for a in e.possible_agents}
    for _ in e.agent_iter():
        e.step(None)
    assert e.agents == []
    caplog.clear()
    e.step(None)  # no agents left: a warning, nothing done
    assert "step() called after all agents are terminated" in caplog.text


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (4, {}), (3, {"width": 3, "depth": 2}), (4, {"width": 8, "hand_ms": 0})],
)
def test_schatz_rabatz_quick_legal_indices_are_its_legal_actions(
    players: int, options: dict[str, int]
) -> None:
    """The remembered drop-table rows give exactly the indices of legal_actions (and as
    bits, for the masks), for every seat of every state of random games (waits, drops and
    closes)."""
    match = Match("schatz-rabatz", players, options)
    assert match._legal is not None
    compared = 0
    for _ in random_decisions(match, range(3), np.random.default_rng(players)):
        state = match.state
        for s in range(players):
            expected = match.codec.indices(state.legal_actions(s))
            assert sorted(match._legal(state, s)) == sorted(expected)
            assert match._bits is not None
            assert match._bits(state, s) == sum(1 << i for i in expected)
            compared += 1
    assert compared > 150


@pytest.mark.parametrize(
    ("game", "players"), [("schattendieb", 3), ("schattendieb", 7), ("thieves", 3), ("thieves", 6)]
)
def test_quick_legal_indices_are_the_legal_actions(game: str, players: int) -> None:
    """Der Schattendieb's and Thieves!'s per-card tables give the indices of
    legal_actions, in their order, for every seat of every state of random games (plays,
    and the other decisions mapped one by one)."""
    match = Match(game, players)
    assert match._legal is not None
    compared = 0
    for _ in random_decisions(match, range(2), np.random.default_rng(players)):
        state = match.state
        for s in range(players):
            assert match._legal(state, s) == match.codec.indices(state.legal_actions(s))
            compared += 1
    assert compared > 150


def test_a_card_file_edited_between_two_envs_gives_the_second_its_own_spaces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The spaces were cached by the options' text: a Thieves Den card file edited (or a
    relative path read from another folder) kept the first file's action table, and the
    new env failed at its first mask (or silently had the wrong spaces)."""
    path = tmp_path / "mine.toml"
    text = DEFAULT_PATH.read_text()
    path.write_text(text)
    first = env("thieves-den", 3, cards=str(path))
    first.reset(seed=1)
    first.last()
    renamed = text.replace('id = "market"', 'id = "night-bazaar"', 1)
    assert renamed != text
    path.write_text(renamed)
    os.utime(path, (time.time() + 5, time.time() + 5))  # (a new stat, however quick)
    second = env("thieves-den", 3, cards=str(path))
    second.reset(seed=1)
    second.last()
    names = [json.dumps(a) for a in action_table("thieves-den", 3, {"cards": str(path)})]
    assert any("night-bazaar" in n for n in names)
    assert not any('"market' in n for n in names)
    _play_out(second, 3)  # (every mask and action of the edited set)
    # A relative path means the file in the working directory when the env is made.
    other = tmp_path / "other"
    other.mkdir()
    (other / "mine.toml").write_text(text)
    monkeypatch.chdir(tmp_path)
    here = [json.dumps(a) for a in action_table("thieves-den", 3, {"cards": "mine.toml"})]
    monkeypatch.chdir(other)
    there = [json.dumps(a) for a in action_table("thieves-den", 3, {"cards": "mine.toml"})]
    assert here == names != there
    # The match holds the set read in: editing the file again changes no env made before.
    path.write_text(text)
    second.reset(seed=2)
    _play_out(second, 4)


def _play_out(aec: Any, seed: int) -> None:
    """Play an AEC env's game out with random legal actions (reset first by the caller)."""
    rng = np.random.default_rng(seed)
    for _agent in aec.agent_iter(10_000):
        observation, _, terminated, truncated, _ = aec.last()
        mask = observation["action_mask"]
        aec.step(None if terminated or truncated else random_index(mask, rng))
    assert not aec.agents


@pytest.mark.parametrize("game", GAMES)
def test_a_parallel_step_with_bad_input_is_refused_and_changes_nothing(game: str) -> None:
    p = parallel_env(game, PLAYERS[game])
    with pytest.raises(RuntimeError, match="reset"):  # nothing to step yet
        p.step({"seat_0": 0})
    obs, _ = p.reset(seed=1)
    first = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
    before = (p.match.state.history(), p.match.state.view(None), p.steps)
    bad: list[tuple[dict[str, int], str]] = [
        # an index outside the action space, after a good one
        ({**first, "seat_1": 10**6}, "outside"),
        ({**first, "seat_1": -1}, "outside"),
        ({**first, "player_0": 0}, "no live agent"),  # no agent of this game
        ({**first, f"seat_{PLAYERS[game]}": 0}, "no live agent"),
    ]
    for actions, why in bad:
        with pytest.raises(ValueError, match=why):
            p.step(actions)
        assert (p.match.state.history(), p.match.state.view(None), p.steps) == before
    fresh = parallel_env(game, PLAYERS[game])  # the good ones alone: as if never refused
    fresh.reset(seed=1)
    assert p.step(first)[4] == fresh.step(first)[4]
    assert p.match.state.history() == fresh.match.state.history() and p.steps == 1


def test_render_modes_and_steps_that_are_none_are_refused() -> None:
    for make in (env, parallel_env, raw_env):
        with pytest.raises(ValueError, match="render_mode"):
            make("thieves", 3, render_mode="rgb_array")
        with pytest.raises(ValueError, match="real-time"):  # a turn-based game has no step
            make("thieves", 3, step_ms=100)
        with pytest.raises(ValueError, match="positive"):
            make("schatz-rabatz", 2, step_ms=0)
        for bad in (1.5, 0.5, 250.0, "250", True):  # a whole number of ms (docs/rl.md)
            with pytest.raises(ValueError, match="whole number"):
                make("schatz-rabatz", 2, step_ms=bad)
    assert Match("schatz-rabatz", 2, None, 40).step_ms == 40
    assert Match("schatz-rabatz", 2, None, np.int64(40)).step_ms == 40
    assert Match("schatz-rabatz", 2).step_ms == STEP_MS
