"""Sockets that never join: they count toward a table's cap (with spectators) but never
keep a seated player out, and they are closed once their join deadline is past."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import httpx2
import websockets.sync.client as ws_client
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import FAST
from tests.server.serving import serving
from thievery.server import Caps, create_app

HUMANS = {"game": "schattendieb", "seats": [{"kind": "human"}] * 3}


@contextlib.contextmanager
def table_server(sqlite_url: str, **caps: Any) -> Iterator[tuple[str, list[str]]]:
    """A server with one table of three people: its websocket URL and the seats' tokens."""
    many = 1_000_000
    app = create_app(
        sqlite_url, bot_delay=0, limits=FAST, caps=Caps(connections_per_client=many, **caps)
    )
    with serving(app) as port:
        made = httpx2.post(f"http://127.0.0.1:{port}/api/tables", json=HUMANS).json()
        url = f"ws://127.0.0.1:{port}/api/tables/{made['table']['id']}/ws"
        yield url, [seat["token"] for seat in made["seats"]]


def first_frame(ws: Any) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(ws.recv(timeout=5))
    return frame


def closed_with(ws: Any) -> tuple[int | None, list[dict[str, Any]]]:
    """The frames until the server closes ``ws``, and its close code."""
    frames = []
    try:
        while True:
            frames.append(json.loads(ws.recv(timeout=5)))
    except ConnectionClosed:
        pass
    return ws.protocol.close_code, frames


def test_idle_sockets_do_not_lock_a_seated_player_out(sqlite_url: str) -> None:
    """64 sockets that never joined used to take every place at a table: a seated player
    was then refused (close code 4429)."""
    cap = 8
    with (
        table_server(sqlite_url, connections_per_table=cap) as (url, tokens),
        contextlib.ExitStack() as stack,
    ):
        idle = [stack.enter_context(ws_client.connect(url)) for _ in range(cap)]
        with ws_client.connect(url) as player:
            player.send(json.dumps({"type": "join", "token": tokens[0]}))
            welcome = first_frame(player)
            assert welcome["type"] == "welcome" and welcome["seat"] == 0, welcome
            # and it plays on like any seat
            player.send(json.dumps({"type": "ping", "id": 1}))
            while first_frame(player).get("id") != 1:
                pass
        # A spectator is still held to the cap.
        with ws_client.connect(url) as watcher:
            watcher.send(json.dumps({"type": "join"}))
            code, frames = closed_with(watcher)
            assert code == 4429
            assert [f["code"] for f in frames] == ["limit/connections_per_table"]
        # So is a socket over the cap that says nothing.
        with ws_client.connect(url) as silent:
            code, frames = closed_with(silent)
            assert code == 4429
            assert [f["code"] for f in frames] == ["limit/connections_per_table"]
        assert len(idle) == cap


def test_a_socket_that_does_not_join_is_closed(sqlite_url: str) -> None:
    with table_server(sqlite_url, join_seconds=0.5, connections_per_table=100) as (url, tokens):
        with ws_client.connect(url) as idle:
            code, frames = closed_with(idle)
            assert code == 4408
            assert [f["code"] for f in frames] == ["join/timeout"]
        # A socket that joined in time stays, past the deadline.
        with ws_client.connect(url) as joined:
            joined.send(json.dumps({"type": "join", "token": tokens[1]}))
            assert first_frame(joined)["type"] == "welcome"
            with ws_client.connect(url) as idle:
                closed_with(idle)  # its deadline passed
            joined.send(json.dumps({"type": "ping", "id": 7}))
            while first_frame(joined).get("id") != 7:
                pass
