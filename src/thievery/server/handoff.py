"""Handing a table's websocket to the worker process that owns the table.

``thievery serve --workers N`` runs N processes on one port, each on a socket of its own;
the kernel gives each new connection to any of them. A table is run by the process
holding its lease, and a connection that reached another process used to be served there
by a follower copy of the table: each of its actions forwarded to the owner, each of the
owner's announced back through PostgreSQL (:mod:`~thievery.server.cluster`). With a
table's four seats spread over two processes, two processes served fewer actions a second
than one.

So before a websocket is accepted, a process that does not own its table asks the
database which process does; if that process is a sibling (its :class:`Handoff` socket is
in the folder the workers share), the connection itself is handed over: the socket's file
descriptor and the bytes read from it so far (the upgrade request) go to the owner in one
datagram on a Unix socket (``SCM_RIGHTS``), and the owner serves the connection as if it
had accepted it. The client sees nothing of it. A connection is handed on once at most
(:data:`HANDED_HEADER`); where a hand-over cannot be made (no such sibling, an owner gone,
a queue that stays full: see below) the connection is served where it arrived, as before.

The folder is made by the parent process, readable by its user only (a process that can
send to these sockets can already read the database's password).

A socket queues few datagrams (``net.unix.max_dgram_qlen``, 10 by default on Linux, and one
more): in a burst of new connections (every table's seats at once) the owner's queue
fills. A connection that finds it full waits and tries again (:data:`BUSY_PAUSES`, ~90 ms
in all) while the owner takes what is queued, and is served where it came only if the
queue stays full. Limits: connections queued to a process that is killed are closed by the
kernel, and their clients connect again. The socket of a process that died stays in the
folder until the parent, starting a new process in its place, clears what nobody reads
(:func:`prune`). A process that stops takes in what was queued to it before it closes its
socket, and closes those (1012) with the others.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import enum
import logging
import os
import socket
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger("thievery.server")

# Added to a request handed over: a process that receives it never hands it on.
HANDED_HEADER = b"Thievery-Handed-Over"
MAX_REQUEST = 64 << 10  # bytes of a request that may be handed over (more: served here)
RECEIVE_BATCH = 64  # connections taken per call of the reader
# Seconds to wait before trying again while the owner's queue is full (its loop is busy
# with other work; it takes up to RECEIVE_BATCH a turn): ~90 ms in all, then served here.
BUSY_PAUSES = (0.002, 0.005, 0.01, 0.02, 0.05)


class Handed(enum.Enum):
    """What became of a connection offered to a sibling."""

    SENT = "sent"  # the sibling has it: drop this end without a word
    BUSY = "busy"  # the sibling's queue is full: it may take it a moment later
    FAILED = "failed"  # it cannot go there (gone, not a sibling, a request too long)


def prune(folder: Path) -> list[Path]:
    """Remove the sockets in ``folder`` that nobody reads any more (their process died
    without closing them); return those removed. A socket is asked with an empty datagram,
    which a live process drops; one whose queue is full is alive. Only sockets are looked
    at (a socket's name appears once it is bound: see :meth:`Handoff.start`)."""
    gone = []
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as probe:
        probe.setblocking(False)
        for path in sorted(folder.glob("*.sock")):
            try:
                if not stat.S_ISSOCK(path.lstat().st_mode):
                    continue  # (not a socket: not ours, and a file refuses any datagram)
                probe.sendto(b"", str(path))
            except ConnectionRefusedError:  # nobody reads it
                try:
                    path.unlink()
                except OSError:
                    continue
                gone.append(path)
            except OSError:  # a full queue (alive), gone meanwhile, or not ours to judge
                continue
    return gone


class Handoff:
    """This process's end: it receives connections its siblings hand it, and hands them
    connections to the tables they own. ``adopt(sock, data)`` serves a received
    connection whose first bytes were ``data``."""

    def __init__(self, folder: Path, me: str, adopt: Callable[[socket.socket, bytes], Any]):
        self.folder = folder
        self.me = me
        self.adopt = adopt
        self.path = folder / f"{me}.sock"
        self.sent = 0  # connections handed to a sibling
        self.busy = 0  # times a sibling's queue was full when one was offered
        self.received = 0  # connections a sibling handed here
        self._in: socket.socket | None = None
        self._out: socket.socket | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Listen for connections handed here (on the running loop)."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.setblocking(False)
        # Bound under another name, then renamed: the socket's name appears once it is
        # bound (a socket file that refuses is one nobody reads: prune removes it).
        bound = self.folder / f"{self.me}.binding"
        with contextlib.suppress(FileNotFoundError):
            bound.unlink()
        try:
            sock.bind(str(bound))
            os.replace(bound, self.path)
        except OSError:
            sock.close()
            with contextlib.suppress(OSError):
                bound.unlink()
            raise
        out = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        out.setblocking(False)
        self._in, self._out = sock, out
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(sock.fileno(), self._receive)

    def close(self) -> None:
        """Take no more connections: those handed already, queued here too, are served
        (closing the socket would drop them: the sibling has let them go). The name goes
        first: a sibling sending from then on finds nobody and serves the connection."""
        if self._in is not None:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            self._receive(limit=None)
        sock, self._in = self._in, None
        if sock is not None:
            if self._loop is not None:
                self._loop.remove_reader(sock.fileno())
            sock.close()
        out, self._out = self._out, None
        if out is not None:
            out.close()

    def can_reach(self, owner: str) -> bool:
        """Whether ``owner`` is a sibling this process could hand a connection to."""
        return (
            owner != self.me and self._out is not None and (self.folder / f"{owner}.sock").exists()
        )

    def send(self, owner: str, fd: int, data: bytes) -> Handed:
        """Hand the connection on ``fd`` and its first bytes ``data`` (a complete upgrade
        request) to ``owner``: :attr:`Handed.SENT` (this process must drop its own end
        without a word: the connection is the owner's), ``BUSY`` (the owner's queue is
        full: try again later, see :data:`BUSY_PAUSES`) or ``FAILED``. Never waits."""
        out = self._out
        if out is None or len(data) > MAX_REQUEST:
            return Handed.FAILED
        line_end = data.find(b"\r\n")
        if line_end < 0:
            return Handed.FAILED
        marked = data[: line_end + 2] + HANDED_HEADER + b": 1\r\n" + data[line_end + 2 :]
        try:
            # (socket.send_fds drops its address argument: sendmsg itself)
            rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))]
            out.sendmsg([marked], rights, 0, str(self.folder / f"{owner}.sock"))
        except BlockingIOError:  # its queue is full (or what this end sent is still unread)
            self.busy += 1
            return Handed.BUSY
        except OSError as e:  # gone (refused, no such file)
            log.info("handing a connection to %s failed: %s; served here", owner, e)
            return Handed.FAILED
        self.sent += 1
        return Handed.SENT

    def _receive(self, limit: int | None = RECEIVE_BATCH) -> None:
        """Serve the connections waiting (``limit`` at most: the loop's other work goes on
        meanwhile; the reader is called again while more wait)."""
        sock = self._in
        taken = 0
        while sock is not None and (limit is None or taken < limit):
            taken += 1
            try:
                data, fds, flags, _ = socket.recv_fds(
                    sock, MAX_REQUEST + 1024, 1, socket.MSG_CMSG_CLOEXEC
                )
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # (not expected of a bound datagram socket: stop, not spin)
                log.exception("receiving handed-over connections failed; no more are taken")
                if self._loop is not None:
                    self._loop.remove_reader(sock.fileno())
                return
            if flags & (socket.MSG_TRUNC | socket.MSG_CTRUNC) or not fds or not data:
                if flags & socket.MSG_CTRUNC:  # out of file descriptors: the kernel dropped it
                    log.warning("a handed-over connection was lost (no file descriptor left)")
                for fd in fds:
                    os.close(fd)
                continue
            try:
                conn = socket.socket(fileno=fds[0])
            except OSError:
                os.close(fds[0])
                continue
            if conn.type != socket.SOCK_STREAM or conn.family not in (
                socket.AF_INET,
                socket.AF_INET6,
            ):
                conn.close()
                continue
            self.received += 1
            try:
                self.adopt(conn, data)
            except Exception:
                log.exception("serving a handed-over connection failed")
                conn.close()
