"""An invite grants nothing but its exchange for the seat's own key (at its player's first
join over the websocket, or ``POST /api/tables/{id}/exchange``): whoever made the table,
and holds every invite, can neither read that seat's hand or play for it before its
player comes, nor go on doing so after."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import threading
import time
from contextlib import ExitStack
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from tests.server.conftest import Player, create_table, exchange, fresh_postgres
from tests.server.serving import server_process
from tests.server.test_api import play_to_end
from thievery.server import Caps, create_app
from thievery.server.chat import Chat
from thievery.server.errors import ServerError
from thievery.server.seats import hash_token
from thievery.server.storage import SetSeats


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def first_answer(ws: Any) -> dict[str, Any]:
    """A join's answer (a TestClient websocket): its welcome or its error."""
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] in ("welcome", "error"):
            return frame


def join_error(client: TestClient, tid: str, token: str, key: Any = None) -> dict[str, Any]:
    """The first frame a join with ``token`` (and the client's ``key``, if any) gets."""
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        join = (
            {"type": "join", "token": token}
            if key is None
            else {"type": "join", "token": token, "key": key}
        )
        ws.send_json(join)
        frame: dict[str, Any] = ws.receive_json()
        return frame


def test_the_first_join_exchanges_the_invite_for_the_seats_own_key(client: TestClient) -> None:
    made = create_table(client, ["human", "human", "bot:random"])
    tid, invite = made["table"]["id"], made["seats"][1]["token"]
    # Before its player comes, the invite is no seat's token: it is only to be exchanged.
    before = client.get(f"/api/tables/{tid}/state", headers=auth(invite))
    assert before.status_code == 403 and before.json()["code"] == "auth/invite"
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        player = Player(ws, invite)
        key = player.token
        assert key and key != invite and player.latest["seat"] == 1
        # The table's maker, holding the invite, gets nothing more with it (told it is
        # used, as the websocket says).
        refused = client.get(f"/api/tables/{tid}/state", headers=auth(invite))
        assert refused.status_code == 403 and refused.json()["code"] == "auth/invite_used"
        acted = client.post(
            f"/api/tables/{tid}/actions", json={"action": {"type": "done"}}, headers=auth(invite)
        )
        assert acted.status_code == 403 and acted.json()["code"] == "auth/invite_used"
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
    waiting = client.get(f"/api/tables/{tid}/state", headers=auth(invite))  # (not used)
    assert waiting.status_code == 403 and waiting.json()["code"] == "auth/invite"
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
    first, second = exchange(client, tid, made["seats"][0]["token"]), made["seats"][1]["token"]
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


def test_an_invite_reads_nothing_and_does_nothing_over_http(client: TestClient) -> None:
    """Non-interference: before anyone joined, whoever holds a seat's invite (the table's
    maker) learns nothing of the seat's hand and changes nothing with it. Every use of it
    as the seat's token is refused with ``auth/invite``; the table is as it was."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, invite = made["table"]["id"], made["seats"][1]["token"]
    table = client.app.state.hub.tables[tid]  # type: ignore[attr-defined]
    hand = table.state.view(1)["hand"]
    legal = [a.to_json() for a in table.state.legal_actions(1)]
    assert hand and legal  # (seat 1 has something to hide and to do)
    before = (table.version, dict(table.seq), client.get(f"/api/tables/{tid}").json())
    answers = [
        client.get(f"/api/tables/{tid}/state", headers=auth(invite)),
        client.post(
            f"/api/tables/{tid}/actions",
            json={"action": legal[0], "version": 0},
            headers=auth(invite),
        ),
        client.post(f"/api/tables/{tid}/actions", json={"action": legal[0]}, headers=auth(invite)),
        client.post(f"/api/tables/{tid}/seats/1/bot", json={"bot": "random"}, headers=auth(invite)),
        client.post(f"/api/tables/{tid}/seats/0/bot", json={"bot": "random"}, headers=auth(invite)),
        client.post(f"/api/tables/{tid}/again", headers=auth(invite)),
    ]
    for answer in answers:
        assert answer.status_code == 403, answer.text
        body = answer.json()
        assert body["code"] == "auth/invite"
        assert "invite" in body["message"] and f"/api/tables/{tid}/exchange" in body["message"]
        assert not any(card in answer.text for card in map(str, hand))
    # The table is unchanged: no action, no bot, no new table, the invite still waiting.
    assert (table.version, dict(table.seq), client.get(f"/api/tables/{tid}").json()) == before
    assert table.seats[1].invited and table.seats[1].bot is None
    # The seat's player exchanges the invite and sees the hand that was kept from the maker.
    key = exchange(client, tid, invite)
    mine = client.get(f"/api/tables/{tid}/state", headers=auth(key)).json()
    assert mine["seat"] == 1 and mine["view"]["hand"] == hand and mine["legal"] == legal


def test_the_exchange_endpoint_answers_the_seats_key_once(client: TestClient) -> None:
    made = create_table(client, ["human", "human", "bot:random"])
    tid, invite = made["table"]["id"], made["seats"][1]["token"]
    url = f"/api/tables/{tid}/exchange"
    got = client.post(url, headers=auth(invite))
    assert got.status_code == 200, got.text
    assert set(got.json()) == {"seat", "key"} and got.json()["seat"] == 1
    key = got.json()["key"]
    assert key and key not in (invite, made["host_token"], made["seats"][0]["token"])
    record = client.app.state.hub.storage.table(tid)  # type: ignore[attr-defined]
    assert record.seats[1]["token_hash"] == hash_token(key)  # stored (a hash) when answered
    # The key is the seat's token everywhere: state, actions, the bot, the websocket.
    state = client.get(f"/api/tables/{tid}/state", headers=auth(key)).json()
    assert state["seat"] == 1 and state["legal"]
    acted = client.post(
        f"/api/tables/{tid}/actions",
        json={"action": state["legal"][0], "version": state["version"]},
        headers=auth(key),
    )
    assert acted.status_code == 200, acted.text
    bot_url = f"/api/tables/{tid}/seats/1/bot"
    botted = client.post(bot_url, json={"bot": "random"}, headers=auth(key))
    assert botted.status_code == 200 and botted.json()["seats"][1]["bot"] == "random"
    back = client.post(bot_url, json={"bot": None}, headers=auth(key))
    assert back.status_code == 200 and back.json()["seats"][1]["bot"] is None
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        player = Player(ws, key)
        assert player.latest["seat"] == 1 and "key" not in player.latest
    # The invite is used: a join with it is refused, so is any HTTP use, and exchanging it
    # again.
    used = join_error(client, tid, invite)
    assert used["code"] == "auth/invite_used"
    refused = client.get(f"/api/tables/{tid}/state", headers=auth(invite))
    assert refused.status_code == 403 and refused.json()["code"] == "auth/invite_used"
    again = client.post(url, headers=auth(invite))
    assert again.status_code == 403 and again.json()["code"] == "auth/invite_used"
    # Nothing else is exchanged: a key, the host's token, a made-up token, none.
    for headers in (auth(key), auth(made["host_token"]), auth("not-an-invite"), {}):
        wrong = client.post(url, headers=headers)
        assert wrong.status_code == 403 and wrong.json()["code"] == "auth/token", headers
    unknown = client.post("/api/tables/nosuchtable/exchange", headers=auth(invite))
    assert unknown.status_code == 404 and unknown.json()["code"] == "table/unknown"
    # The other seat's invite still waits, and its key is its own.
    other = exchange(client, tid, made["seats"][0]["token"])
    assert other != key
    assert client.get(f"/api/tables/{tid}/state", headers=auth(other)).json()["seat"] == 0
    assert client.get(f"/api/tables/{tid}/state", headers=auth(key)).json()["seat"] == 1


def test_an_exchange_with_the_clients_own_key_may_be_asked_again(client: TestClient) -> None:
    """The key a client made is the seat's key; the same invite and key asked again (an
    answer lost on the way), over HTTP or by a websocket join, answer as made; the invite
    with another key, or no key, is used; a key that is not one is refused and changes
    nothing."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, invite = made["table"]["id"], made["seats"][1]["token"]
    url = f"/api/tables/{tid}/exchange"
    for bad in ("short", "x" * 65, "a b" * 16, 7):
        got = client.post(url, headers=auth(invite), json={"key": bad})
        assert (got.status_code, got.json()["code"]) == (422, "request/invalid"), bad
        refused = join_error(client, tid, invite, key=bad)
        assert refused["code"] == "frame/malformed", bad
    waiting = client.get(f"/api/tables/{tid}/state", headers=auth(invite))
    assert waiting.json()["code"] == "auth/invite"  # (still waiting: nothing was exchanged)
    key = "Ab-_" * 8
    first = client.post(url, headers=auth(invite), json={"key": key})
    assert first.status_code == 200 and first.json() == {"seat": 1, "key": key}
    record = client.app.state.hub.storage.table(tid)  # type: ignore[attr-defined]
    assert record.seats[1]["token_hash"] == hash_token(key)
    again = client.post(url, headers=auth(invite), json={"key": key})
    assert again.status_code == 200 and again.json() == first.json()
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_json({"type": "join", "token": invite, "key": key})
        welcome = first_answer(ws)
        assert welcome["type"] == "welcome" and welcome["seat"] == 1 and welcome["key"] == key
    for other in ({"key": "z" * 32}, None):
        used = client.post(url, headers=auth(invite), json=other)
        assert (used.status_code, used.json()["code"]) == (403, "auth/invite_used")
    assert join_error(client, tid, invite, key="z" * 32)["code"] == "auth/invite_used"
    assert client.get(f"/api/tables/{tid}/state", headers=auth(key)).json()["seat"] == 1
    # The websocket's own first join with a key made: the same again gives the same seat.
    second = made["seats"][0]["token"]
    mine = "Qq_" * 11
    for _ in range(2):
        with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            ws.send_json({"type": "join", "token": second, "key": mine})
            welcome = first_answer(ws)
            assert (welcome["type"], welcome["seat"], welcome["key"]) == ("welcome", 0, mine)


def test_an_exchange_asked_again_while_its_key_is_stored_is_answered_once_it_is(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked again before the first asking's write is done, the same exchange waits for
    it: it is not answered before the key is stored; a write that fails fails both, and the
    invite waits again (asked a third time, it is exchanged for that key)."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, invite = made["table"]["id"], made["seats"][1]["token"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    submit, gate, held = hub.writer.submit, threading.Event(), threading.Event()
    fail = [True]

    async def slow_exchange(op: Any) -> Any:
        if isinstance(op, SetSeats) and not held.is_set():
            held.set()
            await asyncio.to_thread(gate.wait, 10)
            if fail[0]:
                raise OperationalError("UPDATE", {}, Exception("the disk is full"))
        return await submit(op)

    monkeypatch.setattr(hub.writer, "submit", slow_exchange)
    url = f"/api/tables/{tid}/exchange"
    key = "Ab-_" * 8
    answers: list[Any] = []

    def ask() -> None:
        answers.append(client.post(url, headers=auth(invite), json={"key": key}))

    for failing in (True, False):
        fail[0] = failing
        answers.clear()
        held.clear()
        gate.clear()

        first, second = threading.Thread(target=ask), threading.Thread(target=ask)
        try:
            first.start()
            assert held.wait(10)  # the first asking's write waits
            second.start()
            second.join(0.5)
            assert second.is_alive() and answers == []  # not answered before it is stored
        finally:
            gate.set()
            first.join(10)
            if second.ident is not None:
                second.join(10)
        codes = sorted(a.status_code for a in answers)
        if failing:
            assert codes == [503, 503]
            record = hub.storage.table(tid)
            assert record.seats[1]["token_hash"] is None  # the invite waits again
        else:
            assert codes == [200, 200] and all(a.json()["key"] == key for a in answers)
            assert hub.storage.table(tid).seats[1]["token_hash"] == hash_token(key)


def test_an_invite_exchanged_by_the_websocket_join_is_used_for_the_endpoint(
    client: TestClient,
) -> None:
    """The first join with an invite still exchanges it (its welcome carries the key);
    the endpoint then refuses the invite as used."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, invite = made["table"]["id"], made["seats"][0]["token"]
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        player = Player(ws, invite)
        key = player.latest["key"]
        assert player.latest["seat"] == 0 and key not in (None, invite)
    refused = client.post(f"/api/tables/{tid}/exchange", headers=auth(invite))
    assert refused.status_code == 403 and refused.json()["code"] == "auth/invite_used"
    assert client.get(f"/api/tables/{tid}/state", headers=auth(key)).json()["seat"] == 0


def test_play_again_keeps_a_waiting_invite_waiting(client: TestClient) -> None:
    """The next table keeps each seat's key and invite: an exchanged seat's key is its
    token there too; a seat whose invite was never exchanged still has only its invite,
    refused as a token there and exchanged there."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, host, invite = made["table"]["id"], made["host_token"], made["seats"][1]["token"]
    key = exchange(client, tid, made["seats"][0]["token"])
    bot_url = f"/api/tables/{tid}/seats/1/bot"
    handed = client.post(bot_url, json={"bot": "random"}, headers=auth(host))
    assert handed.status_code == 200, handed.text
    play_to_end(client, tid, {0: key})
    refused = client.post(f"/api/tables/{tid}/again", headers=auth(invite))
    assert refused.status_code == 403 and refused.json()["code"] == "auth/invite"
    new = client.post(f"/api/tables/{tid}/again", headers=auth(key)).json()["id"]
    assert client.get(f"/api/tables/{new}/state", headers=auth(key)).json()["seat"] == 0
    waiting = client.get(f"/api/tables/{new}/state", headers=auth(invite))
    assert waiting.status_code == 403 and waiting.json()["code"] == "auth/invite"
    theirs = exchange(client, new, invite)
    assert client.get(f"/api/tables/{new}/state", headers=auth(theirs)).json()["seat"] == 1


def test_exchanges_count_against_the_clients_rate_of_actions(sqlite_url: str) -> None:
    """An exchange stores the seat's key: a write, counted as an action, not a read."""
    caps = Caps(actions_burst=2, actions_per_second=0.01)
    with TestClient(create_app(sqlite_url, bot_delay=0, caps=caps)) as client:
        made = create_table(client, ["human", "human", "human"])
        tid = made["table"]["id"]
        for _ in range(5):  # (reads do not count)
            assert client.get(f"/api/tables/{tid}").status_code == 200
        exchange(client, tid, made["seats"][0]["token"])
        exchange(client, tid, made["seats"][1]["token"])
        limited = client.post(
            f"/api/tables/{tid}/exchange", headers=auth(made["seats"][2]["token"])
        )
        assert limited.status_code == 429 and limited.json()["code"] == "rate/limited"
        table = client.app.state.hub.tables[tid]  # type: ignore[attr-defined]
        assert table.seats[2].invited  # (refused: not exchanged)


def test_a_join_given_up_during_a_failing_exchange_leaves_the_invite_waiting(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exchange's caller is cancelled (its connection went) while the key is being
    stored, and the write then fails: the seat waits for its invite again once the write
    has ended, as if the exchange had never begun."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, invite = made["table"]["id"], made["seats"][1]["token"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    table = hub.tables[tid]
    submit, gate = hub.writer.submit, threading.Event()

    async def failing(op: Any) -> Any:
        if isinstance(op, SetSeats):
            await asyncio.to_thread(gate.wait, 10)
            raise OperationalError("UPDATE", {}, Exception("the disk is full"))
        return await submit(op)

    monkeypatch.setattr(hub.writer, "submit", failing)

    async def give_up() -> bool:
        joining = asyncio.ensure_future(table.exchange(invite))
        for _ in range(200):  # until it waits for its write
            await asyncio.sleep(0.005)
            if table.waiting_seat(invite) is None:
                break
        joining.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await joining
        return table.waiting_seat(invite) is None  # taken meanwhile

    assert client.portal is not None
    assert client.portal.call(give_up)
    gate.set()
    for _ in range(200):
        if table.waiting_seat(invite) == 1:
            break
        time.sleep(0.01)
    assert table.waiting_seat(invite) == 1 and table.seats[1].token_hash is None
    monkeypatch.setattr(hub.writer, "submit", submit)
    answered = client.post(f"/api/tables/{tid}/exchange", headers=auth(invite))
    assert answered.status_code == 200 and answered.json()["seat"] == 1


def new_invite(client: TestClient, tid: str, seat: int, token: str | None) -> Any:
    """``POST /api/tables/{id}/seats/{seat}/invite`` with ``token`` (none: no header)."""
    headers = auth(token) if token else {}
    return client.post(f"/api/tables/{tid}/seats/{seat}/invite", headers=headers)


def test_the_host_gives_a_player_who_lost_their_key_a_new_invite(client: TestClient) -> None:
    """A player who lost their key (a cleared browser, another device) gets a new invite
    link from the host: the seat waits for it, as a new table's seat does, and its old key
    and invite are worth nothing from then on. Stored before it is answered; the game
    itself is untouched, and the player comes back to what they left."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, host, old_invite = made["table"]["id"], made["host_token"], made["seats"][1]["token"]
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        player = Player(ws, old_invite)
        old_key, left = player.token, player.latest
    assert old_key  # (they left: nobody is connected at seat 1 now)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    table = hub.tables[tid]
    before = (table.version, dict(table.seq))
    got = new_invite(client, tid, 1, host)
    assert got.status_code == 200, got.text
    body = got.json()
    assert set(body) == {"seat", "name", "token", "invite", "reinvited"}
    assert body["seat"] == 1 and body["name"] == table.seats[1].name
    assert body["reinvited"] == table.seats[1].reinvited == 1  # (as the seats lists say)
    invite = body["token"]
    assert invite not in (old_invite, old_key, host)
    assert body["invite"].endswith(f"/table/{tid}#token={invite}")
    stored = hub.storage.table(tid).seats[1]  # (stored, as hashes, when answered)
    assert stored["invite_hash"] == hash_token(invite) and stored["token_hash"] is None
    assert set(stored["revoked"]) == {hash_token(old_key), hash_token(old_invite)}
    # Everyone sees that the seat got a new link (a host cannot do it unseen).
    assert client.get(f"/api/tables/{tid}").json()["seats"][1]["reinvited"] == 1
    # The old key and invite are worth nothing, and say why; the new invite, only its
    # exchange.
    for token, code in (
        (old_key, "auth/revoked"),
        (old_invite, "auth/revoked"),
        (invite, "auth/invite"),
    ):
        refused = client.get(f"/api/tables/{tid}/state", headers=auth(token))
        assert refused.status_code == 403 and refused.json()["code"] == code, token
    told = join_error(client, tid, old_key)
    assert told["code"] == "auth/revoked" and "new invite link for seat 1" in told["message"]
    assert table.seats[0].invited  # (the other seats are as they were)
    assert (table.version, dict(table.seq)) == before
    # With the new link the player is back at their seat, where they left it.
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        back = Player(ws, invite)
        assert back.token not in (None, invite, old_key)
        assert back.latest["seat"] == 1 and back.latest["version"] == left["version"]
        assert back.latest["view"] == left["view"] and back.latest["legal"] == left["legal"]
    used = new_invite(client, tid, 1, host)  # (a second new invite, once they left again)
    assert used.status_code == 200 and used.json()["token"] != invite


def test_only_the_host_makes_a_new_invite_and_only_for_an_absent_human_seat(
    client: TestClient,
) -> None:
    """Refused, changing nothing: any token but the host's (a seat's own key included:
    ``auth/host``); a bot seat, a seat that does not exist, a table that does not; a seat
    whose player is connected (they would be locked out of their own seat:
    ``seat/present``); a finished game."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, host = made["table"]["id"], made["host_token"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    table = hub.tables[tid]
    key = exchange(client, tid, made["seats"][0]["token"])
    stored = hub.storage.table(tid).seats

    def unchanged() -> None:
        assert hub.storage.table(tid).seats == stored
        assert [s.stored() for s in table.seats] == stored

    for token in (key, made["seats"][1]["token"], "made-up", None):
        for seat in (0, 1):
            refused = new_invite(client, tid, seat, token)
            assert refused.status_code == 403, refused.text
            assert refused.json()["code"] == "auth/host"
    for seat, status, code in ((2, 409, "seat/not_human"), (3, 404, "seat/unknown")):
        refused = new_invite(client, tid, seat, host)
        assert (refused.status_code, refused.json()["code"]) == (status, code)
    unknown = client.post("/api/tables/nosuchtable/seats/0/invite", headers=auth(host))
    assert unknown.status_code == 404 and unknown.json()["code"] == "table/unknown"
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        player = Player(ws, key)
        present = new_invite(client, tid, 0, host)
        assert present.status_code == 409 and present.json()["code"] == "seat/present"
        assert "lock them out" in present.json()["message"]
        player.sync()  # (still seated, still told everything)
        assert player.latest["seat"] == 0
        assert all(f["type"] != "error" for f in player.frames)
    unchanged()
    play_to_end(client, tid, {0: key, 1: exchange(client, tid, made["seats"][1]["token"])})
    stored = hub.storage.table(tid).seats
    over = new_invite(client, tid, 1, host)
    assert over.status_code == 409 and over.json()["code"] == "table/over"
    unchanged()


def test_a_connection_whose_seat_key_is_taken_away_is_told_and_closed(client: TestClient) -> None:
    """A process following a table takes the owner's new seats (a new invite made before
    the owner was told of a player connected here): a connection that joined with the seat's old
    key is told ``auth/revoked`` and closed; the other seats' connections are untouched."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid = made["table"]["id"]
    table = client.app.state.hub.tables[tid]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/api/tables/{tid}/ws") as first:
        kept = Player(first, made["seats"][0]["token"])
        with client.websocket_connect(f"/api/tables/{tid}/ws") as second:
            gone = Player(second, made["seats"][1]["token"])
            seats = [dict(s) for s in table.record.seats]
            seats[1] |= {"token_hash": None, "invite_hash": hash_token("a-new-invite")}
            seats[1] |= {"reinvited": 1, "revoked": [table.record.seats[1]["token_hash"]]}

            async def take() -> None:
                table.take_seats(seats)

            assert client.portal is not None
            client.portal.call(take)
            told = gone.read_until(lambda f: f["type"] == "error")
            assert told["code"] == "auth/revoked" and "seat 1" in told["message"]
            with pytest.raises(WebSocketDisconnect):
                gone.receive()
        kept.sync()
        assert all(f["type"] != "error" for f in kept.frames)
        assert {"type": "reinvited", "table": tid, "seat": 1} in kept.frames  # (told)
        deadline = time.monotonic() + 5  # (the server lets the closed one go after)
        while table.connected(1) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert table.connected(0) == 1 and table.connected(1) == 0


def frames_until(ws: Any, done: Any, seconds: float = 15.0) -> dict[str, Any]:
    """Frames from a websocket (websockets' client) until one satisfies ``done``; that one."""
    deadline = time.monotonic() + seconds
    while True:
        frame: dict[str, Any] = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if done(frame):
            return frame


def test_exchanges_and_new_invites_with_two_server_processes() -> None:
    """Two `thievery serve` processes on one PostgreSQL database, the table run by A (its
    first player is there). At B, which follows it: an invite's exchange is made by A and
    its key works at both; the host's new invite for a seat whose player is connected at B
    is refused there and at A, which is told of B's connections (``seat/present``). Once
    that player has left, it is made at A: the old key is refused at both processes
    (``auth/revoked``), and the new invite exchanged at B. (A connection with the old key
    that a process still holds is told ``auth/revoked`` and closed when the new seats are
    announced: ``test_a_connection_whose_seat_key_is_taken_away_is_told_and_closed``.)"""
    url = fresh_postgres()
    with ExitStack() as stack:
        (_, a), (_, b) = [stack.enter_context(server_process(url)) for _ in range(2)]
        at_a, at_b = f"http://127.0.0.1:{a}/api/tables", f"http://127.0.0.1:{b}/api/tables"
        body = {"game": "schattendieb", "seats": [{"kind": "human"}] * 2 + [{"kind": "bot"}]}
        made = httpx2.post(at_a, json=body).json()
        tid, host = made["table"]["id"], made["host_token"]

        def state(at: str, token: str) -> Any:
            return httpx2.get(f"{at}/{tid}/state", headers=auth(token))

        with connect(f"ws://127.0.0.1:{a}/api/tables/{tid}/ws") as first:
            first.send(json.dumps({"type": "join", "token": made["seats"][0]["token"]}))
            assert frames_until(first, lambda f: f["type"] == "welcome")["seat"] == 0
            got = httpx2.post(f"{at_b}/{tid}/exchange", headers=auth(made["seats"][1]["token"]))
            assert got.status_code == 200, got.text
            key = got.json()["key"]
            assert got.json()["seat"] == 1
            assert state(at_a, key).json()["seat"] == 1 and state(at_b, key).json()["seat"] == 1
            again = httpx2.post(f"{at_b}/{tid}/exchange", headers=auth(made["seats"][1]["token"]))
            assert again.status_code == 403 and again.json()["code"] == "auth/invite_used"
            with connect(f"ws://127.0.0.1:{b}/api/tables/{tid}/ws") as second:
                second.send(json.dumps({"type": "join", "token": key}))
                assert frames_until(second, lambda f: f["type"] == "welcome")["seat"] == 1
                # (A has heard of B's player once A's player is told of them)
                frames_until(
                    first, lambda f: f["type"] == "seats" and f["seats"][1]["connected"] == 1
                )
                for at in (at_b, at_a):
                    present = httpx2.post(f"{at}/{tid}/seats/1/invite", headers=auth(host))
                    assert present.status_code == 409, present.text
                    assert present.json()["code"] == "seat/present"
            frames_until(first, lambda f: f["type"] == "seats" and f["seats"][1]["connected"] == 0)
            made_at_a = httpx2.post(f"{at_a}/{tid}/seats/1/invite", headers=auth(host))
            assert made_at_a.status_code == 200, made_at_a.text
            invite = made_at_a.json()["token"]
            for at in (at_a, at_b):
                deadline = time.monotonic() + 10
                while state(at, key).status_code == 200 and time.monotonic() < deadline:
                    time.sleep(0.05)
                assert state(at, key).json()["code"] == "auth/revoked"
            new = httpx2.post(f"{at_b}/{tid}/exchange", headers=auth(invite))
            assert new.status_code == 200 and new.json()["seat"] == 1, new.text
            assert state(at_a, new.json()["key"]).json()["seat"] == 1
            first.send(json.dumps({"type": "ping", "id": "p"}))  # (seat 0 never noticed)
            assert frames_until(first, lambda f: f["type"] in ("pong", "error"))["type"] == "pong"


def test_a_write_of_the_seats_right_after_an_exchange_is_stored_after_it(
    client: TestClient,
) -> None:
    """An exchange takes the key in memory under the table's lock and commits it after;
    a write of the seats made in between (the host hands another seat to a bot) is stored
    after the exchange's, as it was taken after it in memory: storage ends as memory does.
    (The exchange's write was queued after the lock was let go, and could be stored last,
    dropping the bot from storage.)"""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, invite = made["table"]["id"], made["seats"][0]["token"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    table = hub.tables[tid]

    async def both() -> None:
        exchanging = asyncio.ensure_future(table.exchange(invite))
        await asyncio.sleep(0)  # (it has taken the key and let the lock go)
        assert table.waiting_seat(invite) is None
        await table.set_bot(1, "random")
        assert await exchanging is not None

    assert client.portal is not None
    client.portal.call(both)
    stored = hub.storage.table(tid).seats
    assert stored == table.record.seats
    assert stored[1]["bot"] == "random" and stored[0]["token_hash"] is not None


def test_a_join_with_the_old_key_while_the_new_invite_is_stored_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player joins with the seat's key while the host's new invite for the seat is
    being stored. A join that checked the key before the new seats were taken, and is
    attached after, is refused then (``auth/revoked``), never seated with a worthless key;
    one seated before is told so and closed."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, host = made["table"]["id"], made["host_token"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    table = hub.tables[tid]
    key = exchange(client, tid, made["seats"][1]["token"])
    submit, stored, joining = hub.writer.submit, threading.Event(), threading.Event()
    history = Chat.history

    async def slow(op: Any) -> Any:
        if isinstance(op, SetSeats):
            await asyncio.to_thread(stored.wait, 10)
        return await submit(op)

    async def late(chat: Chat, table: Any) -> Any:  # the join's last wait before it attaches
        joining.set()
        await asyncio.to_thread(lambda: stored.wait(10) and time.sleep(0.2))
        return await history(chat, table)

    monkeypatch.setattr(hub.writer, "submit", slow)
    monkeypatch.setattr(Chat, "history", late)
    answer: list[Any] = []
    asking = threading.Thread(target=lambda: answer.append(new_invite(client, tid, 1, host)))
    asking.start()
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        for _ in range(500):  # until the new invite waits for its write
            if table.lock.locked():
                break
            time.sleep(0.01)
        ws.send_json({"type": "join", "token": key})
        assert joining.wait(10)  # (it has checked the key: still the seat's)
        stored.set()  # the new seats are taken; then the join goes on
        asking.join(10)
        first = ws.receive_json()
        assert first["type"] == "error" and first["code"] == "auth/revoked", first
    assert answer and answer[0].status_code == 200, answer
    assert table.connected(1) == 0


def test_an_owners_answer_does_not_roll_back_seats_announced_meanwhile(
    client: TestClient,
) -> None:
    """A follower process takes the seats in the owner's answer to its call unless seats
    came meanwhile: a later write's announcement (a new invite) can come before the answer
    to an earlier call, and the answer would put the old key back."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid = made["table"]["id"]
    table = client.app.state.hub.tables[tid]  # type: ignore[attr-defined]
    before = [dict(s) for s in table.record.seats]
    botted = [dict(s) for s in before]
    botted[1]["bot"] = "random"  # (the answer to "hand seat 1 to a bot")
    newer = [dict(s) for s in botted]
    newer[0] |= {"invite_hash": hash_token("new"), "reinvited": 1, "revoked": []}

    async def calls() -> None:
        asked = table.seats_taken
        table.take_seats(newer)  # announced while the call was under way
        table.take_answered_seats(botted, asked)
        assert table.record.seats == newer
        asked = table.seats_taken
        table.take_answered_seats(botted, asked)  # (nothing came meanwhile: taken)
        assert table.record.seats == botted

    assert client.portal is not None
    client.portal.call(calls)


def test_play_again_keeps_a_seats_new_invite_marks(client: TestClient) -> None:
    """The table that plays again keeps each seat's key and its new invites' marks: the
    seat the host gave a new invite shows it there too, and the key that new invite
    replaced is told why it no longer works (``auth/revoked``), not only that it is
    nobody's (``auth/token``)."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, host = made["table"]["id"], made["host_token"]
    old_key = exchange(client, tid, made["seats"][1]["token"])
    got = new_invite(client, tid, 1, host)
    assert got.status_code == 200, got.text
    keys = {0: exchange(client, tid, made["seats"][0]["token"])}
    keys[1] = exchange(client, tid, got.json()["token"])
    play_to_end(client, tid, keys)
    again = client.post(f"/api/tables/{tid}/again", headers=auth(keys[0]))
    assert again.status_code == 200, again.text
    nid = again.json()["id"]
    assert [s["reinvited"] for s in again.json()["seats"]] == [0, 1, 0]
    for seat, key in keys.items():  # (everyone keeps their key)
        mine = client.get(f"/api/tables/{nid}/state", headers=auth(key))
        assert mine.status_code == 200 and mine.json()["seat"] == seat, mine.text
    refused = client.get(f"/api/tables/{nid}/state", headers=auth(old_key))
    assert refused.status_code == 403 and refused.json()["code"] == "auth/revoked"
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.storage.table(nid).seats[1]["revoked"] == hub.storage.table(tid).seats[1]["revoked"]


@pytest.mark.parametrize("asks", ["an action", "a bot for the seat"])
def test_a_request_whose_key_is_taken_away_while_it_waits_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, asks: str
) -> None:
    """A seat's request (an action, or handing the seat to a bot) checked with the seat's
    key while the host's new invite for the seat is being stored waits for the table; once
    the new invite is stored, the key is worth nothing and the request is refused
    (``auth/revoked``), changing nothing."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, host = made["table"]["id"], made["host_token"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    table = hub.tables[tid]
    keys = {s["seat"]: exchange(client, tid, s["token"]) for s in made["seats"]}
    seat, key, state = next(
        (seat, key, state)
        for seat, key in keys.items()
        if (state := client.get(f"/api/tables/{tid}/state", headers=auth(key)).json())["legal"]
    )
    submit, stored, writing = hub.writer.submit, threading.Event(), threading.Event()

    async def slow(op: Any) -> Any:
        if isinstance(op, SetSeats):
            writing.set()
            await asyncio.to_thread(stored.wait, 10)
        return await submit(op)

    monkeypatch.setattr(hub.writer, "submit", slow)
    before = (table.version, dict(table.seq), table.seats[seat].bot)
    answers: dict[str, Any] = {}
    asking = threading.Thread(
        target=lambda: answers.update(new=new_invite(client, tid, seat, host))
    )
    asking.start()
    assert writing.wait(10)  # (the new invite holds the table, waiting for its write)
    if asks == "an action":
        path, body = "actions", {"action": state["legal"][0], "version": state["version"]}
    else:
        path, body = f"seats/{seat}/bot", {"bot": "random"}
    acting = threading.Thread(
        target=lambda: answers.update(
            asked=client.post(f"/api/tables/{tid}/{path}", json=body, headers=auth(key))
        )
    )
    acting.start()
    time.sleep(0.3)  # (its key checked: still the seat's; it waits for the table)
    assert "asked" not in answers and table.seats[seat].reinvited == 0
    stored.set()
    asking.join(10)
    acting.join(10)
    assert answers["new"].status_code == 200, answers["new"].text
    asked = answers["asked"]
    assert asked.status_code == 403 and asked.json()["code"] == "auth/revoked", asked.text
    assert f"seat {seat}" in asked.json()["message"]
    assert (table.version, dict(table.seq), table.seats[seat].bot) == before


def test_a_count_of_new_invites_ahead_of_the_tables_is_not_refused(client: TestClient) -> None:
    """A request forwarded with more new invites than this copy knows (it may be an owner
    deposed without knowing it yet: its write is fenced and the request goes on to the
    owner) is not refused as a worthless key."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid = made["table"]["id"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    table = hub.tables[tid]
    keys = {s["seat"]: exchange(client, tid, s["token"]) for s in made["seats"]}
    seat, state = next(
        (seat, state)
        for seat, key in keys.items()
        if (state := client.get(f"/api/tables/{tid}/state", headers=auth(key)).json())["legal"]
    )
    act = functools.partial(table.act, seat, state["legal"][0], state["version"], keyed=1)
    version, _ = client.portal.call(act)
    assert version > state["version"] and table.seats[seat].reinvited == 0
    with pytest.raises(ServerError, match="new invite link"):  # (behind: refused)
        client.portal.call(functools.partial(table.set_bot, seat, "random", keyed=-1))
    client.portal.call(functools.partial(table.set_bot, seat, "random", keyed=3))
    assert table.seats[seat].bot == "random"
