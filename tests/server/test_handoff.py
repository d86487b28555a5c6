"""Worker processes hand a table's websocket to the one that owns the table
(thievery.server.handoff): the mechanism on its own, then two servers on one PostgreSQL
database sharing a hand-over folder, as ``thievery serve --workers 2`` runs them."""

from __future__ import annotations

import array
import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from sqlalchemy import text

import thievery
from thievery.server import create_app
from thievery.server import wire as wire_module
from thievery.server.handoff import (
    HANDED_HEADER,
    MAX_REQUEST,
    Handed,
    Handoff,
    prune,
)
from thievery.server.run import ThieveryServer
from thievery.server.storage import Storage

from .conftest import LIFTED, fresh_postgres
from .serving import listening_sockets, serve_process, server_log, serving_server
from .test_cluster import (
    LEASE,
    Client,
    make_table,
    play_to_the_end,
    record_of,
    scalar,
    wait_over,
)

REQUEST = b"GET /api/tables/abc/ws HTTP/1.1\r\nHost: example\r\nUpgrade: websocket\r\n\r\n"


@pytest.fixture
def folder() -> Iterator[Path]:
    # (a short path: a Unix socket's path is at most ~100 bytes, and tmp_path's is long)
    with tempfile.TemporaryDirectory(prefix="thv-") as name:
        yield Path(name)


@contextmanager
def connection() -> Iterator[tuple[socket.socket, socket.socket]]:
    """A TCP connection on loopback: its client's end and the end a server accepted
    (both closed at the end, whoever else holds the accepted one's file by then)."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        accepted, _ = listener.accept()
        with client, accepted:
            yield client, accepted


@contextmanager
def started(*ends: Handoff) -> Iterator[None]:
    """The processes' ends listening until the block ends (an end closed in it already
    closes again without error)."""
    with ExitStack() as stack:
        for end in ends:
            end.start()
            stack.callback(end.close)
        yield


def test_a_connection_handed_over_is_the_same_connection(folder: Path) -> None:
    async def main() -> None:
        got: asyncio.Queue[tuple[socket.socket, bytes]] = asyncio.Queue()
        a = Handoff(folder, "a", lambda sock, data: pytest.fail("nothing is handed to a"))
        b = Handoff(folder, "b", lambda sock, data: got.put_nowait((sock, data)))
        with started(a, b), connection() as (client, accepted):
            # (each bound under another name first, then renamed: see prune)
            assert sorted(p.name for p in folder.iterdir()) == ["a.sock", "b.sock"]
            assert a.can_reach("b") and not a.can_reach("a") and not a.can_reach("c")
            assert a.send("b", accepted.fileno(), REQUEST) is Handed.SENT
            accepted.close()  # the sender's end goes; the connection stays, at b
            sock, data = await asyncio.wait_for(got.get(), 5)
            # The request, marked as handed over (after its first line), nothing else.
            first, rest = REQUEST.split(b"\r\n", 1)
            assert data == first + b"\r\n" + HANDED_HEADER + b": 1\r\n" + rest
            assert sock.getpeername() == client.getsockname()
            sock.sendall(b"from b")
            assert client.recv(100) == b"from b"
            client.sendall(b"to b")
            assert sock.recv(100) == b"to b"
            sock.close()
            assert (a.sent, a.received, b.sent, b.received) == (1, 0, 0, 1)

    asyncio.run(main())


def test_a_connection_that_cannot_be_handed_over_stays(folder: Path) -> None:
    async def main() -> None:
        a = Handoff(folder, "a", lambda sock, data: None)
        b = Handoff(folder, "b", lambda sock, data: pytest.fail("b took nothing"))
        with started(a, b), connection() as (client, accepted):
            fd = accepted.fileno()
            assert a.send("c", fd, REQUEST) is Handed.FAILED  # no such process
            assert a.send("b", fd, b"x" * (MAX_REQUEST + 1)) is Handed.FAILED  # too long a request
            assert a.send("b", fd, b"no line end") is Handed.FAILED
            b.close()  # gone: its socket with it
            assert not a.can_reach("b") and a.send("b", fd, REQUEST) is Handed.FAILED
            # A process killed leaves its socket file, with nobody reading it.
            stale = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            stale.bind(str(folder / "d.sock"))
            stale.close()
            assert a.can_reach("d") and a.send("d", fd, REQUEST) is Handed.FAILED
            assert a.sent == 0 and a.busy == 0
            # The connection is untouched, and still this process's.
            accepted.sendall(b"still here")
            assert client.recv(100) == b"still here"

    asyncio.run(main())


def test_a_full_queue_is_busy_not_failed_and_takes_more_once_read(folder: Path) -> None:
    """A sibling's queue holds few connections (net.unix.max_dgram_qlen): past them it is
    busy for now, not gone; once its loop has read the queue it takes the next."""

    async def main() -> None:
        taken: list[socket.socket] = []
        a = Handoff(folder, "a", lambda sock, data: None)
        b = Handoff(folder, "b", lambda sock, data: taken.append(sock))
        with started(a, b), connection() as (_, accepted):
            fd = accepted.fileno()
            results: list[Handed] = []
            while len(results) < 1000 and Handed.BUSY not in results:  # (b's loop waits)
                results.append(a.send("b", fd, REQUEST))
            assert results[-1] is Handed.BUSY and set(results[:-1]) == {Handed.SENT}
            assert a.busy == 1 and a.sent == len(results) - 1
            await asyncio.sleep(0.1)  # b's reader runs
            assert len(taken) == b.received == len(results) - 1
            assert a.send("b", fd, REQUEST) is Handed.SENT
        for sock in taken:  # (the last one too, which b took as it closed)
            sock.close()

    asyncio.run(main())


def test_connections_queued_to_a_process_that_stops_are_taken(folder: Path) -> None:
    """Closing its socket would drop them (their sender has let them go): they are taken
    first, to be closed properly."""

    async def main() -> None:
        taken: list[socket.socket] = []
        a = Handoff(folder, "a", lambda sock, data: None)
        b = Handoff(folder, "b", lambda sock, data: taken.append(sock))
        with started(a, b), ExitStack() as stack:
            clients = []
            for _ in range(3):
                client, accepted = stack.enter_context(connection())
                clients.append(client)
                assert a.send("b", accepted.fileno(), REQUEST) is Handed.SENT
                accepted.close()
            b.close()  # before its reader has run
            for sock in taken:
                stack.callback(sock.close)
            assert len(taken) == 3 and b.received == 3
            peers = {sock.getpeername() for sock in taken}
            assert peers == {client.getsockname() for client in clients}

    asyncio.run(main())


def test_sockets_nobody_reads_are_pruned(folder: Path) -> None:
    """What a killed process left is removed; a live process's socket stays (its reader
    drops the probe), as does one whose queue is full, and other files."""

    async def main() -> None:
        taken: list[socket.socket] = []
        live = Handoff(folder, "live", lambda sock, data: taken.append(sock))
        full = Handoff(folder, "full", lambda sock, data: taken.append(sock))
        with started(live, full), socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as out:
            stale = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            stale.bind(str(folder / "dead.sock"))
            stale.close()  # (as a process killed leaves it)
            (folder / "notes.sock").write_text("not a socket")  # (refuses any datagram)
            out.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                for _ in range(1000):  # (full's loop is not running meanwhile)
                    out.sendto(b"x", str(full.path))
            assert prune(folder) == [folder / "dead.sock"]
            names = sorted(p.name for p in folder.iterdir())
            assert names == ["full.sock", "live.sock", "notes.sock"]
            await asyncio.sleep(0.1)  # the probes are read, and dropped
            assert taken == [] and live.received == full.received == 0
            with connection() as (_, accepted):  # both still take connections
                assert live.send("full", accepted.fileno(), REQUEST) is Handed.SENT
                assert full.send("live", accepted.fileno(), REQUEST) is Handed.SENT
                await asyncio.sleep(0.1)
            for sock in taken:
                sock.close()
            assert live.received == full.received == 1
            assert prune(folder) == []

    asyncio.run(main())


def workers_of(parent: int) -> list[int]:
    """The worker processes `thievery serve --workers N` (pid ``parent``) runs."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
            if int(fields[1]) == parent and b"spawn_main" in cmdline:
                found.append(int(stat.parent.name))
    return found


def test_a_killed_workers_socket_is_cleared_when_it_is_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = fresh_postgres()
    with tempfile.TemporaryDirectory(prefix="thv-") as tmp:
        monkeypatch.setenv("TMPDIR", tmp)  # (where the parent makes the workers' folder)
        lifted = ("--tables-per-minute", "100000", "--tables-per-client", "1000")
        proc, port = serve_process(url, "--workers", "2", "--lease-seconds", LEASE, *lifted)
        try:

            def sockets_once(done: Callable[[set[str]], bool]) -> set[str]:
                """The workers' sockets, once ``done`` holds for them (or after 30 s)."""
                deadline = time.monotonic() + 30
                while True:
                    names = {p.name for p in Path(tmp).glob("thievery-workers-*/*.sock")}
                    if done(names) or time.monotonic() > deadline:
                        return names
                    time.sleep(0.05)

            before = sockets_once(lambda names: len(names) == 2)
            assert len(before) == 2 and len(workers_of(proc.pid)) == 2
            os.kill(workers_of(proc.pid)[0], signal.SIGKILL)
            # Its listening socket is closed at once (what comes goes to the live worker,
            # not to a queue nobody reads until the new one starts, a second or more later).
            deadline = time.monotonic() + 10
            while listening_sockets(port) != 1:
                assert time.monotonic() < deadline, "the dead worker's socket still listens"
                time.sleep(0.02)
            # Replaced: a new worker's socket, the dead one's cleared (not left beside it).
            sockets_once(lambda names: len(names) == 2 and names != before)
            time.sleep(0.5)  # (nothing else comes)
            after = sockets_once(lambda names: True)
            assert len(after) == 2 and len(after & before) == 1
            # The new worker listens on a socket of its own, and takes its share of tables.
            deadline = time.monotonic() + 30
            while listening_sockets(port) != 2:
                assert time.monotonic() < deadline, "the new worker does not listen"
                time.sleep(0.05)
            tables = [make_table(port)[0] for _ in range(20)]
            owners = Storage(url)
            with owners.engine.connect() as conn:
                held = conn.execute(
                    text("SELECT owner FROM thievery_leases WHERE table_id = ANY(:t)"),
                    {"t": tables},
                ).scalars()
                assert len(set(held)) == 2  # (all 20 at one worker: a chance of 1 in 500,000)
            owners.close()
            table, tokens = make_table(port)
            play_to_the_end(port, table, tokens)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(20)


def running(pid: int) -> bool:
    """Whether a process runs (an exited orphan may stay a zombie until it is reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


HELD = "SELECT count(*) FROM thievery_leases WHERE owner IS NOT NULL"


@contextmanager
def two_workers_with_a_table(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[str, Path, subprocess.Popen[bytes], int, list[int]]]:
    """``thievery serve --workers 2`` on a fresh database, its workers started and a table
    made (a worker holds its lease): (url, the folder the parent makes the workers' folder
    in, the parent, its port, the workers' pids). Whatever is left running is killed at
    the end."""
    url = fresh_postgres()
    with tempfile.TemporaryDirectory(prefix="thv-") as tmp:
        monkeypatch.setenv("TMPDIR", tmp)  # (where the parent makes the workers' folder)
        proc, port = serve_process(url, "--workers", "2", "--lease-seconds", LEASE)
        workers: list[int] = []
        try:
            deadline = time.monotonic() + 30
            while len(list(Path(tmp).glob("thievery-workers-*/*.sock"))) < 2:
                assert time.monotonic() < deadline, "the workers did not start"
                time.sleep(0.05)
            workers = workers_of(proc.pid)
            assert len(workers) == 2
            make_table(port)
            assert scalar(url, HELD) == 1  # (a worker holds the table's lease)
            yield url, Path(tmp), proc, port, workers
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
            for pid in workers:  # (only if still a worker: a pid may be reused)
                with contextlib.suppress(OSError):
                    if running(pid) and b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                        os.kill(pid, signal.SIGKILL)


def test_workers_stop_when_their_parent_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A parent killed with SIGKILL cannot stop its workers: they see it is gone and stop
    as on SIGTERM (their tables' leases handed back), the last one takes the hand-over
    folder with it, and nothing holds the port any more (no orphans serving on)."""
    with two_workers_with_a_table(monkeypatch) as (url, tmp, proc, port, workers):
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        deadline = time.monotonic() + 20
        while any(running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(running(pid) for pid in workers), server_log(proc)
        assert list(tmp.iterdir()) == []  # the folder went with the last one
        with socket.socket() as again:  # nothing listens on the port
            again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            again.bind(("127.0.0.1", port))
        assert scalar(url, HELD) == 0  # stopped gracefully: leases handed back


def test_workers_stop_gracefully_on_a_sigint_to_their_parent_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``kill -INT`` of the parent only (not Ctrl+C, which reaches every process in the
    terminal's group): the parent SIGTERMs its workers, which hand their leases back. (It
    waited 15 s for them, then killed them: their leases stayed until they expired.)"""
    with two_workers_with_a_table(monkeypatch) as (url, tmp, proc, _, workers):
        os.kill(proc.pid, signal.SIGINT)
        proc.wait(10)
        assert not any(running(pid) for pid in workers), server_log(proc)
        assert scalar(url, HELD) == 0, server_log(proc)  # handed back, not left
        assert list(tmp.iterdir()) == []


def send(out: socket.socket, path: Path, fds: list[int]) -> None:
    rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
    out.sendmsg([REQUEST], rights, 0, str(path))


def test_what_is_not_a_connection_is_not_taken(folder: Path) -> None:
    """A datagram without a file, or with a file that is not a TCP connection, is
    dropped (and the file closed)."""

    async def main() -> None:
        taken: list[socket.socket] = []
        b = Handoff(folder, "b", lambda sock, data: taken.append(sock))
        out = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        with started(b), out, udp:
            send(out, b.path, [])
            with open(folder / "file", "wb") as f:
                send(out, b.path, [f.fileno()])
            send(out, b.path, [udp.fileno()])
            await asyncio.sleep(0.2)
            assert taken == [] and b.received == 0

    asyncio.run(main())


@pytest.fixture
def pair(folder: Path) -> Iterator[list[tuple[int, Any, Any]]]:
    """Two servers on one PostgreSQL database, sharing a hand-over folder: (port, server,
    hub) each."""
    url = fresh_postgres()
    apps = [create_app(url, bot_delay=0, caps=LIFTED) for _ in range(2)]
    with (
        serving_server(apps[0], LIFTED, folder) as (a, sa),
        serving_server(apps[1], LIFTED, folder) as (b, sb),
    ):
        yield [(a, sa, apps[0].state.hub), (b, sb, apps[1].state.hub)]


def test_seats_that_reach_another_process_are_served_by_the_owner(
    pair: list[tuple[int, Any, Any]],
) -> None:
    (a, server_a, hub_a), (b, server_b, hub_b) = pair
    # A handed-over request is parsed whole at once (a browser's is often longer than the
    # 512 bytes parsed a turn; in pieces, its pause of reading would come before uvloop
    # began reading, and do nothing).
    pieces = 0
    wire = server_a.config.ws_protocol_class
    parse_next = wire._next

    def counted(self: Any) -> None:
        nonlocal pieces
        pieces += 1
        parse_next(self)

    wire._next = counted
    table, tokens = make_table(a)  # A owns it
    watcher = Client(b, table, headers={"X-Padding": "x" * 1000})
    players = [Client(b, table, t) for t in tokens]  # every seat comes through B
    for client in [watcher, *players]:
        client.start()
    wait_over([watcher, *players])
    # B handed all three connections to A and never loaded the table (no follower copy);
    # A served them.
    assert server_b.handoff.sent == 3 and server_a.handoff.received == 3
    assert server_a.handoff.sent == 0 and server_b.handoff.received == 0
    assert table not in hub_b.tables and hub_a.tables[table].is_owner
    assert pieces == 0
    record = record_of(a, table)
    for seat, player in enumerate(players):
        assert player.acked and [x for s, x in record.actions if s == seat] == player.acked
    assert thievery.replay(record).result() == players[0].latest["result"]
    assert watcher.latest["result"] == players[0].latest["result"] is not None
    versions = [f["version"] for f in watcher.updates]
    assert versions == list(range(versions[0], versions[0] + len(versions)))
    hands = [p.latest["view"] for p in players]
    assert hands[0] != hands[1]  # each seat its own view


@contextmanager
def held_and_full(server: ThieveryServer) -> Iterator[threading.Event]:
    """The server's loop busy (as with a burst of work) and its hand-over queue full until
    the event yielded is set (at the latest when the block ends)."""
    blocked, release = threading.Event(), threading.Event()

    def hold() -> None:
        blocked.set()
        release.wait(20)

    assert server.handoff is not None and server.handoff._loop is not None
    server.handoff._loop.call_soon_threadsafe(hold)
    assert blocked.wait(10)  # (its reader runs no more: the queue stays as filled)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as junk:
        junk.setblocking(False)
        with pytest.raises(BlockingIOError):  # full
            for _ in range(1000):
                junk.sendto(b"not a connection", str(server.handoff.path))
        try:
            yield release
        finally:
            release.set()


def test_seats_wait_for_an_owner_whose_queue_is_full(
    pair: list[tuple[int, Any, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every table's seats arriving at once fill the owner's queue: a connection that finds
    it full waits a little and is handed over then, not served by a follower copy."""
    (a, server_a, hub_a), (b, server_b, hub_b) = pair
    # (what is tested is the waiting, not its length: ample for a loaded machine)
    monkeypatch.setattr(wire_module, "BUSY_PAUSES", (0.05,) * 100)
    table, tokens = make_table(a)  # A owns it
    with held_and_full(server_a) as release, ThreadPoolExecutor(1) as pool:
        # Every seat comes through B (a Client connects as it is made).
        connected = pool.submit(lambda: [Client(b, table, t) for t in tokens])
        deadline = time.monotonic() + 10
        while server_b.handoff.busy == 0:  # B found the queue full (and waits)
            assert time.monotonic() < deadline, "B never offered A a connection"
            time.sleep(0.001)
        release.set()  # A reads its queue (dropping what is not a connection)
        players = connected.result()
    for player in players:
        player.start()
    wait_over(players)
    assert server_b.handoff.sent == len(players) == server_a.handoff.received
    assert table not in hub_b.tables and hub_a.tables[table].is_owner
    record = record_of(a, table)
    for seat, player in enumerate(players):
        assert player.acked and [x for s, x in record.actions if s == seat] == player.acked


def test_a_queue_that_stays_full_is_given_up_on(
    pair: list[tuple[int, Any, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past its pauses a connection is served where it came (by a follower copy); the next
    one, once the owner reads again, is handed over; the game is played by both."""
    (a, server_a, hub_a), (b, server_b, hub_b) = pair
    monkeypatch.setattr(wire_module, "BUSY_PAUSES", (0.01, 0.01))
    table, tokens = make_table(a)  # A owns it
    # A spectator at A: the table stays there (one nobody at its owner uses would move).
    watcher = Client(a, table)
    with held_and_full(server_a):
        first = Client(b, table, tokens[0])  # (connected: served by B, A still held)
    assert server_b.handoff.busy == 3 and server_b.handoff.sent == 0
    deadline = time.monotonic() + 10
    while table not in hub_b.tables:  # a follower copy, for its seat
        assert time.monotonic() < deadline, "B did not serve the seat"
        time.sleep(0.01)
    assert not hub_b.tables[table].is_owner
    # (A reads its queue again once its thread runs: ample pauses for a loaded machine)
    monkeypatch.setattr(wire_module, "BUSY_PAUSES", (0.05,) * 100)
    players = [first, *(Client(b, table, t) for t in tokens[1:])]
    # A answered them, so B's datagrams were taken; B counts each once its send returns,
    # which may come after (both servers are threads of this process: A's and this one
    # may run first).
    deadline = time.monotonic() + 10
    while server_b.handoff.sent < len(tokens) - 1:
        assert time.monotonic() < deadline, "B did not count the seats it handed to A"
        time.sleep(0.01)
    assert server_b.handoff.sent == len(tokens) - 1 == server_a.handoff.received
    for client in [watcher, *players]:
        client.start()
    wait_over([watcher, *players])
    record = record_of(a, table)
    for seat, player in enumerate(players):
        assert player.acked and [x for s, x in record.actions if s == seat] == player.acked
    assert hub_a.tables[table].is_owner


def test_where_the_owner_takes_nothing_the_connection_is_served_where_it_came(
    pair: list[tuple[int, Any, Any]],
) -> None:
    (a, server_a, _), (b, server_b, hub_b) = pair
    server_a.handoff.close()  # A takes no connection (as if stopping)
    table, tokens = make_table(a)
    players = [Client(b, table, t) for t in tokens]
    for player in players:
        player.start()
    wait_over(players)
    assert server_b.handoff.sent == 0 and server_a.handoff.received == 0
    assert table in hub_b.tables  # B served them: a copy following A, or the table itself
    record = record_of(a, table)
    for seat, player in enumerate(players):
        assert player.acked and [x for s, x in record.actions if s == seat] == player.acked


def test_a_server_that_cannot_take_hand_overs_serves_as_before(tmp_path: Path) -> None:
    """A folder whose socket path would be too long for a Unix socket (or gone): the
    server starts without hand-overs, and plays."""
    url = fresh_postgres()
    folder = tmp_path / ("x" * 120)
    folder.mkdir()
    app = create_app(url, bot_delay=0, caps=LIFTED)
    with serving_server(app, LIFTED, folder) as (port, server):
        assert server.handoff is None
        table, tokens = make_table(port)
        players = [Client(port, table, t) for t in tokens]
        for player in players:
            player.start()
        wait_over(players)
        assert all(p.acked for p in players)


class Adopted(asyncio.Protocol):
    """Stands in for the websocket protocol a handed-over connection gets."""

    def __init__(self) -> None:
        self.shut = False

    def shutdown(self) -> None:
        self.shut = True


@pytest.mark.parametrize("stopping", [False, True])
def test_a_connection_adopted_while_the_server_stops_is_closed_at_once(stopping: bool) -> None:
    """uvicorn closes the connections it has when it begins to stop; one a sibling handed
    over just then is made after that round, so it is closed (1012) as it is made."""

    async def main() -> None:
        server = ThieveryServer(uvicorn.Config(app=None))
        if not stopping:  # (serving hand-overs)
            server.handoff = Handoff(Path("/nonexistent"), "me", lambda sock, data: None)
        made: list[Adopted] = []

        def protocol() -> Adopted:
            made.append(Adopted())
            return made[-1]

        with connection() as (_, accepted):
            await server._adopted(asyncio.get_running_loop(), protocol, accepted)
            assert len(made) == 1 and made[0].shut is stopping

    asyncio.run(main())


def test_a_socket_that_cannot_be_made_leaves_nothing_open(tmp_path: Path) -> None:
    """A path too long for a Unix socket: start refuses, and its socket is closed (not
    left for the garbage collector to find open)."""

    async def main() -> None:
        handoff = Handoff(tmp_path / ("x" * 120), "me", lambda sock, data: None)
        with pytest.raises(OSError) as raised:
            handoff.start()
        tb = raised.tb
        while tb.tb_next is not None:  # to start's own frame (bind is not Python)
            tb = tb.tb_next
        assert tb.tb_frame.f_code.co_name == "start"
        assert tb.tb_frame.f_locals["sock"].fileno() == -1  # closed
        handoff.close()  # (nothing to close: no error)

    asyncio.run(main())
