"""The lobby list of open tables (GET /api/tables/open) and taking a free seat of one
(POST /api/tables/{id}/seats/{n}/claim): listed or private, full, finished, races
between claims, and bad input."""

from __future__ import annotations

import json
import threading
import time
from contextlib import ExitStack
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from websockets.sync.client import connect

from tests.server.conftest import FAST, LIFTED, Player, exchange, fresh_postgres
from tests.server.serving import server_process, serving
from thievery.server import create_app
from thievery.server.lobby import Lobby, lobby_seats_t


def make(client: TestClient, seats: list[str], listed: bool | None = True) -> dict[str, Any]:
    """A Schattendieb table; ``seats`` like ``["human", "bot:random"]``."""
    spec = [
        {"kind": "human"} if s == "human" else {"kind": "bot", "bot": s.split(":", 1)[1]}
        for s in seats
    ]
    body: dict[str, Any] = {"game": "schattendieb", "seats": spec, "options": {"games": 1}}
    if listed is not None:
        body["listed"] = listed
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


LISTED_THREE = {  # a listed table of three people
    "game": "schattendieb",
    "seats": [{"kind": "human"}] * 3,
    "options": {"games": 1},
    "listed": True,
}


def open_list(client: TestClient) -> dict[str, dict[str, Any]]:
    response = client.get("/api/tables/open")
    assert response.status_code == 200, response.text
    return {t["id"]: t for t in response.json()}


def claim(client: TestClient, table_id: str, seat: Any) -> httpx2.Response:
    response: httpx2.Response = client.post(f"/api/tables/{table_id}/seats/{seat}/claim")
    return response


def test_only_listed_tables_with_free_seats_are_listed(client: TestClient) -> None:
    listed = make(client, ["human", "human", "human", "bot:random"])
    private = make(client, ["human", "human", "bot:random"], listed=None)
    also_private = make(client, ["human", "human", "bot:random"], listed=False)
    lonely = make(client, ["human", "bot:random", "bot:random"])  # only the creator's seat
    assert listed["listed"] and not private["listed"] and not lonely["listed"]
    found = open_list(client)
    assert set(found) == {listed["table"]["id"]}
    entry = found[listed["table"]["id"]]
    # Every human seat but the creator's (the first) is free; bots are not.
    assert entry["free"] == [1, 2]
    assert [s["free"] for s in entry["seats"]] == [False, True, True, False]
    assert entry["game"] == "schattendieb" and entry["title"] == "Der Schattendieb"
    assert entry["players"] == 4 and entry["age_seconds"] >= 0 and not entry["scenario"]
    # Listing says nothing secret: no token, no hash, no options.
    text = client.get("/api/tables/open").text
    for made in (listed, private, also_private):
        for seat in made["seats"]:
            assert seat["token"] not in text
    assert "token_hash" not in text and "options" not in text


def test_claiming_a_seat_gives_a_fresh_token_and_the_old_invite_dies(
    client: TestClient,
) -> None:
    made = make(client, ["human", "human", "human"])
    tid = made["table"]["id"]
    old = made["seats"][1]["token"]
    got = claim(client, tid, 1)
    assert got.status_code == 200, got.text
    seat = got.json()
    assert seat["seat"] == 1 and seat["token"] != old
    assert seat["invite"].endswith(f"/table/{tid}#token={seat['token']}")
    assert open_list(client)[tid]["free"] == [2]
    # The new token is seat 1's; the seat's old invite link no longer is anyone's.
    state = client.get(
        f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {seat['token']}"}
    )
    assert state.json()["seat"] == 1
    stale = client.get(f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {old}"})
    assert stale.status_code == 403 and stale.json()["code"] == "auth/token"
    # Taken once: taken for good.
    again = claim(client, tid, 1)
    assert again.status_code == 409 and again.json()["code"] == "seat/taken"
    # The last free seat taken: the table is full and leaves the list.
    assert claim(client, tid, 2).status_code == 200
    assert tid not in open_list(client)


def test_an_invite_link_used_takes_its_seat(client: TestClient) -> None:
    made = make(client, ["human", "human", "human"])
    tid = made["table"]["id"]
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        Player(ws, made["seats"][2]["token"])
        assert open_list(client)[tid]["free"] == [1]
        refused = claim(client, tid, 2)
        assert refused.status_code == 409 and refused.json()["code"] == "seat/taken"
    # Gone from the table, the seat stays its invitee's.
    assert open_list(client)[tid]["free"] == [1]
    # An invite used as a seat's token over HTTP is refused, and takes nothing.
    invite = {"Authorization": f"Bearer {made['seats'][1]['token']}"}
    refused = client.get(f"/api/tables/{tid}/state", headers=invite)
    assert refused.status_code == 403 and refused.json()["code"] == "auth/invite"
    assert open_list(client)[tid]["free"] == [1]
    # Exchanging it for the seat's key (HTTP) takes the seat, as does looking with the key.
    headers = {"Authorization": f"Bearer {exchange(client, tid, made['seats'][1]['token'])}"}
    assert tid not in open_list(client)
    assert client.get(f"/api/tables/{tid}/state", headers=headers).status_code == 200


def test_a_seat_taken_while_the_list_reads_storage_is_not_listed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The list read storage before a seat's taking was stored, and the write ended
    before the list was made: the seat is left out all the same (it was listed free)."""
    made = make(client, ["human", "human", "human"])
    tid = made["table"]["id"]
    assert open_list(client)[tid]["free"] == [1, 2]
    read, go = threading.Event(), threading.Event()
    lobbies: list[Lobby] = []
    original = Lobby._free_seats

    def read_then_wait(self: Lobby) -> dict[str, list[int]]:
        free = original(self)
        lobbies.append(self)
        read.set()
        assert go.wait(10)
        return free

    monkeypatch.setattr(Lobby, "_free_seats", read_then_wait)
    listing: dict[str, dict[str, Any]] = {}
    reader = threading.Thread(target=lambda: listing.update(open_list(client)))
    reader.start()
    try:
        assert read.wait(10)  # storage read: seats 1 and 2 free
        key = exchange(client, tid, made["seats"][1]["token"])  # (takes seat 1)
        headers = {"Authorization": f"Bearer {key}"}
        assert client.get(f"/api/tables/{tid}/state", headers=headers).status_code == 200
        deadline = time.monotonic() + 10
        while lobbies[0]._writes:  # until seat 1's taking is stored
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        go.set()
        reader.join(10)
    assert listing[tid]["free"] == [2]
    monkeypatch.setattr(Lobby, "_free_seats", original)
    assert open_list(client)[tid]["free"] == [2]  # and after: storage says so


def test_bots_and_finished_tables_are_not_listed(client: TestClient) -> None:
    made = make(client, ["human", "human", "human"])
    tid, host = made["table"]["id"], made["host_token"]
    auth = {"Authorization": f"Bearer {host}"}
    # The host hands a free seat to a bot: not free while the bot plays it.
    assert (
        client.post(
            f"/api/tables/{tid}/seats/2/bot", json={"bot": "random"}, headers=auth
        ).status_code
        == 200
    )
    assert open_list(client)[tid]["free"] == [1]
    assert claim(client, tid, 2).json()["code"] == "seat/taken"
    assert (
        client.post(f"/api/tables/{tid}/seats/2/bot", json={"bot": None}, headers=auth).status_code
        == 200
    )
    assert open_list(client)[tid]["free"] == [1, 2]
    # Closed (finished without a result): out of the list, and no seat to claim.
    assert client.post(f"/api/tables/{tid}/close", headers=auth).status_code == 200
    assert tid not in open_list(client)
    closed = claim(client, tid, 1)
    assert closed.status_code == 409 and closed.json()["code"] == "table/over"


def test_bad_claims_are_refused_and_change_nothing(client: TestClient) -> None:
    listed = make(client, ["human", "human", "bot:random"])
    private = make(client, ["human", "human", "bot:random"], listed=False)
    tid, pid = listed["table"]["id"], private["table"]["id"]
    cases = [
        (pid, 1, 403, "lobby/unlisted"),
        (tid, 0, 409, "seat/taken"),  # the creator's seat
        (tid, 2, 409, "seat/taken"),  # a bot's seat
        (tid, 3, 404, "seat/unknown"),
        (tid, -1, 404, "seat/unknown"),
        (tid, "one", 422, "request/invalid"),
        ("nosuchtable", 1, 404, "table/unknown"),
    ]
    for table_id, seat, status, code in cases:
        got = claim(client, table_id, seat)
        assert (got.status_code, got.json()["code"]) == (status, code), (table_id, seat)
    # Nothing changed: every invite still works (it is exchanged for its seat's key) and
    # seat 1 is still free.
    assert open_list(client)[tid]["free"] == [1]
    for made in (listed, private):
        for seat in made["seats"]:
            key = exchange(client, made["table"]["id"], seat["token"])
            headers = {"Authorization": f"Bearer {key}"}
            url = f"/api/tables/{made['table']['id']}/state"
            assert client.get(url, headers=headers).json()["seat"] == seat["seat"]
    # (the exchange took seat 1 of the listed table; the private one was never listed)
    assert tid not in open_list(client)
    assert client.get("/api/tables/open?limit=0").status_code == 422


def test_a_claim_with_the_clients_own_key_may_be_asked_again(client: TestClient) -> None:
    """The key a client made is the seat's token; asked again with it (an answer lost on
    the way) the claim is answered as made; another key finds the seat taken; a key that
    is not one is refused and changes nothing."""
    made = make(client, ["human", "human", "human"])
    tid = made["table"]["id"]
    url = f"/api/tables/{tid}/seats/1/claim"
    for bad in ("short", "x" * 65, "a b" * 16, "é" * 32, 123):
        got = client.post(url, json={"key": bad})
        assert (got.status_code, got.json()["code"]) == (422, "request/invalid"), bad
    assert open_list(client)[tid]["free"] == [1, 2]
    key = "k" * 10 + "-_" + "Q9" * 10
    first = client.post(url, json={"key": key, "name": "Zed"})
    assert first.status_code == 200, first.text
    assert first.json()["token"] == key and first.json()["name"] == "Zed"
    again = client.post(url, json={"key": key, "name": "Zed"})
    assert again.status_code == 200 and again.json() == first.json()
    other = client.post(url, json={"key": "z" * 32})
    assert (other.status_code, other.json()["code"]) == (409, "seat/taken")
    state = client.get(f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {key}"})
    assert state.json()["seat"] == 1
    assert open_list(client)[tid]["free"] == [2]


def test_many_claims_at_once_only_one_wins(db_url: str) -> None:
    app = create_app(db_url, bot_delay=0, limits=FAST, caps=LIFTED)
    with serving(app) as port:
        base = f"http://127.0.0.1:{port}"
        made = httpx2.post(f"{base}/api/tables", json=LISTED_THREE).json()
        tid = made["table"]["id"]
        answers: list[httpx2.Response] = []
        start = threading.Barrier(16)

        def grab(seat: int) -> None:
            with httpx2.Client(base_url=base) as http:
                start.wait()
                answers.append(http.post(f"/api/tables/{tid}/seats/{seat}/claim"))

        threads = [threading.Thread(target=grab, args=(1 + n % 2,)) for n in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        won = [a.json() for a in answers if a.status_code == 200]
        lost = [a.json()["code"] for a in answers if a.status_code != 200]
        assert len(answers) == 16
        assert sorted(w["seat"] for w in won) == [1, 2]
        assert lost == ["seat/taken"] * 14
        # Each winner's token is the seat's now.
        for w in won:
            headers = {"Authorization": f"Bearer {w['token']}"}
            state = httpx2.get(f"{base}/api/tables/{tid}/state", headers=headers).json()
            assert state["seat"] == w["seat"]
        assert httpx2.get(f"{base}/api/tables/open").json() == []


def test_the_list_and_claims_survive_a_restart(db_url: str) -> None:
    url = db_url
    with TestClient(create_app(url, bot_delay=0, limits=FAST, caps=LIFTED)) as client:
        made = make(client, ["human", "human", "human", "human"])
        tid = made["table"]["id"]
        taken = claim(client, tid, 1).json()
        with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            Player(ws, made["seats"][2]["token"])
        finished = make(client, ["human", "human", "bot:random"])
        auth = {"Authorization": f"Bearer {finished['host_token']}"}
        client.post(f"/api/tables/{finished['table']['id']}/close", headers=auth)
    with TestClient(create_app(url, bot_delay=0, limits=FAST, caps=LIFTED)) as client:
        found = open_list(client)
        assert set(found) == {tid} and found[tid]["free"] == [3]
        headers = {"Authorization": f"Bearer {taken['token']}"}
        assert client.get(f"/api/tables/{tid}/state", headers=headers).json()["seat"] == 1
        assert claim(client, tid, 1).json()["code"] == "seat/taken"
        assert claim(client, tid, 3).status_code == 200


@pytest.mark.parametrize("when", ["before the check", "between the check and the write"])
def test_a_seat_taken_in_storage_meanwhile_is_not_given_twice(
    db_url: str, when: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another server process took the seat (storage says so, this process's memory does
    not): the claim is refused, by its check of storage or, if the seat went between the
    check and the write, by the write's condition; the seat keeps its token."""
    with TestClient(create_app(db_url, bot_delay=0, limits=FAST, caps=LIFTED)) as client:
        made = make(client, ["human", "human", "human"])
        tid, invite = made["table"]["id"], made["seats"][1]["token"]
        if when != "before the check":  # the check reads storage as it was
            monkeypatch.setattr(Lobby, "_stored_free", lambda self, table_id: {1, 2})
        engine = client.app.state.hub.storage.engine  # type: ignore[attr-defined]
        with engine.begin() as conn:
            conn.execute(
                update(lobby_seats_t)
                .where(lobby_seats_t.c.table_id == tid, lobby_seats_t.c.seat == 1)
                .values(taken_at=1.0)
            )
        refused = claim(client, tid, 1)
        assert refused.status_code == 409 and refused.json()["code"] == "seat/taken"
        headers = {"Authorization": f"Bearer {exchange(client, tid, invite)}"}
        assert client.get(f"/api/tables/{tid}/state", headers=headers).json()["seat"] == 1
        seats = client.get(f"/api/tables/{tid}").json()["seats"]
        assert [s["name"] for s in seats] == ["Seat 0", "Seat 1", "Seat 2"]
        assert claim(client, tid, 2).status_code == 200  # the other seat is still free


def test_claims_count_against_the_rate_of_new_tables(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST)) as client:
        made = make(client, ["human", "human", "bot:random"])
        tid = made["table"]["id"]
        answers = [claim(client, tid, 0).json() for _ in range(12)]
        codes = [answer["code"] for answer in answers]
        assert codes[:9] == ["seat/taken"] * 9  # the burst of 10, one spent on the table
        assert codes[-1] == "rate/limited"
        # (it says what was counted: a claim is not a new table)
        assert answers[-1]["message"].startswith("too many new tables and seat claims; ")


@pytest.mark.parametrize("listed", ["yes", 3, None])
def test_listed_must_be_a_boolean(client: TestClient, listed: Any) -> None:
    body = {"game": "schattendieb", "seats": [{"kind": "human"}] * 3, "listed": listed}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 422 and response.json()["code"] == "request/invalid"


def test_the_list_is_read_from_storage(sqlite_url: str) -> None:
    """A second server on the same database (started before the table was listed) lists
    it too, and sees a seat taken at the first as taken."""
    first = TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST, caps=LIFTED))
    second = TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST, caps=LIFTED))
    with first, second:
        made = make(first, ["human", "human", "human"])
        tid = made["table"]["id"]
        assert open_list(second)[tid]["free"] == [1, 2]
        assert claim(first, tid, 2).status_code == 200
        assert open_list(second)[tid]["free"] == [1]
        refused = claim(second, tid, 2)
        assert refused.status_code == 409 and refused.json()["code"] == "seat/taken"


def test_a_seat_used_at_a_server_started_before_the_listing_is_taken(sqlite_url: str) -> None:
    """A second server on the same database, started before the first listed the table:
    a seat's invite link used there (HTTP, then a websocket join) takes the seat in
    storage, so the first server's list no longer offers it."""
    first = TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST, caps=LIFTED))
    second = TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST, caps=LIFTED))
    with first, second:
        made = make(first, ["human", "human", "human", "human"])
        tid = made["table"]["id"]
        headers = {"Authorization": f"Bearer {exchange(second, tid, made['seats'][1]['token'])}"}
        assert second.get(f"/api/tables/{tid}/state", headers=headers).status_code == 200
        wait_for_free(first, tid, [2, 3])
        with second.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            Player(ws, made["seats"][3]["token"])
            wait_for_free(first, tid, [2])
        assert claim(first, tid, 3).json()["code"] == "seat/taken"
        assert claim(first, tid, 2).status_code == 200


def wait_for_free(client: TestClient, table_id: str, free: list[int]) -> None:
    """Wait until the list offers just these seats of a table (taking one is stored
    soon after it is used)."""
    deadline = time.monotonic() + 10
    while open_list(client)[table_id]["free"] != free:
        assert time.monotonic() < deadline, open_list(client)[table_id]["free"]
        time.sleep(0.05)


def test_a_stranger_may_bring_a_name(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human"}, {"kind": "human"}]
    body = {"game": "schattendieb", "seats": seats, "options": {"games": 1}, "listed": True}
    made = client.post("/api/tables", json=body).json()
    tid, invite = made["table"]["id"], made["seats"][1]["token"]
    url = f"/api/tables/{tid}/seats/1/claim"
    for name, status, code in [
        ("ada", 400, "seat/name"),  # another seat's name
        ("You", 400, "seat/name"),  # the log's word for the reader
        ("x" * 41, 422, "request/invalid"),
        (7, 422, "request/invalid"),
    ]:
        refused = client.post(url, json={"name": name})
        assert (refused.status_code, refused.json()["code"]) == (status, code), name
    # Nothing changed: the seat is free, its invite still works, its name is its own.
    assert open_list(client)[tid]["free"] == [1, 2]
    headers = {"Authorization": f"Bearer {exchange(client, tid, invite)}"}
    state = client.get(f"/api/tables/{tid}/state", headers=headers).json()
    assert state["seat"] == 1 and state["summary"]["seats"][1]["name"] == "Seat 1"
    # (the exchange took seat 1) Seat 2 with a name, cleaned like any seat's name.
    got = client.post(f"/api/tables/{tid}/seats/2/claim", json={"name": "  Bo\u200b "})
    assert got.status_code == 200 and got.json()["name"] == "Bo"
    seat_names = [s["name"] for s in client.get(f"/api/tables/{tid}").json()["seats"]]
    assert seat_names == ["Ada", "Seat 1", "Bo"]


def test_claims_with_two_server_processes() -> None:
    """Two `thievery serve` processes on one PostgreSQL database: a seat claimed at the
    process that owns the table works at the other too (its follower copy takes the new
    seats), and a claim reaching the other process is refused, never written unfenced."""
    url = fresh_postgres()
    with ExitStack() as stack:
        (_, a), (_, b) = [stack.enter_context(server_process(url)) for _ in range(2)]
        made = httpx2.post(f"http://127.0.0.1:{a}/api/tables", json=LISTED_THREE).json()
        tid = made["table"]["id"]
        at_b = f"http://127.0.0.1:{b}/api/tables"
        assert [t["free"] for t in httpx2.get(f"{at_b}/open").json()] == [[1, 2]]
        old = {"Authorization": f"Bearer {made['seats'][1]['token']}"}
        with connect(f"ws://127.0.0.1:{b}/api/tables/{tid}/ws") as ws:  # B follows it
            ws.send(json.dumps({"type": "join"}))
            got = httpx2.post(f"http://127.0.0.1:{a}/api/tables/{tid}/seats/1/claim")
            assert got.status_code == 200, got.text
            new = {"Authorization": f"Bearer {got.json()['token']}"}
            deadline = time.monotonic() + 10
            while httpx2.get(f"{at_b}/{tid}/state", headers=new).status_code != 200:
                assert time.monotonic() < deadline, "B never took the new seats"
                time.sleep(0.05)
            assert httpx2.get(f"{at_b}/{tid}/state", headers=new).json()["seat"] == 1
            assert httpx2.get(f"{at_b}/{tid}/state", headers=old).status_code == 403
            # A claim at B (a follower) is done by A, the owner, and B takes the seats.
            named = httpx2.post(f"{at_b}/{tid}/seats/2/claim", json={"name": "Cy"})
            assert named.status_code == 200, named.text
            assert named.json()["name"] == "Cy"
            mine = {"Authorization": f"Bearer {named.json()['token']}"}
            assert httpx2.get(f"{at_b}/{tid}/state", headers=mine).json()["seat"] == 2
            at_a = f"http://127.0.0.1:{a}/api/tables/{tid}/state"
            assert httpx2.get(at_a, headers=mine).json()["seat"] == 2
            again = httpx2.post(f"{at_b}/{tid}/seats/2/claim")
            assert again.status_code == 409 and again.json()["code"] == "seat/taken"
        assert httpx2.get(f"{at_b}/open").json() == []
        seats = httpx2.get(f"http://127.0.0.1:{a}/api/tables/{tid}").json()["seats"]
        assert seats[2]["name"] == "Cy"
