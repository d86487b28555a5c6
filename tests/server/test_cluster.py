"""Several `thievery serve` processes on one PostgreSQL database: players connected to
different processes play one game; the process that owns the table is killed with SIGKILL
mid-game and another takes over; a deposed owner's writes are fenced.

Needs PostgreSQL (``THIEVERY_TEST_POSTGRES_URL``, set by ``.ci/run``); skipped without it.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx2
import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event as sa_event
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError, OperationalError
from typer.testing import CliRunner
from websockets.sync.client import connect

import thievery
from thievery.cli.app import app as cli
from thievery.core.protocol import CLOCK, JSON
from thievery.core.record import GameRecord
from thievery.server import cluster as cluster_module
from thievery.server import create_app
from thievery.server.cluster import (
    _REGISTER,
    CHANNEL,
    PRESENCE_KEPT,
    RETRY_FIRST,
    Cluster,
    Fenced,
    FencedAppend,
    conninfo,
    process_channel,
)
from thievery.server.limits import Caps
from thievery.server.live import LiveTable
from thievery.server.seats import Seat
from thievery.server.sockets import Limits
from thievery.server.storage import ActionRow, Storage, TableRecord, Writer, _run_all

from .conftest import LIFTED, fresh_postgres
from .serving import listening_sockets, serve_process, server_log, serving

LEASE = "1.5"  # seconds: a killed owner's tables are taken over soon after


@pytest.fixture
def pg_url() -> str:
    """A fresh PostgreSQL database (skipped without one)."""
    return fresh_postgres()


@pytest.fixture
def servers(pg_url: str) -> Iterator[list[tuple[subprocess.Popen[bytes], int]]]:
    """Two `thievery serve` processes on one database."""
    started = [serve_process(pg_url, "--lease-seconds", LEASE) for _ in range(2)]
    yield started
    for proc, _ in started:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc, _ in started:
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


class Client(threading.Thread):
    """A websocket client of one table, in a thread: keeps every frame; a seat plays its
    first legal action whenever it has any (a spectator only watches), and sends it again
    if the server refused it as too fast. ``hold``: it sends no more once that is true."""

    def __init__(
        self,
        port: int,
        table: str,
        token: str | None = None,
        hold: Callable[[Client], bool] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.table, self.token, self.hold = port, table, token, hold
        self.updates: list[dict[str, Any]] = []  # welcome and update frames
        self.acked: list[dict[str, Any]] = []  # actions the server acknowledged
        self.errors: list[dict[str, Any]] = []
        self.latest: dict[str, Any] = {}
        self.over = threading.Event()
        self.stop = threading.Event()
        self.lost = threading.Event()  # the connection went away (its server was killed)
        self._stack = ExitStack()
        url = f"ws://127.0.0.1:{port}/api/tables/{table}/ws"
        self.ws = self._stack.enter_context(connect(url, additional_headers=headers))
        self.ws.send(json.dumps({"type": "join", "token": token}))
        # (id, action, frame) awaiting its ack
        self._asked: tuple[int, dict[str, Any], str] | None = None
        self._n = 0
        self.limited = 0  # frames refused as too fast (sent again)
        self._again_at: float | None = None  # when to send the refused one again

    def run(self) -> None:
        try:
            # Until the end of the game, and the ack of an action sent before it came.
            while not self.stop.is_set() and not (self.over.is_set() and self._asked is None):
                try:
                    frame = json.loads(self.ws.recv(timeout=0.2))
                except TimeoutError:
                    self.act()  # (a refused frame's pause over meanwhile)
                    continue
                self.take(frame)
        except Exception:
            self.lost.set()
        finally:
            self._stack.close()

    def take(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "welcome" and frame.get("key"):
            self.token = frame["key"]  # (its invite exchanged: the seat's key from now on)
        if kind in ("welcome", "update"):
            self.updates.append(frame)
            self.latest = frame
            if frame["result"] is not None:
                self.over.set()
        elif kind == "ack" and self._asked and frame["id"] == self._asked[0]:
            self.acked.append(self._asked[1])
            self._asked = None
        elif kind == "error" and self._asked and frame.get("id") == self._asked[0]:
            self.errors.append(frame)
            self._asked = None
        elif kind == "error" and frame["code"] == "rate/limited" and "id" not in frame:
            # Too fast (more than Limits.rate frames a second): refused unread, so without
            # its id, and nothing done; the action in flight is sent again a little later.
            self.limited += 1
            self._again_at = time.monotonic() + 0.1
        self.act()

    @property
    def sent(self) -> int:
        """How many actions it sent."""
        return self._n

    def act(self) -> None:
        """Send the first legal action, if the seat has one, awaits no ack, and may; or the
        one in flight again, once the pause after its refusal as too fast is over."""
        if self._asked is not None:
            if self._again_at is not None and time.monotonic() >= self._again_at:
                self._again_at = None
                self.ws.send(self._asked[2])
            return
        held = self.hold is not None and self.hold(self)
        if self.token and self.latest.get("legal") and not held:
            self._n += 1
            action = self.latest["legal"][0]
            version = self.latest["version"]
            frame = {"type": "act", "action": action, "version": version, "id": self._n}
            self._asked = (self._n, action, json.dumps(frame))
            self.ws.send(self._asked[2])


def make_table(port: int, games: int = 1) -> tuple[str, list[str]]:
    """A Der Schattendieb table made on the process at ``port``: two people, one bot."""
    body = {
        "game": "schattendieb",
        "options": {"games": games},
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
    }
    response = httpx2.post(f"http://127.0.0.1:{port}/api/tables", json=body)
    assert response.status_code == 201, response.text
    made = response.json()
    return made["table"]["id"], [s["token"] for s in made["seats"]]


def record_of(port: int, table: str) -> GameRecord:
    response = httpx2.get(f"http://127.0.0.1:{port}/api/tables/{table}/record")
    assert response.status_code == 200, response.text
    return GameRecord.from_json(response.json())


def wait_over(clients: list[Client], seconds: float = 30.0) -> None:
    """Wait for every client to see the end of the game (and its last ack), then stop."""
    for client in clients:
        assert client.over.wait(seconds), "the game did not reach its end"
    for client in clients:
        client.join(5)
        client.stop.set()
        client.join(5)


def stuck(clients: list[Client]) -> str:
    """What each client waits for, for a game that did not reach its end."""
    return "\n".join(
        f"seat {c.latest.get('seat')}: version {c.latest.get('version')}, "
        f"legal {bool(c.latest.get('legal'))}, awaiting ack {c._asked}, acked "
        f"{len(c.acked)}, errors {c.errors}, limited {c.limited}, lost {c.lost.is_set()}"
        for c in clients
    )


def play_to_the_end(
    port: int, table: str, tokens: list[str], at: int | None = None
) -> list[Client]:
    """Every seat plays through the process at ``port`` (the second at port ``at``, if
    given) to the end; each seat's stored actions are exactly those it was told were
    accepted. The players."""
    players = [Client(at if at and seat == 1 else port, table, t) for seat, t in enumerate(tokens)]
    for player in players:
        player.start()
    wait_over(players)
    record = record_of(port, table)
    for seat, player in enumerate(players):
        assert player.acked and [x for s, x in record.actions if s == seat] == player.acked
    return players


def test_players_on_two_processes_play_one_game(
    servers: list[tuple[subprocess.Popen[bytes], int]],
) -> None:
    (_, a), (_, b) = servers
    table, (t0, t1) = make_table(a)  # process A owns it; B follows it
    watchers = [Client(a, table), Client(b, table)]
    for watcher in watchers:
        watcher.start()
    players = [Client(a, table, t0), Client(b, table, t1)]
    for player in players:
        player.start()
    wait_over(players + watchers)
    record = record_of(b, table)
    assert record_of(a, table).to_json() == record.to_json()
    assert thievery.replay(record).result() == players[0].latest["result"]
    # Seat 1 played through B, which forwarded every action to A: all of them stored.
    for seat, player in enumerate(players):
        assert player.acked and [a for s, a in record.actions if s == seat] == player.acked
        assert all(e["code"] == "action/stale" for e in player.errors)
    # Every update reached every client, whichever process it was connected to: each
    # spectator saw every version from its welcome to the end, and the two saw the same.
    seen = [
        {f["version"]: (f["type"], f["events"], f["view"]) for f in w.updates} for w in watchers
    ]
    for watcher in watchers:
        versions = [f["version"] for f in watcher.updates]
        assert versions == list(range(versions[0], versions[0] + len(versions)))
    common = seen[0].keys() & seen[1].keys()
    assert len(common) >= 5
    for v in common:  # a welcome frame has no events: the views are the same
        assert seen[0][v][2] == seen[1][v][2]
        assert seen[0][v] == seen[1][v] or "welcome" in (seen[0][v][0], seen[1][v][0])
    assert watchers[1].latest["result"] == players[1].latest["result"] is not None
    # The seats see their own views, not each other's.
    hands = [p.latest["view"] for p in players]
    assert hands[0] != hands[1]


def test_a_real_time_game_over_two_processes(
    servers: list[tuple[subprocess.Popen[bytes], int]],
) -> None:
    """Schatz-Rabatz (the table's clock is the game's) with one seat on each process: the
    clock starts at the owner once the seat at the follower has come and runs there (the
    seats never close: the hourglass ends every round), and both seats' drops (each after
    its hand's 800 ms) are stored and reach both."""
    (_, a), (_, b) = servers
    body = {
        "game": "schatz-rabatz",
        "options": {"short_game": True, "hourglass_seconds": 3},
        "seats": [{"kind": "human"}, {"kind": "human"}],
    }
    made = httpx2.post(f"http://127.0.0.1:{a}/api/tables", json=body).json()
    table, tokens = made["table"]["id"], [s["token"] for s in made["seats"]]
    watcher = Client(b, table)

    def waits(client: Client) -> bool:  # never closes early: the hourglass ends each round
        return [x["type"] for x in client.latest.get("legal", [])] == ["close"]

    players = [Client(a, table, tokens[0], waits), Client(b, table, tokens[1], waits)]
    for client in (watcher, *players):
        client.start()
    try:
        wait_over([*players, watcher], seconds=120)
    except AssertionError:
        raise AssertionError(stuck([*players, watcher])) from None
    record = record_of(b, table)
    assert record_of(a, table).to_json() == record.to_json()
    result = players[0].latest["result"]
    assert thievery.replay(record).result() == result == players[1].latest["result"]
    assert watcher.latest["result"] == result
    assert any(seat == CLOCK for seat, _ in record.actions)  # the owner's clock, stored
    assert not any(x["type"] == "close" for _, x in record.actions)
    for seat, player in enumerate(players):  # seat 1's went through B to A
        mine = [x for s, x in record.actions if s == seat]
        assert player.acked and mine == player.acked
        assert any(x["type"] == "drop" for x in mine)
        # (a drop sent as the hand was not ready yet, or the round ended, is refused)
        assert {e["code"] for e in player.errors} <= {"action/stale", "action/illegal"}
    versions = [f["version"] for f in watcher.updates]
    assert versions == list(range(versions[0], versions[0] + len(versions)))


def seats_frame(
    ws: Any, done: Callable[[list[dict[str, Any]]], bool], seconds: float = 15.0
) -> list[dict[str, Any]]:
    """The seats of the first ``seats`` frame (or welcome's summary) from a websocket
    (websockets' client) that satisfies ``done``, within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no seats frame came that says so"
        frame = json.loads(ws.recv(timeout=left))
        seats = frame["seats"] if frame["type"] == "seats" else None
        if frame["type"] == "welcome":
            seats = frame["summary"]["seats"]
        if seats is not None and done(seats):
            return list(seats)


def test_who_is_connected_is_known_at_every_process(
    pg_url: str, servers: list[tuple[subprocess.Popen[bytes], int]]
) -> None:
    """Separate servers on one database: the table is run by A (its first player is
    there), its second player connects at B. Each process counts the other's connections:
    A's player sees B's as connected and B's sees A's, and the host can neither hand a
    connected player's seat to a bot nor give it a new invite at either process
    (``seat/present``), even at a process that had not loaded the table yet (the owner
    checks too). A note missed while A's listening connection was away (B's player
    left) is put right within a round (B says its connections again; A asks once it
    listens again), before B's count at A would have run out. Once B is killed, A lets
    B's connections go: A's player sees the seat empty, and the host's new invite is
    made at A. (Which of the ways puts a count right first:
    ``test_presence_between_two_processes``.)"""
    (proc_a, a), (proc_b, b) = servers
    body = {"game": "schattendieb", "seats": [{"kind": "human"}] * 2 + [{"kind": "bot"}]}
    made = httpx2.post(f"http://127.0.0.1:{a}/api/tables", json=body).json()
    tid, host = made["table"]["id"], made["host_token"]
    tokens = [s["token"] for s in made["seats"]]
    at_a, at_b = f"http://127.0.0.1:{a}/api/tables/{tid}", f"http://127.0.0.1:{b}/api/tables/{tid}"
    hosting = {"Authorization": f"Bearer {host}"}

    def connected(seats: list[dict[str, Any]]) -> list[int]:
        return [s["connected"] for s in seats]

    def refused_at(at: str, seat: int) -> None:
        for refused in (
            httpx2.post(f"{at}/seats/{seat}/bot", headers=hosting, json={"bot": "random"}),
            httpx2.post(f"{at}/seats/{seat}/invite", headers=hosting),
        ):
            assert refused.status_code == 409, refused.text
            assert refused.json()["code"] == "seat/present"

    def joined(port: int, seat: int) -> Any:
        ws = stack.enter_context(connect(f"ws://127.0.0.1:{port}/api/tables/{tid}/ws"))
        ws.send(json.dumps({"type": "join", "token": tokens[seat]}))
        welcome = json.loads(ws.recv(timeout=15))
        assert welcome["type"] == "welcome" and welcome["seat"] == seat, welcome
        tokens[seat] = welcome.get("key") or tokens[seat]  # (its invite exchanged)
        return ws

    with ExitStack() as stack:
        first = joined(a, 0)
        seats_frame(first, lambda seats: connected(seats)[0] == 1)
        refused_at(at_b, 0)  # (B had no copy of the table: A, which runs it, refuses)
        second = joined(b, 1)
        # Each side hears of the other's player.
        seats_frame(first, lambda seats: connected(seats)[:2] == [1, 1])
        seats_frame(second, lambda seats: connected(seats)[:2] == [1, 1])
        assert connected(httpx2.get(at_a).json()["seats"])[:2] == [1, 1]
        for at in (at_a, at_b):
            for seat in (0, 1):
                refused_at(at, seat)
        assert [s["bot"] for s in httpx2.get(at_a).json()["seats"][:2]] == [None, None]
        assert [s["reinvited"] for s in httpx2.get(at_a).json()["seats"]] == [0, 0, 0]
        # A stops listening for a while; meanwhile B's player leaves, unheard at A.
        with psycopg.connect(conninfo(pg_url), autocommit=True) as conn:
            about = f"% pid {proc_a.pid}"
            row = conn.execute("SELECT id FROM thievery_owners WHERE about LIKE %s", (about,))
            channel = process_channel(row.fetchone()[0])  # type: ignore[index]
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = %s",
                (f'LISTEN "{channel}"',),
            )
            second.close()
        # (before B's count could have run out at A: a round, or A's ask once it listens)
        seats_frame(first, lambda seats: connected(seats)[:2] == [1, 0], seconds=2.2)
        second = joined(b, 1)
        seats_frame(first, lambda seats: connected(seats)[:2] == [1, 1])
        os.kill(proc_b.pid, signal.SIGKILL)
        seats_frame(first, lambda seats: connected(seats)[:2] == [1, 0])
        made_at_a = httpx2.post(f"{at_a}/seats/1/invite", headers=hosting)
        assert made_at_a.status_code == 200, made_at_a.text


def test_a_glance_at_a_table_run_elsewhere_makes_no_copy(
    pg_url: str, servers: list[tuple[subprocess.Popen[bytes], int]]
) -> None:
    """A table's summary asked at a process that does not run it (a page's first
    request, which with ``--workers`` reaches any worker) is read at the process that
    runs it: the same answer, and no follower copy made there, so the owner's actions
    stay unannounced (its lease row counts no follower). An unknown table is still 404."""
    (_, a), (_, b) = servers
    tid, _ = make_table(a)
    here = httpx2.get(f"http://127.0.0.1:{a}/api/tables/{tid}")
    there = httpx2.get(f"http://127.0.0.1:{b}/api/tables/{tid}")
    assert here.status_code == there.status_code == 200, there.text
    assert there.json() == here.json()
    with psycopg.connect(conninfo(pg_url), autocommit=True) as conn:
        row = conn.execute("SELECT followers FROM thievery_leases WHERE table_id = %s", (tid,))
        assert row.fetchone() == (0,)
    unknown = httpx2.get(f"http://127.0.0.1:{b}/api/tables/nosuchtable")
    assert unknown.status_code == 404 and unknown.json()["code"] == "table/unknown"


def test_a_table_moves_to_the_process_its_clients_use(
    servers: list[tuple[subprocess.Popen[bytes], int]], pg_url: str
) -> None:
    (_, a), (proc_b, b) = servers
    table, tokens = make_table(a)  # made on A, which owns it; nobody connects to A
    play_to_the_end(b, table, tokens)
    # A handed the table over when B's first client came: B ran the game itself.
    owner = scalar(
        pg_url,
        "SELECT o.about FROM thievery_leases l JOIN thievery_owners o ON o.id = l.owner "
        f"WHERE l.table_id = '{table}'",
    )
    assert owner.endswith(f" pid {proc_b.pid}")


def test_an_action_refused_as_too_fast_is_sent_again(pg_url: str) -> None:
    # Scripted seats act faster than a person: past their connection's rate (20 frames a
    # second, 40 at once, by default) an action is refused with rate/limited, without its
    # id (the frame was not read) and with nothing done. The clients send it again; else a
    # seat would wait for its ack for ever (the fail-over test stalled so, 1 run in 25).
    # One frame at once and 3 a second: the join takes the one, so a seat that acts at
    # once is refused whatever the machine's speed (at 8 a second and 4 at once, a game
    # slowed by a loaded machine could go through unrefused: 1 run in ~10 under load).
    slow = Limits(rate=3.0, burst=1.0)
    apps = [create_app(pg_url, bot_delay=0, limits=slow, caps=LIFTED) for _ in range(2)]
    with serving(apps[0]) as a, serving(apps[1]) as b:
        table, tokens = make_table(a)
        players = play_to_the_end(a, table, tokens, at=b)  # seat 1 through B, forwarded
    assert sum(p.limited for p in players) > 0
    assert all(e["code"] == "action/stale" for p in players for e in p.errors)


def test_the_owner_killed_mid_game_another_process_plays_on(
    servers: list[tuple[subprocess.Popen[bytes], int]],
) -> None:
    (proc_a, a), (_, b) = servers
    table, (t0, t1) = make_table(a, games=3)
    # Seat 0 stops acting once it sent 4 actions and seat 1 had 3 accepted: the match (3
    # games) cannot end before the kill. Its last action may still be on its way (or
    # stored, unacknowledged) when A is killed, and seat 1 plays on through B meanwhile,
    # an action of its forwarded to A perhaps.
    on_b = Client(b, table, t1)
    on_a = Client(a, table, t0, hold=lambda me: me.sent >= 4 and len(on_b.acked) >= 3)
    on_a.start()
    on_b.start()
    deadline = time.monotonic() + 20
    while on_a.sent < 4 or len(on_b.acked) < 3:
        logs = "\n".join(server_log(p) for p, _ in servers)
        assert time.monotonic() < deadline, f"the game did not get going: {logs}"
        time.sleep(0.01)
    os.kill(proc_a.pid, signal.SIGKILL)  # the owner dies mid-game
    proc_a.wait(10)
    assert on_a.lost.wait(10)
    assert not on_b.over.is_set()
    # Seat 0 comes back through B; B takes the table over once A's lease has run out.
    again = Client(b, table, on_a.token)  # (the key its first join got)
    again.start()
    try:
        wait_over([again, on_b], seconds=60)
    except AssertionError:
        raise AssertionError(f"{stuck([again, on_b])}\n{server_log(servers[1][0])}") from None
    record = record_of(b, table)
    assert thievery.replay(record).result() == on_b.latest["result"]
    # Nothing acknowledged was lost, nothing applied twice: each seat's stored actions are
    # exactly what it was told were accepted (seat 0's last one before the kill may have
    # been stored unacknowledged: its server died before the ack).
    mine0 = [x for s, x in record.actions if s == 0]
    acked0 = on_a.acked + again.acked
    unacked = mine0[len(on_a.acked) : len(mine0) - len(again.acked)]
    assert mine0[: len(on_a.acked)] == on_a.acked
    assert mine0[len(mine0) - len(again.acked) :] == again.acked
    assert len(unacked) <= 1 and len(mine0) >= len(acked0)
    assert [x for s, x in record.actions if s == 1] == on_b.acked


def processes(storage: Storage, table_id: str, count: int) -> list[Cluster]:
    """``count`` registered server processes' cluster parts (without their heartbeats and
    listeners), and a table stored for them."""
    hub = SimpleNamespace(storage=storage, caps=Caps(), tables={})
    made = [Cluster(hub, lease_seconds=5) for _ in range(count)]  # type: ignore[arg-type]
    for c in made:
        c._run(_REGISTER, me=c.id, ttl=c.ttl, about="test")
    record = TableRecord(table_id, "schattendieb", 1, 3, 1, {}, [], "h")
    storage.run(lambda conn: Storage.insert_table(conn, record))
    return made


class _Seated:
    """A connection at a seat, as a table's listeners are (what is pushed is dropped)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def push(self, text: str) -> None:
        pass


def test_presence_between_two_processes(pg_url: str) -> None:
    """Two processes' cluster parts, each with a copy of one table (X runs it, Y follows),
    their presence notes handed to each other: Y's ask on loading is answered by X though
    X has nobody connected; Y's player counts at X; X lets that count go once Y has not
    said it again for 2.5 of Y's own rounds, or at once when Y's heartbeat has run out;
    Y says its connections again every round (none included: it keeps a copy); and an
    ask whose note could not be sent is sent again with the next round."""
    storage = Storage(pg_url)
    spec = thievery.game("schattendieb")
    seats = [{"kind": "human", "name": f"p{i}"} for i in range(3)]
    record = TableRecord("t1", "schattendieb", 1, 3, 1, {}, seats, "h")
    storage.run(lambda conn: Storage.insert_table(conn, record))
    sent: list[tuple[str, dict[str, Any]]] = []
    failing: list[bool] = []
    clusters: list[Cluster] = []
    tables: list[LiveTable] = []
    for i in range(2):
        hub = SimpleNamespace(storage=storage, caps=Caps(), tables={})
        cluster = Cluster(hub, lease_seconds=6)  # type: ignore[arg-type]
        cluster._run(_REGISTER, me=cluster.id, ttl=cluster.ttl, about="test")
        hub.cluster = cluster
        table = LiveTable(hub, record, spec.new(3, 1))  # type: ignore[arg-type]
        table.lease = 1 if i == 0 else None  # X owns it
        hub.tables["t1"] = table
        clusters.append(cluster)
        tables.append(table)
    (x, y), (at_x, at_y) = clusters, tables

    def deliver(me: Cluster, other: Cluster) -> Callable[[str, str], Awaitable[None]]:
        async def notify(channel: str, payload: str) -> None:
            if failing:
                failing.pop()
                raise OSError("the database is away")
            sent.append((me.id, json.loads(payload)))
            other._dispatch(channel, payload)

        return notify

    x._notify = deliver(x, y)  # type: ignore[method-assign]
    y._notify = deliver(y, x)  # type: ignore[method-assign]

    async def settled() -> None:
        for _ in range(10):
            await asyncio.sleep(0)

    async def play() -> None:
        y.announce_presence(at_y, ask=True)  # Y has just loaded its copy
        await settled()
        assert [(who, note["t"], note["ask"]) for who, note in sent] == [
            (y.id, {"t1": [0, 0, 0]}, ["t1"]),
            (x.id, {"t1": [0, 0, 0]}, []),  # answered, though nobody is connected at X
            (y.id, {"t1": [0, 0, 0]}, []),  # (X is new to Y: told once, and that is all)
        ]
        assert set(at_x.peers) == {y.id} and set(at_y.peers) == {x.id}
        at_y.listeners.add(_Seated(1))  # type: ignore[arg-type]
        y.announce_presence(at_y)
        await settled()
        assert [at_x.connected(s) for s in range(3)] == [0, 1, 0]
        heard = at_x.remote[y.id][0]
        period = y.presence_period
        at_x.expire_presence(heard + 2.4 * period, PRESENCE_KEPT)
        assert at_x.connected(1) == 1
        at_x.expire_presence(heard + 2.6 * period, PRESENCE_KEPT)
        assert at_x.connected(1) == 0  # (not said again: let go)
        # Every round, Y says its connections again, and X counts them again.
        del sent[:]
        for _ in range(3):
            y._presence_round([at_y])
        await settled()
        assert [(who, note["t"]) for who, note in sent] == [(y.id, {"t1": [0, 1, 0]})]
        assert at_x.connected(1) == 1
        # Y's heartbeat runs out (killed): X lets its connections go at once.
        gone = text("UPDATE thievery_owners SET expires_at = 0 WHERE id = :me")
        storage.run(lambda c: c.execute(gone, {"me": y.id}))
        await x._forget_gone_processes([at_x])
        assert at_x.connected(1) == 0 and y.id not in at_x.peers
        # An ask that could not be sent goes with the next round.
        at_y.listeners.clear()
        del sent[:]
        failing.append(True)
        y.announce_presence(at_y, ask=True)
        await settled()
        assert sent == []
        for _ in range(3):
            y._presence_round([at_y])
        await settled()
        assert [(who, note["ask"]) for who, note in sent][:1] == [(y.id, ["t1"])]

    asyncio.run(play())


def test_a_follower_count_that_failed_is_made_at_the_next_heartbeat(pg_url: str) -> None:
    """A follower whose count could not be made (a database error that is not worth a
    retry then) would hear nothing of the table: its owner announces only to the counted.
    The heartbeat makes the count again and reads back what was stored meanwhile; a table
    let go from memory meanwhile is not counted."""
    storage = Storage(pg_url)
    x, y = processes(storage, "t1", 2)
    assert asyncio.run(x.acquire("t1")) == 1
    spec = thievery.game("schattendieb")
    seats = [{"kind": "human", "name": f"p{i}"} for i in range(3)]
    record = TableRecord("t1", "schattendieb", 1, 3, 1, {}, seats, "h")  # (as loaded)
    refreshed: list[str] = []
    real_run = y._run

    def failing(statement: Any, **params: Any) -> None:
        raise OperationalError("UPDATE", {}, Exception("the database is away"))

    async def refresh(table: LiveTable) -> None:
        refreshed.append(table.id)

    def followers() -> int:
        rows = storage.run(
            lambda c: c.execute(
                text("SELECT followers FROM thievery_leases WHERE table_id = 't1'")
            ).scalar_one()
        )
        return int(rows)

    y.refresh = refresh  # type: ignore[method-assign]

    async def play() -> None:
        y.hub.cluster = y  # type: ignore[attr-defined]
        table = LiveTable(y.hub, record, spec.new(3, 1))
        y.hub.tables["t1"] = table
        y._run = failing  # type: ignore[method-assign]
        assert await y.follow(["t1"]) is False
        assert followers() == 0 and y._unfollowed == {"t1"}
        y._run = real_run  # type: ignore[method-assign]
        await y.beat()  # (the next heartbeat)
        await asyncio.sleep(0)
        assert followers() == 1 and table.following and refreshed == ["t1"]
        assert y._unfollowed == set()
        # Let go of meanwhile: dropped, not counted.
        y._unfollowed.add("gone")
        await y._follow_again()
        assert y._unfollowed == set() and followers() == 1

    asyncio.run(play())


def test_a_read_whose_answer_is_too_long_is_made_where_it_was_asked(pg_url: str) -> None:
    """The owner's answer to a forwarded read (a table's summary) that would not fit in a
    notification is refused at once (``cluster/too_long``), and the process that asked
    reads the table itself (``None``: it waited its whole call time for an answer that
    never came); an answer that fits comes whole."""
    x, y = processes(Storage(pg_url), "t1", 2)
    sent: list[str] = []
    size = [0]

    def wire(me: Cluster, other: Cluster) -> Callable[[str, str], Awaitable[None]]:
        async def notify(channel: str, payload: str) -> None:
            sent.append(payload)
            other._dispatch(channel, payload)

        return notify

    async def do(message: JSON) -> JSON:
        return {"summary": {"title": "x" * size[0]}}

    async def owner_of(table_id: str) -> tuple[str | None, bool]:
        return x.id, True

    x._notify, y._notify = wire(x, y), wire(y, x)  # type: ignore[method-assign]
    x._do = do  # type: ignore[method-assign]
    y.owner_of = owner_of  # type: ignore[method-assign]

    async def play() -> None:
        size[0] = 100
        read = await y.read_at_owner("t1", "summary")
        assert read is not None and read["summary"] == {"title": "x" * 100}
        size[0] = 9000
        t0 = time.monotonic()
        assert await y.read_at_owner("t1", "summary") is None
        assert time.monotonic() - t0 < 1  # (refused, not waited for)
        assert json.loads(sent[-1].partition(" ")[2])["error"]["code"] == "cluster/too_long"
        assert all(len(p.encode()) < 8000 for p in sent)

    asyncio.run(play())


def owned(storage: Storage, owner: Cluster, first: str, *more: str) -> dict[str, int | None]:
    """Tables ``more`` stored beside ``first`` (stored by :func:`processes`), then each
    leased by ``owner`` in order; their epochs."""
    for t in more:
        record = TableRecord(t, "schattendieb", 1, 3, 1, {}, [], "h")
        storage.run(lambda conn, r=record: Storage.insert_table(conn, r))
    return {t: asyncio.run(owner.acquire(t)) for t in (first, *more)}


def test_a_deposed_owner_cannot_store_an_action(pg_url: str) -> None:
    storage = Storage(pg_url)
    x, y = processes(storage, "t1", 2)

    def append(cluster: Cluster, epoch: int | None, n: int) -> None:
        row = ActionRow(n, 0, {"type": "done"}, 0.0, "human")
        storage.run(lambda conn: cluster.append(conn, "t1", epoch, row, {"k": "a", "n": n}))

    def set_seats(cluster: Cluster, epoch: int | None) -> None:
        def op(conn: Any) -> None:
            cluster.fence(conn, "t1", epoch, {"k": "seats", "seats": []})
            Storage.set_seats(conn, "t1", [{"kind": "human", "name": "late"}])

        storage.run(op)

    async def leases() -> tuple[int | None, int | None, int | None]:
        first = await x.acquire("t1")
        refused = await y.acquire("t1")  # X is alive: the table stays X's
        append(x, first, 0)
        # X stops beating (killed) and its lease runs out: Y takes the table over.
        gone = text("UPDATE thievery_owners SET expires_at = 0 WHERE id = :me")
        storage.run(lambda c: c.execute(gone, {"me": x.id}))
        taken = await y.acquire("t1")
        return first, refused, taken

    first, refused, taken = asyncio.run(leases())
    assert (first, refused, taken) == (1, None, 2)
    with pytest.raises(Fenced):  # X, deposed, cannot store its next action
        append(x, first, 1)
    with pytest.raises(Fenced):  # nor change the seats
        set_seats(x, first)
    assert storage.table("t1").seats == []  # type: ignore[union-attr]
    append(y, taken, 1)
    with pytest.raises(IntegrityError):  # and no action n is stored twice
        append(y, taken, 1)
    assert [r.n for r in storage.actions("t1")] == [0, 1]
    storage.close()


def test_fenced_appends_of_several_tables_go_as_one_statement(pg_url: str) -> None:
    """Actions of several tables queued together are fenced and stored in one statement,
    each announced if its table is followed; when one table's lease is lost, the writer
    commits each on its own: that one is refused (Fenced, nothing stored), the rest land."""
    storage = Storage(pg_url)
    (owner,) = processes(storage, "b0", 1)
    epochs = owned(storage, owner, "b0", "b1", "b2")
    asyncio.run(owner.follow(["b1"]))
    listener = psycopg.connect(conninfo(pg_url), autocommit=True)
    listener.execute(f"LISTEN {CHANNEL}")
    after: list[str] = []

    def fenced(t: str, n: int, epoch: int | None) -> FencedAppend:
        row = ActionRow(n, n % 3, {"type": "done", "n": n}, 0.25, "human")
        return FencedAppend(owner, t, epoch, row, {"k": "a", "n": n}, lambda c: after.append(t))

    statements: list[str] = []
    sa_event.listen(storage.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    batch = [fenced(t, 0, epochs[t]) for t in ("b0", "b1", "b2")]
    assert storage.run(partial(_run_all, ops=batch)) == [None, None, None]
    assert len(statements) == 1 and after == ["b0", "b1", "b2"]
    assert [json.loads(n.payload.split(" ", 1)[1]) for n in listener.notifies(timeout=0.3)] == [
        {"k": "a", "n": 0}
    ]  # only b1 is followed
    stored = storage.actions("b2")
    assert [(r.n, r.seat, r.action, r.at, r.by) for r in stored] == [
        (0, 0, {"type": "done", "n": 0}, 0.25, "human")
    ]

    # b1's lease is lost: a batch with it is refused whole, and through the writer only
    # b1's write is refused.
    gone = text("UPDATE thievery_leases SET epoch = epoch + 1 WHERE table_id = 'b1'")
    storage.run(lambda c: c.execute(gone))
    with pytest.raises(Fenced):
        storage.run(partial(_run_all, ops=[fenced(t, 1, epochs[t]) for t in ("b0", "b1", "b2")]))
    assert [len(storage.actions(t)) for t in ("b0", "b1", "b2")] == [1, 1, 1]

    async def through_writer() -> list[Any]:
        writer = Writer(storage)
        try:
            futures = [writer.submit(fenced(t, 1, epochs[t])) for t in ("b0", "b1", "b2")]
            return await asyncio.gather(*futures, return_exceptions=True)
        finally:
            await writer.aclose()

    outcomes = asyncio.run(through_writer())
    assert outcomes[0] is None and isinstance(outcomes[1], Fenced) and outcomes[2] is None
    assert [len(storage.actions(t)) for t in ("b0", "b1", "b2")] == [2, 1, 2]
    listener.close()
    storage.close()


def test_a_follower_count_rolled_back_for_a_deadlock_is_counted_again(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counting a follower locks lease rows, as a batch of writes does (in another
    order): PostgreSQL may break a deadlock by rolling the count back. It is tried again,
    or the follower would silently hear nothing of the table."""
    storage = Storage(pg_url)
    (owner,) = processes(storage, "f1", 1)
    real = owner._run
    tries: list[str] = []

    class Deadlock(Exception):
        sqlstate = "40P01"

    def run(statement: Any, **params: Any) -> None:
        tries.append("try")
        if len(tries) == 1:
            raise OperationalError("UPDATE …", {}, Deadlock("deadlock detected"))
        real(statement, **params)

    monkeypatch.setattr(owner, "_run", run)
    asyncio.run(owner.acquire("f1"))
    asyncio.run(owner.follow(["f1"]))
    followers = text("SELECT followers FROM thievery_leases WHERE table_id = 'f1'")
    assert tries == ["try", "try"]
    assert storage.run(lambda c: c.execute(followers).scalar()) == 1
    storage.close()


def test_appends_and_follower_counts_lock_lease_rows_in_table_order(pg_url: str) -> None:
    """A batch of fenced appends and a follower count both lock several lease rows: in
    one order (the tables'), so neither can hold a row the other waits for while it waits
    for one the other holds (a deadlock, which PostgreSQL breaks by rolling one back).
    Each is stopped at the middle row (held by another connection) and the rows on either
    side are tried: the one before is locked, the one after not yet, whatever the order
    of the rows on disk (o3 first) and of the batch."""
    storage = Storage(pg_url)
    (owner,) = processes(storage, "o3", 1)
    epochs = owned(storage, owner, "o3", "o1", "o2")
    lock = "SELECT 1 FROM thievery_leases WHERE table_id = %s FOR UPDATE"
    rows = iter(range(10))

    def batch() -> None:
        appends = []
        for t in ("o3", "o1", "o2"):
            row = ActionRow(next(rows), 0, {"type": "done"}, 0.5, "human")
            appends.append(FencedAppend(owner, t, epochs[t], row, {"k": "a"}, lambda c: None))
        storage.run(partial(_run_all, ops=appends))

    def count() -> None:
        asyncio.run(owner.follow(["o3", "o1", "o2"]))

    def stopped_at_o2(run: Callable[[], None]) -> dict[str, bool]:
        """Which rows are locked while ``run`` waits for o2."""
        blocker = psycopg.connect(conninfo(pg_url))
        blocker.execute(lock, ("o2",))
        worker = threading.Thread(target=run)
        worker.start()
        waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        with psycopg.connect(conninfo(pg_url), autocommit=True) as probe:
            deadline = time.monotonic() + 10
            while probe.execute(waiting).fetchone()[0] == 0:  # type: ignore[index]
                assert time.monotonic() < deadline, "the statement never waited for o2"
                time.sleep(0.01)
            locked = {}
            for t in ("o1", "o3"):
                try:
                    probe.execute(lock + " NOWAIT", (t,))
                    locked[t] = False
                except psycopg.errors.LockNotAvailable:
                    locked[t] = True
        blocker.rollback()
        blocker.close()
        worker.join(10)
        assert not worker.is_alive()
        return locked

    assert stopped_at_o2(batch) == {"o1": True, "o3": False}
    assert [len(storage.actions(t)) for t in ("o1", "o2", "o3")] == [1, 1, 1]
    assert stopped_at_o2(count) == {"o1": True, "o3": False}
    followers = text("SELECT table_id, followers FROM thievery_leases ORDER BY table_id")
    assert storage.run(lambda c: c.execute(followers).all()) == [("o1", 1), ("o2", 1), ("o3", 1)]
    storage.close()


def test_a_call_to_a_table_changing_hands_is_made_again_within_milliseconds(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A call that reaches a table while it changes hands (its owner released it; a
    take-over is under way) is refused as not the owner's and made again: soon, then
    less and less often. A flat 0.2 s wait made 1 action in 100 take 200 ms on two
    processes (boardgame.io's workload, p99 217 ms at 5 tables)."""
    storage = Storage(pg_url)
    (me,) = processes(storage, "h1", 1)
    replies = [{"error": {"code": "cluster/not_owner", "message": "", "status": 503}}] * 3
    replies.append({"n": 7})
    pauses: list[float] = []

    async def request(owner: str, message: Any) -> Any:
        return replies.pop(0)

    async def owner_of(table_id: str) -> tuple[str, bool]:
        return "another process", True

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    monkeypatch.setattr(me, "_request", request)
    monkeypatch.setattr(me, "owner_of", owner_of)
    monkeypatch.setattr(cluster_module.asyncio, "sleep", pause)
    table = SimpleNamespace(id="h1", is_owner=False, owner_hint=None)
    reply, _ = asyncio.run(me.at_owner(table, "act", {}))  # type: ignore[arg-type]
    assert reply == {"n": 7}
    assert pauses == [RETRY_FIRST, 2 * RETRY_FIRST, 4 * RETRY_FIRST]
    assert RETRY_FIRST <= 0.01
    storage.close()


def test_a_call_waits_for_a_take_over_under_way_instead_of_being_refused(pg_url: str) -> None:
    """The process taking a table over holds its lock until the table runs there: a call
    the follower forwarded meanwhile waits for it and is served, not refused."""
    storage = Storage(pg_url)
    (me,) = processes(storage, "h2", 1)
    served: list[Any] = []

    async def serve_call(op: str, args: Any) -> Any:
        served.append((op, args))
        return {"n": 3}

    async def play() -> Any:
        table = SimpleNamespace(id="h2", is_owner=False, lock=asyncio.Lock(), serve_call=serve_call)
        me.hub.tables["h2"] = table

        async def take_over() -> None:
            async with table.lock:
                await asyncio.sleep(0.05)  # (reading what was stored)
                table.is_owner = True

        taking = asyncio.ensure_future(take_over())
        await asyncio.sleep(0)  # the take-over holds the lock
        reply = await me._do({"t": "h2", "op": "act", "args": {"seat": 1}})
        await taking
        return reply

    assert asyncio.run(play()) == {"n": 3}
    assert served == [("act", {"seat": 1})]
    storage.close()


@pytest.mark.parametrize("how", ["expire", "abandon"])
def test_a_table_another_live_process_runs_is_not_closed(pg_url: str, how: str) -> None:
    """Neither expired nor closed as an unconfirmed new table (Storage.abandon) by a
    process that does not run it, while the one that does is alive."""
    storage = Storage(pg_url)
    x, y = processes(storage, "t3", 2)
    assert asyncio.run(x.acquire("t3")) == 1
    later = time.time() + 60  # t3 counts as abandoned by then

    def close() -> list[str]:
        if how == "expire":
            return storage.expire(later, owner=y.id)
        return storage.abandon(["t3"], owner=y.id)

    assert close() == []  # X, alive, runs it: Y leaves it alone
    assert storage.table("t3").finished is False  # type: ignore[union-attr]
    gone = text("UPDATE thievery_owners SET expires_at = 0 WHERE id = :me")
    storage.run(lambda c: c.execute(gone, {"me": x.id}))  # X is killed
    assert close() == ["t3"]
    assert storage.table("t3").finished is True  # type: ignore[union-attr]
    storage.close()


def test_a_write_is_announced_only_if_a_process_follows_its_table(pg_url: str) -> None:
    storage = Storage(pg_url)
    (owner,) = processes(storage, "t2", 1)
    listener = psycopg.connect(conninfo(pg_url), autocommit=True)
    listener.execute(f"LISTEN {CHANNEL}")

    def append(n: int) -> list[str]:
        row = ActionRow(n, 0, {"type": "done"}, 0.0, "human")
        storage.run(lambda c: owner.append(c, "t2", epoch, row, {"k": "a", "n": n}))
        return [note.payload for note in listener.notifies(timeout=0.3)]

    async def follow(change: int) -> None:
        await owner.follow(["t2"], change)

    epoch = asyncio.run(owner.acquire("t2"))
    assert append(0) == []  # nobody follows: no notification (no lock on the queue)
    asyncio.run(follow(1))
    assert [json.loads(p.split(" ", 1)[1])["n"] for p in append(1)] == [1]
    asyncio.run(follow(-1))
    assert append(2) == []
    assert [r.n for r in storage.actions("t2")] == [0, 1, 2]
    # Another fenced write (a seat change, a chat line) likewise.
    note = {"k": "seats", "seats": []}

    def fenced() -> list[str]:
        storage.run(lambda c: owner.fence(c, "t2", epoch, note))
        return [heard.payload for heard in listener.notifies(timeout=0.3)]

    assert fenced() == []
    asyncio.run(follow(1))
    assert fenced() == [f"t2 {json.dumps(note, separators=(',', ':'))}"]
    with pytest.raises(Fenced):  # and a write whose lease is gone is refused still
        storage.run(lambda c: owner.fence(c, "t2", (epoch or 0) + 1, note))
    listener.close()
    storage.close()


def test_workers_need_postgresql(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'one.db'}"
    result = CliRunner().invoke(cli, ["serve", "--workers", "2", "--db", db, "--port", "0"])
    assert result.exit_code == 2
    assert "--workers 2 needs PostgreSQL" in result.output
    assert not (tmp_path / "one.db").exists()


def scalar(url: str, query: str) -> Any:
    """One value from the database."""
    storage = Storage(url)
    with storage.engine.connect() as conn:
        value = conn.execute(text(query)).scalar()
    storage.close()
    return value


def test_workers_share_one_port(pg_url: str) -> None:
    proc, port = serve_process(pg_url, "--workers", "2", "--lease-seconds", LEASE)
    running = "SELECT count(*) FROM thievery_owners WHERE expires_at > 0"
    try:
        deadline = time.monotonic() + 20
        while scalar(pg_url, running) != 2:  # both workers have started
            assert time.monotonic() < deadline, "the second worker did not start"
            time.sleep(0.1)
        table, tokens = make_table(port)
        play_to_the_end(port, table, tokens)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
    # Stopped, the workers handed their tables back and marked themselves gone.
    assert scalar(pg_url, "SELECT count(*) FROM thievery_leases WHERE owner IS NOT NULL") == 0
    assert scalar(pg_url, running) == 0


def test_workers_share_the_new_tables(pg_url: str) -> None:
    """Each worker has a listening socket of its own on the port (SO_REUSEPORT), so the
    kernel spreads new connections, and with them new tables, over the workers evenly. (On
    one shared socket, the worker that wins the race to accept took 50–80 % of them.)"""
    # (100 tables in seconds: at 1,000 a minute and a burst of 10, a fast host was refused)
    lifted = ("--tables-per-minute", "100000", "--tables-per-client", "1000")
    proc, port = serve_process(pg_url, "--workers", "2", "--lease-seconds", LEASE, *lifted)
    running = "SELECT count(*) FROM thievery_owners WHERE expires_at > 0"
    owned = (
        "SELECT count(l.table_id) FROM thievery_owners o "
        "LEFT JOIN thievery_leases l ON l.owner = o.id WHERE o.expires_at > 0 GROUP BY o.id"
    )
    try:
        deadline = time.monotonic() + 20
        while scalar(pg_url, running) != 2:  # both workers have started
            assert time.monotonic() < deadline, "the second worker did not start"
            time.sleep(0.1)
        assert listening_sockets(port) == 2  # a socket a worker (one shared: 1)
        for _ in range(100):
            make_table(port)  # (each over a new connection, as 100 hosts would)
        storage = Storage(pg_url)
        with storage.engine.connect() as conn:
            counts = sorted(conn.execute(text(owned)).scalars())
        storage.close()
        # Binomial(100, 1/2): each worker owns 30 or more but for a chance of 1 in 30,000.
        assert len(counts) == 2 and sum(counts) == 100 and counts[0] >= 30, counts
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)


def test_a_call_registered_on_the_hub_runs_at_the_owner(pg_url: str) -> None:
    apps = [create_app(pg_url, bot_delay=0, caps=LIFTED) for _ in range(2)]
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        hubs = [app.state.hub for app in apps]
        for hub in hubs:

            async def where(table: Any, args: dict[str, Any], hub: Any = hub) -> dict[str, Any]:
                return {"at": hub.cluster.id, "echo": args["x"], "table": table.id}

            hub.calls["where"] = where
        body = {"game": "schattendieb", "seats": [{"kind": "human"}] * 3}
        table_id = a.post("/api/tables", json=body).json()["table"]["id"]

        async def ask() -> Any:
            table = await hubs[1].get(table_id)  # B follows the table A made
            assert not table.is_owner
            return await hubs[1].cluster.at_owner(table, "where", {"x": 7})

        assert b.portal is not None
        reply, _ = b.portal.call(ask)
        assert reply["at"] == hubs[0].cluster.id and reply["echo"] == 7
        assert reply["table"] == table_id


def test_an_action_forwarded_with_a_key_taken_away_meanwhile_is_refused(pg_url: str) -> None:
    """A follower process checks a seat's key against its copy of the seats, which hears
    of the host's new invite a moment after the owner made it. An action checked there in
    that moment and forwarded carries the seat's count of new invites as the follower saw
    it: the owner refuses it (``auth/revoked``), as it refuses one sent to it directly."""
    apps = [create_app(pg_url, bot_delay=0, caps=LIFTED) for _ in range(2)]
    with serving(apps[0]) as a, serving(apps[1]) as b:
        tid, host, keys = _two_people_and_a_bot(a)
        # The follower's copy, made by a seat's read there.
        states = {
            seat: httpx2.get(f"http://127.0.0.1:{b}/api/tables/{tid}/state", headers=_bearer(key))
            for seat, key in keys.items()
        }
        seat = next(seat for seat, state in states.items() if state.json()["legal"])
        state, key = states[seat].json(), keys[seat]
        copy, owned = apps[1].state.hub.tables[tid], apps[0].state.hub.tables[tid]
        assert not copy.is_owner and owned.is_owner
        stale = [Seat(**s.__dict__) for s in copy.seats]
        url = f"http://127.0.0.1:{a}/api/tables/{tid}/seats/{seat}/invite"
        assert httpx2.post(url, headers=_bearer(host)).status_code == 200
        deadline = time.monotonic() + 10
        while copy.seats[seat].reinvited == 0:  # (the owner's note reached the follower)
            assert time.monotonic() < deadline
            time.sleep(0.02)
        copy.seats = stale  # as in the moment before it did
        before = owned.version
        acted = httpx2.post(
            f"http://127.0.0.1:{b}/api/tables/{tid}/actions",
            json={"action": state["legal"][0], "version": state["version"]},
            headers=_bearer(key),
        )
        assert acted.status_code == 403 and acted.json()["code"] == "auth/revoked", acted.text
        assert owned.version == before


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _two_people_and_a_bot(port: int) -> tuple[str, str, dict[int, str]]:
    """A Schattendieb table made at ``port``: its id, the host's token, each seat's key."""
    body = {
        "game": "schattendieb",
        "options": {"games": 1},
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
    }
    made = httpx2.post(f"http://127.0.0.1:{port}/api/tables", json=body).json()
    tid, keys = made["table"]["id"], {}
    for s in made["seats"]:
        url = f"http://127.0.0.1:{port}/api/tables/{tid}/exchange"
        keys[s["seat"]] = httpx2.post(url, headers=_bearer(s["token"])).json()["key"]
    return tid, made["host_token"], keys


def test_a_chat_line_with_a_key_taken_away_meanwhile_is_refused(pg_url: str) -> None:
    """As an action (the test above): a seat that joined a follower with its key in the
    moment before the follower heard of the host's new invite for it cannot speak as
    that seat either. (The owner stored its chat line as the seat's and every process
    showed it.)"""
    apps = [create_app(pg_url, bot_delay=0, caps=LIFTED) for _ in range(2)]
    with serving(apps[0]) as a, serving(apps[1]) as b:
        tid, host, keys = _two_people_and_a_bot(a)
        httpx2.get(f"http://127.0.0.1:{b}/api/tables/{tid}/state", headers=_bearer(keys[0]))
        copy, owned = apps[1].state.hub.tables[tid], apps[0].state.hub.tables[tid]
        assert not copy.is_owner and owned.is_owner
        stale = [Seat(**s.__dict__) for s in copy.seats]
        with connect(f"ws://127.0.0.1:{a}/api/tables/{tid}/ws") as other:  # (keeps it at A)
            other.send(json.dumps({"type": "join", "token": keys[1]}))
            _frame_until(other, lambda f: f["type"] == "welcome")
            url = f"http://127.0.0.1:{a}/api/tables/{tid}/seats/0/invite"
            assert httpx2.post(url, headers=_bearer(host)).status_code == 200
            deadline = time.monotonic() + 10
            while copy.seats[0].reinvited == 0:  # (the owner's note reached the follower)
                assert time.monotonic() < deadline
                time.sleep(0.02)
            copy.seats = stale  # as in the moment before it did
            with connect(f"ws://127.0.0.1:{b}/api/tables/{tid}/ws") as ws:
                ws.send(json.dumps({"type": "join", "token": keys[0]}))
                assert _frame_until(ws, lambda f: f["type"] in ("welcome", "error"))["seat"] == 0
                ws.send(json.dumps({"type": "chat", "text": "still seat 0", "id": 2}))
                said = _frame_until(ws, lambda f: f.get("id") == 2 or f["type"] == "error")
            assert owned.is_owner
        assert said["type"] == "error" and said["code"] == "auth/revoked", said
        with apps[0].state.hub.storage.engine.connect() as conn:
            lines = conn.execute(
                text("SELECT count(*) FROM thievery_chat WHERE table_id = :t"), {"t": tid}
            ).scalar()
        assert lines == 0


def _frame_until(ws: Any, done: Callable[[JSON], bool], seconds: float = 10.0) -> JSON:
    deadline = time.monotonic() + seconds
    while True:
        frame: JSON = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if done(frame):
            return frame


def _call_owner(pg_url: str, owner: str, message: JSON, wait: float = 5.0) -> JSON | None:
    """A call sent to a process's channel by hand, as a follower sends one; its reply."""
    me = "a-test-process"
    with psycopg.connect(conninfo(pg_url), autocommit=True) as conn:
        conn.execute(f'LISTEN "{process_channel(me)}"')
        payload = "call " + json.dumps({"from": me, **message})
        conn.execute("SELECT pg_notify(%s, %s)", (process_channel(owner), payload))
        for note in conn.notifies(timeout=wait):
            reply: JSON = json.loads(note.payload.partition(" ")[2])
            return reply
    return None


def test_a_malformed_forwarded_call_is_refused_and_changes_nothing(pg_url: str) -> None:
    """Calls to a table's owner with a seat it does not have, no action, a seat of -1
    (the clock's: its tick was applied and stored as a person's, moving a real-time game's
    clock on), a version that is no number, or no call id to answer: each refused (or,
    with nobody to tell, dropped) and nothing stored."""
    app = create_app(pg_url, bot_delay=0, caps=LIFTED)
    with serving(app) as a:
        body = {
            "game": "schatz-rabatz",
            "options": {"short_game": True, "hourglass_seconds": 3},
            "seats": [{"kind": "human"}, {"kind": "human"}],
        }
        tid = httpx2.post(f"http://127.0.0.1:{a}/api/tables", json=body).json()["table"]["id"]
        hub = app.state.hub
        table, owner = hub.tables[tid], hub.cluster.id
        tick = {"type": "tick", "now_ms": 10_000_000}
        for ref, args, code in [
            ("far", {"seat": 7, "action": {"type": "close"}}, "seat/unknown"),
            ("none", {"seat": 0}, "frame/malformed"),
            ("clock", {"seat": CLOCK, "action": tick}, "seat/unknown"),
            ("flag", {"seat": True, "action": tick}, "frame/malformed"),
            ("text", {"seat": 0, "action": tick, "version": "7"}, "frame/malformed"),
        ]:
            message = {"id": ref, "t": tid, "op": "act", "args": args}
            reply = _call_owner(pg_url, owner, message)
            assert reply is not None and reply["error"]["code"] == code, (ref, reply)
        assert _call_owner(pg_url, owner, {"t": tid, "op": "act", "args": {}}, 1.0) is None
        assert table.version == 0 and hub.storage.actions(tid) == []


def _lose_the_reply_and_the_lease(apps: list[Any]) -> None:
    """The owner (``apps[0]``) makes what it is asked, then its reply is lost and it stalls
    past its lease (a paused process whose heartbeats stopped): the asker takes over."""
    hub = apps[0].state.hub
    cluster, real_notify = hub.cluster, hub.cluster._notify

    async def lossy(channel: str, payload: str) -> None:
        if not payload.startswith("reply "):
            await real_notify(channel, payload)
            return

        def expired(conn: Any) -> None:
            statement = "UPDATE thievery_owners SET expires_at = 0 WHERE id = :me"
            conn.execute(text(statement), {"me": cluster.id})

        hub.storage.run(expired)

    cluster._notify = lossy


def test_an_exchange_whose_reply_was_lost_is_answered_where_the_table_runs_now(
    pg_url: str,
) -> None:
    """A follower asks the owner to exchange an invite for the key it made; the owner
    stores it, its reply is lost, and the follower takes the table over and asks itself
    again: the exchange is found made, and the key given. (The invite was used up and the
    stored key given to nobody: the seat locked out until a new invite.)"""
    apps = [create_app(pg_url, bot_delay=0, caps=LIFTED, lease_seconds=60) for _ in range(2)]
    with serving(apps[0]) as a, serving(apps[1]) as b:
        body = {"game": "schattendieb", "seats": [{"kind": "human"}] * 3}
        made = httpx2.post(f"http://127.0.0.1:{a}/api/tables", json=body).json()
        tid, invite = made["table"]["id"], made["seats"][0]["token"]
        httpx2.get(f"http://127.0.0.1:{b}/api/tables/{tid}/state")  # (a follower copy)
        copy = apps[1].state.hub.tables[tid]
        assert not copy.is_owner
        _lose_the_reply_and_the_lease(apps)
        url = f"http://127.0.0.1:{b}/api/tables/{tid}/exchange"
        answer = httpx2.post(url, headers=_bearer(invite), timeout=30)
        assert answer.status_code == 200, answer.text
        assert copy.is_owner  # (it took the table over)
        key = answer.json()["key"]
        state = httpx2.get(f"http://127.0.0.1:{b}/api/tables/{tid}/state", headers=_bearer(key))
        assert state.status_code == 200 and state.json()["seat"] == 0
        again = httpx2.post(url, headers=_bearer(invite), timeout=30)
        assert again.status_code == 403 and again.json()["code"] == "auth/invite_used"


def test_a_claim_whose_reply_was_lost_is_answered_where_the_table_runs_now(
    pg_url: str,
) -> None:
    """The same for a stranger's claim of a listed table's seat: the seat's key is made
    where the claim was asked, so the claim asked again finds the seat holding it. (The
    seat was taken with a key made at the old owner and given to nobody: 409.)"""
    apps = [create_app(pg_url, bot_delay=0, caps=LIFTED, lease_seconds=60) for _ in range(2)]
    with serving(apps[0]) as a, serving(apps[1]) as b:
        body = {"game": "schattendieb", "seats": [{"kind": "human"}] * 3, "listed": True}
        tid = httpx2.post(f"http://127.0.0.1:{a}/api/tables", json=body).json()["table"]["id"]
        httpx2.get(f"http://127.0.0.1:{b}/api/tables/{tid}/state")  # (a follower copy)
        copy = apps[1].state.hub.tables[tid]
        _lose_the_reply_and_the_lease(apps)
        answer = httpx2.post(f"http://127.0.0.1:{b}/api/tables/{tid}/seats/1/claim", timeout=30)
        assert answer.status_code == 200, answer.text
        assert copy.is_owner
        key = answer.json()["token"]
        state = httpx2.get(f"http://127.0.0.1:{b}/api/tables/{tid}/state", headers=_bearer(key))
        assert state.status_code == 200 and state.json()["seat"] == 1
        second = httpx2.post(f"http://127.0.0.1:{b}/api/tables/{tid}/seats/1/claim", timeout=30)
        assert second.status_code == 409 and second.json()["code"] == "seat/taken"
