"""Replays wait for one worker; past ``Caps.replay_queue`` waiting, more are refused at
once (503) instead of queueing without bound (each upload may hold up to 4 MiB and 10 s
of work)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import thievery
from thievery.core.record import GameRecord
from thievery.server.errors import ServerError
from thievery.server.limits import Caps
from thievery.server.replay import Replayer


def test_replays_past_the_queue_are_refused_and_the_rest_run() -> None:
    caps = Caps(replay_workers=1, replay_queue=2)
    replayer = Replayer(caps)
    release = threading.Event()
    started = threading.Event()

    def slow_work(*_: Any) -> tuple[bytes, bytes]:
        started.set()
        release.wait(10)
        return b"[]", b""

    replayer._work = slow_work  # type: ignore[method-assign]
    record = GameRecord.of(thievery.game("thieves").new(3, 1, {}))

    async def main() -> list[Any]:
        tasks = [asyncio.create_task(replayer.steps(record, "all")) for _ in range(5)]
        await asyncio.to_thread(started.wait, 10)  # one works, the others wait or go
        await asyncio.sleep(0.05)
        release.set()
        return await asyncio.gather(*tasks, return_exceptions=True)

    results = asyncio.run(main())
    refused = [r for r in results if isinstance(r, ServerError)]
    assert [r.code for r in refused] == ["replay/busy", "replay/busy"]
    assert all(r.status == 503 for r in refused)
    assert sum(1 for r in results if r == (b"[]", b"")) == 3  # 1 working + 2 waiting
    assert replayer.waiting == 0
