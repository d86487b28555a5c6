"""A bot's answer comes after a delay drawn afresh for each decision, so how soon it
answers (a lone "done" at once, a real choice after some thought) tells nobody what it
holds."""

from __future__ import annotations

import statistics
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import FAST, create_table
from thievery.server import create_app
from thievery.server.driver import Driver
from thievery.server.live import LiveTable


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


class _ThinksOnChoices:
    """A bot that answers a forced move at once and thinks ``think`` seconds over a real
    choice, as the search bots do."""

    def __init__(self, inner: Any, think: float, choices: dict[int, bool], seat: int) -> None:
        self.inner, self.think, self.choices, self.seat = inner, think, choices, seat
        self.name = "thinker"

    def act(self, view: Any, legal: Any) -> Any:
        self.choices[self.seat] = len(legal) > 1
        if len(legal) > 1:
            time.sleep(self.think)
        return self.inner.act(view, legal)


def test_a_thinking_bot_answers_a_forced_move_and_a_choice_at_the_drawn_moment(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot thinks while its delay runs: from the table's change to its answer is the
    drawn delay, whether it had one legal action (a lone "done") or a choice to think over."""
    delay, think = 0.5, 0.3
    choices: dict[int, bool] = {}
    gaps: list[tuple[bool, float]] = []
    real_bot, real_act = Driver.bot, LiveTable.act_locked

    def bot(self: Driver, seat: int, by: str) -> Any:
        return _ThinksOnChoices(real_bot(self, seat, by), think, choices, seat)

    async def act_locked(self: LiveTable, seat: int, data: Any, by: str) -> Any:
        if seat in choices:
            gaps.append((choices.pop(seat), time.monotonic() - self.changed_at))
        return await real_act(self, seat, data, by)

    monkeypatch.setattr(Driver, "bot", bot)
    monkeypatch.setattr(Driver, "_bot_delay", lambda self, seat: delay)
    monkeypatch.setattr(LiveTable, "act_locked", act_locked)
    with TestClient(create_app(sqlite_url, bot_delay=delay, limits=FAST)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        tid = create_table(client, ["bot:random"] * 3)["table"]["id"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (
            sum(c for c, _ in gaps) >= 4 and sum(not c for c, _ in gaps) >= 4
        ):
            table = hub.tables.get(tid)
            if table is None or table.is_over:  # a short match: the next table, one at a time
                tid = create_table(client, ["bot:random"] * 3)["table"]["id"]
            time.sleep(0.1)
        tables = [(t.version, t.is_over, t.state.to_act) for t in hub.tables.values()]
    forced = [g for c, g in gaps if not c]
    chosen = [g for c, g in gaps if c]
    assert len(forced) >= 4 and len(chosen) >= 4, (gaps, tables)  # (version, over, to act)
    # Never before the drawn delay; and both answer at it (not delay + think for a
    # choice). Medians, so one late wake-up of a busy machine does not decide.
    assert all(g >= delay - 0.01 for g in forced + chosen), gaps
    assert statistics.median(chosen) < delay + think / 2, gaps
    assert abs(statistics.median(chosen) - statistics.median(forced)) < think / 3, gaps
