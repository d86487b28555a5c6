"""The lobby list: tables whose host listed them publicly, with human seats a stranger may
take.

A table is listed only when its creator asks (``"listed": true``; an invite-link table
stays private). Its *open* seats are its human seats but the first (the creator's, who
sits there from the page that made the table). An open seat stays free until someone
uses it: its invite link joins it, or a stranger claims it from the list, which gives a
fresh token and makes the seat's old invite link invalid. A seat played by a bot, or with
someone connected, is not free; finished, closed and full tables are not listed.

Which seats are open is stored in a table of this module's own (``thievery_lobby_seats``:
table, seat, when taken), in the server's database, beside the tables. A claim takes the
seat in memory at once, then in the database in one transaction with the seat's new token
hash, on the condition that it is still free there, so two claims never both win.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

from sqlalchemy import Column, Connection, Float, Integer, MetaData, String, Table, select, update

from thievery.core.errors import ThieveryError
from thievery.core.protocol import JSON
from thievery.core.registry import game as get_game
from thievery.server.errors import ServerError
from thievery.server.hub import Hub
from thievery.server.live import LiveTable
from thievery.server.seats import HUMAN, Seat, hash_token, new_token
from thievery.server.storage import Storage, tables_t

log = logging.getLogger("thievery.server")

lobby_metadata = MetaData()
lobby_seats_t = Table(
    "thievery_lobby_seats",
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


def _take(table_id: str, seat: int, stored: list[JSON], conn: Connection) -> bool:
    """Take a free seat and store its new token hash, in one transaction; ``False`` (and
    nothing written) if the database has it taken already."""
    done = conn.execute(
        update(lobby_seats_t)
        .where(
            lobby_seats_t.c.table_id == table_id,
            lobby_seats_t.c.seat == seat,
            lobby_seats_t.c.taken_at.is_(None),
        )
        .values(taken_at=time.time())
    )
    if done.rowcount != 1:
        return False
    Storage.set_seats(conn, table_id, stored)
    return True


def _mark_taken(table_id: str, seat: int, conn: Connection) -> None:
    conn.execute(
        update(lobby_seats_t)
        .where(lobby_seats_t.c.table_id == table_id, lobby_seats_t.c.seat == seat)
        .values(taken_at=time.time())
    )


def _list(table_id: str, seats: Iterable[int], conn: Connection) -> None:
    conn.execute(
        lobby_seats_t.insert(), [{"table_id": table_id, "seat": s, "taken_at": None} for s in seats]
    )


class Lobby:
    """The listed tables' free seats (in memory, loaded from storage at start and kept in
    step with it) and the queries of the lobby list."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.engine = hub.storage.engine
        lobby_metadata.create_all(self.engine)
        self.free: dict[str, set[int]] = {}
        self._writes: set[asyncio.Task[Any]] = set()
        query = (
            select(lobby_seats_t.c.table_id, lobby_seats_t.c.seat)
            .join(tables_t, tables_t.c.id == lobby_seats_t.c.table_id)
            .where(lobby_seats_t.c.taken_at.is_(None), tables_t.c.finished.is_(False))
        )
        with self.engine.connect() as conn:
            for table_id, seat in conn.execute(query):
                self.free.setdefault(table_id, set()).add(seat)

    async def list_table(self, table: LiveTable) -> bool:
        """List a new table: its open seats become free for strangers. Whether any is."""
        seats = open_seats(table.seats)
        if not seats:
            return False
        await self.hub.writer.submit(partial(_list, table.id, seats))
        self.free[table.id] = set(seats)
        return True

    def is_listed(self, table_id: str) -> bool:
        """Whether a table still has free seats in the list."""
        return bool(self.free.get(table_id))

    def seat_used(self, table: LiveTable, seat: int) -> None:
        """A seat's token was used (it joined, looked or acted): if the seat was free in the
        list it is taken now (in memory at once, in storage soon after)."""
        if not self._drop(table.id, seat):
            return
        task = asyncio.get_running_loop().create_task(
            self.hub.writer.submit(partial(_mark_taken, table.id, seat))
        )
        self._writes.add(task)
        task.add_done_callback(self._written)

    def _written(self, task: asyncio.Task[Any]) -> None:
        self._writes.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("lobby: a taken seat could not be stored: %s", task.exception())

    def _free_now(self, table: LiveTable) -> list[int]:
        free = self.free.get(table.id, set())
        return sorted(
            s
            for s in free
            if table.seats[s].kind == HUMAN
            and table.seats[s].bot is None
            and not table.connected(s)
        )

    async def claim(self, table: LiveTable, seat: int) -> str:
        """Take a free seat of a listed table for a stranger: a fresh token for it (the
        seat's old invite link no longer works). Refused, changing nothing, for an unlisted
        or finished table, a seat that is not open or already taken."""
        async with table.lock:
            if table.id not in self.free and not await self._was_listed(table.id):
                raise ServerError(
                    "lobby/unlisted",
                    "this table is not listed: only its invite links give its seats",
                    403,
                )
            if table.is_over or table.broken:
                raise ServerError("table/over", "the game is over", 409)
            if not 0 <= seat < len(table.seats):
                raise ServerError("seat/unknown", f"there is no seat {seat}", 404)
            if seat not in self._free_now(table):
                raise ServerError("seat/taken", f"seat {seat} is not free", 409)
            token = new_token()
            before = table.seats
            seats = [Seat(**s.__dict__) for s in before]
            seats[seat].token_hash = hash_token(token)
            stored = [s.stored() for s in seats]
            # Taken in memory before the write: a join with the seat's old token, or a
            # second claim, meanwhile finds it gone.
            self._drop(table.id, seat)
            table.seats, table.record.seats = seats, stored
            try:
                won = await self.hub.writer.submit(partial(_take, table.id, seat, stored))
            except Exception as e:
                log.exception("table %s: seat %d could not be claimed", table.id, seat)
                self.free.setdefault(table.id, set()).add(seat)
                table.seats, table.record.seats = before, [s.stored() for s in before]
                raise ServerError(
                    "storage/failed", f"the seat could not be stored ({type(e).__name__})", 503
                ) from None
            if not won:
                table.seats, table.record.seats = before, [s.stored() for s in before]
                raise ServerError("seat/taken", f"seat {seat} is not free", 409)
        table.broadcast_seats()
        return token

    def _drop(self, table_id: str, seat: int) -> bool:
        """Take a seat out of the free ones in memory; whether it was free."""
        free = self.free.get(table_id)
        if free is None or seat not in free:
            return False
        free.discard(seat)
        if not free:
            del self.free[table_id]
        return True

    async def _was_listed(self, table_id: str) -> bool:
        def read() -> bool:
            query = select(lobby_seats_t.c.seat).where(lobby_seats_t.c.table_id == table_id)
            with self.engine.connect() as conn:
                return conn.execute(query.limit(1)).first() is not None

        return await asyncio.to_thread(read)

    async def open_tables(self, limit: int) -> list[JSON]:
        """Listed tables with a free seat, newest first: game, seats (which are free), age.
        Finished and full tables are left out (and forgotten here)."""
        ids = list(self.free)
        if not ids:
            return []
        rows = await asyncio.to_thread(self._rows, ids)
        out = []
        now = time.time()
        for row in sorted(rows, key=lambda r: -float(r["created_at"])):
            table_id = row["id"]
            live = self.hub.tables.get(table_id)
            if row["finished"] or (live is not None and (live.is_over or live.broken)):
                self.free.pop(table_id, None)
                continue
            if table_id in self.hub.quarantined:
                continue
            seats = live.seats if live is not None else [Seat.from_stored(s) for s in row["seats"]]
            if live is not None:
                free = self._free_now(live)
            else:
                free = sorted(
                    s for s in self.free.get(table_id, ()) if s < len(seats) and not seats[s].bot
                )
            if free:
                out.append(self._entry(row, seats, free, now))
            if len(out) >= limit:
                break
        known = {row["id"] for row in rows}
        for gone in set(ids) - known:  # no such table stored (any more)
            self.free.pop(gone, None)
        return out

    def _rows(self, ids: list[str]) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        with self.engine.connect() as conn:
            for start in range(0, len(ids), 500):
                query = select(*_LISTED_COLUMNS).where(tables_t.c.id.in_(ids[start : start + 500]))
                for row in conn.execute(query):
                    data = dict(row._mapping)
                    if isinstance(data["seats"], str):  # some drivers hand JSON back as text
                        data["seats"] = json.loads(data["seats"])
                    rows.append(data)
        return rows

    @staticmethod
    def _entry(row: dict[str, Any], seats: Sequence[Seat], free: list[int], now: float) -> JSON:
        try:
            title = get_game(row["game"]).title
        except ThieveryError:  # a game no longer installed
            title = row["game"]
        return {
            "id": row["id"],
            "game": row["game"],
            "title": title,
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
