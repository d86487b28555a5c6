"""Server load: many concurrent tables played over loopback websockets for a fixed time.

Starts `thievery serve` on 127.0.0.1 (a fresh SQLite file, bots moving after
``--bot-delay``), creates ``--tables`` Der Schattendieb tables with ``--humans`` scripted
websocket players and server bots in the other seats, lets the scripted players act for
``--seconds`` (each thinks for a random, exponentially distributed time of mean ``--think-ms``
after an update before it acts; they join over two think times, as people arrive), then stops the
server and prints one JSON line:

- ``actions_per_s``: every accepted action (scripted players and server bots), per second;
- ``p50_ms`` / ``p99_ms``: from a scripted player sending an action to receiving the update
  it caused (the last update before the ``ack``, which the server queues right after it);
- ``memory_per_table_kb``: the server's resident memory growth per live table once every
  table is live (``_at_end``: at the end of the run), from a server that already played one
  table (so what only the first table costs is not counted per table);
- ``memory_per_table_kb_setup`` (``--workload bgio``): as boardgame.io's harness measures
  it, once every table is made and its four seats connected (their welcome received),
  before anyone plays: no finished tables and no churn in it.

``--profile FILE`` runs the server under cProfile (its statistics in ``FILE``).
``--bot-processes N`` is the server's own option: search bots (``--bot ismcts-strong``)
think in N processes beside it, or with 0 in its threads. ``--server-python PATH`` runs
the server on another virtual environment's interpreter (its ``thievery``; the load
generator stays on this one): builds of one Python version differ in speed, see
``server_python`` in the output.

    python bench/server_load.py --tables 200 --seconds 20

``--workload bgio`` runs the boardgame.io harness's workload instead
(the team's boardgame.io harness, ``bench.js --mode churn``): every seat of every table is a
scripted client that acts as soon as it is its turn (``--think-ms 0``), ``--tables`` live
tables, each finished table replaced by a new one. Our game is Der Schattendieb, one game a
table (``games=1``), or ``--game NAME``: ``--game facedown`` is the harness's own game
(``bench/facedown``, installed for the run into a temporary folder), so that both servers
play the same one. Every accepted action is committed to the database before anyone
hears of it (boardgame.io keeps its matches in memory). ``--db URL`` runs on PostgreSQL.

``--workers 2`` (PostgreSQL) runs ``thievery serve --workers 2``: two server processes on
one port, each client landing on either; CPU and memory are the whole server's (every
process), and actions are counted in the database. A table belongs to the process that
took its creation request, so each table is then made over a connection of its own (as
its host's browser would make it); ``live_tables_by_process`` says how the live tables
were spread over the running processes at the end (the warm-up table among them).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

import httpx2
import orjson
import uvloop
from sqlalchemy import create_engine, text
from websockets.client import ClientProtocol
from websockets.frames import Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from thievery.testing import install_plugin

HOST = "127.0.0.1"  # loopback only


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def rss_kb(pid: int) -> int:
    """Resident memory of a process, in kB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used, in seconds (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def family(pid: int) -> list[int]:
    """A process and its children (the server's workers), Linux."""
    out = [pid]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def server_cpu(pid: int) -> float:
    """CPU seconds of the server: every process of it."""
    return sum(cpu_seconds(p) for p in family(pid))


def server_rss_kb(pid: int) -> int:
    """Resident memory of the server: every process of it (kB)."""
    return sum(rss_kb(p) for p in family(pid))


def count(db: str, query: str) -> int:
    """A ``SELECT count(*)``'s answer on the benchmark's database."""
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            return int(conn.execute(text(query)).scalar() or 0)
    finally:
        engine.dispose()


def running_processes(db: str) -> int:
    """Server processes alive on a PostgreSQL database (their heartbeats)."""
    alive = "SELECT count(*) FROM thievery_owners WHERE expires_at > EXTRACT(EPOCH FROM now())"
    return count(db, alive)


def stored_actions(db: str) -> int:
    """Every action stored so far (all tables, all server processes)."""
    return count(db, "SELECT count(*) FROM thievery_actions")


def tables_by_process(db: str) -> list[int]:
    """Live tables each running server process owns, most first (PostgreSQL: its leases);
    with one SQLite process, the one count."""
    if not db.startswith("postgresql"):
        return [unfinished_tables(db)]
    owned = (
        "SELECT count(t.id) FROM thievery_owners o LEFT JOIN thievery_leases l ON l.owner = o.id "
        "LEFT JOIN thievery_tables t ON t.id = l.table_id AND NOT t.finished "
        "WHERE o.expires_at > 0 GROUP BY o.id"  # (running: not stopped, however late its beat)
    )
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            return sorted((int(n) for n in conn.execute(text(owned)).scalars()), reverse=True)
    finally:
        engine.dispose()


def unfinished_tables(db: str) -> int:
    """Tables stored and not finished: the live ones (the API lists the newest 200 only)."""
    return count(db, "SELECT count(*) FROM thievery_tables WHERE NOT finished")


LIFTED = {  # flag: value, for the limits a host sets per client address
    "--live-tables": "100000",
    "--tables-per-client": "100000",
    "--tables-per-minute": "1000000",
    "--actions-per-second": "1000000",
    "--reads-per-second": "1000000",
    "--connections-per-client": "100000",
    "--frames-per-second": "1000000",  # each websocket's (scripted seats outpace people)
}


def lifted_limits(cli: Path) -> list[str]:
    """The limit flags this `thievery serve` has, set out of the benchmark's way."""
    help_text = subprocess.run(
        [str(cli), "serve", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    ).stdout
    return [x for flag, value in LIFTED.items() if flag in help_text for x in (flag, value)]


# Games of the benchmarks' own, as plug-in distributions installed for a run (never into
# the venv): facedown is the boardgame.io harness's game, so both servers play the same one.
BENCH_GAMES = {"facedown": Path(__file__).resolve().parent / "facedown"}


def server_python(python: str) -> str:
    """The server's interpreter: its version and path (builds of one version differ in
    speed: a distribution's profile-guided, link-time optimised build runs this server's
    Python code faster than pyenv's default build)."""
    out = subprocess.run(
        [python, "-c", "import platform; print(platform.python_version())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return f"{out.stdout.strip()} ({python})"


def start_server(
    db: str,
    port: int,
    bot_delay: float,
    log: Path,
    extra: list[str] | None = None,
    profile: str = "",
    env: dict[str, str] | None = None,
    python: str = sys.executable,
) -> subprocess.Popen[bytes]:
    """`thievery serve` in a child process (with the host's limits lifted: every client
    of the benchmark comes from one address); returns once it answers. With ``profile``,
    under cProfile, its statistics written to that file when the server stops. ``python``:
    the interpreter of the virtual environment whose ``thievery`` runs the server."""
    cli = Path(python).with_name("thievery")
    profiler = [python, "-m", "cProfile", "-o", profile] if profile else []
    command = [
        *profiler,
        str(cli),
        "serve",
        "--host",
        HOST,
        "--port",
        str(port),
        "--db",
        db,
        "--bot-delay",
        str(bot_delay),
        *lifted_limits(cli),
        *(extra or []),
    ]
    with log.open("wb") as err:  # the child keeps its own copy of the file
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err, env=env)
    deadline = time.time() + 90
    while time.time() < deadline and proc.poll() is None:
        try:
            if httpx2.get(f"http://{HOST}:{port}/api/games", timeout=2).status_code == 200:
                return proc
        except httpx2.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the server did not start:\n{log.read_text(errors='replace')[-2000:]}")


class Stats:
    """What the scripted players saw."""

    def __init__(self) -> None:
        self.latencies: list[float] = []  # of actions sent after measure_from
        self.measure_from = float("inf")
        self.stale = 0
        self.errors: dict[str, int] = {}
        self.frames = 0
        self.acks: list[float] = []  # when each scripted action was acknowledged
        self.tables_made = 0
        self.ready = 0  # seats connected and waiting for the go (see player)


def pause(think: float, rng: random.Random) -> float:
    """A scripted player's pause before it acts: exponential of mean ``think`` (0: none)."""
    return rng.expovariate(1 / think) if think > 0 else 0.0


class Seat(asyncio.Protocol):
    """One scripted seat on its own connection, as lean as a client can be (a Sans-I/O
    websocket on an asyncio protocol, orjson): the load generator shares the machine's two
    cores with the server, so what it costs per frame is taken from the server's share.
    After each update it waits ``think`` seconds and acts at random; with ``leave_at_end``
    it leaves once the game is over; with ``go``, once welcomed it waits for it before
    playing (counted in ``stats.ready``)."""

    def __init__(
        self,
        url: str,
        token: str,
        think: float,
        stats: Stats,
        rng: random.Random,
        leave_at_end: bool,
        go: asyncio.Event | None,
    ) -> None:
        self.loop = asyncio.get_running_loop()
        self.ws = ClientProtocol(parse_uri(url), max_size=2**22)
        self.token = token
        self.think = think
        self.stats = stats
        self.rng = rng
        self.leave_at_end = leave_at_end
        self.go = go
        self.held: list[bytes | str] | None = [] if go is not None else None
        self.done: asyncio.Future[None] = self.loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.latest: dict[str, Any] = {}
        self.updated_at = 0.0
        self.pending: tuple[int, float] | None = None
        self.ref = 0
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # (uvloop's is not a subclass)
        self.ws.send_request(self.ws.connect())
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        self._finish()

    def data_received(self, data: bytes) -> None:
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if self.ws.handshake_exc is not None:
                    self._finish()
                    return
                self.ws.send_text(orjson.dumps({"type": "join", "token": self.token}))
            elif event.opcode is Opcode.TEXT:
                if self.held is None:
                    self.frame(event.data)
                else:  # welcomed: wait for the go
                    if not self.held:
                        self.stats.ready += 1
                        assert self.go is not None
                        waiting = asyncio.ensure_future(self.go.wait())
                        waiting.add_done_callback(lambda _: self._release())
                    self.held.append(event.data)
        self._flush()

    def _release(self) -> None:
        held, self.held = self.held or [], None
        for data in held:
            self.frame(data)
        self._flush()

    def _flush(self) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        for data in self.ws.data_to_send():
            if data:
                self.transport.write(data)
        if self.ws.close_expected():
            self.transport.close()

    def _finish(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if not self.done.done():
            self.done.set_result(None)

    def close(self) -> None:
        self._finish()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def _plan(self) -> None:
        """Act after a pause (none: now)."""
        if self.think <= 0:
            self.act()
        else:
            if self.timer is not None:
                self.timer.cancel()
            self.timer = self.loop.call_later(pause(self.think, self.rng), self._act_later)

    def _act_later(self) -> None:
        self.timer = None
        self.act()
        self._flush()

    def act(self) -> None:
        if self.pending is not None or self.done.done() or not self.latest.get("legal"):
            return
        self.ref += 1
        action = self.rng.choice(self.latest["legal"])
        self.pending = (self.ref, time.perf_counter())
        act = {"type": "act", "action": action, "version": self.latest["version"], "id": self.ref}
        self.ws.send_text(orjson.dumps(act))

    def frame(self, data: bytes | str) -> None:
        if self.done.done():
            return
        now = time.perf_counter()  # (uvloop's loop.time() is whole milliseconds)
        frame = orjson.loads(data)
        stats = self.stats
        stats.frames += 1
        kind = frame["type"]
        if kind in ("welcome", "update"):
            self.latest = frame
            self.updated_at = now
            if self.leave_at_end and frame["result"] is not None:
                self.close()
                return
            if self.pending is None and frame["legal"] and frame["result"] is None:
                self._plan()
        elif kind == "ack" and self.pending and frame["id"] == self.pending[0]:
            sent = self.pending[1]
            stats.acks.append(now)
            if sent >= stats.measure_from:  # the update came just before the ack
                stats.latencies.append(max(self.updated_at, sent) - sent)
            self.pending = None
            if self.latest.get("legal") and self.latest["result"] is None:
                self._plan()
        elif kind == "error":
            if frame["code"] == "action/stale":
                stats.stale += 1
            else:
                stats.errors[frame["code"]] = stats.errors.get(frame["code"], 0) + 1
            self.pending = None
            if self.latest.get("legal"):
                self._plan()


async def player(
    url: str,
    token: str,
    think: float,
    stop: asyncio.Event,
    stats: Stats,
    rng: random.Random,
    leave_at_end: bool = False,
    go: asyncio.Event | None = None,
) -> None:
    """One scripted seat (see :class:`Seat`) until ``stop``, or until it leaves."""
    await asyncio.sleep(rng.uniform(0, 2 * think))  # people do not all sit down at once
    uri = parse_uri(url)
    loop = asyncio.get_running_loop()
    _, seat = await loop.create_connection(
        lambda: Seat(url, token, think, stats, rng, leave_at_end, go), uri.host, uri.port
    )
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait([seat.done, stopping], return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
        seat.close()


async def slot(
    http: httpx2.AsyncClient,
    url: str,
    body: dict[str, Any],
    think: float,
    stop: asyncio.Event,
    stats: Stats,
    rng: random.Random,
    go: asyncio.Event | None = None,
) -> None:
    """One live table at a time: play it to the end with its scripted seats, then make
    the next (boardgame.io's churn mode). The first table's seats wait for ``go``."""
    while not stop.is_set():
        r = await http.post("/api/tables", json=body)
        if r.status_code >= 400:
            code = f"create/{r.status_code}"
            stats.errors[code] = stats.errors.get(code, 0) + 1
            await asyncio.sleep(0.5)
            continue
        made = r.json()
        stats.tables_made += 1
        ws = f"{url}/api/tables/{made['table']['id']}/ws"
        await asyncio.gather(
            *(
                player(ws, s["token"], think, stop, stats, random.Random(rng.random()), True, go)
                for s in made["seats"]
            )
        )
        go = None


async def warm_up(http: httpx2.AsyncClient, url: str, body: dict[str, Any]) -> None:
    """One table played for a second with every seat a client, before the server's memory
    is first read: what any first table costs (modules imported on first use, the worker
    threads, the database's caches) is not counted per table."""
    made = (await http.post("/api/tables", json=body)).json()
    stop = asyncio.Event()
    ws = f"{url}/api/tables/{made['table']['id']}/ws"
    rng = random.Random(0)
    players = [
        asyncio.create_task(player(ws, s["token"], 0.0, stop, Stats(), rng, True))
        for s in made["seats"]
    ]
    await asyncio.sleep(1.0)
    stop.set()
    await asyncio.gather(*players, return_exceptions=True)


async def run(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    url = f"ws://{HOST}:{base.rsplit(':', 1)[1]}"
    churn = args.workload == "bgio"
    humans = args.players if churn else args.humans
    seats = [{"kind": "human"}] * humans + [{"kind": "bot", "bot": args.bot}] * (
        args.players - humans
    )
    # Der Schattendieb plays a match of several games: one a table (bgio), or one long
    # match (think). The other games take their defaults.
    options = {"games": 1 if churn else 99} if args.game == "schattendieb" else {}
    body = {"game": args.game, "seats": seats, "options": options}
    think = args.think_ms / 1000
    # With several server processes a table belongs to the one its creation request
    # reached: each table is then made over a connection of its own, as its host's browser
    # would make it (one kept-alive connection would give every table to one process).
    # With one, connections are kept alive, as boardgame.io's harness keeps its own.
    fresh = httpx2.Limits(max_keepalive_connections=0)
    async with (
        httpx2.AsyncClient(base_url=base, timeout=30) as http,
        httpx2.AsyncClient(base_url=base, timeout=30, limits=fresh) as apart,
    ):
        maker = apart if args.workers > 1 else http
        await warm_up(http, url, body)
        warm = await asyncio.to_thread(unfinished_tables, args.db)  # (the warm-up's)
        rss_before = server_rss_kb(pid)
        stats = Stats()
        stop = asyncio.Event()
        rng = random.Random(args.seed)
        rss_setup: int | None = None
        if churn:
            go = asyncio.Event()
            players = [
                asyncio.create_task(slot(maker, url, body, think, stop, stats, rng, go))
                for _ in range(args.tables)
            ]
            # Every table made and its seats welcomed, nobody playing yet: memory as
            # boardgame.io's harness reads it (after its setup, before its play).
            seats = args.tables * args.players
            deadline = time.monotonic() + 60
            while stats.ready < seats and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
            rss_setup = server_rss_kb(pid) if stats.ready == seats else None
            go.set()
        else:
            made = []
            for _ in range(args.tables):
                r = await maker.post("/api/tables", json=body)
                r.raise_for_status()
                made.append(r.json())
            players = [
                asyncio.create_task(
                    player(
                        f"{url}/api/tables/{m['table']['id']}/ws",
                        s["token"],
                        think,
                        stop,
                        stats,
                        random.Random(rng.random()),
                    )
                )
                for m in made
                for s in m["seats"]
            ]
        # Warm up: everyone connected, and the first wave (every table starting at once) over.
        await asyncio.sleep(args.warmup + 3 * think)
        rss_live = server_rss_kb(pid)
        stats.measure_from = time.perf_counter()
        start_actions = 0 if churn else await asyncio.to_thread(stored_actions, args.db)
        acks_before = len(stats.acks)
        made_before = stats.tables_made
        t0 = time.perf_counter()
        cpu0 = server_cpu(pid)
        own0 = time.process_time()
        await asyncio.sleep(args.seconds)
        elapsed = time.perf_counter() - t0
        cpu = server_cpu(pid) - cpu0
        own = time.process_time() - own0
        acks = len(stats.acks) - acks_before
        end_actions = acks if churn else await asyncio.to_thread(stored_actions, args.db)
        live = await asyncio.to_thread(unfinished_tables, args.db) - warm
        spread = await asyncio.to_thread(tables_by_process, args.db)
        rss_after = server_rss_kb(pid)
        latencies = sorted(stats.latencies)
        stop.set()
        await asyncio.gather(*players, return_exceptions=True)

    def pct(p: float) -> float:
        if not latencies:
            return float("nan")
        return round(1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))], 2)

    actions = end_actions - start_actions
    return {
        "bench": "server_load",
        "workload": args.workload,
        "game": args.game,
        "database": "postgresql" if args.db.startswith("postgresql") else "sqlite",
        "workers": args.workers,
        "tables": args.tables,
        "live_tables": live,
        "live_tables_by_process": spread,
        "tables_finished_and_replaced": stats.tables_made - made_before if churn else None,
        "seats": f"{humans} scripted + {args.players - humans} {args.bot} bots",
        "seconds": round(elapsed, 2),
        "think_ms": args.think_ms,
        "bot_delay": args.bot_delay,
        "bot_processes": args.bot_processes,  # (None: the server's default)
        "actions_per_s": round(actions / elapsed, 1),
        "scripted_actions_per_s": round(acks / elapsed, 1),
        "p50_ms": pct(0.50),
        "p99_ms": pct(0.99),
        "max_ms": round(1000 * latencies[-1], 2) if latencies else None,
        "stale": stats.stale,
        "errors": stats.errors,
        "server_cpu_percent": round(100 * cpu / elapsed, 1),
        "server_cpu_ms_per_action": round(1000 * cpu / max(1, actions), 3),
        "clients_cpu_percent": round(100 * own / elapsed, 1),
        "load_average": round(os.getloadavg()[0], 2),
        "memory_per_table_kb": round((rss_live - rss_before) / args.tables, 1),
        "memory_per_table_kb_at_end": round((rss_after - rss_before) / args.tables, 1),
        "memory_per_table_kb_setup": (
            None if rss_setup is None else round((rss_setup - rss_before) / args.tables, 1)
        ),
        "server_rss_mb": round(rss_after / 1024, 1),
        "python": platform.python_version(),
        "server_python": server_python(args.server_python),
        "cpus": os.cpu_count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--humans", type=int, default=1, help="scripted websocket seats")
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=1000.0,
        help="mean pause of a scripted player before it acts",
    )
    parser.add_argument("--bot-delay", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument(
        "--workload",
        choices=("think", "bgio"),
        default="think",
        help="think: scripted seats with think time beside server bots, tables kept; bgio: "
        "every seat scripted, acting at once, finished tables replaced",
    )
    parser.add_argument(
        "--game",
        default="schattendieb",
        help="the game (--workload bgio; think plays Der Schattendieb): any installed one, or "
        "facedown, boardgame.io's harness game, installed for the run from bench/facedown",
    )
    parser.add_argument("--db", default="", help="database URL (default: a fresh SQLite file)")
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes (more than 1: PostgreSQL)"
    )
    parser.add_argument(
        "--bot-processes",
        type=int,
        default=None,
        help="the server's --bot-processes (default: its own, the cores it leaves; 0: bots "
        "think in the server's threads)",
    )
    parser.add_argument(
        "--server-python",
        default=sys.executable,
        help="the server's interpreter: a virtual environment's python with thievery installed "
        "(default: this one's; the load generator stays on this one)",
    )
    parser.add_argument(
        "--profile",
        default="",
        help="run the server under cProfile and write its statistics to this file",
    )
    args = parser.parse_args()
    if args.workers > 1 and not args.db.startswith("postgresql"):
        parser.error("--workers 2 needs --db postgresql+psycopg://...")
    if args.workload == "bgio" and "--think-ms" not in sys.argv:
        args.think_ms = 0.0
    if args.workload == "think" and args.game != "schattendieb":
        parser.error("--workload think plays Der Schattendieb; --game is for --workload bgio")
    with tempfile.TemporaryDirectory(prefix="thievery-bench-") as tmp:
        port = free_port()
        args.db = args.db or f"sqlite:///{tmp}/bench.db"
        extra = ["--workers", str(args.workers)] if args.workers > 1 else []
        if args.bot_processes is not None:
            extra += ["--bot-processes", str(args.bot_processes)]
        env = None
        if args.game in BENCH_GAMES:
            try:
                site = install_plugin(BENCH_GAMES[args.game], Path(tmp) / "site")
            except subprocess.CalledProcessError as e:
                raise SystemExit(f"could not install {args.game}:\n{e.stderr[-2000:]}") from e
            env = {
                **os.environ,
                "PYTHONPATH": os.pathsep.join(
                    p for p in (str(site), os.environ.get("PYTHONPATH")) if p
                ),
            }
        proc = start_server(
            args.db,
            port,
            args.bot_delay,
            Path(tmp) / "server.log",
            extra,
            args.profile,
            env,
            args.server_python,
        )
        try:
            deadline = time.time() + 60
            while args.workers > 1 and running_processes(args.db) < args.workers:
                if time.time() > deadline:  # every worker up before any table is made
                    raise SystemExit("the server's workers did not all start")
                time.sleep(0.2)
            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                result = runner.run(
                    asyncio.wait_for(
                        run(args, f"http://{HOST}:{port}", proc.pid),
                        timeout=args.seconds + args.warmup + 180,
                    )
                )
        finally:
            # uvicorn raises the signal again once stopped: SIGINT lets cProfile write its file
            proc.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
            try:
                proc.wait(60 if args.profile else 15)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
