"""Tables and connections leave no reference cycles: reference counting frees them as
soon as they go, with no full garbage collection (one walks every object of the server:
4-5% of its time under churn when every table and connection left cycles; see
Hub._collect_forever, now a safety net that backs off).

Played over real sockets with Python's automatic collection off and the hub's own
collector off: whatever is still alive afterwards was kept by a cycle."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import json
import random
import time

import httpx2
from websockets.asyncio.client import connect

from tests.server.conftest import FAST
from tests.server.serving import serving
from thievery.server import create_app
from thievery.server.driver import Driver
from thievery.server.hub import Hub
from thievery.server.limits import Caps
from thievery.server.listeners import Listener
from thievery.server.live import LiveTable
from thievery.server.sockets import Session

HUMANS = [{"kind": "human"}] * 4
WITH_BOTS = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


async def seat(url: str, token: str | None, rng: random.Random) -> int:
    """Join (a spectator without a token), send one refused action, then act at random
    until the game is over; the number of refusals seen."""
    refused = 0
    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "join", "token": token} if token else {"type": "join"}))
        await ws.send(json.dumps({"type": "act", "action": {"type": "nonsense"}, "id": 0}))
        ref = 0
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == "error":
                refused += 1
            if frame["type"] not in ("welcome", "update"):
                continue
            if frame["result"] is not None:
                return refused
            if token and frame["legal"]:
                ref += 1
                action = rng.choice(frame["legal"])
                act = {"type": "act", "action": action, "version": frame["version"], "id": ref}
                await ws.send(json.dumps(act))


async def hang_up(url: str, token: str) -> None:
    """Join, then hang up without the closing handshake (as a dropped connection or a
    client that just closes its socket does): the server reads the end of the stream."""
    ws = await connect(url)
    await ws.send(json.dumps({"type": "join", "token": token}))
    while json.loads(await ws.recv())["type"] != "welcome":
        pass
    ws.transport.close()  # (the end of the stream, no close frame)
    await asyncio.wait_for(ws.wait_closed(), 10)


async def refused_handshake(port: int, path: str) -> None:
    """An upgrade request that websockets refuses (no Sec-WebSocket-Key): a 400."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    status = await asyncio.wait_for(reader.readline(), 10)
    assert status.split()[1] == b"400", status
    writer.close()
    await writer.wait_closed()


async def play_tables(port: int) -> list[int]:
    base = f"http://127.0.0.1:{port}"
    rng = random.Random(5)
    refusals: list[int] = []
    async with httpx2.AsyncClient(base_url=base, timeout=30) as http:
        for game, seats, options in [
            ("schattendieb", HUMANS, {"games": 1}),
            ("schattendieb", HUMANS, {"games": 1}),
            ("schattendieb", WITH_BOTS, {"games": 1}),
            ("thieves", WITH_BOTS, {}),
        ]:
            r = await http.post(
                "/api/tables", json={"game": game, "seats": seats, "options": options}
            )
            assert r.status_code == 201, r.text
            made = r.json()
            url = f"ws://127.0.0.1:{port}/api/tables/{made['table']['id']}/ws"
            tokens: list[str | None] = [s["token"] for s in made["seats"]]
            refusals += await asyncio.gather(
                *(seat(url, t, random.Random(rng.random())) for t in [*tokens, None])
            )
        # A table whose players join and hang up (it stays in memory, unfinished, until it
        # is idle long enough: not a leak; its connections must go).
        r = await http.post("/api/tables", json={"game": "schattendieb", "seats": HUMANS})
        made = r.json()
        url = f"ws://127.0.0.1:{port}/api/tables/{made['table']['id']}/ws"
        await asyncio.gather(*(hang_up(url, s["token"]) for s in made["seats"]))
        await refused_handshake(port, f"/api/tables/{made['table']['id']}/ws")
    return refusals


def alive(kinds: tuple[type, ...], names: tuple[str, ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for o in gc.get_objects():
        kind = type(o)  # (not isinstance: a dead weak proxy refuses it)
        name = kind.__name__
        if issubclass(kind, kinds) or name.startswith(names):
            counts[name] = counts.get(name, 0) + 1
    return counts


def test_tables_and_connections_are_freed_without_a_garbage_collection(
    sqlite_url: str,
) -> None:
    caps = dataclasses.replace(Caps.lifted(), gc_seconds=0)  # the hub never collects
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=caps)
    kinds = (LiveTable, Driver, Session, Listener)
    # our uvicorn protocols (websocket, HTTP), and the websocket protocol's state
    names = ("Wire", "HeaderDeadline", "ServerProtocol")
    with serving(app) as port:
        hub: Hub = app.state.hub
        hub.finished_cache = 0  # a finished table leaves memory at once
        gc.collect()
        before = alive(kinds, names)
        gc.disable()
        try:
            refusals = asyncio.run(play_tables(port))
            deadline = time.monotonic() + 10
            while hub.connections and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not hub.connections
            # The last connections' protocols are let go by the server's thread: waited
            # for (up to 10 s, the collector still off, so a cycle still stays and fails).
            # The last finished table stays until the next one comes or goes; the one
            # whose players hung up, till it is idle.
            deadline = time.monotonic() + 10
            while True:
                kept = len(hub.tables)
                left = alive(kinds, names)
                grown = {k: v - before.get(k, 0) for k, v in left.items() if v > before.get(k, 0)}
                if grown == ({"LiveTable": kept, "Driver": kept} if kept else {}):
                    break
                if time.monotonic() > deadline:
                    break
                time.sleep(0.05)
        finally:
            gc.enable()
    # Every seat and spectator had its nonsense action refused (the refusal path, too).
    # (2 tables of 4 people and 2 of 1 and bots, a spectator at each)
    assert len(refusals) == 2 * 5 + 2 * 2 and all(n >= 1 for n in refusals)
    unfinished = [t for t in hub.tables.values() if not t.is_over]
    assert kept <= 2 and len(unfinished) == 1 and unfinished[0].record.game == "schattendieb"
    assert grown == ({"LiveTable": kept, "Driver": kept} if kept else {})
    assert hub.collected == []  # (nothing but reference counting freed the rest)
