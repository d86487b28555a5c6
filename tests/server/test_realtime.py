"""A real-time game (Schatz-Rabatz) on the server's clock: ticks are stored and replay."""

from __future__ import annotations

import asyncio
import math
import time
from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import Player
from thievery.bots.base import make_bot
from thievery.core.protocol import CLOCK
from thievery.core.record import GameRecord, replay
from thievery.core.registry import game as get_game
from thievery.games.schatz_rabatz.search import PlacementSearchBot
from thievery.server import create_app
from thievery.server.driver import PacedBot
from thievery.server.limits import Caps
from thievery.server.live import LiveTable
from thievery.server.storage import TableRecord


def test_the_clock_starts_when_everyone_came_and_ticks_are_recorded(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0)
    with TestClient(app) as client:
        body: dict[str, Any] = {
            "game": "schatz-rabatz",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            "options": {"hourglass_seconds": 1},
        }
        made = client.post("/api/tables", json=body).json()
        tid = made["table"]["id"]
        time.sleep(0.4)
        table = app.state.hub.tables[tid]
        assert table.clock.realtime and table.clock.base is None  # the human is not here yet
        with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            human = Player(ws, made["seats"][0]["token"])
            key = human.token  # (the seat's key: its invite is used)
            assert table.clock.base is not None
            time.sleep(0.3)
            human.sync()
            if human.latest["legal"]:
                assert human.act(human.latest["legal"][0])["type"] == "ack"
            deadline = time.time() + 10
            while time.time() < deadline:  # the hourglass runs out on the server's clock
                human.sync()
                if any(e["type"] == "time_up" for f in human.frames for e in f.get("events", [])):
                    break
                time.sleep(0.1)
            assert any(e["type"] == "time_up" for f in human.frames for e in f.get("events", []))
        rows = app.state.hub.storage.actions(tid)
        ticks = [r for r in rows if r.seat == CLOCK]
        assert ticks and all(r.action["type"] == "tick" for r in ticks)
        assert [r.action["now_ms"] for r in ticks] == sorted(r.action["now_ms"] for r in ticks)
        # The game's own record and the stored log both replay to the live state.
        assert replay(GameRecord.of(table.state)).view(0) == table.state.view(0)
        for _ in range(100):  # the bot is ready for the next round: only the human is asked
            if tuple(table.state.to_act) == (0,):
                break
            time.sleep(0.05)
        assert tuple(table.state.to_act) == (0,)
        final = table.state.view(0)
    with TestClient(create_app(sqlite_url, bot_delay=0)) as client:
        state = client.get(
            f"/api/tables/{tid}/state",
            headers={"Authorization": f"Bearer {key}"},
        )
        assert state.json()["view"]["now_ms"] == final["now_ms"]
        assert state.json()["view"] == final


def test_a_bot_with_a_reaction_time_waits_it_and_others_wait_the_hubs_delay() -> None:
    """With a bot delay, a bot with a reaction time of its own (``delay_ms``) waits that
    long in a real-time game (once per position), and a bot without one waits the hub's."""
    spec = get_game("schatz-rabatz")
    state = spec.new(2, 7, spec.resolve_options({}))
    seats = [
        {"kind": "bot", "name": "A", "bot": "packer-adult"},
        {"kind": "bot", "name": "B", "bot": "random"},
    ]
    record = TableRecord("t", spec.name, spec.version, 2, 7, {}, seats, host_hash="")
    hub: Any = SimpleNamespace(bot_delay=0.6)
    table = LiveTable(hub, record, state)
    assert isinstance(table.driver.bot(0, "bot"), PacedBot)
    assert not isinstance(table.driver.bot(1, "bot"), PacedBot)
    twin = make_bot("packer-adult", spec.name, 0, 7)  # the same bot with the same seed
    assert isinstance(twin, PacedBot)
    expected = twin.delay_ms(state.view(0)) / 1000
    assert table.driver._bot_delay(0) == expected != 0.6
    assert table.driver._bot_delay(0) == expected  # the same position: the same wait
    assert table.driver._bot_delay(1) == 0.6


def test_a_paced_bot_at_a_table_waits_for_its_hand() -> None:
    """Right after its drop a bot's wait is at least its hand's (800 ms by default), even
    when its own reaction time is shorter; a bot with a free hand waits its reaction."""
    spec = get_game("schatz-rabatz")
    state = spec.new(2, 7, spec.resolve_options({}))
    state.apply(0, next(a for a in state.legal_actions(0) if a.type == "drop"))
    seats = [
        {"kind": "bot", "name": "A", "bot": "packer-expert"},  # reacts in 400-600 ms
        {"kind": "bot", "name": "B", "bot": "packer-instant"},
    ]
    record = TableRecord("t", spec.name, spec.version, 2, 7, {}, seats, host_hash="")
    hub: Any = SimpleNamespace(bot_delay=0.6)
    table = LiveTable(hub, record, state)
    assert state.view(0)["hand_ready_ms"] == 800
    assert table.driver._bot_delay(0) == 0.8  # the hand, not the reaction time
    assert table.driver._bot_delay(1) == 0.0  # seat 1 has not dropped: its hand is free


def test_a_search_bot_at_a_real_time_table_thinks_within_its_deadline() -> None:
    """In real time the others play on while a bot thinks, so after its reaction time a
    search bot is asked with a deadline ``Caps.realtime_think_seconds`` away, and answers
    by then (its whole budget would take 0.1 to 1 s: ismcts-strong at 4 players)."""
    spec = get_game("schatz-rabatz")
    state = spec.new(4, 7, spec.resolve_options({}))
    seats = [{"kind": "bot", "name": n, "bot": "ismcts-strong"} for n in "ABCD"]
    record = TableRecord("t", spec.name, spec.version, 4, 7, {}, seats, host_hash="")
    caps = Caps(realtime_think_seconds=0.05)
    hub: Any = SimpleNamespace(
        bot_delay=0.6, caps=caps, quick_bots={}, slow_bots=set(), bot_threads=False
    )
    table = LiveTable(hub, record, state)
    driver = table.driver
    bot = driver.bot(0, "bot")
    assert isinstance(bot, PlacementSearchBot)
    bot.samples = 5000  # (seconds of search: the deadline stops it first)
    asked: list[tuple[float, float]] = []  # (the deadline's distance when asked, thought)
    decide = driver._decide

    async def timed(seat: int, by: str, until: float = math.inf) -> Any:
        began = time.perf_counter()
        action = await decide(seat, by, until)
        asked.append((until - began, time.perf_counter() - began))
        return action

    async def act(*args: Any) -> None:
        return None

    driver._decide = timed  # type: ignore[method-assign]
    driver._act = act  # type: ignore[method-assign]
    for _ in range(3):
        asyncio.run(driver._bot_move(0, "bot"))
    assert len(asked) == 3
    assert all(0 < left <= 0.05 for left, _ in asked), asked
    assert all(thought < 0.5 for _, thought in asked), asked  # (a generous margin)
    assert bot.last_samples < 5000


def test_a_refused_action_stores_no_clock_tick(sqlite_url: str) -> None:
    """Bad input changes nothing in a real-time game either: a malformed or illegal drop
    moves no clock, stores no row and gives the other seat no new version."""
    app = create_app(sqlite_url, bot_delay=0)
    with TestClient(app) as client:
        body: dict[str, Any] = {
            "game": "schatz-rabatz",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "options": {"hourglass_seconds": 60},
        }
        made = client.post("/api/tables", json=body).json()
        tid = made["table"]["id"]
        url = f"/api/tables/{tid}/ws"
        with client.websocket_connect(url) as ws0, client.websocket_connect(url) as ws1:
            p0, p1 = Player(ws0, made["seats"][0]["token"]), Player(ws1, made["seats"][1]["token"])
            table = app.state.hub.tables[tid]
            assert table.clock.base is not None  # both came: the clock runs
            time.sleep(0.3)
            p0.sync()
            p1.sync()
            rows = len(app.state.hub.storage.actions(tid))
            version1 = p1.latest["version"]
            for bad in (
                {"type": "drop", "treasure": "crown-red", "rotation": 0, "column": 99},
                {"type": "drop", "treasure": "no-such", "rotation": 0, "column": 0},
                {"type": "fly"},
            ):
                time.sleep(0.05)  # the clock has moved on: a tick would be stored
                answer = p0.act(bad, version=p0.latest["version"])
                assert answer["type"] == "error", answer
            p1.sync()
            assert len(app.state.hub.storage.actions(tid)) == rows
            assert p1.latest["version"] == version1


def test_bots_at_a_table_pack_more_than_one_treasure_a_round(sqlite_url: str) -> None:
    """A bot was asked with the stored state, whose time is its last change's: its hand
    still busy with the drop it just made, it was offered nothing but closing its chest,
    and every bot level packed one treasure a round. A bot is now asked at the table's
    time, and not before its hand is ready."""
    app = create_app(sqlite_url, bot_delay=0.3)
    with TestClient(app) as client:
        body: dict[str, Any] = {
            "game": "schatz-rabatz",
            "seats": [
                {"kind": "bot", "bot": "heuristic"},
                {"kind": "bot", "bot": "packer-expert"},
            ],
            "options": {"hourglass_seconds": 6},
        }
        tid = client.post("/api/tables", json=body).json()["table"]["id"]
        table = app.state.hub.tables[tid]
        deadline = time.time() + 20
        while time.time() < deadline and table.state.view(None)["round"] < 2:
            time.sleep(0.1)
        assert table.state.view(None)["round"] >= 2, "the first round did not end"
        rows = app.state.hub.storage.actions(tid)
    first_round: dict[int, list[str]] = {0: [], 1: []}
    for row in rows:
        if row.seat == CLOCK:
            continue
        if row.action["type"] == "ready":
            break
        first_round[row.seat].append(row.action["type"])
    for seat, moves in first_round.items():
        assert moves.count("drop") >= 2, (seat, moves, [(r.seat, r.action["type"]) for r in rows])


def test_bots_without_a_delay_let_the_hourglass_run_out_and_the_server_answer(
    sqlite_url: str,
) -> None:
    """With no bot delay at all, bots asked at the table's time (their reaction counted
    from their own last move) still let the hourglass run out, rounds follow one another,
    and the server answers meanwhile. (Should a bot find nothing to do at the table's
    time, the clock's tick is stored first; that case did not come up here.)"""
    app = create_app(sqlite_url, bot_delay=0)
    with TestClient(app) as client:
        body: dict[str, Any] = {
            "game": "schatz-rabatz",
            "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}],
            "options": {"hourglass_seconds": 2},
        }
        tid = client.post("/api/tables", json=body).json()["table"]["id"]
        table = app.state.hub.tables[tid]
        deadline = time.time() + 20
        while time.time() < deadline and table.state.view(None)["round"] < 3:
            began = time.monotonic()
            assert client.get(f"/api/tables/{tid}").status_code == 200
            assert time.monotonic() - began < 2.0  # (the server answers meanwhile)
            time.sleep(0.1)
        assert table.state.view(None)["round"] >= 3 or table.is_over
