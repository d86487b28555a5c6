"""A real server for the tests that need real sockets: uvicorn (configured as
``thievery serve`` configures it) in a thread, on 127.0.0.1 and an OS-assigned port; or
`thievery serve` itself in a child process."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2

from thievery.server.limits import Caps
from thievery.server.run import ThieveryServer, bind, server_config


@contextmanager
def serving(app: Any, caps: Caps | None = None) -> Iterator[int]:
    """Serve ``app`` until the block ends; yields the port."""
    with serving_server(app, caps) as (port, _):
        yield port


@contextmanager
def serving_server(
    app: Any, caps: Caps | None = None, handoff: Path | None = None
) -> Iterator[tuple[int, ThieveryServer]]:
    """Serve ``app`` until the block ends (``handoff``: the folder it shares with sibling
    servers, as ``--workers`` gives it); yields the port and the server."""
    listener = bind("127.0.0.1", 0)
    port: int = listener.getsockname()[1]
    server = ThieveryServer(server_config(app, listener, caps=caps), handoff)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield port, server
    finally:
        server.should_exit = True
        thread.join(15)
        listener.close()


def serve_process(
    db: str, *extra: str, seconds: float = 30.0
) -> tuple[subprocess.Popen[bytes], int]:
    """`thievery serve` in a child process on 127.0.0.1 and a port the OS picks (read from
    the URL it prints), bots moving at once; returns once it answers, and its port."""
    cli = Path(sys.executable).with_name("thievery")
    command = [str(cli), "serve", "--host", "127.0.0.1", "--port", "0", "--db", db]
    proc = subprocess.Popen(
        [*command, "--bot-delay", "0", *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    assert proc.stdout is not None
    first = proc.stdout.readline().decode()  # "Thievery is at http://127.0.0.1:PORT/ …"
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
    if found is None:
        proc.kill()
        rest = proc.stdout.read().decode()
        raise AssertionError(f"the server did not start: {first}{rest}")
    port = int(found.group(1))
    # Keep the pipe drained; its lines are kept for a failing test to show (server_log).
    logs[proc.pid] = []
    drains[proc.pid] = drain = threading.Thread(
        target=_drain, args=(proc.stdout, logs[proc.pid]), daemon=True
    )
    drain.start()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server stopped (exit code {proc.returncode})")
        try:
            if httpx2.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc, port
        except httpx2.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not start")


@contextmanager
def server_process(url: str) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """`thievery serve` on ``url`` as one of several processes, stopped (SIGTERM) after."""
    proc, port = serve_process(url, "--lease-seconds", "1.5")
    try:
        yield proc, port
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


logs: dict[int, list[str]] = {}  # a `serve_process` child's output, by pid
drains: dict[int, threading.Thread] = {}  # the thread reading it, by pid


def _drain(stream: Any, lines: list[str]) -> None:
    for line in stream:
        lines.append(line.decode(errors="replace"))


def whole_output(proc: subprocess.Popen[bytes], seconds: float = 15) -> str:
    """Everything a `serve_process` child and the processes it started printed, once the
    last of them closed the pipe (a resource tracker outlives its server a moment)."""
    drains[proc.pid].join(seconds)
    assert not drains[proc.pid].is_alive(), "the server's output never ended"
    return "".join(logs[proc.pid])


def server_log(proc: subprocess.Popen[bytes]) -> str:
    """What a `serve_process` child has printed (its last 100 lines)."""
    return "".join(logs.get(proc.pid, [])[-100:])


def listening_sockets(port: int) -> int:
    """How many sockets listen on ``port`` (Linux: ``/proc/net/tcp`` and ``tcp6``; each
    of ``--workers``' own sockets is one, a socket shared by every worker is one)."""
    count = 0
    for name in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/net/{name}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, state = fields[1], fields[3]
            count += local.rsplit(":", 1)[1] == f"{port:04X}" and state == "0A"  # LISTEN
    return count
