"""Running the app on uvicorn as ``thievery serve`` does (tests and benchmarks use it too).

uvicorn times out idle keep-alive connections but not a request whose headers never
finish: 20,000 sockets each sending a header line now and then (slowloris) held every
connection slot. :func:`guarded` gives uvicorn's HTTP protocol a deadline for a request's
headers; a connection that misses it is closed.

uvicorn's websocket protocol parses whatever one read brought (up to 256 KiB) at once: a
client streaming tiny frames made one such parse take 0.3 s, every table waiting.
:func:`paced` feeds it at most ``WS_CHUNK`` bytes per turn of the event loop.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.datastructures import Headers

from thievery.server.limits import Caps


def guarded(base: type[asyncio.Protocol], seconds: float) -> type[asyncio.Protocol]:
    """``base`` (uvicorn's h11 or httptools protocol) with a deadline of ``seconds`` for
    each request's headers, from the connection's start or from the first byte of a later
    request on a kept-alive connection."""

    class HeaderDeadline(base):  # type: ignore[valid-type,misc]
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.get_protocol() is not self:  # upgraded to a websocket:
                self._disarm()  # (the timer would keep this protocol alive for nothing)
                if getattr(self, "parser", None) is not None:
                    # As uvicorn does when a connection is lost (an upgraded one never
                    # is, for this protocol): its parser calls this protocol's methods, a
                    # cycle freed only by a full garbage collection.
                    self.parser = None
            elif self._waiting():
                self._arm()
            else:
                self._disarm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _waiting(self) -> bool:
            cycle = getattr(self, "cycle", None)
            return cycle is None or bool(cycle.response_complete)

        def _arm(self) -> None:
            if self._deadline is None:
                loop = asyncio.get_running_loop()
                self._deadline = loop.call_later(seconds, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            self._deadline = None
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return  # closed already, or upgraded to a websocket
            if self._waiting():
                transport.close()

    HeaderDeadline.__name__ = f"HeaderDeadline{base.__name__}"
    return HeaderDeadline


WS_CHUNK = 512  # bytes of websocket input parsed per turn of the event loop
# An ASGI scope extension of our websocket protocol: ``send_now(text) -> bool`` writes a
# text frame at once when it can (see Paced._send_now), sparing a connection's sender task
# a wake-up for every frame.
SEND_NOW = "thievery.send_now"
CLOSE_SECONDS = 3.0  # for a client to answer the server's close; then it is dropped


class Inbox:
    """A websocket's received messages until the app reads them: what uvicorn's protocol
    uses of an :class:`asyncio.Queue` (``put_nowait``, ``get``, ``empty``), as a list and
    one future made only while the app waits. A queue is three deques and more, ~3 KB for
    each connection's life, and holds at most a message or two: uvicorn stops reading
    until the app has taken what came."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[Any] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> Any:
        """The oldest message, once there is one (one reader at a time)."""
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        return self._items.pop(0)

    def empty(self) -> bool:
        return not self._items


def paced(base: type[asyncio.Protocol], chunk: int = WS_CHUNK) -> type[asyncio.Protocol]:
    """``base`` (uvicorn's websocket protocol) fed at most ``chunk`` bytes per turn of the
    event loop; reading pauses while a backlog is worked through (so it is bounded). Once
    the server has closed the connection (a flood, a reader too slow), whatever else the
    client sends is dropped unparsed. A close while the client reads nothing (the send
    buffer full) drops the connection instead of waiting for room for the close frame, and
    a client that does not answer a close within :data:`CLOSE_SECONDS` is dropped. Its scope
    offers :data:`SEND_NOW`."""

    class Paced(base):  # type: ignore[valid-type,misc]
        _backlog: bytearray | None = None
        close_timeout: float  # (uvicorn's)

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.queue = Inbox()

        def data_received(self, data: bytes) -> None:
            if getattr(self, "close_sent", False):
                self._backlog = None
                super().data_received(data[:chunk])  # the client's close reply, if any
                return
            if self._backlog is not None:
                self._backlog += data
                return
            if len(data) <= chunk:
                super().data_received(data)
                return
            self._backlog = bytearray(data)
            self.transport.pause_reading()
            asyncio.get_running_loop().call_soon(self._next)

        async def send(self, message: Any) -> None:
            writable = getattr(self, "writable", None)
            if (
                message.get("type") == "websocket.close"
                and isinstance(writable, asyncio.Event)
                and not writable.is_set()
                and getattr(self, "handshake_complete", False)
            ):
                # A client that reads nothing (a full send buffer) would never get the
                # close frame, and the close would wait for it: drop the connection.
                self.transport.abort()
                return
            await super().send(message)
            timer = getattr(self, "close_timer", None)
            if message.get("type") == "websocket.close" and timer is not None:
                # A client that never answers the close (it reads nothing) is dropped when
                # the wait is over. uvicorn's transport.close() would wait for the unread
                # frames to drain first, forever: the connection, and its session, stayed
                # open for minutes.
                timer.cancel()
                self.close_timer = self.loop.call_later(self.close_timeout, self.transport.abort)
            if message.get("type") == "websocket.accept":
                # The handshake's response (its headers) is sent: not kept for the
                # connection's life.
                self.response = None

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            # The handshake request stays alive as long as the connection (a local of
            # websockets' parser generator), and its headers (parsed into ~2.5 KB of
            # objects) are read by nobody after this: the scope has its own copy.
            event.headers = Headers()
            # uvicorn waits 10 s for the answer to a close: a client that reads nothing
            # (cut off for it) held its connection and session that long.
            self.close_timeout = min(self.close_timeout, CLOSE_SECONDS)
            scope = getattr(self, "scope", None)
            if scope is not None and isinstance(scope.get("extensions"), dict):
                scope["extensions"][SEND_NOW] = self._send_now

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            scope = getattr(self, "scope", None)
            if scope is not None and isinstance(scope.get("extensions"), dict):
                # Its scope held this protocol's _send_now: a cycle freed only by a full
                # garbage collection.
                scope["extensions"].pop(SEND_NOW, None)

        def _send_now(self, text: str) -> bool:
            """Write a text frame now, if nothing stands in its way: the handshake done, no
            close sent, the transport open and below its high-water mark. Else ``False``:
            the caller sends it the ASGI way."""
            if (
                not getattr(self, "handshake_complete", False)
                or getattr(self, "close_sent", True)
                or getattr(self, "disconnected", True)
                or getattr(self, "initial_response", None) is not None
                or not self.writable.is_set()
                or self.transport.is_closing()
            ):
                return False
            try:
                self.conn.send_text(text.encode())
                self.transport.write(b"".join(self.conn.data_to_send()))
            except Exception:  # the connection's state says no: the ASGI way tells
                return False
            return True

        def _next(self) -> None:
            backlog = self._backlog
            if backlog is None or self.transport.is_closing() or getattr(self, "close_sent", False):
                self._backlog = None
                return
            piece = bytes(backlog[:chunk])
            del backlog[:chunk]
            super().data_received(piece)
            if backlog and not self.transport.is_closing():
                asyncio.get_running_loop().call_soon(self._next)
                return
            self._backlog = None
            if not getattr(self, "read_paused", False) and not self.transport.is_closing():
                self.transport.resume_reading()

    Paced.__name__ = f"Paced{base.__name__}"
    return Paced


def server_config(
    app: Any,
    listener: socket.socket,
    *,
    caps: Caps | None = None,
    log_level: str = "warning",
    limit_concurrency: int | None = None,
) -> uvicorn.Config:
    """uvicorn's configuration for ``app`` on a bound socket: the header deadline, a
    websocket frame cap, keep-alive and shutdown timeouts, optionally a concurrency cap
    (past it uvicorn answers 503)."""
    caps = caps or Caps()
    host, port = listener.getsockname()[:2]
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=guarded(AutoHTTPProtocol, caps.header_timeout),
        ws=paced(WebSocketsSansIOProtocol),
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,  # frames are small; compressing them costs more CPU
        timeout_keep_alive=5,
        timeout_graceful_shutdown=5,
        limit_concurrency=limit_concurrency,
        h11_max_incomplete_event_size=64 << 10,
    )


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: any free port)."""
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError:
        listener.close()
        raise
    return listener
