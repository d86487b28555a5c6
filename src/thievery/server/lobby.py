"""The lobby list: tables whose host listed them publicly, with human seats a stranger may
take.

A table is listed only when its creator asks (``"listed": true``; an invite-link table
stays private). Its *open* seats are its human seats but the first (the creator's, who
sits there from the page that made the table). An open seat stays free until someone
uses it: its invite link joins it, or a stranger claims it from the list, which gives a
fresh token and makes the seat's old invite link invalid. A seat played by a bot, or with
someone connected, is not free; finished, closed and full tables are not listed.

Which seats are open is stored in a table of this module's own (``thievery_lobby_seats``:
table, seat, when taken), in the server's database, beside the tables; the list is read
from it. A claim holds the table's lock, takes the seat in memory at once, then in the
database in one transaction with the seat's new token hash, on the condition that it is
still free there, so two claims never both win. With several server processes a claim
is made where the table runs: a follower process forwards it to the owner
(``hub.calls["claim"]``), whose write is fenced by its lease. Memory also holds which
listed seats are still free, so that a join marks a seat taken without a database read;
a table listed by another process after this one started is looked up once, in the
write that takes the seat.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

from sqlalchemy import Column, Connection, Float, Integer, MetaData, String, Table, select, update
from sqlalchemy.exc import SQLAlchemyError

from thievery.core.errors import ThieveryError
from thievery.core.protocol import JSON
from thievery.core.registry import game as get_game
from thievery.server.cluster import moved, where_it_runs
from thievery.server.errors import ServerError, str_arg
from thievery.server.hub import Hub
from thievery.server.live import LiveTable
from thievery.server.seats import (
    HUMAN,
    Seat,
    check_names,
    clean_name,
    hash_token,
    holds_key,
    new_token,
)
from thievery.server.storage import (
    LOBBY_SEATS,
    Storage,
    StorageError,
    Unsure,
    checked,
    create_tables,
    tables_t,
)

log = logging.getLogger("thievery.server")

KNOWN = 100_000  # tables whose listing a process remembers (see Lobby.seat_used)

lobby_metadata = MetaData()
lobby_seats_t = Table(
    LOBBY_SEATS,
    lobby_metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("taken_at", Float, nullable=True),  # None: free
)
_LISTED_COLUMNS = (
    tables_t.c.id,
    tables_t.c.game,
    tables_t.c.players,
    tables_t.c.seats,
    tables_t.c.created_at,
    tables_t.c.finished,
    tables_t.c.scenario,
    tables_t.c.turn_seconds,
)


def open_seats(seats: Sequence[Seat]) -> list[int]:
    """The seats a listed table opens to strangers: every human seat but the first (the
    creator's)."""
    humans = [i for i, s in enumerate(seats) if s.kind == HUMAN]
    return humans[1:]


class SeatTaken(Exception):
    """The seat is taken in storage already (the claim's transaction is rolled back)."""


def _take_free(table_id: str, seat: int, conn: Connection) -> bool:
    """Mark a seat taken in storage if it is free there; whether it was."""
    done = conn.execute(
        update(lobby_seats_t)
        .where(
            lobby_seats_t.c.table_id == table_id,
            lobby_seats_t.c.seat == seat,
            lobby_seats_t.c.taken_at.is_(None),
        )
        .values(taken_at=time.time())
    )
    return bool(done.rowcount == 1)


def _store_taken(table_id: str, seat: int, stored: list[JSON], conn: Connection) -> None:
    """Take a free seat and store its new token hash, in one transaction; :class:`SeatTaken`
    (and nothing written, nothing announced) if the database has it taken already."""
    if not _take_free(table_id, seat, conn):
        raise SeatTaken(f"table {table_id}: seat {seat}")
    Storage.set_seats(conn, table_id, stored)


def _mark_taken(table_id: str, seat: int, conn: Connection) -> None:
    conn.execute(
        update(lobby_seats_t)
        .where(lobby_seats_t.c.table_id == table_id, lobby_seats_t.c.seat == seat)
        .values(taken_at=time.time())
    )


def _take_if_listed(table_id: str, seat: int, conn: Connection) -> set[int] | None:
    """Take a seat if it is free in storage; the table's seats free then (``None``: the
    table is not listed)."""
    _take_free(table_id, seat, conn)
    query = select(lobby_seats_t.c.seat, lobby_seats_t.c.taken_at)
    rows = conn.execute(query.where(lobby_seats_t.c.table_id == table_id)).all()
    return {s for s, taken in rows if taken is None} if rows else None


def _list(table_id: str, seats: Iterable[int], conn: Connection) -> None:
    conn.execute(
        lobby_seats_t.insert(), [{"table_id": table_id, "seat": s, "taken_at": None} for s in seats]
    )


def game_title(game: str) -> str:
    """A stored table's game's title for listings; a game no longer installed, its name."""
    try:
        return get_game(game).title
    except ThieveryError:
        return game


class Lobby:
    """The lobby list and seat claims of one server: the listed tables' free seats in
    memory (loaded from storage at start, kept in step with it) for joins to mark."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.engine = hub.storage.engine
        create_tables(lobby_metadata, self.engine)  # (processes starting together race)
        self.free: dict[str, set[int]] = {}
        # Seats taken here whose write to storage is on its way (listings leave them out).
        self.pending: set[tuple[str, int]] = set()
        # Listings reading storage now; seats stored meanwhile stay pending until the last
        # ends (its read may have come before the write: it would list the seat free).
        self.reads = 0
        self.settled: set[tuple[str, int]] = set()
        self._writes: set[asyncio.Future[Any]] = set()
        self.free = {table_id: set(seats) for table_id, seats in self._free_seats().items()}
        # Tables whose listing this process knows: listed with free seats (in ``free``),
        # or not (unlisted, full), the most recently used first kept.
        self.known: OrderedDict[str, None] = OrderedDict.fromkeys(self.free)
        hub.calls["claim"] = self._serve_claim  # a claim made at a follower process
        hub.on_forget.append(self.forget)

    async def list_table(self, table: LiveTable, listed: bool = True) -> bool:
        """A new table made here, listed (its open seats become free for strangers) or not
        (known as unlisted: its joins need not look it up). Whether any seat is free."""
        seats = open_seats(table.seats) if listed else []
        if not seats:
            self._know(table.id)
            return False
        try:
            await self.hub.writer.submit(partial(_list, table.id, seats))
        except (SQLAlchemyError, OSError, StorageError):  # (made, its tokens to answer: unlisted)
            log.exception("table %s could not be listed", table.id)
            self._know(table.id)
            return False
        self.free[table.id] = set(seats)
        self._know(table.id)
        return True

    def forget(self, table_id: str) -> None:
        """A table left memory: that it is not listed (or full) is no longer remembered
        (looked up again if it comes back); a listed table with free seats stays known."""
        if table_id not in self.free:
            self.known.pop(table_id, None)

    def seat_used(self, table: LiveTable, seat: int) -> None:
        """A seat's token was used (it joined, looked or acted): if the seat was free in the
        list it is taken now (in memory at once, in storage soon after). A table this
        process has not seen listed (listed by another process since this one started) is
        looked up once, in the write that takes the seat if it is free in storage."""
        if self._drop(table.id, seat):
            self._write(table.id, seat, partial(_mark_taken, table.id, seat))
        elif table.id in self.known:
            self.known.move_to_end(table.id)
        else:
            self._know(table.id)  # (looked up once: the write below tells)
            task = self._write(table.id, seat, partial(_take_if_listed, table.id, seat))
            task.add_done_callback(partial(self._learned, table.id))

    def _write(
        self, table_id: str, seat: int, op: Callable[[Connection], Any]
    ) -> asyncio.Future[Any]:
        key = (table_id, seat)
        self.pending.add(key)
        task: asyncio.Future[Any] = asyncio.ensure_future(self.hub.writer.submit(op))
        self._writes.add(task)
        task.add_done_callback(partial(self._written, key))
        return task

    def _know(self, table_id: str) -> None:
        """Remember that this process knows whether a table is listed (and its free seats
        are in :attr:`free` if it is), for the most recently used :data:`KNOWN` tables."""
        self.known[table_id] = None
        self.known.move_to_end(table_id)
        while len(self.known) > KNOWN:
            old, _ = self.known.popitem(last=False)
            self.free.pop(old, None)

    def _learned(self, table_id: str, task: asyncio.Future[Any]) -> None:
        """A table looked up by :meth:`seat_used`: its seats still free in storage."""
        if task.cancelled() or task.exception() is not None:
            self.known.pop(table_id, None)  # look it up again next time
            return
        free: set[int] | None = task.result()
        if free and table_id in self.known:  # (not if the table left memory meanwhile)
            self.free[table_id] = free - {s for t, s in self.pending if t == table_id}

    def _written(self, key: tuple[str, int], task: asyncio.Future[Any]) -> None:
        self._writes.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # Storage still has it free: it stays out of this process's listings.
            log.error("lobby: taken seat %s could not be stored: %s", key, task.exception())
            return
        if self.reads:
            self.settled.add(key)
        else:
            self.pending.discard(key)

    def _free_of(
        self,
        table_id: str,
        seats: Sequence[Seat],
        stored_free: Iterable[int],
        live: LiveTable | None = None,
    ) -> list[int]:
        """The seats of a table free now: free in storage, not taken here meanwhile, human,
        not played by a bot, nobody connected (if the table is loaded here)."""
        return sorted(
            s
            for s in stored_free
            if (table_id, s) not in self.pending
            and s < len(seats)
            and seats[s].kind == HUMAN
            and seats[s].bot is None
            and (live is None or not live.connected(s))
        )

    async def claim(
        self, table: LiveTable, seat: int, name: str | None = None, key: str | None = None
    ) -> str:
        """Take a free seat of a listed table for a stranger: a fresh token for it (the
        seat's old invite link no longer works), and the name given (if any) for the seat.
        Refused, changing nothing, for an unlisted or finished table, a seat that is not
        open or already taken, or a name another seat has.

        ``key``: the token, made by the client. A claim asked again with it after its
        answer was lost (or refused as unsure: its write's reply lost and storage not
        readable) finds the seat holding it, once storage is read back, and is answered as
        made: the key is never one nobody holds."""
        # Only the key's hash goes where the table runs (as an invite's exchange does): a
        # claim asked again there after its reply was lost (a take-over meanwhile) finds
        # the seat holding it, and is answered as made.
        token = key or new_token()
        key_hash = hash_token(token)
        args = {"seat": seat, "name": name, "key": key_hash}
        asked = table.seats_taken
        here = partial(self._claim, table, seat, name, key_hash)
        reply = await where_it_runs(table, "claim", args, here)
        self._drop(table.id, seat)
        table.take_answered_seats(reply["seats"], asked)  # (claimed at the owner: its seats)
        return token

    async def _serve_claim(self, table: LiveTable, args: JSON) -> JSON:
        """A claim a follower process forwarded (this process owns the table)."""
        seat, name, key = table.seat_arg(args), args.get("name"), str_arg(args, "key")
        if name is not None and not isinstance(name, str):
            raise ServerError("frame/malformed", "a claim's name is a text")
        return await self._claim(table, seat, name, key)

    async def _claim(self, table: LiveTable, seat: int, name: str | None, key_hash: str) -> JSON:
        await self._claim_here(table, seat, name, key_hash)
        return {"seats": table.record.seats}

    async def _claim_here(
        self, table: LiveTable, seat: int, name: str | None, key_hash: str
    ) -> None:
        async with table.lock:
            if not table.is_owner:
                raise moved(table.id)
            await table.settle()
            if 0 <= seat < len(table.seats) and holds_key(table.seats[seat], key_hash):
                return  # this very claim, made already (its reply lost): answered as made
            stored_free = await asyncio.to_thread(self._stored_free, table.id)
            self._check_claim(table, seat, stored_free)
            seats = [Seat(**s.__dict__) for s in table.seats]
            if name is not None and clean_name(name):
                seats[seat].name = clean_name(name)
                check_names([s.name for s in seats])
            seats[seat].token_hash = key_hash
            seats[seat].invite_hash = None  # (its invite link stops working)
            await self._take(table, seat, seats)
        table.broadcast_seats()

    def _check_claim(self, table: LiveTable, seat: int, stored_free: set[int] | None) -> None:
        if stored_free is None:
            raise ServerError(
                "lobby/unlisted",
                "this table is not listed: only its invite links give its seats",
                403,
            )
        if table.is_over or table.broken:
            raise ServerError("table/over", "the game is over", 409)
        if not 0 <= seat < len(table.seats):
            raise ServerError("seat/unknown", f"there is no seat {seat}", 404)
        if seat not in self._free_of(table.id, table.seats, stored_free, table):
            raise ServerError("seat/taken", f"seat {seat} is not free", 409)

    async def _take(self, table: LiveTable, seat: int, seats: list[Seat]) -> None:
        """Give the table its new seats, the claimed one taken: in memory at once (a join
        with the seat's old token, or a second claim, meanwhile finds it gone), then in
        storage if it is still free there; put back as it was if not. The write is the
        table's own (:meth:`LiveTable.write`): with several server processes it is fenced
        by this process's lease and the new seats are announced to the others."""
        before = table.seats
        stored = [s.stored() for s in seats]
        self._drop(table.id, seat)
        self.pending.add((table.id, seat))
        table.seats, table.record.seats = seats, stored
        note = {"k": "seats", "seats": stored}
        write = table.write(partial(_store_taken, table.id, seat, stored), note)
        try:
            held = table.key_stored(seat, str(seats[seat].token_hash))
            await checked(write, "the seat", held)  # (a lost reply: read back)
        except Exception as e:
            table.seats, table.record.seats = before, [s.stored() for s in before]
            if isinstance(e, Unsure):
                table.unsettled = table.row_unsure = True
            if isinstance(e, SeatTaken):
                raise ServerError("seat/taken", f"seat {seat} is not free", 409) from None
            if not isinstance(e, Unsure):  # (else storage may hold the claim: not shown free)
                self.free.setdefault(table.id, set()).add(seat)  # still free in storage
            if isinstance(e, ServerError):
                raise
            log.exception("table %s: seat %d could not be claimed", table.id, seat)
            raise ServerError(
                "storage/failed", f"the seat could not be stored ({type(e).__name__})", 503
            ) from None
        finally:
            self.pending.discard((table.id, seat))

    def _drop(self, table_id: str, seat: int) -> bool:
        """Take a seat out of the free ones in memory; whether it was free."""
        free = self.free.get(table_id)
        if free is None or seat not in free:
            return False
        free.discard(seat)
        if not free:
            del self.free[table_id]
        return True

    def _stored_free(self, table_id: str) -> set[int] | None:
        """A table's seats free in storage; ``None`` if it was never listed."""
        query = select(lobby_seats_t.c.seat, lobby_seats_t.c.taken_at).where(
            lobby_seats_t.c.table_id == table_id
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return {seat for seat, taken in rows if taken is None} if rows else None

    async def open_tables(self, limit: int) -> list[JSON]:
        """Listed tables with a free seat, newest first: game, seats (which are free), age.
        Read from storage (so tables listed by another process show too), less the seats
        this process has taken and not stored yet; finished and full tables are left out."""
        self.reads += 1
        try:
            return await self._open_tables(limit)
        finally:
            self.reads -= 1
            if not self.reads:
                self.pending -= self.settled
                self.settled.clear()

    async def _open_tables(self, limit: int) -> list[JSON]:
        known = set(self.free)  # listed (and stored) before the read began
        free_rows = await asyncio.to_thread(self._free_seats)
        for gone in known - set(free_rows):  # finished, or every seat taken in storage
            self.free.pop(gone, None)
        ids = list(free_rows)
        out: list[JSON] = []
        now = time.time()
        for start in range(0, len(ids), max(limit, 20)):  # the newest first, until enough
            chunk = ids[start : start + max(limit, 20)]
            rows = await asyncio.to_thread(self._tables, chunk)
            for table_id in chunk:
                entry = self._open_entry(rows.get(table_id), free_rows[table_id], now)
                if entry is not None:
                    out.append(entry)
                    if len(out) >= limit:
                        return out
        return out

    def _open_entry(
        self, row: dict[str, Any] | None, stored_free: list[int], now: float
    ) -> JSON | None:
        """A listed table as the list shows it, or ``None`` if it has no free seat now."""
        if row is None or row["id"] in self.hub.quarantined:
            return None
        live = self.hub.tables.get(row["id"])
        if live is not None and (live.is_over or live.broken):
            return None
        seats = live.seats if live is not None else [Seat.from_stored(s) for s in row["seats"]]
        free = self._free_of(row["id"], seats, stored_free, live)
        return self._entry(row, seats, free, now) if free else None

    def _free_seats(self) -> dict[str, list[int]]:
        """Every unfinished listed table with a seat free in storage, newest first, with
        those seats."""
        query = (
            select(lobby_seats_t.c.table_id, lobby_seats_t.c.seat)
            .join(tables_t, tables_t.c.id == lobby_seats_t.c.table_id)
            .where(lobby_seats_t.c.taken_at.is_(None), tables_t.c.finished.is_(False))
            .order_by(tables_t.c.created_at.desc(), tables_t.c.id, lobby_seats_t.c.seat)
        )
        free: dict[str, list[int]] = {}
        with self.engine.connect() as conn:
            for table_id, seat in conn.execute(query):
                free.setdefault(table_id, []).append(seat)
        return free

    def _tables(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        """The listed columns of some tables, by id."""
        rows: dict[str, dict[str, Any]] = {}
        with self.engine.connect() as conn:
            for row in conn.execute(select(*_LISTED_COLUMNS).where(tables_t.c.id.in_(ids))):
                data = dict(row._mapping)
                if isinstance(data["seats"], str):  # some drivers hand JSON back as text
                    data["seats"] = json.loads(data["seats"])
                rows[data["id"]] = data
        return rows

    @staticmethod
    def _entry(row: dict[str, Any], seats: Sequence[Seat], free: list[int], now: float) -> JSON:
        return {
            "id": row["id"],
            "game": row["game"],
            "title": game_title(row["game"]),
            "players": row["players"],
            "seats": [
                {"seat": i, "kind": s.kind, "name": s.name, "bot": s.bot, "free": i in free}
                for i, s in enumerate(seats)
            ],
            "free": free,
            "created_at": row["created_at"],
            "age_seconds": round(max(0.0, now - float(row["created_at"])), 1),
            "scenario": bool(row["scenario"]),
            "turn_seconds": row["turn_seconds"],
        }
