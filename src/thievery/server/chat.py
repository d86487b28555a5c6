"""A short table chat: seated players send lines of text, everyone at the table reads them.

Text only: a line is at most :data:`LINE_LIMIT` characters once trimmed (NFC), on one line,
without control characters, bidi overrides or other invisible format characters (the
joiners emoji need are kept). Each seat has a token bucket (all its connections share
it); spectators read but cannot write. A line goes to every connection of the table as
``{"type": "chat", "n": …, "seat": n, "name": …, "text": …, "at": seconds}`` and the last
:data:`KEEP` lines of a table are sent to a connection when it joins
(``{"type": "chat_log", "lines": […]}``).

Lines are stored in a table of this module's own (``thievery_chat``: table, n, seat, name,
text, when; the last :data:`KEEP` of each table kept), so the chat survives a restart.
With several server processes a line is said where the table runs: a follower process
forwards it to the owner (``hub.calls["chat"]``), which checks the seat's rate (one bucket
per seat, at one place), stores the line through the table's fenced write and tells its
own connections; the write's announcement tells every follower's. The owner keeps the
last lines in memory while it holds the table's lease (it is their only writer); a
follower reads them from storage when a connection joins.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
import unicodedata
from collections import OrderedDict
from functools import partial
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    delete,
    select,
)
from sqlalchemy.exc import SQLAlchemyError

from thievery.core.protocol import JSON
from thievery.server.cluster import moved, where_it_runs
from thievery.server.errors import ServerError, int_arg
from thievery.server.limits import Bucket
from thievery.server.live import LiveTable
from thievery.server.storage import create_tables as make_tables

if TYPE_CHECKING:
    from thievery.server.hub import Hub

log = logging.getLogger("thievery.server")

LINE_LIMIT = 200  # characters in a line, after trimming
KEEP = 50  # lines a table keeps, sent to a connection when it joins
# Format characters a line may hold: the zero-width joiners (emoji sequences, scripts
# that join letters); and the tag characters, only in a subdivision flag (a black flag,
# tags, a cancel tag: 🏴 and "gbsct" make Scotland's), where they are seen.
_ALLOWED_FORMAT = {"\u200c", "\u200d"}
_FLAGS = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")

chat_metadata = MetaData()
chat_t = Table(
    "thievery_chat",
    chat_metadata,
    Column("table_id", String(32), primary_key=True),
    Column("n", Integer, primary_key=True, autoincrement=False),  # 0, 1, … in a table
    Column("seat", Integer, nullable=False),
    Column("name", String(256), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)


def clean_line(raw: Any) -> str:
    r"""A chat line as shown, or :class:`ServerError` with a clear code: ``chat/malformed``
    (not text), ``chat/empty``, ``chat/too_long`` or ``chat/control`` (a control, bidi or
    other invisible format character). Nothing is silently dropped from a line.

    >>> clean_line("  hello, Ada ")
    'hello, Ada'
    >>> try:
    ...     clean_line("a\u202eb")
    ... except ServerError as e:
    ...     print(e.code, e.message)
    chat/control a chat line holds no control or invisible format characters (U+202E)
    """
    if not isinstance(raw, str):
        raise ServerError("chat/malformed", "a 'chat' frame needs a 'text' (a string)")
    text = unicodedata.normalize("NFC", raw).strip()
    if not text:
        raise ServerError("chat/empty", "a chat line needs some text")
    if len(text) > LINE_LIMIT:
        raise ServerError(
            "chat/too_long", f"a chat line has at most {LINE_LIMIT} characters ({len(text)})"
        )
    for char in _FLAGS.sub("\U0001f3f4", text):  # (a flag's tags are seen: let through)
        kind = unicodedata.category(char)
        # (line and paragraph separators, Zl and Zp, break a line as a control does)
        if kind in ("Cc", "Cs", "Co", "Zl", "Zp") or (kind == "Cf" and char not in _ALLOWED_FORMAT):
            raise ServerError(
                "chat/control",
                f"a chat line holds no control or invisible format characters (U+{ord(char):04X})",
            )
    return text


def line_frame(n: int, seat: int, name: str, text: str, at: float) -> JSON:
    """A chat line as sent to connections (and kept in the log)."""
    return {"type": "chat", "n": n, "seat": seat, "name": name, "text": text, "at": at}


def _store(line: JSON, table_id: str, conn: Connection) -> None:
    """Store a line and forget the table's lines older than the last :data:`KEEP`."""
    n = int(line["n"])
    conn.execute(
        chat_t.insert().values(
            table_id=table_id,
            n=n,
            seat=line["seat"],
            name=line["name"],
            text=line["text"],
            at=line["at"],
        )
    )
    conn.execute(delete(chat_t).where(chat_t.c.table_id == table_id, chat_t.c.n <= n - KEEP))


def _stored(engine: Engine, table_id: str) -> tuple[list[JSON], int]:
    """A table's last :data:`KEEP` stored lines, oldest first, and the n of the next one."""
    columns = (chat_t.c.n, chat_t.c.seat, chat_t.c.name, chat_t.c.text, chat_t.c.at)
    query = select(*columns).where(chat_t.c.table_id == table_id)
    with engine.connect() as conn:
        rows = conn.execute(query.order_by(chat_t.c.n.desc()).limit(KEEP)).all()
    if not rows:  # (a table's last line is never deleted: it has none)
        return [], 0
    lines = [line_frame(int(n), int(s), str(m), str(t), float(a)) for n, s, m, t, a in rows]
    lines.reverse()
    return lines, int(rows[0][0]) + 1


def create_tables(engine: Engine) -> None:
    """Make the chat's table if the database has none (two processes may race: the loser
    finds it made)."""
    make_tables(chat_metadata, engine)


class Room:
    """One table's chat at its owner: each seat's rate, and the last lines while they are
    known to be the stored ones (read under the lease ``epoch``)."""

    __slots__ = ("buckets", "epoch", "lines", "loaded", "lock", "next")

    def __init__(self) -> None:
        self.lines: list[JSON] = []  # the last KEEP, oldest first (a list: most are empty)
        self.next = 0  # the n of the next line
        self.loaded = False
        self.epoch: int | None = None
        self.buckets: dict[int, Bucket] = {}
        self.lock = asyncio.Lock()  # one line stored at a time, in order

    def current(self, table: LiveTable) -> bool:
        """Whether the lines held are the stored ones: read while this process has held
        the table's lease without a break (every line since was written here)."""
        return self.loaded and table.is_owner and table.lease == self.epoch


class Chat:
    """Every table's chat in this process: rooms of at most ``rooms`` tables (the least
    recently used forgotten), each seat at ``rate`` lines a second, ``burst`` at once.
    ``hub``: serve forwarded lines and make the chat's table at once (else when first
    used, see :meth:`serve`)."""

    def __init__(
        self, rate: float = 1.0, burst: float = 5.0, rooms: int = 1000, hub: Hub | None = None
    ) -> None:
        self.rate, self.burst, self.keep = rate, burst, rooms
        self.rooms: OrderedDict[str, Room] = OrderedDict()
        self._ready: set[int] = set()  # the hubs (by id) this chat serves
        # A follower: the lines heard while a joining connection's log is read, by table.
        self._reading: dict[str, list[list[JSON]]] = {}
        if hub is not None:
            create_tables(hub.storage.engine)
            self._register(hub)

    def _register(self, hub: Hub) -> None:
        hub.calls["chat"] = self._serve_call
        hub.on_forget.append(self.forget)
        hub.on_made.append(self.made)
        if hub.cluster is not None:
            hub.cluster.notes["chat"] = self._heard
        self._ready.add(id(hub))

    def _heard(self, table: LiveTable, note: JSON) -> None:
        """A follower: a line the owner stored, for this process's connections (and for
        the connections joining now, whose log is being read)."""
        line: JSON = note["line"]
        for heard in self._reading.get(table.id, []):
            heard.append(line)
        table.broadcast_json(line)

    async def serve(self, hub: Hub) -> None:
        """Be ready for ``hub``'s tables: the chat's table made, forwarded lines served."""
        if id(hub) not in self._ready:
            await asyncio.to_thread(create_tables, hub.storage.engine)
            self._register(hub)

    def forget(self, table_id: str) -> None:
        """A table left memory: its room goes too (read again from storage if it comes
        back)."""
        self.rooms.pop(table_id, None)

    def room(self, table_id: str) -> Room:
        """A table's room (made when first used)."""
        room = self.rooms.get(table_id)
        if room is None:
            room = self.rooms[table_id] = Room()
            while len(self.rooms) > self.keep:
                self.rooms.popitem(last=False)
        else:
            self.rooms.move_to_end(table_id)
        return room

    async def say(
        self, table: LiveTable, seat: int | None, raw: Any, keyed: int | None = None
    ) -> JSON:
        """A seat's line, checked, stored and sent to every connection of the table (on
        every process); bad input, a spectator or a seat over its rate is refused and
        changes nothing. A follower process forwards it to the table's owner. ``keyed``:
        the seat's new invites when its key was checked; a line whose key the host's new
        invite took away meanwhile is refused (``auth/revoked``, as an action is)."""
        if seat is None:
            raise ServerError("chat/spectator", "spectators read the chat but cannot write", 403)
        text = clean_line(raw)
        await self.serve(table.hub)
        args = {"seat": seat, "text": text, "keyed": keyed}
        here = partial(self._line, table, seat, text, keyed)
        reply = await where_it_runs(table, "chat", args, here)
        line: JSON = reply["line"]  # (at a follower: its connections get the announcement)
        return line

    async def _serve_call(self, table: LiveTable, args: JSON) -> JSON:
        """A line a follower process forwarded (this process owns the table)."""
        seat, keyed = table.seat_arg(args), int_arg(args, "keyed")
        return await self._line(table, seat, clean_line(args.get("text")), keyed)

    async def _line(self, table: LiveTable, seat: int, text: str, keyed: int | None) -> JSON:
        try:
            return {"line": await self._say_here(table, seat, text, keyed)}
        except ServerError:
            raise
        except Exception as e:
            log.exception("table %s: a chat line could not be stored", table.id)
            raise ServerError(
                "storage/failed", f"the line could not be stored ({type(e).__name__})", 503
            ) from None

    async def _say_here(self, table: LiveTable, seat: int, text: str, keyed: int | None) -> JSON:
        room = self.room(table.id)
        bucket = room.buckets.get(seat)
        if bucket is None:
            bucket = room.buckets[seat] = Bucket(self.rate, self.burst)
        if not bucket.take():
            raise ServerError(
                "rate/limited", f"too many chat lines; try again in {bucket.wait():.1f} s", 429
            )
        # Under the table's lock (then the room's: the one order they are taken in), as
        # an action is: the key checked against the seats a new invite changes under it.
        async with table.lock, room.lock:
            table.check_keyed(seat, keyed)
            await self._load(table, room)
            if not table.is_owner:
                raise moved(table.id)
            name = table.seats[seat].name
            line = line_frame(room.next, seat, name, text, round(time.time(), 3))
            try:
                await table.write(partial(_store, line, table.id), {"k": "chat", "line": line})
            except Exception:
                room.loaded = False  # its fate in storage may be unknown: read it again
                raise
            room.next += 1
            room.lines.append(line)
            del room.lines[:-KEEP]
        table.broadcast_json(line)
        return line

    def made(self, table: LiveTable) -> None:
        """A table just made here: it has no lines, so joins need not read any."""
        room = self.room(table.id)
        room.lines, room.next = [], 0
        room.loaded, room.epoch = True, table.lease

    async def _load(self, table: LiveTable, room: Room) -> None:
        """Read the room's last lines from storage unless the ones held are current."""
        if room.current(table):
            return
        epoch = table.lease
        lines, room.next = await asyncio.to_thread(_stored, table.hub.storage.engine, table.id)
        room.lines = lines[-KEEP:]
        room.loaded, room.epoch = True, epoch

    async def history(self, table: LiveTable) -> JSON | None:
        """The frame a joining connection gets: the table's last lines, oldest first (held
        in memory at the owner, read from storage at a follower); ``None`` if storage
        cannot be read now (the connection joins without the chat's past)."""
        room = self.rooms.get(table.id)
        try:
            await self.serve(table.hub)
            if room is not None and room.current(table):
                self.rooms.move_to_end(table.id)
                lines = list(room.lines)
            elif table.is_owner:
                room = self.room(table.id)
                async with room.lock:
                    await self._load(table, room)
                    lines = list(room.lines)
            else:
                lines = await self._read(table)
        except SQLAlchemyError as e:
            log.warning("table %s: the chat could not be read: %s", table.id, e)
            return None
        return {"type": "chat_log", "table": table.id, "lines": lines}

    async def _read(self, table: LiveTable) -> list[JSON]:
        """A follower: the table's last lines from storage, and those heard while they
        were read (stored since, or not yet in the rows read): the caller joins the table
        before anything else is heard, so it misses no line and gets none twice."""
        heard: list[JSON] = []
        self._reading.setdefault(table.id, []).append(heard)
        try:
            lines, after = await asyncio.to_thread(_stored, table.hub.storage.engine, table.id)
        finally:
            reading = self._reading[table.id]
            reading.remove(heard)
            if not reading:
                del self._reading[table.id]
        for line in heard:
            if int(line["n"]) >= after:
                lines.append(line)
                after = int(line["n"]) + 1
        return lines[-KEEP:]
