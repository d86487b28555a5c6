"""A storage write that fails (a full disk, a lost database) is told as ``storage/failed``
(503: try again) and changes nothing: no table, seat, invite or closing is half made."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from tests.server.conftest import Player, create_table, exchange
from thievery.server.hub import Hub, insert_new_table
from thievery.server.storage import SetSeats, Storage


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def fail(client: TestClient, monkeypatch: pytest.MonkeyPatch, which: Callable[[Any], bool]) -> None:
    """From now on, the writes ``which`` picks fail as a full disk fails them."""
    hub = hub_of(client)
    submit = hub.writer.submit

    async def failing(op: Any) -> Any:
        if which(op):
            raise OperationalError("INSERT", {}, Exception("database or disk is full"))
        return await submit(op)

    monkeypatch.setattr(hub.writer, "submit", failing)


def calls(function: Any) -> Callable[[Any], bool]:
    """Picks the writes that are ``function`` (with their arguments bound)."""
    return lambda op: getattr(op, "func", None) is function


def refused(answer: Any) -> bool:
    return bool(answer.status_code == 503 and answer.json()["code"] == "storage/failed")


def test_a_table_whose_insert_fails_is_not_made(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = hub_of(client)
    before, owned = set(hub.tables), {c: set(t) for c, t in hub.owned.items()}
    fail(client, monkeypatch, calls(insert_new_table))
    body = {
        "game": "thieves",
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 2,
    }
    assert refused(client.post("/api/tables", json=body))
    assert set(hub.tables) == before and hub.owned == owned
    monkeypatch.undo()
    assert client.post("/api/tables", json=body).status_code == 201


def test_a_listed_table_whose_listing_fails_is_made_unlisted(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table is stored: its maker gets its tokens, told it is not listed."""
    fail(
        client,
        monkeypatch,
        lambda op: getattr(getattr(op, "func", None), "__name__", "") == "_list",
    )
    made = client.post(
        "/api/tables",
        json={"game": "thieves", "seats": [{"kind": "human"}] * 3, "listed": True},
    )
    assert made.status_code == 201, made.text
    assert made.json()["listed"] is False
    assert client.get("/api/tables/open").json() == []
    tid = made.json()["table"]["id"]
    assert exchange(client, tid, made.json()["seats"][0]["token"])


def test_a_seat_whose_bot_hand_over_fails_stays_as_it_was(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = create_table(client, ["human", "human", "bot:random"])
    tid = made["table"]["id"]
    key = exchange(client, tid, made["seats"][0]["token"])
    fail(client, monkeypatch, lambda op: isinstance(op, SetSeats))
    handed = client.post(
        f"/api/tables/{tid}/seats/0/bot", json={"bot": "heuristic"}, headers=auth(key)
    )
    assert refused(handed)
    assert client.get(f"/api/tables/{tid}").json()["seats"][0]["bot"] is None
    # Over the table's websocket: an error frame, and the connection stays.
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        player = Player(ws, key)
        answer = player.send({"type": "bot", "bot": "heuristic"})
        assert (answer["type"], answer["code"]) == ("error", "storage/failed")
        player.sync()
    assert client.get(f"/api/tables/{tid}").json()["seats"][0]["bot"] is None


def test_a_new_invite_that_fails_leaves_the_old_one_working(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = create_table(client, ["human", "human", "bot:random"])
    tid, host = made["table"]["id"], made["host_token"]
    fail(client, monkeypatch, lambda op: isinstance(op, SetSeats))
    assert refused(client.post(f"/api/tables/{tid}/seats/1/invite", headers=auth(host)))
    monkeypatch.undo()
    seat = client.get(f"/api/tables/{tid}").json()["seats"][1]
    assert seat["reinvited"] == 0
    assert exchange(client, tid, made["seats"][1]["token"])  # (the old invite still works)


def test_a_closing_that_fails_leaves_the_table_running(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = create_table(client, ["human", "bot:random", "bot:random"])
    tid, host = made["table"]["id"], made["host_token"]
    fail(client, monkeypatch, calls(Storage.finish_table))
    assert refused(client.post(f"/api/tables/{tid}/close", headers=auth(host)))
    summary = client.get(f"/api/tables/{tid}").json()
    assert not summary["closed"] and not summary["over"]
    monkeypatch.undo()
    assert client.post(f"/api/tables/{tid}/close", headers=auth(host)).json()["closed"]


def test_play_again_whose_link_fails_leaves_no_table_behind(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new table and the old one's link to it are stored together or not at all:
    a failure leaves no new table in memory or in storage (else every try would make
    another, each counted against its maker's caps)."""
    made = create_table(client, ["bot:random", "bot:random", "bot:random"])
    tid, host = made["table"]["id"], made["host_token"]
    hub = hub_of(client)
    deadline = time.monotonic() + 30
    while not client.get(f"/api/tables/{tid}").json()["over"] and time.monotonic() < deadline:
        time.sleep(0.02)  # (its bots play it out)
    assert client.get(f"/api/tables/{tid}").json()["over"]

    def stored() -> set[str]:
        return {r.id for r in hub.storage.unfinished(1000) + hub.storage.finished(1000)}

    before, owned, rows = set(hub.tables), {c: set(t) for c, t in hub.owned.items()}, stored()

    def full(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("UPDATE", {}, Exception("database or disk is full"))

    monkeypatch.setattr(Storage, "set_next", full)
    for _ in range(2):
        assert refused(client.post(f"/api/tables/{tid}/again", headers=auth(host)))
        assert set(hub.tables) == before and hub.owned == owned and stored() == rows
    monkeypatch.undo()
    again = client.post(f"/api/tables/{tid}/again", headers=auth(host))
    assert again.status_code == 200, again.text
    assert set(hub.tables) == before | {again.json()["id"]}
    assert stored() == rows | {again.json()["id"]}
    assert client.get(f"/api/tables/{tid}").json()["next_id"] == again.json()["id"]
