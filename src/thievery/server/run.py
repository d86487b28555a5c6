"""Running the app on uvicorn as ``thievery serve`` does (tests and benchmarks use it too).

uvicorn times out idle keep-alive connections but not a request whose headers never
finish: 20,000 sockets each sending a header line now and then (slowloris) held every
connection slot. :func:`guarded` gives uvicorn's HTTP protocol a deadline for a request's
headers; a connection that misses it is closed.

The tables' websockets are served by :mod:`~thievery.server.wire`'s protocol on the
connection itself, not by uvicorn's ASGI websocket protocol. :class:`ThieveryServer` is
uvicorn's server with, for ``--workers N``, the end of the worker processes' hand-over of
connections (:mod:`~thievery.server.handoff`).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any, TypeAlias

import uvicorn
from uvicorn.logging import TRACE_LOG_LEVEL
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from thievery.server.handoff import Handoff
from thievery.server.limits import Caps
from thievery.server.wire import Wire, wire_protocol

log = logging.getLogger("thievery.server")


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

        def handle_websocket_upgrade(self, *event: Any) -> None:
            """uvicorn's hand-over to the websocket protocol, which writes the parsed
            request out again for the protocol to parse; to a :class:`Wire` (from
            httptools' parser, which takes no ``event``) it is handed as parsed."""
            wire = self.ws_protocol_class
            scope = getattr(self, "scope", None)
            if event or scope is None or not (isinstance(wire, type) and issubclass(wire, Wire)):
                super().handle_websocket_upgrade(*event)
                return
            if self.logger.level <= TRACE_LOG_LEVEL:
                self.logger.log(TRACE_LOG_LEVEL, "%s - Upgrading to WebSocket", self.client)
            self.connections.discard(self)
            protocol = wire(
                config=self.config, server_state=self.server_state, app_state=self.app_state
            )
            protocol.connection_made(self.transport)
            self.transport.set_protocol(protocol)
            protocol.upgrade(scope["method"], self.url, scope["headers"])

        def _waiting(self) -> bool:
            cycle = getattr(self, "cycle", None)
            return cycle is None or bool(cycle.response_complete)

        def _arm(self) -> None:
            if self._deadline is None:
                loop = getattr(self, "loop", None) or asyncio.get_running_loop()  # (uvicorn's)
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
        ws=wire_protocol(app) if hasattr(app, "sockets") else "websockets-sansio",
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,  # frames are small; compressing them costs more CPU
        timeout_keep_alive=5,
        timeout_graceful_shutdown=5,
        limit_concurrency=limit_concurrency,
        h11_max_incomplete_event_size=64 << 10,
    )


BACKLOG = 2048  # connections waiting to be accepted, a socket (uvicorn's default)


def bind(host: str, port: int, reuse_port: bool = False) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: any free port); with ``reuse_port``,
    one that other sockets of this user may share the port with (SO_REUSEPORT)."""
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        listener.bind((host, port))
    except OSError:
        listener.close()
        raise
    return listener


# Linux balances the listening sockets that share a port (SO_REUSEPORT) by a hash of each
# connection's addresses; BSD and macOS give every connection to one of them.
SPREADS = sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def bind_each(host: str, port: int, count: int) -> list[socket.socket]:
    """``count`` listening sockets on one port (0: any free port), one a worker process.

    Each its own socket on the port (SO_REUSEPORT), the kernel spreads new connections
    over them evenly; a table belongs to the worker its creation request reached, so the
    workers get even shares of the tables that distinct connections make. (On one socket
    shared by every worker, a connection goes to whichever wins the race to accept it: of
    100 tables made one at a time, 50 ms apart, one worker took 70–75.) Where the kernel
    does not spread them (not Linux, or SO_REUSEPORT refused), one socket is shared.

    The port is first bound by a socket that does not share it, so a port another server
    listens on is refused as with one process (sockets of one user that all share a port
    would otherwise split its connections); the sockets listen at once, so connections
    that come before their workers have started (or before the one process has restored
    its tables and started) wait for them, instead of being refused. A worker started again
    binds a socket of its own once it is ready (:func:`own_socket`): the dead one's socket
    is closed, and until then its siblings take every connection."""
    if count == 1 or not SPREADS:
        shared = bind(host, port)
        shared.listen(BACKLOG)  # (at once, as below: the URL printed then is reachable)
        return [shared] * count
    probe = bind(host, port)  # (OSError if the port is taken; else a free one, for port 0)
    port = probe.getsockname()[1]
    probe.close()
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sockets.append(own_socket((host, port)))
    except OSError as e:
        for sock in sockets:
            sock.close()
        if e.errno in (errno.ENOPROTOOPT, errno.EINVAL) and not sockets:
            return [bind(host, port)] * count  # (a kernel without SO_REUSEPORT)
        raise
    return sockets


Where: TypeAlias = socket.socket | tuple[str, int]  # a listening socket, or where to bind one


def own_socket(where: Where) -> socket.socket:
    """The socket a worker serves on: the one it was given, or one it binds on the port
    its siblings share (a worker started again: see :func:`bind_each`)."""
    if isinstance(where, socket.socket):
        return where
    sock = bind(where[0], where[1], reuse_port=True)
    sock.listen(BACKLOG)
    return sock


class ThieveryServer(uvicorn.Server):
    """uvicorn's server; with ``handoff`` (a folder its sibling worker processes share, on
    PostgreSQL), it takes the connections they hand it and hands them those of the tables
    it does not own (see :mod:`~thievery.server.handoff`)."""

    def __init__(
        self, config: uvicorn.Config, handoff: Path | None = None, parent: int | None = None
    ) -> None:
        super().__init__(config)
        self.handoff_folder = handoff
        self.handoff: Handoff | None = None
        self.parent = parent  # a worker's parent process: stop once it is gone
        self.orphaned = False

    async def on_tick(self, counter: int) -> bool:
        """uvicorn's tick (every 0.1 s); once a second, a worker checks that its parent
        is still its parent (an orphan's is another process)."""
        parent = self.parent
        if parent is not None and counter % 10 == 0 and os.getppid() != parent:
            log.error("the parent process (%d) is gone: this worker stops", parent)
            self.parent = None
            self.orphaned = self.should_exit = True
        return await super().on_tick(counter)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        folder, config = self.handoff_folder, self.config
        hub = getattr(getattr(config.app, "state", None), "hub", None)
        wire = config.ws_protocol_class
        if self.should_exit or folder is None or hub is None or hub.cluster is None:
            return
        if not (isinstance(wire, type) and issubclass(wire, Wire)):
            return
        wires = wire.wires
        loop = asyncio.get_running_loop()

        def adopt(sock: socket.socket, data: bytes) -> None:
            def protocol() -> Wire:
                return wire(config, self.server_state, self.lifespan.state, first=data)

            wires.task(self._adopted(loop, protocol, sock))

        handoff = Handoff(folder, hub.cluster.id, adopt)
        try:
            handoff.start()
        except OSError as e:  # (a socket path too long, a folder gone): served as before
            log.error("connections cannot be handed between workers here: %s", e)
            handoff.close()
            return
        self.handoff = wires.handoff = handoff

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        handoff, self.handoff = self.handoff, None
        if handoff is not None:  # nothing more is handed here, nor from here
            wire = self.config.ws_protocol_class
            if isinstance(wire, type) and issubclass(wire, Wire):
                wire.wires.handoff = None
            handoff.close()
        await super().shutdown(sockets)

    async def _adopted(
        self, loop: asyncio.AbstractEventLoop, protocol: Any, sock: socket.socket
    ) -> None:
        """Serve a connection a sibling handed over, as if this server had accepted it
        (closed with 1012 at once if this server began to stop meanwhile: uvicorn's own
        round of closes may have passed it by)."""
        try:
            _, wire = await loop.connect_accepted_socket(protocol, sock)
        except Exception:
            log.exception("a handed-over connection could not be served")
            sock.close()
            return
        if self.handoff is None:
            wire.shutdown()
