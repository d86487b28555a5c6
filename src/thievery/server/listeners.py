"""Listeners: each connection's queue of outgoing frames, bounded in frames and in bytes,
so a client that stops reading is cut off instead of holding the server's memory.

A table pushes frames without waiting; the connection sends them (a sender task on an
ASGI websocket, see :mod:`thievery.server.sockets`; the connection itself, at once, on
uvicorn, see :mod:`thievery.server.wire`). The queue is a plain list and one future made only while
the sender waits: an :class:`asyncio.Queue` (three deques and an event, about 2 KB) for
each of thousands of connections, which hold 0 to 2 frames nearly always, costs more than
the frames.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class Listener:
    """One connection's way out: frames queue here and its own task sends them."""

    __slots__ = (
        "_waiting",
        "frames",
        "max_bytes",
        "max_queue",
        "on_overflow",
        "overflowed",
        "queued",
        "seat",
    )

    def __init__(self, seat: int | None, max_queue: int = 1000, max_bytes: int = 2 << 20) -> None:
        self.seat = seat
        self.max_queue = max_queue
        self.max_bytes = max_bytes
        self.frames: list[str | None] = []  # oldest first; None: close
        self._waiting: asyncio.Future[None] | None = None  # the sender, waiting for a frame
        self.queued = 0  # characters waiting to be sent
        self.overflowed = False
        # Called once the queue overflows: its sender may be stuck sending to a client that
        # reads nothing, and would never come to the close at the end of the queue.
        self.on_overflow: Callable[[], None] | None = None

    def _put(self, text: str | None) -> None:
        self.frames.append(text)
        waiting, self._waiting = self._waiting, None
        if waiting is not None and not waiting.done():
            waiting.set_result(None)

    def push(self, text: str) -> None:
        """Queue a frame; a connection too slow to keep up is told to close."""
        if self.overflowed:
            return
        if len(self.frames) >= self.max_queue or self.queued + len(text) > self.max_bytes:
            self.overflowed = True
            self.frames.clear()  # what it did not read is let go at once
            self.queued = 0
            self._put(None)
            if self.on_overflow is not None:
                self.on_overflow()
            return
        self.queued += len(text)
        self._put(text)

    async def next(self) -> str | None:
        """The next frame to send (``None``: close). One task at a time may wait."""
        while not self.frames:
            self._waiting = asyncio.get_running_loop().create_future()
            await self._waiting
        text = self.frames.pop(0)
        if text is not None:
            self.queued -= len(text)
        return text

    def close(self) -> None:
        """Ask the sender to stop."""
        self._put(None)
