"""A short table chat: seated players send lines of text, everyone at the table reads them.

Text only: a line is at most :data:`LINE_LIMIT` characters once trimmed (NFC), on one line,
without control characters, bidi overrides or other invisible format characters (the
joiners emoji need are kept). Each seat has a token bucket (all its connections share
it); spectators read but cannot write. A line goes to every connection of the table as
``{"type": "chat", "seat": n, "name": …, "text": …, "at": seconds}`` and the last
:data:`KEEP` lines of a table are sent to a connection when it joins
(``{"type": "chat_log", "lines": […]}``).

The chat lives in this process's memory only (the rooms of the most recently used
tables): it is gone after a restart, and pages escape every line they draw.
"""

from __future__ import annotations

import time
import unicodedata
from collections import OrderedDict, deque
from typing import Any

from thievery.core.protocol import JSON
from thievery.server.errors import ServerError
from thievery.server.limits import Bucket
from thievery.server.live import LiveTable

LINE_LIMIT = 200  # characters in a line, after trimming
KEEP = 50  # lines a table keeps, sent to a connection when it joins
# Format characters a line may hold: the zero-width joiners (emoji sequences, scripts
# that join letters) and the tag characters of subdivision flags.
_ALLOWED_FORMAT = {"\u200c", "\u200d", *map(chr, range(0xE0020, 0xE0080))}


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
    for char in text:
        kind = unicodedata.category(char)
        if kind in ("Cc", "Cs", "Co") or (kind == "Cf" and char not in _ALLOWED_FORMAT):
            raise ServerError(
                "chat/control",
                f"a chat line holds no control or invisible format characters (U+{ord(char):04X})",
            )
    return text


class Room:
    """One table's chat: its last lines and each seat's rate."""

    def __init__(self) -> None:
        self.lines: deque[JSON] = deque(maxlen=KEEP)
        self.buckets: dict[int, Bucket] = {}


class Chat:
    """Every table's chat in this process: rooms of at most ``rooms`` tables (the least
    recently used forgotten), each seat at ``rate`` lines a second, ``burst`` at once."""

    def __init__(self, rate: float = 1.0, burst: float = 5.0, rooms: int = 1000) -> None:
        self.rate, self.burst, self.keep = rate, burst, rooms
        self.rooms: OrderedDict[str, Room] = OrderedDict()

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

    def say(self, table: LiveTable, seat: int | None, raw: Any) -> JSON:
        """A seat's line, checked, kept and sent to every connection of the table; bad
        input, a spectator or a seat over its rate is refused and changes nothing."""
        if seat is None:
            raise ServerError("chat/spectator", "spectators read the chat but cannot write", 403)
        text = clean_line(raw)
        room = self.room(table.id)
        bucket = room.buckets.get(seat)
        if bucket is None:
            bucket = room.buckets[seat] = Bucket(self.rate, self.burst)
        if not bucket.take():
            raise ServerError(
                "rate/limited", f"too many chat lines; try again in {bucket.wait():.1f} s", 429
            )
        line: JSON = {
            "type": "chat",
            "seat": seat,
            "name": table.seats[seat].name,
            "text": text,
            "at": round(time.time(), 3),
        }
        room.lines.append(line)
        table.broadcast_json(line)
        return line

    def history(self, table_id: str) -> JSON:
        """The frame a joining connection gets: the table's last lines, oldest first."""
        room = self.rooms.get(table_id)
        return {"type": "chat_log", "table": table_id, "lines": list(room.lines) if room else []}
