"""Storage for tables and their append-only action logs, through SQLAlchemy.

A SQLite file by default; any SQLAlchemy URL works (``postgresql+psycopg://…``). Tables
hold a game's setup and its seats; every accepted action is one row of ``thievery_actions``
keyed by (table, n), never updated or deleted, so a table is restored by replaying its rows.

Writes are queued and committed together (group commit: a burst of actions costs one
commit, consecutive action appends one statement), and the event loop never waits for the
disk or for a lock another process holds. PostgreSQL's go through :class:`Writer`, one
thread that commits whatever is queued in one transaction and then resolves each caller's
future. A SQLite file's go through :class:`SQLiteWriter`, whose thread commits one batch at
a time (what the loop queued meanwhile), each commit synced to the disk. A commit that
waits on a lock longer than the storage budget fails and the caller is told (503), never
left silent.

Opening checks that the database can be written (a read-only file or a full disk is said
at start, clearly); a stored row that does not parse is reported as such
(:class:`StoredRowError`) so one bad table is set aside, not the server stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import os
import queue
import secrets
import shutil
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    exists,
    false,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    OperationalError,
    SQLAlchemyError,
)
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.elements import ColumnElement

from thievery.core.record import deal_seed
from thievery.server.errors import ServerError

log = logging.getLogger("thievery.server")
T = TypeVar("T")

DEFAULT_URL = "sqlite:///thievery.db"
ENV_URL = "THIEVERY_DATABASE_URL"

metadata = MetaData()

tables_t = Table(
    "thievery_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("game_version", Integer, nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("host_hash", String(64), nullable=False),
    Column("turn_seconds", Float, nullable=True),
    Column("timeout_bot", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("finished", Boolean, nullable=False, default=False, index=True),
    Column("finished_at", Float, nullable=True),
    Column("result", JSON, nullable=True),
    Column("actions", Integer, nullable=False, default=0),  # set when finished
    Column("prev_id", String(32), nullable=True),
    Column("next_id", String(32), nullable=True),
    # Fair deals: a scenario table's seed and stacked options were chosen by its creator
    # (shown to all); every table's deal is committed to by sha256(game, seed, salt).
    Column("scenario", Boolean, nullable=False, default=False),
    Column("salt", String(64), nullable=True),
    # Who made it, for the cap on a client's unfinished tables: a keyed hash of the
    # client's address (see Storage.maker_of), never the address. None: not counted.
    Column("maker", String(32), nullable=True),
    # Shown in the public lists of tables (running and finished; see Storage.listing): its
    # creator listed it. An unlisted table is reached by its links only.
    Column("listed", Boolean, nullable=False, default=False, server_default=false()),
    # The game's component digests when the table was made (its spec's component_digests:
    # a card set, a components file), by name; NULL for a table made before they were
    # kept. A table whose components changed since is not restored with the new ones.
    Column("components", JSON, nullable=True),
)

LOBBY_SEATS = "thievery_lobby_seats"  # the lobby's own table (thievery.server.lobby)

# Columns added after a database may have been made: (name, SQL type and default). They
# are added on open (additive only: a newer database still opens in older code).
_ADDED_COLUMNS = (
    ("scenario", "BOOLEAN NOT NULL DEFAULT FALSE"),
    ("salt", "VARCHAR(64)"),
    ("maker", "VARCHAR(32)"),
    ("listed", "BOOLEAN NOT NULL DEFAULT FALSE"),
    ("components", "JSON"),
)

actions_t = Table(
    "thievery_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("thievery_tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True, autoincrement=False),  # 0, 1, 2, …
    Column("seat", Integer, nullable=False),
    Column("action", JSON, nullable=False),
    Column("at", Float, nullable=False),
    Column("by", String(16), nullable=False),  # "human", "bot" or "timer"
)


meta_t = Table(
    "thievery_meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", String(256), nullable=False),
)

# Several server processes on one PostgreSQL database (see :mod:`~.cluster`): each
# process is a row kept alive by its heartbeat, and a table's lease names the process
# that owns it and a generation (``epoch``, raised at every take-over) that fences
# writes. A lease is live while its owner's row is. Not made in a SQLite file.
owners_t = Table(
    "thievery_owners",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("expires_at", Float, nullable=False),  # the database's clock (epoch seconds)
    Column("started_at", Float, nullable=False),
    Column("about", String(256), nullable=False),  # host and pid, for people
)

leases_t = Table(
    "thievery_leases",
    metadata,
    Column("table_id", String(32), ForeignKey("thievery_tables.id"), primary_key=True),
    Column("owner", String(32), nullable=True, index=True),  # None: released
    Column("epoch", BigInteger, nullable=False),
    # Processes keeping a follower copy: an action is announced only if some do.
    Column("followers", Integer, nullable=False, server_default="0"),
)
SOLO_TABLES = (tables_t, actions_t, meta_t)  # what one process on SQLite needs

_INSERT_ACTION = insert(actions_t)
_INSERT_TABLE = insert(tables_t)
_FINISH_TABLE = (
    update(tables_t)
    .where(tables_t.c.id == bindparam("b_id"))
    .values(
        finished=True,
        finished_at=bindparam("b_at"),
        result=bindparam("b_result"),
        actions=bindparam("b_actions"),
        maker=None,  # (kept only while it counts against its maker's cap)
    )
)
PING_AFTER_IDLE = 1.0  # seconds a writer's kept connection may idle and go unchecked
_SQLITE_INSERT_ACTION = (
    "INSERT INTO thievery_actions (table_id, n, seat, action, at, by) VALUES (?, ?, ?, ?, ?, ?)"
)
_SET_SEATS = (
    update(tables_t)
    .where(tables_t.c.id == bindparam("b_id"))
    .values(seats=bindparam("b_seats", type_=tables_t.c.seats.type))
)
_SQLITE_SET_SEATS = "UPDATE thievery_tables SET seats = ? WHERE id = ?"
MIN_FREE_BYTES = 16 << 20  # a SQLite file's disk needs at least this much free at start


# The advisory locks' namespace (their first key) for the count of a maker's tables.
_MAKERS = 0x54480001


class StorageError(RuntimeError):
    """The database cannot be used (read-only, full, unreachable): said at start."""


class StoredRowError(ValueError):
    """A stored table row that does not parse (the table is set aside)."""


def database_url(url: str | None = None) -> str:
    """The URL to use: ``url``, else ``$THIEVERY_DATABASE_URL``, else ``thievery.db``; a
    PostgreSQL URL without a driver (``postgres://…``, as hosting services give them) gets
    ours, psycopg. :class:`StorageError` says what is wrong with one we cannot use."""
    url = url or os.environ.get(ENV_URL) or DEFAULT_URL
    scheme, sep, rest = url.partition("://")
    if scheme in ("postgres", "postgresql"):
        url = f"postgresql+psycopg://{rest}"
    elif not sep or scheme not in ("sqlite", "postgresql+psycopg"):
        hint = f" (a file: sqlite:///{url})" if not sep else ""
        raise StorageError(
            f"the database URL {url!r} is not one Thievery stores tables in: SQLite "
            f"(sqlite:///FILE) or PostgreSQL (postgresql+psycopg://USER@HOST/DB){hint}"
        )
    return url


def _run_elsewhere(owner: str) -> ColumnElement[bool]:
    """PostgreSQL: whether a table (of ``tables_t``) is leased by a live process other than
    ``owner`` (that process runs it: it is its to change)."""
    db_now = func.extract("epoch", func.clock_timestamp())
    alive = exists().where(owners_t.c.id == leases_t.c.owner, owners_t.c.expires_at > db_now)
    return exists().where(
        leases_t.c.table_id == tables_t.c.id,
        leases_t.c.owner.is_not(None),
        leases_t.c.owner != owner,
        alive,
    )


def json_text(value: Any) -> str:
    """A JSON column's text on SQLite (the engine's serializer, and the one the driver's
    own statements use): orjson's, several times quicker than ``json.dumps``; ``json.dumps``'s
    for what orjson cannot write (integers past 64 bits)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value)


def make_engine(url: str, lock_seconds: float = 10.0) -> Engine:
    """An engine for ``url``; SQLite gets WAL mode, every commit synced to the disk.
    A statement waits at most ``lock_seconds`` for a lock another connection holds."""
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": lock_seconds},
            poolclass=StaticPool if memory else None,
            json_serializer=json_text,  # (the driver's own statements' text: the same)
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            if not memory:
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA wal_autocheckpoint=0")  # Storage checkpoints in a thread
            # Every commit syncs the WAL: durable across a power cut, not only a killed
            # process (NORMAL syncs only at checkpoints). Its wait is the writer
            # thread's, not the event loop's (SQLiteWriter).
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    if url.startswith("postgresql"):
        wait = f"-c lock_timeout={int(lock_seconds * 1000)}"
        # (READ COMMITTED whatever the server's default: a statement after a lock wait sees
        # what was committed meanwhile, as the tables' count per maker needs)
        return create_engine(
            url,
            pool_pre_ping=True,
            isolation_level="READ COMMITTED",
            connect_args={"options": wait},
        )
    return create_engine(url, pool_pre_ping=True)


@dataclass
class TableRecord:
    """A table as stored: the game's setup, its seats and where it stands."""

    id: str
    game: str
    game_version: int
    players: int
    seed: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    host_hash: str
    turn_seconds: float | None = None
    timeout_bot: str = "random"
    created_at: float = field(default_factory=time.time)
    finished: bool = False
    finished_at: float | None = None
    result: dict[str, Any] | None = None
    actions: int = 0
    prev_id: str | None = None
    next_id: str | None = None
    scenario: bool = False
    salt: str | None = None
    maker: str | None = None
    listed: bool = False
    components: dict[str, str] | None = None  # None: made before they were kept

    @property
    def deal_seed(self) -> int:
        """The seed its game is dealt from, and its bots seeded by (:func:`deal_seed`)."""
        return deal_seed(self.seed, self.salt, bool(self.scenario))

    def to_row(self) -> dict[str, Any]:
        """The row's columns."""
        return dict(self.__dict__)

    @classmethod
    def from_row(cls, row: Any) -> TableRecord:
        """From a result row; :class:`StoredRowError` if it does not make a table."""
        data = dict(row._mapping)
        try:
            for key in ("options", "seats", "result", "components"):
                if isinstance(data.get(key), str):  # some drivers hand JSON back as text
                    data[key] = json.loads(data[key])
            record = cls(**data)
            if not isinstance(record.options, dict) or not isinstance(record.seats, list):
                raise TypeError("options must be an object and seats a list")
            components = record.components
            if components is not None and not (
                isinstance(components, dict)
                and all(isinstance(k, str) and isinstance(v, str) for k, v in components.items())
            ):
                raise TypeError("components must be an object of digests by name")
            if not all(isinstance(s, dict) and "kind" in s for s in record.seats):
                raise TypeError("every seat must be an object with a kind")
        except (ValueError, TypeError, KeyError) as e:
            raise StoredRowError(f"table {data.get('id')!r}: {str(e)[:200]}") from None
        return record


@dataclass(frozen=True)
class ActionRow:
    """One accepted action in a table's log."""

    n: int
    seat: int
    action: dict[str, Any]
    at: float
    by: str


class Batched:
    """A write the writer can run together with others of its kind queued right after it:
    ``type(op).all(conn, ops)`` does what calling each would, in fewer statements."""

    @classmethod
    def all(cls, conn: Connection, ops: Sequence[Any]) -> list[Any]:
        """Run ``ops`` (all of this class); their results, in order."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Append(Batched):
    """A write that appends one action to a table's log. The writer runs appends queued
    one after another as one statement with many rows (``executemany``): one statement's
    overhead a batch, not one an action."""

    table_id: str
    row: ActionRow

    def params(self) -> dict[str, Any]:
        """The action's row as the insert's parameters."""
        row = self.row
        return {
            "table_id": self.table_id,
            "n": row.n,
            "seat": row.seat,
            "action": row.action,
            "at": row.at,
            "by": row.by,
        }

    def __call__(self, conn: Connection) -> None:
        type(self).all(conn, [self])  # (on SQLite, the driver's own statement: see all)

    @classmethod
    def all(cls, conn: Connection, ops: Sequence[Any]) -> list[Any]:
        """Several appends in one statement (a duplicate ``n`` fails it: the key).

        On SQLite as the driver's own statement, with the rows SQLAlchemy would bind (the
        action as JSON text: :func:`json_text`): its statement compilation and parameter
        handling cost more than SQLite's own work on the server's busiest path (its errors
        are still SQLAlchemy's)."""
        if conn.dialect.name == "sqlite":
            rows = [
                (a.table_id, a.row.n, a.row.seat, json_text(a.row.action), a.row.at, a.row.by)
                for a in ops
            ]
            conn.exec_driver_sql(_SQLITE_INSERT_ACTION, rows)
        else:
            conn.execute(_INSERT_ACTION, [a.params() for a in ops])
        return [None] * len(ops)


@dataclass(frozen=True, slots=True)
class SetSeats(Batched):
    """A write that replaces a table's seats (an invite exchanged for a key, a seat handed
    to a bot or taken back). The writer runs those queued one after another as one
    statement with many rows, in the order they came: a table's last one wins."""

    table_id: str
    seats: list[dict[str, Any]]

    def __call__(self, conn: Connection) -> None:
        type(self).all(conn, [self])

    @classmethod
    def all(cls, conn: Connection, ops: Sequence[Any]) -> list[Any]:
        """Several tables' new seats in one statement (on SQLite the driver's own, the
        seats as JSON text, as :meth:`Append.all`)."""
        if conn.dialect.name == "sqlite":
            rows = [(json_text(op.seats), op.table_id) for op in ops]
            conn.exec_driver_sql(_SQLITE_SET_SEATS, rows)
        else:
            conn.execute(_SET_SEATS, [{"b_id": op.table_id, "b_seats": op.seats} for op in ops])
        return [None] * len(ops)


def create_tables(meta: MetaData, engine: Engine, tables: Sequence[Table] | None = None) -> None:
    """Make ``meta``'s tables the database lacks. Processes starting together on one
    PostgreSQL database race to make them: the loser's statement fails, and a second
    try finds them made."""
    try:
        meta.create_all(engine, tables=tables)
    except SQLAlchemyError:
        meta.create_all(engine, tables=tables)


class Storage:
    """Synchronous access to the tables and the action log (run it off the event loop)."""

    def __init__(self, url: str | None = None, lock_seconds: float = 10.0) -> None:
        self.url = database_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        self.is_postgres = self.url.startswith("postgresql")
        self.engine = make_engine(self.url, lock_seconds)
        try:
            create_tables(metadata, self.engine, None if self.is_postgres else SOLO_TABLES)
            self._add_columns()
            self.check_writable()
            self._maker_key = self._meta_secret("maker_key")  # (see maker_of)
        except StorageError:
            self.engine.dispose()
            raise
        except Exception as e:
            self.engine.dispose()
            raise StorageError(_why(self.url, e)) from None
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.is_sqlite and self.url not in ("sqlite://", "sqlite:///:memory:"):
            self._checkpointer = threading.Thread(
                target=self._checkpoints, name="thievery-checkpoints", daemon=True
            )
            self._checkpointer.start()

    def check_writable(self) -> None:
        """Write and read back a probe row; :class:`StorageError` if the database is
        read-only or its disk (for a SQLite file) nearly full."""
        with self.engine.begin() as conn:
            conn.execute(delete(meta_t).where(meta_t.c.key == "probe"))
            conn.execute(insert(meta_t).values(key="probe", value=str(time.time())))
        path = self.engine.url.database
        if self.is_sqlite and path and path != ":memory:" and not path.startswith("file:"):
            folder = os.path.dirname(os.path.abspath(path))
            free = shutil.disk_usage(folder).free
            if free < MIN_FREE_BYTES:
                raise StorageError(
                    f"storage {self.url}: the disk has only {free >> 20} MiB free; "
                    "free some space (games are stored as they are played)"
                )

    def _add_columns(self) -> None:
        """Bring a database made by an earlier version up to date (new columns only)."""
        present = {c["name"] for c in inspect(self.engine).get_columns(tables_t.name)}
        missing = [(name, kind) for name, kind in _ADDED_COLUMNS if name not in present]
        if not missing:
            return
        # (on PostgreSQL several processes may start at once: IF NOT EXISTS)
        maybe = " IF NOT EXISTS" if self.is_postgres else ""
        with self.engine.begin() as conn:
            for name, kind in missing:
                conn.execute(text(f"ALTER TABLE {tables_t.name} ADD COLUMN{maybe} {name} {kind}"))
            if "listed" in dict(missing) and inspect(conn).has_table(LOBBY_SEATS):
                # (tables listed before it was kept: those the lobby opened seats of)
                opened = f"SELECT table_id FROM {LOBBY_SEATS}"
                conn.execute(
                    text(f"UPDATE {tables_t.name} SET listed = TRUE WHERE id IN ({opened})")
                )
            log.info("storage: added columns %s", ", ".join(n for n, _ in missing))

    def _checkpoints(self, every: float = 1.0) -> None:
        """Move the SQLite WAL into the database file now and then, off the event loop."""
        background_thread()
        while not self._stop.wait(every):
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # a busy database: try again next time
                continue

    def stop_checkpoints(self) -> None:
        """Stop the checkpoint thread (after one last checkpoint)."""
        if self._checkpointer is not None and not self._stop.is_set():
            self._stop.set()
            self._checkpointer.join(timeout=5)
            with contextlib.suppress(Exception), self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        """Release the connections."""
        self.stop_checkpoints()
        self.engine.dispose()

    # ---------------------------------------------------------------- writes (in a transaction)

    @staticmethod
    def insert_table(conn: Connection, record: TableRecord) -> None:
        """Store a new table."""
        conn.execute(_INSERT_TABLE, record.to_row())  # (prepared: see append_action)

    @staticmethod
    def append_action(conn: Connection, table_id: str, row: ActionRow) -> None:
        """Append one action; a second action with the same ``n`` fails (the key)."""
        Append(table_id, row)(conn)  # (a prepared statement: 5x quicker than values())

    @staticmethod
    def finish_table(
        conn: Connection, table_id: str, result: dict[str, Any] | None, actions: int
    ) -> None:
        """Mark a table finished with its result and action count."""
        params = {"b_id": table_id, "b_at": time.time(), "b_result": result, "b_actions": actions}
        conn.execute(_FINISH_TABLE, params)

    @staticmethod
    def set_seats(conn: Connection, table_id: str, seats: list[dict[str, Any]]) -> None:
        """Replace a table's seats (a seat handed to a bot or taken back)."""
        SetSeats(table_id, seats)(conn)

    @staticmethod
    def set_next(conn: Connection, table_id: str, next_id: str) -> None:
        """Link a table to the one that plays again after it."""
        conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(next_id=next_id))

    def run(self, op: Callable[[Connection], Any]) -> Any:
        """Run one write in its own transaction (again, up to :data:`TRANSIENT_TRIES`
        times, if PostgreSQL rolled it back to break a deadlock: nothing of it stored)."""
        for attempt in range(1, TRANSIENT_TRIES + 1):
            try:
                with self.engine.begin() as conn:
                    return op(conn)
            except OperationalError as e:
                if not is_transient(e) or attempt == TRANSIENT_TRIES:
                    raise
        raise AssertionError("unreachable")

    # ---------------------------------------------------------------- reads

    def table(self, table_id: str) -> TableRecord | None:
        """One table, or ``None``; :class:`StoredRowError` if its row does not parse."""
        with self.engine.connect() as conn:
            try:
                row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
            except (ValueError, TypeError) as e:  # a JSON column that does not decode
                raise StoredRowError(f"table {table_id!r}: {str(e)[:200]}") from None
        return TableRecord.from_row(row) if row is not None else None

    def _records(self, query: Any) -> list[TableRecord]:
        """The tables a query selects; rows that do not parse left out, each logged."""
        with self.engine.connect() as conn:
            try:
                rows = conn.execute(query).all()
            except (ValueError, TypeError):  # some row's JSON does not decode: one by one
                ids = conn.execute(query.with_only_columns(tables_t.c.id)).scalars().all()
                rows = []
                for table_id in ids:
                    try:
                        rows.extend(conn.execute(select(tables_t).where(tables_t.c.id == table_id)))
                    except (ValueError, TypeError) as e:
                        log.error("storage: table %r: %s; the table is set aside", table_id, e)
        out = []
        for row in rows:
            try:
                out.append(TableRecord.from_row(row))
            except StoredRowError as e:
                log.error("storage: %s; the table is set aside", e)
        return out

    def maker_of(self, client: str) -> str:
        """A client as its tables' ``maker``: a keyed hash of its address. The key is
        the database's own (made at its first use, so every process on it agrees): the
        address is out of plain sight, not out of reach of whoever holds the database.
        A table keeps it only while unfinished."""
        return hmac.new(self._maker_key, client.encode(), hashlib.sha256).hexdigest()[:32]

    def _meta_secret(self, name: str) -> bytes:
        """A random secret kept in the meta table under ``name`` (made once; if two
        processes make it at once, the first one stored wins)."""
        with self.engine.begin() as conn:
            found = conn.execute(select(meta_t.c.value).where(meta_t.c.key == name)).scalar()
        if found is None:
            with contextlib.suppress(IntegrityError), self.engine.begin() as conn:
                conn.execute(insert(meta_t).values(key=name, value=secrets.token_hex(32)))
            with self.engine.begin() as conn:
                found = conn.execute(select(meta_t.c.value).where(meta_t.c.key == name)).scalar()
        return bytes.fromhex(str(found))

    def made_by(self) -> dict[str, set[str]]:
        """Each maker's unfinished tables (those stored with one)."""
        query = select(tables_t.c.maker, tables_t.c.id).where(
            tables_t.c.finished.is_(False), tables_t.c.maker.is_not(None)
        )
        made: dict[str, set[str]] = {}
        with self.engine.connect() as conn:
            for maker, table_id in conn.execute(query):
                made.setdefault(maker, set()).add(table_id)
        return made

    def made_by_one(self, maker: str) -> int:
        """How many unfinished tables ``maker`` has in storage (a read: see
        :meth:`count_made_by` for the count a new table is checked against)."""
        with self.engine.connect() as conn:
            return Storage.count_made(conn, maker)

    @staticmethod
    def count_made_by(conn: Connection, maker: str) -> int:
        """PostgreSQL, in the transaction that stores a new table of ``maker``: how many
        unfinished tables it has (at every process), after waiting for the other
        transactions counting the same maker to end. A transaction-scoped advisory lock
        makes the count and the insert after it one step a maker at a time, so tables
        requested at once at several processes count against each other."""
        key = int(maker[:8], 16) - 2**31  # (a 32-bit key: makers that share one only wait)
        conn.execute(text("SELECT pg_advisory_xact_lock(:ns, :key)"), {"ns": _MAKERS, "key": key})
        return Storage.count_made(conn, maker)

    @staticmethod
    def count_made(conn: Connection, maker: str) -> int:
        """How many unfinished tables ``maker`` has in storage (at every process)."""
        query = select(func.count()).where(
            tables_t.c.maker == maker, tables_t.c.finished.is_(False)
        )
        return int(conn.execute(query).scalar() or 0)

    def unfinished(self, limit: int | None = None) -> list[TableRecord]:
        """Tables whose game is not over, oldest first (``limit``: the newest that many).
        A row that does not parse is left out with a log line."""
        query = select(tables_t).where(tables_t.c.finished.is_(False))
        if limit is not None:
            query = query.order_by(tables_t.c.created_at.desc()).limit(limit)
        return sorted(self._records(query), key=lambda r: r.created_at)

    def listing(self, finished: bool, limit: int, also: Sequence[str] = ()) -> list[TableRecord]:
        """The tables of a public list, newest first (running ones by when they were made,
        finished ones by when they ended): those their creators listed, and ``also`` (the
        asker's own, which it knows by their ids)."""
        shown: ColumnElement[bool] = tables_t.c.listed.is_(True)
        if also:
            shown = or_(shown, tables_t.c.id.in_(list(also)))
        newest = tables_t.c.finished_at if finished else tables_t.c.created_at
        query = (
            select(tables_t)
            .where(tables_t.c.finished.is_(finished), shown)
            .order_by(newest.desc())
            .limit(limit)
        )
        return self._records(query)

    def followed(self, ids: Sequence[str]) -> dict[str, str]:
        """Of ``ids``, the tables played again: each one's next table's id (found however
        many tables have finished since, unlike :meth:`listing`'s newest)."""
        if not ids:
            return {}
        query = select(tables_t.c.id, tables_t.c.next_id).where(
            tables_t.c.id.in_(list(ids)), tables_t.c.next_id.is_not(None)
        )
        with self.engine.connect() as conn:
            return {row[0]: row[1] for row in conn.execute(query)}

    def expire(self, cutoff: float, limit: int = 1000, owner: str | None = None) -> list[str]:
        """Close unfinished tables made before ``cutoff`` (a wall time) with no action
        since: stored as finished without a result. Their ids. With ``owner`` (this
        process, one of several on PostgreSQL, see :mod:`~.cluster`), a table another
        live process owns is left alone: that process runs it (and will expire it)."""
        recent = exists().where(actions_t.c.table_id == tables_t.c.id, actions_t.c.at >= cutoff)
        stale = [tables_t.c.finished.is_(False), tables_t.c.created_at < cutoff, ~recent]
        if owner is not None:
            stale.append(~_run_elsewhere(owner))
        with self.engine.begin() as conn:
            ids = [r[0] for r in conn.execute(select(tables_t.c.id).where(*stale).limit(limit))]
            done = {"finished": True, "finished_at": time.time(), "result": None, "maker": None}
            if ids and owner is None:  # one process: nothing else takes a table meanwhile
                conn.execute(update(tables_t).where(tables_t.c.id.in_(ids)).values(**done))
            elif ids:  # (checked again: a process may have taken one meanwhile)
                closed = conn.execute(
                    update(tables_t)
                    .where(tables_t.c.id.in_(ids), *stale)
                    .values(**done)
                    .returning(tables_t.c.id)
                )
                ids = [r[0] for r in closed]
        return ids

    def abandon(self, ids: Sequence[str], owner: str | None = None) -> list[str]:
        """Close new tables whose insert could not be confirmed (see
        :meth:`~thievery.server.hub.Hub.sweep`): those of ``ids`` stored, unfinished and
        without an action are stored as finished without a result and no longer count
        against their maker. Their ids (a table not stored is not among them). With
        ``owner`` (see :meth:`expire`), a table another live process runs is left alone."""
        if not ids:
            return []
        played = exists().where(actions_t.c.table_id == tables_t.c.id)
        unused = [tables_t.c.id.in_(list(ids)), tables_t.c.finished.is_(False), ~played]
        if owner is not None:
            unused.append(~_run_elsewhere(owner))
        done = {"finished": True, "finished_at": time.time(), "result": None, "maker": None}
        with self.engine.begin() as conn:
            closed = conn.execute(
                update(tables_t).where(*unused).values(**done).returning(tables_t.c.id)
            )
            return [r[0] for r in closed]

    def finished(self, limit: int = 50) -> list[TableRecord]:
        """The most recently finished tables."""
        return self._records(
            select(tables_t)
            .where(tables_t.c.finished.is_(True))
            .order_by(tables_t.c.finished_at.desc())
            .limit(limit)
        )

    def actions(self, table_id: str, start: int = 0) -> list[ActionRow]:
        """A table's action log from action ``start`` on, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    actions_t.c.n,
                    actions_t.c.seat,
                    actions_t.c.action,
                    actions_t.c.at,
                    actions_t.c.by,
                )
                .where(actions_t.c.table_id == table_id, actions_t.c.n >= start)
                .order_by(actions_t.c.n)
            ).all()
        out = []
        for n, seat, action, at, by in rows:
            if isinstance(action, str):
                action = json.loads(action)
            out.append(ActionRow(n, seat, action, at, by))
        return out


def is_lost_connection(error: BaseException) -> bool:
    """Whether a write failed because its database connection broke: its commit may have
    happened all the same."""
    return isinstance(error, DBAPIError) and bool(error.connection_invalidated)


TRANSIENT_TRIES = 3  # times a write rolled back by a deadlock or conflict is tried
_TRANSIENT = {"40P01", "40001"}  # PostgreSQL: deadlock detected, serialization failure


def is_transient(error: BaseException) -> bool:
    """Whether the database rolled a transaction back for a deadlock or a serialization
    conflict with another one: the same transaction may simply be tried again."""
    orig = getattr(error, "orig", None)
    return isinstance(error, OperationalError) and getattr(orig, "sqlstate", None) in _TRANSIENT


class KeptConnection:
    """A writer's connection, kept from one batch to the next instead of checked out of the
    pool for each; dropped when a batch fails (the next one opens another). With
    ``ping_after_idle``, one idle past PING_AFTER_IDLE is checked out again, and so
    pinged (the engine's pre-ping), before its next batch: a server that ended it while
    it idled costs no batch."""

    def __init__(self, engine: Engine, *, ping_after_idle: bool = False) -> None:
        self.engine = engine
        self.ping_after_idle = ping_after_idle
        self._conn: Connection | None = None
        self._used = 0.0

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        """The connection in a transaction, committed at the end (rolled back, and the
        connection dropped, on an error)."""
        idle = time.monotonic() - self._used
        if self._conn is not None and self.ping_after_idle and idle > PING_AFTER_IDLE:
            self.drop()
        conn = self._conn = self._conn or self.engine.connect()
        try:
            with conn.begin():
                yield conn
        except BaseException:
            self.drop()
            raise
        self._used = time.monotonic()

    def drop(self) -> None:
        """Close the connection (the next transaction opens another)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()


class Writer:
    """One thread committing queued writes in batches; each caller awaits its own result."""

    def __init__(self, storage: Storage, max_batch: int = 256) -> None:
        self.storage = storage
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[
            tuple[Callable[[Connection], Any], asyncio.Future[Any], asyncio.AbstractEventLoop]
            | None
        ] = queue.SimpleQueue()
        # A pool checkout pings a PostgreSQL server (pre-ping): a round trip a batch.
        self._conn = KeptConnection(storage.engine, ping_after_idle=True)
        self._thread = threading.Thread(target=self._loop, name="thievery-writer", daemon=True)
        self._thread.start()

    def submit(self, op: Callable[[Connection], Any]) -> asyncio.Future[Any]:
        """Run ``op(conn)`` in a committed transaction: the future of its result (or its
        error). Queued at once: writes are committed in the order they were submitted."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.put((op, future, loop))
        return future

    def close(self) -> None:
        """Finish what is queued, then stop the thread."""
        self._queue.put(None)
        self._thread.join(timeout=10)

    async def aclose(self) -> None:
        """:meth:`close` without blocking the event loop."""
        await asyncio.to_thread(self.close)

    def _loop(self) -> None:
        background_thread()
        try:
            self._take()
        finally:
            self._conn.drop()

    def _take(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            self._commit(batch)
            if stop:
                return

    def _commit(
        self,
        batch: list[
            tuple[Callable[[Connection], Any], asyncio.Future[Any], asyncio.AbstractEventLoop]
        ],
        attempt: int = 1,
    ) -> None:
        try:
            with self._conn.transaction() as conn:
                results = _run_all(conn, [op for op, _, _ in batch])
        except Exception as e:
            if is_transient(e) and attempt < TRANSIENT_TRIES:
                # PostgreSQL broke a deadlock (or a serialization conflict) by rolling
                # this batch back: nothing of it was stored; it goes again.
                self._commit(batch, attempt + 1)
                return
            if len(batch) == 1 or isinstance(e, OperationalError):
                # One write failed, or the database did (locked, read-only, full): every
                # caller is told, at once (not one lock wait after another).
                for _, future, loop in batch:
                    _resolve(loop, future, None, e)
                return
            for item in batch:  # isolate the failing write: each on its own
                self._commit([item])
            return
        for (_, future, loop), result in zip(batch, results, strict=True):
            _resolve(loop, future, result, None)


def _run_all(conn: Connection, ops: Sequence[Callable[[Connection], Any]]) -> list[Any]:
    """Run writes in order on one connection; their results. Consecutive writes of one
    :class:`Batched` kind (appends, fenced appends) run together."""
    results: list[Any] = []
    i = 0
    while i < len(ops):
        op, j = ops[i], i + 1
        if isinstance(op, Batched):
            while j < len(ops) and type(ops[j]) is type(op):
                j += 1
            if j - i > 1:
                results.extend(type(op).all(conn, ops[i:j]))
                i = j
                continue
        results.append(op(conn))
        i = j
    return results


def _resolve(
    loop: asyncio.AbstractEventLoop,
    future: asyncio.Future[Any],
    result: Any,
    error: BaseException | None,
) -> None:
    def finish() -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
        loop.call_soon_threadsafe(finish)


class LoopWriter:
    """Commits on the event loop, once per loop turn for everything queued in that turn
    (it waits there for the disk and any lock: :class:`SQLiteWriter` is what the server
    uses; this one is kept for tests and benchmarks)."""

    def __init__(self, storage: Storage, engine: Engine | None = None) -> None:
        self.storage = storage
        self.engine = engine or storage.engine
        self._pending: list[tuple[Callable[[Connection], Any], asyncio.Future[Any]]] = []
        self._scheduled = False
        # The loop of the batch being gathered or committed (while _scheduled). asyncio's
        # get_running_loop makes a system call each time (it checks the process id): taken
        # once a batch, not once a write.
        self._loop: asyncio.AbstractEventLoop | None = None
        # A pool checkout and return cost more than a small batch's own commit.
        self._conn = KeptConnection(self.engine)

    def submit(self, op: Callable[[Connection], Any]) -> asyncio.Future[Any]:
        """Run ``op(conn)`` in a committed transaction: the future of its result (or its
        error). Queued at once: writes are committed in the order they were submitted."""
        loop = self._loop if self._scheduled else None
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append((op, future))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._flush)
        return future

    def _flush(self) -> None:
        batch, self._pending, self._scheduled = self._pending, [], False
        if batch:
            _settle_all(batch, self._outcomes([op for op, _ in batch]))

    def _outcomes(
        self, ops: Sequence[Callable[[Connection], Any]]
    ) -> list[tuple[Any, BaseException | None]]:
        """Commit ``ops`` in one transaction; each one's result or error. If the batch
        fails, each write goes again on its own, so one bad write fails alone; but a
        failing database (locked, read-only, full) fails them all at once."""
        try:
            with self._conn.transaction() as conn:
                results = _run_all(conn, ops)
        except Exception as e:
            if len(ops) == 1 or isinstance(e, OperationalError):
                return [(None, e)] * len(ops)
            return [outcome for op in ops for outcome in self._outcomes([op])]
        return [(result, None) for result in results]

    async def aclose(self) -> None:
        """Store what is queued."""
        self._flush()
        self._conn.drop()
        self.storage.stop_checkpoints()


class SQLiteWriter(LoopWriter):
    """Commits to a SQLite file in a thread of its own, one batch at a time (group
    commit): everything queued in one turn of the event loop, and, while a batch is being
    committed, everything queued meanwhile, goes as the next batch, in one transaction.

    Each commit waits for the disk: ``synchronous=FULL`` (see :func:`make_engine`) syncs
    the WAL, so an acknowledged action survives a power cut or an operating system's
    crash, not only the server's. That wait, and any for a lock another process holds
    (as long as the storage allows), is the thread's: the loop never waits for the disk.
    The loop hands the thread a whole batch and takes its outcomes back in one callback:
    two thread switches a batch, whatever its size (a thread taking each write on its
    own, as :class:`Writer` does, costs a wake-up and a GIL hand-over a write).
    """

    def __init__(self, storage: Storage) -> None:
        super().__init__(storage)
        # The thread's batches, each with its loop (None: stop). Started with the first
        # batch. (Its own thread and queue, not an executor's: a concurrent future chained
        # to an asyncio one cost ~2 % of a busy server's time a batch.)
        self._jobs: queue.SimpleQueue[
            tuple[list[tuple[Callable[[Connection], Any], asyncio.Future[Any]]], Any] | None
        ] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._closed = False
        # (while a batch is in the thread, _scheduled stays set: what is submitted
        # meanwhile waits for it, then goes as one batch)

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        if not batch:
            self._scheduled = False
            return
        if self._closed:  # nothing more is stored, and the callers are told so
            closed = StorageError("the storage writer is closed")
            _settle_all(batch, [(None, closed)] * len(batch))
            self._scheduled = False
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="thievery-writer")
            self._thread.daemon = True
            self._thread.start()
        self._jobs.put((batch, self._loop or asyncio.get_running_loop()))

    def _run(self) -> None:
        """The thread: commit each batch, and hand its outcomes back to its loop."""
        background_thread()
        while (job := self._jobs.get()) is not None:
            batch, loop = job
            try:
                outcomes = self._outcomes([op for op, _ in batch])
            except BaseException as e:  # (_outcomes returns its writes' errors: not these)
                outcomes = [(None, e)] * len(batch)
            with contextlib.suppress(RuntimeError):  # (its loop closed meanwhile)
                loop.call_soon_threadsafe(self._committed, batch, outcomes)

    def _committed(
        self,
        batch: list[tuple[Callable[[Connection], Any], asyncio.Future[Any]]],
        outcomes: list[tuple[Any, BaseException | None]],
    ) -> None:
        _settle_all(batch, outcomes)
        self._flush()  # what was queued meanwhile, as one batch

    async def aclose(self) -> None:
        """Store what is queued (batches keep their order: a last write of nothing is
        committed after every one before it), then stop the thread and the checkpoints."""
        with contextlib.suppress(Exception):
            await self.submit(_nothing)
        self._closed = True
        self._jobs.put(None)
        self._conn.drop()
        self.storage.stop_checkpoints()


async def checked(write: Awaitable[T], what: str, held: Callable[[], bool]) -> T | None:
    """Wait for a storage write; if the storage fails it (a full disk, a lost database),
    the caller is told with ``storage/failed`` (503: try again), not a server failure,
    and the write's caller keeps memory as it was. Anything else (a refusal, another
    process having taken the table over, a bug) passes as it is.

    If the write's connection broke, its commit may have happened all the same (its reply
    lost): ``held``, a read of storage run in a thread, says whether it did. A write it
    holds is taken as made (``None`` in place of its result); one it does not hold, or a
    read that fails too, is refused with :class:`Unsure`: the caller must read storage
    again before it changes what the write was about (the commit can still become
    visible)."""
    try:
        return await write
    except (SQLAlchemyError, OSError, StorageError) as e:
        log.error("%s could not be stored", what, exc_info=e)
        if not is_lost_connection(e):
            raise ServerError(
                "storage/failed", f"{what} could not be stored ({type(e).__name__})", 503
            ) from None
        try:
            made = await asyncio.to_thread(held)
        except Exception:
            log.exception("%s: storage could not be read back", what)
            made = False
        if made:
            log.warning("%s was stored, though its reply was lost", what)
            return None
        raise Unsure(what, e) from None


class Unsure(ServerError):
    """A write that failed with its connection: it may still be committed (503)."""

    def __init__(self, what: str, error: BaseException) -> None:
        super().__init__(
            "storage/failed",
            f"{what} could not be stored ({type(error).__name__}), or its storing could "
            "not be confirmed: try again",
            503,
        )


def background_thread() -> None:
    """Mark the calling thread as background work for the kernel's scheduler (Linux's
    ``SCHED_BATCH``): when it wakes (a batch to commit, the disk done), it waits for a free
    core or the end of a time slice instead of preempting the event loop's thread.

    The storage threads call it first (the SQLite writer and its checkpoints, and
    PostgreSQL's writer). Measured on a 2-core machine in boardgame.io's
    workload (``docs/scaling.md``): the loop's thread waited for a core 9-11 % of the time
    without it and 6-7 % with it, and was switched out half as often; the writer, waiting
    longer, commits bigger batches. Elsewhere (not Linux, or a sandbox that refuses the
    call) nothing changes."""
    policy = getattr(os, "SCHED_BATCH", None)
    if policy is None:
        return
    with contextlib.suppress(OSError):
        os.sched_setscheduler(0, policy, os.sched_param(0))  # 0: this thread (Linux)


def _nothing(conn: Connection) -> None:
    """A write of nothing."""


def _settle_all(
    batch: Sequence[tuple[Any, asyncio.Future[Any]]],
    outcomes: Sequence[tuple[Any, BaseException | None]],
) -> None:
    for (_, future), (result, error) in zip(batch, outcomes, strict=True):
        _settle(future, result, error)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def make_writer(storage: Storage) -> LoopWriter | SQLiteWriter | Writer:
    """The server's writer: for a SQLite file, batches committed in a thread one at a
    time (:class:`SQLiteWriter`); otherwise a thread taking each write as it comes
    (:class:`LoopWriter`, which waits for the disk and any lock on the loop, is kept for
    tests and benchmarks)."""
    if storage.is_sqlite and storage.url not in ("sqlite://", "sqlite:///:memory:"):
        return SQLiteWriter(storage)
    return Writer(storage)


def _why(url: str, error: Exception) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    low = text.lower()
    if "readonly" in low or "read-only" in low or "read only" in low:
        what = "is read-only; give the server a database it can write"
    elif "full" in low or "no space" in low:
        what = "is full; free some space"
    else:
        what = (_folder_wrong(url) if "unable to open" in low else None) or "cannot be used"
    return f"storage {url} {what} ({text[:200]})"


def _folder_wrong(url: str) -> str | None:
    """What is wrong with the folder of a SQLite file that could not be opened, if that
    is what is wrong: missing, not a folder, or not this user's to write in."""
    try:
        name = make_url(url).database if url.startswith("sqlite:///") else None
    except ArgumentError:
        return None
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    folder = os.path.dirname(os.path.abspath(name))
    if not os.path.exists(folder):
        return f"is in a folder that does not exist ({folder}); make it first"
    if not os.path.isdir(folder):
        return f"is in {folder}, which is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"is in a folder this user cannot write in ({folder})"
    return None
