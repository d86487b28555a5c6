"""Search bots think in processes of their own (``thievery serve --bot-processes``): the
same choices as in a thread, the bot's generator carried back, a dead process replaced,
and a bot a process cannot run thinking in a thread."""

from __future__ import annotations

import asyncio
import copy
import multiprocessing
import os
import signal
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient

import thievery
from tests.server.conftest import FAST, create_table
from tests.server.serving import serve_process, server_log, whole_output
from thievery.bots import ISMCTSBot, make_bot
from thievery.core.protocol import JSON, Action
from thievery.server import botpool, create_app, driver
from thievery.server.botpool import BotFailed, BotPool, Unavailable, auto_size
from thievery.server.limits import Caps

pytestmark = pytest.mark.realtime  # (processes and timing: run alone)


async def _ready(pool: BotPool, seconds: float = 60) -> None:
    pool.warm()
    deadline = time.monotonic() + seconds
    while not pool.ready:
        assert time.monotonic() < deadline, "the bot processes did not start"
        await asyncio.sleep(0.05)


def _in_a_pool(test: Callable[[BotPool], Awaitable[None]]) -> None:
    """Run ``test`` with a pool of one bot process, started and ready, stopped after."""

    async def run() -> None:
        pool = BotPool(1)
        try:
            await _ready(pool)
            await test(pool)
        finally:
            pool.close()

    asyncio.run(run())


def _played(hub: Any, tid: str) -> None:
    """Wait for table ``tid`` of ``hub`` to end (a minute at most)."""
    deadline = time.monotonic() + 60
    while not hub.tables[tid].is_over:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)


def _choices(game: str, count: int) -> list[tuple[int, JSON, Sequence[Action]]]:
    """``count`` positions of ``game`` where the seat to act has a choice."""
    spec = thievery.game(game)
    state = spec.new(spec.min_players, 3)
    rng = thievery.core.Rng(5)
    found = []
    while state.to_act and len(found) < count:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            found.append((seat, state.view(seat), legal))
        state.apply(seat, rng.choice(legal))
    assert len(found) == count
    return found


def test_a_bot_in_a_process_chooses_as_it_does_in_this_one() -> None:
    async def run(pool: BotPool) -> None:
        for game in ("schattendieb", "thieves"):
            for seat, view, legal in _choices(game, 3):
                here = make_bot("ismcts", game, seat, 11)
                assert isinstance(here, ISMCTSBot)
                here.iterations = 80
                sent = copy.deepcopy(here)
                action, thought = await pool.think(sent, game, view, legal)
                assert action == here.act(view, legal) and action in legal
                assert isinstance(thought, ISMCTSBot)
                assert thought is not sent  # (what came back from the process)
                assert thought.last_iterations == here.last_iterations == 80
                # its generator moved on as the one here did: the next choice follows
                assert thought.rng.next64() == here.rng.next64()
        assert pool.decisions == 6
        assert pool.pids() and os.getpid() not in pool.pids()

    _in_a_pool(run)


def test_a_bot_in_a_process_answers_by_its_deadline() -> None:
    """The deadline is a ``time.perf_counter()`` time, the same clock in every process."""

    async def run(pool: BotPool) -> None:
        (seat, view, legal), *_ = _choices("schattendieb", 1)
        bot = make_bot("ismcts-strong", "schattendieb", seat, 3)
        assert isinstance(bot, ISMCTSBot)
        bot.iterations, bot.seconds = 10**9, None  # (only the deadline stops it)
        began = time.perf_counter()
        bot.deadline = began + 0.3
        action, thought = await pool.think(bot, "schattendieb", view, legal)
        took = time.perf_counter() - began
        assert action in legal
        assert 0.3 <= took < 0.8, took
        assert isinstance(thought, ISMCTSBot) and thought.last_iterations > 16

    _in_a_pool(run)


def test_a_server_without_search_bots_starts_no_bot_process(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, bot_processes=2, limits=FAST)
    with TestClient(app) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        tid = create_table(client, ["bot:heuristic", "bot:random", "bot:heuristic"])["table"]["id"]
        _played(hub, tid)
        assert hub.bot_pool.pids() == [] and not hub.bot_pool.ready
        assert _bot_processes(os.getpid()) == []


def test_a_dead_bot_process_is_replaced() -> None:
    async def run(pool: BotPool) -> None:
        (seat, view, legal), *_ = _choices("schattendieb", 1)
        bot = make_bot("random", "schattendieb", seat, 1)
        await pool.think(bot, "schattendieb", view, legal)
        [dead] = pool.pids()
        os.kill(dead, signal.SIGKILL)
        deadline = time.monotonic() + 30
        with pytest.raises(Unavailable):  # (the caller thinks in a thread instead)
            while time.monotonic() < deadline:
                await pool.think(bot, "schattendieb", view, legal)
                await asyncio.sleep(0.05)
        await _ready(pool)
        action, _ = await pool.think(bot, "schattendieb", view, legal)
        assert action in legal
        assert pool.pids() and dead not in pool.pids()

    _in_a_pool(run)


def _unknown_here() -> Any:
    if multiprocessing.parent_process() is not None:  # (in a bot process)
        raise LookupError("there is no game 'in-memory' here")
    return _Unknown()


class _Unknown:
    """A bot a bot process cannot load, as one of a game registered only in memory."""

    name = "unknown-elsewhere"

    def __reduce__(self) -> Any:
        return (_unknown_here, ())

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        return legal[-1]


def test_a_bot_a_process_cannot_run_is_refused_there() -> None:
    async def run(pool: BotPool) -> None:
        (_, view, legal), *_ = _choices("schattendieb", 1)
        bot: Any = _Unknown()
        assert pool.can_run(bot, "schattendieb")
        with pytest.raises(Unavailable):
            await pool.think(bot, "schattendieb", view, legal)
        assert not pool.can_run(bot, "schattendieb")  # from now on: in a thread
        assert pool.can_run(make_bot("random", "schattendieb", 0, 1), "schattendieb")

    _in_a_pool(run)


def _bots_play(url: str, processes: int) -> tuple[list[Any], int]:
    """A scenario table (seed 7) of three search bots played to its end: its actions, and
    the choices made in bot processes."""
    app = create_app(url, bot_delay=0, bot_processes=processes, limits=FAST)
    with TestClient(app) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        pool = hub.bot_pool
        if processes:
            assert isinstance(pool, BotPool)
            client.portal.call(_ready, pool)  # (else the first choices are made in threads)
        created = create_table(client, ["bot:ismcts"] * 3, seed=7, scenario=True)
        tid = created["table"]["id"]
        _played(hub, tid)
        record = client.get(f"/api/tables/{tid}/record").json()
        replayed = client.post("/api/replay", json=record)
        assert replayed.status_code == 200, replayed.text
        running = pool.pids() if processes else []
    assert _gone(running), f"bot processes {running} outlived their server"
    return [(a["seat"], a["action"]) for a in record["actions"]], pool.decisions if pool else 0


def test_search_bots_play_in_the_bot_processes_as_they_do_in_threads(tmp_path: Path) -> None:
    in_processes, decisions = _bots_play(f"sqlite:///{tmp_path / 'a.db'}", 1)
    in_threads, none = _bots_play(f"sqlite:///{tmp_path / 'b.db'}", 0)
    assert decisions >= 10 and none == 0  # (every choice; forced moves are made here)
    # The same game: each bot's generator came back from the process it thought in.
    assert in_processes == in_threads


def test_the_number_of_bot_processes() -> None:
    assert 1 <= auto_size() <= 4
    assert auto_size(workers=64) == 1
    with pytest.raises(ValueError):
        BotPool(0)


def _bot_processes(server: int) -> list[int]:
    """The bot processes of server process ``server`` (Linux: its spawned children)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue  # (gone meanwhile)
        if ppid == server and b"spawn_main" in command:
            found.append(int(stat.parent.name))
    return found


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (not ended; an ended one may wait to be reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _gone(pids: list[int], seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(_running(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
def test_the_bot_processes_end_with_their_server(tmp_path: Path, stop: signal.Signals) -> None:
    """However the server ends: stopped (uvicorn ends on the signal it was sent, without
    the interpreter's own shutdown), or killed, which nothing in it can see."""
    proc, port = serve_process(f"sqlite:///{tmp_path / 't.db'}", "--bot-processes", "1")
    try:
        bots = [{"kind": "bot", "bot": "ismcts"}] * 3
        created = httpx2.post(
            f"http://127.0.0.1:{port}/api/tables",
            json={"game": "schattendieb", "seats": bots, "options": {"games": 3}},
        )
        assert created.status_code == 201, created.text
        deadline = time.monotonic() + 30
        while not (children := _bot_processes(proc.pid)):  # (started by the first search bot)
            assert time.monotonic() < deadline, server_log(proc)
            time.sleep(0.05)
        proc.send_signal(stop)
        proc.wait(15)
        assert _gone(children), f"bot processes {children} outlived their server"
        if stop == signal.SIGTERM:  # (stopped, not killed: it leaves nothing behind)
            output = whole_output(proc)
            assert "leaked" not in output and "Traceback" not in output, output
    finally:
        proc.kill()
        proc.wait()


def test_processes_abandoned_for_new_ones_are_waited_for_at_close() -> None:
    """A decision over its time budget stops the processes for new ones (abandon): those
    are kept to be reaped at close, with their manager thread (the shutdown had let go of
    them before they were kept, and the close waited for none: a review's find)."""

    async def run() -> None:
        pool = BotPool(1)
        try:
            pool.warm()
            deadline = time.monotonic() + 60
            while not pool.ready:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.05)
            first = pool.pids()
            pool.abandon()
            (kept,) = pool._retired
            assert sorted(p.pid for p in kept.processes) == first and kept.manager is not None
            assert pool.pids() != first  # (new ones started)
        finally:
            pool.close()
        assert not kept.alive() and pool._retired == []

    asyncio.run(run())


def _cannot_start(server: int) -> None:
    raise OSError("no room for another process")


def test_bot_processes_that_cannot_start_leave_the_bots_to_threads(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(botpool, "_prepare", _cannot_start)  # (what the processes run first)

    async def run() -> None:
        pool = BotPool(1)
        try:
            pool.warm()
            bot = make_bot("ismcts", "schattendieb", 0, 1)
            deadline = time.monotonic() + 60
            while pool.failures < botpool.GIVE_UP:  # (tried again, not forever)
                assert time.monotonic() < deadline
                assert not pool.can_run(bot, "schattendieb")
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
            assert not pool.can_run(bot, "schattendieb") and pool.pids() == []
            pool.warm()  # (a later search bot starts nothing)
            assert pool.pids() == [] and pool.failures == botpool.GIVE_UP
        finally:
            pool.close()

    asyncio.run(run())
    assert "bots think in threads" in caplog.text


class _Sleeps:
    """A bot that thinks for ``seconds``, whatever its deadline."""

    name = "sleeper"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        time.sleep(self.seconds)
        return legal[0]


class _Fails:
    """A bot with a bug: it draws a number, then fails."""

    name = "fails"

    def __init__(self) -> None:
        self.rng = thievery.core.Rng(1)

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        self.rng.next64()
        raise KeyError("a bug in the bot")


def test_a_bots_own_error_is_raised_here_with_the_bot_as_it_left_it() -> None:
    async def run(pool: BotPool) -> None:
        (_, view, legal), *_ = _choices("schattendieb", 1)
        bot: Any = _Fails()
        with pytest.raises(BotFailed) as failed:
            await pool.think(bot, "schattendieb", view, legal)
        assert isinstance(failed.value.error, KeyError)  # (the bot's, not the pool's)
        here = _Fails()
        here.rng.next64()
        assert failed.value.bot.rng.next64() == here.rng.next64()  # its generator moved on
        assert pool.can_run(bot, "schattendieb") and pool.failures == 0  # not refused

    _in_a_pool(run)


def test_one_dead_process_restarts_the_pool_once() -> None:
    """Every call waiting in the pool hears of the death; only the first restarts it."""

    async def run() -> None:
        pool = BotPool(2)
        try:
            await _ready(pool)
            (_, view, legal), *_ = _choices("schattendieb", 1)
            bot: Any = _Sleeps(5.0)
            calls = [asyncio.ensure_future(pool.think(bot, "schattendieb", view, legal))]
            calls.append(asyncio.ensure_future(pool.think(bot, "schattendieb", view, legal)))
            await asyncio.sleep(1.0)  # (both thinking)
            dead, alive = pool.pids()
            os.kill(dead, signal.SIGKILL)
            for call in calls:
                with pytest.raises(Unavailable):
                    await call
            assert pool.failures == 1
            await _ready(pool)  # (started again, not given up)
            action, _ = await pool.think(_Sleeps(0), "schattendieb", view, legal)  # type: ignore[arg-type]
            assert action == legal[0] and pool.failures == 0
            assert not {dead, alive} & set(pool.pids())
        finally:
            pool.close()

    asyncio.run(run())


def test_a_decision_past_its_time_budget_does_not_hold_the_bot_process(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A running call cannot be cancelled: the process is replaced, so the next decision
    does not queue behind the late one (and the seat plays a random move meanwhile)."""
    monkeypatch.setattr(driver, "make_bot", lambda name, game, seat, seed: _Sleeps(3.0))
    caps = Caps(bot_seconds=0.5)
    app = create_app(sqlite_url, bot_delay=0, bot_processes=1, limits=FAST, caps=caps)
    with TestClient(app) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        pool = hub.bot_pool
        client.portal.call(_ready, pool)
        first = pool.pids()
        tid = create_table(client, ["bot:random"] * 3)["table"]["id"]
        deadline = time.monotonic() + 30
        while not (pool.ready and pool.pids() and not set(first) & set(pool.pids())):
            assert time.monotonic() < deadline, "the late process was not replaced"
            time.sleep(0.05)
        assert _gone(first, 5)
        assert "thought over 0.5 s" in caplog.text
        assert pool.failures == 0 and hub.tables[tid].version >= 1
