"""Schatz-Rabatz's bots: named, seeded, fair (view only), dense packers, faster when
faster, and played on simulated time by the bot clock."""

from __future__ import annotations

from collections import Counter

import pytest

from thievery.bots import bot_names, make_bot
from thievery.bots.realtime import BotClock, play_simulated
from thievery.core import Rng
from thievery.games.schatz_rabatz.bots import SPEEDS, PackingBot, claim_chances
from thievery.games.schatz_rabatz.data import JACK_BOARDS
from thievery.games.schatz_rabatz.pieces import BOARD_CLAIMS, TREASURE_ID, TREASURE_INDEX
from thievery.games.schatz_rabatz.rules import PACKING

from .helpers import GAME, SPEC, all_ready, drop, finish_round, new, of_type, seeded, wait_hand


def match(names: list[str], seed: int, **options: object) -> tuple[list[int], int]:
    """A whole match of bots on simulated time: (winners, decisions)."""
    state = seeded(len(names), seed, dict(options))
    bots = {s: make_bot(n, SPEC.name, s, seed) for s, n in enumerate(names)}
    decisions = play_simulated(state, bots, Rng(seed))
    result = state.result()
    assert result is not None
    return result["winners"], decisions


def test_bots_are_looked_up_by_name() -> None:
    names = bot_names("schatz-rabatz")
    for name in ("heuristic", "packer-child", "packer-adult", "packer-expert", "packer-instant"):
        assert name in names
    bot = make_bot("packer-expert", "schatz-rabatz", 1, 5)
    assert isinstance(bot, PackingBot) and bot.speed == "expert" and bot.name == "packer-expert"
    with pytest.raises(ValueError, match="speed"):
        PackingBot("schatz-rabatz", 0, Rng(1), speed="sloth")


def test_a_bot_decides_from_the_view_alone() -> None:
    """Two true states that look the same to a seat (the face-down boards re-sampled) get
    the same decision."""
    rng = Rng(4)
    state = seeded(3, 4)
    for _ in range(40):
        if not state.to_act:
            break
        seat = state.to_act[0]
        view = state.view(seat)
        other = SPEC.determinize(view, rng)
        a = make_bot("heuristic", SPEC.name, seat, 9).act(view, state.legal_actions(seat))
        b = make_bot("heuristic", SPEC.name, seat, 9).act(
            other.view(seat), other.legal_actions(seat)
        )
        assert a == b and a in state.legal_actions(seat)
        state.apply(seat, a)


def test_the_packer_packs_densely_and_never_above_the_rim() -> None:
    """Alone at the pool, the packer fills nearly all of its chest, small treasures first
    (each counts one), and loses nothing on closing."""
    state = new(2)
    state.apply(1, {"type": "close"})
    bot = make_bot("packer-instant", SPEC.name, 0, 1)
    while (action := bot.act(state.view(0), state.legal_actions(0))).type == "drop":
        state.apply(0, action)
        wait_hand(state, 0)
    chest = state.view(0)["chests"][0]
    assert sum(len(p["cells"]) for p in chest["treasures"]) >= 27  # of 30 cells
    assert len(chest["treasures"]) >= 13
    assert chest["treasures"][0]["id"].startswith("circle")
    (closed,) = of_type(state.apply(0, action), "close")
    assert closed["removed"] == []


def test_in_big_pirates_the_packer_avoids_what_the_board_claims() -> None:
    state = new(2, big_pirates=True)
    claims = set(state.view(0)["board"]["claims"])
    bot = make_bot("packer-instant", SPEC.name, 0, 1)
    while state.phase == PACKING and 0 in state.to_act:
        action = bot.act(state.view(0), state.legal_actions(0))
        assert getattr(action, "treasure", None) not in claims
        state.apply(0, action)
    assert state.view(0)["chests"][0]["treasures"]


def test_claim_chances_follow_the_stack() -> None:
    state = new(2)
    chances = claim_chances(state.view(0))
    assert sum(chances) == pytest.approx(8)  # some board of the nine claims 8 treasures
    assert max(chances) == pytest.approx(2 / 9)  # a treasure on two boards
    # Eight boards seen: the ninth (jack-9) is certain.
    state = new(4)
    for round_no in range(8):
        claims = BOARD_CLAIMS[state.stack[0]]
        safe = next(t for t in ("circle-red", "circle-blue") if TREASURE_INDEX[t] not in claims)
        drop(state, round_no % 4, safe, 0, 0)  # the round's winner rotates: nobody completes
        finish_round(state)
        all_ready(state)
    assert state.view(1)["boards_turned"] == [f"jack-{i}" for i in range(1, 9)]
    chances = claim_chances(state.view(1))
    certain = sorted(TREASURE_ID[t] for t, c in enumerate(chances) if c == 1.0)
    assert certain == sorted(dict(JACK_BOARDS)["jack-9"])
    assert sum(chances) == 8
    big = new(2, big_pirates=True)
    assert sorted(TREASURE_ID[t] for t, c in enumerate(claim_chances(big.view(0))) if c) == sorted(
        big.view(0)["board"]["claims"]
    )


def test_the_packer_beats_random_clearly() -> None:
    wins: Counter[str] = Counter()
    for seed in range(20):
        names = ["packer-instant", "random"] if seed % 2 else ["random", "packer-instant"]
        winners, _ = match(names, seed)
        for w in winners:
            wins[names[w]] += 1
    assert wins["packer-instant"] >= 18


def test_speed_matters_on_simulated_time() -> None:
    """An expert packer grabs more of the shared pool than a child packer."""
    wins: Counter[str] = Counter()
    for seed in range(12):
        names = ["packer-expert", "packer-child"] if seed % 2 else ["packer-child", "packer-expert"]
        winners, _ = match(names, seed)
        for w in winners:
            wins[names[w]] += 1
    assert wins["packer-expert"] > 2 * wins["packer-child"]


def test_delays_match_the_speeds() -> None:
    for speed, ms in SPEEDS.items():
        bot = PackingBot("schatz-rabatz", 0, Rng(3), speed=speed)
        delays = [bot.delay_ms(new(2).view(0)) for _ in range(50)]
        assert all(0.8 * ms <= d <= 1.2 * ms for d in delays)


def test_the_bot_clock_acts_on_time_and_the_hourglass_still_runs_out() -> None:
    """A human seat (0) that does nothing and a child bot (1): the bot drops about every
    2.5 s, the hourglass closes both chests at 30 s, and the bot soon says it is ready."""
    state = new(2)
    bot = make_bot("packer-child", SPEC.name, 1, 2)
    clock = BotClock({1: bot}, Rng(2))
    events = clock.run_until(state, 10_000)
    drops = of_type(events, "drop")
    assert 3 <= len(drops) <= 6 and all(0 < d["at_ms"] <= 10_000 for d in drops)
    assert state.now_ms == 10_000
    events = clock.run_until(state, 35_000)
    assert of_type(events, "time_up") == [{"at_ms": 30_000}]
    assert of_type(events, "ready") == [{"seat": 1}]
    assert state.to_act == (0,)  # the human still has to say ready


def test_instant_bots_play_whole_matches_fast() -> None:
    for players in (2, 3, 4):
        for variant in ({}, {"little_pirates": True}, {"big_pirates": True}, {"short_game": True}):
            winners, decisions = match(["packer-instant"] * players, players, **variant)
            assert winners and decisions > 0


def test_search_bots_get_an_estimate_that_favours_ship_parts() -> None:
    state = new(3)
    drop(state, 2, "circle-purple", 0, 0)
    finish_round(state)  # seat 2 takes the bow
    values = GAME.hooks.evaluate(state)
    assert sum(values) == pytest.approx(1) and values[2] > values[0] == values[1]
