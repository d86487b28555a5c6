"""Frames written without queueing (:mod:`thievery.server.wire`): over a real uvicorn
server, a table hands its frames to each connection as it makes them (written together,
one write a connection, once the loop's current callback is done), and every client still
gets every update, in order, each before its ack: the mover's update and ack in one write."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
import websockets.sync.client as ws_client

from tests.server.conftest import FAST
from tests.server.serving import serving
from thievery.server import create_app
from thievery.server import wire as wire_module
from thievery.server.limits import Caps


def test_frames_are_written_at_once_in_order_and_each_update_before_its_ack(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = {"now": 0, "queued": 0}
    write = wire_module.Wire.write

    def counted(self: wire_module.Wire, text: str) -> bool:
        ok = write(self, text)
        written["now" if ok else "queued"] += 1
        return ok

    monkeypatch.setattr(wire_module.Wire, "write", counted)
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    rng = random.Random(4)
    with serving(app) as port:
        # A match of three games: at least 10 actions, whatever the deal (the server picks
        # the seed; one random game of three seats is over within 9 actions ~2% of times).
        body = {"game": "schattendieb", "seats": [{"kind": "human"}] * 3, "options": {"games": 3}}
        made = httpx2.post(f"http://127.0.0.1:{port}/api/tables", json=body).json()
        url = f"ws://127.0.0.1:{port}/api/tables/{made['table']['id']}/ws"
        stack = contextlib.ExitStack()
        clients = [stack.enter_context(ws_client.connect(url)) for _ in made["seats"]]
        seen: list[list[dict[str, Any]]] = [[] for _ in clients]

        def read(i: int, until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
            while True:
                frame = json.loads(clients[i].recv(timeout=10))
                seen[i].append(frame)
                if until(frame):
                    return frame

        with stack:
            latest: list[dict[str, Any]] = []
            for i, seat in enumerate(made["seats"]):
                clients[i].send(json.dumps({"type": "join", "token": seat["token"]}))
                latest.append(read(i, lambda f: f["type"] == "welcome"))
            acted = 0

            def catch_up(j: int, wait: float) -> None:
                """Read what client ``j`` was sent, the first frame waited for up to
                ``wait`` seconds, the rest 0.02 s; its latest state."""
                while True:
                    try:
                        frame = json.loads(clients[j].recv(timeout=wait))
                    except TimeoutError:
                        break
                    wait = 0.02
                    seen[j].append(frame)
                latest[j] = next(f for f in reversed(seen[j]) if f["type"] in ("welcome", "update"))

            for ref in range(1, 30):
                movers = [i for i, f in enumerate(latest) if f["legal"] and f["result"] is None]
                if not movers and all(f["result"] is None for f in latest):
                    # Nobody may move and the game goes on: a frame is still on its way (a
                    # loaded machine: the server and these clients share one process).
                    for j in range(len(clients)):
                        catch_up(j, 1.0)
                    movers = [i for i, f in enumerate(latest) if f["legal"] and f["result"] is None]
                if not movers:
                    break
                i = rng.choice(movers)
                action = rng.choice(latest[i]["legal"])
                act = {"type": "act", "action": action, "version": latest[i]["version"], "id": ref}
                clients[i].send(json.dumps(act))
                ack = read(i, lambda f: f["type"] in ("ack", "error"))
                assert ack["type"] == "ack" and ack["id"] == ref, ack
                acted += 1
                # Its update came before its ack, with the version the ack names.
                updates = [f for f in seen[i] if f["type"] == "update"]
                assert updates[-1]["version"] == ack["version"]
                for j in range(len(clients)):  # everyone reads up to the table's present
                    catch_up(j, 0.02)  # (their frames were written before the mover's ack)
    assert acted >= 10
    assert written["now"] >= acted  # the table wrote frames itself, at once
    for frames in seen:  # each seat's versions: one more with every update, none lost
        versions = [f["version"] for f in frames if f["type"] in ("welcome", "update")]
        assert versions == list(range(versions[0], versions[0] + len(versions)))


class Recorder:
    """A transport that keeps what each ``write`` was given (and passes everything on)."""

    def __init__(self, transport: Any, writes: list[bytes]) -> None:
        self._transport = transport
        self._writes = writes

    def write(self, data: bytes) -> None:
        self._writes.append(bytes(data))
        self._transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


def test_an_update_and_the_ack_of_the_action_that_made_it_go_out_in_one_write(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mover's update and its ack are made in one callback: one write (one system
    call), not two; each other seat's update is a write of its own."""
    writes: list[bytes] = []
    made_here = wire_module.Wire.connection_made

    def recorded(self: wire_module.Wire, transport: Any) -> None:
        made_here(self, Recorder(transport, writes))

    monkeypatch.setattr(wire_module.Wire, "connection_made", recorded)
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    with serving(app) as port:
        body = {"game": "schattendieb", "seats": [{"kind": "human"}] * 3, "options": {"games": 1}}
        made = httpx2.post(f"http://127.0.0.1:{port}/api/tables", json=body).json()
        url = f"ws://127.0.0.1:{port}/api/tables/{made['table']['id']}/ws"
        with contextlib.ExitStack() as stack:
            clients = [stack.enter_context(ws_client.connect(url)) for _ in made["seats"]]
            welcomes = []
            for client, seat in zip(clients, made["seats"], strict=True):
                client.send(json.dumps({"type": "join", "token": seat["token"]}))
                while (frame := json.loads(client.recv(timeout=10)))["type"] != "welcome":
                    pass
                welcomes.append(frame)
            i = next(k for k, w in enumerate(welcomes) if w["legal"])
            action = welcomes[i]["legal"][0]
            writes.clear()
            clients[i].send(json.dumps({"type": "act", "action": action, "id": 7}))
            while (frame := json.loads(clients[i].recv(timeout=10)))["type"] != "ack":
                pass
            for j, client in enumerate(clients):
                if j != i:
                    while json.loads(client.recv(timeout=10))["type"] != "update":
                        pass
    (with_ack,) = [w for w in writes if b'"type":"ack"' in w]
    assert b'"type":"update"' in with_ack  # the mover's update, in the same write
    assert with_ack.index(b'"type":"update"') < with_ack.index(b'"type":"ack"')
    updates = [w for w in writes if b'"type":"update"' in w]
    assert len(updates) == len(clients)  # one write per connection
