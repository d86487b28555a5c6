"""Listeners: each connection's queue of outgoing frames, bounded so a slow one is closed.

A table pushes frames without waiting; the connection's own task sends them (see
:mod:`thievery.server.sockets`).
"""

from __future__ import annotations

import asyncio


class Listener:
    """One connection's way out: frames queue here and its own task sends them."""

    def __init__(self, seat: int | None, max_queue: int = 1000) -> None:
        self.seat = seat
        self.max_queue = max_queue
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.overflowed = False

    def push(self, text: str) -> None:
        """Queue a frame; a connection too slow to keep up is told to close."""
        if self.overflowed:
            return
        if self.queue.qsize() >= self.max_queue:
            self.overflowed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def close(self) -> None:
        """Ask the sender to stop."""
        self.queue.put_nowait(None)
