"""The hub: every table the server knows. It makes new tables (and the table that plays
again), restores unfinished ones from storage on start by replaying their logs, loads
finished ones on demand and forgets them again when too many are kept.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from thievery.bots.base import make_bot
from thievery.core.errors import InvalidOption, InvalidRecord, ThieveryError
from thievery.core.protocol import JSON, GameSpec
from thievery.core.record import GameRecord
from thievery.core.registry import game as get_game
from thievery.core.registry import plugin
from thievery.server.errors import ServerError, bad_token, from_game_error, unknown_table
from thievery.server.live import LiveTable
from thievery.server.seats import check_names, hash_token, make_seat, new_token, timeout_bot_for
from thievery.server.storage import Storage, TableRecord, make_writer

log = logging.getLogger("thievery.server")


class Hub:
    """Every table the server knows: live ones in memory, finished ones loaded on demand."""

    def __init__(
        self,
        storage: Storage,
        *,
        bot_delay: float = 0.6,
        bot_threads: bool = True,
        finished_cache: int = 64,
        files_dir: Path | None = None,
    ) -> None:
        self.storage = storage
        self.files_dir = files_dir.resolve() if files_dir is not None else None
        self.writer = make_writer(storage)
        self.bot_delay = bot_delay
        self.bot_threads = bot_threads
        self.slow_bots: set[str] = set()
        self.finished_cache = finished_cache
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}

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
            try:  # a NUL or an overlong name is no file either
                path = (self.files_dir / value).resolve()
                found = path.is_relative_to(self.files_dir) and path.is_file()
            except (OSError, ValueError):
                found = False
            if not found:
                files = ", ".join(sorted(p.name for p in self.files_dir.iterdir() if p.is_file()))
                shown = value if len(value) <= 60 else f"{value[:57]}..."
                raise InvalidOption(
                    f"option {option.name!r}: the server has no file {shown!r} "
                    f"(files: {files or 'none'})"
                )
        return plugin(spec.name).inline_options(out, self.files_dir)

    async def start(self) -> int:
        """Restore every unfinished table by replaying its log; how many were restored."""
        records = await asyncio.to_thread(self.storage.unfinished)
        restored = 0
        for record in records:
            try:
                table = await self._load(record)
            except Exception:
                log.exception("table %s could not be restored", record.id)
                continue
            self.tables[record.id] = table
            table.start()
            restored += 1
        if restored:
            log.info("restored %d unfinished tables", restored)
        return restored

    async def close(self) -> None:
        """Stop every driver, then the writer (after it stored what was queued)."""
        for table in list(self.tables.values()):
            await table.stop()
        await self.writer.aclose()
        self.storage.close()

    async def _load(self, record: TableRecord) -> LiveTable:
        rows = await asyncio.to_thread(self.storage.actions, record.id)
        spec = get_game(record.game)
        # A table stored under older rules plays on under the options that keep them; a
        # version the game cannot map plays on under today's rules (or is marked broken
        # below if its actions no longer replay).
        try:
            options = spec.record_options(record.game_version, record.options)
        except InvalidRecord as e:
            log.warning("table %s: %s; restoring it under today's rules", record.id, e)
            options = dict(record.options)
        state = spec.new(record.players, record.seed, options)
        table = LiveTable(self, record, state)
        for row in rows:
            try:
                table.replay_row(row)
            except ThieveryError as e:
                table.broken = f"the stored action {row.n} no longer replays: {e}"
                log.error("table %s: %s", record.id, table.broken)
                break
        return table

    async def get(self, table_id: str) -> LiveTable:
        """A table by id (finished tables are loaded from storage and kept a while)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or len(table_id) > 32:
            raise unknown_table(str(table_id)[:40])
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[LiveTable] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            record = await asyncio.to_thread(self.storage.table, table_id)
            if record is None:
                raise unknown_table(table_id)
            table = await self._load(record)
            self.tables[table_id] = table
            table.start()
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
        """A table's game just ended."""
        self._evict()

    def _evict(self) -> None:
        done = [t for t in self.tables.values() if t.is_over and not t.listeners]
        for table in done[: max(0, len(done) - self.finished_cache)]:
            del self.tables[table.id]

    def live(self) -> list[LiveTable]:
        """Tables whose game is still running."""
        return [t for t in self.tables.values() if not t.is_over]

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
        token_hashes: Sequence[str | None] | None = None,
        host_hash: str | None = None,
        prev_id: str | None = None,
    ) -> tuple[LiveTable, list[str | None], str | None]:
        """A new table; returns it, a token per human seat (``None`` for bots) and the host's.

        ``token_hashes`` and ``host_hash`` keep the same people's tokens (play again).
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
        salt = secrets.token_hex(16)
        try:
            spec.check_players(players)
            resolved = spec.resolve_options(self.local_files(spec, options))
            state = spec.new(players, seed, resolved)
            timeout_bot = timeout_bot or timeout_bot_for(spec.name)
            make_bot(timeout_bot, spec.name, 0, seed)
            made = [
                make_seat(spec.name, i, seat, seed, token_hashes[i] if token_hashes else None)
                for i, seat in enumerate(seats)
            ]
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
            timeout_bot=timeout_bot,
            prev_id=prev_id,
            scenario=scenario,
            salt=salt,
        )
        await self.writer.submit(partial(Storage.insert_table, record=record))
        table = LiveTable(self, record, state)
        self.tables[record.id] = table
        table.start()
        return table, [token for _, token in made], host_token

    async def again(self, table: LiveTable) -> LiveTable:
        """The table that plays again after ``table``: same seats, tokens and options."""
        if not table.is_over:
            raise ServerError("table/running", "the game is not over yet", 409)
        async with table.lock:
            if table.record.next_id:
                return await self.get(table.record.next_id)
            seats = [{"kind": s.kind, "name": s.name, "bot": s.bot} for s in table.seats]
            new, _, _ = await self.create(
                table.spec.name,
                seats,
                table.spec.public_options(table.record.options),
                turn_seconds=table.record.turn_seconds,
                timeout_bot=table.record.timeout_bot,
                token_hashes=[s.token_hash for s in table.seats],
                host_hash=table.record.host_hash,
                prev_id=table.id,
            )
            await self.writer.submit(partial(Storage.set_next, table_id=table.id, next_id=new.id))
            table.record.next_id = new.id
        table.broadcast_json({"type": "next", "table": table.id, "next": new.id})
        return new

    def record(self, table: LiveTable) -> GameRecord:
        """A finished table's game record (before the end it would give away the seed)."""
        if not table.is_over:
            raise ServerError(
                "record/unfinished", "the record is available once the game is over", 409
            )
        record = GameRecord.of(table.state, table.names)
        record.salt, record.scenario = table.record.salt, table.record.scenario
        return record

    async def authorize(self, table_id: str, token: str | None) -> tuple[LiveTable, int]:
        """The table and the seat a token acts for; :func:`bad_token` if it acts for none."""
        table = await self.get(table_id)
        seat = table.seat_of(token)
        if seat is None:
            raise bad_token()
        return table, seat
