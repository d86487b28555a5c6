"""The live table: a game in memory, its seats and connections, and the frames each
audience is sent when it changes.

The server holds no rules. A :class:`LiveTable` only calls the game protocol: ``apply`` on a
clone, store the action, then adopt the clone and tell each connection what its own
audience (a seat, or ``None`` for spectators) may see: that seat's view, its legal actions
and the events visible to it.

Versions are counted per audience: a seat's version goes up only when something it can see
changes, so numbers never reveal hidden moves (how many cards another seat sealed). An
action names the version its seat last saw; it is refused as stale if the seat's legal
actions changed since (or the seat acted since), not merely because others' visible moves
moved the version on.

Its real-time clock is a :class:`~thievery.server.clock.TableClock`, its bots a
:class:`~thievery.server.driver.Driver`; the :class:`~thievery.server.hub.Hub` makes,
restores and forgets tables.

Several processes on PostgreSQL (:mod:`~thievery.server.cluster`): a table runs in the
process that holds its lease (:attr:`LiveTable.is_owner`), whose every write is fenced by
the lease; another process keeps a follower copy that applies the actions the owner
announces (:meth:`LiveTable.apply_stored`) and forwards its clients' requests to the owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import json
import logging
import pickle
import time
import zlib
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy import Connection

from thievery.bots.base import make_bot
from thievery.core.errors import MalformedAction, ThieveryError
from thievery.core.protocol import CLOCK, JSON, Action, Event, GameSpec, State
from thievery.core.record import GameRecord, deal_commitment
from thievery.core.registry import plugin
from thievery.server.audience import Audience, event_words, frame_text, without
from thievery.server.clock import TableClock
from thievery.server.cluster import (
    Fenced,
    FencedAppend,
    moved,
    raise_error,
    unavailable,
    where_it_runs,
)
from thievery.server.driver import Driver, Wake
from thievery.server.errors import (
    ServerError,
    bad_token,
    from_game_error,
    int_arg,
    invite_not_key,
    invite_used,
    key_revoked,
    stale,
    str_arg,
)
from thievery.server.listeners import Listener
from thievery.server.seats import (
    HUMAN,
    Seat,
    exchanged_for,
    hash_token,
    invite_of,
    is_token_of,
    new_token,
    revoked_seat,
    seat_of,
    waiting_invite,
    waiting_seat,
)
from thievery.server.storage import (
    ActionRow,
    Append,
    SetSeats,
    Storage,
    TableRecord,
    Unsure,
    checked,
    is_lost_connection,
)

if TYPE_CHECKING:
    from thievery.server.hub import Hub

log = logging.getLogger("thievery.server")

# Why the host may not do it while a player is connected at the seat (seat/present).
INVITE_PRESENT = "a new invite would lock them out of their own seat"
BOT_PRESENT = "only they can hand it to a bot"
LOG_LIMIT = 400  # events sent to a connection when it joins
LOG_KEEP = 1000  # events a table keeps in memory for that
HIGHEST = pickle.HIGHEST_PROTOCOL
LOG_CHUNK = 16  # actions whose events are compressed together in a table's log


def _canonical(value: Any) -> bytes:
    """JSON with sorted keys (keys that are not strings written as strings; ``json.dumps``
    past orjson's 64-bit integers). orjson is asked for string keys first: no game's view
    has others, and allowing them costs a third more (0.37 against 0.51 µs for a facedown
    snapshot, 1.4 against 1.9 for Der Schattendieb's)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        pass
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def _encode(parts: JSON, static: Sequence[str] = ()) -> tuple[bytes, bytes]:
    """A snapshot (see :meth:`LiveTable._snapshot`) as JSON: its legal actions, and the
    rest (the view without its ``static`` keys, which never change, such as Thieves Den's
    card catalogue; who is to act; the result) with sorted keys."""
    view = without(parts["view"], static) if static else parts["view"]
    rest = {"view": view, "to_act": parts["to_act"], "result": parts.get("result")}
    return _canonical(parts["legal"]), _canonical(rest)


def _digest(legal: bytes, rest: bytes) -> tuple[int, int]:
    """An audience's snapshot as two 64-bit hashes (Python's keyed SipHash, its key
    random per process): of the whole (its ``rest``, see :meth:`LiveTable._encoded`, and
    its legal actions) and of its legal actions alone. Equal exactly when the values are,
    short of a 1 in 2**64 chance for any one comparison; a tenth of the time of a 128-bit
    blake2b, and ~1/50 of the memory of the snapshot kept to compare with."""
    return hash((rest, legal)), hash(legal)


def _pickles(data: bytes) -> Iterator[Any]:
    """The objects pickled one after another in ``data``."""
    stream = io.BytesIO(data)
    while stream.tell() < len(data):
        yield pickle.load(stream)


def _seats_note(stored: list[JSON]) -> JSON:
    """What followers are told of new seats."""
    return {"k": "seats", "seats": stored}


def _retrieved(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


class LiveTable:
    """A table in memory: the state, its seats, its listeners, its clock and bot driver."""

    def __init__(self, hub: Hub, record: TableRecord, state: State) -> None:
        self.hub = hub
        self.record = record
        self.id = record.id
        self.state = state
        self.spec: GameSpec = state.spec
        self.seats = [Seat.from_stored(s) for s in record.seats]
        self.seats_taken = 0  # seats taken from the owner (see take_answered_seats)
        self._names: tuple[list[Seat], list[str]] = ([], [])
        self.version = 0  # accepted actions
        self.audiences: list[Audience] = [*range(state.players), None]
        self.seq: dict[Audience, int] = dict.fromkeys(self.audiences, 0)
        # Bot seats (no token reaches them: nobody ever sees their frames or versions) are
        # not watched: their views are neither built nor kept at every action.
        self.watched = frozenset(
            a for a in self.audiences if a is None or self.seats[a].kind == HUMAN
        )
        self._cache: dict[Audience, tuple[int, JSON]] = {}  # until the next broadcast
        # (version, to_act, result): what every audience's snapshot shares (see _parts)
        self._common: tuple[int, list[int], JSON | None] = (-1, [], None)
        # Each audience's snapshot as JSON (see _encoded), until the next broadcast.
        self._encoding: dict[Audience, tuple[int, bytes, bytes]] = {}
        # Each watched audience's last snapshot as a digest (see _digest): what an update
        # is compared with, without keeping the snapshot itself between actions.
        self._static = plugin(self.spec.name).static_view
        self._seen = {a: _digest(*self._encoded(a)) for a in self.watched}
        self._unseen = False  # True: the spectators' digest is not taken yet (see _adopt)
        self._cache.clear()
        self._encoding.clear()
        # Per audience, its version when its legal actions last changed (or it acted): an
        # action against any version since then was chosen from the same choices.
        self.legal_seq: dict[Audience, int] = dict.fromkeys(self.audiences, 0)
        # The last LOG_KEEP events or more, for joining connections' logs, kept compact
        # (see :meth:`logged`): the last actions' events pickled one action at a time,
        # older ones in chunks of LOG_CHUNK actions (their pickles one after another),
        # compressed; each with its event count.
        self.log: list[tuple[int, bytes]] = []  # (a list: ~60 at most)
        self.log_tail: list[tuple[int, bytes]] = []  # pickled actions' events
        self.logged_events = 0  # in both
        self.listeners: set[Listener] = set()
        self.sessions = 0  # open websockets, joined or not
        self.lock = asyncio.Lock()
        self.wake = Wake()  # the driver's: something changed
        self.changed_at = time.monotonic()
        # The changes a spectator sees (what everyone sees): how many, and when the last
        # one was. Bots are timed from them, not from every change, so that when a bot
        # answers tells nobody of moves hidden from them (a seat adding cards in secret).
        self.shown = 0
        self.shown_at = self.changed_at
        self.waiting_since: dict[int, float] = dict.fromkeys(state.to_act, self.changed_at)
        self.broken: str | None = None
        # A write about an action failed and storage could not be read back, or its
        # connection broke and storage did not hold it yet: storage is read again before
        # the table changes (see settle).
        self.unsettled = False
        # The same for a write about the table's row (seats, closing, the table that plays
        # again): the row is read back too, and taken as stored (see checked_write).
        self.row_unsure = False
        self.last_n = -1  # the number of the last action this process stored (act_locked)
        self.closed = False  # by its host, or as abandoned
        self.final_record: GameRecord | None = None  # once over (see Hub.record)
        self.used_at = self.changed_at  # last looked at or joined (monotonic)
        self._presence: asyncio.TimerHandle | None = None
        self._presence_at = 0.0
        self.clock = TableClock(state)  # real-time games: the server's clock is the game's
        self.driver = Driver(self)
        # Several processes: this process's lease (its epoch) while it owns the table.
        self.lease: int | None = None
        self.owner_hint: str | None = None  # a follower: the owner that answered last
        self.following = False  # counted among the table's followers (see Cluster.follow)
        self.catching = asyncio.Lock()  # a follower copy being brought up to date
        # The last actions applied, for forwarded ones: n -> (seat, action, its seq, events)
        self._recent: dict[int, tuple[int, JSON, int, list[Event]]] = {}
        # Set (and let go) at every applied action; made when a forwarded action waits.
        self._progress: asyncio.Event | None = None
        # An invite's exchange on its way to storage, by its key's hash: the same exchange
        # asked again (its answer lost) is answered once it is stored.
        self._key_writes: dict[str, asyncio.Future[Any]] = {}
        # Several processes: the connections other processes have at each seat, by process
        # (as each announced them, when, and how often it says them again: see
        # Cluster.announce_presence), and the processes known to keep a copy of the table
        # (told of this process's connections).
        self.remote: dict[str, tuple[float, float, list[int]]] = {}  # (when, period, counts)
        self.peers: dict[str, None] = {}  # (a dict: a quarter of an empty set's memory)

    # ---------------------------------------------------------------- reading

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (or the table was closed)."""
        return self.closed or self.state.is_over

    @property
    def is_owner(self) -> bool:
        """Whether this process runs the table: always with one process, else while it
        holds the table's lease (otherwise this is a follower copy)."""
        return self.hub.cluster is None or self.lease is not None

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token acts for (the seat whose key it is), or ``None``."""
        return seat_of(self.seats, token)

    def invite_of(self, token: str | None) -> int | None:
        """The seat whose invite a token is, exchanged for a key or not."""
        return invite_of(self.seats, token)

    def waiting_seat(self, token: str | None) -> int | None:
        """The seat whose invite, not exchanged yet, a token is."""
        return waiting_seat(self.seats, token)

    def refusal(self, token: str | None) -> ServerError:
        """Why a token that acts for no seat (nor as the host) is refused: ``auth/invite``
        for a waiting invite (it grants nothing but its exchange), ``auth/invite_used`` for
        one exchanged already, ``auth/revoked`` for a key or invite the host's new invite for
        its seat made worthless, else ``auth/token``."""
        if self.waiting_seat(token) is not None:
            return invite_not_key(self.id)
        return self._unknown(token)

    def _unknown(self, token: str | None) -> ServerError:
        """Why a token that is no key and no waiting invite here is refused: a used invite,
        a key or invite the host's new invite made worthless, or nothing of this table."""
        if self.invite_of(token) is not None:
            return invite_used()
        revoked = revoked_seat(self.seats, token)
        return bad_token() if revoked is None else key_revoked(revoked)

    async def exchange_invite(self, invite: str | None, key: str | None = None) -> tuple[int, str]:
        """:meth:`exchange`, refused unless ``invite`` is an invite waiting here (or one
        exchanged for ``key`` already: the same exchange asked again): ``auth/invite_used``
        for one exchanged already, else ``auth/token``."""
        waiting = invite is not None and self.waiting_seat(invite) is not None
        again = key is not None and self.invite_of(invite) is not None
        exchanged = await self.exchange(invite, key) if invite and (waiting or again) else None
        if exchanged is None:
            raise self._unknown(invite)
        return exchanged

    async def exchange(self, invite: str, key: str | None = None) -> tuple[int, str] | None:
        """An invite's first join: its seat gets a fresh key (returned with the seat), stored
        before anyone is told, and the invite is worth nothing from now on (see
        :mod:`~thievery.server.seats`). ``None`` if ``invite`` is no invite waiting here
        (another connection exchanged it first). The key never leaves this process: with
        several, the owner is sent its hash.

        ``key``: the key, made by the client. Asked again with it (the answer lost on the
        way), the exchange is answered as made, once its key is stored."""
        key = key or new_token()
        digests = {"invite": hash_token(invite), "key": hash_token(key)}
        cluster = self.hub.cluster
        if cluster is not None and not self.is_owner:
            asked = self.seats_taken
            reply, _ = await cluster.at_owner(self, "exchange", digests)
            if reply is not None:
                raise_error(reply)
                self.take_answered_seats(reply["seats"], asked)
                return None if reply["seat"] is None else (int(reply["seat"]), key)
        seat = await self._exchange(digests["invite"], digests["key"])
        return None if seat is None else (seat, key)

    async def _exchange(self, invite_hash: str, key_hash: str) -> int | None:
        async with self.lock:
            if not self.is_owner:
                raise moved(self.id)
            await self.settle()
            seat = waiting_invite(self.seats, invite_hash)
            if seat is None:
                # This very exchange, made already: a follower's call whose reply was lost,
                # asked again where the table runs now (a take-over read it from storage;
                # the process that made it answers a call again from its own record), or a
                # client's, asked again with the key it made.
                made = exchanged_for(self.seats, invite_hash, key_hash)
                pending = self._key_writes.get(key_hash) if made is not None else None
                if pending is None:
                    return made
            else:
                seats = [Seat(**s.__dict__) for s in self.seats]
                seats[seat].token_hash = key_hash
                # Taken in memory at once (a second join with the invite finds it used) and
                # queued for storage under the lock (a later write of the seats is stored
                # after it), then committed outside it: the table's actions go on meanwhile,
                # often in the same commit. Nobody knows the key before it is stored.
                stored = [s.stored() for s in seats]
                write = asyncio.ensure_future(
                    self.write(SetSeats(self.id, stored), _seats_note(stored))
                )
                self._key_writes[key_hash] = write
                write.add_done_callback(lambda _: self._key_writes.pop(key_hash, None))
                write.add_done_callback(_retrieved)  # (its first asking tells its failure)
                self._take(seats, stored)  # (once its write is queued: nothing to undo else)
        if seat is None:  # asked again while its write is on its way: answered once stored
            assert pending is not None
            try:
                await asyncio.shield(pending)
            except Exception:
                raise ServerError(
                    "storage/failed", "the seat's key could not be stored yet: try again", 503
                ) from None
            return made
        try:
            # (a join given up on: its write still ends here)
            await checked(asyncio.shield(write), "the seat's key", self.key_stored(seat, key_hash))
        except asyncio.CancelledError:
            write.add_done_callback(partial(self._undo_if_failed, seat, key_hash, stored))
            raise
        except BaseException as e:
            await self._undo(seat, key_hash, stored, unsure=isinstance(e, Unsure))
            if isinstance(e, Unsure):
                self.unsettled = self.row_unsure = True
            if isinstance(e, ServerError) or not isinstance(e, Exception):
                raise
            log.exception("table %s: seat %d's key could not be stored", self.id, seat)
            raise ServerError(
                "storage/failed", f"the seat's key could not be stored ({type(e).__name__})", 503
            ) from None
        return seat

    def key_stored(self, seat: int, key_hash: str) -> Callable[[], bool]:
        """A read of whether storage has ``seat`` holding the key ``key_hash``."""

        def held() -> bool:
            stored = self.hub.storage.table(self.id)
            seats = [] if stored is None else stored.seats
            return seat < len(seats) and seats[seat].get("token_hash") == key_hash

        return held

    def _undo_if_failed(
        self, seat: int, key_hash: str, stored: list[JSON], write: asyncio.Future[Any]
    ) -> None:
        if write.cancelled() or write.exception() is not None:
            task = asyncio.ensure_future(self._undo(seat, key_hash, stored))
            task.add_done_callback(_retrieved)

    async def _undo(
        self, seat: int, key_hash: str, stored: list[JSON], unsure: bool = False
    ) -> None:
        """An exchange whose write failed: its seat waits for the invite again (unless the
        seat changed meanwhile). Had another write of the seats been made since, it held the
        key: the seats are stored again without it; so too if the write may have been
        committed (``unsure``: its reply lost, storage unreadable), or the seat would hold
        a key nobody was given."""
        async with self.lock:
            if self.seats[seat].token_hash != key_hash:
                return
            seats = [Seat(**s.__dict__) for s in self.seats]
            seats[seat].token_hash = None
            written_since = self.record.seats is not stored
            again = self._take(seats)
            if (written_since or unsure) and self.is_owner:
                try:
                    await self.write(SetSeats(self.id, again), _seats_note(again))
                except Exception:
                    log.exception("table %s: seat %d's invite could not be stored", self.id, seat)

    async def new_invite(self, seat: int) -> str:
        """The host's new invite for a human seat whose player lost their link or key: the
        seat waits for the new invite, and its old invite and key are worth nothing from
        now on. Stored before it is answered. Refused, changing nothing, for a seat that
        is not a human's, a finished table, or a seat whose player is connected (they would
        be locked out of their own seat): ``seat/present``. Like a key, the invite never
        leaves this process: with several, the owner is sent its hash.

        With several processes, each counts the others' connections as they announce them
        (a moment after a join): a connection the owner had not heard of yet is told why
        and closed (see :meth:`take_seats`)."""
        invite = new_token()
        digest = hash_token(invite)

        async def here() -> JSON:
            await self._new_invite(seat, digest)
            return {"seats": self.record.seats}

        if not self.is_owner:
            self._check_absent(seat, INVITE_PRESENT)  # (first here, where it is sure)
        asked = self.seats_taken
        reply = await where_it_runs(self, "invite", {"seat": seat, "invite": digest}, here)
        self.take_answered_seats(reply["seats"], asked)  # (made at the owner: its seats)
        return invite

    async def _new_invite(self, seat: int, invite_hash: str) -> None:
        async with self.lock:
            if not self.is_owner:
                raise moved(self.id)
            await self.settle()
            if not 0 <= seat < len(self.seats):
                raise ServerError("seat/unknown", f"there is no seat {seat}", 404)
            if self.seats[seat].kind != HUMAN:
                raise ServerError("seat/not_human", f"seat {seat} is a bot seat", 409)
            if self.is_over or self.broken:
                raise ServerError("table/over", "the game is over", 409)
            self._check_absent(seat, INVITE_PRESENT)
            seats = [Seat(**s.__dict__) for s in self.seats]
            seats[seat].reinvite(invite_hash)  # (its key and old invite worthless from now on)
            await self._store_seats(seats)
            self._reinvited(seat)
        self.broadcast_seats()

    def _reinvited(self, seat: int) -> None:
        """The host made a new invite for ``seat``: everyone here is told, and a connection
        at the seat (it joined with the key that is worthless now: one that came while the
        new invite was stored, or one at another process) is told why and closed."""
        self.broadcast_json({"type": "reinvited", "table": self.id, "seat": seat})
        for listener in [x for x in self.listeners if x.seat == seat]:
            listener.push(frame_text(key_revoked(seat).to_json()))
            listener.close()

    def _check_absent(self, seat: int, why: str) -> None:
        """Refuse what the host may do only while nobody is connected at a seat (``why``:
        the refusal's reason) if a player is connected there (``seat/present``)."""
        if 0 <= seat < len(self.seats) and self.connected(seat):
            raise ServerError("seat/present", f"a player is connected at seat {seat}: {why}", 409)

    def _take(self, seats: list[Seat], stored: list[JSON] | None = None) -> list[JSON]:
        """Take new seats in memory; their stored form (``stored``, if made already)."""
        stored = [s.stored() for s in seats] if stored is None else stored
        self.seats = seats
        self.record.seats = stored
        return stored

    async def _store_seats(self, seats: list[Seat]) -> None:
        """For the holder of :attr:`lock`: store new seats (announced to the followers),
        then take them."""
        rows = [s.stored() for s in seats]
        write = self.write(SetSeats(self.id, rows), _seats_note(rows))
        await self.checked_write(write, "the seats", lambda stored: stored.seats == rows)
        self._take(seats)

    async def checked_write(
        self, write: Awaitable[Any], what: str, done: Callable[[TableRecord], bool]
    ) -> None:
        """For the holder of :attr:`lock`: wait for a write about the table's row, which
        ``done`` tells in the row as stored (see :func:`~.storage.checked`). A write whose
        reply was lost and that storage does not hold (yet), or cannot say, leaves the
        table to read its row back before it changes again (:meth:`settle`), as a failed
        action does."""

        def held() -> bool:
            stored = self.hub.storage.table(self.id)
            return stored is not None and done(stored)

        try:
            await checked(write, what, held)
        except Unsure:
            self.unsettled = self.row_unsure = True
            raise

    def is_host(self, token: str | None) -> bool:
        """Whether a token is this table's host token."""
        return is_token_of(self.record.host_hash, token)

    def connected(self, seat: int) -> int:
        """How many connections a seat has (at every process, with several)."""
        here = sum(1 for listener in self.listeners if listener.seat == seat)
        if self.remote and seat >= 0:
            here += sum(c[seat] for _, _, c in self.remote.values() if seat < len(c))
        return here

    def local_presence(self) -> list[int]:
        """How many connections each seat has at this process."""
        counts = [0] * len(self.seats)
        for listener in self.listeners:
            if listener.seat is not None and 0 <= listener.seat < len(counts):
                counts[listener.seat] += 1
        return counts

    def take_presence(self, process: str, counts: list[int], at: float, period: float) -> None:
        """Another process's connections at each seat, as it announced them (at ``at``,
        monotonic; it says them again every ``period`` seconds): everyone here is told if
        that changes who is connected."""
        self.peers[process] = None
        before = self.remote.pop(process, (0.0, 0.0, []))[2]
        if any(counts):
            self.remote[process] = (at, period, counts)
        if before != (counts if any(counts) else []):
            self.presence_changed()

    def expire_presence(self, now: float, rounds: float) -> None:
        """Let go of the connections other processes announced and have not said again for
        ``rounds`` of their own periods (each says its own again every period: a lost note
        is not wrong for good)."""
        stale = [p for p, (at, period, _) in self.remote.items() if now > at + rounds * period]
        for process in stale:
            del self.remote[process]
        if stale:
            self.presence_changed()

    def drop_presence(self, process: str) -> None:
        """A process is gone: its connections with it."""
        self.peers.pop(process, None)
        if self.remote.pop(process, None) is not None:
            self.presence_changed()

    @property
    def names(self) -> list[str]:
        """Each seat's name (public: event words name seats by them). Kept for the seats
        they came from: new seats are always a new list, never the old one changed."""
        seats, (of, names) = self.seats, self._names
        if of is not seats:
            names = [s.name for s in seats]
            self._names = (seats, names)
        return names

    def seats_json(self) -> list[JSON]:
        """The seats as anyone may see them."""
        return [
            {
                "seat": i,
                "kind": s.kind,
                "name": s.name,
                "bot": s.bot,
                "connected": self.connected(i),
                "reinvited": s.reinvited,
                # its invite waits to be used: nobody has taken the seat (its host's
                # browser shows the invite link until then)
                "invited": s.invited,
            }
            for i, s in enumerate(self.seats)
        ]

    def summary(self) -> JSON:
        """The table for listings: game, seats, who is to act, the result."""
        return {
            "id": self.id,
            "game": self.spec.name,
            "title": self.spec.title,
            "players": self.state.players,
            "options": self._listing[0],
            # Fair deals: the commitment to the deal, and a scenario's chosen deal in the
            # open (its seed and every option, stacked ones included).
            "commitment": self.commitment,
            "scenario": self.record.scenario,
            "seats": self.seats_json(),
            "to_act": list(self.state.to_act),
            # While the game runs, only the changes a spectator has seen: the count of
            # actions would show hidden moves (the cards a seat adds in secret).
            "actions": self.version if self.is_over else self.seq[None],
            "over": self.is_over,
            "closed": self.closed,
            "result": self.state.result(),
            "turn_seconds": self.record.turn_seconds,
            "spectators": sum(1 for listener in self.listeners if listener.seat is None),
            "created_at": self.record.created_at,
            "prev_id": self.record.prev_id,
            "next_id": self.record.next_id,
            **(
                {
                    "scenario_seed": self.record.seed,
                    # every option, stacked ones too (bulky inline values shortened)
                    "scenario_options": self._listing[1],
                }
                if self.record.scenario
                else {}
            ),
        }

    @functools.cached_property
    def _listing(self) -> tuple[JSON, JSON]:
        """The options as listings show them, public and (scenarios) all: worked out once,
        as shortening an inline card set hashes it, and options never change."""
        game = plugin(self.spec.name)
        return game.listing_options(self.record.options), game.files.listing(self.record.options)

    @property
    def commitment(self) -> str | None:
        """The published commitment to this table's deal (tables made before commitments
        have none)."""
        salt = self.record.salt
        if salt is None:
            return None
        record = self.record
        return deal_commitment(
            self.spec.name,
            record.seed,
            salt,
            bool(record.scenario),
            version=record.game_version,
            players=record.players,
            options=record.options,
        )

    def _snapshot(self, audience: Audience) -> JSON:
        """What an audience sees now: its view, legal actions, who is to act, the result.

        Cached until the next action; callers must not change it.
        """
        cached = self._cache.get(audience)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        parts = self._parts(audience, self.state.view(audience))
        self._cache[audience] = (self.version, parts)
        return parts

    def _snapshots(self, audiences: Sequence[Audience]) -> None:
        """Cache several audiences' snapshots, their views built together (a game builds
        what they share once: :meth:`State.views`)."""
        need = [a for a in audiences if self._cache.get(a, (-1,))[0] != self.version]
        if len(need) < 2:
            return
        for audience, view in zip(need, self.state.views(need), strict=True):
            self._cache[audience] = (self.version, self._parts(audience, view))

    def _parts(self, audience: Audience, view: JSON) -> JSON:
        state = self.state
        legal = [a.to_json() for a in state.legal_actions(audience)] if audience is not None else []
        common = self._common
        if common[0] != self.version:  # who is to act and the result: every audience's
            common = self._common = (self.version, list(state.to_act), state.result())
        return {"view": view, "legal": legal, "to_act": common[1], "result": common[2]}

    def event_json(self, event: Event, audience: Audience) -> JSON:
        """An event for an audience, with its words (seats by name)."""
        return event_words(self.spec, event, audience, self.names)

    def state_frame(
        self, kind: str, audience: Audience, events: Sequence[Event], acted: bool = False
    ) -> JSON:
        """A frame with everything ``audience`` may know now (``events``: those of them
        it may see; ``acted``: an update's, see :meth:`_frame_head`)."""
        visible = [e for e in events if e.is_visible_to(audience)]
        return {**self._frame_head(kind, audience, visible, acted), **self._snapshot(audience)}

    def _frame_head(
        self, kind: str, audience: Audience, visible: Sequence[Event], acted: bool = False
    ) -> JSON:
        """A frame's head, with ``visible``: events the audience may see (the caller's
        choice: see :meth:`_adopt`). An update says whether it is the audience's own
        action (``acted``): a seat's, from any of its connections, or a bot's or the turn
        timer's for it. (Its events cannot say so: another seat's action may name this
        seat in them, a target or a reveal of every seat.)"""
        spec, names = self.spec, self.names  # (once, not once an event)
        head: JSON = {
            "type": kind,
            "table": self.id,
            "seat": audience,
            "version": self.seq[audience],
            "events": [event_words(spec, e, audience, names) for e in visible],
            # Real-time games: the server's game time now (None before the clock starts),
            # so a client's countdown is right even after a reload.
            "clock_ms": self.clock.ms() if self.clock.realtime else None,
        }
        if kind == "update":
            head["acted"] = acted
        return head

    def _encoded(self, audience: Audience) -> tuple[bytes, bytes]:
        """An audience's snapshot as JSON, encoded once for both its digest and its update
        frame: its legal actions, and the rest (view without the game's static keys, who
        is to act, the result) with sorted keys. Cached until the next broadcast."""
        cached = self._encoding.get(audience)
        if cached is not None and cached[0] == self.version:
            return cached[1], cached[2]
        legal, rest = _encode(self._snapshot(audience), self._static)
        self._encoding[audience] = (self.version, legal, rest)
        return legal, rest

    def state_frame_text(
        self, kind: str, audience: Audience, visible: Sequence[Event], acted: bool = False
    ) -> str:
        """:meth:`state_frame` as JSON text (``visible``: the events the audience may see,
        as :meth:`_adopt` chose them), its view without the game's static keys
        (the plug-in's ``static_view``: they never change, and the welcome frame had them).
        The snapshot's JSON is the one its digest was made of, spliced in, not re-encoded."""
        head = frame_text(self._frame_head(kind, audience, visible, acted))
        legal, rest = self._encoded(audience)
        # head is an object with keys; rest is one with (view, to_act, result): joined,
        # one object with every key once.
        return f'{head[:-1]},"legal":{legal.decode()},{rest[1:].decode()}'

    def welcome(self, audience: Audience) -> JSON:
        """The first frame of a connection: its state, the seats and the log so far, and
        which view keys are ``static`` (later frames leave them out; keep them)."""
        frame = self.state_frame("welcome", audience, [])
        frame["static"] = list(plugin(self.spec.name).static_view)
        frame["log"] = [self.event_json(e, audience) for e in self.logged(audience)]
        frame["summary"] = self.summary()
        # Built for one connection: not kept until the next action, or a table whose
        # players joined but have not moved yet would hold every seat's snapshot (~4 KB
        # each in Der Schattendieb).
        self._cache.pop(audience, None)
        return frame

    def logged(self, audience: Audience, limit: int = LOG_LIMIT) -> list[Event]:
        """The last ``limit`` events of :attr:`log` an audience may see."""
        chunks = (part for _, blob in self.log for part in _pickles(zlib.decompress(blob)))
        tail = (pickle.loads(blob) for _, blob in self.log_tail)
        events = (Event(*e) for part in (*chunks, *tail) for e in part)
        return [e for e in events if e.is_visible_to(audience)][-limit:]

    def _log(self, events: Sequence[Event]) -> None:
        """Keep an action's events in the log (and let the oldest go past LOG_KEEP)."""
        if not events:
            return
        blob = pickle.dumps([(e.type, e.data, e.audience) for e in events], HIGHEST)
        self.log_tail.append((len(events), blob))
        self.logged_events += len(events)
        if len(self.log_tail) >= LOG_CHUNK:  # the oldest actions compressed together
            count = sum(n for n, _ in self.log_tail)
            chunk = zlib.compress(b"".join(blob for _, blob in self.log_tail))  # (as pickled)
            self.log.append((count, chunk))
            self.log_tail = []
        while self.log and self.logged_events - self.log[0][0] >= LOG_KEEP:
            self.logged_events -= self.log.pop(0)[0]

    # ---------------------------------------------------------------- changing

    def _adopt(self, new: State, actor: int, events: list[Event]) -> dict[Audience, list[Event]]:
        """Take the new state; return, per audience that sees a change, its events.

        An action with events the spectators see changes what they see whatever their
        view: with no spectator here to send it to, that view is then neither built nor
        compared (the digest it would leave is taken later, of the state before the next
        action that needs it: one whose change only a comparison can tell)."""
        audiences = self.audiences
        shown = [e for e in events if e.is_visible_to(None)]
        if shown and not any(listener.seat is None for listener in self.listeners):
            audiences = audiences[:-1]  # (None is last)
            self._unseen = True
            self.seq[None] += 1
        elif self._unseen:  # the spectators' digest, of the state before this action
            self._seen[None] = _digest(*self._encoded(None))
            self._unseen = False
        self.state = new
        self.version += 1
        self._log(events)
        changed: dict[Audience, list[Event]] = {}
        self._snapshots([a for a in audiences if a in self.watched])
        for audience in audiences:
            visible = [e for e in events if e.is_visible_to(audience)]
            if audience not in self.watched:  # a bot seat: its number is nobody's to see
                self.seq[audience] += 1
                self.legal_seq[audience] = self.seq[audience]
                changed[audience] = visible
                continue
            now = _digest(*self._encoded(audience))
            seen = self._seen[audience]
            if visible or audience == actor or now != seen:
                self.seq[audience] += 1
                changed[audience] = visible
                if audience == actor or now[1] != seen[1]:
                    self.legal_seq[audience] = self.seq[audience]
            self._seen[audience] = now
        if audiences is not self.audiences:
            changed[None] = shown
        return changed

    def replay_row(self, row: ActionRow) -> None:
        """Apply a stored action while restoring (nobody is told)."""
        if row.n != self.version:
            raise ValueError(f"table {self.id}: action {row.n} where {self.version} was expected")
        new = self.state.clone()
        events = new.apply(row.seat, row.action)
        self._adopt(new, row.seat, events)
        self.waiting_since = dict.fromkeys(new.to_act, time.monotonic())
        self.clock.resume(new)  # the clock ran before: it runs on

    def _broadcast(self, changed: Mapping[Audience, list[Event]], actor: int) -> None:
        """Send each connection its audience's update (``actor``: the seat that acted)."""
        frames: dict[Audience, str] = {}
        for listener in list(self.listeners):
            audience = listener.seat
            if audience not in changed:
                continue
            if audience not in frames:
                events, acted = changed[audience], audience == actor
                frames[audience] = self.state_frame_text("update", audience, events, acted)
            listener.push(frames[audience])
        # (kept between actions, the snapshots would cost more than all else)
        self._cache.clear()
        self._encoding.clear()

    def broadcast_json(self, frame: JSON) -> None:
        """Send one frame to every connection."""
        text = frame_text(frame)
        for listener in list(self.listeners):
            listener.push(text)

    def _parse(self, data: Any) -> Action:
        if isinstance(data, Action):
            return data
        if not isinstance(data, Mapping):
            raise MalformedAction(f"an action is an object with a 'type', not {data!r:.80}")
        try:
            return self.spec.parse_action(data)
        except ThieveryError:
            raise
        except (TypeError, ValueError, KeyError, AttributeError) as e:
            raise MalformedAction(f"not an action: {e}") from None

    async def act(
        self,
        seat: int,
        data: Any,
        version: int | None,
        by: str = HUMAN,
        *,
        uncancelled: bool = False,
        keyed: int | None = None,
    ) -> tuple[int, list[Event]]:
        """Apply a seat's action if it is legal and fresh; store it; tell everyone.

        ``keyed``: the seat's count of new invites when the key the action came with was
        checked (``Seat.reinvited``); if the host has made the seat a new invite since, the
        key is worthless and the action is refused (``auth/revoked``), even one that was
        waiting for the table meanwhile.

        Returns the seat's new version and the events it may see. Cancelling the caller
        does not cancel an action already on its way to storage: it runs in a task of its
        own, unless the caller says it is ``uncancelled`` (a task nobody cancels: it runs
        there, and what the caller sends after it goes out with its updates). A follower
        copy asks the table's owner to do it and answers once the action has reached it.
        """
        for _ in range(3):
            if self.is_owner:
                try:
                    if uncancelled:
                        seq, events, _ = await self._act(seat, data, version, by, keyed)
                    else:
                        seq, events, _ = await self._act_here(seat, data, version, by, keyed)
                    return seq, events
                except ServerError as e:
                    if e.code != "table/moved":  # moved: nothing stored; ask the owner
                        raise
                continue
            cluster = self.hub.cluster
            assert cluster is not None  # a follower exists only with several processes
            action = self._parsed(data).to_json()
            args = {"seat": seat, "action": action, "version": version, "keyed": keyed}
            pinned = {**args, "version": self.seq[seat] if version is None else version}
            sent_at = self.version
            reply, used = await cluster.at_owner(self, "act", args, pinned)
            if reply is None:  # this process took the table over meanwhile
                stored = self._stored_since(sent_at, seat, action)
                if used is pinned and stored is not None:  # the silent owner stored it
                    return await self._outcome(stored, seat)
                data, version = used["action"], used["version"]
                continue
            raise_error(reply)
            return await self._outcome(int(reply["n"]), seat)
        raise unavailable(self.id)

    async def _act_here(
        self, seat: int, data: Any, version: int | None, by: str, keyed: int | None = None
    ) -> tuple[int, list[Event], int]:
        task = asyncio.ensure_future(self._act(seat, data, version, by, keyed))
        task.add_done_callback(_retrieved)  # a refusal nobody waits for any more is fine
        try:
            return await asyncio.shield(task)
        finally:
            # A refusal's traceback holds this frame, which held the task, which holds the
            # refusal: a cycle of every refused action, freed only by a full collection.
            del task

    def _parsed(self, data: Any) -> Action:
        try:
            return self._parse(data)
        except ThieveryError as e:
            raise from_game_error(e) from None

    async def _outcome(self, n: int, seat: int) -> tuple[int, list[Event]]:
        """A follower copy: the seat's version and events once action ``n`` reached it."""
        cluster = self.hub.cluster
        assert cluster is not None
        deadline = time.monotonic() + self.hub.caps.storage_seconds
        while self.version <= n:
            if time.monotonic() > deadline:
                raise unavailable(self.id)
            try:
                if self._progress is None:
                    self._progress = asyncio.Event()
                await asyncio.wait_for(self._progress.wait(), 0.5)
            except TimeoutError:  # its announcement was lost: read it from storage
                await cluster.catch_up(self, n + 1)
        _, _, seq, events = self._recent.get(n, (seat, {}, self.seq[seat], []))
        return seq, [e for e in events if e.is_visible_to(seat)]

    def _stored_since(self, since: int, seat: int, action: JSON) -> int | None:
        """The n of ``seat``'s ``action`` if it was applied as action ``since`` or later."""
        for n, (actor, done, _, _) in self._recent.items():
            if n >= since and actor == seat and done == action:
                return n
        return None

    async def serve_call(self, op: str, args: JSON) -> JSON:
        """Do what a follower process forwarded (this process owns the table). Its
        arguments are checked as a client's would be: a malformed call is refused
        (``frame/malformed``, ``seat/unknown``) and changes nothing."""
        if op == "act":
            if "action" not in args:
                raise ServerError("frame/malformed", "a forwarded action has no action")
            seat, version = self.seat_arg(args), int_arg(args, "version")
            keyed = int_arg(args, "keyed")
            _, _, n = await self._act_here(seat, args["action"], version, HUMAN, keyed)
            return {"n": n}
        if op == "summary":
            return {"summary": self.summary()}
        if op == "bot":
            seat, keyed, bot = self.seat_arg(args), int_arg(args, "keyed"), args.get("bot")
            if bot is not None and not isinstance(bot, str):
                raise ServerError("frame/malformed", "a forwarded bot request names a bot")
            await self.set_bot(seat, bot, bool(args.get("absent")), keyed)
            return {"seats": self.record.seats}
        if op == "exchange":
            exchanged = await self._exchange(str_arg(args, "invite"), str_arg(args, "key"))
            return {"seat": exchanged, "seats": self.record.seats}
        if op == "invite":
            await self._new_invite(self.seat_arg(args), str_arg(args, "invite"))
            return {"seats": self.record.seats}
        if op == "close":
            await self.hub.close_table(self)
            return {}
        if op == "again":
            return {"next": (await self.hub.again(self, str_arg(args, "client"))).id}
        if op == "arrived":
            self.clock.arrived.add(self.seat_arg(args))
            self.start_clock()
            return {}
        if op == "handoff":
            return {"released": await self.hand_off()}
        handler = self.hub.calls.get(op)
        if handler is not None:
            return await handler(self, args)
        raise ServerError("cluster/unknown", f"unknown call {op[:40]!r}", 400)

    def seat_arg(self, args: JSON) -> int:
        """A forwarded call's seat: one of this table's."""
        seat = int_arg(args, "seat")
        if seat is None or not 0 <= seat < len(self.seats):
            raise ServerError("seat/unknown", f"there is no seat {seat!r:.20}", 404)
        return seat

    async def _act(
        self, seat: int, data: Any, version: int | None, by: str, keyed: int | None = None
    ) -> tuple[int, list[Event], int]:
        if not 0 <= seat < len(self.seats):  # (never the clock's: it ticks by act_locked)
            raise ServerError("seat/unknown", f"there is no seat {seat}", 404)
        async with self.lock:
            if not self.is_owner:
                raise moved(self.id)
            await self.settle()  # (first: the version is checked against what is stored)
            self.check_keyed(seat, keyed)
            if self.broken:
                raise ServerError("table/broken", self.broken, 409)
            if self.is_over:
                raise ServerError("table/over", "the game is over", 409)
            # Stale only if the seat's choices changed since that version (or it acted
            # since): in sealed, simultaneous steps another seat's choice changes the
            # version (its badge) but not what this seat may do.
            if version is not None and not self.legal_seq[seat] <= version <= self.seq[seat]:
                raise stale(version, self.seq[seat])
            if by == HUMAN and self.seats[seat].bot is not None:
                raise ServerError(
                    "seat/bot",
                    f"a bot ({self.seats[seat].bot}) plays seat {seat} now; take "
                    "the seat back first",
                    409,
                )
            seq, events = await self.act_locked(seat, data, by)
            return seq, events, self.last_n

    async def act_locked(self, seat: int, data: Any, by: str) -> tuple[int, list[Event]]:
        """:meth:`act` without its checks, for the holder of :attr:`lock` (the table's own
        moves: bots, timers, the clock)."""
        await self.settle()
        if self.is_over:  # (closed by what settling read back)
            raise ServerError("table/over", "the game is over", 409)
        if self.clock.realtime and seat != CLOCK:
            # The action happens now: tried first on a copy moved to now, so a refused one
            # stores no clock tick either (bad input changes nothing).
            tick = self.clock.tick(self.state, True)
            try:
                trial = self.state.clone()
                if tick is not None:
                    trial.apply(CLOCK, self._parse(tick))
                trial.apply(seat, self._parse(data))
            except ThieveryError as e:
                raise from_game_error(e) from None
            if tick is not None:
                await self.act_locked(CLOCK, tick, "clock")
        try:
            action = self._parse(data)
            new = self.state.clone()
            events = new.apply(seat, action)
        except ThieveryError as e:
            raise from_game_error(e) from None
        row = ActionRow(self.version, seat, action.to_json(), time.time(), by)
        over = new.is_over
        result = new.result()
        note = {"k": "a", "n": row.n, "s": seat, "a": row.action, "b": by, "at": row.at}
        try:
            alone = self.hub.cluster is None  # else the fenced write appends the row
            # (a lone append: the writer runs those queued together as one statement)
            store = (
                Append(self.id, row)
                if alone and not over
                else partial(self._store, row, over, result, alone)
            )
            await self.write(store, note, row)
        except ServerError:
            raise
        except asyncio.CancelledError:
            # (a caller that said it is never cancelled was: a server's forced stop) The
            # commit may happen all the same: storage is read back before the next write.
            self.unsettled = True
            raise
        except Exception as e:
            log.exception("table %s: could not store action %d", self.id, row.n)
            # The commit may have happened all the same (a connection lost before its
            # reply): storage, read back, says what was stored; that is taken, once.
            ours = await self._settle(row, lost=is_lost_connection(e))
            if ours is None:
                raise ServerError(
                    "storage/failed",
                    f"the action could not be stored ({type(e).__name__}); the table was "
                    "read back from storage: try again",
                    503,
                ) from None
            events = ours
        else:
            # (a follower's route may have applied it already: see _settle)
            if self.version == row.n:
                self._applied(new, seat, row.action, events)
        self.last_n = row.n
        if seat == CLOCK:
            return 0, events
        return self.seq[seat], [e for e in events if e.is_visible_to(seat)]

    async def settle(self) -> None:
        """For the holder of :attr:`lock`, before it changes the table: if a failed write
        left it unsure what storage holds, read storage back first (see :meth:`_settle`);
        503 while storage cannot be read."""
        if self.unsettled:
            await self._settle(None)

    async def _settle(self, row: ActionRow | None, lost: bool = False) -> list[Event] | None:
        """After a failed write: take the actions storage holds past this table's version
        (the failed write's among them if its commit happened), everyone told. Returns the
        events of ``row`` if it is the one stored in its place, else ``None``. If storage
        cannot be read, the table takes no action until it can (503 till then); nor, after
        a ``lost`` connection whose action storage does not hold, before it has been read
        once more (a commit can become visible after the connection that sent it broke)."""
        start = self.version if row is None else min(self.version, row.n)
        try:
            # (the row first: the actions read after it hold every one its commit saw)
            record = None
            if self.row_unsure:  # (a write about the row that may have been made)
                record = await asyncio.to_thread(self.hub.storage.table, self.id)
            stored = await asyncio.to_thread(self.hub.storage.actions, self.id, start)
        except Exception as e:
            log.exception("table %s: could not read back its actions", self.id)
            self.unsettled = True
            raise ServerError(
                "storage/failed",
                f"storage cannot say whether the last action was stored ({type(e).__name__})",
                503,
            ) from None
        self.unsettled = False
        ours: list[Event] | None = None
        for stored_row in stored:
            # (the clock is not moved back to the stored game time: this process's clock
            # is the game's, and ran on)
            events = self.apply_stored(stored_row, resume=False)
            if row is not None and stored_row.n == row.n and self._same(stored_row, row):
                if events is None:  # applied before the read (a follower's route)
                    events = self._recent.get(row.n, (0, {}, 0, []))[3]
                ours = events
            elif events is None and stored_row.n >= self.version:
                break  # it does not apply here (the table is broken)
        if self.row_unsure:
            self.row_unsure = False
            if record is not None:  # (after the actions: a game they end is not "closed")
                self.refresh(record)
        if row is not None and ours is None and lost:
            self.unsettled = True
        return ours

    def _same(self, stored: ActionRow, row: ActionRow) -> bool:
        """Whether a stored action is ``row``: its seat, who acted, and the action itself
        (parsed: JSON's round trip may change its form, never its meaning)."""
        if (stored.seat, stored.by) != (row.seat, row.by):
            return False
        try:
            return self._parse(stored.action) == self._parse(row.action)
        except ThieveryError:
            return False

    def _applied(self, new: State, seat: int, action: JSON, events: list[Event]) -> None:
        """A stored action's state taken: everyone here told, the bots woken."""
        before = set(self.state.to_act)
        changed = self._adopt(new, seat, events)
        now = time.monotonic()
        self.changed_at = now
        if None in changed:  # a spectator sees it: everyone does
            self.shown += 1
            self.shown_at = now
        # A seat's turn timer runs from the last change everyone saw that concerns it: its
        # turn coming, or its own move seen. Not from a move of its own nobody else sees
        # (a card added in secret): restarted by those, the timer's stand-in would show,
        # by when it said "done", how many it had added, a whole turn each.
        shown = None in changed
        self.waiting_since = {
            s: now if (s not in before or (s == seat and shown)) else self.waiting_since.get(s, now)
            for s in new.to_act
        }
        self._broadcast(changed, seat)
        if new.is_over or self._driven:
            self.wake.set()
        if self.hub.cluster is not None:  # for forwarded actions (see _outcome)
            self._recent[self.version - 1] = (seat, action, self.seq.get(seat, 0), events)
            if len(self._recent) > 64:
                del self._recent[next(iter(self._recent))]
            progress, self._progress = self._progress, None
            if progress is not None:
                progress.set()
        if new.is_over:
            self.record.finished = True
            self.record.result = new.result()
            self.hub.finished(self)

    @property
    def _driven(self) -> bool:
        """Whether an action may give the driver work: a seat a bot plays, a turn timer or
        a real-time clock. (Else it waits for a seat handed to a bot, which wakes it.)"""
        return (
            bool(self.record.turn_seconds)
            or self.clock.realtime
            or any(seat.bot is not None for seat in self.seats)
        )

    def _store(
        self, row: ActionRow, over: bool, result: JSON | None, append: bool, conn: Any
    ) -> None:
        if append:
            Storage.append_action(conn, self.id, row)
        if over:
            Storage.finish_table(conn, self.id, result, row.n + 1)

    def write(
        self, op: Callable[[Connection], Any], note: JSON, row: ActionRow | None = None
    ) -> Awaitable[Any]:
        """Commit a write about this table (through the hub's writer), queued at once: the
        table's writes are committed in the order they were made (a write made under
        :attr:`lock` is stored before any made after it). With several processes it is
        fenced by this process's lease in the same transaction, and ``note`` is announced
        to the followers on commit; refused with ``table/moved`` (nothing stored) if
        another process took the table over. ``row``: an action to append there, in the one
        statement that checks the lease (several processes only)."""
        cluster = self.hub.cluster
        if cluster is None:
            return self.hub.writer.submit(op)
        epoch = self.lease

        def fenced(conn: Connection) -> Any:
            cluster.fence(conn, self.id, epoch, note)
            return op(conn)

        write: Callable[[Connection], Any] = fenced
        if row is not None:  # (queued with others, they go as one statement)
            write = FencedAppend(cluster, self.id, epoch, row, note, op)
        return self._unless_fenced(self.hub.writer.submit(write), epoch)

    async def _unless_fenced(self, written: Awaitable[Any], epoch: int | None) -> Any:
        """A fenced write's outcome; ``table/moved`` if another process took the table."""
        cluster = self.hub.cluster
        assert cluster is not None
        try:
            return await written
        except Fenced:
            if epoch is not None and self.lease == epoch:
                self.lease = None
                cluster.spawn(cluster.demote(self))
            raise moved(self.id) from None

    # ---------------------------------------------------------------- following

    def apply_stored(self, row: ActionRow, resume: bool = True) -> list[Event] | None:
        """Apply an action stored as ``n`` (if it is the next one) and tell this process's
        connections: a follower copy's, which its owner stored, or one whose write seemed to
        fail (see :meth:`_settle`). Its events, or ``None`` if it was not applied."""
        if row.n != self.version or self.broken:
            return None
        try:
            new = self.state.clone()
            events = new.apply(row.seat, row.action)
        except ThieveryError as e:
            self.broken = f"the stored action {row.n} does not apply here: {e}"
            log.error("table %s: %s", self.id, self.broken)
            return None
        self._applied(new, row.seat, row.action, events)
        if resume:
            self.clock.resume(new)
        return events

    def take_seats(self, stored: list[dict[str, Any]]) -> None:
        """The seats as the owner stored them (a seat handed to a bot or taken back, a
        key given). A seat whose key was taken away (the host's new invite) loses its
        connections here: they joined with that key."""
        old, self.seats = self.seats, [Seat.from_stored(s) for s in stored]
        self.record.seats = stored
        self.seats_taken += 1
        for i, (was, now) in enumerate(zip(old, self.seats, strict=False)):
            if now.reinvited > was.reinvited:
                self._reinvited(i)
        self.changed_at = time.monotonic()
        self.broadcast_seats()
        self.wake.set()

    def take_answered_seats(self, stored: list[dict[str, Any]], asked: int) -> None:
        """The seats in the owner's answer to a call of this process (made when
        :attr:`seats_taken` was ``asked``), taken unless seats came meanwhile: those may be
        newer than the answer (a later write's announcement can come first), and the
        call's own write is announced too."""
        if self.seats_taken == asked and stored != self.record.seats:
            self.take_seats(stored)

    def refresh(self, record: TableRecord) -> None:
        """A follower copy brought up to date with its stored row: seats, the table that
        plays again, and whether it was closed."""
        if record.seats != self.record.seats:
            self.take_seats(record.seats)
        if record.next_id and record.next_id != self.record.next_id:
            self.mark_next(record.next_id)
        if record.finished and not self.state.is_over:
            self.mark_closed()

    def mark_closed(self) -> None:
        """The table was closed (by its owner): tell everyone here and let them go."""
        if self.closed:
            return
        self.closed = True
        self.record.finished = True
        self.tell_closed()
        self.wake.set()  # (the owner's driver, if it runs: it ends)

    def tell_closed(self) -> None:
        """Tell everyone connected here that the table is closed, and let them go."""
        self.broadcast_json({"type": "closed", "table": self.id})
        for listener in list(self.listeners):
            listener.close()
        self.hub.finished(self)

    def mark_next(self, next_id: str) -> None:
        """A new table plays again after this one: tell everyone here (once)."""
        if self.record.next_id == next_id:
            return
        self.record.next_id = next_id
        self.broadcast_json({"type": "next", "table": self.id, "next": next_id})

    async def set_bot(
        self, seat: int, bot: str | None, absent: bool = False, keyed: int | None = None
    ) -> None:
        """Hand a human seat to a bot (``bot`` a name), or give it back (``None``);
        ``absent``: only if nobody is connected at the seat (``seat/present``: the host's
        hand-over, checked where the table runs too, which hears of every process's
        connections). ``keyed``: asked with the seat's own key, checked when the seat had
        that many new invites (see :meth:`act`)."""
        if absent and bot is not None:
            self._check_absent(seat, BOT_PRESENT)
        cluster = self.hub.cluster
        if cluster is not None and not self.is_owner:
            asked = self.seats_taken
            args = {"seat": seat, "bot": bot, "absent": absent, "keyed": keyed}
            reply, _ = await cluster.at_owner(self, "bot", args)
            if reply is not None:
                raise_error(reply)
                self.take_answered_seats(reply["seats"], asked)
                return
        async with self.lock:
            await self.settle()
            if not 0 <= seat < len(self.seats):
                raise ServerError("seat/unknown", f"there is no seat {seat}", 404)
            self.check_keyed(seat, keyed)
            current = self.seats[seat]
            if current.kind != HUMAN:
                raise ServerError("seat/not_human", f"seat {seat} is a bot seat", 409)
            if self.is_over:  # (the seats stay as they played, in the record too)
                raise ServerError("table/over", "the game is over", 409)
            if bot is not None:
                try:
                    make_bot(bot, self.spec.name, seat, self.record.deal_seed)
                except ThieveryError as e:
                    raise from_game_error(e) from None
                if absent:
                    self._check_absent(seat, BOT_PRESENT)
            seats = [Seat(**s.__dict__) for s in self.seats]
            seats[seat].bot = bot
            await self._store_seats(seats)
            self.changed_at = self.shown_at = time.monotonic()
            self.shown += 1  # (everyone sees the seats)
            self.waiting_since[seat] = self.changed_at
        self.broadcast_seats()
        self.wake.set()

    def check_keyed(self, seat: int, keyed: int | None) -> None:
        """For the holder of :attr:`lock`: refuse a seat's request whose key was checked
        when the seat had had ``keyed`` new invites, if the host has made it another since
        (``auth/revoked``: that key is worth nothing now). A count ahead of this copy's is
        not refused here: this process may be an owner deposed without knowing it yet,
        whose write is fenced (``table/moved``), and the request goes on to the owner."""
        if keyed is not None and keyed < self.seats[seat].reinvited:
            raise key_revoked(seat)

    def broadcast_seats(self) -> None:
        """Tell everyone who sits where and who is connected, now."""
        if self._presence is not None:
            self._presence.cancel()
        self._send_seats()

    def presence_changed(self) -> None:
        """Someone came or left: tell everyone at once if no seats frame went out in the
        last ``presence_interval``, else once when it is over, so a burst of joins and
        leaves costs each connection one frame, not one per join (N connections coming
        cost O(N) frames, not O(N²))."""
        if self._presence is not None:
            return  # one is due; it will say everything
        wait = self._presence_at + self.hub.caps.presence_interval - time.monotonic()
        if wait <= 0:
            self._send_seats()
            return
        self._presence = asyncio.get_running_loop().call_later(wait, self._send_seats)

    def _send_seats(self) -> None:
        self._presence = None
        self._presence_at = time.monotonic()
        self.broadcast_json({"type": "seats", "table": self.id, "seats": self.seats_json()})

    # ---------------------------------------------------------------- real time

    def start_clock(self) -> None:
        """Start a real-time game's clock once every human seat has come (or is played by
        a bot); the driver then ticks it."""
        if self.clock.start(self.state, self.seats):
            self.wake.set()

    async def tick_locked(self, keep_silent: bool) -> None:
        """Move a real-time game's clock to now (kept if something happened, or if asked),
        for the holder of :attr:`lock`."""
        tick = self.clock.tick(self.state, keep_silent)
        if tick is not None:
            await self.act_locked(CLOCK, tick, "clock")

    # ---------------------------------------------------------------- listeners

    def attach(self, listener: Listener, key: str | None = None) -> None:
        """A connection joins (its welcome frame goes first; with ``key``, the seat's key
        its invite was just exchanged for, which only this connection is told)."""
        self.used_at = time.monotonic()
        welcome = self.welcome(listener.seat)
        if key is not None:
            welcome["key"] = key
        listener.push(frame_text(welcome))
        cluster = self.hub.cluster
        seated = listener.seat is not None and all(x.seat is None for x in self.listeners)
        if cluster is not None and not self.is_owner and seated:
            cluster.spawn(self._claim())  # its first player here: run it here if it can
        self.listeners.add(listener)
        if listener.seat is not None:
            self.clock.arrived.add(listener.seat)
            self.start_clock()
            cluster = self.hub.cluster
            if cluster is not None and not self.is_owner and self.clock.realtime:
                cluster.spawn(self._arrived(listener.seat))  # the owner starts the clock
            if cluster is not None:
                cluster.announce_presence(self)
        self.presence_changed()

    async def hand_off(self) -> bool:
        """The owner, asked by a follower whose clients came: if nobody uses the table
        here, hand its lease back and let it go from memory, so the table runs where its
        clients are (and is not played twice over). Whether it did."""
        cluster = self.hub.cluster
        if cluster is None or self.listeners or self.sessions or self.is_over:
            return False
        async with self.lock:
            if self.listeners or self.sessions or not self.is_owner:
                return False
            await self.driver.stop()
            await cluster.release(self)
            self.hub.forget(self)
        return True

    async def _claim(self) -> None:
        """A follower whose first player came (spectators move no table): ask the owner
        to hand the table over."""
        cluster = self.hub.cluster
        assert cluster is not None
        with contextlib.suppress(ServerError):
            reply, _ = await cluster.at_owner(self, "handoff", {})
            if reply is not None and reply.get("released"):
                await cluster.take_over(self)

    async def _arrived(self, seat: int) -> None:
        cluster = self.hub.cluster
        assert cluster is not None
        with contextlib.suppress(ServerError):
            reply, _ = await cluster.at_owner(self, "arrived", {"seat": seat})
            if reply is None:  # this process runs the table now
                self.start_clock()

    def detach(self, listener: Listener) -> None:
        """A connection leaves."""
        if listener in self.listeners:
            self.listeners.discard(listener)
            cluster = self.hub.cluster
            if cluster is not None and listener.seat is not None:
                cluster.announce_presence(self)
            self.presence_changed()

    # ---------------------------------------------------------------- running

    def start(self) -> None:
        """Start the bot driver (if the game is not over)."""
        self.driver.start()

    async def stop(self) -> None:
        """Stop the bot driver and close every connection."""
        await self.driver.stop()
        if self._presence is not None:
            self._presence.cancel()
            self._presence = None
        for listener in list(self.listeners):
            listener.close()
