"""Live play over a websocket: join a table as a seat or a spectator, then act.

A :class:`Session` is one connection's conversation with its table, whatever carries it:
on uvicorn (``thievery serve``) the connection itself, see :mod:`thievery.server.wire`;
on any other ASGI server or test client, :meth:`TableSockets.asgi`.

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

A seat's first join with its invite (the token of its invite link) exchanges it for a
key of the seat's own (unless ``POST /api/tables/{id}/exchange`` did): that welcome
carries it as ``key``, the client keeps it and joins with it from then on, and the invite
is refused from then on (``auth/invite_used``), so whoever made the table cannot use the
seat (:mod:`~.seats`). The join may bring the key, made by the client (``{"type":
"join", "token": invite, "key": …}``: 32 to 64 URL-safe characters): joined again with
the same invite and key after the welcome was lost on the way, the seat is its own, and
that welcome carries the key again.

A ``welcome`` frame lists the view's ``static`` keys (e.g. Thieves Den's ``options`` and
card ``catalogue``): they never change, so ``update`` views leave them out and a client
keeps them from the welcome.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
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
from thievery.server.limits import Bucket, client_key, too_many
from thievery.server.listeners import Listener
from thievery.server.live import LiveTable
from thievery.server.lobby import Lobby
from thievery.server.seats import CLIENT_KEY


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


TABLE_PATH = re.compile(r"/api/tables/([^/]+)/ws")
MADE_KEY = re.compile(CLIENT_KEY)  # a key a client made for its seat (a join's ``key``)


def table_of(path: str) -> str | None:
    """The table id a websocket's path names (``/api/tables/{id}/ws``), or ``None``."""
    found = TABLE_PATH.fullmatch(path)
    return None if found is None else found.group(1)


def error_frame(code: str, message: str, ref: Any = None) -> str:
    """An error frame as text."""
    frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        frame["id"] = ref
    return json.dumps(frame)


class Session:
    """One websocket connection to one table: frames in through :meth:`handle`, frames
    out through its :class:`Listener` (the carrier sends them, and closes the connection
    with :attr:`close_code` at the listener's end).

    ``crowded``: it came when the table had its cap of spectators and sockets not joined
    yet, so its first frame must join a seat (with the seat's token) within the grace.
    """

    __slots__ = (
        "bucket",
        "chat",
        "close_code",
        "crowded",
        "hub",
        "join_by",
        "joined",
        "joins",
        "keyed",
        "limits",
        "listener",
        "lobby",
        "refusals",
        "table",
        "told_full",
        "uncancelled",
    )

    def __init__(
        self,
        hub: Hub,
        table: LiveTable,
        listener: Listener,
        limits: Limits,
        crowded: bool = False,
        chat: Chat | None = None,
        lobby: Lobby | None = None,
    ) -> None:
        self.hub, self.table, self.listener, self.limits = hub, table, listener, limits
        self.chat, self.lobby = chat, lobby
        self.joined = False
        self.keyed: int | None = None  # the seat's new invites when it joined (LiveTable.act)
        self.crowded = crowded
        self.told_full = False  # a crowded socket's refusal was sent already
        self.close_code = 1000
        # Whether the task handling its frames is never cancelled (the wire's are not):
        # then an action runs in that task, not in one of its own (see LiveTable.act).
        self.uncancelled = False
        wait = hub.caps.crowded_grace if crowded else hub.caps.join_seconds
        self.join_by = time.monotonic() + wait
        self.bucket = Bucket(limits.rate, limits.burst)
        self.refusals = Bucket(limits.rate, limits.max_refusals)
        self.joins = Bucket(limits.join_rate, limits.join_burst)

    @property
    def ending_code(self) -> int:
        """The close code once the listener's queue ends: 1008 for a client too slow."""
        return 1008 if self.listener.overflowed else self.close_code

    def send(self, text: str) -> None:
        """Queue a frame for this connection."""
        self.listener.push(text)

    async def handle(self, text: str | None) -> None:
        """One message from the client (``None``: a binary one)."""
        if text is None:
            self.send(error_frame("frame/malformed", "frames are JSON text"))
            return
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
            await self.join(frame.get("token"), frame.get("key"))
        elif kind == "act":
            seat = self._seat()
            version = frame.get("version")
            if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
                raise ServerError("frame/malformed", "'version' is a whole number")
            if "action" not in frame:
                raise ServerError("action/malformed", "an 'act' frame needs an 'action'")
            new_version, _ = await self.table.act(
                seat, frame["action"], version, uncancelled=self.uncancelled, keyed=self.keyed
            )
            if ref is not None:
                self.send(frame_text({"type": "ack", "id": ref, "version": new_version}))
        elif kind == "bot":
            seat = self._seat()
            bot = frame.get("bot")
            if bot is not None and not isinstance(bot, str):
                raise ServerError("frame/malformed", "'bot' is a bot's name or null")
            await self.table.set_bot(seat, bot, keyed=self.keyed)
        elif kind == "chat" and self.chat is not None:
            if not self.joined:
                raise ServerError("join/first", "join the table first", 409)
            await self.chat.say(self.table, self.listener.seat, frame.get("text"), self.keyed)
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

    async def join(self, token: Any, made: Any = None) -> None:
        """Join as the token's seat, or as a spectator without a token. ``made``: the key
        the client made for the seat, if the token is an invite (see ``exchange``)."""
        if token is not None and not isinstance(token, str):
            raise bad_token()
        if made is not None and not (isinstance(made, str) and MADE_KEY.fullmatch(made)):
            raise ServerError(
                "frame/malformed", "a join's 'key' is 32 to 64 URL-safe characters (base64url)"
            )
        seat = self.table.seat_of(token) if token else None  # (a key's seat)
        key = None  # the seat's own key, when its invite is exchanged here
        if token and seat is None:
            seat, key = await self.table.exchange_invite(token, made)
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
        if seat is not None and self.table.seat_of(key or token) != seat:
            # (the host made the seat a new invite meanwhile: this key is worthless now)
            raise self.table.refusal(key or token)
        if self.joined:
            self.table.detach(self.listener)
        self.listener.seat = seat
        self.joined = True
        # (the key this connection joined with: worthless once the seat is reinvited)
        self.keyed = self.table.seats[seat].reinvited if seat is not None else None
        self.table.attach(self.listener, key)
        if chat_log is not None:
            self.send(frame_text(chat_log))
        if seat is not None and self.lobby is not None:
            self.lobby.seat_used(self.table, seat)

    def refuse(self, error: ServerError, close_code: int) -> None:
        """Send ``error``, then close the socket with ``close_code``."""
        self.send(error_frame(error.code, error.message))
        self.close_code = close_code
        self.listener.close()

    def too_late(self) -> None:
        """It has not joined in time: refused, and closed."""
        caps = self.hub.caps
        if self.crowded:
            self.refuse(too_many("connections per table", caps.connections_per_table), 4429)
        else:
            message = f"join the table within {caps.join_seconds:g} s of connecting"
            self.refuse(ServerError("join/timeout", message, 408), 4408)

    def after_frame(self) -> bool:
        """After each frame: a crowded socket whose frame did not join a seat is refused.
        ``True``: the session is over (its close is queued); read nothing more."""
        if not self.crowded:
            return False
        if self.joined and self.listener.seat is not None:
            self.crowded = False
            return False
        if self.told_full:
            self.close_code = 4429
            self.listener.close()
        else:
            self.refuse(
                too_many("connections per table", self.hub.caps.connections_per_table), 4429
            )
        return True

    def leave(self) -> None:
        """The connection is gone: off the table."""
        self.table.detach(self.listener)
        # The listener held its carrier's cut-off: a cycle, freed only by a full garbage
        # collection once the connection is gone.
        self.listener.on_overflow = None


def close_code_of(error: ServerError) -> int:
    """A refused connection's close code: 4404 for an unknown table, else 4000 + status."""
    return 4404 if error.status == 404 else 4000 + error.status


async def _sender(websocket: WebSocket, session: Session) -> None:
    listener = session.listener
    while True:
        text = await listener.next()
        if text is None:
            with contextlib.suppress(Exception):
                await websocket.close(session.ending_code)
            return
        await websocket.send_text(text)


async def _finished(sender: asyncio.Task[None]) -> None:
    """Wait for a sender told to close to send what it has and close."""
    await asyncio.wait({sender}, timeout=5.0)


@dataclass
class TableSockets:
    """What serves the tables' websockets, over any carrier: the hub, the limits, the
    chat and, for listed tables, the lobby told of its seats' use."""

    hub: Hub
    limits: Limits
    chat: Chat | None = None
    lobby: Lobby | None = None

    async def open(self, table_id: str, client: str) -> tuple[LiveTable, bool]:
        """A new connection from ``client`` to the table, within the caps on connections:
        the table, and whether the connection is crowded (see :class:`Session`). Counted
        until :meth:`close`. Raises :class:`ServerError` (nothing counted)."""
        hub, caps = self.hub, self.hub.caps
        if self.chat is not None:  # (serves lines other processes forward from now on)
            await self.chat.serve(hub)
        if hub.connections.get(client, 0) >= caps.connections_per_client:
            raise too_many("connections per client", caps.connections_per_client)
        table = await hub.get(table_id)
        # Spectators and sockets not joined yet count toward the table's cap; seats do not.
        seated = sum(1 for listener in table.listeners if listener.seat is not None)
        crowded = table.sessions - seated >= caps.connections_per_table
        hub.connections[client] = hub.connections.get(client, 0) + 1
        table.sessions += 1
        return table, crowded

    def session(self, table: LiveTable, listener: Listener, crowded: bool) -> Session:
        """The session of a connection :meth:`open` let in."""
        return Session(self.hub, table, listener, self.limits, crowded, self.chat, self.lobby)

    def close(self, table: LiveTable, client: str) -> None:
        """An opened connection is gone."""
        hub = self.hub
        table.sessions -= 1
        hub.gone += 1  # (its cycles: see Hub._collect_forever)
        left = hub.connections.get(client, 1) - 1
        if left > 0:
            hub.connections[client] = left
        else:
            hub.connections.pop(client, None)

    async def asgi(self, websocket: WebSocket, table_id: str) -> None:
        """Serve one ASGI websocket connection to a table: a task reads, another sends."""
        await websocket.accept()
        # Nothing reads the request's headers after the handshake (the client's address
        # is the scope's own, X-Forwarded-For already applied).
        websocket.scope["headers"] = []
        client = client_key(websocket.client.host if websocket.client else "?")
        try:
            table, crowded = await self.open(table_id, client)
        except ServerError as e:
            await websocket.send_text(error_frame(e.code, e.message))
            await websocket.close(close_code_of(e))
            return
        listener = Listener(None, max_bytes=self.hub.caps.send_queue_bytes)
        try:
            await _AsgiConnection(websocket, self.session(table, listener, crowded)).run()
        finally:
            self.close(table, client)


class _AsgiConnection:
    """A session carried by an ASGI websocket: this task reads frames, a sender task
    writes the listener's."""

    def __init__(self, websocket: WebSocket, session: Session) -> None:
        self.websocket, self.session = websocket, session
        self.sender: asyncio.Task[None] | None = None
        self.cutting: asyncio.Task[None] | None = None
        session.listener.on_overflow = self._cut

    def _cut(self) -> None:
        """The queue overflowed: stop sending (the sender may wait for a client that reads
        nothing) and close with 1008."""
        if self.sender is None or self.sender.done() or self.cutting is not None:
            return
        self.sender.cancel()

        async def close() -> None:
            with contextlib.suppress(Exception):
                await self.websocket.close(1008)

        self.cutting = asyncio.get_running_loop().create_task(close())

    async def _receive(self) -> Message | None:
        """The next message; ``None`` if the socket has not joined in time."""
        if self.session.joined:
            return await self.websocket.receive()
        try:
            return await asyncio.wait_for(
                self.websocket.receive(), max(0.0, self.session.join_by - time.monotonic())
            )
        except TimeoutError:
            return None

    async def run(self) -> None:
        """Read frames until the client leaves (or is closed for being too slow)."""
        session = self.session
        sender = self.sender = asyncio.create_task(_sender(self.websocket, session))
        try:
            while True:
                message = await self._receive()
                if message is None:
                    session.too_late()
                    await _finished(sender)
                    break
                if message["type"] == "websocket.disconnect" or sender.done():
                    break
                await session.handle(message.get("text"))
                if session.after_frame():
                    await _finished(sender)
                    break
                # One frame per turn of the event loop: a connection streaming frames
                # takes its turn with every other table instead of before them.
                await asyncio.sleep(0)
        except (WebSocketDisconnect, RuntimeError):
            pass  # RuntimeError: the sender closed the socket under us
        finally:
            session.leave()
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
