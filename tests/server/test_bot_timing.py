"""A bot's answer comes after a delay drawn afresh for each decision, so how soon it
answers (a lone "done" at once, a real choice after some thought) tells nobody what it
holds."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import FAST, create_table, seat_keys
from thievery.server import create_app
from thievery.server.driver import THINK_SHARE, TIMER, Driver
from thievery.server.limits import Caps
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
            table.shown += 1  # another position everyone sees: new draws
        assert len(seen) > 60  # not one fixed delay
        assert len(table.driver._delays) == len(table.state.to_act)  # old draws dropped


def _bots_play(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch, delay: float, enough: Callable[[], bool]
) -> list[tuple[int, bool, Any]]:
    """Three-bot tables play, one at a time, each bot's delay ``delay``, until ``enough``
    (or a minute); the tables left (version, over, to act), for a failure to show."""
    monkeypatch.setattr(Driver, "_bot_delay", lambda self, seat: delay)
    with TestClient(create_app(sqlite_url, bot_delay=delay, limits=FAST)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        tid = create_table(client, ["bot:random"] * 3)["table"]["id"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not enough():
            table = hub.tables.get(tid)
            if table is None or table.is_over:  # a short match: the next table, one at a time
                tid = create_table(client, ["bot:random"] * 3)["table"]["id"]
            time.sleep(0.1)
        return [(t.version, t.is_over, t.state.to_act) for t in hub.tables.values()]


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
    """The bot thinks while its delay runs: from the table's change to its answer that the
    others see is the drawn delay, whether it had one legal action (a lone "done") or a
    choice to think over. (A move nobody else sees may come sooner: it tells nobody
    anything.)"""
    delay, think = 0.5, 0.3
    choices: dict[int, bool] = {}
    gaps: list[tuple[bool, float]] = []
    real_bot, real_act = Driver.bot, LiveTable.act_locked

    def bot(self: Driver, seat: int, by: str) -> Any:
        return _ThinksOnChoices(real_bot(self, seat, by), think, choices, seat)

    async def act_locked(self: LiveTable, seat: int, data: Any, by: str) -> Any:
        # (a bot's first answer to a position everyone saw, if the others see it; what
        # follows its own hidden moves comes as soon as it is decided, see the next test)
        first, shown = self.changed_at == self.shown_at, self.shown
        gap, chose = time.monotonic() - self.shown_at, choices.pop(seat, None)
        done = await real_act(self, seat, data, by)
        if chose is not None and first and self.shown != shown:
            gaps.append((chose, gap))
        return done

    monkeypatch.setattr(Driver, "bot", bot)
    monkeypatch.setattr(LiveTable, "act_locked", act_locked)
    tables = _bots_play(
        sqlite_url,
        monkeypatch,
        delay,
        lambda: sum(c for c, _ in gaps) >= 4 and sum(not c for c, _ in gaps) >= 4,
    )
    forced = [g for c, g in gaps if not c]
    chosen = [g for c, g in gaps if c]
    assert len(forced) >= 4 and len(chosen) >= 4, (gaps, tables)  # (version, over, to act)
    # Never before the drawn delay; and both answer at it (not delay + think for a
    # choice). Medians, so one late wake-up of a busy machine does not decide.
    assert all(g >= delay - 0.01 for g in forced + chosen), gaps
    assert statistics.median(chosen) < delay + think / 2, gaps
    assert abs(statistics.median(chosen) - statistics.median(forced)) < think / 3, gaps


class _ThinksUntilItsDeadline:
    """A search bot that can answer early: it thinks ``think`` seconds over a choice, or
    until its ``deadline`` (perf_counter) if that comes first, then adds a card in secret
    whenever it may (Der Schattendieb); it notes, for each choice, its table, seat, the
    table's count of changes everyone saw and the time it was given."""

    def __init__(
        self, inner: Any, think: float, seat: int, where: Callable[[], tuple[str, int]]
    ) -> None:
        self.inner, self.think, self.seat, self.where = inner, think, seat, where
        self.name = "thinker"
        self.deadline = math.inf
        self.given: list[tuple[str, int, int, float]] = []

    def act(self, view: Any, legal: Any) -> Any:
        if len(legal) > 1:
            left = self.deadline - time.perf_counter()
            table, shown = self.where()
            self.given.append((table, self.seat, shown, left))
            time.sleep(max(0.0, min(self.think, left)))
        adds = [a for a in legal if a.type == "add"]  # (in secret: as often as it may)
        return adds[0] if adds else self.inner.act(view, legal)


def test_a_search_bot_that_thinks_long_still_answers_within_its_delay(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search bot whose thinking would outlast the drawn delay is given a deadline
    within it, so its moves the others see come at the end of the delay since the last
    change everyone saw, however long it would think. Its moves nobody else sees (Der
    Schattendieb's cards added in secret) are played as soon as decided, so each next
    decision still has time left in the delay (half of what the one before left), and
    how many it made does not show. (Without the deadline each choice came a whole
    ``think`` late; with every move waiting for the delay, a decision after a hidden
    move had no time at all.)"""
    delay, think = 0.25, 1.5
    bots: list[_ThinksUntilItsDeadline] = []
    gaps: list[float] = []
    real_bot, real_act = Driver.bot, LiveTable.act_locked

    def bot(self: Driver, seat: int, by: str) -> Any:
        key = (seat, "thinker")
        if key not in self.bots:  # (kept, as the driver keeps its bots)
            table = self.table

            def where() -> tuple[str, int]:
                return table.id, table.shown

            self.bots[key] = _ThinksUntilItsDeadline(real_bot(self, seat, by), think, seat, where)
            bots.append(self.bots[key])  # type: ignore[arg-type]
        return self.bots[key]

    async def act_locked(self: LiveTable, seat: int, data: Any, by: str) -> Any:
        shown, since, now = self.shown, self.shown_at, time.monotonic()
        done = await real_act(self, seat, data, by)
        if self.shown != shown:  # a move the others saw
            gaps.append(now - since)
        return done

    def later_decisions() -> list[float]:
        """The time given to each decision after a seat's first on one position."""
        given = sorted((g for b in bots for g in b.given), key=lambda g: g[:3])
        return [g[3] for g, before in zip(given[1:], given, strict=False) if g[:3] == before[:3]]

    monkeypatch.setattr(Driver, "bot", bot)
    monkeypatch.setattr(LiveTable, "act_locked", act_locked)
    _bots_play(
        sqlite_url, monkeypatch, delay, lambda: len(gaps) >= 8 and len(later_decisions()) >= 2
    )
    later = later_decisions()
    assert len(gaps) >= 8 and len(later) >= 2, (gaps, later)
    # At the end of the delay (a busy machine's late wake-up aside: the median, and every
    # one well short of a whole think).
    assert statistics.median(gaps) < delay + 0.1, gaps
    assert max(gaps) < delay + think / 2, gaps
    # A decision after a hidden move still had time to think (not a deadline past).
    assert statistics.median(later) > 0.01, later


SEED = 1  # a deal whose play below holds secret adds


def test_moves_hidden_from_the_others_do_not_move_the_bots_answers(sqlite_url: str) -> None:
    """A seat adding cards in secret (Der Schattendieb) changes nothing a spectator sees:
    the bots' answers stay timed from the last change everyone saw, and keep their drawn
    delay. (They were timed from every change: a bot's public "done" came a delay later
    for each card it or anyone had added in secret, which told everyone how many.)"""
    app = create_app(sqlite_url, bot_delay=1000.0, limits=FAST, caps=Caps.lifted())
    with TestClient(app) as client:
        # (a chosen deal, so the moves below hold adds: a scenario says so to everyone)
        made = create_table(client, ["human"] * 3, {"games": 3}, seed=SEED, scenario=True)
        tid = made["table"]["id"]
        tokens = list(seat_keys(client, made).values())
        table = client.app.state.hub.tables[tid]  # type: ignore[attr-defined]
        hidden = shown = compared = 0
        for _ in range(400):
            if table.is_over:
                break
            seat = table.state.to_act[0]
            legal = [a.to_json() for a in table.state.legal_actions(seat)]
            adds = [a for a in legal if a["type"] == "add"]
            action = adds[0] if adds else legal[0]
            before = (table.shown, table.shown_at, table.seq[None])
            table.seats[1].bot = "random"  # (a bot's due time, read without letting it move)
            due = table.driver._next_turn() if 1 in table.state.to_act else None
            table.seats[1].bot = None
            response = client.post(
                f"/api/tables/{tid}/actions",
                json={"action": action},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
            assert response.status_code == 200, response.text
            if table.seq[None] == before[2]:  # nothing a spectator sees changed
                hidden += 1
                assert (table.shown, table.shown_at) == before[:2]
                if due is not None and 1 in table.state.to_act:
                    table.seats[1].bot = "random"
                    assert table.driver._next_turn() == due  # same seat, moment and delay
                    table.seats[1].bot = None
                    compared += 1
            else:
                shown += 1
                assert table.shown == before[0] + 1 and table.shown_at > before[1]
        assert (hidden, shown, compared) == (10, 48, 8)  # (the deal's: it is seeded)


def test_a_timed_out_seats_stand_in_answers_at_a_fixed_moment(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat whose turn timer ran out is played by the table's timeout bot: its moves
    others see come half the bot delay after the timer's end (a moment everyone can
    tell), whether the seat had one legal action or a choice to think over, so a search
    bot standing in does not tell, by thinking, whether that seat had a choice. (It
    answered as soon as it had thought: at once for a forced move, after its thinking
    for a choice.)"""
    delay, think, turn = 0.4, 0.12, 1.0
    choices: dict[int, bool] = {}
    gaps: list[tuple[bool, float]] = []
    real_bot, real_act = Driver.bot, LiveTable.act_locked

    def bot(self: Driver, seat: int, by: str) -> Any:
        inner = real_bot(self, seat, by)
        return _ThinksOnChoices(inner, think, choices, seat) if by == TIMER else inner

    async def act_locked(self: LiveTable, seat: int, data: Any, by: str) -> Any:
        # (the stand-in's moves others see; one nobody else sees is played as soon as it
        # is decided, see test_a_stand_ins_secret_moves_do_not_move_when_it_is_seen_done)
        if by != TIMER or seat not in choices:
            return await real_act(self, seat, data, by)
        chose, shown = choices.pop(seat), self.shown
        gap = time.monotonic() - (self.waiting_since[seat] + turn)
        done = await real_act(self, seat, data, by)
        if self.shown != shown:
            gaps.append((chose, gap))
        return done

    monkeypatch.setattr(Driver, "bot", bot)
    monkeypatch.setattr(LiveTable, "act_locked", act_locked)
    app = create_app(sqlite_url, bot_delay=delay, limits=FAST, caps=Caps.lifted())
    with TestClient(app) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        seats = ["human", "bot:random", "bot:random"]
        tid = create_table(client, seats, turn_seconds=turn)["table"]["id"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (
            sum(c for c, _ in gaps) >= 3 and sum(not c for c, _ in gaps) >= 3
        ):
            table = hub.tables.get(tid)
            if table is None or table.is_over:
                tid = create_table(client, seats, turn_seconds=turn)["table"]["id"]
            time.sleep(0.1)
    forced = [g for c, g in gaps if not c]
    chosen = [g for c, g in gaps if c]
    assert len(forced) >= 3 and len(chosen) >= 3, gaps
    # Both at half the delay after the timer's end (medians: a busy machine's late
    # wake-up does not decide).
    assert all(g >= delay / 2 - 0.01 for g in forced + chosen), gaps
    assert abs(statistics.median(chosen) - statistics.median(forced)) < think / 2, gaps


# Two deals of Der Schattendieb that agree on everything seat 0 knows (its own hand and
# what everyone plays) and differ in seat 1's hidden hand: with watches in hand, seat 1's
# stand-in adds two cards in secret before it says "done"; without, it says it at once.
_HAND_0 = ["ring-8a", "ring-5a", "ring-6a", "ring-7a"]
_HAND_2 = ["close-4a", "brooch-1a", "brooch-2a", "cufflink-1a"]
_HANDS_1 = {
    "nothing to add": ["watch-5a", "brooch-3a", "brooch-4a", "cufflink-2a"],
    "two watches to add": ["watch-5a", "watch-8a", "watch-9a", "cufflink-2a"],
}


def _seat_1_done_after(
    sqlite_url: str, hand_1: list[str], turn: float, delay: float
) -> tuple[float, Any]:
    """Seconds from the secret add step's start until seat 0 sees seat 1 (a player gone
    idle, its timer's stand-in playing) done adding; and seat 1's safe then."""
    app = create_app(sqlite_url, bot_delay=delay, limits=FAST, caps=Caps.lifted())
    with TestClient(app) as client:
        hands = [_HAND_0, hand_1, _HAND_2]
        made = create_table(
            client,
            ["human"] * 3,
            {"games": 1, "hands": hands},
            scenario=True,
            turn_seconds=turn,
        )
        tid, keys = made["table"]["id"], seat_keys(client, made)

        def post(seat: int, action: dict[str, Any]) -> None:
            headers = {"Authorization": f"Bearer {keys[seat]}"}
            r = client.post(f"/api/tables/{tid}/actions", json={"action": action}, headers=headers)
            assert r.status_code == 200, r.text

        def view() -> dict[str, Any]:
            headers = {"Authorization": f"Bearer {keys[0]}"}
            state: dict[str, Any] = client.get(f"/api/tables/{tid}/state", headers=headers).json()
            return state["view"]

        for seat in (1, 2, 0):
            post(seat, {"type": "play", "card": hands[seat][0]})
        table = client.app.state.hub.tables[tid]  # type: ignore[attr-defined]
        began = table.waiting_since[1]  # (the server's clock: no polling's lateness)
        assert view()["phase"] == "add" and not view()["add_done"][1]
        post(0, {"type": "done"})  # (seat 0 adds nothing)
        while (now := view())["phase"] == "add" and not now["add_done"][1]:
            assert time.monotonic() < began + 8 * turn, "seat 1's stand-in never said done"
            time.sleep(0.02)
        # (its "done" ended the step, and the next waits for people: the last change seen)
        return table.shown_at - began, table.state.view(1)["safes"][1]


@pytest.mark.parametrize("delay", [0.0, 0.6])
def test_a_stand_ins_secret_moves_do_not_move_when_it_is_seen_done(
    sqlite_url: str, delay: float
) -> None:
    """A seat whose player went idle in the secret add step: its turn timer's stand-in
    adds its cards in secret and then says "done", which everyone sees. When it is seen
    done must not depend on how many cards it added. (The timer ran anew from each secret
    add: a whole turn more for each card; then each secret add waited its own half bot
    delay after the timer: 0.3 s a card by default.)"""
    turn = 1.0  # (the shortest timer a table takes)
    seen = {}
    for name, hand in _HANDS_1.items():
        url = sqlite_url.replace(".db", f"-{len(seen)}.db")
        seen[name] = _seat_1_done_after(url, hand, turn, delay)
    quiet, busy = seen["nothing to add"], seen["two watches to add"]
    assert quiet[1] == ["watch-5a"] and len(busy[1]) == 3, seen  # (two added in secret)
    assert quiet[0] >= turn + delay * THINK_SHARE and busy[0] >= turn  # (the stand-in's)
    assert abs(busy[0] - quiet[0]) < 0.15, seen  # (a card cost a turn, then 0.3 s)
