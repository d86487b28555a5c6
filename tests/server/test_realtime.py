"""A real-time game (Schatz-Rabatz) on the server's clock: ticks are stored and replay."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import Player
from thievery.core.record import GameRecord, replay
from thievery.server import create_app
from thievery.server.tables import CLOCK


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
        assert table.realtime and table.clock_base is None  # the human is not here yet
        with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            human = Player(ws, made["seats"][0]["token"])
            assert table.clock_base is not None
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
            headers={"Authorization": f"Bearer {made['seats'][0]['token']}"},
        )
        assert state.json()["view"]["now_ms"] == final["now_ms"]
        assert state.json()["view"] == final
