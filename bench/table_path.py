"""A table's own path, without sockets: server CPU an action in ``LiveTable.act``.

Runs the server's app in this process (SQLite in a temporary folder, the server's garbage
collection settings), makes ``--tables`` tables of four human seats, attaches to every
seat a listener that keeps its last frame (where a connection would write it), and lets
every table act at once, each seat choosing a random legal action, for ``--actions``
actions a repetition; finished tables are replaced. What it measures is everything a table
does for an action (parse, apply, snapshots, digests, four update frames, the commit,
whose statements the tables acting at once share) and nothing of the network: reading a
client's frame, writing the frames, set-up over HTTP and websockets are left out (compare
``bench/server_load.py --workload bgio``'s ``server_cpu_ms_per_action``). Prints one JSON
line: ``us_per_action`` (process CPU, every thread), the median of ``--repeat`` runs, and
each run's.

    python bench/table_path.py --game facedown --actions 20000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import uvloop

from thievery.core import registry
from thievery.server import create_app
from thievery.server.limits import Caps
from thievery.server.listeners import Listener
from thievery.server.workers import tune_process
from thievery.testing import install_plugin

FACEDOWN = Path(__file__).with_name("facedown")


class Kept(Listener):
    """A connection that keeps its last frame instead of writing it."""

    __slots__ = ("last",)

    def push(self, text: str) -> None:
        self.last = text


async def measure(db: str, game: str, tables: int, actions: int, repeat: int) -> list[float]:
    app = create_app(db, bot_delay=0, caps=Caps.lifted())
    rng = random.Random(1)
    async with app.router.lifespan_context(app):
        hub = app.state.hub

        async def new_table() -> tuple[Any, list[Kept]]:
            table, _, _ = await hub.create(game, [{"kind": "human"}] * 4)
            kept = [Kept(seat) for seat in range(4)]
            for listener in kept:
                table.attach(listener)
            return table, kept

        done = 0

        async def play(until: int) -> None:
            nonlocal done
            table, kept = await new_table()
            while done < until:
                if table.is_over:
                    for listener in kept:
                        table.detach(listener)
                    table, kept = await new_table()
                seat = rng.choice(table.state.to_act)
                action = rng.choice(table.state.legal_actions(seat)).to_json()
                await table.act(seat, action, None)
                done += 1

        async def run(count: int) -> float:
            nonlocal done
            done = 0
            start = time.process_time()
            await asyncio.gather(*(play(count) for _ in range(tables)))
            return (time.process_time() - start) / done * 1e6

        await run(max(actions // 10, tables))  # warm-up
        return [await run(actions) for _ in range(repeat)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--game", default="facedown", help="facedown: bench/facedown, installed")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--actions", type=int, default=20_000, help="a repetition's")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="thievery-table-path-") as tmp:
        if args.game == "facedown":
            sys.path.insert(0, str(install_plugin(FACEDOWN, Path(tmp) / "site")))
            registry.rescan()
        tune_process()
        db = f"sqlite:///{Path(tmp) / 'bench.db'}"
        runs = uvloop.run(measure(db, args.game, args.tables, args.actions, args.repeat))
    print(
        json.dumps(
            {
                "bench": "table_path",
                "game": args.game,
                "tables": args.tables,
                "actions": args.actions,
                "us_per_action": round(statistics.median(runs), 1),
                "runs": [round(r, 1) for r in runs],
                "python": platform.python_version(),
            }
        )
    )


if __name__ == "__main__":
    main()
