"""Hands have a speed (RULES.md): after a drop, a seat's next drop is legal only
``hand_ms`` later (default 800 ms). Inside that time a drop is not offered, is refused
with a clear error and changes nothing; the seat may still close; the view tells the seat
when its hand is ready; bots wait for it; version-1 records replay without it."""

from __future__ import annotations

import json
from itertools import pairwise

import pytest

from thievery.bots.base import make_bot
from thievery.bots.realtime import BotClock
from thievery.core import GameRecord, IllegalAction, InvalidOption, InvalidRecord, Rng, replay
from thievery.games.schatz_rabatz.actions import CLOSE, Drop

from .helpers import SPEC, all_ready, drop, finish_round, new, of_type, seeded, snapshot

CIRCLE = {"type": "drop", "treasure": "circle-blue", "rotation": 0, "column": 1}


def drops_of(state_legal: list[object]) -> list[object]:
    return [a for a in state_legal if isinstance(a, Drop)]


def test_a_drop_inside_the_hand_time_is_not_offered_and_is_refused() -> None:
    state = new()
    assert state.view(0)["options"]["hand_ms"] == 800  # the default
    drop(state, 0, "circle-red", 0, 0)  # at 0 ms: the hand is busy until 800 ms
    for now in (0, 799):
        state.advance(now)
        assert state.legal_actions(0) == [CLOSE]  # no drop is offered
        assert not state.is_legal(0, SPEC.parse_action(CIRCLE))
        before = snapshot(state)
        with pytest.raises(IllegalAction, match="seat 0's hand is not ready") as refused:
            state.apply(0, CIRCLE)
        assert "800 ms between two drops" in str(refused.value)
        assert f"{800 - now} ms to wait" in str(refused.value)
        assert snapshot(state) == before
    assert drops_of(state.legal_actions(1))  # only the seat that dropped waits
    state.advance(800)
    assert SPEC.parse_action(CIRCLE) in state.legal_actions(0)
    assert drop(state, 0, "circle-blue", 0, 1) == 0 and state.now_ms == 800


def test_the_view_says_when_the_hand_is_ready() -> None:
    state = new(3)
    drop(state, 1, "circle-red", 0, 0)
    state.advance(300)
    view = state.view(1)
    assert view["hand_ready_ms"] == 800  # the seat's own next drop: the schedulers' key
    assert [c["hand_ready_ms"] for c in view["chests"]] == [0, 800, 0]  # public: drops are
    assert state.view(0)["hand_ready_ms"] is None  # seat 0's hand is ready
    assert state.view(0)["chests"][1]["hand_ready_ms"] == 800
    assert state.view(None)["hand_ready_ms"] is None  # a spectator has no hand
    state.apply(1, CLOSE)  # closed: nothing of the seat waits for its hand
    assert state.view(1)["hand_ready_ms"] is None


def test_a_busy_hand_does_not_force_a_close() -> None:
    """The seat stays among those who may act (it may close at any time), but waiting is
    not closing: once its hand is ready it drops again."""
    state = new()
    drop(state, 0, "circle-red", 0, 0)
    assert state.to_act == (0, 1)
    state.advance(500)
    assert state.to_act == (0, 1) and state.legal_actions(0) == [CLOSE]
    state.advance(800)
    assert state.view(0)["chests"][0]["open"]
    drop(state, 0, "circle-blue", 0, 1)
    events = state.apply(0, CLOSE)  # closing needs no free hand
    assert of_type(events, "close")[0]["at_ms"] == 800


def test_hand_ms_is_an_option() -> None:
    fast = new(hand_ms=0)  # no hand speed: drops as fast as they come
    drop(fast, 0, "circle-red", 0, 0)
    drop(fast, 0, "circle-blue", 0, 1)
    assert fast.now_ms == 0
    slow = new(hand_ms=2000)
    drop(slow, 0, "circle-red", 0, 0)
    slow.advance(1999)
    with pytest.raises(IllegalAction, match="2000 ms between two drops"):
        slow.apply(0, CIRCLE)
    slow.advance(2000)
    drop(slow, 0, "circle-blue", 0, 1)
    for bad in (-1, 10_001, "fast"):
        with pytest.raises(InvalidOption, match="hand_ms"):
            new(hand_ms=bad)


def test_a_new_round_starts_with_every_hand_ready() -> None:
    state = new()
    drop(state, 0, "circle-red", 0, 0)
    finish_round(state)
    all_ready(state)  # at 0 ms, while the last drop's 800 ms have not passed
    assert state.round_no == 2 and state.now_ms == 0
    assert state.view(0)["hand_ready_ms"] is None
    assert drops_of(state.legal_actions(0))
    drop(state, 0, "circle-red", 0, 0)


def test_version_1_records_replay_without_a_hand_speed() -> None:
    """A record of the rules before hands had a speed replays exactly as played (``hand_ms``
    0); the same drops under today's rules are refused."""
    assert SPEC.version == 2
    assert SPEC.record_options(1, {"width": 6}) == {"width": 6, "hand_ms": 0}
    assert SPEC.record_options(2, {"width": 6}) == {"width": 6}
    played = seeded(2, 5, {"hand_ms": 0})
    for treasure in ("circle-red", "circle-blue", "hexagon-red"):
        played.apply(0, Drop(treasure, 0, 0))  # three drops at 0 ms
    data = GameRecord.of(played).to_json()
    old = {**data, "version": 1, "options": {}}  # a version-1 record knew no hand_ms
    again = replay(GameRecord.from_json(json.loads(json.dumps(old))))
    assert again.view(0)["chests"] == played.view(0)["chests"]
    with pytest.raises(InvalidRecord, match="hand is not ready"):
        replay(GameRecord.from_json({**data, "options": {}}))


def test_bots_wait_for_their_hand() -> None:
    """An instant packer's reaction time is the hand's (its ``delay_ms`` never undercuts
    it); on simulated time it drops once every 800 ms and packs a full chest instead of
    closing after one drop."""
    state = new()
    bot = make_bot("packer-instant", SPEC.name, 0, 1)
    assert bot.delay_ms(state.view(0)) == 0  # type: ignore[attr-defined]
    drop(state, 0, "circle-red", 0, 0)
    state.advance(300)
    assert bot.delay_ms(state.view(0)) == 500  # type: ignore[attr-defined]
    for speed, low, high in (("expert", 500, 600), ("adult", 1000, 1500)):
        paced = make_bot(f"packer-{speed}", SPEC.name, 0, 1)
        delays = [paced.delay_ms(state.view(0)) for _ in range(20)]  # type: ignore[attr-defined]
        assert all(low <= d <= high for d in delays)
    match = seeded(2, 9)
    bots = {s: make_bot("packer-instant", SPEC.name, s, s) for s in range(2)}
    clock = BotClock(bots, Rng(3))
    events = clock.run_until(match, 30_000)
    times: dict[int, list[int]] = {0: [], 1: []}
    for e in events:
        if e.type == "scored":
            break  # the first round
        if e.type == "drop":
            times[e.data["seat"]].append(e.data["at_ms"])
    for seat_times in times.values():
        assert len(seat_times) >= 6  # packing on, not closed after the first drop
        assert all(b - a >= 800 for a, b in pairwise(seat_times))


def test_each_rounds_hourglass_counts_from_when_that_round_began() -> None:
    """The rules page: one clock for the match; a round's times count from its start."""
    state = new(hourglass_seconds=30)
    state.advance(31_000)  # round 1's hourglass (0 -> 30,000) has run out
    assert state.round_no == 1 and state.phase != 0
    state.advance(45_000)
    all_ready(state)
    assert state.round_no == 2
    assert state.view(None)["hourglass"] == {
        "length_ms": 30_000,
        "started_ms": 45_000,
        "ends_ms": 75_000,
    }
    state.advance(74_999)
    assert state.phase == 0  # 29.999 s into round 2: still packing
    state.advance(75_000)
    assert state.phase != 0
