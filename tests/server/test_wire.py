"""The tables' websockets on uvicorn (:mod:`thievery.server.wire`), over a real server:
the handshake, fragments, binary frames, pings both ways, the proxy's forwarded address,
a graceful stop, and what an open connection keeps (no task, no handshake headers)."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import gc
import json
import os
import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx2
import pytest
import uvicorn
import websockets.sync.client as ws_client
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response
from websockets.server import ServerProtocol

from tests.server.conftest import FAST
from tests.server.serving import serving
from thievery.server import create_app
from thievery.server import wire as wire_module
from thievery.server.limits import Caps
from thievery.server.run import bind, server_config
from thievery.server.sockets import Session


def make_table(port: int, seats: int = 3) -> dict[str, Any]:
    body = {"game": "schattendieb", "seats": [{"kind": "human"}] * seats, "options": {"games": 1}}
    made: dict[str, Any] = httpx2.post(f"http://127.0.0.1:{port}/api/tables", json=body).json()
    return made


def handshake(port: int, path: str, *extra: str) -> tuple[socket.socket, bytes]:
    """A websocket opened by hand (no client library): the upgrade request sent with
    ``extra`` header lines, the answer's head read; left open. Returns the socket and the
    answer's head."""
    sock = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
        "User-Agent: a-rather-long-user-agent-string/1.0 (for the headers to weigh)",
        *extra,
    ]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    return sock, read_head(sock)


def read_head(sock: socket.socket) -> bytes:
    """What the server answers, up to the end of its head (or of the stream)."""
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        if not chunk:
            break
        answer += chunk
    return answer


def frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """A client's frame (masked, as clients must)."""
    mask = os.urandom(4)
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    else:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def read_frames(sock: socket.socket, seconds: float) -> list[tuple[int, bytes]]:
    """The server's frames (opcode, payload) until it closes or ``seconds`` pass."""
    sock.settimeout(seconds)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    frames = []
    while len(data) >= 2:
        opcode, n = data[0] & 0x0F, data[1] & 0x7F
        start = 2
        if n == 126:
            n, start = struct.unpack("!H", data[2:4])[0], 4
        elif n == 127:
            n, start = struct.unpack("!Q", data[2:10])[0], 10
        frames.append((opcode, data[start : start + n]))
        data = data[start + n :]
    return frames


def test_a_path_that_names_no_table_is_refused_at_the_handshake(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    with serving(app) as port:
        for path in ("/api/tables/ws", "/api/nothing/ws", "/api/tables/a/b/ws"):
            sock, answer = handshake(port, path)
            sock.close()
            assert answer.startswith(b"HTTP/1.1 404"), answer[:100]
        # An unknown table's id is a table socket: accepted, told, closed with 4404.
        with ws_client.connect(f"ws://127.0.0.1:{port}/api/tables/nosuch/ws") as ws:
            error = json.loads(ws.recv(timeout=5))
            assert error["type"] == "error" and error["code"] == "table/unknown"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


def upgrade_answer(port: int, lines: list[str]) -> bytes:
    """The status line the server answers an upgrade request of ``lines`` with (b""
    if it closes without one)."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(5)
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        return read_head(sock).partition(b"\r\n")[0]


@pytest.mark.parametrize(
    ("change", "status"),
    [
        ({}, b"HTTP/1.1 101 Switching Protocols"),
        ({"Sec-WebSocket-Key": "short"}, b"HTTP/1.1 400 Bad Request"),
        ({"Sec-WebSocket-Key": None}, b"HTTP/1.1 400 Bad Request"),
        ({"Sec-WebSocket-Version": "8"}, b"HTTP/1.1 400 Bad Request"),
        ({"Connection": "Upgrade, Upgrade", "Upgrade": "websocket, websocket"}, None),
    ],
    ids=["good", "bad-key", "no-key", "old-version", "repeated-upgrade"],
)
def test_a_request_uvicorn_parsed_is_judged_as_websockets_judges_it(
    sqlite_url: str, change: dict[str, str | None], status: bytes | None
) -> None:
    """The handshake from the request as uvicorn parsed it answers exactly as websockets
    answers the request written out and parsed again (what a ``Content-Length: 0``
    request still gets): accepted, or refused with the same status."""
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    with serving(app) as port:
        path = f"/api/tables/{make_table(port)['table']['id']}/ws"
        headers: dict[str, str | None] = {
            "Host": f"127.0.0.1:{port}",
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode(),
            "Sec-WebSocket-Version": "13",
            **change,
        }
        lines = [f"GET {path} HTTP/1.1"] + [f"{k}: {v}" for k, v in headers.items() if v]
        as_parsed = upgrade_answer(port, lines)
        parsed_again = upgrade_answer(port, [*lines, "Content-Length: 0"])
    assert as_parsed == parsed_again
    if status is not None:
        assert as_parsed == status


def test_fragments_binary_frames_and_pings(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    with serving(app) as port:
        made = make_table(port)
        url = f"ws://127.0.0.1:{port}/api/tables/{made['table']['id']}/ws"
        with ws_client.connect(url) as ws:
            # A text message in three fragments is one frame to the table.
            ws.send(['{"type": "ping", ', '"id": ', '"frag"}'])
            assert json.loads(ws.recv(timeout=5)) == {"type": "pong", "id": "frag"}
            ws.send(b'{"type": "ping"}')  # binary: refused, the connection stays
            error = json.loads(ws.recv(timeout=5))
            assert error["code"] == "frame/malformed" and "text" in error["message"]
            assert ws.ping().wait(5)  # the client's ping is answered
            token = made["seats"][0]["token"]
            ws.send(json.dumps({"type": "join", "token": token}))
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"


def test_invalid_utf8_closes_with_1007(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    with serving(app) as port:
        made = make_table(port)
        sock, answer = handshake(port, f"/api/tables/{made['table']['id']}/ws")
        assert answer.startswith(b"HTTP/1.1 101")
        sock.sendall(frame(0x1, b'{"type": "\xff"}'))
        frames = read_frames(sock, 5)
        sock.close()
        closes = [payload for opcode, payload in frames if opcode == 0x8]
        assert closes and struct.unpack("!H", closes[0][:2])[0] == 1007


@contextmanager
def pinging(app: Any, interval: float, timeout: float) -> Iterator[int]:
    """A server of ``app`` that pings quiet connections every ``interval`` seconds."""
    listener = bind("127.0.0.1", 0)
    config = server_config(app, listener)
    config.ws_ping_interval, config.ws_ping_timeout = interval, timeout
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    try:
        yield listener.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(15)
        listener.close()


def test_a_quiet_client_is_pinged_and_a_silent_one_dropped(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    # (a timeout of 0.6 s: the client that answers does so from a thread of its own, which
    # a busy machine may hold up for a few tenths of a second)
    with pinging(app, interval=0.3, timeout=0.6) as port:
        made = make_table(port)
        path = f"/api/tables/{made['table']['id']}/ws"
        # A client that answers pings (websockets' does) stays as long as it likes.
        with ws_client.connect(f"ws://127.0.0.1:{port}{path}") as alive:
            alive.send(json.dumps({"type": "join", "token": made["seats"][0]["token"]}))
            assert json.loads(alive.recv(timeout=5))["type"] == "welcome"
            # One that answers nothing is pinged, then dropped.
            began = time.monotonic()  # (before the server last hears from it, at the latest)
            silent, answer = handshake(port, path)
            assert answer.startswith(b"HTTP/1.1 101")
            frames = read_frames(silent, 5)  # until the server drops it
            took = time.monotonic() - began
            silent.close()
            assert 0x9 in [opcode for opcode, _ in frames]  # pinged
            assert 0.5 < took < 3.0, took
            alive.send(json.dumps({"type": "ping", "id": 1}))
            while (answer := json.loads(alive.recv(timeout=5)))["type"] in ("seats", "chat_log"):
                pass  # (its chat's lines; the silent one came and went)
            assert answer == {"type": "pong", "id": 1}


def test_the_address_a_trusted_proxy_forwards_is_the_client(sqlite_url: str) -> None:
    """Behind a proxy (127.0.0.1 is trusted by default) the caps count the forwarded
    address: one connection a client here."""
    caps = dataclasses.replace(Caps.lifted(), connections_per_client=1)
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=caps)
    with serving(app, caps) as port:
        made = make_table(port)
        url = f"ws://127.0.0.1:{port}/api/tables/{made['table']['id']}/ws"

        def connect(address: str) -> Any:
            return ws_client.connect(url, additional_headers={"X-Forwarded-For": address})

        with connect("203.0.113.7") as first, connect("203.0.113.8") as second:
            for ws in (first, second):  # two clients: both in
                ws.send(json.dumps({"type": "ping", "id": 0}))
                assert json.loads(ws.recv(timeout=5))["type"] == "pong"
            with connect("203.0.113.7") as third:  # the first one's second: refused
                error = json.loads(third.recv(timeout=5))
                assert error["code"] == "limit/connections_per_client", error
        # An IPv6 client counts by its /64, as over HTTP: another address of the same
        # block is the same client (one block opened any number of websockets before).
        with connect("2001:db8:1:2::1") as first:
            first.send(json.dumps({"type": "ping", "id": 0}))
            assert json.loads(first.recv(timeout=5))["type"] == "pong"
            with connect("2001:db8:1:2:ffff::9") as same_block:
                error = json.loads(same_block.recv(timeout=5))
                assert error["code"] == "limit/connections_per_client", error
            with connect("2001:db8:1:3::1") as next_block:  # another /64: another client
                next_block.send(json.dumps({"type": "ping", "id": 0}))
                assert json.loads(next_block.recv(timeout=5))["type"] == "pong"
        assert app.state.hub.connections == {}


def test_a_stopping_server_closes_its_websockets_with_1012(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    codes: list[int | None] = []
    with serving(app) as port:
        made = make_table(port)
        url = f"ws://127.0.0.1:{port}/api/tables/{made['table']['id']}/ws"
        ws = ws_client.connect(url).__enter__()
        ws.send(json.dumps({"type": "join", "token": made["seats"][0]["token"]}))
        assert json.loads(ws.recv(timeout=5))["type"] == "welcome"

        def read_to_the_end() -> None:
            try:
                while True:
                    ws.recv(timeout=20)
            except ConnectionClosed as e:
                codes.append(e.rcvd.code if e.rcvd else None)

        reader = threading.Thread(target=read_to_the_end)
        reader.start()
    reader.join(20)
    ws.close()
    assert codes == [1012]


@pytest.mark.parametrize(
    ("extra", "kept"),
    [((), 0), (("Content-Length: 0",), 4)],
    ids=["taken-as-parsed", "parsed-again"],
)
def test_an_open_websocket_keeps_no_task_and_no_handshake_headers(
    sqlite_url: str, extra: tuple[str, ...], kept: int
) -> None:
    """A joined connection waiting for its player has no task of its own, and no
    handshake headers: a plain request uvicorn parsed is not kept at all, one parsed again
    by websockets (its parser keeps it alive) is kept empty."""
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())

    def tasks() -> list[asyncio.Task[Any]]:
        # (type(), not isinstance(): a dead weak proxy among the objects would raise)
        return [o for o in gc.get_objects() if type(o) is asyncio.Task and not o.done()]

    def joined() -> int:
        return sum(1 for o in gc.get_objects() if type(o) is Session and o.joined)

    def wait_for(count: int) -> None:
        deadline = time.monotonic() + 5
        while joined() < count and time.monotonic() < deadline:
            time.sleep(0.05)
        assert joined() == count
        time.sleep(0.2)  # (their welcomes are written)

    with serving(app) as port:
        made = make_table(port, seats=4)
        path = f"/api/tables/{made['table']['id']}/ws"
        socks = []
        try:
            # (Opened by hand, not with a client library, whose own request objects would
            # be counted too.)
            for i, seat in enumerate(made["seats"]):
                sock, answer = handshake(port, path, *extra)
                assert answer.startswith(b"HTTP/1.1 101")
                join = json.dumps({"type": "join", "token": seat["token"]})
                sock.sendall(frame(0x1, join.encode()))
                socks.append(sock)
                if i == 0:  # the table is loaded: what is alive now, more connections aside
                    wait_for(1)
                    before = len(tasks())
            wait_for(4)
            assert len(tasks()) == before  # no task for any of the three new connections
            requests = [o for o in gc.get_objects() if type(o) is Request and o.path == path]
            assert len(requests) == kept and [len(r.headers) for r in requests] == [0] * kept
        finally:
            for sock in socks:
                sock.close()


def text_frame(payload: dict[str, Any]) -> bytes:
    return frame(0x1, json.dumps(payload).encode())


def close_frame(code: int = 1000) -> bytes:
    return frame(0x8, struct.pack("!H", code))


def test_frames_that_come_with_the_clients_close_are_handled(sqlite_url: str) -> None:
    """A client that says something and closes, in one write (a last chat line, a seat
    handed to a bot as it leaves): what it said counts."""
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    with serving(app) as port:
        made = make_table(port)
        path = f"/api/tables/{made['table']['id']}/ws"
        with ws_client.connect(f"ws://127.0.0.1:{port}{path}") as watcher:
            watcher.send(json.dumps({"type": "join"}))
            sock, answer = handshake(port, path)
            assert answer.startswith(b"HTTP/1.1 101")
            sock.sendall(text_frame({"type": "join", "token": made["seats"][0]["token"]}))
            time.sleep(0.3)
            sock.sendall(text_frame({"type": "chat", "text": "bye all"}) + close_frame())
            frames = read_frames(sock, 5)
            sock.close()
            assert frames[-1][0] == 0x8  # the close answered
            lines = []
            deadline = time.monotonic() + 5
            while not lines and time.monotonic() < deadline:
                got = json.loads(watcher.recv(timeout=5))
                if got["type"] == "chat":
                    lines.append(got["text"])
            assert lines == ["bye all"]


def test_a_client_that_closes_while_reading_nothing_is_let_go(sqlite_url: str) -> None:
    """It stopped reading (the server's buffers full), then sent its close: the server's
    answer can never be written, so the connection is dropped, and its session with it,
    within the close's wait."""
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    with serving(app) as port:
        made = make_table(port)
        tid = made["table"]["id"]
        stuck, answer = handshake(port, f"/api/tables/{tid}/ws")
        assert answer.startswith(b"HTTP/1.1 101")
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        stuck.sendall(text_frame({"type": "join"}))
        hub = app.state.hub
        deadline = time.monotonic() + 5
        while not hub.connections and time.monotonic() < deadline:
            time.sleep(0.05)
        assert hub.connections
        # (type(), not isinstance(): a dead weak proxy among the objects would raise)
        found = [o for o in gc.get_objects() if issubclass(type(o), wire_module.Wire)]
        wires = [o for o in found if o.session is not None]
        assert len(wires) == 1
        for _ in range(300):  # pongs it never reads, until the server's writing pauses
            stuck.sendall(
                b"".join(text_frame({"type": "ping", "id": "x" * 4000}) for _ in range(20))
            )
            time.sleep(0.02)
            if not wires[0].writable:
                break
        assert not wires[0].writable
        stuck.sendall(close_frame())
        began = time.monotonic()
        table = hub.tables[tid]
        while (hub.connections or table.sessions) and time.monotonic() - began < 10:
            time.sleep(0.05)
        took = time.monotonic() - began
        stuck.close()
        assert hub.connections == {} and table.sessions == 0 and not table.listeners
        assert took < wire_module.CLOSE_SECONDS + 2, took


def test_a_table_that_fails_to_open_closes_its_socket_with_1011(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    hub = app.state.hub

    async def failing(table_id: str) -> Any:
        raise RuntimeError("the database is down")

    monkeypatch.setattr(hub, "get", failing)
    with serving(app) as port, ws_client.connect(f"ws://127.0.0.1:{port}/api/tables/x/ws") as ws:
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
    assert hub.connections == {}


def test_a_refused_socket_with_frames_waiting_closes_cleanly(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Frames sent while the table was looked up wait (reading paused); the refusal
    drops them and reads the client's close reply: the server closes at once, no reset."""
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    hub = app.state.hub
    get = hub.get

    async def slow(table_id: str) -> Any:
        await asyncio.sleep(0.3)  # a table loaded from a busy database
        return await get(table_id)

    monkeypatch.setattr(hub, "get", slow)
    with serving(app) as port:
        sock, answer = handshake(port, "/api/tables/nosuch/ws")
        assert answer.startswith(b"HTTP/1.1 101")
        sock.sendall(text_frame({"type": "ping"}) * 3)
        sock.settimeout(5)
        data = b""
        while b"\x88" not in data:
            data += sock.recv(4096)
        sock.sendall(close_frame(4404))
        began = time.monotonic()
        while sock.recv(4096):  # a reset (the connection aborted) would raise here
            pass
        took = time.monotonic() - began
        sock.close()
        assert took < 1.0, took


def answer_pings(sock: socket.socket, seconds: float) -> tuple[int, float | None]:
    """Answer every ping the server sends for ``seconds``: the pings answered, and when
    the server dropped the connection (``None``: it did not)."""
    sock.settimeout(0.05)
    buffer, pings, began = b"", 0, time.monotonic()
    while time.monotonic() - began < seconds:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return pings, time.monotonic() - began
        if not chunk:
            return pings, time.monotonic() - began
        buffer += chunk
        while len(buffer) >= 2 and (buffer[1] & 0x7F) < 126 and len(buffer) >= 2 + buffer[1]:
            opcode, n = buffer[0] & 0x0F, buffer[1] & 0x7F
            payload, buffer = buffer[2 : 2 + n], buffer[2 + n :]
            if opcode == 0x9:
                pings += 1
                sock.sendall(frame(0xA, payload))
    return pings, None


def test_a_client_that_answers_pings_is_never_dropped_whatever_the_sweeps_phase(
    sqlite_url: str,
) -> None:
    """With a ping timeout shorter than the interval, a client that goes quiet just after
    a sweep is pinged before it can be dropped (it was dropped unpinged half the time:
    quiet for 0.3-0.9 s at a sweep of every 1 s, too little for a ping and, at the next,
    too long to be let stay)."""
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    with pinging(app, interval=1.0, timeout=0.3) as port:
        made = make_table(port)
        path = f"/api/tables/{made['table']['id']}/ws"
        # The first connection starts the sweeps (every second, had they the interval's
        # period), and keeps them going; the others go quiet half a second or more after one.
        with ws_client.connect(f"ws://127.0.0.1:{port}{path}"):
            first = time.monotonic()
            for offset in (0.5, 0.6, 0.0):
                due = first + offset
                while due < time.monotonic():
                    due += 1.0
                time.sleep(due - time.monotonic())
                sock, answer = handshake(port, path)
                assert answer.startswith(b"HTTP/1.1 101")
                sock.sendall(text_frame({"type": "ping"}))
                pings, dropped = answer_pings(sock, 2.5)
                sock.close()
                assert dropped is None and pings >= 1, (offset, pings, dropped)


def test_the_close_reply_after_more_frames_is_read(sqlite_url: str) -> None:
    """After the server's close the client may still send what it had (a kilobyte here)
    before its close reply, in one write: the reply is read and the connection ends at
    once, not after the close's wait."""
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    with serving(app) as port:
        sock, answer = handshake(port, "/api/tables/nosuch/ws")
        assert answer.startswith(b"HTTP/1.1 101")
        sock.settimeout(5)
        data = b""
        while b"\x88" not in data:  # refused: 4404
            data += sock.recv(4096)
        late = text_frame({"type": "ping", "pad": "x" * 100}) * 8
        assert len(late) > wire_module.WS_CHUNK
        sock.sendall(late + close_frame(4404))
        began = time.monotonic()
        while sock.recv(4096):
            pass
        took = time.monotonic() - began
        sock.close()
        assert took < 1.0, took


def test_a_frame_being_handled_when_the_server_stops_is_finished_first(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """uvicorn waits for the server's tasks when it stops: a frame's task is one (a join
    here, slowed down), so it is done before the app's shutdown stores and closes."""
    events: list[str] = []
    join = Session.join
    started = threading.Event()

    async def slow_join(self: Session, token: Any, made: Any = None) -> None:
        started.set()
        await asyncio.sleep(1.0)
        await join(self, token, made)
        events.append("joined")

    monkeypatch.setattr(Session, "join", slow_join)
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    hub = app.state.hub
    close = hub.close

    async def closing() -> None:
        events.append("hub closes")
        await close()

    monkeypatch.setattr(hub, "close", closing)
    with serving(app) as port:
        made = make_table(port)
        url = f"ws://127.0.0.1:{port}/api/tables/{made['table']['id']}/ws"
        with ws_client.connect(url) as ws:
            ws.send(json.dumps({"type": "join", "token": made["seats"][0]["token"]}))
            assert started.wait(10)  # (the frame is being handled when the server stops)
    assert events == ["joined", "hub closes"]


@pytest.mark.parametrize("length", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_text_frames_head_is_the_one_websockets_makes(length: int) -> None:
    """The wire writes its text frames' heads itself: byte for byte websockets' own
    (unmasked, unfragmented), at every length encoding's edge."""
    payload = b"x" * length
    made = wire_module.text_frame_head(length) + payload
    assert made == Frame(Opcode.TEXT, payload).serialize(mask=False)


def app_ping(ref: str) -> bytes:
    return frame(0x1, json.dumps({"type": "ping", "id": ref}).encode())


def pongs(frames: list[tuple[int, bytes]]) -> list[str]:
    """The ids of the table's pong frames, in order ("ws" for a websocket pong)."""
    out = []
    for opcode, payload in frames:
        if opcode == 0xA:
            out.append("ws")
        elif opcode == 0x1 and json.loads(payload).get("type") == "pong":
            out.append(json.loads(payload)["id"])
    return out


def test_frames_read_in_one_piece_are_each_handled_in_order(sqlite_url: str) -> None:
    """One read holding plain text frames (read by the wire itself) and others, which
    websockets' parser reads from the first of them on: a ping, a fragmented message, a
    frame with a 16-bit length, a frame cut between two reads. Each answered in order."""
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    with serving(app) as port:
        made = make_table(port)
        sock, answer = handshake(port, f"/api/tables/{made['table']['id']}/ws")
        assert answer.startswith(b"HTTP/1.1 101")
        long = json.dumps({"type": "ping", "id": "long", "pad": "x" * 200}).encode()
        assert 126 <= len(long) < 512
        cut = app_ping("cut")
        sock.sendall(
            app_ping("a")
            + app_ping("b")
            + frame(0x9, b"hello")  # a websocket ping: websockets' from here on
            + app_ping("c")
            + frame(0x1, b'{"type": "ping", ', fin=False)
            + frame(0x0, b'"id": "fragments"}')
            + frame(0x1, long)
            + cut[:5]
        )
        time.sleep(0.2)
        sock.sendall(cut[5:] + app_ping("d") + frame(0x1, long))
        time.sleep(0.2)
        sock.sendall(frame(0x1, long.replace(b'"long"', b'"long2"')) + app_ping("e"))
        frames = read_frames(sock, 1.5)
        sock.close()
    # (websockets answers a ping as it reads it; the table's frames take a turn each)
    answered = pongs(frames)
    assert answered.count("ws") == 1
    expected = ["a", "b", "c", "fragments", "long", "cut", "d", "long", "long2", "e"]
    assert [p for p in answered if p != "ws"] == expected


def test_a_frame_cut_after_its_mask_is_read_whole_over_a_real_server(sqlite_url: str) -> None:
    """A client writing a frame's head and its payload apart, with a mask that makes its
    masked payload begin as a plain frame's head: the payload is not read as a frame (the
    review's case: the ping was lost, and what followed misread)."""
    payload = json.dumps({"type": "ping", "id": "x1"}).encode()
    n = len(payload) - 6
    mask = bytes([payload[0] ^ 0x81, payload[1] ^ (0x80 | n), 0x11, 0x22])
    head = bytes([0x81, 0x80 | len(payload)]) + mask
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    assert masked[:2] == bytes([0x81, 0x80 | n])
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    with serving(app) as port:
        made = make_table(port)
        sock, answer = handshake(port, f"/api/tables/{made['table']['id']}/ws")
        assert answer.startswith(b"HTTP/1.1 101")
        sock.sendall(head)
        time.sleep(0.2)
        sock.sendall(masked + app_ping("after"))
        frames = read_frames(sock, 1.0)
        sock.close()
    assert pongs(frames) == ["x1", "after"]
    assert not [p for opcode, p in frames if opcode == 0x8]  # (not closed)


@pytest.mark.parametrize(
    ("pieces", "code"),
    [
        ([app_ping("a") + frame(0x1, b'{"type": ', fin=False) + app_ping("b")], 1002),
        ([frame(0x1, b'{"type": ', fin=False), app_ping("b")], 1002),  # (two reads)
        ([app_ping("a") + b"\x81\x0b" + b'{"type": 1}'], 1002),  # not masked
        ([app_ping("a") + bytes([0xC1]) + frame(0x1, b"{}")[1:]], 1002),  # a reserved bit
        ([app_ping("a") + frame(0x1, b'{"id": "\xff"}')], 1007),
    ],
    ids=[
        "a new message inside a fragmented one",
        "the same in two reads",
        "unmasked",
        "rsv1",
        "utf-8",
    ],
)
def test_a_frame_websockets_refuses_is_refused_after_those_before_it(
    sqlite_url: str, pieces: list[bytes], code: int
) -> None:
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=Caps.lifted())
    with serving(app) as port:
        made = make_table(port)
        sock, _ = handshake(port, f"/api/tables/{made['table']['id']}/ws")
        for piece in pieces:
            sock.sendall(piece)
            time.sleep(0.1)
        frames = read_frames(sock, 3)
        sock.close()
    closes = [payload for opcode, payload in frames if opcode == 0x8]
    assert closes and struct.unpack("!H", closes[0][:2])[0] == code
    assert "b" not in pongs(frames)  # nothing after the refused frame is handled


KEY = base64.b64encode(b"0123456789abcdef").decode()
LONG_KEY = base64.b64encode(b"x" * 17).decode()
PLAIN = [
    ("Host", "127.0.0.1"),
    ("Upgrade", "websocket"),
    ("Connection", "Upgrade"),
    ("Sec-WebSocket-Key", KEY),
    ("Sec-WebSocket-Version", "13"),
]
HEADER_CHOICES = {
    "Upgrade": [
        "websocket",
        "WebSocket",
        "websocket, h2c",
        "websocket/13",
        "",
        "h2c",
        "\xa0websocket",  # (a space Python strips and HTTP does not)
        "websocket\x85",
    ],
    "Connection": [
        "Upgrade",
        "keep-alive, Upgrade",
        "upgrade",
        "close",
        ", upgrade",
        '"upgrade"',
        "Upgrade, \xa0foo",
        "\x85Upgrade",
    ],
    "Sec-WebSocket-Key": [
        KEY,
        KEY[:-2],
        KEY + "==",
        "!" * 24,
        base64.b64encode(b"x" * 17).decode(),
    ],
    "Sec-WebSocket-Version": ["13", "8", "13, 8", ""],
    "Origin": ["https://a.example", "null"],
    "Sec-WebSocket-Protocol": ["chat", "bad protocol"],
    "Sec-WebSocket-Extensions": ["permessage-deflate; client_max_window_bits", "x;;"],
}


def websockets_answer(pairs: list[tuple[str, str]]) -> Response:
    return ServerProtocol(max_size=1 << 20).accept(Request("/api/tables/T/ws", Headers(pairs)))


@settings(max_examples=400, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(sorted(HEADER_CHOICES)),
        st.lists(st.integers(0, 9), min_size=0, max_size=2),
    )
)
def test_the_plain_handshake_answers_only_what_websockets_accepts_and_as_it_does(
    changes: dict[str, list[int]],
) -> None:
    """Any mix of headers (each left as is, dropped, given once or twice): where the wire
    answers an upgrade request itself, websockets accepts it with the same answer (all
    but the date); where websockets refuses it, the wire leaves it to websockets."""
    pairs = [(k, v) for k, v in PLAIN if k not in changes]
    for name, picks in changes.items():
        options = HEADER_CHOICES[name]
        pairs += [(name, options[i % len(options)]) for i in picks]
    ours = wire_module.plain_accept(Headers(pairs))
    theirs = websockets_answer(pairs)
    if ours is None:
        return
    assert theirs.status_code == ours.status_code == 101
    assert [(k, v) for k, v in ours.headers.raw_items() if k != "Date"] == [
        (k, v) for k, v in theirs.headers.raw_items() if k != "Date"
    ]
    assert ours.headers["Date"].endswith(" GMT")


def test_the_usual_upgrade_requests_take_the_plain_handshake() -> None:
    """A browser's (extensions offered, an origin) and a bare one's: answered by the wire
    (else the plain path would never run), as websockets would."""
    browser = [
        *PLAIN,
        ("Origin", "https://a.example"),
        ("Sec-WebSocket-Extensions", "permessage-deflate"),
    ]
    for pairs in (
        PLAIN,
        browser,
        [(k, v.lower()) if k == "Connection" else (k, v) for k, v in PLAIN],
    ):
        ours = wire_module.plain_accept(Headers(pairs))
        assert ours is not None and ours.status_code == 101
        assert (
            ours.headers["Sec-WebSocket-Accept"]
            == websockets_answer(pairs).headers["Sec-WebSocket-Accept"]
        )
