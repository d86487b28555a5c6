"""Shared by the abuse tests: long finished tables written straight into storage, and a
ping that measures how quickly an unrelated table answers."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import thievery
from thievery.core.record import GameRecord
from thievery.server.seats import hash_token
from thievery.server.storage import ActionRow, Storage, TableRecord


def long_record(games: int, seed: int = 1) -> GameRecord:
    """A whole Schattendieb match of ``games`` games, random legal moves."""
    spec = thievery.game("schattendieb")
    state = spec.new(3, seed, {"games": games})
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return GameRecord.of(state)


def store_finished(db_url: str, record: GameRecord, table_id: str = "longgame") -> str:
    """Store ``record`` as a finished server table; its id."""
    storage = Storage(db_url)
    row = TableRecord(
        id=table_id,
        game=record.game,
        game_version=record.version,
        players=record.players,
        seed=record.seed,
        options=dict(record.options),
        seats=[
            {"kind": "bot", "name": f"Bot {i}", "bot": "random", "token_hash": None}
            for i in range(record.players)
        ],
        host_hash=hash_token("host"),
        salt="00" * 16,
        finished=True,
        result=record.result,
        actions=len(record.actions),
    )

    def write(conn: Any) -> None:
        Storage.insert_table(conn, row)
        for n, (seat, action) in enumerate(record.actions):
            Storage.append_action(conn, table_id, ActionRow(n, seat, action, time.time(), "bot"))

    storage.run(write)
    storage.close()
    return table_id


class Pinger:
    """Pings over a websocket in a thread until stopped; keeps the worst round trip."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.worst = 0.0
        self.count = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Pinger:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(30)

    def _run(self) -> None:
        n = 0
        while not self._stop.is_set():
            n += 1
            began = time.perf_counter()
            self.ws.send_json({"type": "ping", "id": n})
            while True:
                frame = self.ws.receive_json()
                if frame.get("type") == "pong" and frame.get("id") == n:
                    break
            self.worst = max(self.worst, time.perf_counter() - began)
            self.count += 1
            time.sleep(0.01)
