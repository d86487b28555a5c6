"""What an open websocket keeps for its whole life: not its handshake request's headers,
neither in the request object (websockets' parser keeps it alive as long as the
connection) nor in its ASGI scope."""

from __future__ import annotations

import asyncio
import base64
import gc
import os
import socket
import time

import httpx2
import pytest
from websockets.http11 import Request

from tests.server.conftest import FAST
from tests.server.serving import serving
from thievery.server import create_app
from thievery.server.run import Inbox


def handshake(port: int, path: str) -> socket.socket:
    """A websocket opened by hand (no client library, whose own request objects would be
    counted too): the upgrade request sent, the 101 answer read; left open."""
    sock = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        "User-Agent: a-rather-long-user-agent-string/1.0 (for the headers to weigh)\r\n\r\n"
    )
    sock.sendall(request.encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        assert chunk, "the server closed the connection"
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 101"), answer[:200]
    return sock


def test_an_open_websocket_does_not_keep_its_handshake_headers(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, limits=FAST)
    with serving(app) as port:
        body = {"game": "schattendieb", "seats": [{"kind": "human"}] * 3}
        made = httpx2.post(f"http://127.0.0.1:{port}/api/tables", json=body).json()
        path = f"/api/tables/{made['table']['id']}/ws"
        socks = [handshake(port, path) for _ in range(5)]
        try:
            time.sleep(0.2)  # (the server thread has handled every handshake)
            # This table's (a new id), and type(), not isinstance(): a dead weak proxy
            # among the objects would raise.
            objects = gc.get_objects()
            requests = [o for o in objects if type(o) is Request and o.path == path]
            assert len(requests) == 5  # alive: websockets' parsers hold them
            assert [len(r.headers) for r in requests] == [0] * 5
            # Nor does its ASGI scope keep them (nothing reads them after the handshake).
            scopes = [
                o
                for o in objects
                if type(o) is dict and o.get("type") == "websocket" and o.get("path") == path
            ]
            assert len(scopes) == 5
            assert [scope["headers"] for scope in scopes] == [[]] * 5
            # Its received messages wait in an Inbox, not an asyncio.Queue (~3 KB).
            protocols = [o for o in objects if type(o).__name__.startswith("Paced")]
            assert len(protocols) >= 5
            assert {type(p.queue) for p in protocols} == {Inbox}
        finally:
            for sock in socks:
                sock.close()


def test_an_inbox_hands_messages_over_in_order_and_loses_none_to_a_cancelled_wait() -> None:
    async def check() -> None:
        inbox = Inbox()
        assert inbox.empty()
        inbox.put_nowait(1)
        inbox.put_nowait(2)
        assert not inbox.empty()
        assert [await inbox.get(), await inbox.get()] == [1, 2] and inbox.empty()
        waiting = asyncio.ensure_future(inbox.get())  # the app waits for the next one
        await asyncio.sleep(0)
        inbox.put_nowait(3)
        assert await waiting == 3
        # A wait given up (a join's deadline: wait_for) loses nothing that comes after.
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(inbox.get(), 0.01)
        inbox.put_nowait(4)
        inbox.put_nowait(5)
        assert [await inbox.get(), await inbox.get()] == [4, 5] and inbox.empty()

    asyncio.run(check())
