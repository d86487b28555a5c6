"""``thievery serve --workers N``: N server processes on one port and one PostgreSQL
database.

The parent binds N sockets on the port, starts N worker processes (spawned, each with one
of the sockets and its own app, hub and database connections) and keeps N running: a
worker that dies is started again (its socket closed, the new worker binding its own once
ready). The kernel hands each new connection to one worker, evenly
(:func:`~thievery.server.run.bind_each`); a table is run by the worker that holds its
lease, and a table's websocket that reached another worker is handed to that one
(:mod:`~thievery.server.handoff`), or, where it cannot be, served there by a copy that
follows the owner (:mod:`~thievery.server.cluster`): a client may reach any worker.
SIGINT or SIGTERM (to the parent alone, or to all) stops the workers gracefully (each
hands its leases back); so does the parent's death, however it died (each worker checks
every second that its parent is still there: one killed with SIGKILL cannot tell them,
and orphaned workers would serve on, holding the port, with nobody to start them again
or stop them).
"""

from __future__ import annotations

import contextlib
import gc
import logging
import multiprocessing
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from multiprocessing.connection import wait
from pathlib import Path
from types import FrameType
from typing import Any

from thievery.server.handoff import prune
from thievery.server.limits import Caps
from thievery.server.run import ThieveryServer, Where, own_socket, server_config
from thievery.server.sockets import Limits

log = logging.getLogger("thievery.server")


@dataclass(frozen=True)
class ServeOptions:
    """Everything a server process needs besides its socket."""

    db_url: str
    bot_delay: float = 0.6
    bot_processes: int = 0  # each server process's (thievery.server.botpool)
    files_dir: Path | None = None
    caps: Caps = field(default_factory=Caps)
    limits: Limits = field(default_factory=Limits)  # each websocket's
    public_url: str | None = None
    lease_seconds: float = 6.0
    log_level: str = "warning"
    limit_concurrency: int | None = None
    # Where sibling worker processes hand each other connections (thievery.server.handoff).
    handoff_dir: Path | None = None
    # A worker's parent process (its pid): if it is gone (killed with SIGKILL, which it
    # cannot pass on), the worker stops as on SIGTERM instead of serving on, orphaned.
    parent: int | None = None


def tune_process() -> None:
    """Garbage collection and thread switching for a server process.

    Tables hold many small, long-lived objects that reference counting already frees; a
    full collection over them stalls every table at once. Collect young objects rarely
    and keep what exists at start out of the collector's way. Bots and replays think in
    worker threads; a short switch interval lets the event loop have the GIL back within
    a millisecond, so tables keep answering meanwhile."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    sys.setswitchinterval(0.001)


def make_app(options: ServeOptions) -> Any:
    """The app for ``options`` (:class:`~thievery.server.storage.StorageError` if its
    database cannot be written)."""
    from thievery.server.app import create_app

    return create_app(
        options.db_url,
        bot_delay=options.bot_delay,
        bot_processes=options.bot_processes,
        files_dir=options.files_dir,
        caps=options.caps,
        limits=options.limits,
        public_url=options.public_url,
        lease_seconds=options.lease_seconds,
    )


def serve(options: ServeOptions, listener: Where) -> None:
    """Run one server process on ``listener`` (or a socket it binds where it says, once the
    app is made: see :func:`~thievery.server.run.own_socket`) until it is told to stop."""
    app = make_app(options)
    tune_process()
    run_app(app, options, own_socket(listener))


def run_app(app: Any, options: ServeOptions, listener: socket.socket) -> None:
    """Run ``app`` on uvicorn on ``listener`` until it is told to stop."""
    config = server_config(
        app,
        listener,
        caps=options.caps,
        log_level=options.log_level,
        limit_concurrency=options.limit_concurrency,
    )
    # What is alive now (the libraries, the app) lives as long as the process: kept out of
    # every later garbage collection (see Hub._collect_forever), which then scans only
    # what the tables and connections made (~68k objects fewer, ~10 ms a collection).
    gc.collect()
    gc.freeze()
    server = ThieveryServer(config, options.handoff_dir, options.parent)
    server.run(sockets=[listener])
    if server.orphaned and options.handoff_dir is not None:
        # The last orphan out takes the folder with it, as its parent (killed) cannot:
        # each closed its own socket; the folder goes once it is empty.
        with contextlib.suppress(OSError):
            options.handoff_dir.rmdir()


def run_workers(options: ServeOptions, listeners: list[socket.socket]) -> None:
    """Keep a server process running on each of ``listeners`` (sockets on one port) until
    SIGINT/SIGTERM. They hand each other connections in a folder of their own (its user's
    only)."""
    folder = Path(tempfile.mkdtemp(prefix="thievery-workers-"))
    try:
        _run_workers(replace(options, handoff_dir=folder, parent=os.getpid()), listeners)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _run_workers(options: ServeOptions, listeners: list[socket.socket]) -> None:
    context = multiprocessing.get_context("spawn")
    stopping = False
    # A socket each (see bind_each): a dead worker's is closed (what waited there is
    # refused, not left waiting), and the one started in its place binds its own when ready.
    each = len({id(sock) for sock in listeners}) > 1
    address: tuple[str, int] = listeners[0].getsockname()[:2]
    where: list[Where] = list(listeners)

    def start(i: int) -> multiprocessing.process.BaseProcess:
        process = context.Process(
            target=serve, args=(options, where[i]), name=f"thievery-worker-{i}", daemon=False
        )
        process.start()
        return process

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    previous = signal.signal(signal.SIGTERM, stop)
    processes = [start(i) for i in range(len(listeners))]
    try:
        while not stopping:
            wait([p.sentinel for p in processes], timeout=1.0)
            for i, process in enumerate(processes):
                if not process.is_alive() and not stopping:
                    code = process.exitcode
                    log.error("worker %d stopped (exit code %s); starting it again", i, code)
                    if options.handoff_dir is not None:  # (its hand-over socket, if left)
                        try:
                            prune(options.handoff_dir)
                        except OSError:
                            log.exception("clearing dead workers' sockets failed")
                    if each:
                        listener = where[i]
                        if isinstance(listener, socket.socket):
                            listener.close()
                        where[i] = address
                    time.sleep(1.0)
                    processes[i] = start(i)
    except KeyboardInterrupt:
        # SIGINT: Ctrl+C, which reached the workers too, or `kill -INT` of this process
        # alone, which did not (they were killed after 15 s, their leases kept). SIGTERM
        # them either way: a worker stopping already goes on as it was (uvicorn forces
        # nothing on a SIGTERM).
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        for process in processes:
            if process.is_alive():
                process.terminate()  # SIGTERM: uvicorn stops gracefully
        for process in processes:
            process.join(15)
            if process.is_alive():
                process.kill()
