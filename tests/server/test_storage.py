"""Storage on SQLite and PostgreSQL: the append-only log, the writer, restoring tables."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.exc import IntegrityError, OperationalError

from tests.server.conftest import FAST, Player, create_table, exchange, listing, loop_asks
from thievery.server import create_app
from thievery.server import storage as storage_module
from thievery.server.storage import (
    DEFAULT_URL,
    ENV_URL,
    TRANSIENT_TRIES,
    ActionRow,
    Append,
    LoopWriter,
    SQLiteWriter,
    Storage,
    StorageError,
    TableRecord,
    Writer,
    _run_all,
    database_url,
    is_transient,
    json_text,
    tables_t,
)


def record(table_id: str = "t1") -> TableRecord:
    return TableRecord(
        id=table_id,
        game="schattendieb",
        game_version=1,
        players=3,
        seed=2**52 + 7,
        options={"games": 1, "all_close_rule": "revealed", "hands": None},
        seats=[{"kind": "human", "name": "Ann", "bot": None, "token_hash": "ab"}] * 3,
        host_hash="cd",
        turn_seconds=30.0,
        timeout_bot="heuristic",
        created_at=1234.5,
    )


def test_database_url_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_URL, raising=False)
    assert database_url(None) == DEFAULT_URL == "sqlite:///thievery.db"
    monkeypatch.setenv(ENV_URL, "postgresql+psycopg://x@y/z")
    assert database_url(None) == "postgresql+psycopg://x@y/z"
    assert database_url("sqlite:///a.db") == "sqlite:///a.db"


def test_tables_and_append_only_log(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        storage.run(partial(Storage.insert_table, record=record()))
        rows = [
            ActionRow(n, n % 3, {"type": "play", "card": f"ring-{n + 1}a"}, 1.5, "human")
            for n in range(3)
        ]
        for row in rows:
            storage.run(partial(Storage.append_action, table_id="t1", row=row))
        with pytest.raises(IntegrityError):  # the same action number twice: refused
            storage.run(partial(Storage.append_action, table_id="t1", row=rows[1]))
        with pytest.raises(IntegrityError):  # an action for no table
            storage.run(partial(Storage.append_action, table_id="nope", row=rows[0]))
        assert storage.actions("t1") == rows
        loaded = storage.table("t1")
        assert loaded == record()
        assert [t.id for t in storage.unfinished()] == ["t1"]
        assert storage.table("nope") is None
        storage.run(
            partial(
                Storage.finish_table,
                table_id="t1",
                result={"scores": [1, 2, 3], "winners": [2]},
                actions=3,
            )
        )
        assert storage.unfinished() == []
        done = storage.finished()
        assert [(t.id, t.actions, t.result) for t in done] == [
            ("t1", 3, {"scores": [1, 2, 3], "winners": [2]})
        ]
    finally:
        storage.close()


@pytest.mark.parametrize("kind", [Writer, LoopWriter, SQLiteWriter])
def test_writer_batches_and_isolates_a_failing_write(db_url: str, kind: type[Any]) -> None:
    storage = Storage(db_url)
    writer = kind(storage)

    async def go() -> list[Any]:
        await writer.submit(partial(Storage.insert_table, record=record("w")))
        ops = [
            writer.submit(
                partial(
                    Storage.append_action,
                    table_id="w",
                    row=ActionRow(n, 0, {"type": "done"}, 0.0, "bot"),
                )
            )
            for n in (0, 1, 1, 2)  # the second 1 fails; the others are stored
        ]
        return await asyncio.gather(*ops, return_exceptions=True)

    try:
        results = asyncio.run(go())
        assert [isinstance(r, IntegrityError) for r in results] == [False, False, True, False]
        assert [a.n for a in storage.actions("w")] == [0, 1, 2]
    finally:
        asyncio.run(writer.aclose())
        storage.close()


@pytest.mark.parametrize("kind", [LoopWriter, SQLiteWriter])
def test_a_batch_asks_for_its_loop_once_and_batches_on_other_loops_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: type[Any]
) -> None:
    """asyncio's get_running_loop makes a system call (it checks the process id): the
    loop writers take it once a batch, not once a write. A later loop is taken anew."""
    storage = Storage(f"sqlite:///{tmp_path}/loop.db")
    writer = kind(storage)

    async def batch(ns: range) -> int:
        with loop_asks(monkeypatch) as asked:
            writes = [
                writer.submit(Append("w", ActionRow(n, 0, {"type": "done"}, 0.0, "bot")))
                for n in ns
            ]
        await asyncio.gather(*writes)
        return asked[0]

    try:
        storage.run(partial(Storage.insert_table, record=record("w")))
        assert asyncio.run(batch(range(0, 20))) == 1  # (all queued in one turn of the loop)
        assert asyncio.run(batch(range(20, 30))) == 1  # a new loop: its own futures, settled
        assert [a.n for a in storage.actions("w")] == list(range(30))
    finally:
        asyncio.run(writer.aclose())
        storage.close()


class _Deadlock(Exception):
    sqlstate = "40P01"  # what psycopg's DeadlockDetected carries


def test_a_batch_rolled_back_for_a_deadlock_is_tried_again(tmp_path: Path) -> None:
    """PostgreSQL breaks a deadlock by rolling one transaction back: the writer tries the
    batch again (TRANSIENT_TRIES in all); any other database error is not retried."""
    storage = Storage(f"sqlite:///{tmp_path / 'd.db'}")
    writer = Writer(storage)
    calls: list[str] = []

    def failing(times: int, error: Exception) -> Callable[[Any], str]:
        def op(conn: Any) -> str:
            calls.append(str(error))
            if len(calls) <= times:
                raise OperationalError("INSERT …", {}, error)
            conn.execute(sa.text("SELECT 1"))
            return "stored"

        return op

    async def outcome(op: Callable[[Any], str]) -> Any:
        calls.clear()
        return (await asyncio.gather(writer.submit(op), return_exceptions=True))[0]

    try:
        assert is_transient(OperationalError("x", {}, _Deadlock()))
        assert not is_transient(OperationalError("x", {}, Exception("disk full")))
        assert asyncio.run(outcome(failing(1, _Deadlock("deadlock")))) == "stored"
        assert len(calls) == 2
        gave_up = asyncio.run(outcome(failing(TRANSIENT_TRIES, _Deadlock("deadlock"))))
        assert isinstance(gave_up, OperationalError) and len(calls) == TRANSIENT_TRIES
        other = asyncio.run(outcome(failing(1, Exception("disk full"))))
        assert isinstance(other, OperationalError) and len(calls) == 1
    finally:
        asyncio.run(writer.aclose())
        storage.close()


def test_queued_appends_go_as_one_statement_and_a_duplicate_is_isolated(db_url: str) -> None:
    storage = Storage(db_url)
    statements: list[bool] = []  # executemany or not, for each insert of an action

    @sa.event.listens_for(storage.engine, "before_cursor_execute")
    def seen(conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool) -> None:
        if "thievery_actions" in statement and statement.lstrip().upper().startswith("INSERT"):
            statements.append(many)

    writer = Writer(storage)

    def append(n: int) -> Any:  # (the writer may take them in one batch or several)
        return writer.submit(Append("w", ActionRow(n, 0, {"type": "done", "n": n}, 0.5, "bot")))

    async def batch(ns: list[int]) -> list[Any]:
        # queued from one turn of the loop: the writer takes them as one batch
        return await asyncio.gather(*(append(n) for n in ns), return_exceptions=True)

    try:

        async def insert() -> None:
            await writer.submit(partial(Storage.insert_table, record=record("w")))

        asyncio.run(insert())
        statements.clear()
        rows = [
            Append("w", ActionRow(n, 0, {"type": "done", "n": n}, 0.5, "bot")) for n in range(4)
        ]
        finish = partial(Storage.finish_table, table_id="w", result=None, actions=0)
        # What the writer runs in one transaction: consecutive appends as one statement.
        assert storage.run(partial(_run_all, ops=[*rows[:3], finish, rows[3]])) == [None] * 5
        assert statements == [True, False]  # three rows at once, then the one after
        statements.clear()
        results = asyncio.run(batch([4, 5, 5, 6]))  # the second 5 fails; the others stay
        assert [isinstance(r, IntegrityError) for r in results] == [False, False, True, False]
        stored = storage.actions("w")
        assert [a.n for a in stored] == [0, 1, 2, 3, 4, 5, 6]
        assert stored[2] == ActionRow(2, 0, {"type": "done", "n": 2}, 0.5, "bot")
        if storage.is_sqlite:  # batched (the driver's statement) or not, the same text
            with storage.engine.connect() as conn:
                texts = conn.exec_driver_sql(
                    "SELECT action FROM thievery_actions WHERE table_id = 'w' ORDER BY n"
                ).scalars()
                assert list(texts) == [json_text({"type": "done", "n": n}) for n in range(7)]
    finally:
        asyncio.run(writer.aclose())
        storage.close()


def test_the_sqlite_writer_syncs_each_commit_and_waits_for_the_disk_and_locks_in_its_thread(
    sqlite_url: str,
) -> None:
    """Each commit is synced (synchronous=FULL: an acknowledged action survives a power
    cut); a lock another connection holds is waited for in the writer's thread while the
    loop runs on; what is queued while a batch is in the thread goes as one batch."""
    storage = Storage(sqlite_url)
    writer = SQLiteWriter(storage)
    blocker = sa.create_engine(sqlite_url, connect_args={"timeout": 30})
    commits: list[int] = []
    sa.event.listen(storage.engine, "commit", lambda conn: commits.append(1))

    def append(n: int) -> Any:
        return writer.submit(Append("w", ActionRow(n, 0, {"type": "done"}, 0.0, "bot")))

    def synchronous(conn: Any) -> Any:
        return conn.exec_driver_sql("PRAGMA synchronous").scalar()

    async def go() -> tuple[list[Any], int, int]:
        await writer.submit(partial(Storage.insert_table, record=record("w")))
        assert await writer.submit(synchronous) == 2  # FULL
        # Batches, and a duplicate isolated.
        first = await asyncio.gather(*(append(n) for n in (0, 1, 1, 2)), return_exceptions=True)
        assert [isinstance(r, IntegrityError) for r in first] == [False, False, True, False]
        with blocker.connect() as conn:
            conn.exec_driver_sql("BEGIN IMMEDIATE")  # another writer holds the lock
            waiting = [asyncio.ensure_future(append(3))]
            await asyncio.sleep(0.05)
            # queued while that batch waits in the thread: the next batch, all three
            waiting += [asyncio.ensure_future(append(n)) for n in (4, 5, 6)]
            ticks, started = 0, time.monotonic()
            while time.monotonic() - started < 0.5:  # the loop runs on meanwhile
                await asyncio.sleep(0.01)
                ticks += 1
            assert not any(w.done() for w in waiting)
            before = len(commits)
            conn.exec_driver_sql("ROLLBACK")
        stored = await asyncio.gather(*waiting)
        return stored, ticks, len(commits) - before

    try:
        stored, ticks, batches = asyncio.run(go())
        assert stored == [None] * 4
        assert ticks > 20  # not frozen while SQLite waited for the lock
        assert batches == 2  # 3, then 4, 5 and 6 together
        assert [a.n for a in storage.actions("w")] == [0, 1, 2, 3, 4, 5, 6]
    finally:
        asyncio.run(writer.aclose())
        blocker.dispose()
        storage.close()


def test_the_sqlite_writer_stores_what_is_queued_when_it_closes(sqlite_url: str) -> None:
    storage = Storage(sqlite_url)
    writer = SQLiteWriter(storage)

    async def go() -> None:
        await writer.submit(partial(Storage.insert_table, record=record("w")))
        queued = [  # nobody waits for them
            asyncio.ensure_future(
                writer.submit(Append("w", ActionRow(n, 0, {"type": "done"}, 0.0, "bot")))
            )
            for n in range(5)
        ]
        await asyncio.sleep(0)
        await writer.aclose()
        assert all(q.done() and q.result() is None for q in queued)
        with pytest.raises(StorageError, match="closed"):  # afterwards: refused, not lost
            await writer.submit(Append("w", ActionRow(5, 0, {"type": "done"}, 0.0, "bot")))

    try:
        asyncio.run(go())
        assert [a.n for a in storage.actions("w")] == [0, 1, 2, 3, 4]
        thread = writer._thread  # (its own thread: it ends once closed)
        assert thread is not None and thread.name == "thievery-writer"
        thread.join(5)
        assert not thread.is_alive()
    finally:
        storage.close()


def _batch_allowed() -> bool:
    """Whether this machine lets a thread make itself SCHED_BATCH (Linux; some sandboxes
    refuse it, and the server then runs on as it was)."""
    if not hasattr(os, "SCHED_BATCH"):
        return False
    allowed: list[bool] = []

    def probe() -> None:
        try:
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
            allowed.append(True)
        except OSError:
            allowed.append(False)

    thread = threading.Thread(target=probe)
    thread.start()
    thread.join()
    return allowed[0]


@pytest.mark.skipif(not _batch_allowed(), reason="no SCHED_BATCH here (Linux's, if allowed)")
def test_the_storage_threads_do_not_preempt_the_event_loop(sqlite_url: str) -> None:
    """The SQLite writer, its checkpoints and PostgreSQL's writer run as the kernel's
    background work (SCHED_BATCH); the event loop's thread stays as it was."""
    caller = os.sched_getscheduler(0)
    storage = Storage(sqlite_url)
    writer, other = SQLiteWriter(storage), Writer(storage)

    async def go() -> None:
        await writer.submit(partial(Storage.insert_table, record=record("w")))
        await other.submit(Append("w", ActionRow(0, 0, {"type": "done"}, 0.0, "bot")))

    def policies() -> list[int]:
        threads = [writer._thread, other._thread, storage._checkpointer]
        return [os.sched_getscheduler(t.native_id) for t in threads if t and t.native_id]

    try:
        asyncio.run(go())
        deadline = time.monotonic() + 5  # (each thread sets itself as it starts)
        while policies() != [os.SCHED_BATCH] * 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert policies() == [os.SCHED_BATCH] * 3
        assert os.sched_getscheduler(0) == caller  # (the caller's: untouched)
    finally:
        asyncio.run(writer.aclose())
        other.close()
        storage.close()


def test_restart_restores_every_unfinished_table(db_url: str) -> None:
    """Play part of a game, stop the server, start another on the same database."""
    with TestClient(create_app(db_url, bot_delay=0, limits=FAST)) as client:
        made = create_table(client, ["human", "human", "human"], {"games": 2})
        tid = made["table"]["id"]
        tokens = [s["token"] for s in made["seats"]]
        finished = create_table(client, ["bot:random"] * 3, {"games": 1})["table"]["id"]
        endless = create_table(client, ["bot:random"] * 3, {"games": 99})["table"]["id"]
        with (
            client.websocket_connect(f"/api/tables/{tid}/ws") as w0,
            client.websocket_connect(f"/api/tables/{tid}/ws") as w1,
            client.websocket_connect(f"/api/tables/{tid}/ws") as w2,
        ):
            players = [Player(w0, tokens[0]), Player(w1, tokens[1]), Player(w2, tokens[2])]
            for _ in range(6):
                for p in players:
                    p.sync()
                    if p.latest["legal"]:
                        p.act(p.latest["legal"][-1])
            for p in players:
                p.sync()
        tokens = [p.token for p in players]  # (the seats' keys: their invites are used)
        before = [
            client.get(f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {t}"}).json()
            for t in tokens
        ]
        summary = client.get(f"/api/tables/{tid}").json()
        assert summary["actions"] > 6
        for _ in range(200):
            if client.get(f"/api/tables/{finished}").json()["over"]:
                break
            asyncio.run(asyncio.sleep(0.02))

    with TestClient(create_app(db_url, bot_delay=0, limits=FAST)) as client:
        live = [t["id"] for t in listing(client, tid, endless, finished)["live"]]
        assert sorted(live) == sorted([tid, endless])
        # The bots of a restored table play on.
        moved = client.get(f"/api/tables/{endless}").json()["actions"]
        for _ in range(200):
            if client.get(f"/api/tables/{endless}").json()["actions"] > moved:
                break
            asyncio.run(asyncio.sleep(0.01))
        assert client.get(f"/api/tables/{endless}").json()["actions"] > moved
        after = [
            client.get(f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {t}"}).json()
            for t in tokens
        ]
        for b, a in zip(before, after, strict=True):
            assert (a["version"], a["view"], a["legal"]) == (b["version"], b["view"], b["legal"])
            assert a["log"] == b["log"]
        assert client.get(f"/api/tables/{tid}").json()["actions"] == summary["actions"]
        # The finished table is still there, loaded on demand.
        assert client.get(f"/api/tables/{finished}").json()["over"] is True
        # And the game goes on.
        with client.websocket_connect(f"/api/tables/{tid}/ws") as w0:
            p = Player(w0, tokens[0])
            if p.latest["legal"]:
                assert p.act(p.latest["legal"][0])["type"] == "ack"


def test_a_table_stored_under_rules_the_game_cannot_map_is_still_restored(
    sqlite_url: str,
) -> None:
    """A stored table whose rules version the game does not map (no record_options for
    it) is restored under today's rules rather than lost."""
    with TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST)) as client:
        made = create_table(client, ["human", "human", "human"], {"games": 1})
        tid = made["table"]["id"]
    engine = sa.create_engine(sqlite_url)
    with engine.begin() as conn:
        conn.execute(sa.update(tables_t).where(tables_t.c.id == tid).values(game_version=0))
    engine.dispose()
    with TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST)) as client:
        assert tid in [t["id"] for t in listing(client, tid)["live"]]
        token = exchange(client, tid, made["seats"][0]["token"])
        mine = client.get(f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {token}"})
        assert mine.status_code == 200 and mine.json()["legal"]


def test_the_writer_keeps_its_connection_and_checks_it_again_after_idling(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = Storage(db_url)
    checkouts: list[int] = []
    sa.event.listen(storage.engine, "checkout", lambda *_: checkouts.append(1))
    writer = Writer(storage)
    rows = iter(range(100))

    def append() -> Any:
        n = next(rows)
        return writer.submit(Append("k", ActionRow(n, 0, {"type": "done"}, 0.5, "bot")))

    def backend(conn: Any) -> Any:  # the writer's own connection, PostgreSQL's process id
        return conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()

    def refused(conn: Any) -> Any:
        raise ValueError("refused")

    async def play() -> None:
        await writer.submit(partial(Storage.insert_table, record=record("k")))
        for _ in range(3):
            await append()
        assert len(checkouts) == 1  # busy: one connection for every batch
        # (an idle limit of 0.5 s: the batches below, each a round trip to the writer's
        # thread, must come within it even on a busy machine)
        monkeypatch.setattr(storage_module, "PING_AFTER_IDLE", 0.5)
        await asyncio.sleep(0.6)
        await append()
        assert len(checkouts) == 2  # idle past the limit: checked out (and pinged) again
        with pytest.raises(ValueError, match="refused"):
            await writer.submit(refused)
        await append()
        assert len(checkouts) == 3  # a batch that failed: its connection dropped
        if storage.is_postgres:
            # The server ends the kept connection while it idles (a restart, a pooler's
            # timeout): the next batch, past the idle limit, gets a live one and is stored.
            pid = await writer.submit(backend)
            with storage.engine.connect() as conn:
                conn.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)})")
            await asyncio.sleep(0.6)
            await append()
            assert await writer.submit(backend) != pid

    try:
        asyncio.run(play())
        assert [a.n for a in storage.actions("k")] == list(range(5 + storage.is_postgres))
    finally:
        asyncio.run(writer.aclose())
        storage.close()


def test_tables_another_process_made_meanwhile_are_found_made(sqlite_url: str) -> None:
    """Worker processes starting together on a fresh PostgreSQL database race to make the
    tables: the loser's CREATE TABLE fails (the table exists now); it tries once more,
    which finds them made, instead of the process dying at start."""
    engine = sa.create_engine(sqlite_url)
    meta = sa.MetaData()
    sa.Table("raced", meta, sa.Column("id", sa.Integer, primary_key=True))
    made = sa.MetaData()  # "the other process": the same table, made first
    sa.Table("raced", made, sa.Column("id", sa.Integer, primary_key=True))
    calls = 0
    create_all = meta.create_all

    def lose_the_race(bind: Any, tables: Any = None, checkfirst: bool = True) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:  # it checked before the other made it, and then creates it too
            made.create_all(bind)
            create_all(bind, tables=tables, checkfirst=False)
        create_all(bind, tables=tables, checkfirst=checkfirst)

    meta.create_all = lose_the_race  # type: ignore[method-assign]
    storage_module.create_tables(meta, engine)
    assert calls == 2
    assert sa.inspect(engine).has_table("raced")
    engine.dispose()


def test_json_text_is_orjsons_and_json_dumps_past_64_bits() -> None:
    for value in ({"type": "play", "card": "ring-6b", "to": 2}, [1.5, None, "é"], {"n": 2**70}):
        assert json.loads(json_text(value)) == value
    assert json_text({"a": [1, 2]}) == '{"a":[1,2]}'  # (orjson: no spaces)
    assert json_text({"n": 2**70}) == json.dumps({"n": 2**70})


class Deadlocked(Exception):
    sqlstate = "40P01"  # (PostgreSQL's "deadlock detected")


def test_a_write_of_its_own_rolled_back_by_a_deadlock_is_tried_again(tmp_path: Path) -> None:
    """``Storage.run`` (a new table's insert with several processes): a transaction that
    PostgreSQL rolled back to break a deadlock goes again; any other failure is raised."""
    storage = Storage(f"sqlite:///{tmp_path / 'thievery.db'}")
    tries: list[int] = []

    def op(conn: Any) -> int:
        tries.append(1)
        if len(tries) < 3:
            raise OperationalError("INSERT", {}, Deadlocked())
        return 7

    assert storage.run(op) == 7 and len(tries) == 3

    def full(conn: Any) -> None:
        tries.append(1)
        raise OperationalError("INSERT", {}, Exception("database or disk is full"))

    tries.clear()
    with pytest.raises(OperationalError):
        storage.run(full)
    assert len(tries) == 1
    storage.close()
