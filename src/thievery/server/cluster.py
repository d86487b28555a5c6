"""Several server processes on one PostgreSQL database: which process owns a table, and
how the others follow it.

**Owners.** Each process is a row of ``thievery_owners`` that its heartbeat keeps alive
(``expires_at``, on the database's clock, so no two machines' clocks need agree). A table
is owned by one process at a time: its row in ``thievery_leases`` names the owner and an
``epoch`` raised at every change of owner. A lease is live while its owner's row is; a
process takes a table whose lease is released or whose owner's row has expired (after a
kill -9, ``lease_seconds`` after the last heartbeat). A lease row with a heartbeat per
process, not advisory locks: an advisory lock lives in one database session, so a write
made on another connection (the writer's) could not be fenced by it, and a session lost
to a network fault would hand the table on while its old owner still runs; and one
heartbeat row per process renews every lease it holds at once, whatever their number.

**Fencing.** Every write about a table (an action, its seats, its end, the table that plays
again) runs in one transaction with ``SELECT … FOR SHARE`` of the table's lease row for
this process and epoch: if another process took the table over, the row no longer matches
and the transaction is rolled back (:class:`Fenced`); a take-over waits for a writer
holding the row and a writer waits for a take-over, so an action is stored only while its
process owns the table. The (table, n) key of the action log refuses a second action ``n``
besides.

**Followers.** (With ``--workers N``, a table's websocket that reached a worker other than
the owner is first handed to the owner, connection and all: :mod:`~thievery.server.handoff`.)
A process whose client uses a table another process owns keeps a follower copy: the table
restored from storage, then every action the owner announces applied to it (the engines
are deterministic), so it builds each of its own clients' frames from the
seat's view like the owner does. Announcements go through PostgreSQL LISTEN/NOTIFY on one
channel, sent in the transaction that stores the action (so only what is committed is
announced, in commit order), and only for a table some process follows (a count in its
lease row: a commit that notifies holds PostgreSQL's notification lock to its end, so such
commits happen one at a time); a gap (a lost connection, a payload too long) is filled
from storage. A follower forwards what its clients ask (act, hand a seat to a bot, close,
play again) to the owner over the owner's own channel and waits for the reply; when its
first client comes and nobody uses the table at the owner, the owner hands the table over
(a table runs where its clients are). If the owner does not answer and its lease has run
out, the follower takes the table over, reads whatever was stored meanwhile, and does it
itself. An action whose fate at a silent owner is unknown is then done against the
version its seat had when it was sent: if the owner stored it, it is found in the log and
acknowledged, else the seat's choices are as they were; it is never applied twice.

**Presence.** Who is connected at a table counts every process's connections: each
process announces its own at each seat (on :data:`PRESENCE`, outside any write) when they
change, a follower always (its owner keeps a copy), an owner once it has heard of another
process with a copy; a process that loads a copy, takes a table over or listens again
after a break asks the others, and every process with a copy answers (with its counts,
none included), so each knows whom to tell; a copy let go says so. A turn of the loop's
announcements go in as few notifications as fit. Announcements are soft state: each
process says its connections again every :data:`PRESENCE_ROUND` heartbeats (a follower
copy even with none), notes that failed go with the next round, and counts not said
again for :data:`PRESENCE_KEPT` of their process's own rounds (each note says how long
one is) are let go, so a lost note is not wrong for good; a process whose heartbeat ran out
(a kill -9) has its counts dropped at the others' next heartbeat. A count can lag a join
by a moment: the host's ``seat/present`` checks are made where the table runs as well as
where they were asked, and a connection the owner had not heard of when a new invite was
made is told ``auth/revoked`` and closed.

Other modules use the same means: a call of theirs is forwarded to the owner
(``hub.calls``, :func:`where_it_runs`: a lobby claim, a chat line) and a fenced write of
theirs announces a kind of theirs, which a follower hands to ``Cluster.notes`` (a chat
line, for the follower's own connections).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url

from thievery.core.protocol import JSON
from thievery.server.errors import ServerError
from thievery.server.storage import TRANSIENT_TRIES, ActionRow, Batched, is_transient

if TYPE_CHECKING:
    import psycopg

    from thievery.server.hub import Hub
    from thievery.server.live import LiveTable

log = logging.getLogger("thievery.server")

CHANNEL = "thievery_tables"  # every table's announcements: "<table id> <json>"
# Who is connected where: JSON with the process ("p"), the seconds between its rounds
# ("r"), per table its connections at each seat ("t": id -> counts, null: its copy is
# gone) and the tables whose copy asks the others for theirs ("ask": just loaded).
PRESENCE = "thievery_presence"
PRESENCE_ROUND = 3  # heartbeats between two announcements of the same connections
PRESENCE_KEPT = 2.5  # rounds another process's connections count without a word
MAX_PAYLOAD = 7900  # bytes; PostgreSQL refuses a notification payload of 8000 or more
READS = ("summary",)  # calls that change nothing: one whose reply is too long is refused
RETRY_FIRST, RETRY_MOST = 0.005, 0.2  # seconds before a call to a table's owner is made again
NOW = "EXTRACT(EPOCH FROM clock_timestamp())"
_ALIVE = f"EXISTS (SELECT 1 FROM thievery_owners o WHERE o.id = l.owner AND o.expires_at > {NOW})"

_REGISTER = text(
    "INSERT INTO thievery_owners (id, expires_at, started_at, about) "
    f"VALUES (:me, {NOW} + :ttl, {NOW}, :about)"
)
_BEAT = text(f"UPDATE thievery_owners SET expires_at = {NOW} + :ttl WHERE id = :me")
_MINE = text("SELECT table_id, epoch FROM thievery_leases WHERE owner = :me")
_FORGET_DEAD = text(f"DELETE FROM thievery_owners WHERE expires_at < {NOW} - 86400")
_STOP = text("UPDATE thievery_owners SET expires_at = 0 WHERE id = :me")
_ACQUIRE = text(
    "INSERT INTO thievery_leases AS l (table_id, owner, epoch) VALUES (:t, :me, 1) "
    "ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, epoch = l.epoch + 1 "
    f"WHERE l.owner IS NULL OR l.owner = EXCLUDED.owner OR NOT {_ALIVE} "
    "RETURNING epoch"
)
NEW_EPOCH = 1  # a new table's lease, its maker's
_CLAIM_NEW = text(
    f"INSERT INTO thievery_leases (table_id, owner, epoch) VALUES (:t, :me, {NEW_EPOCH})"
)
_FENCE = text(
    "SELECT CASE WHEN followers > 0 THEN pg_notify(:channel, :payload) END "
    "FROM thievery_leases WHERE table_id = :t AND owner = :me AND epoch = :epoch FOR SHARE"
)
_APPEND = text(
    "WITH lease AS (SELECT followers FROM thievery_leases WHERE table_id = :t AND owner = :me "
    "AND epoch = :epoch FOR SHARE), "
    'stored AS (INSERT INTO thievery_actions (table_id, n, seat, action, at, "by") '
    "SELECT :t, :n, :seat, CAST(:action AS JSON), :at, :by FROM lease RETURNING n) "
    "SELECT stored.n FROM stored CROSS JOIN lease LEFT JOIN LATERAL "
    "(SELECT pg_notify(:channel, :payload) WHERE lease.followers > 0) announced ON true"
)
# The same for several tables' actions at once (one per table), fenced row by row: a row
# whose lease is no longer ours is not inserted (and is missing from what it returns).
# Its lease rows are locked in table order, as _FOLLOW locks them: two statements that
# lock several rows in one order cannot deadlock.
_APPEND_MANY = text(
    "WITH input AS (SELECT * FROM unnest(CAST(:ts AS text[]), CAST(:ns AS integer[]), "
    "CAST(:seats AS integer[]), CAST(:actions AS text[]), CAST(:ats AS double precision[]), "
    "CAST(:bys AS text[]), CAST(:epochs AS bigint[]), CAST(:payloads AS text[])) "
    "AS i(t, n, seat, action, at, by, epoch, payload)), "
    "lease AS (SELECT input.*, l.followers FROM input JOIN thievery_leases l "
    "ON l.table_id = input.t AND l.owner = :me AND l.epoch = input.epoch "
    "ORDER BY l.table_id FOR SHARE OF l), "
    'stored AS (INSERT INTO thievery_actions (table_id, n, seat, action, at, "by") '
    "SELECT t, n, seat, CAST(action AS JSON), at, by FROM lease RETURNING 1), "
    # every row of lease is inserted (or the statement fails): announce those followed
    "announced AS (SELECT pg_notify(:channel, payload) FROM lease WHERE followers > 0) "
    "SELECT (SELECT count(*) FROM stored), (SELECT count(*) FROM announced)"
)
_FOLLOW = text(
    "WITH locked AS MATERIALIZED (SELECT table_id FROM thievery_leases "
    "WHERE table_id = ANY(:ids) ORDER BY table_id FOR UPDATE) "
    "UPDATE thievery_leases l SET followers = GREATEST(0, l.followers + :change) "
    "FROM locked WHERE l.table_id = locked.table_id"
)
_RELEASE = text(
    "UPDATE thievery_leases SET owner = NULL WHERE table_id = :t AND owner = :me AND epoch = :epoch"
)
_RELEASE_ALL = text("UPDATE thievery_leases SET owner = NULL WHERE owner = :me")
_OWNER_OF = text(
    f"SELECT l.owner, l.owner IS NOT NULL AND {_ALIVE} FROM thievery_leases l WHERE l.table_id = :t"
)
_ALIVE_PROCESSES = text(
    f"SELECT id FROM thievery_owners WHERE id = ANY(:ids) AND expires_at > {NOW}"
)
_LIVE = text(
    f"SELECT l.table_id FROM thievery_leases l WHERE l.table_id = ANY(:ids) "
    f"AND l.owner IS NOT NULL AND {_ALIVE}"
)


class Fenced(RuntimeError):
    """This process no longer holds the table's lease: the write was rolled back."""


@dataclass(frozen=True, slots=True)
class FencedAppend(Batched):
    """A write that appends an action to a table's log, fenced by this process's lease
    (:meth:`Cluster.append`), then does the rest of the write (``op``). Queued one after
    another, they go as one statement (:meth:`Cluster.append_many`); if a lease of the
    batch was lost, the writer commits each on its own and only that one is refused."""

    cluster: Cluster
    table_id: str
    epoch: int | None
    row: ActionRow
    note: JSON
    op: Callable[[Connection], Any]

    def __call__(self, conn: Connection) -> Any:
        self.cluster.append(conn, self.table_id, self.epoch, self.row, self.note)
        return self.op(conn)

    @classmethod
    def all(cls, conn: Connection, ops: Sequence[Any]) -> list[Any]:
        clusters = {id(op.cluster) for op in ops}
        tables = {op.table_id for op in ops}
        if len(clusters) > 1 or len(tables) < len(ops) or any(op.epoch is None for op in ops):
            return [op(conn) for op in ops]  # (one statement: one table's actions in order)
        ops[0].cluster.append_many(conn, ops)
        return [op.op(conn) for op in ops]


def conninfo(url: str) -> str:
    """A psycopg connection string from a SQLAlchemy URL (``postgresql+psycopg://…``)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def process_channel(owner: str) -> str:
    """The channel a process hears calls and replies on."""
    return f"thievery_p_{owner}"


def moved(table_id: str) -> ServerError:
    """The refusal when a table changed hands under a write (nothing was stored)."""
    return ServerError(
        "table/moved", f"table {table_id} moved to another server process; try again", 503
    )


def unavailable(table_id: str) -> ServerError:
    """The refusal when no process can run a table now."""
    return ServerError(
        "table/unavailable",
        f"the server process running table {table_id} does not answer; try again",
        503,
    )


class Cluster:
    """This process's part in a service of several: its heartbeat, its leases, the
    announcements it hears and sends, the calls it forwards and serves."""

    def __init__(self, hub: Hub, lease_seconds: float = 6.0, call_seconds: float = 2.0) -> None:
        self.hub = hub
        self.storage = hub.storage
        self.id = secrets.token_hex(8)
        self.channel = process_channel(self.id)
        self.ttl = lease_seconds
        self.call_seconds = call_seconds
        self.conninfo = conninfo(self.storage.url)
        import psycopg  # the extra thievery[postgres]: needed only here

        self.pg = psycopg
        self.ready = asyncio.Event()  # listening
        self._sender: psycopg.AsyncConnection[Any] | None = None
        self._send_lock = asyncio.Lock()
        self._calls: dict[str, asyncio.Future[JSON]] = {}
        # What a follower does with an announcement of another module's kind (``k``),
        # sent by the owner's fenced write: kind -> handler(table, note).
        self.notes: dict[str, Callable[[LiveTable, JSON], None]] = {}
        self._served: OrderedDict[str, asyncio.Task[JSON]] = OrderedDict()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._listener: asyncio.Task[None] | None = None
        self._beater: asyncio.Task[None] | None = None
        # Tables whose connections here are to be announced (True: with an ask).
        self._presence: dict[str, bool] = {}  # (by table id)
        self._unsent: dict[str, bool] = {}  # (notes that failed: sent with the next round)
        self._unfollowed: set[str] = set()  # (tables whose follower count failed)
        self._announcing = False
        self._beats = 0

    # ---------------------------------------------------------------- running

    async def start(self) -> None:
        """Register this process, start listening (before anything is served) and beating."""
        about = f"{socket.gethostname()} pid {os.getpid()}"[:256]
        await asyncio.to_thread(self._run, _REGISTER, me=self.id, ttl=self.ttl, about=about)
        await asyncio.to_thread(self._run, _FORGET_DEAD)
        self._listener = asyncio.get_running_loop().create_task(self._listen_forever())
        await asyncio.wait_for(self.ready.wait(), 30)
        self._beater = asyncio.get_running_loop().create_task(self._beat_forever())

    async def close(self) -> None:
        """Hand every table back at once (others need not wait for the lease to run out)."""
        await self.follow([t.id for t in self.hub.tables.values() if t.following], -1)
        for task in (self._beater, self._listener, *self._tasks):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self._run, _RELEASE_ALL, me=self.id)
            await asyncio.to_thread(self._run, _STOP, me=self.id)
        if self._sender is not None:
            with contextlib.suppress(Exception):
                await self._sender.close()

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` in the background, kept until it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _run(self, statement: Any, **params: Any) -> None:
        with self.storage.engine.begin() as conn:
            conn.execute(statement, params)

    def _query(self, statement: Any, **params: Any) -> list[Any]:
        with self.storage.engine.begin() as conn:
            return list(conn.execute(statement, params).all())

    # ---------------------------------------------------------------- leases

    async def acquire(self, table_id: str) -> int | None:
        """Take a table's lease if it is free (released, or its owner gone): its epoch,
        else ``None`` (another live process owns it)."""
        rows = await asyncio.to_thread(self._query, _ACQUIRE, t=table_id, me=self.id)
        return int(rows[0][0]) if rows else None

    def claim_new(self, conn: Connection, table_id: str) -> int:
        """The lease of a table made here, in the transaction that stores it: epoch 1."""
        conn.execute(_CLAIM_NEW, {"t": table_id, "me": self.id})
        return NEW_EPOCH

    def fence(self, conn: Connection, table_id: str, epoch: int | None, note: JSON) -> None:
        """In a write's transaction: hold the table's lease row for this process and
        ``epoch`` (a take-over waits until the commit) and announce ``note`` to the
        followers on commit, if any (see :meth:`append`); :class:`Fenced` if the lease is
        no longer ours."""
        params = self._params(table_id, epoch, note)
        if epoch is None or conn.execute(_FENCE, params).first() is None:
            raise Fenced(f"table {table_id}: this process no longer holds its lease")

    def append(
        self, conn: Connection, table_id: str, epoch: int | None, row: ActionRow, note: JSON
    ) -> None:
        """:meth:`fence` and append the action ``row`` in one statement (one round trip):
        nothing is inserted, and :class:`Fenced` raised, if the lease is no longer ours.
        It is announced only if some process follows the table (most tables run where
        their clients are): a commit that notifies holds PostgreSQL's notification lock
        to its end, so notifying commits happen one at a time."""
        params = {
            **self._params(table_id, epoch, note),
            "n": row.n,
            "seat": row.seat,
            "action": json.dumps(row.action, separators=(",", ":")),
            "at": row.at,
            "by": row.by,
        }
        if epoch is None or conn.execute(_APPEND, params).first() is None:
            raise Fenced(f"table {table_id}: this process no longer holds its lease")

    def append_many(self, conn: Connection, appends: Sequence[FencedAppend]) -> None:
        """:meth:`append` for several tables' actions (one each) in one statement;
        :class:`Fenced` (nothing of it to be committed) if any lease is no longer ours."""
        params: JSON = {"me": self.id, "channel": CHANNEL}
        columns = ("ts", "ns", "seats", "actions", "ats", "bys", "epochs", "payloads")
        values: list[list[Any]] = [[] for _ in columns]
        for a in appends:
            row = a.row
            payload = self._params(a.table_id, a.epoch, a.note)["payload"]
            action = json.dumps(row.action, separators=(",", ":"))
            at = float(row.at)  # (psycopg refuses a list of ints and floats mixed)
            item = (a.table_id, int(row.n), int(row.seat), action, at, row.by, a.epoch, payload)
            for column, value in zip(values, item, strict=True):
                column.append(value)
        params.update(zip(columns, values, strict=True))
        stored, _ = conn.execute(_APPEND_MANY, params).one()
        if stored != len(appends):
            raise Fenced("a table of the batch: this process no longer holds its lease")

    def _params(self, table_id: str, epoch: int | None, note: JSON) -> JSON:
        payload = f"{table_id} {json.dumps(note, separators=(',', ':'))}"
        if len(payload.encode()) > MAX_PAYLOAD:  # followers read it from storage
            payload = f"{table_id} {json.dumps({k: v for k, v in note.items() if k != 'a'})}"
        return {
            "channel": CHANNEL,
            "payload": payload,
            "t": table_id,
            "me": self.id,
            "epoch": epoch,
        }

    async def release(self, table: LiveTable) -> None:
        """Hand a table's lease back (it left this process's memory)."""
        epoch, table.lease = table.lease, None
        if epoch is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self._run, _RELEASE, t=table.id, me=self.id, epoch=epoch)

    async def follow(self, table_ids: list[str], change: int = 1) -> bool:
        """Count this process among the followers of tables (``change`` -1: no longer);
        whether it was counted. Counted before a copy is loaded: the count and an append
        lock the same lease row, so an action stored after it is announced, and one stored
        before it is read from storage. A count that could not be made is made again at
        the next heartbeat (see :meth:`_follow_again`): meanwhile the owner announces
        nothing of the table. A process that dies counted stays counted: more
        announcements, no harm."""
        if not table_ids:
            return True
        for attempt in range(1, TRANSIENT_TRIES + 1):
            try:
                await asyncio.to_thread(self._run, _FOLLOW, ids=table_ids, change=change)
                self._unfollowed.difference_update(table_ids)
                return True
            except Exception as e:
                # A deadlock or serialization failure rolls this back (the batches of
                # writes that lock the same lease rows lock them in the same order, so
                # not with those): tried again, or the count would be lost.
                if not is_transient(e) or attempt == TRANSIENT_TRIES:
                    log.warning(
                        "the follower count of %d tables was not changed: %s", len(table_ids), e
                    )
                    if change > 0:
                        self._unfollowed.update(table_ids)
                    return False
        return False

    async def _follow_again(self) -> None:
        """Count this process among the followers of the tables whose count failed (and
        that it still follows, uncounted), then read what was stored meanwhile: nothing
        of it was announced."""
        tables = [self.hub.tables.get(t) for t in self._unfollowed]
        again = [t for t in tables if t is not None and not t.is_owner and not t.following]
        self._unfollowed = {t.id for t in again}
        if again and await self.follow([t.id for t in again]):
            for table in again:
                if not table.is_owner and not table.following:
                    table.following = True
                    self.spawn(self.refresh(table))

    async def owner_of(self, table_id: str) -> tuple[str | None, bool]:
        """The process a table's lease names, and whether that process is alive."""
        rows = await asyncio.to_thread(self._query, _OWNER_OF, t=table_id)
        return (rows[0][0], bool(rows[0][1])) if rows else (None, False)

    async def take_over(self, table: LiveTable) -> bool:
        """Make this process the owner of a table it follows, if its lease is free: read
        what was stored (the record, actions this copy has not seen), then run it here.
        Whether this process owns it now."""
        async with table.lock:
            if table.is_owner:
                return True
            epoch = await self.acquire(table.id)
            if epoch is None:
                return False
            record = await asyncio.to_thread(self.storage.table, table.id)
            if record is not None:
                table.refresh(record)
            await self.catch_up(table)
            table.lease = epoch
        if table.following:  # it runs here now: announcements of it are not needed here
            table.following = False
            await self.follow([table.id], -1)
        self.announce_presence(table, ask=True)  # (who keeps a copy, to be told of its)
        log.warning("table %s taken over by process %s (lease %d)", table.id, self.id, epoch)
        table.start()
        return True

    async def demote(self, table: LiveTable) -> None:
        """This process lost a table (another took it over): follow it from now on."""
        async with table.lock:
            table.lease = None
            await table.driver.stop()
        log.warning("table %s: process %s lost its lease; following it", table.id, self.id)
        if not table.following:
            table.following = await self.follow([table.id])
        await self.catch_up(table)

    # ---------------------------------------------------------------- heartbeat

    async def _beat_forever(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self.beat()
            except Exception:
                log.warning("cluster heartbeat failed", exc_info=True)

    def _beat_sync(self) -> dict[str, int]:
        with self.storage.engine.begin() as conn:
            conn.execute(_BEAT, {"me": self.id, "ttl": self.ttl})
            return {t: int(e) for t, e in conn.execute(_MINE, {"me": self.id}).all()}

    async def beat(self) -> None:
        """Keep this process alive; follow tables it lost; take over the tables its
        clients use whose owner is gone."""
        held = {t.id: t.lease for t in self.hub.tables.values() if t.lease is not None}
        mine = await asyncio.to_thread(self._beat_sync)
        tables = list(self.hub.tables.values())
        for table in tables:  # (a lease taken while the query ran is not judged by it)
            lease = table.lease
            if lease is not None and held.get(table.id) == lease and mine.get(table.id) != lease:
                table.lease = None
                self.spawn(self.demote(table))
        try:
            await self._follow_again()
        except Exception:
            log.warning("cluster: follower counts not made again", exc_info=True)
        try:
            self._presence_round(tables)
            await self._forget_gone_processes(tables)
        except Exception:
            log.warning("cluster: who is connected elsewhere was not updated", exc_info=True)
        orphans = [t for t in tables if not t.is_owner and not t.is_over and t.listeners]
        if orphans:
            ids = [t.id for t in orphans]
            live = {r[0] for r in await asyncio.to_thread(self._query, _LIVE, ids=ids)}
            for table in orphans:
                if table.id not in live:
                    self.spawn(self.take_over(table))

    # ---------------------------------------------------------------- following

    async def _listen_forever(self) -> None:
        heard = False
        while True:
            try:
                async with await self.pg.AsyncConnection.connect(
                    self.conninfo, autocommit=True
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    await conn.execute(f"LISTEN {PRESENCE}")
                    await conn.execute(f'LISTEN "{self.channel}"')
                    if heard:  # announcements may have been missed meanwhile: the
                        # seats (a new invite's revoked key among them) and the actions,
                        # and who is connected where
                        for table in list(self.hub.tables.values()):
                            if not table.is_owner:
                                self.spawn(self.refresh(table))
                            self.announce_presence(table, ask=True)
                    heard = True
                    self.ready.set()
                    async for note in conn.notifies():
                        try:
                            self._dispatch(note.channel, note.payload)
                        except Exception:
                            log.exception("cluster: a notification failed: %.200s", note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("cluster: listening failed (%s); again in 1 s", e)
                await asyncio.sleep(1.0)

    def _dispatch(self, channel: str, payload: str) -> None:
        head, _, body = payload.partition(" ")
        if channel == CHANNEL:
            table = self.hub.tables.get(head)
            if table is not None and not table.is_owner:
                self._follow(table, json.loads(body))
            return
        if channel == PRESENCE:
            self._heard_presence(json.loads(payload))
            return
        message = json.loads(body)
        if head == "reply":
            future = self._calls.get(message.get("id"))
            if future is not None and not future.done():
                future.set_result(message)
        elif head == "call":
            self.spawn(self._serve(message))

    def _follow(self, table: LiveTable, note: JSON) -> None:
        kind = note.get("k")
        if kind == "a":
            n = int(note["n"])
            if n == table.version and "a" in note:
                row = ActionRow(n, int(note["s"]), note["a"], float(note["at"]), str(note["b"]))
                table.apply_stored(row)
            elif n >= table.version:
                self.spawn(self.catch_up(table, n + 1))
        elif kind == "seats":
            table.take_seats(note["seats"])
        elif kind == "closed":
            table.mark_closed()
        elif kind == "next":
            table.mark_next(str(note["next"]))
        elif kind in self.notes:  # another module's (a chat line: see thievery.server.chat)
            self.notes[kind](table, note)

    # ---------------------------------------------------------------- presence

    @property
    def presence_period(self) -> float:
        """Seconds between this process's rounds of presence (see :meth:`_presence_round`)."""
        return PRESENCE_ROUND * self.ttl / 3

    def announce_presence(self, table: LiveTable, ask: bool = False) -> None:
        """Tell the other processes with a copy of ``table`` how many connections each
        of its seats has here, soon (the changes of one turn of the event loop, of every
        table, in as few notifications as fit; a table no longer in memory here says its
        copy is gone); ``ask``: and ask them for theirs (a copy just loaded or taken
        over, or announcements maybe missed). A follower always tells (its owner keeps a
        copy); an owner, once another process has been heard of at the table."""
        if not (ask or not table.is_owner or table.peers):
            return
        self._presence[table.id] = ask or self._presence.get(table.id, False)
        if not self._announcing:
            self._announcing = True
            self.spawn(self._announce())

    async def _announce(self) -> None:
        try:
            await asyncio.sleep(0)  # (the turn's other changes first)
            while self._presence:
                asked, self._presence = self._presence, {}
                for note, ids in self._presence_notes(asked):
                    try:
                        await self._notify(PRESENCE, note)
                    except Exception as e:
                        # (sent again with the next round's, asks included)
                        log.warning("cluster: presence at %d tables not told: %s", len(ids), e)
                        for table_id in ids:
                            self._unsent[table_id] = asked[table_id] or self._unsent.get(
                                table_id, False
                            )
        finally:
            self._announcing = False

    def _presence_notes(self, asked: dict[str, bool]) -> Iterator[tuple[str, list[str]]]:
        """The notifications that say ``asked``'s tables' connections here (and ask where
        asked), each under PostgreSQL's limit; with the tables each says."""
        head = f'{{"p":{json.dumps(self.id)},"r":{self.presence_period:g}'
        parts: list[str] = []
        asks: list[str] = []
        ids: list[str] = []
        size = len(head) + 32
        for table_id, ask in asked.items():
            # (counted now, from the copy in memory now: a copy let go meanwhile says it
            # is gone, and an old one never speaks for a new one)
            table = self.hub.tables.get(table_id)
            counts = None if table is None else table.local_presence()
            part = f"{json.dumps(table_id)}:{json.dumps(counts)}"
            more = len(part) + 1 + (len(table_id) + 3 if ask else 0)
            if ids and size + more > MAX_PAYLOAD:
                yield self._presence_note(head, parts, asks), ids
                parts, asks, ids, size = [], [], [], len(head) + 32
            parts.append(part)
            ids.append(table_id)
            if ask:
                asks.append(json.dumps(table_id))
            size += more
        if ids:
            yield self._presence_note(head, parts, asks), ids

    @staticmethod
    def _presence_note(head: str, parts: list[str], asks: list[str]) -> str:
        return f'{head},"t":{{{",".join(parts)}}},"ask":[{",".join(asks)}]}}'

    def _heard_presence(self, note: JSON) -> None:
        """Another process's connections at tables (or that its copy of one is gone),
        and maybe its ask for this process's: answered by every process with a copy
        (none of its own connections included), so the asker knows whom to tell of its
        own."""
        process, period, tables = note.get("p"), note.get("r"), note.get("t")
        if not isinstance(process, str) or process == self.id:
            return
        if not (isinstance(period, (int, float)) and period > 0 and isinstance(tables, dict)):
            log.warning("cluster: a presence note is malformed: %.200s", note)
            return
        asks = note.get("ask")
        asked = set(asks) if isinstance(asks, list) else set()
        now = time.monotonic()
        for table_id, counts in tables.items():
            table = self.hub.tables.get(table_id)
            if table is None:
                continue
            if counts is None:
                table.drop_presence(process)
                continue
            if not (
                isinstance(counts, list)
                and len(counts) <= len(table.seats)
                and all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts)
            ):
                log.warning("cluster: a presence note for table %s is malformed", table_id)
                continue
            new = process not in table.peers
            table.take_presence(process, counts, now, float(period))
            if new or table_id in asked:
                self.announce_presence(table)  # (it keeps a copy: it is told of this one)

    def _presence_round(self, tables: list[LiveTable]) -> None:
        """Every :data:`PRESENCE_ROUND` heartbeats: the connections here announced again
        (a note can be lost: a failed send, a listener that was away; a follower's, none
        included, so its owner knows it keeps a copy), and the others' not announced
        again for :data:`PRESENCE_KEPT` of their rounds let go."""
        self._beats += 1
        if self._beats % PRESENCE_ROUND:
            return
        now = time.monotonic()
        unsent, self._unsent = self._unsent, {}
        for table in tables:
            table.expire_presence(now, PRESENCE_KEPT)
            if not table.is_owner or (table.peers and any(table.local_presence())):
                self.announce_presence(table, unsent.get(table.id, False))
            elif unsent.get(table.id):
                self.announce_presence(table, ask=True)

    async def _forget_gone_processes(self, tables: list[LiveTable]) -> None:
        """Drop the connections of processes that are gone (their heartbeat ran out)."""
        known = {process for table in tables for process in table.peers}
        if not known:
            return
        rows = await asyncio.to_thread(self._query, _ALIVE_PROCESSES, ids=list(known))
        gone = known - {r[0] for r in rows}
        for table in tables if gone else []:
            for process in gone & table.peers.keys():
                table.drop_presence(process)

    async def catch_up(self, table: LiveTable, until: int | None = None) -> None:
        """Apply the stored actions a follower copy has not seen (up to now)."""
        async with table.catching:
            if until is not None and table.version >= until:
                return
            rows = await asyncio.to_thread(self.storage.actions, table.id, table.version)
            for row in rows:
                if row.n == table.version and not table.broken:
                    table.apply_stored(row)

    async def refresh(self, table: LiveTable) -> None:
        """A follower copy just loaded, or one whose announcements may have been missed:
        what changed meanwhile (heard by nobody), read from storage."""
        record = await asyncio.to_thread(self.storage.table, table.id)
        if record is not None:
            table.refresh(record)
        await self.catch_up(table)

    # ---------------------------------------------------------------- calls

    async def _notify(self, channel: str, payload: str) -> None:
        async with self._send_lock:
            if self._sender is None or self._sender.closed:
                self._sender = await self.pg.AsyncConnection.connect(self.conninfo, autocommit=True)
            try:
                await self._sender.execute("SELECT pg_notify(%s, %s)", (channel, payload))
            except self.pg.Error:
                with contextlib.suppress(Exception):
                    await self._sender.close()
                self._sender = None
                raise

    async def _request(self, owner: str, message: JSON) -> JSON:
        future: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self._calls[message["id"]] = future
        try:
            payload = f"call {json.dumps(message, separators=(',', ':'))}"
            await self._notify(process_channel(owner), payload)
            return await asyncio.wait_for(future, self.call_seconds)
        finally:
            self._calls.pop(message["id"], None)

    async def at_owner(
        self, table: LiveTable, op: str, args: JSON, safe_args: JSON | None = None
    ) -> tuple[JSON | None, JSON]:
        """Ask the owner of ``table`` to do ``op``; its reply, or ``None`` if this process
        owns the table now (it took it over): then the caller does it here. Returns the
        arguments to use too: ``safe_args`` (the version the seat had) once an attempt's
        fate is unknown and the table changed hands, so nothing is done twice."""
        deadline = time.monotonic() + self.hub.caps.storage_seconds
        call = secrets.token_hex(8)
        sent_to: str | None = None
        unsure = False  # a call went out and its fate is unknown
        pause = RETRY_FIRST
        while True:
            if table.is_owner:
                return None, (safe_args if unsure and safe_args is not None else args)
            owner, alive = table.owner_hint, True  # the owner that answered last time
            if owner is None:
                owner, alive = await self.owner_of(table.id)
            table.owner_hint = None  # kept only once it answers again
            if not alive or owner is None or owner == self.id:
                if await self.take_over(table):
                    continue
            else:
                if unsure and owner != sent_to and safe_args is not None:
                    args, call = safe_args, secrets.token_hex(8)
                sent_to = owner
                message = {"id": call, "from": self.id, "t": table.id, "op": op, "args": args}
                try:
                    reply = await self._request(owner, message)
                except (TimeoutError, self.pg.Error):
                    unsure = True  # the same call again is answered once (see _serve)
                else:
                    error = reply.get("error")
                    code = error.get("code") if isinstance(error, dict) else None
                    if code not in ("cluster/not_owner", "table/moved"):  # (nothing done)
                        table.owner_hint = owner
                        return reply, args
            if time.monotonic() > deadline:
                raise unavailable(table.id)
            # The table is changing hands (a hand-off, a take-over): mostly a matter of
            # milliseconds, so asked again soon, then less and less often.
            await asyncio.sleep(pause)
            pause = min(2 * pause, RETRY_MOST, self.ttl / 5)

    async def read_at_owner(self, table_id: str, op: str) -> JSON | None:
        """A read (``op``, a :meth:`LiveTable.serve_call`) of a table this process keeps
        no copy of, asked of the process that runs it: so a glance (a page's summary)
        does not make a follower copy here, which would have the owner announce the
        table's every action for as long as the copy is kept. ``None``: no live owner
        elsewhere, or no answer (the caller loads the table here)."""
        owner, alive = await self.owner_of(table_id)
        if not alive or owner is None or owner == self.id:
            return None
        message = {"id": secrets.token_hex(8), "from": self.id, "t": table_id, "op": op}
        try:
            reply = await self._request(owner, message)
        except (TimeoutError, self.pg.Error):
            return None
        error = reply.get("error")
        if isinstance(error, dict) and error.get("code") in (
            "cluster/not_owner",
            "table/moved",
            "cluster/unknown",  # (an owner of an older version, without the call)
            "cluster/too_long",  # (read here instead)
        ):
            return None
        raise_error(reply)
        return reply

    async def _serve(self, message: JSON) -> None:
        """A call from a follower: do it (once per call id), reply. One without a call id
        and a process to answer, or not an object, is dropped (nobody could be told)."""
        if not isinstance(message, dict) or not all(
            isinstance(message.get(key), str) for key in ("id", "from")
        ):
            log.warning("a malformed call was dropped: %.200s", message)
            return
        call = str(message["id"])
        task = self._served.get(call)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._do(message))
            self._served[call] = task
            while len(self._served) > 4096:
                self._served.popitem(last=False)
        reply = await asyncio.shield(task)
        with contextlib.suppress(Exception):
            payload = json.dumps({**reply, "id": call}, separators=(",", ":"))
            long = len(payload.encode()) > MAX_PAYLOAD - 6  # (PostgreSQL would refuse it)
            if long and message.get("op") in READS:  # (read where it was asked instead)
                words = "the answer is too long for a notification"
                error = {"code": "cluster/too_long", "message": words, "status": 503}
                payload = json.dumps({"error": error, "id": call}, separators=(",", ":"))
            await self._notify(process_channel(str(message["from"])), f"reply {payload}")

    async def _do(self, message: JSON) -> JSON:
        table_id = str(message.get("t"))
        table = self.hub.tables.get(table_id)
        if table is None and (await self.owner_of(table_id))[0] == self.id:
            with contextlib.suppress(ServerError):  # unloaded here, its lease still ours
                table = await self.hub.get(table_id)
        if table is not None and not table.is_owner and table.lock.locked():
            async with table.lock:  # a take-over here holds it until the table runs here
                pass
        if table is None or not table.is_owner:
            return {"error": {"code": "cluster/not_owner", "message": "", "status": 503}}
        args = message.get("args") or {}
        try:
            return await table.serve_call(str(message.get("op")), args)
        except ServerError as e:
            return {"error": {"code": e.code, "message": e.message, "status": e.status}}
        except Exception:
            log.exception("table %s: a forwarded %s failed", table.id, message.get("op"))
            words = "the server failed on this request"
            return {"error": {"code": "server/internal", "message": words, "status": 500}}


async def where_it_runs(
    table: LiveTable, op: str, args: JSON, here: Callable[[], Awaitable[JSON]]
) -> JSON:
    """Do ``op`` where the table runs: ``here()`` if this process owns it (or one
    process serves), else at the owner, which runs ``hub.calls[op](table, args)``; the
    reply (a refusal raised). Asked again if the table changed hands meanwhile."""
    cluster = table.hub.cluster
    for _ in range(3):
        if cluster is not None and not table.is_owner:
            reply, _ = await cluster.at_owner(table, op, args)
            if reply is None:  # this process took the table over meanwhile
                continue
            raise_error(reply)
            return reply
        try:
            return await here()
        except ServerError as e:
            if e.code != "table/moved":  # moved: nothing stored; ask the new owner
                raise
    raise unavailable(table.id)


def raise_error(reply: JSON) -> None:
    """Raise the refusal a forwarded call came back with, if any."""
    error = reply.get("error")
    if isinstance(error, dict):
        raise ServerError(str(error["code"]), str(error["message"]), int(error["status"]))
