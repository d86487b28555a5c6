"""Fixtures for the server tests: an app on a fresh database, and scripted websocket players."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, make_url, text

from thievery.server import Caps, Limits, create_app
from thievery.server.chat import chat_metadata
from thievery.server.lobby import lobby_metadata
from thievery.server.storage import metadata

POSTGRES_ENV = "THIEVERY_TEST_POSTGRES_URL"
FAST = Limits(rate=10_000, burst=10_000)  # scripted players send far faster than people
LIFTED = Caps.lifted()  # and every test client comes from one address


def reset_postgres(url: str) -> None:
    """Drop Thievery's tables so a test starts from an empty database."""
    engine = create_engine(url)
    for tables in (chat_metadata, lobby_metadata, metadata):
        tables.drop_all(engine)
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: a SQLite file always, PostgreSQL when the CI provides one."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'thievery.db'}"
    return fresh_postgres()


def fresh_postgres() -> str:
    """The CI's PostgreSQL database, emptied; the test is skipped without one. Under
    pytest-xdist each worker has a database of its own (made on first use), so tests in
    two processes never empty each other's tables, take each other's leases or hear each
    other's notifications."""
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"PostgreSQL storage tests need {POSTGRES_ENV} (set by .ci/run)")
    url = worker_database(url)
    reset_postgres(url)
    return url


def worker_database(url: str) -> str:
    """``url`` for this pytest-xdist worker: the same server, a database named after the
    worker (``postgres_gw1``), created if it is not there; ``url`` itself outside xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    base = make_url(url)
    name = f"{base.database or 'postgres'}_{worker}"
    engine = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            found = conn.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
            ).first()
            if found is None:
                conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    finally:
        engine.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite file."""
    return f"sqlite:///{tmp_path / 'thievery.db'}"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    """The app with bots moving at once."""
    with TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST, caps=LIFTED)) as c:
        yield c


def settle(client: TestClient, table_id: str, seconds: float = 5.0) -> None:
    """Wait until no bot of a table with people at it is to act: bots (at delay 0) move at
    once, but their actions reach everyone only once the writer thread has stored them."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        table = client.get(f"/api/tables/{table_id}").json()
        bots = {s["seat"] for s in table["seats"] if s["bot"]}
        people = len(bots) < len(table["seats"])
        if table["over"] or not people or not set(table["to_act"]) & bots:
            return
        time.sleep(0.005)


def create_table(
    client: TestClient,
    seats: list[str],
    options: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Create a Schattendieb table; ``seats`` like ``["human", "bot:heuristic"]``. With
    people and bots at it, it returns once the bots have made their first moves."""
    spec = [
        {"kind": "human"} if s == "human" else {"kind": "bot", "bot": s.split(":", 1)[1]}
        for s in seats
    ]
    body = {"game": "schattendieb", "seats": spec, "options": options or {"games": 1}, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    settle(client, data["table"]["id"])
    return data


def listing(client: TestClient, *mine: str, finished: int = 20) -> dict[str, Any]:
    """``GET /api/tables`` as a browser holding ``mine`` (table ids) asks it: listed tables,
    and these."""
    query = f"?finished={finished}&mine={','.join(mine)}"
    response = client.get(f"/api/tables{query}")
    assert response.status_code == 200, response.text
    listed: dict[str, Any] = response.json()
    return listed


def stored_running(client: TestClient) -> list[str]:
    """The ids of every unfinished table stored, listed or not, oldest first (from the
    app's own storage: the public list shows listed tables only)."""
    app: Any = client.app
    while not hasattr(getattr(app, "state", None), "hub"):  # (an app wrapped for a test)
        app = app.app
    return [r.id for r in app.state.hub.storage.unfinished()]


def exchange(client: TestClient, table_id: str, invite: str) -> str:
    """The seat's own key for its invite (``POST /api/tables/{id}/exchange``): an invite
    grants nothing else, the key is the seat's token everywhere."""
    response = client.post(
        f"/api/tables/{table_id}/exchange", headers={"Authorization": f"Bearer {invite}"}
    )
    assert response.status_code == 200, response.text
    key: str = response.json()["key"]
    return key


def seat_keys(client: TestClient, made: dict[str, Any]) -> dict[int, str]:
    """Every human seat's key of a table just made (``made``: ``POST /api/tables``'s
    answer), each seat's invite exchanged."""
    tid = made["table"]["id"]
    return {s["seat"]: exchange(client, tid, s["token"]) for s in made["seats"]}


class Player:
    """A scripted websocket client: every frame it receives is kept, as text and as JSON."""

    def __init__(self, ws: Any, token: str | None) -> None:
        self.ws = ws
        self.texts: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self.latest: dict[str, Any] = {}
        self._ref = 0
        ws.send_json({"type": "join", "token": token} if token else {"type": "join"})
        welcome = self.read_until(lambda f: f["type"] == "welcome")
        # The seat's token from now on: the key its invite was exchanged for, if it was.
        self.token: str | None = welcome.get("key") or token

    def receive(self) -> dict[str, Any]:
        """One frame."""
        text = self.ws.receive_text()
        frame: dict[str, Any] = json.loads(text)
        self.texts.append(text)
        self.frames.append(frame)
        if frame["type"] in ("welcome", "update"):
            self.latest = frame
        return frame

    def read_until(self, done: Any) -> dict[str, Any]:
        """Frames until one satisfies ``done``; that one."""
        while True:
            frame = self.receive()
            if done(frame):
                return frame
            if frame["type"] == "error" and frame["code"] == "rate/limited":
                raise AssertionError("rate limited: the frame that would answer was dropped")

    def sync(self) -> None:
        """Read everything the server queued for us so far (a ping's pong comes after it)."""
        self._ref += 1
        ref = f"sync-{self._ref}"
        self.ws.send_json({"type": "ping", "id": ref})
        self.read_until(lambda f: f["type"] == "pong" and f.get("id") == ref)

    def send(self, frame: dict[str, Any]) -> dict[str, Any]:
        """Send a frame with an id; the ack or error answering it."""
        self._ref += 1
        ref = f"r{self._ref}"
        self.ws.send_json({**frame, "id": ref})
        return self.read_until(lambda f: f["type"] in ("ack", "error") and f.get("id") == ref)

    def act(self, action: Any, version: int | None = -1) -> dict[str, Any]:
        """Act against our latest version (or the one given); the ack or error.

        Against the latest version, a stale answer means a bot's move (stored by the
        writer thread) landed between our sync and our action: look again and retry."""
        if version != -1:
            return self.send({"type": "act", "action": action, "version": version})
        for _ in range(5):
            self.sync()
            answer = self.send({"type": "act", "action": action, "version": self.latest["version"]})
            if answer.get("code") != "action/stale":
                break
        return answer

    def error(self, frame: Any) -> dict[str, Any]:
        """Send raw text or JSON that should be refused; the error frame."""
        text = frame if isinstance(frame, str) else json.dumps(frame)
        self.ws.send_text(text)
        return self.read_until(lambda f: f["type"] == "error")


@contextlib.contextmanager
def loop_asks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the calls of ``asyncio.get_running_loop`` made inside the block (a system
    call each: it checks the process id), as the yielded list's one item."""
    real = asyncio.get_running_loop
    count = [0]

    def counted() -> asyncio.AbstractEventLoop:
        count[0] += 1
        return real()

    monkeypatch.setattr(asyncio, "get_running_loop", counted)
    try:
        yield count
    finally:
        monkeypatch.setattr(asyncio, "get_running_loop", real)
