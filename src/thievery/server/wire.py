"""The tables' websockets served on the connection itself, on uvicorn.

uvicorn hands an upgraded connection to its websocket protocol, which runs the ASGI app in
a task for the connection's life: the task, its chain of coroutine frames, a message queue,
events, a scope and a keepalive timer for each connection, and our session's own sender
task beside them (measured with tracemalloc: ~14.6 KB of Python heap a connection, four
times that for a four-player table, for players who mostly sit and think).

:class:`Wire` is the protocol uvicorn uses instead (``server_config`` in :mod:`~.run`). It
parses frames with the websockets library's Sans-I/O :class:`~websockets.server.ServerProtocol`
and hands them to the connection's :class:`~.sockets.Session` directly:

- an idle connection has no task: a frame from the client starts one that handles the
  frames waiting (one per turn of the event loop, in order) and ends;
- frames out are written once the event loop's current callback is done, a connection's
  together in one write (:class:`WireListener`, :meth:`Wire.write`: an update and the ack
  of the action that made it are one system call); text frames are framed here (no
  extension is ever negotiated: permessage-deflate is not offered), control frames by
  websockets; while the transport is over its high-water mark they queue in the listener,
  bounded (a client that reads nothing is cut off), and go when it drains;
- one timer per server pings connections that said nothing for ``ws_ping_interval``
  seconds and fails (1011) those that answer nothing within ``ws_ping_timeout``;
- the tasks handling a connection's frames are the server's (uvicorn waits for them when
  it stops: an action being committed is finished);
- input is parsed at most ``WS_CHUNK`` bytes per turn of the event loop (a client
  streaming tiny frames would otherwise hold every table up), and reading pauses while
  frames wait to be handled; once the server has sent its close, what the client sends
  is dropped, but read (a read of up to ``CLOSING_INPUT`` bytes) for its close reply;
- a close the client does not answer within :data:`~.run.CLOSE_SECONDS` drops the
  connection, and so does a close while the client reads nothing.

The client's address is the connection's, or what X-Forwarded-For says when the peer is a
trusted proxy (uvicorn's ``forwarded_allow_ips``, applied by uvicorn's own middleware).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import email.utils
import logging
import re
import struct
import time
from collections.abc import Coroutine
from typing import Any, ClassVar, cast
from urllib.parse import unquote

from uvicorn.config import Config
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.server import ServerState
from websockets.datastructures import Headers
from websockets.frames import Frame, Opcode
from websockets.http11 import MAX_LINE_LENGTH, MAX_NUM_HEADERS, Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.streams import StreamReader
from websockets.utils import accept_key

try:  # (websockets' own unmasking: its C one, as its parser uses, else its Python one)
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover
    from websockets.utils import apply_mask

from thievery.server.errors import ServerError
from thievery.server.handoff import BUSY_PAUSES, HANDED_HEADER, MAX_REQUEST, Handed, Handoff
from thievery.server.limits import client_key
from thievery.server.listeners import Listener
from thievery.server.live import LiveTable
from thievery.server.sockets import Session, TableSockets, close_code_of, error_frame, table_of

log = logging.getLogger("thievery.server")
WS_CHUNK = 512  # bytes of websocket input parsed per turn of the event loop
CLOSE_SECONDS = 3.0  # for a client to answer the server's close; then it is dropped
HELD_INPUT = 1  # reading paused: input waits to be parsed
HELD_FRAMES = 2  # reading paused: frames wait to be handled
HELD_ROUTE = 4  # reading paused: the connection may be handed to its table's owner
INBOX = 2  # frames waiting to be handled before reading pauses
CLOSING_INPUT = 4 * WS_CHUNK  # a read parsed whole once the server has sent its close


def _let_go(conn: ServerProtocol) -> None:
    """Break the reference cycles a websockets protocol is in once its connection is
    gone (nothing reads from it any more), so reference counting frees it at once rather
    than a full collection later: its parser is a generator that holds the protocol, which
    holds it; the error that ended the parser (an EOFError if the client hung up) and a
    refused handshake's error hold, in their tracebacks, frames that hold the protocol.
    (Attributes of websockets' own, looked up defensively: a release that renamed them
    must not stop a connection's session from leaving.)"""
    parser = getattr(conn, "parser", None)
    if parser is not None:
        parser.close()
    for name in ("parser_exc", "handshake_exc"):
        error = getattr(conn, name, None)
        seen: set[int] = set()
        while error is not None and id(error) not in seen:  # (and what it came from)
            seen.add(id(error))
            error.__traceback__ = None
            error = error.__cause__ or error.__context__


class WireListener(Listener):
    """A listener whose frames go to the connection at once (written when the loop's
    current callback is done: :meth:`Wire.write`); they queue here only while the
    transport is above its high-water mark (and are written when it drains)."""

    __slots__ = ("wire",)

    def __init__(self, wire: Wire, max_bytes: int) -> None:
        super().__init__(None, max_bytes=max_bytes)
        self.wire: Wire | None = wire

    def push(self, text: str) -> None:
        wire = self.wire
        if self.overflowed or wire is None:
            return
        if not self.frames and wire.write(text):
            return
        super().push(text)

    def close(self) -> None:
        wire = self.wire
        if wire is not None and not self.frames:
            wire.end()
        else:
            super().close()


# A text frame's head, as a server sends it (FIN, no mask: RFC 6455, section 5.2) by the
# payload's length: 7 bits, 16 or 64.
_HEAD16 = struct.Struct("!BBH").pack
_HEAD64 = struct.Struct("!BBQ").pack


def text_frame_head(length: int) -> bytes:
    """The head of an unmasked, unfragmented text frame of ``length`` bytes."""
    if length < 126:
        return bytes((0x81, length))
    if length < 65536:
        return _HEAD16(0x81, 126, length)
    return _HEAD64(0x81, 127, length)


_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # an HTTP token (RFC 9110)
_date: tuple[int, str] = (0, "")


def _http_date() -> str:
    """The ``Date`` header's value now (made once a second)."""
    global _date
    now = int(time.time())
    if _date[0] != now:
        _date = (now, email.utils.formatdate(now, usegmt=True))
    return _date[1]


def plain_accept(headers: Headers) -> Response | None:
    """The answer websockets' ``ServerProtocol.accept`` makes, as this server configures it
    (no origins, extensions or subprotocols), to a plain upgrade request: one ``Upgrade:
    websocket``, a ``Connection`` whose tokens hold ``upgrade``, one well-formed
    ``Sec-WebSocket-Key``, one ``Sec-WebSocket-Version: 13``, at most one ``Origin``, no
    ``Sec-WebSocket-Protocol``. ``None`` for any other request, which websockets judges
    (its refusals are its own). A fifth of a handshake's time went to websockets' checks
    and to formatting the date anew."""
    get = headers.get_all
    upgrade, connection = get("Upgrade"), get("Connection")
    keys, versions = get("Sec-WebSocket-Key"), get("Sec-WebSocket-Version")
    if (
        len(upgrade) != 1
        or upgrade[0].strip(" \t").lower() != "websocket"  # (HTTP's spaces only, as websockets)
        or len(keys) != 1
        or len(keys[0]) != 24
        or versions != ["13"]
        or len(get("Origin")) > 1
        or get("Sec-WebSocket-Protocol")
    ):
        return None
    tokens = [t.strip(" \t") for value in connection for t in value.split(",")]
    if not all(_TOKEN.fullmatch(t) for t in tokens) or "upgrade" not in map(str.lower, tokens):
        return None
    try:
        if len(base64.b64decode(keys[0].encode(), validate=True)) != 16:
            return None
    except binascii.Error:
        return None
    answer = Headers()
    answer["Date"] = _http_date()
    answer["Upgrade"] = "websocket"
    answer["Connection"] = "Upgrade"
    answer["Sec-WebSocket-Accept"] = accept_key(keys[0])
    return Response(101, "Switching Protocols", answer)


class Wires:
    """What every connection of one uvicorn server shares: the tables' sockets, the
    proxy rule, the open connections and their keepalive timer."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.config: Config | None = None
        self.max_size = 1 << 20
        self.ping_interval: float | None = None
        self.ping_timeout = 0.0
        self.proxy: ProxyHeadersMiddleware | None = None
        self.open: set[Wire] = set()
        # The loop the connections run on, taken as each one opens: asyncio's
        # get_running_loop makes a system call each time (it checks the process id), which
        # at every frame handled and every flush was 2.5 % of the server's time.
        self.loop: asyncio.AbstractEventLoop | None = None
        self._sweep: asyncio.TimerHandle | None = None
        # The server's tasks (uvicorn waits for them when it stops): a connection's, while
        # it has frames to handle or its table is being opened.
        self.tasks: set[asyncio.Task[None]] = set()
        # Connections with frames not yet written (see Wire.write): written together once
        # the loop's current callback is done.
        self.unflushed: list[Wire] = []
        # With several worker processes: connections handed to the process that owns
        # their table, and from the others (see thievery.server.handoff).
        self.handoff: Handoff | None = None

    def later(self, wire: Wire) -> None:
        """Write ``wire``'s frames once the current callback is done (with the others')."""
        if not self.unflushed:
            (self.loop or asyncio.get_running_loop()).call_soon(self.flush)
        self.unflushed.append(wire)

    def flush(self) -> None:
        """Write every connection's frames queued since the last flush, one write each."""
        wires, self.unflushed = self.unflushed, []
        for wire in wires:
            wire.unflushed = False
            wire._flush()

    def task(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``work`` as one of the server's tasks."""
        task = (self.loop or asyncio.get_running_loop()).create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    @property
    def sweep_every(self) -> float:
        """Seconds between keepalive sweeps."""
        assert self.ping_interval
        return min(self.ping_interval, self.ping_timeout or self.ping_interval)

    def configure(self, config: Config) -> None:
        """Take the server's settings (once: from its first connection)."""
        if self.config is config:
            return
        self.config = config
        self.max_size = config.ws_max_size
        self.ping_interval = config.ws_ping_interval
        self.ping_timeout = config.ws_ping_timeout or 0.0
        self.proxy = None
        if config.proxy_headers:
            self.proxy = ProxyHeadersMiddleware(self._seen, config.forwarded_allow_ips or "")

    @property
    def sockets(self) -> TableSockets | None:
        sockets: TableSockets | None = getattr(self.app, "sockets", None)
        return sockets

    @staticmethod
    async def _seen(scope: Any, receive: Any, send: Any) -> None:
        """The proxy middleware's inner app: the scope it passes on is what counts."""

    async def client_of(self, peer: tuple[str, int] | None, headers: list[Any]) -> str:
        """Who the client is (:func:`client_key`, an IPv6 address by its /64, as over
        HTTP): the peer's address, or the forwarded one from a trusted proxy."""
        if self.proxy is None or peer is None:
            return client_key(peer[0] if peer else "?")
        scope: dict[str, Any] = {"type": "websocket", "client": peer, "headers": headers}
        await self.proxy(scope, self._nothing, self._nothing)  # type: ignore[arg-type]
        client = scope.get("client")
        return client_key(str(client[0]) if client else "?")

    @staticmethod
    async def _nothing(*args: Any) -> Any:
        return None

    def opened(self, wire: Wire) -> None:
        self.loop = loop = asyncio.get_running_loop()
        self.open.add(wire)
        if self._sweep is None and self.ping_interval:
            self._sweep = loop.call_later(self.sweep_every, self.sweep)

    def closed(self, wire: Wire) -> None:
        self.open.discard(wire)
        if not self.open:
            self.loop = None  # (the next connection takes it again: a new run, a new loop)
            if self._sweep is not None:
                self._sweep.cancel()
                self._sweep = None

    def sweep(self) -> None:
        """Ping the connections quiet for ``ws_ping_interval``; drop those that answered
        nothing within ``ws_ping_timeout`` of their ping."""
        assert self.ping_interval
        now = time.monotonic()
        for wire in list(self.open):
            wire.keepalive(now, self.ping_interval, self.ping_timeout)
        loop = asyncio.get_running_loop()
        self._sweep = loop.call_later(self.sweep_every, self.sweep) if self.open else None


class Wire(asyncio.Protocol):
    """One table websocket on uvicorn (see the module). Made by uvicorn once the HTTP
    request asks for an upgrade, with that request as its first data."""

    __slots__ = (
        "backlog",
        "client",
        "close_timer",
        "closing",
        "conn",
        "connections",
        "first",
        "heard",
        "held",
        "inbox",
        "join_timer",
        "opening",
        "out",
        "parts",
        "parts_text",
        "pinged_at",
        "raw",
        "session",
        "table",
        "transport",
        "unflushed",
        "worker",
        "writable",
    )
    wires: ClassVar[Wires]  # (each server's own subclass has its own)

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
        first: bytes = b"",
    ) -> None:
        self.wires.configure(config)
        self.wires.tasks = server_state.tasks  # (one server's: the same set each time)
        self.connections = server_state.connections
        self.conn = ServerProtocol(max_size=self.wires.max_size)
        self.transport: asyncio.Transport | None = None
        self.backlog: bytearray | None = None
        self.held = 0  # why reading is paused (HELD_*)
        self.writable = True
        self.unflushed = False  # frames in ``out`` wait for Wires.flush
        self.out: list[bytes] = []  # text frames written, as bytes (see write)
        self.heard = time.monotonic()
        self.pinged_at = 0.0  # a keepalive ping not answered yet (0: none)
        self.inbox: list[str | None] = []  # frames waiting to be handled (None: binary)
        self.parts: list[bytes] | None = None  # a fragmented message so far
        self.parts_text = False  # (and whether it is text)
        self.session: Session | None = None
        self.table: LiveTable | None = None
        self.client = "?"
        self.opening: asyncio.Task[None] | None = None
        self.worker: asyncio.Task[None] | None = None
        self.join_timer: asyncio.TimerHandle | None = None
        self.close_timer: asyncio.TimerHandle | None = None
        self.closing = False  # the server began the close: what the client sends is dropped
        # A connection handed over by a sibling process: the bytes it read (see connection_made).
        self.first = first
        # What the client sent before the handshake, kept while the connection may still be
        # handed to its table's owner (None: it will not be).
        self.raw: bytearray | None = bytearray() if self.wires.handoff is not None else None

    # The transport's side.

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # (uvloop's is not a subclass)
        self.connections.add(self)  # type: ignore[arg-type]  # (uvicorn's shutdown sees it)
        self.wires.opened(self)
        if self.first:  # handed over: what the sibling read comes first (before any read here)
            # A complete request (of at most MAX_REQUEST bytes): parsed whole, now. (In
            # pieces it would go through the backlog, whose pause of reading does nothing
            # before uvloop has started reading, which it does once this returns.)
            first, self.first, self.raw = self.first, b"", None
            self.heard = time.monotonic()
            self._parse(first)

    def connection_lost(self, exc: Exception | None) -> None:
        self.connections.discard(self)
        self.wires.closed(self)
        self.transport = None
        self.backlog = self.raw = None
        for timer in (self.join_timer, self.close_timer):
            if timer is not None:
                timer.cancel()
        self.join_timer = self.close_timer = None
        # Frames that came before the end are still handled, and one being handled is not
        # cancelled (an action may be committing, a join attaching): the session leaves
        # once they are done, as a table being opened does.
        if self.worker is None:
            if self.inbox and self.session is not None and not self.closing:
                self._work()
            else:
                self._leave()
        _let_go(self.conn)

    def pause_writing(self) -> None:
        self.writable = False

    def resume_writing(self) -> None:
        self.writable = True
        session = self.session
        if session is None:
            return
        listener = session.listener
        while listener.frames and self.writable:
            text = listener.frames.pop(0)
            if text is None:
                self.end()
                return
            listener.queued -= len(text)
            self.write(text)
            self._flush()  # (now: the transport says whether it takes more)

    def data_received(self, data: bytes) -> None:
        self.heard = time.monotonic()
        state = self.conn.state
        if self.raw is not None:
            if state is State.CONNECTING and len(self.raw) + len(data) <= MAX_REQUEST:
                self.raw += data
            else:
                self.raw = None
        if self.closing or (state is not State.OPEN and state is not State.CONNECTING):
            # Only the client's close reply matters now, after what it was still sending: a
            # read of up to CLOSING_INPUT bytes is parsed whole, of a longer one (a flood
            # going on) its first WS_CHUNK bytes (parsing the rest would only keep the
            # connection, and its session, longer); nothing waits in a backlog.
            self.backlog = None
            self._parse(data if len(data) <= CLOSING_INPUT else data[:WS_CHUNK])
            return
        if self.backlog is not None:
            self.backlog += data
            return
        if len(data) <= WS_CHUNK:
            self._parse_plain(data) if state is State.OPEN else self._parse(data)
            return
        self.backlog = bytearray(data)
        self._hold(HELD_INPUT)
        asyncio.get_running_loop().call_soon(self._next)

    def upgrade(self, method: str, target: bytes, headers: list[tuple[bytes, bytes]]) -> None:
        """The upgrade request as uvicorn's HTTP protocol parsed it. A plain one is taken
        as it is (a fifth of a handshake's time went to websockets parsing the request
        uvicorn had written out again from what it parsed); any other, or one that may
        be handed to a sibling process (whose bytes are needed), is written out and
        parsed here as uvicorn does, so websockets refuses what it refuses."""
        plain = (
            self.raw is None
            and method == "GET"
            and target.isascii()
            and len(target) < MAX_LINE_LENGTH // 2
            and len(headers) <= MAX_NUM_HEADERS
            and all(
                len(name) + len(value) < MAX_LINE_LENGTH // 2
                and name not in (b"transfer-encoding", b"content-length")
                for name, value in headers
            )
        )
        if not plain:
            lines = [method.encode(), b" ", target, b" HTTP/1.1\r\n"]
            for name, value in headers:
                lines += [name, b": ", value, b"\r\n"]
            lines.append(b"\r\n")
            self.data_received(b"".join(lines))
            return
        self.heard = time.monotonic()
        pairs = [(name.decode("latin-1"), value.decode("latin-1")) for name, value in headers]
        conn = self.conn
        self._handshake(Request(target.decode("ascii"), Headers(pairs)))
        if conn.state is State.OPEN:
            # websockets' parser still waits for the request: from now on it reads frames
            # (made anew, as websockets does when a handshake is refused).
            conn.parser = conn.parse()
            next(conn.parser)
        self._flush()
        if conn.state is State.CLOSED:
            self._end_transport()

    def eof_received(self) -> bool | None:
        self.conn.receive_eof()
        self._flush()
        return None  # (the transport closes itself)

    def shutdown(self) -> None:
        """The server stops (uvicorn calls this): close with 1012 (service restart)."""
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        self.closing = True
        if self.conn.state is State.OPEN:
            self.conn.send_close(1012)
            self._flush()
        self._end_transport()

    def _next(self) -> None:
        """The next piece of a backlog of input."""
        backlog, transport = self.backlog, self.transport
        if backlog is None or transport is None or transport.is_closing():
            self.backlog = None
            self._release(HELD_INPUT)
            return
        piece = bytes(backlog[:WS_CHUNK])
        del backlog[:WS_CHUNK]
        self._parse(piece)
        if backlog and self.backlog is not None and not transport.is_closing():
            asyncio.get_running_loop().call_soon(self._next)
            return
        self.backlog = None
        self._release(HELD_INPUT)

    def _hold(self, why: int) -> None:
        transport = self.transport
        if not self.held and transport is not None and not transport.is_closing():
            transport.pause_reading()
        self.held |= why

    def _release(self, why: int) -> None:
        if not self.held & why:
            return
        self.held &= ~why
        transport = self.transport
        if not self.held and transport is not None and not transport.is_closing():
            transport.resume_reading()

    def _flush(self) -> None:
        """Write what the websocket protocol has to send, in one write."""
        transport = self.transport
        if transport is None:
            return
        data = self.conn.data_to_send()
        if self.out:
            # The table's frames first: the protocol's own (a pong, a close) are never
            # due before them (a close is flushed as soon as it is made).
            data[:0], self.out = self.out, []
        if not data:
            return
        # An empty piece is the end of the stream (the close handshake is over, or never
        # began): nothing comes after it.
        end = data.index(b"") if b"" in data else len(data)
        if end:
            transport.write(b"".join(data[:end]) if end > 1 else data[0])
        if end < len(data):
            self._end_transport()

    def _end_transport(self) -> None:
        """Close the transport once what it holds is written; a client that reads nothing
        would hold it open forever, so it is dropped after :data:`CLOSE_SECONDS`."""
        transport = self.transport
        if transport is None:
            return
        transport.close()
        if self.close_timer is None:
            loop = self.wires.loop or asyncio.get_running_loop()
            self.close_timer = loop.call_later(CLOSE_SECONDS, transport.abort)

    # The websocket's side.

    def _parse_plain(self, data: bytes) -> None:
        """An open connection's input: its plain frames (whole, masked, unfragmented text
        frames, as every client sends its table frames) read here, from the first other
        one on (a ping, a close, a fragment, a frame cut by the read, anything websockets
        would refuse) by websockets' parser. Reading a plain frame is what websockets'
        does (the same unmasking), without its frame objects and generators: a table
        frame's read took a fifth of its time. Only while that parser is between frames
        (:func:`between_frames`), not inside a fragmented message, and no extension is in
        use."""
        conn = self.conn
        if conn.current_size is not None or conn.extensions or not between_frames(conn):
            self._parse(data)
            return
        limit = conn.max_message_size
        if conn.max_fragment_size is not None:
            limit = min(limit or conn.max_fragment_size, conn.max_fragment_size)
        at, end = 0, len(data)
        while at + 6 <= end and data[at] == 0x81 and data[at + 1] & 0x80:  # FIN, text, masked
            length, head = data[at + 1] & 0x7F, 6
            if length == 126:
                if at + 8 > end:
                    break
                length, head = data[at + 2] << 8 | data[at + 3], 8
            elif length == 127:
                break  # (past WS_CHUNK: never whole here)
            if at + head + length > end or (limit is not None and length > limit):
                break
            start = at + head
            payload = apply_mask(data[start : start + length], data[start - 4 : start])
            at = start + length
            self._message(True, payload)
            if self.closing or conn.state is not State.OPEN:
                break
        if at < end:
            self._parse(data[at:] if at else data)
        else:
            self._flush()

    def _parse(self, data: bytes) -> None:
        conn = self.conn
        conn.receive_data(data)
        for event in conn.events_received():
            if isinstance(event, Request):
                self._handshake(event)
            elif isinstance(event, Frame):
                self._frame(event)
        self._flush()
        if conn.state is State.CLOSED:
            self._end_transport()

    def _handshake(self, request: Request) -> None:
        wires = self.wires
        path = unquote(request.path.partition("?")[0])
        table_id = table_of(path) if wires.sockets is not None else None
        if table_id is not None and self._may_hand_over(request, table_id):
            self._hold(HELD_ROUTE)
            self.opening = wires.task(self._route(request, table_id))
            return
        self._accept(request, table_id)

    def _may_hand_over(self, request: Request, table_id: str) -> bool:
        """Whether to ask which process owns the table first: another might (several
        processes), and the connection was not handed over already."""
        sockets = self.wires.sockets
        if self.raw is None or self.wires.handoff is None or sockets is None:
            return False
        if sockets.hub.cluster is None or HANDED_HEADER.decode() in request.headers:
            return False
        table = sockets.hub.tables.get(table_id)
        return table is None or not table.is_owner

    async def _route(self, request: Request, table_id: str) -> None:
        """Hand the connection to the process that owns its table, if it is a sibling (whose
        queue is full: tried again for up to ~90 ms, BUSY_PAUSES); else serve it here (as a
        follower copy, see cluster)."""
        sockets, handoff = self.wires.sockets, self.wires.handoff
        assert sockets is not None and sockets.hub.cluster is not None
        try:
            owner, alive = await sockets.hub.cluster.owner_of(table_id)
        except Exception:  # the database is unavailable: served here (which tells)
            log.warning("the owner of table %s could not be read", table_id, exc_info=True)
            owner, alive = None, False
        finally:
            self.opening = None
        transport, raw, self.raw = self.transport, self.raw, None
        if transport is None or transport.is_closing() or self.closing:
            return  # gone meanwhile
        tls = transport.get_extra_info("sslcontext") is not None  # (its state stays here)
        if alive and owner and raw is not None and handoff and handoff.can_reach(owner) and not tls:
            for pause in (*BUSY_PAUSES, None):
                sock = transport.get_extra_info("socket")
                handed = handoff.send(owner, sock.fileno(), bytes(raw)) if sock else Handed.FAILED
                if handed is Handed.SENT:
                    # The owner has the connection now: this end is closed without a word.
                    self.closing = True
                    transport.abort()
                    return
                if handed is Handed.FAILED:
                    break
                if pause is None:
                    log.info("the queue of %s stayed full: a connection is served here", owner)
                    break
                await asyncio.sleep(pause)  # (the owner takes what is queued meanwhile)
                if transport.is_closing() or self.closing:
                    return  # gone meanwhile
        self._release(HELD_ROUTE)
        self._accept(request, table_id)
        self._flush()

    def _accept(self, request: Request, table_id: str | None) -> None:
        conn, wires = self.conn, self.wires
        self.raw = None
        if table_id is None:
            response = conn.reject(404, "")
        else:
            response = plain_accept(request.headers) or conn.accept(request)
        headers = [
            (key.lower().encode("latin-1"), value.encode("latin-1"))
            for key, value in request.headers.raw_items()
            if key.lower().startswith("x-forwarded-")
        ]
        # The request stays alive as long as the connection (a local of websockets'
        # parser): its headers (~2.5 KB of objects) are not kept.
        request.headers = Headers()
        conn.send_response(response)
        response.headers = Headers()
        if table_id is None or response.status_code != 101:
            return
        assert self.transport is not None
        peer = self.transport.get_extra_info("peername")
        self.opening = wires.task(self._open(table_id, peer, headers))

    async def _open(self, table_id: str, peer: Any, headers: list[Any]) -> None:
        sockets = self.wires.sockets
        assert sockets is not None
        try:
            self.client = await self.wires.client_of(peer[:2] if peer else None, headers)
            try:
                table, crowded = await sockets.open(table_id, self.client)
            except ServerError as e:
                self._refused(e)
                return
        except Exception:
            log.exception("opening a table's websocket failed")
            self._close(1011)
            return
        finally:
            self.opening = None
        transport = self.transport
        gone = transport is None or transport.is_closing()
        if self.closing or (gone and not self.inbox):
            sockets.close(table, self.client)  # gone (or going) while it opened
            return
        listener = WireListener(self, sockets.hub.caps.send_queue_bytes)
        listener.on_overflow = self._cut
        self.table = table
        session = self.session = sockets.session(table, listener, crowded)
        session.uncancelled = True  # (its frames are handled in tasks nobody cancels)
        if not gone:
            wait = max(0.0, session.join_by - time.monotonic())
            self.join_timer = asyncio.get_running_loop().call_later(wait, self._join_due)
        if self.inbox:
            self._work()  # (what came while it opened; if the client is gone, it leaves then)
        elif transport is None:
            self._leave()

    def _refused(self, error: ServerError) -> None:
        if self.conn.state is State.OPEN:
            self.conn.send_text(error_frame(error.code, error.message).encode())
            self._close(close_code_of(error))

    def _frame(self, frame: Frame) -> None:
        opcode = frame.opcode
        if opcode is Opcode.TEXT or opcode is Opcode.BINARY:
            if frame.fin:
                self._message(opcode is Opcode.TEXT, frame.data)
            else:
                self.parts, self.parts_text = [bytes(frame.data)], opcode is Opcode.TEXT
        elif opcode is Opcode.CONT and self.parts is not None:
            self.parts.append(bytes(frame.data))
            if frame.fin:
                parts, self.parts = self.parts, None
                self._message(self.parts_text, b"".join(parts))
        # (pings are answered, and closes too, by the websockets protocol itself)

    def _message(self, is_text: bool, data: bytes | bytearray | memoryview) -> None:
        if self.closing:
            return  # past the server's close: dropped (frames before the client's are not)
        text: str | None = None
        if is_text:
            try:
                text = bytes(data).decode()
            except UnicodeDecodeError:
                self.closing = True
                self.inbox.clear()
                self._release(HELD_FRAMES)
                self.conn.fail(1007, "invalid UTF-8")
                return
        self.inbox.append(text)
        if len(self.inbox) >= INBOX:
            self._hold(HELD_FRAMES)
        if self.session is not None and self.worker is None:
            self._work()

    def _work(self) -> None:
        self.worker = self.wires.task(self._handle_waiting())

    async def _handle_waiting(self) -> None:
        """Handle the frames waiting, one per turn of the event loop, then end."""
        session = self.session
        assert session is not None
        try:
            while self.inbox and not self.closing:
                await session.handle(self.inbox.pop(0))
                if session.joined and self.join_timer is not None:
                    self.join_timer.cancel()
                    self.join_timer = None
                if session.after_frame():
                    self.inbox.clear()
                    break
                # One frame per turn of the event loop: a connection streaming frames
                # takes its turn with every other table instead of before them. (None
                # waiting: the task ends now rather than a turn later.)
                if self.inbox:
                    await asyncio.sleep(0)
        except Exception:
            log.exception("a table's websocket failed")
            self._close(1011)
        finally:
            self.worker = None
            if self.transport is None:  # gone meanwhile
                self._leave()
            else:
                self._release(HELD_FRAMES)

    def _join_due(self) -> None:
        self.join_timer = None
        session = self.session
        if session is None or session.joined:
            return
        if self.worker is not None:  # a frame is being handled (a join, maybe): after it
            loop = asyncio.get_running_loop()
            self.join_timer = loop.call_later(0.05, self._join_due)
            return
        session.too_late()

    def write(self, text: str) -> bool:
        """Write a text frame once the loop's current callback is done, in one write with
        any others for this connection by then (an update and the ack of the action that
        made it: one system call, not two); ``False`` while the transport is above its
        high-water mark (the caller queues it). A connection on its way out drops it."""
        transport = self.transport
        if self.conn.state is not State.OPEN or transport is None or transport.is_closing():
            return True
        if not self.writable:
            return False
        payload = text.encode()
        if self.conn.extensions:  # (none is negotiated on the wire; were one, websockets')
            self.conn.send_text(payload)
        else:
            # What websockets' send_text makes (a frame object, its checks, a buffer) for
            # a frame that is only ever a head and the payload: 0.15 µs, not 1.5.
            self.out.append(text_frame_head(len(payload)))
            if payload:  # (an empty piece would read as the end of the stream in _flush)
                self.out.append(payload)
        if not self.unflushed:
            self.unflushed = True
            self.wires.later(self)
        return True

    def end(self) -> None:
        """The session's frames are all written: close with its code."""
        session = self.session
        self._close(session.ending_code if session is not None else 1000)

    def _cut(self) -> None:
        """The listener's queue overflowed: the client reads too slowly, or nothing."""
        self._close(1008)

    def _close(self, code: int) -> None:
        transport = self.transport
        if transport is None or transport.is_closing() or self.conn.state is not State.OPEN:
            return
        self.closing = True
        self.inbox.clear()  # (dropped: the server is closing)
        self._release(HELD_FRAMES)  # the client's close reply is read
        # What was read before the close cannot hold the client's reply to it: dropped
        # (a flood's backlog would keep the connection, and its session, for its length).
        self.backlog = None
        self._release(HELD_INPUT)
        if not self.writable:
            # A client that reads nothing would never get the close frame: dropped.
            transport.abort()
            return
        self.conn.send_close(code)
        self._flush()
        if self.join_timer is not None:
            self.join_timer.cancel()
            self.join_timer = None
        if self.close_timer is None and not transport.is_closing():
            loop = asyncio.get_running_loop()
            self.close_timer = loop.call_later(CLOSE_SECONDS, transport.abort)

    def keepalive(self, now: float, interval: float, timeout: float) -> None:
        """Ping if the client has been quiet ``interval`` seconds (short of a sweep's
        jitter); fail the connection (1011) if nothing came within ``timeout`` seconds of
        the ping."""
        transport = self.transport
        if transport is None or transport.is_closing() or self.conn.state is not State.OPEN:
            return
        waiting = self.pinged_at > 0 and self.heard < self.pinged_at
        if waiting:
            if timeout and now - self.pinged_at >= timeout:
                self.closing = True
                self.conn.fail(1011, "keepalive ping timeout")
                self._flush()
        elif now - self.heard >= interval * 0.9:
            self.pinged_at = now
            self.conn.send_ping(b"")
            self._flush()

    def _leave(self) -> None:
        session, table = self.session, self.table
        self.session = self.table = None
        if session is not None:
            listener = session.listener
            session.leave()
            if isinstance(listener, WireListener):
                listener.wire = None  # (a cycle otherwise)
            listener.frames.clear()
            sockets = self.wires.sockets
            if sockets is not None and table is not None:
                with contextlib.suppress(Exception):
                    sockets.close(table, self.client)


_AWAITS_A_FRAME = StreamReader.at_eof.__code__


def between_frames(conn: ServerProtocol) -> bool:
    """Whether websockets' parser waits for a new frame: holds no bytes, and is not in
    the middle of a frame whose head it has read (its buffer is empty then too, until
    the rest comes; a frame read from there would be read from inside its payload). Its
    parser then waits in its reader's ``at_eof``, as it does between frames."""
    if conn.reader.buffer:
        return False
    waiting: Any = conn.parser  # (anything else than generators there: not between)
    while (inner := getattr(waiting, "gi_yieldfrom", None)) is not None:
        waiting = inner
    return getattr(waiting, "gi_code", None) is _AWAITS_A_FRAME


def wire_protocol(app: Any) -> type[Wire]:
    """The protocol class for one uvicorn server of ``app`` (its own :class:`Wires`)."""
    return type("Wire", (Wire,), {"wires": Wires(app), "__slots__": ()})
