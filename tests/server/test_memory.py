"""Memory per live table (issue 18: at most 50 KB): measured with tracemalloc over tables
played in-process, with bounds generous enough for other Python versions but far below
what the server kept before (about 650 KB of resident memory a table, views built and kept
for bot seats, every event kept as objects)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import json
import random
import sys
import tracemalloc
import weakref
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from thievery.core.protocol import Event
from thievery.server import Caps
from thievery.server import hub as hub_module
from thievery.server.audience import frame_text
from thievery.server.hub import Hub
from thievery.server.listeners import Listener
from thievery.server.live import LOG_KEEP, LOG_LIMIT, LiveTable
from thievery.server.storage import Storage

HUMANS = [{"kind": "human"}] * 4
WITH_BOTS = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3


async def play(table: LiveTable, actions: int, rng: random.Random) -> None:
    """Up to ``actions`` random legal actions of the table's human seats (stored as
    every action is)."""
    for _ in range(actions):
        people = [s for s in table.state.to_act if table.seats[s].bot is None]
        if table.is_over or not people:
            return
        seat = rng.choice(people)
        await table.act(seat, rng.choice(table.state.legal_actions(seat)), None)


@contextlib.asynccontextmanager
async def running_hub(db: Path) -> AsyncIterator[Hub]:
    """A hub on a fresh SQLite file, bots moving at once; closed after."""
    hub = Hub(Storage(f"sqlite:///{db}"), bot_delay=0, caps=Caps.lifted())
    await hub.start()
    try:
        yield hub
    finally:
        await hub.close()


async def grown_per_table(tmp_path: Path, tables: int, actions: int) -> float:
    """Bytes of Python memory a live 4-human table holds after ``actions`` actions."""
    rng = random.Random(7)
    async with running_hub(tmp_path / "m.db") as hub:
        first, _, _ = await hub.create("schattendieb", HUMANS, {"games": 99})
        await play(first, actions, rng)  # what only a first table costs is not counted
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        made = [(await hub.create("schattendieb", HUMANS, {"games": 99}))[0] for _ in range(tables)]
        for table in made:
            await play(table, actions, rng)
        await asyncio.sleep(0.1)  # the writer's last commits answered
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        assert all(t.version >= actions // 2 for t in made)  # they were played
        return grown / tables


def test_a_live_table_holds_little_memory(tmp_path: Path) -> None:
    # 50 idle-but-live tables, 40 actions into their game: about 23 KB each (3.11; 55 KB
    # while each watched audience's last snapshot was kept between actions).
    per_table = asyncio.run(grown_per_table(tmp_path, 50, 40))
    assert per_table < 40_000, f"{per_table / 1024:.0f} KB a live table"


def test_no_snapshot_is_kept_between_actions(tmp_path: Path) -> None:
    """Between actions a table keeps a digest of what each audience saw, not the view:
    the next update is still told apart from no change."""

    async def check() -> None:
        async with running_hub(tmp_path / "s.db") as hub:
            table, _, _ = await hub.create("schattendieb", HUMANS, {"games": 2})
            listener = Listener(0)
            table.attach(listener)
            await play(table, 12, random.Random(5))
            assert table._cache == {} and table._encoding == {}
            assert all(
                len(d) == 2 and all(isinstance(h, int) for h in d) for d in table._seen.values()
            )
            # Seat 0 is told of what changed for it, and only then: its version moves with
            # its updates.
            updates = [json.loads(f) for f in listener.frames if f is not None]
            updates = [f for f in updates if f["type"] == "update"]
            assert updates and [f["version"] for f in updates] == list(
                range(updates[0]["version"], updates[0]["version"] + len(updates))
            )
            assert updates[-1]["version"] == table.seq[0]

    asyncio.run(check())


def test_no_snapshot_is_kept_after_a_welcome(tmp_path: Path) -> None:
    """A welcome builds its connection's snapshot and lets it go: a table whose players
    have joined but not moved yet holds none (it held one a seat, about 4 KB each)."""

    async def check() -> None:
        async with running_hub(tmp_path / "w.db") as hub:
            table, _, _ = await hub.create("schattendieb", HUMANS, {"games": 2})
            listeners = [Listener(seat) for seat in (0, 1, 2, 3, None)]
            for listener in listeners:
                table.attach(listener)
            assert table._cache == {} and table._encoding == {}
            welcomes = [json.loads(str(x.frames[0])) for x in listeners]
            assert [w["type"] for w in welcomes] == ["welcome"] * 5
            assert [w["seat"] for w in welcomes] == [0, 1, 2, 3, None]
            assert all(len(w["view"]["hand"]) == 4 for w in welcomes[:4])
            assert welcomes[0]["legal"] and welcomes[4]["legal"] == []
            await play(table, 4, random.Random(2))  # and play goes on as before
            assert table.version >= 2 and table._cache == {}

    asyncio.run(check())


def test_bot_seats_views_are_neither_built_nor_kept(tmp_path: Path) -> None:
    async def check() -> None:
        async with running_hub(tmp_path / "b.db") as hub:
            table, _, _ = await hub.create("schattendieb", WITH_BOTS, {"games": 2})
            await play(table, 20, random.Random(3))
            assert table.watched == {0, None}
            assert set(table._seen) == {0, None}
            assert {a for a, _ in table._cache.items()} <= {0, None}
            assert table.seq[1] > 0  # counted all the same (nobody sees it)

    asyncio.run(check())


def test_the_log_is_kept_compact_and_joiners_get_the_same_events(tmp_path: Path) -> None:
    async def check() -> None:
        async with running_hub(tmp_path / "l.db") as hub:
            table, _, _ = await hub.create("schattendieb", HUMANS, {"games": 99})
            seen: list[Event] = []
            original = table._log

            def keep(events: list[Event]) -> None:
                seen.extend(events)
                original(events)

            table._log = keep  # type: ignore[method-assign]
            rng = random.Random(11)
            while len(seen) < LOG_KEEP + 300:
                await play(table, 50, rng)
            assert LOG_KEEP <= table.logged_events < LOG_KEEP + 200  # a chunk more at most
            for audience in (None, 0, 3):
                visible = [e for e in seen if e.is_visible_to(audience)][-LOG_LIMIT:]
                assert table.logged(audience) == visible
                welcome = table.welcome(audience)["log"]
                assert welcome == [table.event_json(e, audience) for e in visible]
            entries = [*table.log, *table.log_tail]
            kept = sys.getsizeof(table.log) + sum(
                map(sys.getsizeof, (x for e in entries for x in e))
            )
            # ~15 KB for 1,000 events (they were ~380 KB as Event objects with their dicts)
            assert kept < 60_000, f"{kept / 1024:.0f} KB for {table.logged_events} events"

    asyncio.run(check())


def test_frame_text_writes_what_json_dumps_writes() -> None:
    frames = [
        {"type": "update", "seat": None, "view": {"hands": [[1, 2], []], 3: "x"}, "ok": True},
        {"big": 10**30, "nested": [{"f": 0.1, "n": None}]},  # past 64 bits: json.dumps
        {"text": 'é "quoted" \u2028'},
    ]
    for frame in frames:
        assert json.loads(frame_text(frame)) == json.loads(json.dumps(frame))


def test_the_hubs_collection_frees_tables_kept_by_cycles_and_backs_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tables and connections leave no reference cycles (test_cycles.py); the hub's full
    collection, once GC_AFTER have gone, is the safety net for any that do. Python's
    automatic collection is off here: tables each kept by a cycle (as an unforeseen path
    could keep them) are freed by the hub's alone. A collection that finds little doubles
    the wait before the next; one that finds much brings it back. (GC_AFTER and GC_WORTH
    are three tenths of the server's here, as is the count of tables past the first: 30
    and 6 tables, not 100 and 20, each a whole game to play. A table kept by a cycle
    leaves ~170 objects: 30 of them are "much", past 3,000; 6 are little.)"""
    # (the server's own, scaled: had they grown apart from what a table leaves, this fails)
    GC_AFTER, GC_WORTH = hub_module.GC_AFTER * 3 // 10, hub_module.GC_WORTH * 3 // 10
    monkeypatch.setattr(hub_module, "GC_AFTER", GC_AFTER)
    monkeypatch.setattr(hub_module, "GC_WORTH", GC_WORTH)

    async def check(db: Path) -> None:
        caps = dataclasses.replace(Caps.lifted(), gc_seconds=0.05)
        hub = Hub(Storage(f"sqlite:///{db}"), bot_delay=0, caps=caps)
        hub.finished_cache = 0  # a finished table leaves memory at once
        await hub.start()
        gc.collect()
        gc.disable()
        try:
            rng = random.Random(9)

            async def played(cycle: bool) -> weakref.ref[LiveTable]:
                table, _, _ = await hub.create("schattendieb", HUMANS, {"games": 1})
                while not table.is_over:
                    await play(table, 50, rng)
                if cycle:
                    table.__dict__["kept_by"] = [table]  # only a full collection frees it
                return weakref.ref(table)

            kept = [await played(cycle=True) for _ in range(GC_AFTER + GC_AFTER // 5)]
            await asyncio.sleep(0.3)  # the writer's last commits, then a collection
            assert not hub.tables
            # (the last few, gone since the last collection, wait for the next; and so may
            # the one whose leaving made it due: let go by the hub, it is still in the
            # frames of its last action until they return, a turn of the loop later, and
            # a collection in that turn cannot free it. All are freed in the end, below.)
            assert [r for r in kept[: GC_AFTER - 1] if r() is not None] == []
            assert hub.collected[0] >= GC_WORTH  # the tables' objects
            assert hub.gc_wait == caps.gc_seconds
            for _ in range(2):  # tables without cycles: collections that find little
                done = len(hub.collected)
                [await played(cycle=False) for _ in range(GC_AFTER)]
                for _ in range(200):  # (till the collection they make due: a slow loop
                    if len(hub.collected) > done:  # is no failure)
                        break
                    await asyncio.sleep(0.05)
            assert hub.collected[-1] < GC_WORTH
            assert hub.gc_wait >= 4 * caps.gc_seconds
            assert [r for r in kept if r() is not None] == []
        finally:
            gc.enable()
            await hub.close()

    asyncio.run(check(tmp_path / "g.db"))


def test_a_snapshots_digest_tells_changes_apart_past_64_bit_numbers() -> None:
    from thievery.server.live import _digest, _encode

    def digest(snapshot: dict[str, Any], static: list[str] | None = None) -> tuple[int, int]:
        return _digest(*_encode(snapshot, static or []))

    def parts(n: int, legal: list[Any], cards: str = "x") -> dict[str, Any]:
        return {"view": {"n": n, "catalogue": cards}, "legal": legal, "to_act": [0]}

    big = 10**30  # orjson stops at 64 bits: json.dumps takes over
    assert digest(parts(big, [])) == digest(parts(big, []))
    assert digest(parts(big, []))[0] != digest(parts(big + 1, []))[0]
    assert digest(parts(1, [{"a": 1}]))[1] != digest(parts(1, [{"a": 2}]))[1]
    assert digest(parts(1, []))[1] == digest(parts(2, []))[1]  # the legal actions' own
    # A static key is left out (it never changes; it is sent once, in the welcome).
    assert digest(parts(1, [], "x"), ["catalogue"]) == digest(parts(1, [], "y"), ["catalogue"])


def test_a_snapshots_json_is_canonical_whatever_its_keys() -> None:
    """Equal snapshots are equal bytes, whatever order their keys were made in (an update
    that changes nothing for a seat is not sent to it); keys that are not strings are
    written as strings, as json.dumps writes them."""
    from thievery.server.live import _canonical

    one = {"b": [1, {"y": 2, "x": 1}], "a": None}
    other = {"a": None, "b": [1, {"x": 1, "y": 2}]}
    assert _canonical(one) == _canonical(other) == b'{"a":null,"b":[1,{"x":1,"y":2}]}'
    numbered = {2: "two", 1: "one"}
    assert _canonical(numbered) == _canonical({1: "one", 2: "two"})
    assert json.loads(_canonical(numbered)) == json.loads(json.dumps(numbered))
    assert json.loads(_canonical({"n": 10**30})) == {"n": 10**30}


def test_an_update_frames_spliced_json_is_the_state_frame_without_static_keys(
    tmp_path: Path,
) -> None:
    # The snapshot's JSON is encoded once (for its digest) and spliced into the update
    # frame: the text must parse to exactly the frame built as a dict, for every game and
    # audience, minus the view's static keys.
    from thievery.core.registry import plugin

    async def check() -> None:
        rng = random.Random(3)
        async with running_hub(tmp_path / "f.db") as hub:
            for game, players in [
                ("schattendieb", 4),
                ("thieves", 4),
                ("thieves-den", 3),
                ("schatz-rabatz", 2),
            ]:
                table, _, _ = await hub.create(game, [{"kind": "human"}] * players, {})
                await play(table, 5, rng)
                static = plugin(table.spec.name).static_view
                events = [Event("note", {"n": 1})]
                for audience in table.audiences:
                    text = table.state_frame_text("update", audience, events)
                    frame = table.state_frame("update", audience, events)
                    frame["view"] = {k: v for k, v in frame["view"].items() if k not in static}
                    assert json.loads(text) == json.loads(frame_text(frame)), (game, audience)

    asyncio.run(check())


def test_finished_tables_are_kept_a_while_oldest_let_go_first(tmp_path: Path) -> None:
    """At most ``finished_cache`` finished tables stay in memory, more only while someone
    is connected to them; the first to end go first, and a finished table loaded back from
    storage counts as the latest. Eviction looks at the oldest finished tables only
    (``hub.done``), never at every table: at a finish among 10,000 live tables it would
    otherwise walk them all."""

    async def check() -> None:
        async with running_hub(tmp_path / "f.db") as hub:
            hub.finished_cache = 2
            rng = random.Random(3)
            live = [(await hub.create("schattendieb", HUMANS, {"games": 1}))[0] for _ in range(3)]
            tables = [(await hub.create("schattendieb", HUMANS, {"games": 1}))[0] for _ in range(5)]
            watcher = Listener(None)
            tables[1].attach(watcher)  # connected: kept whatever its age
            for table in tables:
                while not table.is_over:
                    await play(table, 50, rng)
            ids = [t.id for t in tables]
            assert list(hub.done) == [ids[1], ids[4]]
            assert set(hub.tables) == {t.id for t in live} | {ids[1], ids[4]}
            back = await hub.get(ids[0])  # loaded from storage, finished: the latest now
            assert back.is_over and list(hub.done) == [ids[1], ids[0]]
            tables[1].detach(watcher)
            last, _, _ = await hub.create("schattendieb", HUMANS, {"games": 1})
            while not last.is_over:
                await play(last, 50, rng)
            assert list(hub.done) == [ids[0], last.id]
            assert set(hub.tables) == {t.id for t in live} | {ids[0], last.id}
            assert all(not t.is_over for t in live)

    asyncio.run(check())
