"""The table chat with several `thievery serve` processes on one PostgreSQL database: a
line said at any process reaches every connection of the table at every process, a seat's
rate is one over all processes, and a connection joining at any process gets the same
last lines.

Needs PostgreSQL (``THIEVERY_TEST_POSTGRES_URL``, set by ``.ci/run``); skipped without it.
(A claim made at the process that does not own the table: tests/server/test_lobby_list.py.)
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import httpx2
import pytest
from websockets.sync.client import ClientConnection, connect

from thievery.core.protocol import NAME_LIMIT
from thievery.server.chat import LINE_LIMIT

from .conftest import fresh_postgres
from .serving import serve_process, server_log

Frame = dict[str, Any]


@pytest.fixture
def ports() -> Iterator[list[int]]:
    """Two `thievery serve` processes on one fresh database: their ports. A seat may say
    five lines at once and then one a hundred seconds: no line comes back within a test
    however slow the machine (at the default one a second, a slow round trip between the
    processes let the bucket refill between lines)."""
    url = fresh_postgres()
    started: list[subprocess.Popen[bytes]] = []
    try:
        found = []
        for _ in range(2):
            proc, port = serve_process(url, "--lease-seconds", "1.5", "--chat-per-minute", "0.6")
            started.append(proc)
            found.append(port)
        yield found
    finally:
        for proc in started:
            proc.send_signal(signal.SIGTERM)
        for proc in started:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                print(server_log(proc))


class Seat:
    """A websocket connection to a table at one process, joined (a token: as its seat)."""

    def __init__(self, ws: ClientConnection, token: str | None) -> None:
        self.ws = ws
        self.frames: list[Frame] = []
        self.unread: list[Frame] = []  # frames read that until() did not return
        ws.send(json.dumps({"type": "join", "token": token}))
        self.until(lambda f: f["type"] == "chat_log")
        welcome = next(f for f in self.frames if f["type"] == "welcome")
        # The seat's token from now on: the key its invite was exchanged for, if it was.
        self.token = welcome.get("key") or token

    def until(self, done: Callable[[Frame], bool], seconds: float = 10.0) -> Frame:
        """The first frame not returned yet that is ``done`` (read until one comes)."""
        for kept in self.unread:
            if done(kept):
                self.unread.remove(kept)
                return kept
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            assert left > 0, self.frames
            frame: Frame = json.loads(self.ws.recv(timeout=left))
            self.frames.append(frame)
            if done(frame):
                return frame
            self.unread.append(frame)

    def say(self, text: str, ref: int) -> Frame:
        """Send a chat line; the ack or error the server answers it with."""
        self.ws.send(json.dumps({"type": "chat", "text": text, "id": ref}))
        return self.until(lambda f: f["type"] in ("ack", "error") and f.get("id") == ref)

    def heard(self, text: str) -> Frame:
        """Wait for the chat line with this text."""
        return self.until(lambda f: f["type"] == "chat" and f["text"] == text)

    def log(self) -> list[Frame]:
        """The lines of the chat log it got when it joined."""
        lines: list[Frame] = next(f for f in self.frames if f["type"] == "chat_log")["lines"]
        return lines


@contextmanager
def joined(port: int, table_id: str, token: str | None = None) -> Iterator[Seat]:
    with connect(f"ws://127.0.0.1:{port}/api/tables/{table_id}/ws") as ws:
        yield Seat(ws, token)


def make_table(port: int, names: list[str]) -> tuple[str, list[str]]:
    """A table of people (with these names) made at one process: its id, its tokens."""
    body = {"game": "schattendieb", "seats": [{"kind": "human", "name": n} for n in names]}
    made = httpx2.post(f"http://127.0.0.1:{port}/api/tables", json=body).json()
    return made["table"]["id"], [s["token"] for s in made["seats"]]


def test_a_line_said_at_one_process_reaches_every_process(ports: list[int]) -> None:
    a, b = ports
    wide_name = "\U0001f600" * NAME_LIMIT  # the widest name and line an announcement carries
    wide = "\U0001f600" * LINE_LIMIT
    tid, tokens = make_table(a, ["Ada", "Bo", wide_name])
    with ExitStack() as stack:
        # Seat 0 at A first: A keeps the table (it has a player), B follows it.
        ada = stack.enter_context(joined(a, tid, tokens[0]))
        bo = stack.enter_context(joined(b, tid, tokens[1]))
        watcher = stack.enter_context(joined(b, tid))
        assert bo.say("hello from B", 1)["type"] == "ack"
        for seat in (ada, bo, watcher):
            line = seat.heard("hello from B")
            assert (line["seat"], line["name"], line["n"]) == (1, "Bo", 0)
        assert ada.say("hi from A", 2)["type"] == "ack"
        for seat in (ada, bo, watcher):
            assert seat.heard("hi from A")["n"] == 1
        cy = stack.enter_context(joined(b, tid, tokens[2]))
        assert cy.say(wide, 3)["type"] == "ack"
        for seat in (ada, bo, watcher):
            line = seat.heard(wide)
            assert (line["seat"], line["name"], line["n"]) == (2, wide_name, 2)
        # A spectator at a follower still only reads.
        assert watcher.say("me?", 4)["code"] == "chat/spectator"
        # A connection joining at either process gets the same last lines.
        with joined(a, tid) as late_a, joined(b, tid, cy.token) as late_b:
            texts = ["hello from B", "hi from A", wide]
            assert [line["text"] for line in late_a.log()] == texts
            assert late_b.log() == late_a.log()


def test_a_seats_rate_is_one_over_every_process(ports: list[int]) -> None:
    a, b = ports
    tid, tokens = make_table(a, ["Ada", "Bo", "Cy"])
    with (
        joined(a, tid, tokens[0]) as ada,
        joined(b, tid, tokens[1]) as bo_at_b,
        joined(a, tid, bo_at_b.token) as bo_at_a,
    ):
        said = 0
        while (answer := bo_at_b.say(f"line {said}", said))["type"] == "ack":
            said += 1
            assert said <= 10, "never rate limited"
        assert answer["code"] == "rate/limited"
        assert said == 5  # the burst, and no more: the next line is 100 s away
        wait = float(answer["message"].split("try again in ")[1].split()[0])
        assert 90 <= wait <= 100, answer  # --chat-per-minute 0.6 reached the owner's bucket
        # The same seat at the other process is refused too.
        refused = bo_at_a.say("and here?", 100)
        assert refused["type"] == "error" and refused["code"] == "rate/limited"
        # Another seat has its own rate; the refused lines reached nobody.
        assert ada.say("mine", 101)["type"] == "ack"
        ada.heard("mine")
        texts = [f["text"] for f in ada.frames if f["type"] == "chat"]
        assert texts == [*(f"line {n}" for n in range(said)), "mine"]
