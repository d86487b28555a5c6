"""Live play over a websocket: join a table as a seat or a spectator, then act.

Frames are JSON text. From the client::

    {"type": "join", "token": "…"}             # a seat's token; no token: spectator
    {"type": "act", "action": {…}, "version": 7, "id": "optional"}
    {"type": "bot", "bot": "heuristic"}         # hand my seat to a bot (null: take it back)
    {"type": "chat", "text": "good luck!"}      # a seated player's chat line
    {"type": "ping"}

From the server: ``welcome`` (everything the audience may know, the seats and the log),
``update`` (a change it can see: new view, legal actions and visible events), ``seats``,
``next`` (a new table plays again), ``chat`` (a line: ``n``, ``seat``, ``name``, ``text``, ``at``),
``chat_log`` (after the welcome: the table's last lines, see :mod:`~.chat`), ``ack`` (to an
``act`` or ``chat`` with an ``id``), ``pong`` and ``error`` (``code`` and ``message``, and
the request's ``id`` if it had one; nothing changed, the connection stays open) and
``closed`` (the host closed the table). A ``rate/limited`` error without an ``id`` answers
a frame that came too fast and was not read: the client may send it again later.

Caps (:class:`~thievery.server.limits.Caps`): connections per client and per table,
spectators per table, and the bytes queued for a connection: a client that stops reading
is cut off (close code 1008) once its queue is full. The cap per table counts spectators
and sockets that have not joined, never a seat's: a socket that comes when the table is
full may still join with a seat's token as its first frame within ``crowded_grace``
seconds (anything else is refused with ``limit/connections_per_table``, close code 4429).
A socket that has not joined within ``join_seconds`` is closed (``join/timeout``, 4408).

A ``welcome`` frame lists the view's ``static`` keys (e.g. Thieves Den's ``options`` and
card ``catalogue``): they never change, so ``update`` views leave them out and a client
keeps them from the welcome.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from thievery.server.audience import frame_text
from thievery.server.chat import Chat
from thievery.server.errors import ServerError, bad_token
from thievery.server.hub import Hub
from thievery.server.limits import Bucket, too_many
from thievery.server.listeners import Listener
from thievery.server.live import LiveTable
from thievery.server.lobby import Lobby
from thievery.server.run import SEND_NOW


@dataclass(frozen=True)
class Limits:
    """Per-connection limits: frame size in characters, and a rate (frames per second)."""

    max_frame: int = 4096
    rate: float = 20.0
    burst: float = 40.0
    # Rate-limited frames tolerated: this many at once, refilled at ``rate`` a second; a
    # client sending faster for long (a frame flood) is closed.
    max_refusals: int = 500
    # Joins (each sends a whole welcome frame, the costly one): a rate and a burst.
    join_rate: float = 2.0
    join_burst: float = 5.0
    # Chat lines of one seat (all its connections): a rate and a burst.
    chat_rate: float = 1.0
    chat_burst: float = 5.0


def error_frame(code: str, message: str, ref: Any = None) -> str:
    """An error frame as text."""
    frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        frame["id"] = ref
    return json.dumps(frame)


async def _sender(session: Session) -> None:
    websocket, listener = session.websocket, session.listener
    while True:
        text = await listener.next()
        if text is None:
            with contextlib.suppress(Exception):
                await websocket.close(1008 if listener.overflowed else session.close_code)
            return
        await websocket.send_text(text)


async def _finished(sender: asyncio.Task[None]) -> None:
    """Wait for a sender told to close to send what it has and close."""
    await asyncio.wait({sender}, timeout=5.0)


class Session:
    """One websocket connection to one table.

    ``crowded``: it came when the table had its cap of spectators and sockets not joined
    yet, so its first frame must join a seat (with the seat's token) within the grace.
    """

    def __init__(
        self,
        hub: Hub,
        table: LiveTable,
        websocket: WebSocket,
        limits: Limits,
        crowded: bool = False,
        chat: Chat | None = None,
        lobby: Lobby | None = None,
    ) -> None:
        self.hub, self.table, self.websocket, self.limits = hub, table, websocket, limits
        self.chat, self.lobby = chat, lobby
        self.listener = Listener(None, max_bytes=hub.caps.send_queue_bytes)
        self.joined = False
        self.crowded = crowded
        self.told_full = False  # a crowded socket's refusal was sent already
        self.close_code = 1000
        wait = hub.caps.crowded_grace if crowded else hub.caps.join_seconds
        self.join_by = time.monotonic() + wait
        self.sender: asyncio.Task[None] | None = None
        self.cutting: asyncio.Task[None] | None = None
        self.listener.on_overflow = self._cut
        extensions = websocket.scope.get("extensions") or {}
        self.listener.direct = extensions.get(SEND_NOW)  # (our uvicorn protocol's)
        self.bucket = Bucket(limits.rate, limits.burst)
        self.refusals = Bucket(limits.rate, limits.max_refusals)
        self.joins = Bucket(limits.join_rate, limits.join_burst)

    def _cut(self) -> None:
        """The queue overflowed: stop sending (the sender may wait for a client that reads
        nothing) and close with 1008; uvicorn's protocol (see :mod:`~.run`) drops the
        connection if the close cannot be written either."""
        if self.sender is None or self.sender.done() or self.cutting is not None:
            return
        self.sender.cancel()

        async def close() -> None:
            with contextlib.suppress(Exception):
                await self.websocket.close(1008)

        self.cutting = asyncio.get_running_loop().create_task(close())

    def send(self, text: str) -> None:
        """Queue a frame for this connection."""
        self.listener.push(text)

    async def handle(self, text: str) -> None:
        """One frame from the client."""
        if not self.bucket.take():
            if not self.refusals.take():
                self.listener.close()
                return
            self.send(error_frame("rate/limited", "too many frames; slow down"))
            return
        if len(text) > self.limits.max_frame:
            self.send(
                error_frame(
                    "frame/too_large", f"a frame has at most {self.limits.max_frame} characters"
                )
            )
            return
        try:
            frame = orjson.loads(text)  # (strict JSON: no NaN, integers within 64 bits)
        except (ValueError, RecursionError):
            self.send(error_frame("frame/malformed", "a frame is a JSON object"))
            return
        if not isinstance(frame, dict):
            self.send(error_frame("frame/malformed", "a frame is a JSON object"))
            return
        ref = frame.get("id")
        if ref is not None and not isinstance(ref, (str, int)):
            ref = None
        try:
            await self.dispatch(frame, ref)
        except ServerError as e:
            self.send(error_frame(e.code, e.message, ref))

    async def dispatch(self, frame: dict[str, Any], ref: Any) -> None:
        """Do what a well-formed frame asks."""
        kind = frame.get("type")
        if kind == "ping":
            self.send(json.dumps({"type": "pong", "id": ref}))
        elif kind == "join":
            if not self.joins.take():
                if not self.refusals.take():
                    self.listener.close()
                raise ServerError("rate/limited", "too many joins; slow down", 429)
            await self.join(frame.get("token"))
        elif kind == "act":
            seat = self._seat()
            version = frame.get("version")
            if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
                raise ServerError("frame/malformed", "'version' is a whole number")
            if "action" not in frame:
                raise ServerError("action/malformed", "an 'act' frame needs an 'action'")
            new_version, _ = await self.table.act(seat, frame["action"], version)
            if ref is not None:
                self.send(frame_text({"type": "ack", "id": ref, "version": new_version}))
        elif kind == "bot":
            seat = self._seat()
            bot = frame.get("bot")
            if bot is not None and not isinstance(bot, str):
                raise ServerError("frame/malformed", "'bot' is a bot's name or null")
            await self.table.set_bot(seat, bot)
        elif kind == "chat" and self.chat is not None:
            if not self.joined:
                raise ServerError("join/first", "join the table first", 409)
            await self.chat.say(self.table, self.listener.seat, frame.get("text"))
            if ref is not None:
                self.send(json.dumps({"type": "ack", "id": ref}))
        else:
            raise ServerError(
                "frame/unknown",
                f"unknown frame type {str(kind)[:40]!r} (types: join, act, bot, chat, ping)",
            )

    def _seat(self) -> int:
        if not self.joined:
            raise ServerError("join/first", "join the table first", 409)
        if self.listener.seat is None:
            raise ServerError("seat/spectator", "a spectator cannot act", 403)
        return self.listener.seat

    async def join(self, token: Any) -> None:
        """Join as the token's seat, or as a spectator without a token."""
        if token is not None and not isinstance(token, str):
            raise bad_token()
        seat = self.table.seat_of(token) if token else None
        if token and seat is None:
            raise bad_token()
        caps = self.hub.caps
        if seat is None and self.crowded:
            self.told_full = True
            raise too_many("connections per table", caps.connections_per_table)
        if seat is None and not (self.joined and self.listener.seat is None):
            watching = sum(1 for x in self.table.listeners if x.seat is None)
            if watching >= caps.spectators_per_table:
                raise too_many("spectators per table", caps.spectators_per_table)
        # The chat's last lines, read just before joining (nothing awaited between): a
        # line is in them or comes after them, once (see Chat.history).
        chat_log = await self.chat.history(self.table) if self.chat is not None else None
        if self.joined:
            self.table.detach(self.listener)
        self.listener.seat = seat
        self.joined = True
        self.table.attach(self.listener)
        if chat_log is not None:
            self.send(json.dumps(chat_log, separators=(",", ":")))
        if seat is not None and self.lobby is not None:
            self.lobby.seat_used(self.table, seat)

    def refuse(self, error: ServerError, close_code: int) -> None:
        """Send ``error``, then close the socket with ``close_code``."""
        self.send(error_frame(error.code, error.message))
        self.close_code = close_code
        self.listener.close()

    async def _receive(self) -> Message | None:
        """The next message; ``None`` if the socket has not joined in time."""
        if self.joined:
            return await self.websocket.receive()
        try:
            return await asyncio.wait_for(
                self.websocket.receive(), max(0.0, self.join_by - time.monotonic())
            )
        except TimeoutError:
            return None

    def _too_late(self) -> None:
        caps = self.hub.caps
        if self.crowded:
            self.refuse(too_many("connections per table", caps.connections_per_table), 4429)
        else:
            message = f"join the table within {caps.join_seconds:g} s of connecting"
            self.refuse(ServerError("join/timeout", message, 408), 4408)

    async def run(self) -> None:
        """Read frames until the client leaves (or is closed for being too slow)."""
        sender = self.sender = asyncio.create_task(_sender(self))
        try:
            while True:
                message = await self._receive()
                if message is None:
                    self._too_late()
                    await _finished(sender)
                    break
                if message["type"] == "websocket.disconnect" or sender.done():
                    break
                text = message.get("text")
                if text is None:
                    self.send(error_frame("frame/malformed", "frames are JSON text"))
                else:
                    await self.handle(text)
                if self.crowded:  # its one frame did not join a seat
                    if self.joined and self.listener.seat is not None:
                        self.crowded = False
                    else:
                        error = too_many(
                            "connections per table", self.hub.caps.connections_per_table
                        )
                        if self.told_full:
                            self.close_code = 4429
                            self.listener.close()
                        else:
                            self.refuse(error, 4429)
                        await _finished(sender)
                        break
                # One frame per turn of the event loop: a connection streaming frames
                # takes its turn with every other table instead of before them.
                await asyncio.sleep(0)
        except (WebSocketDisconnect, RuntimeError):
            pass  # RuntimeError: the sender closed the socket under us
        finally:
            self.table.detach(self.listener)
            # The listener held this session's _cut: a cycle, freed only by a full
            # garbage collection once the connection is gone.
            self.listener.on_overflow = None
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
            # The task keeps its exception, whose traceback holds this frame (and so the
            # task and this session): let go of it, or they wait for a full collection.
            self.sender = None
            del sender
            if self.websocket.client_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await self.websocket.close()


async def table_socket(
    websocket: WebSocket,
    hub: Hub,
    table_id: str,
    limits: Limits,
    chat: Chat | None = None,
    lobby: Lobby | None = None,
) -> None:
    """Serve one websocket connection to a table (within the caps on connections), with
    its chat and, for a listed table, its seats' use told to the lobby."""
    await websocket.accept()
    # Nothing reads the request's headers after the handshake (the client's address is
    # the scope's own, X-Forwarded-For already applied): not kept for the connection's
    # life (~1 KB a connection).
    websocket.scope["headers"] = []
    client = websocket.client.host if websocket.client else "?"
    caps = hub.caps
    try:
        if chat is not None:  # (serves lines other processes forward from now on)
            await chat.serve(hub)
        if hub.connections.get(client, 0) >= caps.connections_per_client:
            raise too_many("connections per client", caps.connections_per_client)
        table = await hub.get(table_id)
    except ServerError as e:
        await websocket.send_text(error_frame(e.code, e.message))
        await websocket.close(4404 if e.status == 404 else 4000 + e.status)
        return
    # Spectators and sockets not joined yet count toward the table's cap; seats do not.
    seated = sum(1 for listener in table.listeners if listener.seat is not None)
    crowded = table.sessions - seated >= caps.connections_per_table
    hub.connections[client] = hub.connections.get(client, 0) + 1
    table.sessions += 1
    try:
        await Session(hub, table, websocket, limits, crowded, chat, lobby).run()
    finally:
        table.sessions -= 1
        hub.gone += 1  # (its cycles: see Hub._collect_forever)
        left = hub.connections.get(client, 1) - 1
        if left > 0:
            hub.connections[client] = left
        else:
            hub.connections.pop(client, None)
