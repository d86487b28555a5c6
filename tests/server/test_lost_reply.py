"""A write whose reply is lost: the commit may have happened or not (a database connection
dropped between COMMIT and its answer, a PostgreSQL restart). Storage is read back and says:
the action is taken exactly once if it was stored, refused with nothing changed if it was
not, and if storage cannot even be read the table takes no action until it can. On SQLite
and on PostgreSQL (there the write is fenced by the table's lease, several processes)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from thievery.server import hub as hub_module
from thievery.server.errors import ServerError
from thievery.server.hub import Hub
from thievery.server.limits import Caps
from thievery.server.listeners import Listener
from thievery.server.live import LiveTable
from thievery.server.lobby import Lobby
from thievery.server.seats import BOT, hash_token, new_token
from thievery.server.storage import ActionRow, Storage

HUMANS = [{"kind": "human"}] * 3


def lost() -> OperationalError:
    """What SQLAlchemy raises when the database connection broke under a statement."""
    return OperationalError(
        "COMMIT",
        {},
        Exception("server closed the connection unexpectedly"),
        connection_invalidated=True,
    )


class LossyWriter:
    """The hub's writer, but the next write fails as if its reply was lost: after its
    commit (``committed=True``) or before it. Also the writes made in a transaction of
    their own (:meth:`lossy_run`: a new table's, with several processes)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.fail_next: bool | None = None  # None: no failure; else: committed or not

    def lossy_run(self, run: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def lossy(op: Callable[[Any], Any]) -> Any:
            committed, self.fail_next = self.fail_next, None
            if committed is None:
                return run(op)
            if committed:
                run(op)
            raise lost()

        return lossy

    async def submit(self, op: Callable[[Any], Any]) -> Any:
        committed, self.fail_next = self.fail_next, None
        if committed is None:
            return await self.inner.submit(op)
        if committed:
            await self.inner.submit(op)
        raise lost()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class Heard(Listener):
    """A connection that keeps every frame it is sent."""

    __slots__ = ("texts",)

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.texts: list[str] = []

    def push(self, text: str) -> None:
        self.texts.append(text)


@contextlib.asynccontextmanager
async def lossy_hub(db_url: str) -> AsyncIterator[tuple[Hub, LossyWriter]]:
    hub = Hub(Storage(db_url), bot_delay=0, caps=Caps.lifted())
    await hub.start()
    writer = LossyWriter(hub.writer)
    hub.writer = writer  # type: ignore[assignment]
    run = hub.storage.run
    hub.storage.run = writer.lossy_run(run)  # type: ignore[method-assign]
    try:
        yield hub, writer
    finally:
        hub.writer = writer.inner
        hub.storage.run = run  # type: ignore[method-assign]
        await hub.close()


async def heard_table(hub: Hub) -> tuple[LiveTable, Heard, int]:
    """A new table with seat 1 connected (keeping every frame), and how many frames that
    connection was sent on joining."""
    table, _, _ = await hub.create("schattendieb", HUMANS)
    other = Heard(1)
    table.attach(other)
    return table, other, len(other.texts)


def unreadable(*args: Any) -> Any:
    """Storage's read of a table's actions, while the database is unreachable."""
    raise lost()


async def act_unsure(
    hub: Hub, writer: LossyWriter, table: LiveTable, action: Any, mp: pytest.MonkeyPatch
) -> tuple[ServerError, Callable[..., list[ActionRow]]]:
    """Seat 0 plays ``action``: its commit happens, its reply is lost, and storage cannot
    be read back (until the returned read is put back). Returns the refusal and the read."""
    reads = hub.storage.actions
    mp.setattr(hub.storage, "actions", unreadable)
    writer.fail_next = True
    with pytest.raises(ServerError) as refused:
        await table.act(0, action, None)
    return refused.value, reads


def stored(hub: Hub, table: LiveTable) -> list[ActionRow]:
    return hub.storage.actions(table.id)


def choice(table: LiveTable, seat: int) -> Any:
    return random.Random(seat).choice(table.state.legal_actions(seat)).to_json()


async def restored_view(db_url: str, table: LiveTable) -> Any:
    """The table as a fresh server restores it from storage: the spectators' view."""
    hub = Hub(Storage(db_url), bot_delay=0, caps=Caps.lifted())
    await hub.start()
    try:
        again = await hub.get(table.id)
        return again.state.view(None), again.version
    finally:
        await hub.close()


def test_a_committed_write_whose_reply_was_lost_is_taken_once(db_url: str) -> None:
    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            table, other, welcomed = await heard_table(hub)
            action = choice(table, 0)
            writer.fail_next = True  # committed, then the connection "dropped"
            seq, _ = await table.act(0, action, None)
            assert table.version == 1 and seq == table.seq[0]
            rows = stored(hub, table)
            assert [(r.n, r.seat, r.action) for r in rows] == [(0, 0, action)]
            assert len(other.texts) == welcomed + 1  # told once
            # play goes on: the next action is action 1
            await table.act(1, choice(table, 1), None)
            assert table.version == 2 and len(stored(hub, table)) == 2
            assert await restored_view(db_url, table) == (
                table.state.view(None),
                2,
            )

    asyncio.run(go())


def test_a_write_that_never_committed_is_refused_and_changes_nothing(db_url: str) -> None:
    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            table, other, welcomed = await heard_table(hub)
            before = table.state.view(None)
            action = choice(table, 0)
            writer.fail_next = False
            with pytest.raises(ServerError) as refused:
                await table.act(0, action, None)
            assert refused.value.code == "storage/failed" and refused.value.status == 503
            assert table.version == 0 and table.state.view(None) == before
            assert stored(hub, table) == [] and len(other.texts) == welcomed
            # (a broken connection: storage is read once more before the next action)
            assert table.unsettled
            await table.act(0, action, None)  # the same action, again: accepted now
            assert not table.unsettled
            assert [(r.n, r.action) for r in stored(hub, table)] == [(0, action)]

    asyncio.run(go())


def test_when_storage_cannot_say_the_table_waits_until_it_can(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            table, _, _ = await hub.create("schattendieb", HUMANS)
            first, second = choice(table, 0), choice(table, 1)
            hand = len(table.state.view(0)["hand"])
            refused, reads = await act_unsure(hub, writer, table, first, monkeypatch)
            assert refused.status == 503 and "cannot say" in refused.message
            assert table.unsettled and table.version == 0
            # Still unreadable: no other action is taken meanwhile.
            with pytest.raises(ServerError):
                await table.act(1, second, None)
            assert table.version == 0 and len(reads(table.id)) == 1
            monkeypatch.setattr(hub.storage, "actions", reads)
            # Readable again: the stored action is taken (once), then this one.
            await table.act(1, second, None)
            assert not table.unsettled and table.version == 2
            assert [(r.n, r.seat) for r in stored(hub, table)] == [(0, 0), (1, 1)]
            assert len(table.state.view(0)["hand"]) == hand - 1

    asyncio.run(go())


def test_a_commit_seen_only_after_the_read_back_is_taken_before_the_next_action(
    db_url: str,
) -> None:
    """A commit can become visible after the connection that sent it broke: the action is
    refused (storage did not hold it yet), and the next action reads storage again first."""

    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            table, _, _ = await hub.create("schattendieb", HUMANS)
            first, second = choice(table, 0), choice(table, 1)
            hand = len(table.state.view(0)["hand"])
            writer.fail_next = False  # not stored when storage is read back...
            with pytest.raises(ServerError):
                await table.act(0, first, None)
            assert table.version == 0 and table.unsettled
            late = ActionRow(0, 0, first, 1.0, "human")  # ...but committed just after
            hub.storage.run(lambda conn: Storage.append_action(conn, table.id, late))
            await table.act(1, second, None)
            assert table.version == 2 and not table.unsettled
            assert [(r.n, r.seat) for r in stored(hub, table)] == [(0, 0), (1, 1)]
            assert len(table.state.view(0)["hand"]) == hand - 1

    asyncio.run(go())


def test_a_table_is_settled_before_it_is_closed(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Closing writes the table's action count: it counts the action storage holds."""

    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            table, _, _ = await hub.create("schattendieb", HUMANS)
            _, reads = await act_unsure(hub, writer, table, choice(table, 0), monkeypatch)
            monkeypatch.setattr(hub.storage, "actions", reads)
            await hub.close_table(table)
            record = hub.storage.table(table.id)
            assert record is not None and record.finished
            assert record.actions == table.version == len(stored(hub, table)) == 1

    asyncio.run(go())


def test_a_refused_clock_tick_does_not_stop_the_table(db_url: str) -> None:
    """A real-time game's clock tick that cannot be stored is tried again; the table's
    driver (its clock, its bots) goes on."""

    async def go() -> None:
        async with lossy_hub(db_url) as (hub, _):
            table, _, _ = await hub.create("schatz-rabatz", [{"kind": "human"}] * 2)
            ticks: list[bool] = []
            tick = table.tick_locked

            async def flaky(keep_silent: bool) -> None:
                ticks.append(keep_silent)
                if len(ticks) == 1:
                    raise ServerError("storage/failed", "not stored", 503)
                await tick(keep_silent)

            table.tick_locked = flaky  # type: ignore[method-assign]
            for seat in range(2):
                table.attach(Heard(seat))  # both came: the clock starts
            for _ in range(100):
                if len(ticks) >= 2:
                    break
                await asyncio.sleep(0.05)
            assert len(ticks) >= 2, "the driver stopped after a refused tick"
            task = table.driver.task
            assert task is not None and not task.done()

    asyncio.run(go())


def test_an_uncancelled_action_cancelled_all_the_same_is_read_back_before_the_next_write(
    db_url: str,
) -> None:
    """A caller that said it is never cancelled (the wire's frame tasks; uvicorn cancels
    them only when a stop outlasts its grace) runs the action in its own task. Cancelled
    while the commit is on its way, the commit still happens: the table is unsure, and
    reads storage back (everyone told) before it changes again."""

    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            table, other, welcomed = await heard_table(hub)
            action = choice(table, 0)
            entered = asyncio.Event()
            submit = writer.submit

            async def submitted(op: Callable[[Any], Any]) -> Any:
                entered.set()
                return await submit(op)

            writer.submit = submitted  # type: ignore[method-assign]
            task = asyncio.create_task(table.act(0, action, None, uncancelled=True))
            await entered.wait()  # it waits for its commit now
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            # The commit goes on in the writer (the future the table awaited is cancelled):
            # waited for by reading storage, so a slow disk or database is no failure.
            for _ in range(200):
                if stored(hub, table):
                    break
                await asyncio.sleep(0.05)
            assert [(r.n, r.action) for r in stored(hub, table)] == [(0, action)]
            assert table.version == 0 and table.unsettled and len(other.texts) == welcomed
            await table.settle()  # as every writer does first
            assert table.version == 1 and not table.unsettled
            assert len(other.texts) == welcomed + 1  # told once
            assert await restored_view(db_url, table) == (table.state.view(None), 1)

    asyncio.run(go())


# ------------------------------------------------------------ writes about a table's row
# The seats (a bot hand-over, the host's new invite), closing, playing again and a new
# table itself: the same three cases as an action's.

ROW_WRITES = ["bot", "invite", "close", "again"]


async def write_row(hub: Hub, table: LiveTable, what: str) -> str | None:
    """Make one write about ``table``'s row; the new table's id for ``again``."""
    if what == "bot":
        await table.set_bot(1, "random")
    elif what == "invite":
        await table.new_invite(1)
    elif what == "close":
        await hub.close_table(table)
    else:
        return (await hub.again(table, "203.0.113.7")).id
    return None


async def table_for(hub: Hub, what: str) -> LiveTable:
    table, _, _ = await hub.create("schattendieb", HUMANS)
    if what == "again":  # (a closed table is over: it may be played again)
        await hub.close_table(table)
    return table


def made_in_memory(table: LiveTable, what: str) -> bool:
    return {
        "bot": table.seats[1].bot == "random",
        "invite": table.seats[1].reinvited == 1,
        "close": table.closed,
        "again": table.record.next_id is not None,
    }[what]


def played_again(hub: Hub, table: LiveTable) -> list[str]:
    """The stored tables that play again after ``table``."""
    return [r.id for r in hub.storage.unfinished() if r.prev_id == table.id]


def same_as_stored(hub: Hub, table: LiveTable) -> None:
    """Memory holds what storage holds about the table's row."""
    record = hub.storage.table(table.id)
    assert record is not None
    assert (record.seats, record.finished, record.next_id) == (
        table.record.seats,
        table.is_over,
        table.record.next_id,
    )


@pytest.mark.parametrize("what", ROW_WRITES)
def test_a_row_write_whose_reply_was_lost_is_taken_as_made(db_url: str, what: str) -> None:
    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            table = await table_for(hub, what)
            writer.fail_next = True  # committed, then the connection "dropped"
            new_id = await write_row(hub, table, what)
            assert made_in_memory(table, what)
            same_as_stored(hub, table)
            if what == "again":  # asked again: the same table, not a second one
                assert played_again(hub, table) == [new_id]
                assert new_id == await write_row(hub, table, what)
                assert played_again(hub, table) == [new_id]

    asyncio.run(go())


@pytest.mark.parametrize("what", ROW_WRITES)
def test_a_row_write_that_never_committed_is_refused_and_changes_nothing(
    db_url: str, what: str
) -> None:
    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            table = await table_for(hub, what)
            writer.fail_next = False
            with pytest.raises(ServerError) as refused:
                await write_row(hub, table, what)
            assert refused.value.code == "storage/failed" and refused.value.status == 503
            assert not made_in_memory(table, what) and table.row_unsure
            same_as_stored(hub, table)
            assert played_again(hub, table) == []
            new_id = await write_row(hub, table, what)  # tried again: made now, once
            assert made_in_memory(table, what) and not table.row_unsure
            same_as_stored(hub, table)
            if what == "again":
                assert played_again(hub, table) == [new_id]

    asyncio.run(go())


@pytest.mark.parametrize("what", ROW_WRITES)
def test_a_row_write_storage_cannot_confirm_is_read_back_before_the_next_change(
    db_url: str, what: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Committed, its reply lost, and the row cannot be read back at once: refused (it
    may or may not be stored); the table reads its row before it changes again, and
    takes what storage holds (a play-again asked once more gives the table stored)."""

    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            table = await table_for(hub, what)
            read = hub.storage.table
            reads: list[str] = []

            def unreadable_once(table_id: str) -> Any:
                reads.append(table_id)
                if len(reads) == 1:
                    raise lost()
                return read(table_id)

            monkeypatch.setattr(hub.storage, "table", unreadable_once)
            writer.fail_next = True
            with pytest.raises(ServerError) as refused:
                await write_row(hub, table, what)
            assert refused.value.status == 503 and "not be confirmed" in refused.value.message
            assert not made_in_memory(table, what) and table.row_unsure
            monkeypatch.setattr(hub.storage, "table", read)
            if what == "again":
                [new_id] = played_again(hub, table)  # stored (nobody knows it yet)
                assert new_id == await write_row(hub, table, what)
                assert played_again(hub, table) == [new_id]
            else:
                await table.settle()  # (as every change does first)
            assert made_in_memory(table, what) and not table.row_unsure
            same_as_stored(hub, table)

    asyncio.run(go())


def test_a_new_table_whose_reply_was_lost_is_made(db_url: str) -> None:
    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            writer.fail_next = True  # committed, then the connection "dropped"
            table, _, _ = await hub.create("schattendieb", HUMANS)
            assert hub.storage.table(table.id) is not None
            await table.act(0, choice(table, 0), None)  # it is played as any other
            assert [r.seat for r in stored(hub, table)] == [0]
            writer.fail_next = False  # never committed: refused
            with pytest.raises(ServerError) as refused:
                await hub.create("schattendieb", HUMANS)
            assert refused.value.status == 503
            assert [r.id for r in hub.storage.unfinished()] == [table.id]

    asyncio.run(go())


def test_a_new_table_storage_cannot_confirm_is_closed_if_it_was_stored(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Committed, its reply lost and storage unreadable: refused (nobody gets its invites),
    and the sweep closes it once storage answers, so it no longer counts against its
    maker. Never committed: nothing is closed, and it is looked for until LATE_COMMIT."""

    async def refused_create(hub: Hub, writer: LossyWriter, committed: bool) -> None:
        with monkeypatch.context() as mp:
            mp.setattr(hub.storage, "table", unreadable)
            writer.fail_next = committed
            with pytest.raises(ServerError) as refused:
                await hub.create("schattendieb", HUMANS, client="192.0.2.7")
        assert refused.value.status == 503

    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            maker = hub.storage.maker_of("192.0.2.7")
            await refused_create(hub, writer, committed=True)
            [made] = hub.storage.unfinished()
            assert hub.storage.made_by_one(maker) == 1
            watched = await hub.get(made.id)  # (a spectator who found it in a listing)
            await hub.sweep()
            assert watched.closed
            assert hub.storage.unfinished() == [] and hub.storage.made_by_one(maker) == 0
            record = hub.storage.table(made.id)
            assert record is not None and record.finished and record.result is None
            assert hub.unconfirmed == {}
            kept, _, _ = await hub.create("schattendieb", HUMANS, client="192.0.2.7")
            await kept.act(0, choice(kept, 0), None)
            await refused_create(hub, writer, committed=False)
            await hub.sweep()  # (a table made and used meanwhile is left alone)
            assert [r.id for r in hub.storage.unfinished()] == [kept.id]
            assert len(hub.unconfirmed) == 1  # still looked for: it may yet show up
            monkeypatch.setattr(hub_module, "LATE_COMMIT", 0.0)
            await hub.sweep()
            assert hub.unconfirmed == {}
            assert [r.id for r in hub.storage.unfinished()] == [kept.id]

    asyncio.run(go())


def test_abandon_closes_only_stored_unfinished_tables_without_actions(db_url: str) -> None:
    async def go() -> None:
        hub = Hub(Storage(db_url), bot_delay=0, caps=Caps.lifted())
        await hub.start()
        try:
            played, _, _ = await hub.create("schattendieb", HUMANS)
            await played.act(0, choice(played, 0), None)
            unused, _, _ = await hub.create("schattendieb", HUMANS)
            ids = [played.id, unused.id, "no-such-table"]
            assert await asyncio.to_thread(hub.storage.abandon, ids) == [unused.id]
            assert await asyncio.to_thread(hub.storage.abandon, ids) == []  # (once)
            assert [r.id for r in hub.storage.unfinished()] == [played.id]
        finally:
            await hub.close()

    asyncio.run(go())


def stored_seats(hub: Hub, table: LiveTable) -> list[Any]:
    record = hub.storage.table(table.id)
    assert record is not None
    return record.seats


@pytest.mark.parametrize("committed", [True, False])
def test_an_invites_exchange_whose_reply_was_lost(db_url: str, committed: bool) -> None:
    """Committed: the key is the seat's (as stored). Never committed: refused, the invite
    still waiting, and asked again it is exchanged."""

    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            table, invites, _ = await hub.create("schattendieb", HUMANS)
            invite = invites[1]
            assert invite is not None
            writer.fail_next = committed
            if committed:
                exchanged = await table.exchange(invite)
                assert exchanged is not None and exchanged[0] == 1
                assert table.seat_of(exchanged[1]) == 1
            else:
                with pytest.raises(ServerError) as refused:
                    await table.exchange(invite)
                assert refused.value.status == 503
                assert table.waiting_seat(invite) == 1 and table.row_unsure
                assert stored_seats(hub, table) == table.record.seats
                exchanged = await table.exchange(invite)
                assert exchanged is not None and table.seat_of(exchanged[1]) == 1
            assert stored_seats(hub, table) == table.record.seats
            assert table.waiting_seat(invite) is None

    asyncio.run(go())


def test_an_exchange_storage_cannot_confirm_leaves_the_invite_waiting(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Committed, its reply lost, and the row unreadable at once: refused, and the seats
    are stored again without the key nobody was given, so the invite still works."""

    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            table, invites, _ = await hub.create("schattendieb", HUMANS)
            invite = invites[1]
            assert invite is not None
            read = hub.storage.table
            monkeypatch.setattr(hub.storage, "table", unreadable)
            writer.fail_next = True
            with pytest.raises(ServerError) as refused:
                await table.exchange(invite)
            assert refused.value.status == 503
            monkeypatch.setattr(hub.storage, "table", read)
            assert stored_seats(hub, table)[1].get("token_hash") is None
            await table.settle()
            assert table.waiting_seat(invite) == 1
            exchanged = await table.exchange(invite)
            assert exchanged is not None and table.seat_of(exchanged[1]) == 1
            assert stored_seats(hub, table) == table.record.seats

    asyncio.run(go())


@pytest.mark.parametrize("committed", [True, False])
def test_a_lobby_claim_whose_reply_was_lost(db_url: str, committed: bool) -> None:
    """Committed: the claimer's key holds the seat. Never committed: refused, the seat
    free again, and claimed when asked again."""

    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            lobby = Lobby(hub)
            table, _, _ = await hub.create("schattendieb", HUMANS)
            assert await lobby.list_table(table)
            writer.fail_next = committed
            if not committed:
                with pytest.raises(ServerError) as refused:
                    await lobby.claim(table, 1, "Zed")
                assert refused.value.status == 503
                assert table.seats[1].token_hash is None and table.row_unsure
                assert stored_seats(hub, table) == table.record.seats
            token = await lobby.claim(table, 1, "Zed")
            assert table.seat_of(token) == 1 and table.seats[1].name == "Zed"
            assert stored_seats(hub, table) == table.record.seats

    asyncio.run(go())


@pytest.mark.parametrize("committed", [True, False])
def test_a_claim_storage_cannot_confirm_is_answered_as_made_when_asked_again(
    db_url: str, committed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its write's reply lost and the row unreadable at once: refused as unsure (503).
    Asked again with the key the client made, once storage answers, it is answered as
    made (committed) or made now (never committed): either way the claimer's key holds
    the seat, in storage too, and no key nobody holds is left there."""

    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            lobby = Lobby(hub)
            table, _, _ = await hub.create("schattendieb", HUMANS)
            assert await lobby.list_table(table)
            key = new_token()
            read = hub.storage.table
            monkeypatch.setattr(hub.storage, "table", unreadable)
            writer.fail_next = committed
            with pytest.raises(ServerError) as refused:
                await lobby.claim(table, 1, "Zed", key)
            assert refused.value.status == 503
            monkeypatch.setattr(hub.storage, "table", read)
            assert await lobby.claim(table, 1, "Zed", key) == key
            assert table.seat_of(key) == 1 and table.seats[1].name == "Zed"
            assert stored_seats(hub, table) == table.record.seats
            assert stored_seats(hub, table)[1]["token_hash"] == hash_token(key)

    asyncio.run(go())


@pytest.mark.parametrize("first", ["bot", "again"])
def test_a_closing_read_back_ends_the_table_once(
    db_url: str, first: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A closing committed whose reply was lost and that storage could not confirm at
    once: the table's next step reads it back. The table's driver ends; its bots and clock
    store nothing more; closing asked again is told the table is closed (as any second
    closing); play again may follow at once."""

    async def go() -> None:
        async with lossy_hub(db_url) as (hub, writer):
            table, _, _ = await hub.create("schattendieb", HUMANS)
            read = hub.storage.table
            monkeypatch.setattr(hub.storage, "table", unreadable)
            writer.fail_next = True
            with pytest.raises(ServerError):
                await hub.close_table(table)
            monkeypatch.setattr(hub.storage, "table", read)
            assert not table.closed and table.row_unsure
            driver = table.driver.task
            assert driver is not None and not driver.done()
            if first == "again":  # play again, first thing: the closing is read back
                new = await hub.again(table, "203.0.113.7")
                assert played_again(hub, table) == [new.id] and table.closed
            async with table.lock:  # a bot's move: refused, nothing stored
                with pytest.raises(ServerError) as refused:
                    await table.act_locked(0, choice(table, 0), "bot")
            assert refused.value.code == "table/over" and table.closed
            assert stored(hub, table) == []
            await asyncio.wait_for(asyncio.shield(driver), 2)  # (it ended by itself)
            with pytest.raises(ServerError) as again:  # asked again: closed already
                await hub.close_table(table)
            assert again.value.code == "table/over"
            new = await hub.again(table, "203.0.113.7")
            assert played_again(hub, table) == [new.id]

    asyncio.run(go())


def test_a_bot_does_not_move_for_a_seat_given_back_while_it_thought(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat taken back from its bot, stored though its reply was lost and storage could
    not confirm it: the bot, which decided from memory, does not move once settling has
    read the seat back as the human's."""

    async def go() -> None:
        hub = Hub(Storage(db_url), bot_delay=60, caps=Caps.lifted())  # (bots wait: by hand)
        await hub.start()
        writer = LossyWriter(hub.writer)
        hub.writer = writer  # type: ignore[assignment]
        try:
            table, _, _ = await hub.create("schattendieb", HUMANS)
            await table.set_bot(1, "random")
            read = hub.storage.table
            monkeypatch.setattr(hub.storage, "table", unreadable)
            writer.fail_next = True
            with pytest.raises(ServerError):
                await table.set_bot(1, None)
            monkeypatch.setattr(hub.storage, "table", read)
            assert table.seats[1].bot == "random" and table.row_unsure
            await table.driver._act(1, BOT, table.version, table.state.legal_actions(1)[0])
            assert table.seats[1].bot is None  # (read back)
            assert table.version == 0 and stored(hub, table) == []
        finally:
            hub.writer = writer.inner
            await hub.close()

    asyncio.run(go())
