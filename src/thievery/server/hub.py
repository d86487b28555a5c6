"""The hub: every table the server knows. It makes new tables (and the table that plays
again) within the server's caps, loads stored tables when first used by replaying their
logs (nothing is loaded at start: lazy restore), unloads tables nobody uses, closes
abandoned ones and forgets finished ones again when too many are kept.

On PostgreSQL the hub is one process of a service that may have several
(:class:`~thievery.server.cluster.Cluster`): a table it makes is its own (its lease is
stored with it), a table it loads is its own if the table's lease is free, else a
follower copy of the process that owns it; a table leaving memory hands its lease back.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from sqlalchemy import Connection

from thievery.bots.base import make_bot
from thievery.core.errors import ComponentsChanged, InvalidOption, InvalidRecord, ThieveryError
from thievery.core.protocol import JSON, GameSpec, State
from thievery.core.record import (
    SALT_KEYED,
    GameRecord,
    changes_words,
    component_changes,
    deal_seed,
)
from thievery.core.registry import game as get_game
from thievery.core.registry import plugin
from thievery.server.botpool import BotPool
from thievery.server.cluster import NEW_EPOCH, Cluster, Fenced, moved, raise_error
from thievery.server.errors import ServerError, from_game_error, unknown_table
from thievery.server.limits import Caps, RateLimiter, too_many
from thievery.server.live import LiveTable
from thievery.server.replay import Replayer
from thievery.server.seats import (
    Known,
    Seat,
    check_names,
    hash_token,
    make_seat,
    new_token,
    timeout_bot_for,
)
from thievery.server.storage import (
    Storage,
    StoredRowError,
    TableRecord,
    Unsure,
    checked,
    make_writer,
)

GC_AFTER = 100  # tables or connections gone before a full collection (see Hub.gone)
GC_WORTH = 10_000  # objects a full collection must find to be run as often again
LATE_COMMIT = 120.0  # seconds a commit whose connection broke may take to become visible
log = logging.getLogger("thievery.server")


def insert_new_table(
    conn: Connection,
    record: TableRecord,
    cluster: Cluster | None,
    cap: int,
    also: Callable[[Connection, str], None] | None,
) -> int | None:
    """Store a new table (and ``also``'s write about it, in the same transaction). With
    several processes (``cluster``), its maker's unfinished tables at all of them count
    against ``cap`` here, in this transaction (:meth:`Hub.check_create` counts only this
    process's), and the table's lease is this process's from the start: its epoch."""
    maker = record.maker
    if cluster is not None and maker and Storage.count_made_by(conn, maker) >= cap:
        raise too_many("unfinished tables per client", cap)
    Storage.insert_table(conn, record)
    if also is not None:
        also(conn, record.id)
    return None if cluster is None else cluster.claim_new(conn, record.id)


class Hub:
    """Every table the server knows: live ones in memory, finished ones loaded on demand."""

    def __init__(
        self,
        storage: Storage,
        *,
        bot_delay: float = 0.6,
        bot_threads: bool = True,
        bot_processes: int = 0,
        finished_cache: int = 64,
        files_dir: Path | None = None,
        caps: Caps | None = None,
        public_url: str | None = None,
        lease_seconds: float = 6.0,
    ) -> None:
        self.storage = storage
        self.caps = caps or Caps()
        self.public_url = public_url.rstrip("/") if public_url else None
        self.files_dir = files_dir.resolve() if files_dir is not None else None
        self.writer = make_writer(storage)
        self.bot_delay = bot_delay
        self.bot_threads = bot_threads
        self.slow_bots: set[str] = set()
        # "bot/game" -> quick real choices (more than one legal action) made in a thread
        self.quick_bots: dict[str, int] = {}
        self.bot_gate = asyncio.Semaphore(1)  # bots thinking at once (threads share a GIL)
        # Processes for search bots to think in (thievery.server.botpool); none: threads.
        self.bot_pool = BotPool(bot_processes) if bot_processes > 0 else None
        self.finished_cache = finished_cache
        self.tables: dict[str, LiveTable] = {}
        # The finished tables in memory, in the order their games ended (or they were
        # loaded finished): what _evict looks through, never every table.
        self.done: dict[str, None] = {}
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}
        self.replayer = Replayer(self.caps)
        caps = self.caps
        self.create_limit = RateLimiter(
            "new tables", caps.tables_per_minute / 60, caps.tables_burst
        )
        self.action_limit = RateLimiter("actions", caps.actions_per_second, caps.actions_burst)
        self.replay_limit = RateLimiter("replays", caps.replays_per_minute / 60, caps.replays_burst)
        self.read_limit = RateLimiter("reads", caps.reads_per_second, caps.reads_burst)
        # A client's unfinished tables, by its maker key (Storage.maker_of): those stored,
        # then those made here. With several processes (PostgreSQL) it is not kept: the
        # count is read from storage in each new table's insert (Storage.count_made_by).
        self.owned: dict[str, set[str]] = {} if storage.is_postgres else storage.made_by()
        # New tables refused as unsure (see create): id -> when (time.monotonic())
        self.unconfirmed: dict[str, float] = {}
        self.connections: dict[str, int] = {}  # client -> open websockets
        self.quarantined: dict[str, str] = {}  # table id -> why it cannot be loaded
        # (of those, the tables made with other components than this server's: a finished
        # one's record is still given, as stored: see stored_record)
        self.other_components: set[str] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._collector: asyncio.Task[None] | None = None
        self.gone = 0  # tables let go and connections closed since the last collection
        self.collected: list[int] = []  # what the last full collections found (objects)
        self.gc_wait = 0.0  # seconds from one full collection to the next, at least
        # On PostgreSQL: this process's part in a service of several (leases, followers).
        self.cluster = Cluster(self, lease_seconds) if storage.is_postgres else None
        # Calls a follower may forward to a table's owner beyond the table's own (act,
        # bot, close, again, ...): name -> handler(table, args) -> reply, run at the owner
        # (``cluster.at_owner(table, name, args)`` sends one).
        self.calls: dict[str, Callable[[LiveTable, JSON], Awaitable[JSON]]] = {}
        # Called with a table's id when it leaves memory: what other modules keep per table
        # (a chat room, a lobby entry) goes with it, so that a long-running server's
        # memory follows the tables it holds, not every table it ever held.
        self.on_forget: list[Callable[[str], None]] = []
        self.on_made: list[Callable[[LiveTable], None]] = []  # a new table made here

    def local_files(self, spec: GameSpec, options: Mapping[str, Any] | None) -> JSON:
        """Options that name files on this machine (a card set) may only name a file in
        the server's ``files_dir``, by name; that file is read in, so the table's options
        (its record, its seats' views) hold its content inline, never a server path.
        Content already inline is left to the game to check."""
        out = dict(options or {})
        for option in spec.options:
            value = out.get(option.name)
            if not option.local or not isinstance(value, str):
                continue
            if self.files_dir is None:
                plugin(spec.name).check_remote_options({option.name: value})  # refuses
                continue
            if not self._offered(self.files_dir / value):
                offered = (p.name for p in self.files_dir.iterdir() if self._offered(p))
                files = ", ".join(sorted(offered))
                shown = value if len(value) <= 60 else f"{value[:57]}..."
                raise InvalidOption(
                    f"option {option.name!r}: the server has no file {shown!r} "
                    f"(files: {files or 'none'})"
                )
        return plugin(spec.name).inline_options(out, self.files_dir)

    def _offered(self, path: Path) -> bool:
        """Whether a table may choose ``path``: a file inside ``files_dir`` once resolved
        (not a link out of it; a NUL or an overlong name is no file either)."""
        assert self.files_dir is not None
        try:
            found = path.resolve()
            return found.is_relative_to(self.files_dir) and found.is_file()
        except (OSError, ValueError):
            return False

    async def start(self) -> None:
        """Start the sweeper. Stored tables are not loaded here: each is loaded (its log
        replayed) when first used, so a start costs the same with 10 tables or 100,000.
        On PostgreSQL this process joins the service first (heartbeat, listening)."""
        if self.cluster is not None:
            await self.cluster.start()
        loop = asyncio.get_running_loop()
        self._sweeper = loop.create_task(self._sweep_forever())
        if self.caps.gc_seconds > 0:
            self._collector = loop.create_task(self._collect_forever())

    async def close(self) -> None:
        """Stop every driver, then the writer (after it stored what was queued)."""
        for task in (self._sweeper, self._collector):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for table in list(self.tables.values()):
            await table.stop()
        try:
            await self.writer.aclose()
        finally:
            # (On the loop: a worker thread may wait behind the default executor's others,
            # which a process of several keeps busy, past its stop's deadline. The close
            # waits for nothing unless bots thought in processes.)
            if self.bot_pool is not None:
                self.bot_pool.close()
        if self.cluster is not None:  # every lease handed back: others take over at once
            await self.cluster.close()
        self.storage.close()

    async def _collect_forever(self) -> None:
        """A full garbage collection (see :attr:`Caps.gc_seconds`) once ``GC_AFTER``
        tables or connections have gone since the last one, checked every
        ``caps.gc_seconds``, or once a minute if any went: what they left in reference
        cycles is freed soon after, in small collections, instead of piling up. A server
        whose tables live on (no table or connection gone) is never paused by one.

        A table, its connections and its tasks are meant to leave no cycles (reference
        counting frees them; tests/server/test_cycles.py): this is the safety net for what
        does. A collection walks every object, so one that finds little (fewer than
        ``GC_WORTH`` objects) doubles the wait before the next, up to a minute; one that
        finds more brings it back to ``caps.gc_seconds``."""
        since = 0.0
        self.gc_wait = self.caps.gc_seconds
        while True:
            await asyncio.sleep(self.caps.gc_seconds)
            since += self.caps.gc_seconds
            due = self.gone >= GC_AFTER and since >= self.gc_wait
            if due or (self.gone and since >= 60.0):
                self.gone, since = 0, 0.0
                found = gc.collect()
                self.collected.append(found)
                del self.collected[:-16]
                few = found < GC_WORTH
                self.gc_wait = min(2 * self.gc_wait, 60.0) if few else self.caps.gc_seconds

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.caps.sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep of idle tables failed")

    async def _make_room(self) -> None:
        """Room for a game in progress to be loaded again (after a restart, or unloaded
        while idle) though the live tables are at their cap: new tables, not games already
        begun, are what the cap turns away. The table used longest ago that nobody is
        connected to and no turn timer drives is unloaded (loaded again when used); if
        every one is in use, up to a tenth more than the cap are let in; past that, 429."""
        caps = self.caps
        idle = [
            t
            for t in self.tables.values()
            if not t.is_over and not t.listeners and not (t.record.turn_seconds and t.state.to_act)
        ]
        if idle:
            table = min(idle, key=lambda t: max(t.changed_at, t.used_at))
            async with table.lock:
                await table.stop()
                self.forget(table)
            log.info("table %s unloaded (room for a game in progress)", table.id)
            return
        if len(self.live()) >= caps.live_tables + max(1, caps.live_tables // 10):
            raise too_many("live tables on this server", caps.live_tables)

    async def sweep(self) -> None:
        """Unload unfinished tables nobody has used for ``idle_unload_seconds`` (they are
        loaded again when used; not while a turn timer runs), close stored tables
        abandoned for ``expire_seconds``, and new tables refused because storage could
        not confirm their insert, if it holds them after all (see :meth:`create`)."""
        now = time.monotonic()
        for table in list(self.tables.values()):
            idle = now - max(table.changed_at, table.used_at)
            timer = bool(table.record.turn_seconds) and bool(table.state.to_act)
            if timer:
                continue  # a turn timer is due: the table moves on by itself
            if not table.is_over and not table.listeners and idle > self.caps.idle_unload_seconds:
                async with table.lock:
                    await table.stop()
                    self.forget(table)
                log.info("table %s unloaded (idle)", table.id)
        if self.unconfirmed:
            await self._close_unconfirmed()
        if not self.caps.expire_seconds > 0:  # (0: tables never expire)
            return
        cutoff = time.time() - self.caps.expire_seconds
        me = self.cluster.id if self.cluster is not None else None
        expired = await asyncio.to_thread(self.storage.expire, cutoff, owner=me)
        for table_id in expired:
            gone = self.tables.get(table_id)
            if gone is not None:
                await gone.stop()
                self.forget(gone)
            self._disown(table_id)
        if expired:
            log.info("closed %d abandoned tables", len(expired))

    async def _close_unconfirmed(self) -> None:
        """Close the new tables whose insert storage could not confirm (see :meth:`create`)
        if it holds them after all. One it does not hold is looked for again until
        ``LATE_COMMIT`` seconds have passed since its insert failed: a commit can become
        visible after the connection that sent it broke. (If storage cannot be read, the
        sweep fails and this is tried again at the next.)"""
        ids = list(self.unconfirmed)
        me = self.cluster.id if self.cluster is not None else None
        closed = set(await asyncio.to_thread(self.storage.abandon, ids, me))
        if closed:
            log.warning("closed %d new tables stored though their insert failed", len(closed))
        for table_id in closed:  # (loaded meanwhile, by a spectator: told it is closed)
            loaded = self.tables.get(table_id)
            if loaded is not None:
                loaded.mark_closed()
        late = time.monotonic() - LATE_COMMIT
        for table_id in ids:
            if table_id in closed or self.unconfirmed[table_id] < late:
                del self.unconfirmed[table_id]

    def forget(self, table: LiveTable) -> None:
        """A table leaves memory (its lease, if this process holds it, handed back)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self.done.pop(table.id, None)
            self.gone += 1
            for hook in self.on_forget:
                hook(table.id)
        if self.cluster is not None and table.lease is not None:
            self.cluster.spawn(self.cluster.release(table))
        if self.cluster is not None and table.following:
            table.following = False
            self.cluster.spawn(self.cluster.follow([table.id], -1))
        if self.cluster is not None:  # its copy is gone (unless loaded again meanwhile)
            self.cluster.announce_presence(table)

    def _disown(self, table_id: str) -> None:
        for client, owned in list(self.owned.items()):
            owned.discard(table_id)
            if not owned:
                del self.owned[client]

    async def _load(self, record: TableRecord) -> LiveTable:
        """The table with its log replayed, in a worker thread (a long log is slow)."""
        return await asyncio.to_thread(self._load_sync, record)

    def _load_sync(self, record: TableRecord) -> LiveTable:
        rows = self.storage.actions(record.id)
        spec = get_game(record.game)
        # A table stored under older rules plays on under the options that keep them; a
        # version the game cannot map plays on under today's rules (or is marked broken
        # below if its actions no longer replay).
        try:
            options = spec.record_options(record.game_version, record.options)
        except InvalidRecord as e:
            log.warning("table %s: %s; restoring it under today's rules", record.id, e)
            options = dict(record.options)
        # A table made with other components than this server's (a Thieves Den table on
        # the default cards, before a balance pass changed them) would be dealt and played
        # on with the new ones: refused, and set aside by get (a table made before tables
        # kept their components is restored as before: nothing is known).
        if record.components is not None:
            changed = component_changes(record.components, spec.component_digests(options))
            if changed:
                raise ComponentsChanged(
                    f"its {spec.title} components changed since it was made "
                    f"({changes_words(changed, 'then', 'now')})",
                    spec.title,
                    changed,
                )
        state = spec.new(record.players, record.deal_seed, options)
        table = LiveTable(self, record, state)
        for row in rows:
            try:
                table.replay_row(row)
            except ThieveryError as e:
                table.broken = f"the stored action {row.n} no longer replays: {e}"
                log.error("table %s: %s", record.id, table.broken)
                break
        # Closed by its host or as abandoned: stored as finished, its game not over.
        table.closed = record.finished and not table.state.is_over
        return table

    async def get(self, table_id: str) -> LiveTable:
        """A table by id (finished tables are loaded from storage and kept a while)."""
        table = self.tables.get(table_id)
        if table is not None:
            table.used_at = time.monotonic()
            return table
        if not isinstance(table_id, str) or len(table_id) > 32:
            raise unknown_table(str(table_id)[:40])
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[LiveTable] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            if table_id in self.quarantined:
                raise _quarantined(table_id, self.quarantined[table_id])
            try:
                record = await asyncio.to_thread(self.storage.table, table_id)
            except StoredRowError as e:
                self.quarantined[table_id] = str(e)
                log.error("table %s quarantined: %s", table_id, e)
                raise _quarantined(table_id, str(e)) from None
            if record is None:
                raise unknown_table(table_id)
            if not record.finished and len(self.live()) >= self.caps.live_tables:
                await self._make_room()
            lease, followed = None, False
            if self.cluster is not None:  # its own if its lease is free, else a follower
                lease = await self.cluster.acquire(table_id)
                if lease is not None:  # as stored now that no other process can write it
                    record = await asyncio.to_thread(self.storage.table, table_id) or record
                else:  # its owner announces its actions from now on (or, if not counted
                    # now, once counted at a heartbeat)
                    followed = await self.cluster.follow([table_id])
            try:
                table = await self._load(record)
            except ServerError:
                raise
            except ComponentsChanged as e:  # not restored with other cards: set aside
                self.quarantined[table_id] = str(e)
                self.other_components.add(table_id)
                log.error("table %s quarantined: %s", table_id, e)
                raise _quarantined(table_id, str(e)) from None
            except Exception as e:  # a row that does not make a table: set it aside
                self.quarantined[table_id] = f"{type(e).__name__}: {str(e)[:200]}"
                log.exception("table %s quarantined: it could not be loaded", table_id)
                raise _quarantined(table_id, self.quarantined[table_id]) from None
            table.lease = lease
            table.following = followed
            self.tables[table_id] = table
            if self.cluster is not None and lease is None:
                await self.cluster.refresh(table)  # what was stored while it loaded
            if self.cluster is not None:  # who is connected at the other processes' copies
                self.cluster.announce_presence(table, ask=True)
            table.start()
            if table.is_over:
                self.done[table_id] = None
            self._evict()
            future.set_result(table)
            return table
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # mark retrieved
            raise
        finally:
            del self._loading[table_id]

    def finished(self, table: LiveTable) -> None:
        """A table's game just ended (or it was closed)."""
        self._disown(table.id)
        if self.tables.get(table.id) is table:
            self.done.pop(table.id, None)
            self.done[table.id] = None  # (the latest to end: the last let go)
        self._evict()

    def _evict(self) -> None:
        """Keep at most ``finished_cache`` finished tables in memory, more only while
        someone is connected to them: the first to end go first (they are loaded again
        from storage when asked for). Looks at the oldest few only, not at every table."""
        excess = len(self.done) - self.finished_cache
        if excess <= 0:
            return
        gone: list[str] = []
        for table_id in self.done:
            table = self.tables.get(table_id)
            if table is None or not table.listeners:
                gone.append(table_id)
                if len(gone) == excess:
                    break
        for table_id in gone:
            table = self.tables.get(table_id)
            if table is not None:
                self.forget(table)
            self.done.pop(table_id, None)

    def live(self) -> list[LiveTable]:
        """Tables in memory whose game is still running."""
        return [t for t in self.tables.values() if not t.is_over]

    async def close_table(self, table: LiveTable) -> None:
        """Close a table for good (its host asked): stored as finished without a result,
        its bots stopped, everyone connected told (a ``closed`` frame) and let go."""
        if self.cluster is not None and not table.is_owner:
            reply, _ = await self.cluster.at_owner(table, "close", {})
            if reply is not None:
                raise_error(reply)
                table.mark_closed()
                return
        async with table.lock:
            await table.settle()  # (a closing stored though its reply was lost: over now)
            if table.is_over:
                raise ServerError("table/over", "the game is over already", 409)
            op = partial(
                Storage.finish_table, table_id=table.id, result=None, actions=table.version
            )
            write = table.write(op, {"k": "closed"})
            await table.checked_write(write, "the table's closing", lambda r: r.finished)
            table.closed = True
            table.record.finished = True
        await table.driver.stop()
        table.tell_closed()

    async def check_made(self, client: str) -> None:
        """With several processes, an early refusal (before the deal) of a client at its
        cap of unfinished tables at all of them, as stored; :meth:`create` counts again in
        the new table's insert, which is what holds (tables asked for at once)."""
        if self.cluster is None:
            return
        count = await asyncio.to_thread(self.storage.made_by_one, self.storage.maker_of(client))
        if count >= self.caps.tables_per_client:
            raise too_many("unfinished tables per client", self.caps.tables_per_client)

    def check_create(self, client: str, seats: Sequence[Mapping[str, Any]], options: Any) -> None:
        """The caps a new table must keep: the client's rate and count, the server's
        count, bots per table, inline options' size. Refused with 429 or 413."""
        caps = self.caps
        self.create_limit.check(client)
        owned = self.owned.get(self.storage.maker_of(client), set())
        if self.cluster is None and len(owned) >= caps.tables_per_client:
            raise too_many("unfinished tables per client", caps.tables_per_client)
        # (counted only near the cap: the tables in memory are at least the live ones)
        if len(self.tables) >= caps.live_tables and len(self.live()) >= caps.live_tables:
            raise too_many("live tables on this server", caps.live_tables)
        # (a human seat handed to a bot from the start is played by one too)
        bots = sum(1 for s in seats if s.get("kind") == "bot" or s.get("bot"))
        if bots > caps.bots_per_table:
            raise ServerError(
                "limit/bots", f"a table has at most {caps.bots_per_table} bot seats", 400
            )
        size = len(json.dumps(options or {}, separators=(",", ":")))
        if size > caps.inline_option_bytes:
            raise ServerError(
                "options/too_large",
                f"a table's options are at most {caps.inline_option_bytes} bytes as JSON",
                413,
            )

    async def create(
        self,
        game: str,
        seats: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        scenario: bool = False,
        turn_seconds: float | None = None,
        timeout_bot: str | None = None,
        token_hashes: Sequence[Known] | None = None,
        host_hash: str | None = None,
        prev_id: str | None = None,
        client: str | None = None,
        also: Callable[[Connection, str], None] | None = None,
        listed: bool = False,
    ) -> tuple[LiveTable, list[str | None], str | None]:
        """A new table; returns it, a token per human seat (its invite; ``None`` for bots)
        and the host's.

        ``token_hashes`` (each seat's :meth:`~thievery.server.seats.Seat.hashes`) and
        ``host_hash`` keep the same people's tokens (play again); ``also(conn, id)``, a
        write of the caller's committed with the table's insert (play again's link).
        ``listed``: shown in the public lists of tables (else reached by its links only).
        """
        spec = get_game(game)
        players = len(seats)
        legacy = [o.name for o in spec.options if o.legacy and o.name in (options or {})]
        if legacy:
            raise ServerError(
                "options/invalid",
                f"option {legacy[0]!r} only replays records of older rules; new tables "
                "cannot choose it",
            )
        if not scenario:
            chosen = [o.name for o in spec.options if o.secret and o.name in (options or {})]
            if seed is not None or chosen:
                what = ", ".join(["a seed"] * (seed is not None) + [f"'{c}'" for c in chosen])
                raise ServerError(
                    "table/scenario_only",
                    f"{what}: a chosen seed or a stacked deal is allowed only on a scenario "
                    'table ("scenario": true), which every seat, spectator and listing '
                    "shows as such, with its options and seed in the open",
                )
        # The deal comes from the server's CSPRNG unless the table is a scenario; its
        # commitment is published now and the salt revealed with the finished record.
        seed = secrets.randbelow(2**53) if seed is None else seed
        # (its commitment: the whole setup; and the deal, keyed by seed and salt, gives
        # nothing away to what the seats see: see deal_seed)
        salt = secrets.token_hex(SALT_KEYED // 2)
        deal = deal_seed(seed, salt, scenario)

        def setup() -> tuple[JSON, State, str, list[tuple[Seat, str | None]], dict[str, str]]:
            # Reading a card set, checking and hashing it and dealing run in a worker
            # thread (for a game with such an option): a large card set must not stall
            # other tables.
            spec.check_players(players)
            resolved = spec.resolve_options(self.local_files(spec, options))
            state = spec.new(players, deal, resolved)
            bot = timeout_bot or timeout_bot_for(spec.name)
            make_bot(bot, spec.name, 0, deal)
            made = [
                make_seat(spec.name, i, seat, deal, token_hashes[i] if token_hashes else None)
                for i, seat in enumerate(seats)
            ]
            # (the components it is played with: a card set's digest is of its content)
            return resolved, state, bot, made, spec.component_digests(resolved)

        try:
            # A game with no card-set option deals in microseconds: on the loop (a thread's
            # handoff would cost more than the deal).
            cheap = not any(option.local for option in spec.options)
            made_up = setup() if cheap else await asyncio.to_thread(setup)
            resolved, state, chosen_bot, made, components = made_up
        except ThieveryError as e:
            raise from_game_error(e) from None
        if prev_id is None:  # a table played again keeps the names it had
            check_names([seat.name for seat, _ in made])
        if turn_seconds is not None and not 1 <= turn_seconds <= 24 * 3600:
            raise ServerError("options/invalid", "the turn timer is 1 second to 24 hours")
        host_token = None if host_hash else new_token()
        record = TableRecord(
            id=secrets.token_urlsafe(6),
            game=spec.name,
            game_version=spec.version,
            players=players,
            seed=seed,
            options=resolved,
            seats=[seat.stored() for seat, _ in made],
            host_hash=host_hash or hash_token(host_token or ""),
            turn_seconds=turn_seconds,
            timeout_bot=chosen_bot,
            prev_id=prev_id,
            scenario=scenario,
            salt=salt,
            maker=None if client is None else self.storage.maker_of(client),
            listed=listed,
            components=components,
        )
        cluster = self.cluster
        if record.maker is not None and cluster is None:
            # (counted before the insert's wait: a client's tables made at once count
            # against each other's checks)
            self.owned.setdefault(record.maker, set()).add(record.id)

        def held() -> bool:  # (a write whose reply was lost: see checked)
            return self.storage.table(record.id) is not None

        insert = partial(
            insert_new_table,
            record=record,
            cluster=cluster,
            cap=self.caps.tables_per_client,
            also=also,
        )
        # With several processes, in a transaction of its own, not the writer's shared
        # batch: its count waits for the maker's other inserts, and should hold none of
        # this process's other writes meanwhile, nor deadlock with another's batch.
        try:
            if cluster is None:
                lease = await checked(self.writer.submit(insert), "the table", held)
            else:
                write = asyncio.to_thread(self.storage.run, insert)
                lease = await checked(write, "the table", held) or NEW_EPOCH
        except Unsure:
            self._disown(record.id)
            if also is None:  # (play again's table is the old one's to read back: see again)
                # Refused, so nobody has its invites; if it was stored all the same, the
                # sweep closes it (else it would count against its maker until it expired).
                self.unconfirmed[record.id] = time.monotonic()
            raise
        except BaseException:
            self._disown(record.id)
            raise
        table = LiveTable(self, record, state)
        table.lease = lease
        self.tables[record.id] = table
        for hook in self.on_made:
            hook(table)
        table.start()
        return table, [token for _, token in made], host_token

    async def again(self, table: LiveTable, client: str) -> LiveTable:
        """The table that plays again after ``table``: same seats, tokens and options. A
        new table counts against ``client``'s caps like any other (else closing and
        playing again would make tables past every cap)."""
        if not table.is_over and not table.unsettled:  # (else: settled first, below)
            raise ServerError("table/running", "the game is not over yet", 409)
        if self.cluster is not None and not table.is_owner:
            reply, _ = await self.cluster.at_owner(table, "again", {"client": client})
            if reply is not None:
                raise_error(reply)
                table.mark_next(str(reply["next"]))
                return await self.get(str(reply["next"]))
        async with table.lock:
            await table.settle()
            if not table.is_over:
                raise ServerError("table/running", "the game is not over yet", 409)
            if table.record.next_id:
                return await self.get(table.record.next_id)
            seats = [{"kind": s.kind, "name": s.name, "bot": s.bot} for s in table.seats]
            options = table.spec.public_options(table.record.options)
            self.check_create(client, seats, options)
            await self.check_made(client)
            epoch, cluster = table.lease, self.cluster

            def link(conn: Connection, new_id: str) -> None:
                """The old table's link to the new one, in the new one's insert: both are
                stored or neither (a retry after a failure makes no second table)."""
                if cluster is not None:  # (fenced by the old table's lease, as its writes)
                    cluster.fence(conn, table.id, epoch, {"k": "next", "next": new_id})
                Storage.set_next(conn, table_id=table.id, next_id=new_id)

            try:
                new, _, _ = await self.create(
                    table.spec.name,
                    seats,
                    options,
                    turn_seconds=table.record.turn_seconds,
                    timeout_bot=table.record.timeout_bot,
                    token_hashes=[s.hashes() for s in table.seats],
                    host_hash=table.record.host_hash,
                    prev_id=table.id,
                    client=client,
                    also=link,
                    listed=table.record.listed,  # (public as the game before it)
                )
            except Fenced:  # another process took the old table over: nothing stored
                raise moved(table.id) from None
            except Unsure:  # (the link may be stored: read back before a second try)
                table.unsettled = table.row_unsure = True
                raise
        table.mark_next(new.id)
        return new

    def record(self, table: LiveTable) -> GameRecord:
        """A finished table's game record (before the end it would give away the seed)."""
        if not table.is_over:
            raise ServerError(
                "record/unfinished", "the record is available once the game is over", 409
            )
        if table.final_record is None:  # the game is over: its record never changes
            # (the components: those stored when the table was made, which it was loaded
            # with; none for a table made before tables kept them: not known. Not worked
            # out again here, on the event loop: a card set's digest takes milliseconds)
            record = GameRecord.of(table.state, table.names, components=False)
            record.components = table.record.components
            record.seed = table.record.seed  # (the table's, not the deal's: see deal_seed)
            record.salt, record.scenario = table.record.salt, table.record.scenario
            table.final_record = record
        return table.final_record

    async def stored_record(self, table_id: str) -> GameRecord:
        """The record of a finished table set aside because its components changed since
        it was made, as it was stored: not replayed here (with this server's components it
        would be another game), for the Thievery version that made it to replay. Refused
        as the table is (``table/quarantined``) for any other table set aside, and for one
        whose game is not over."""
        if table_id not in self.other_components:
            raise _quarantined(table_id, self.quarantined.get(table_id, "not loaded"))
        record = await asyncio.to_thread(self.storage.table, table_id)
        if record is None:
            raise unknown_table(table_id)
        if record.result is None:  # (not over, nor can it go on here: set aside, as said)
            raise _quarantined(table_id, self.quarantined[table_id])
        rows = await asyncio.to_thread(self.storage.actions, table_id)
        return GameRecord(
            game=record.game,
            version=record.game_version,
            players=record.players,
            seed=record.seed,  # (the table's, as in record: the deal's comes of it and salt)
            options=dict(record.options),
            actions=[(row.seat, row.action) for row in rows],
            result=record.result,
            names=[str(seat["name"]) for seat in record.seats],
            salt=record.salt,
            scenario=bool(record.scenario),
            components=record.components,
        )

    async def authorize(self, table_id: str, token: str | None) -> tuple[LiveTable, int]:
        """The table and the seat a token (a seat's key) acts for; refused if it acts for
        none (:meth:`LiveTable.refusal`: ``auth/invite`` for an invite not exchanged yet)."""
        table = await self.get(table_id)
        seat = table.seat_of(token)
        if seat is None:
            raise table.refusal(token)
        return table, seat


def _quarantined(table_id: str, why: str) -> ServerError:
    return ServerError(
        "table/quarantined",
        f"table {table_id} is stored in a form this server cannot load ({why[:120]}); "
        "it is set aside, the rest of the server runs on",
        503,
    )
