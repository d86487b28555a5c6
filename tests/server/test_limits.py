"""Issue 17, caps and rate limits: what one client may make and use, closing a table,
lazy restore and the expiry of abandoned tables. Each refusal is a JSON error (429 with
Retry-After for rates, 413 for sizes)."""

from __future__ import annotations

import asyncio
import hashlib
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import (
    FAST,
    Player,
    create_table,
    exchange,
    fresh_postgres,
    listing,
    stored_running,
)
from thievery.server import Caps, create_app
from thievery.server.storage import Storage

HUMANS = {"game": "schattendieb", "seats": [{"kind": "human"}] * 3}


def app_client(url: str, **caps: Any) -> TestClient:
    return TestClient(create_app(url, bot_delay=0, limits=FAST, caps=Caps(**caps)))


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["type"] == "error" and body["code"] == code and body["message"]
    if status == 429:  # every 429 says when to try again (a cap's too, not only a rate's)
        assert int(response.headers["retry-after"]) >= 1, response.headers
    return body


def test_handing_a_seat_to_a_bot_and_closing_are_rate_limited_as_actions(
    sqlite_url: str,
) -> None:
    """A seat's key handed its seat to a bot and back 300 times in 0.6 s, each stored and
    told to the whole table: it is an action, and limited as one."""
    with app_client(sqlite_url, actions_per_second=0.01, actions_burst=5) as client:
        made = client.post("/api/tables", json=HUMANS).json()
        tid = made["table"]["id"]
        own = {"Authorization": f"Bearer {exchange(client, tid, made['seats'][0]['token'])}"}
        url = f"/api/tables/{tid}/seats/0/bot"
        answers = []
        for n in range(20):  # a bot and back, over and over, till refused
            r = client.post(url, json={"bot": "random" if n % 2 == 0 else None}, headers=own)
            answers.append(r.status_code)
            if r.status_code != 200:
                break
        assert 1 <= answers.count(200) <= 5 and answers[-1] == 429, answers
        refused(r, 429, "rate/limited")
        host = {"Authorization": f"Bearer {made['host_token']}"}
        r = client.post(f"/api/tables/{tid}/close", headers=host)
        refused(r, 429, "rate/limited")
        assert not client.get(f"/api/tables/{tid}").json()["closed"]


def test_table_creation_is_rate_limited_per_client(sqlite_url: str) -> None:
    """10,000 tables in 51 s were all accepted."""
    with app_client(sqlite_url, tables_burst=3, tables_per_minute=0.01) as client:
        for _ in range(3):
            assert client.post("/api/tables", json=HUMANS).status_code == 201
        r = client.post("/api/tables", json=HUMANS)
        refused(r, 429, "rate/limited")
        assert int(r.headers["retry-after"]) >= 1
        assert len(stored_running(client)) == 3


def test_caps_on_tables_per_client_live_tables_bots_and_option_size(sqlite_url: str) -> None:
    with app_client(sqlite_url, tables_per_client=2) as client:
        made = [client.post("/api/tables", json=HUMANS).json() for _ in range(2)]
        refused(client.post("/api/tables", json=HUMANS), 429, "limit/unfinished_tables_per_client")
        # Closing one makes room again.
        host = {"Authorization": f"Bearer {made[0]['host_token']}"}
        assert client.post(f"/api/tables/{made[0]['table']['id']}/close", headers=host).json()[
            "closed"
        ]
        assert client.post("/api/tables", json=HUMANS).status_code == 201
    with app_client(sqlite_url, live_tables=1) as client:
        assert client.post("/api/tables", json=HUMANS).status_code == 201
        refused(client.post("/api/tables", json=HUMANS), 429, "limit/live_tables_on_this_server")
    with app_client(sqlite_url, live_tables=2) as client:
        # A finished table still in memory (its end screen) is not a live one.
        first = client.post("/api/tables", json=HUMANS).json()
        host = {"Authorization": f"Bearer {first['host_token']}"}
        assert client.post(f"/api/tables/{first['table']['id']}/close", headers=host).json()[
            "closed"
        ]
        assert client.post("/api/tables", json=HUMANS).status_code == 201
        assert client.post("/api/tables", json=HUMANS).status_code == 201
        refused(client.post("/api/tables", json=HUMANS), 429, "limit/live_tables_on_this_server")
    with app_client(sqlite_url, bots_per_table=1) as client:
        bots = {"game": "schattendieb", "seats": [{"kind": "bot"}] * 2 + [{"kind": "human"}]}
        refused(client.post("/api/tables", json=bots), 400, "limit/bots")
        # Human seats that a bot plays from the start count too (they were not counted).
        stand_ins = [{"kind": "human", "bot": "random"}] * 2 + [{"kind": "human"}]
        refused(client.post("/api/tables", json={**bots, "seats": stand_ins}), 400, "limit/bots")
        one = [{"kind": "human", "bot": "random"}] + [{"kind": "human"}] * 2
        assert client.post("/api/tables", json={**bots, "seats": one}).status_code == 201
    with app_client(sqlite_url, inline_option_bytes=1000) as client:
        big = {**HUMANS, "game": "thieves-den", "options": {"cards": {"pad": "x" * 2000}}}
        refused(client.post("/api/tables", json=big), 413, "options/too_large")


def test_closing_and_playing_again_counts_against_the_caps(sqlite_url: str) -> None:
    """A host looping close -> play again made 535 tables in 3 s past a 12-a-minute cap."""
    with app_client(sqlite_url, tables_burst=3, tables_per_minute=0.01) as client:
        made = client.post("/api/tables", json=HUMANS).json()
        host = {"Authorization": f"Bearer {made['host_token']}"}
        tid = made["table"]["id"]
        answers = []
        for _ in range(6):
            assert client.post(f"/api/tables/{tid}/close", headers=host).status_code == 200
            r = client.post(f"/api/tables/{tid}/again", headers=host)
            answers.append(r.status_code)
            if r.status_code != 200:
                break
            tid = r.json()["id"]
        assert answers == [200, 200, 429], answers  # the burst of 3, the first table included
        refused(r, 429, "rate/limited")


def test_http_actions_are_rate_limited_per_client(sqlite_url: str) -> None:
    with app_client(sqlite_url, actions_burst=3, actions_per_second=0.01) as client:
        made = create_table(client, ["human", "human", "human"])
        tid = made["table"]["id"]
        url = f"/api/tables/{tid}/actions"
        # (the invite's exchange stores a key: it is one of the three)
        auth = {"Authorization": f"Bearer {exchange(client, tid, made['seats'][0]['token'])}"}
        for _ in range(2):
            assert client.post(url, json={"action": {"type": "x"}}, headers=auth).status_code == 400
        refused(client.post(url, json={"action": {"type": "x"}}, headers=auth), 429, "rate/limited")


def test_the_host_closes_a_table(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        made = create_table(client, ["human", "human", "bot:random"])
        tid, token = made["table"]["id"], made["seats"][0]["token"]
        close = f"/api/tables/{tid}/close"
        # (a seat's token: only the host may, as for a new invite)
        refused(client.post(close, headers={"Authorization": f"Bearer {token}"}), 403, "auth/host")
        with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            player = Player(ws, token)
            token = player.token  # (the seat's key: its invite is used)
            host = {"Authorization": f"Bearer {made['host_token']}"}
            summary = client.post(close, headers=host).json()
            assert summary["over"] and summary["closed"] and summary["result"] is None
            player.read_until(lambda f: f["type"] == "closed")
        refused(client.post(close, headers=host), 409, "table/over")
        act = client.post(
            f"/api/tables/{tid}/actions",
            json={"action": player.latest["legal"][0]},
            headers={"Authorization": f"Bearer {token}"},
        )
        refused(act, 409, "table/over")
    with app_client(sqlite_url) as client:  # closed for good
        summary = client.get(f"/api/tables/{tid}").json()
        assert summary["over"] and summary["closed"]
        assert tid not in [t["id"] for t in listing(client, tid)["live"]]


def test_stored_tables_are_loaded_when_first_used(sqlite_url: str) -> None:
    """12,000 stored tables took 37 s and 1 GB to start: now nothing is loaded at start."""
    with app_client(sqlite_url) as client:
        ids = [create_table(client, ["human", "human", "human"])["table"]["id"] for _ in range(3)]
    app = create_app(sqlite_url, bot_delay=0, limits=FAST)
    with TestClient(app) as client:
        hub = app.state.hub
        assert hub.tables == {}
        listed = [t["id"] for t in listing(client, *ids)["live"]]
        assert sorted(listed) == sorted(ids)
        assert hub.tables == {}  # listing loads nothing
        assert client.get(f"/api/tables/{ids[0]}").json()["over"] is False
        assert list(hub.tables) == [ids[0]]


def test_idle_tables_are_unloaded_and_abandoned_ones_closed(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps(idle_unload_seconds=0))
    with TestClient(app) as client:
        hub = app.state.hub
        made = create_table(client, ["human", "human", "human"])
        tid = made["table"]["id"]
        token = exchange(client, tid, made["seats"][0]["token"])
        auth = {"Authorization": f"Bearer {token}"}
        before = client.get(f"/api/tables/{tid}/state", headers=auth).json()
        assert (
            client.post(
                f"/api/tables/{tid}/actions", json={"action": before["legal"][0]}, headers=auth
            ).status_code
            == 200
        )
        assert client.portal is not None
        client.portal.call(hub.sweep)
        assert tid not in hub.tables  # unloaded, not lost
        after = client.get(f"/api/tables/{tid}/state", headers=auth).json()
        assert after["version"] == before["version"] + 1 and not after["summary"]["over"]
        # A table whose turn timer runs stays: the timer moves it on.
        timed = create_table(client, ["human", "human", "human"], turn_seconds=3600)
        client.portal.call(hub.sweep)
        assert timed["table"]["id"] in hub.tables
    # --expire-days 0: tables never expire (it closed every table within a minute)
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps(expire_seconds=0))
    with TestClient(app) as client:
        assert client.portal is not None
        client.portal.call(app.state.hub.sweep)
        summary = client.get(f"/api/tables/{tid}").json()
        assert not summary["over"] and not summary["closed"]
    time.sleep(0.01)
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps(expire_seconds=0.005))
    with TestClient(app) as client:
        assert client.portal is not None
        client.portal.call(app.state.hub.sweep)
        summary = client.get(f"/api/tables/{tid}").json()
        assert summary["over"] and summary["closed"]


def test_caps_on_connections_and_spectators(sqlite_url: str) -> None:
    with app_client(sqlite_url, connections_per_client=2, spectators_per_table=1) as client:
        tid = create_table(client, ["human", "human", "human"])["table"]["id"]
        url = f"/api/tables/{tid}/ws"
        with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
            Player(a, None)
            second = b
            second.send_json({"type": "join", "id": "j"})
            frame = second.receive_json()
            assert frame["type"] == "error" and frame["code"] == "limit/spectators_per_table"
            assert frame["id"] == "j"
            with client.websocket_connect(url) as c:
                frame = c.receive_json()
                assert frame["code"] == "limit/connections_per_client"
                try:
                    c.receive_json()
                    raise AssertionError("the third connection stayed open")
                except WebSocketDisconnect as closed:
                    assert closed.code == 4429
    with app_client(sqlite_url, connections_per_table=1) as client:
        tid = create_table(client, ["human", "human", "human"])["table"]["id"]
        url = f"/api/tables/{tid}/ws"
        with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
            Player(a, None)
            assert b.receive_json()["code"] == "limit/connections_per_table"


def test_reads_are_rate_limited_per_client(sqlite_url: str) -> None:
    """Listings, a table, its state and record cost work (a stored table is replayed to
    answer): a client gets a burst of them, then 429."""
    with app_client(sqlite_url, reads_per_second=0.01, reads_burst=4) as client:
        tid = client.post("/api/tables", json=HUMANS).json()["table"]["id"]
        for path in ("/api/tables", f"/api/tables/{tid}", f"/api/tables/{tid}/state"):
            assert client.get(path).status_code == 200
        assert client.get(f"/api/tables/{tid}/record").status_code == 409  # not over yet
        for path in ("/api/tables", f"/api/tables/{tid}/state", f"/api/tables/{tid}/record"):
            refused(client.get(path), 429, "rate/limited")


def test_an_ipv6_client_counts_by_its_64_block() -> None:
    from starlette.requests import Request

    from thievery.server.api import client_of

    def ask(host: str) -> str:
        return client_of(Request({"type": "http", "client": (host, 1234), "headers": []}))

    assert ask("2001:db8:1:2:aaaa::1") == ask("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert ask("2001:db8:1:3::1") != ask("2001:db8:1:2::1")
    assert ask("192.0.2.7") == "192.0.2.7"
    assert ask("::ffff:192.0.2.7") == "::ffff:192.0.2.7"
    assert ask("testclient") == "testclient"


def test_thievery_serve_sets_each_websockets_frame_rate(sqlite_url: str) -> None:
    """``--frames-per-second`` is each connection's frame rate (burst twice that): a host
    raises it for scripted clients, or lowers it; 0 or less is refused at start."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    import httpx2
    import websockets.sync.client as ws_client

    from tests.server.serving import serve_process

    cli = Path(sys.executable).with_name("thievery")
    for flag, value in (("--frames-per-second", "0"), ("--chat-per-minute", "nan")):
        bad = subprocess.run(
            [str(cli), "serve", "--db", sqlite_url, "--port", "0", flag, value],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert bad.returncode == 2 and f"{flag} is a number above 0" in bad.stderr

    def refusals(rate: str) -> int:
        proc, port = serve_process(sqlite_url, "--frames-per-second", rate)
        try:
            made = httpx2.post(f"http://127.0.0.1:{port}/api/tables", json=HUMANS).json()
            url = f"ws://127.0.0.1:{port}/api/tables/{made['table']['id']}/ws"
            with ws_client.connect(url) as ws:
                for ref in range(12):  # at once: past a burst of 2 x 2, within 2 x 20
                    ws.send(json.dumps({"type": "ping", "id": ref}))
                answers = [json.loads(ws.recv(timeout=10)) for _ in range(12)]
        finally:
            proc.terminate()
            proc.wait(15)
        assert all(a["type"] in ("pong", "error") for a in answers)
        return sum(1 for a in answers if a.get("code") == "rate/limited")

    assert refusals("2") >= 6
    assert refusals("20") == 0


def test_a_game_in_progress_is_loaded_again_though_new_tables_fill_the_cap(
    sqlite_url: str,
) -> None:
    """After a restart, strangers' new tables filled --live-tables and the games already
    begun could not be opened again (429 for their players). Now the cap turns away new
    tables only: a game in progress is loaded in place of a table nobody is at, or, if
    every one is in use, up to a tenth more than the cap (at least one) are let in."""
    with app_client(sqlite_url, live_tables=3) as client:
        old = [client.post("/api/tables", json=HUMANS).json()["table"]["id"] for _ in range(3)]
    with app_client(sqlite_url, live_tables=2) as client:  # (a restart)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        new = [client.post("/api/tables", json=HUMANS).json()["table"]["id"] for _ in range(2)]
        refused(client.post("/api/tables", json=HUMANS), 429, "limit/live_tables_on_this_server")
        assert client.get(f"/api/tables/{old[0]}").status_code == 200
        assert old[0] in hub.tables and new[0] not in hub.tables  # (used longest ago)
        assert len(hub.live()) == 2
        # Everyone at both live tables: one more game in progress is let in, not two.
        url = "/api/tables/{}/ws"
        with client.websocket_connect(url.format(old[0])) as a:
            Player(a, None)
            with client.websocket_connect(url.format(new[1])) as b:
                Player(b, None)
                assert client.get(f"/api/tables/{old[1]}").status_code == 200
                assert len(hub.live()) == 3
                with client.websocket_connect(url.format(old[1])) as c:
                    Player(c, None)
                    r = client.get(f"/api/tables/{old[2]}")
                    refused(r, 429, "limit/live_tables_on_this_server")
        assert client.get(f"/api/tables/{new[0]}").status_code == 200  # (nobody at one now)


def test_a_clients_unfinished_tables_still_count_after_a_restart(sqlite_url: str) -> None:
    """The cap on a client's unfinished tables is kept in storage: a restart does not
    give the client a fresh one, and a table finished after it frees a place. What is
    stored is a keyed hash of the address, and only while the table is unfinished."""
    with app_client(sqlite_url, tables_per_client=2) as client:
        made = [client.post("/api/tables", json=HUMANS).json() for _ in range(2)]
    with app_client(sqlite_url, tables_per_client=2) as client:
        refused(client.post("/api/tables", json=HUMANS), 429, "limit/unfinished_tables_per_client")
        other = TestClient(client.app, client=("203.0.113.9", 4000))  # another address
        assert other.post("/api/tables", json=HUMANS).status_code == 201
        with create_engine(sqlite_url).connect() as conn:
            makers = [m for (m,) in conn.execute(text("SELECT maker FROM thievery_tables"))]
        assert len(makers) == 3 and len(set(makers)) == 2
        plain = {hashlib.sha256(a.encode()).hexdigest()[:32] for a in ("testclient", "203.0.113.9")}
        assert not set(makers) & plain  # (keyed: not the address's plain hash)
        host = {"Authorization": f"Bearer {made[0]['host_token']}"}
        closed = client.post(f"/api/tables/{made[0]['table']['id']}/close", headers=host)
        assert closed.json()["closed"]
        assert client.post("/api/tables", json=HUMANS).status_code == 201  # (a place freed)
    with create_engine(sqlite_url).connect() as conn:
        kept = conn.execute(
            text("SELECT maker FROM thievery_tables WHERE id = :id"), {"id": made[0]["table"]["id"]}
        ).scalar()
    assert kept is None  # (finished: no longer counted, its maker not kept)


def test_a_clients_tables_made_at_once_count_against_each_other(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six requests at once, their inserts slow: the cap of two holds (a table counts
    from its request on, not from its commit)."""
    with app_client(sqlite_url, tables_per_client=2, tables_burst=10) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        submit = hub.writer.submit

        async def slow(op: Any) -> Any:
            await asyncio.sleep(0.2)
            return await submit(op)

        monkeypatch.setattr(hub.writer, "submit", slow)
        with ThreadPoolExecutor(6) as pool:
            answers = list(pool.map(lambda _: client.post("/api/tables", json=HUMANS), range(6)))
        assert sorted(a.status_code for a in answers) == [201, 201, 429, 429, 429, 429]


@pytest.fixture
def pg_url() -> str:
    """A fresh PostgreSQL database (skipped without one)."""
    return fresh_postgres()


def test_a_clients_unfinished_tables_count_at_every_process(pg_url: str) -> None:
    """Two server processes on one database: the tables a client made at one count
    against its cap at the other (else it could make the cap's worth at each)."""
    caps = Caps(tables_per_client=2)
    apps = [create_app(pg_url, bot_delay=0, limits=FAST, caps=caps) for _ in range(2)]
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        for _ in range(2):
            assert a.post("/api/tables", json=HUMANS).status_code == 201
        refused(b.post("/api/tables", json=HUMANS), 429, "limit/unfinished_tables_per_client")
        other = TestClient(apps[1], client=("203.0.113.9", 4000))
        assert other.post("/api/tables", json=HUMANS).status_code == 201


def test_a_clients_tables_made_at_once_at_two_processes_count_against_each_other(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six requests at once at each of two processes, their inserts slow: the cap of two
    holds across both (the count and the insert are one transaction, one maker's at a
    time: counted first and inserted after, each process would pass what it counted)."""
    caps = Caps(tables_per_client=2, tables_burst=10)
    apps = [create_app(pg_url, bot_delay=0, limits=FAST, caps=caps) for _ in range(2)]
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        insert = Storage.insert_table

        def slow(conn: Any, record: Any) -> None:  # (counted, then inserted a while later)
            time.sleep(0.2)
            insert(conn, record)

        monkeypatch.setattr(Storage, "insert_table", staticmethod(slow))
        with ThreadPoolExecutor(12) as pool:
            answers = list(
                pool.map(lambda i: (a, b)[i % 2].post("/api/tables", json=HUMANS), range(12))
            )
        assert sorted(r.status_code for r in answers) == [201] * 2 + [429] * 10
        for r in answers:
            if r.status_code == 429:
                assert r.json()["code"] == "limit/unfinished_tables_per_client"
        assert len(a.app.state.hub.storage.unfinished()) == 2  # type: ignore[attr-defined]
