"""A real `thievery serve` process killed with SIGKILL mid-game and started again."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.sync.client import connect

from thievery.core.record import GameRecord


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db: str, port: int) -> subprocess.Popen[bytes]:
    """`thievery serve` on 127.0.0.1, bots moving at once; returns once it answers."""
    cli = Path(sys.executable).with_name("thievery")
    proc = subprocess.Popen(
        [
            str(cli),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            db,
            "--bot-delay",
            "0",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            out = proc.stdout.read().decode() if proc.stdout else ""
            raise AssertionError(f"the server stopped: {out}")
        try:
            if httpx2.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx2.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


class Socket:
    """A seat over a real websocket."""

    def __init__(self, stack: ExitStack, port: int, table: str, token: str) -> None:
        # (frames it is not asked for are read as they come, so that its close is answered
        # at once: a full queue would stop its reading, and its close wait 10 s for a reply)
        url = f"ws://127.0.0.1:{port}/api/tables/{table}/ws"
        self.ws = stack.enter_context(connect(url, max_queue=None))
        self.ws.send(json.dumps({"type": "join", "token": token}))
        self.latest = self.until(lambda f: f["type"] == "welcome")
        # The seat's token from now on: the key its invite was exchanged for, if it was.
        self.token: str = self.latest.get("key") or token
        self.n = 0

    def until(self, done: Any) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(timeout=10))
            if frame["type"] in ("welcome", "update"):
                self.latest = frame
            if done(frame):
                return frame

    def sync(self) -> None:
        self.n += 1
        self.ws.send(json.dumps({"type": "ping", "id": self.n}))
        self.until(lambda f: f["type"] == "pong" and f["id"] == self.n)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        self.n += 1
        n = self.n
        self.ws.send(
            json.dumps(
                {"type": "act", "action": action, "id": n, "version": self.latest["version"]}
            )
        )
        return self.until(lambda f: f["type"] in ("ack", "error") and f.get("id") == n)


def test_kill_9_loses_no_accepted_action(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'crash.db'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db, port)
    accepted: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
    stack = ExitStack()
    try:
        body = {
            "game": "schattendieb",
            "options": {"games": 6},
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
        }
        made = httpx2.post(f"{base}/api/tables", json=body).json()
        tid = made["table"]["id"]
        t0, t1 = (s["token"] for s in made["seats"])
        exchanged = httpx2.post(
            f"{base}/api/tables/{tid}/exchange", headers={"Authorization": f"Bearer {t0}"}
        )
        assert exchanged.status_code == 200, exchanged.text
        t0 = exchanged.json()["key"]  # (seat 0's key: an invite grants only its exchange)
        seat1 = Socket(stack, port, tid, t1)
        t1 = seat1.token
        for _ in range(200):  # seat 0 over HTTP, seat 1 over its websocket
            if len(accepted[0]) >= 6 and len(accepted[1]) >= 6:
                break
            s0 = httpx2.get(
                f"{base}/api/tables/{tid}/state", headers={"Authorization": f"Bearer {t0}"}
            ).json()
            if s0["legal"]:
                r = httpx2.post(
                    f"{base}/api/tables/{tid}/actions",
                    json={"action": s0["legal"][-1], "version": s0["version"]},
                    headers={"Authorization": f"Bearer {t0}"},
                )
                if r.status_code == 200:
                    accepted[0].append(s0["legal"][-1])
            seat1.sync()
            if seat1.latest["legal"]:
                action = seat1.latest["legal"][-1]
                if seat1.act(action)["type"] == "ack":
                    accepted[1].append(action)
        assert len(accepted[0]) >= 5 and len(accepted[1]) >= 5
        actions_before = httpx2.get(f"{base}/api/tables/{tid}").json()["actions"]
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        stack.close()
        proc.wait(10)

    proc = start_server(db, port)
    stack = ExitStack()
    try:
        summary = httpx2.get(f"{base}/api/tables/{tid}").json()
        assert summary["actions"] >= actions_before
        assert not summary["over"]
        # The game goes on: seat 1 acts once more; then the host hands both seats to bots,
        # who finish the match. Every accepted action is in the record, in order.
        seat1 = Socket(stack, port, tid, t1)
        seat1.sync()
        if seat1.latest["legal"]:
            action = seat1.latest["legal"][0]
            if seat1.act(action)["type"] == "ack":
                accepted[1].append(action)
        # (the host for seat 0, whose player is not connected; seat 1's player for theirs)
        for seat, token in ((0, made["host_token"]), (1, t1)):
            url = f"{base}/api/tables/{tid}/seats/{seat}/bot"
            r = httpx2.post(
                url, json={"bot": "random"}, headers={"Authorization": f"Bearer {token}"}
            )
            assert r.status_code == 200, r.text
        deadline = time.time() + 60
        while not httpx2.get(f"{base}/api/tables/{tid}").json()["over"]:
            assert time.time() < deadline, "the bots did not finish the match"
            time.sleep(0.1)
        record = GameRecord.from_json(httpx2.get(f"{base}/api/tables/{tid}/record").json())
        for seat in (0, 1):
            mine = [a for s, a in record.actions if s == seat]
            assert mine[: len(accepted[seat])] == accepted[seat]
    finally:
        stack.close()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail("the server did not stop on SIGTERM")
