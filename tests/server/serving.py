"""A real server for the tests that need real sockets: uvicorn (configured as
``thievery serve`` configures it) in a thread, on 127.0.0.1 and an OS-assigned port."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from thievery.server.limits import Caps
from thievery.server.run import bind, server_config


@contextmanager
def serving(app: Any, caps: Caps | None = None) -> Iterator[int]:
    """Serve ``app`` until the block ends; yields the port."""
    listener = bind("127.0.0.1", 0)
    port: int = listener.getsockname()[1]
    server = uvicorn.Server(server_config(app, listener, caps=caps))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(15)
        listener.close()
