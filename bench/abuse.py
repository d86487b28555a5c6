"""Abuse: issue 17's attack set against a live `thievery serve`, with its default limits.

Starts the server on 127.0.0.1 (port 0, a fresh SQLite file that already holds 10,000
unfinished tables and one finished 2,400-action match), joins an unrelated table as a
spectator and pings it every 60 ms throughout. Then runs each attack for ``--seconds`` and
records the worst ping round trip during it (target: under 100 ms) and the server's peak
resident memory (VmHWM) after it. Prints one JSON line; with ``--runs N`` each figure is
the median of N runs (each on a fresh server).

    python bench/abuse.py --runs 3

Attacks (all from one address, as one attacker):

- ``create_flood``: POST /api/tables as fast as one client can;
- ``big_options``: tables whose options are 3 MB of inline JSON;
- ``chunked_body``: a 400 MiB chunked body;
- ``replay_long``: replays of the 2,400-action match, every perspective, two at a time;
- ``replay_upload``: the same match's record uploaded to /api/replay again and again;
- ``stuck_readers``: 25 websockets that send joins and never read;
- ``presence_storm``: spectators joining and leaving one table in a tight loop;
- ``slowloris``: 3,000 sockets sending a request's headers a line a second (12 s at
  least: past the server's 10 s header deadline), a newcomer's request timed each second;
- ``search_bots``: 5 tables of three ``ismcts-strong`` bots (closed afterwards);
- ``locked_db``: another process holds the database's write lock while a table acts.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import queue
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import websockets.sync.client as ws_client

import thievery
from thievery.core.record import GameRecord
from thievery.server.seats import hash_token
from thievery.server.storage import ActionRow, Storage, TableRecord

HOST = "127.0.0.1"
HUMANS = {"game": "schattendieb", "seats": [{"kind": "human"}] * 3}


def peak_kb(pid: int) -> int:
    """Peak resident memory of a process (VmHWM), in kB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def prepare(db: str, tables: int) -> None:
    """A long finished match (id ``longgame``) and ``tables`` unfinished tables."""
    spec = thievery.game("schattendieb")
    state = spec.new(3, 1, {"games": 99})
    rng = random.Random(1)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    record = GameRecord.of(state)
    storage = Storage(db)
    seats = [{"kind": "human", "name": f"P{i}", "bot": None, "token_hash": "x"} for i in range(3)]

    def row(table_id: str, finished: bool) -> TableRecord:
        return TableRecord(
            id=table_id,
            game="schattendieb",
            game_version=spec.version,
            players=3,
            seed=1 if finished else rng.randrange(2**40),
            options=dict(record.options) if finished else {"games": 1},
            seats=seats,
            host_hash=hash_token("host"),
            salt="00" * 16,
            finished=finished,
            result=record.result if finished else None,
            actions=len(record.actions) if finished else 0,
        )

    def write(conn: Any) -> None:
        Storage.insert_table(conn, row("longgame", True))
        for n, (seat, action) in enumerate(record.actions):
            Storage.append_action(conn, "longgame", ActionRow(n, seat, action, time.time(), "bot"))
        for i in range(tables):
            Storage.insert_table(conn, row(f"stored{i}", False))

    storage.run(write)
    storage.close()


def _ping_forever(url: str, out: Any, ready: Any) -> None:
    """The pinger's own process (so the attackers' threads cannot slow its clock)."""
    with ws_client.connect(url, max_size=None) as ws:
        ws.send(json.dumps({"type": "join"}))
        while json.loads(ws.recv(timeout=10))["type"] != "welcome":
            pass
        ready.set()
        n = 0
        while True:
            n += 1
            began = time.perf_counter()
            ws.send(json.dumps({"type": "ping", "id": n}))
            while True:
                frame = json.loads(ws.recv(timeout=60))
                if frame.get("type") == "pong" and frame.get("id") == n:
                    break
            out.put(time.perf_counter() - began)
            time.sleep(0.06)  # ~15 a second: under a connection's frame rate limit (20/s)


class Pinger:
    """A spectator of an unrelated table, pinging every 60 ms from a process of its own;
    the round trips of each window."""

    def __init__(self, url: str) -> None:
        self.queue: Any = multiprocessing.Queue()
        ready = multiprocessing.Event()
        self.process = multiprocessing.Process(
            target=_ping_forever, args=(url, self.queue, ready), daemon=True
        )
        self.process.start()
        if not ready.wait(30):
            raise SystemExit("the pinger could not join its table")

    def take(self) -> list[float]:
        """The round trips since the last call (waiting for one in flight)."""
        out: list[float] = []
        try:
            out.append(self.queue.get(timeout=5))
            while True:
                out.append(self.queue.get_nowait())
        except queue.Empty:
            pass
        return out

    @property
    def alive(self) -> bool:
        return self.process.is_alive()

    def close(self) -> None:
        self.process.terminate()
        self.process.join(10)


def until(seconds: float) -> Iterator[int]:
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        yield i
        i += 1


def in_threads(n: int, work: Callable[[int], None]) -> None:
    threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)


def statuses(codes: list[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for code in codes:
        out[str(code)] = out.get(str(code), 0) + 1
    return dict(sorted(out.items()))


class Attacks:
    """Each attack runs for ``seconds`` and returns what the server answered."""

    def __init__(self, base: str, port: int, db_path: Path, seconds: float) -> None:
        self.base, self.port, self.db_path, self.seconds = base, port, db_path, seconds
        # No kept-alive connections: the server closes idle ones after 5 s.
        self.http = httpx2.Client(
            base_url=base, timeout=60, limits=httpx2.Limits(max_keepalive_connections=0)
        )
        # Tables the attacks need, made before the flood spends this client's tokens.
        self.bot_tables = [self._create_bots() for _ in range(5)]
        self.locked_table = self.http.post("/api/tables", json=HUMANS).json()
        # (seat 0's key: an invite grants nothing but its exchange)
        tid, invite = self.locked_table["table"]["id"], self.locked_table["seats"][0]["token"]
        exchanged = self.http.post(
            f"/api/tables/{tid}/exchange", headers={"Authorization": f"Bearer {invite}"}
        )
        assert exchanged.status_code == 200, exchanged.text
        self.locked_key: str = exchanged.json()["key"]

    def _create_bots(self) -> dict[str, Any]:
        # Human seats for now, handed to search bots when the attack starts.
        made = self.http.post("/api/tables", json={**HUMANS, "options": {"games": 9}})
        assert made.status_code == 201, made.text
        data: dict[str, Any] = made.json()
        return data

    def create_flood(self) -> dict[str, Any]:
        codes = [
            self.http.post("/api/tables", json=HUMANS).status_code for _ in until(self.seconds)
        ]
        return {"answers": statuses(codes)}

    def big_options(self) -> dict[str, Any]:
        body = {**HUMANS, "game": "thieves-den", "options": {"cards": {"pad": "x" * (3 << 20)}}}
        codes = [self.http.post("/api/tables", json=body).status_code for _ in until(self.seconds)]
        return {"answers": statuses(codes)}

    def chunked_body(self) -> dict[str, Any]:
        sent = [0]

        def chunks() -> Iterator[bytes]:
            block = b"x" * (1 << 20)
            for _ in range(400):
                sent[0] += len(block)
                yield block

        try:
            code = self.http.post("/api/replay", content=chunks()).status_code
        except httpx2.HTTPError as e:
            code = -1
            print(f"chunked_body: {type(e).__name__}", file=sys.stderr)
        return {"answer": code, "sent_mb": sent[0] >> 20}

    def replay_long(self) -> dict[str, Any]:
        codes: list[int] = []
        views = ["all", "0", "1", "2", "spectator"]

        def work(i: int) -> None:
            with httpx2.Client(base_url=self.base, timeout=120) as http:
                for n in until(self.seconds):
                    view = views[(n * 2 + i) % len(views)]
                    codes.append(
                        http.get(f"/api/tables/longgame/replay?perspective={view}").status_code
                    )

        in_threads(2, work)
        return {"answers": statuses(codes)}

    def replay_upload(self) -> dict[str, Any]:
        record = self.http.get("/api/tables/longgame/record").content
        codes = [
            self.http.post(
                f"/api/replay?perspective={('all', '0')[n % 2]}",
                content=record,
                headers={"Content-Type": "application/json"},
            ).status_code
            for n in until(self.seconds)
        ]
        return {"record_kb": len(record) >> 10, "answers": statuses(codes)}

    def stuck_readers(self) -> dict[str, Any]:
        tid = self.locked_table["table"]["id"]
        cut = [0]

        def work(i: int) -> None:
            sock = socket.create_connection((HOST, self.port))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            try:
                with ws_client.connect(
                    f"ws://{HOST}:{self.port}/api/tables/{tid}/ws", sock=sock, max_queue=1
                ) as ws:
                    for _ in until(self.seconds):
                        ws.send(json.dumps({"type": "join"}))
            except Exception:
                cut[0] += 1

        in_threads(25, work)
        return {"connections": 25, "cut_off": cut[0]}

    def presence_storm(self) -> dict[str, Any]:
        tid = self.locked_table["table"]["id"]
        joins = [0]

        def work(i: int) -> None:
            for _ in until(self.seconds):
                try:
                    with ws_client.connect(f"ws://{HOST}:{self.port}/api/tables/{tid}/ws") as ws:
                        ws.send(json.dumps({"type": "join"}))
                        ws.recv(timeout=10)
                        joins[0] += 1
                except Exception:
                    time.sleep(0.05)

        in_threads(20, work)
        return {"joins": joins[0]}

    def slowloris(self) -> dict[str, Any]:
        socks: list[socket.socket] = []
        for _ in range(3000):
            try:
                s = socket.create_connection((HOST, self.port), timeout=5)
                s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
                s.setblocking(False)
                socks.append(s)
            except OSError:
                break
        fresh: list[float] = []
        for i in until(max(self.seconds, 12.0)):  # past the header deadline (10 s)
            for s in socks:
                with contextlib.suppress(OSError):
                    s.sendall(f"X-{i}: y\r\n".encode())
            began = time.perf_counter()
            try:  # a new connection each time: can a newcomer still get in?
                with httpx2.Client(base_url=self.base, timeout=30) as http:
                    ok = http.get("/api/games").status_code == 200
            except httpx2.HTTPError:
                ok = False
            fresh.append(time.perf_counter() - began if ok else float("inf"))
            time.sleep(1.0)
        closed = 0
        for s in socks:
            try:
                closed += s.recv(1) == b""
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
            s.close()
        return {
            "sockets": len(socks),
            "closed_by_server": closed,
            "worst_fresh_request_ms": round(1000 * max(fresh), 1) if fresh else None,
            "fresh_requests_failed": sum(1 for f in fresh if f == float("inf")),
        }

    def search_bots(self) -> dict[str, Any]:
        for made in self.bot_tables:
            host = {"Authorization": f"Bearer {made['host_token']}"}
            for seat in range(3):
                url = f"/api/tables/{made['table']['id']}/seats/{seat}/bot"
                r = self.http.post(url, json={"bot": "ismcts-strong"}, headers=host)
                assert r.status_code == 200, r.text
        time.sleep(self.seconds)
        actions = 0
        for made in self.bot_tables:
            tid = made["table"]["id"]
            actions += self.http.get(f"/api/tables/{tid}").json()["actions"]
            host = {"Authorization": f"Bearer {made['host_token']}"}
            self.http.post(f"/api/tables/{tid}/close", headers=host)
        return {"tables": len(self.bot_tables), "bot_actions": actions}

    def locked_db(self) -> dict[str, Any]:
        made = self.locked_table
        tid = made["table"]["id"]
        auth = {"Authorization": f"Bearer {self.locked_key}"}
        state = self.http.get(f"/api/tables/{tid}/state", headers=auth).json()
        conn = sqlite3.connect(self.db_path, timeout=30, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        answer: dict[str, Any] = {}

        def act(i: int) -> None:
            began = time.perf_counter()
            r = self.http.post(
                f"/api/tables/{tid}/actions",
                json={"action": state["legal"][0], "version": state["version"]},
                headers=auth,
            )
            answer.update(code=r.status_code, seconds=round(time.perf_counter() - began, 2))

        thread = threading.Thread(target=act, args=(0,), daemon=True)
        thread.start()
        time.sleep(self.seconds)
        conn.execute("ROLLBACK")
        conn.close()
        thread.join(60)
        return {"held_s": self.seconds, "action": answer}


ORDER = [
    "stuck_readers",
    "create_flood",
    "big_options",
    "chunked_body",
    "replay_long",
    "replay_upload",
    "presence_storm",
    "slowloris",
    "search_bots",
    "locked_db",
]


def run_once(seconds: float, stored: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "abuse.db"
        db = f"sqlite:///{db_path}"
        prepare(db, stored)
        cli = Path(sys.executable).with_name("thievery")
        command = [str(cli), "serve", "--host", HOST, "--port", "0", "--db", db]
        began = time.perf_counter()
        proc = subprocess.Popen(
            [*command, "--bot-delay", "0.2"],
            stdout=subprocess.PIPE,
            stderr=open(os.environ.get("ABUSE_LOG", os.devnull), "wb"),  # noqa: SIM115
            text=True,
        )
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            base = line.split(" is at ", 1)[1].split()[0].rstrip("/")
            port = int(base.rsplit(":", 1)[1])
            while True:
                try:
                    if httpx2.get(f"{base}/api/games", timeout=2).status_code == 200:
                        break
                except httpx2.HTTPError:
                    time.sleep(0.05)
            start_s = time.perf_counter() - began
            start_kb = peak_kb(proc.pid)
            victim = httpx2.post(f"{base}/api/tables", json=HUMANS).json()["table"]["id"]
            pinger = Pinger(f"ws://{HOST}:{port}/api/tables/{victim}/ws")
            attacks = Attacks(base, port, db_path, seconds)
            pinger.take()
            out: dict[str, Any] = {}
            for name in ORDER:
                detail = getattr(attacks, name)()
                time.sleep(0.3)
                rtts = pinger.take()
                out[name] = {
                    "worst_ping_ms": round(1000 * max(rtts), 1) if rtts else None,
                    "pings": len(rtts),
                    "peak_rss_mb": round(peak_kb(proc.pid) / 1024, 1),
                    **detail,
                }
            alive = pinger.alive
            pinger.close()
            return {
                "start_s": round(start_s, 2),
                "start_rss_mb": round(start_kb / 1024, 1),
                "pinger_alive": alive,
                "attacks": out,
            }
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=4.0, help="each attack's length")
    parser.add_argument("--stored", type=int, default=10_000, help="unfinished tables stored")
    parser.add_argument("--only", default="", help="comma-separated attacks (default: all)")
    args = parser.parse_args()
    if args.only:
        chosen = args.only.split(",")
        unknown = set(chosen) - set(ORDER)
        if unknown:
            parser.error(f"unknown attacks {sorted(unknown)}; attacks: {', '.join(ORDER)}")
        ORDER[:] = [name for name in ORDER if name in chosen]
    runs = [run_once(args.seconds, args.stored) for _ in range(args.runs)]
    for i, run in enumerate(runs):
        print(f"run {i}: {json.dumps(run)}", file=sys.stderr)

    def median(values: list[Any]) -> Any:
        present = [v for v in values if v is not None]
        return statistics.median(present) if present else None

    summary = {
        name: {
            "worst_ping_ms": median([r["attacks"][name]["worst_ping_ms"] for r in runs]),
            "peak_rss_mb": median([r["attacks"][name]["peak_rss_mb"] for r in runs]),
        }
        for name in ORDER
    }
    worst = max((v["worst_ping_ms"] or 0) for v in summary.values())
    print(
        json.dumps(
            {
                "runs": args.runs,
                "seconds_per_attack": args.seconds,
                "stored_tables": args.stored,
                "start_s": median([r["start_s"] for r in runs]),
                "target_ping_ms": 100,
                "worst_ping_ms": worst,
                "under_target": worst < 100,
                "peak_rss_mb": max(r["attacks"][ORDER[-1]]["peak_rss_mb"] for r in runs),
                "attacks": summary,
                "details": runs[len(runs) // 2]["attacks"],
            }
        )
    )


if __name__ == "__main__":
    main()
