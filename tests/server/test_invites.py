"""An invite is exchanged for the seat's own key at its player's first join: whoever made
the table (and holds every invite) cannot go on reading that seat's hand or playing for
it. Until then the invite is the seat's token (an HTTP-only client plays with it)."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from tests.server.conftest import Player, create_table
from thievery.server.storage import SetSeats


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def join_error(client: TestClient, tid: str, token: str) -> dict[str, Any]:
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_json({"type": "join", "token": token})
        frame: dict[str, Any] = ws.receive_json()
        return frame


def test_the_first_join_exchanges_the_invite_for_the_seats_own_key(client: TestClient) -> None:
    made = create_table(client, ["human", "human", "bot:random"])
    tid, invite = made["table"]["id"], made["seats"][1]["token"]
    # Before its player comes, the invite is the seat's token.
    before = client.get(f"/api/tables/{tid}/state", headers=auth(invite))
    assert before.status_code == 200 and before.json()["seat"] == 1
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        player = Player(ws, invite)
        key = player.token
        assert key and key != invite and player.latest["seat"] == 1
        # The table's maker, holding the invite, gets nothing more with it.
        refused = client.get(f"/api/tables/{tid}/state", headers=auth(invite))
        assert refused.status_code == 403 and refused.json()["code"] == "auth/token"
        acted = client.post(
            f"/api/tables/{tid}/actions", json={"action": {"type": "done"}}, headers=auth(invite)
        )
        assert acted.status_code == 403 and acted.json()["code"] == "auth/token"
        used = join_error(client, tid, invite)
        assert used["code"] == "auth/invite_used" and "Copy my seat link" in used["message"]
        # Nothing changed for the player; the key is the seat's token everywhere.
        mine = client.get(f"/api/tables/{tid}/state", headers=auth(key)).json()
        assert mine["seat"] == 1 and mine["version"] == player.latest["version"]
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        again = Player(ws, key)
        assert again.latest["seat"] == 1 and "key" not in again.latest  # (told once)
        assert again.token == key
    # Only that one welcome ever held the key; the other seats' welcomes never do.
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        other = Player(ws, made["seats"][0]["token"])
        assert other.token not in (key, made["seats"][0]["token"])
        assert key not in "".join(other.texts)


def test_the_key_is_stored_as_a_hash(client: TestClient) -> None:
    """The exchange is stored before the player is told (as hashes: neither token is in
    storage), so the key works and the invite does not after a restart too (the restart
    itself: test_storage)."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, invite = made["table"]["id"], made["seats"][0]["token"]
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        key = Player(ws, invite).token
    hub = client.app.state.hub  # type: ignore[attr-defined]
    record = hub.storage.table(tid)
    assert record is not None
    stored = record.seats[0]
    assert stored["token_hash"] and stored["invite_hash"] and key not in str(stored)
    assert invite not in str(stored)
    assert client.get(f"/api/tables/{tid}/state", headers=auth(key)).json()["seat"] == 0
    assert client.get(f"/api/tables/{tid}/state", headers=auth(invite)).status_code == 403


def test_an_exchange_whose_write_fails_leaves_the_invite_waiting(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Storage refusing the new key: the join is refused, no key is told, and the seat
    waits for its invite as before (in memory and in storage); the next join exchanges."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, invite = made["table"]["id"], made["seats"][1]["token"]

    def broken(*args: Any) -> Any:
        raise OperationalError("UPDATE", {}, Exception("the disk is full"))

    with monkeypatch.context() as patched:
        patched.setattr(SetSeats, "all", classmethod(broken))
        refused = join_error(client, tid, invite)
        assert refused["type"] == "error" and "key" not in refused
    hub = client.app.state.hub  # type: ignore[attr-defined]
    record = hub.storage.table(tid)
    assert record is not None and record.seats[1]["token_hash"] is None
    assert client.get(f"/api/tables/{tid}/state", headers=auth(invite)).json()["seat"] == 1
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        key = Player(ws, invite).token
    assert key and key != invite
    assert client.get(f"/api/tables/{tid}/state", headers=auth(key)).json()["seat"] == 1


def test_the_table_plays_on_while_an_exchange_is_stored(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exchange's write is not made under the table's lock: an action of another seat
    is taken while it waits for storage. The invite is used from the start of the wait."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid = made["table"]["id"]
    first, second = made["seats"][0]["token"], made["seats"][1]["token"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    submit, gate, held = hub.writer.submit, threading.Event(), threading.Event()
    happened: list[str] = []

    async def slow_exchange(op: Any) -> Any:
        if isinstance(op, SetSeats):
            held.set()
            await asyncio.to_thread(gate.wait, 3)  # (let go by the test, or given up)
            happened.append("key stored")
        return await submit(op)

    monkeypatch.setattr(hub.writer, "submit", slow_exchange)
    state = client.get(f"/api/tables/{tid}/state", headers=auth(first)).json()
    assert 0 in state["to_act"] and state["legal"]
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_json({"type": "join", "token": second})
        assert held.wait(10)  # the exchange waits for its write
        try:
            acted = client.post(
                f"/api/tables/{tid}/actions",
                json={"action": state["legal"][0], "version": state["version"]},
                headers=auth(first),
            )
            assert acted.status_code == 200, acted.text
            assert happened == []  # the action did not wait for the exchange
            assert join_error(client, tid, second)["code"] == "auth/invite_used"
        finally:
            gate.set()
        welcome = json.loads(ws.receive_text())
        while welcome["type"] != "welcome":
            welcome = json.loads(ws.receive_text())
        assert welcome["seat"] == 1 and welcome["key"] not in (None, second)
