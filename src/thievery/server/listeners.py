"""Listeners: each connection's queue of outgoing frames, bounded in frames and in bytes,
so a client that stops reading is cut off instead of holding the server's memory.

A table pushes frames without waiting; the connection's own task sends them (see
:mod:`thievery.server.sockets`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class Listener:
    """One connection's way out: frames queue here and its own task sends them."""

    def __init__(self, seat: int | None, max_queue: int = 1000, max_bytes: int = 2 << 20) -> None:
        self.seat = seat
        self.max_queue = max_queue
        self.max_bytes = max_bytes
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued = 0  # characters waiting to be sent
        self.overflowed = False
        # Called once the queue overflows: its sender may be stuck sending to a client that
        # reads nothing, and would never come to the close at the end of the queue.
        self.on_overflow: Callable[[], None] | None = None

    def push(self, text: str) -> None:
        """Queue a frame; a connection too slow to keep up is told to close."""
        if self.overflowed:
            return
        if self.queue.qsize() >= self.max_queue or self.queued + len(text) > self.max_bytes:
            self.overflowed = True
            while not self.queue.empty():  # what it did not read is let go at once
                self.queue.get_nowait()
            self.queued = 0
            self.queue.put_nowait(None)
            if self.on_overflow is not None:
                self.on_overflow()
            return
        self.queued += len(text)
        self.queue.put_nowait(text)

    async def next(self) -> str | None:
        """The next frame to send (``None``: close)."""
        text = await self.queue.get()
        if text is not None:
            self.queued -= len(text)
        return text

    def close(self) -> None:
        """Ask the sender to stop."""
        self.queue.put_nowait(None)
