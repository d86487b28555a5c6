"""A bot's answer comes after a delay drawn afresh for each decision, so how soon it
answers (a lone "done" at once, a real choice after some thought) tells nobody what it
holds."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import FAST, create_table
from thievery.server import create_app


def test_each_decision_of_a_bot_waits_a_fresh_random_delay(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=4.0, limits=FAST)) as client:
        tid = create_table(client, ["bot:random"] * 3)["table"]["id"]
        table = client.app.state.hub.tables[tid]  # type: ignore[attr-defined]
        seen = set()
        for _ in range(30):
            delays = [table.driver._bot_delay(seat) for seat in table.state.to_act]
            assert all(3.0 <= d < 6.0 for d in delays), delays
            assert delays == [table.driver._bot_delay(s) for s in table.state.to_act]  # kept
            seen.update(delays)
            table.version += 1  # another position: new draws
        assert len(seen) > 60  # not one fixed delay
        assert len(table.driver._delays) == len(table.state.to_act)  # old draws dropped
