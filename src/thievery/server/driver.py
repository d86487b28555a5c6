"""Bots at a table: the task that moves for every seat no person is moving for.

That is a bot seat, a human seat handed to a bot, and a human seat whose turn timer ran
out (the table's timeout bot stands in). A bot decides from its seat's view and legal
actions only, in a bot process (:mod:`thievery.server.botpool`) or else a worker thread
(a bot runs on the event loop only if it is named quick in ``Caps.inline_bots`` or has
shown itself quick in real choices of that game, forced moves not counted, and goes back
off the loop for good the first time it is not), within
a time budget past which a random legal action is played; its action is refused if the
table moved meanwhile. A bot seat's bot thinks while its drawn delay runs and answers
when the delay is over, so a forced move and a real choice take the same time to come
(unless the thinking outlasts the delay). In a real-time game the same task ticks the
clock when no bot is due, and a bot with a reaction time of its own
(:class:`PacedBot`) waits that long, then decides on the table as it is then: a search
bot is given a deadline ``Caps.realtime_think_seconds`` away (a wait for a bot process
counts in it), so its thinking adds no more than that (and one sample's time past it)
to its reaction time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
import weakref
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from thievery.bots.base import Bot, make_bot
from thievery.bots.realtime import due_ms
from thievery.core.errors import ThieveryError
from thievery.core.protocol import CLOCK, JSON, Action, State
from thievery.server.botpool import BotFailed, BotPool, Unavailable
from thievery.server.clock import TICK
from thievery.server.errors import ServerError
from thievery.server.seats import BOT

if TYPE_CHECKING:
    from thievery.server.live import LiveTable

log = logging.getLogger("thievery.server")

THINK_SHARE = 0.5  # of the delay left that a search bot may think (see _think_then_move)
SLOW_BOT = 0.02  # a bot that thinks longer than this (seconds) thinks in a thread
# Choices (decisions with more than one legal action) of one game under SLOW_BOT, in a
# thread, before a bot may think on the loop in that game.
QUICK_PROOF = 5
TIMER = "timer"  # who moved: the stand-in for a human seat whose timer ran out
# Bots' delays, drawn from the OS (nothing a client could predict): one for every table,
# as a Random object keeps 2.5 KB of Mersenne Twister state even where it is not used.
JITTER = random.SystemRandom()


@runtime_checkable
class PacedBot(Protocol):
    """A bot with a reaction time of its own in real-time games."""

    def delay_ms(self, view: JSON) -> int:
        """How long (milliseconds) the bot takes to act on ``view``."""
        ...


async def _shielded(work: Awaitable[object]) -> None:
    """Finish ``work`` even if the caller is cancelled (it may be storing an action)."""
    await asyncio.shield(asyncio.ensure_future(work))


class Wake:
    """What :class:`asyncio.Event` does for a table's driver (set, clear, wait), with its
    waiters' futures made only while one waits: an event holds a deque of waiters from
    the start (~700 bytes, for every table in memory)."""

    __slots__ = ("_on", "_waiters")

    def __init__(self) -> None:
        self._on = False
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        """Whether it is set."""
        return self._on

    def set(self) -> None:
        """Set it: every task waiting goes on."""
        self._on = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        """Unset it."""
        self._on = False

    async def wait(self) -> None:
        """Return once it is set (at once if it is)."""
        if self._on:
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)
                if not self._waiters:
                    self._waiters = None


class Driver:
    """One table's bots and the task that moves them (and ticks a real-time clock)."""

    def __init__(self, table: LiveTable) -> None:
        # Weakly: the table holds its driver, and a cycle between them would outlive the
        # table until a full garbage collection (the driver's running task holds the table
        # strongly while it works).
        self._table = weakref.ref(table)
        self.bots: dict[tuple[int, str], Bot] = {}
        self.task: asyncio.Task[None] | None = None
        self._delays: dict[tuple[int, int], float] = {}
        self._due: dict[int, float] = {}  # a real-time game's bot seats: when each acts
        self._jitter = JITTER

    @property
    def table(self) -> LiveTable:
        table = self._table()
        if table is None:  # (only a table's own calls reach its driver)
            raise RuntimeError("the driver's table is gone")
        return table

    def start(self) -> None:
        """Start the task (if the game is not over and the table not broken)."""
        table = self.table
        if self.task is None and not table.is_over and not table.broken and table.is_owner:
            self.task = asyncio.get_running_loop().create_task(
                self._drive(), name=f"table-{table.id}"
            )

    async def stop(self) -> None:
        """Stop the task."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    def bot(self, seat: int, by: str) -> Bot:
        """The bot that moves for ``seat``: its own (``by`` "bot") or the timeout bot."""
        table = self.table
        name = table.seats[seat].bot if by == BOT else table.record.timeout_bot
        name = name or table.record.timeout_bot
        key = (seat, name)
        if key not in self.bots:
            self.bots[key] = make_bot(name, table.spec.name, seat, table.record.deal_seed)
        return self.bots[key]

    def _next_turn(self) -> tuple[int, str, float] | None:
        """The next seat a bot moves for: (seat, "bot" or "timer", when)."""
        table = self.table
        best: tuple[int, str, float] | None = None
        turn = table.record.turn_seconds
        realtime = table.clock.realtime
        if realtime:  # (a seat no longer to act, or no longer a bot's, is due afresh)
            self._due = {
                s: d
                for s, d in self._due.items()
                if s in table.state.to_act and table.seats[s].bot is not None
            }
        for seat in table.state.to_act:
            if table.seats[seat].bot is not None and realtime:
                due, by = self._due_in_real_time(seat), BOT
            elif table.seats[seat].bot is not None:
                # (from the last change everyone saw: see LiveTable.shown)
                due, by = table.shown_at + self._bot_delay(seat), BOT
            elif turn:
                due, by = table.waiting_since.get(seat, table.changed_at) + turn, TIMER
            else:
                continue
            if best is None or due < best[2]:
                best = (seat, by, due)
        return best

    def _due_in_real_time(self, seat: int) -> float:
        """When a bot seat of a real-time game acts: its reaction time after it could
        first act or last acted, and not before its hand is ready (the game's
        ``hand_ready_ms``), as in simulations (:class:`~thievery.bots.realtime.BotClock`).
        Fixed until it acts: counted from any change instead, as it was, a quick seat's
        every drop put a slower one's off again, and it never packed while the other did."""
        due = self._due.get(seat)
        if due is None:
            table = self.table
            due = time.monotonic() + self._bot_delay(seat)
            base = table.clock.base
            if base is not None:  # (asked before its hand is ready, it could only close)
                due = max(due, base + due_ms(0, table.state.view(seat)) / 1000)
            self._due[seat] = due
        return due

    def _bot_delay(self, seat: int) -> float:
        """How long a bot waits: the hub's delay, drawn afresh between 0.75 and 1.5 times
        it for each position everyone sees (so how soon a bot answers, e.g. a lone "done",
        tells no one what it holds; its moves hidden from the others, such as cards added
        in secret, all come within one delay: each waiting a delay of its own told the
        others how many it made), or a real-time bot's own reaction time."""
        table = self.table
        if table.hub.bot_delay <= 0:
            return table.hub.bot_delay
        if not table.clock.realtime:
            key = (seat, table.shown)
            if key not in self._delays:  # keep only this position's draws
                kept = {k: v for k, v in self._delays.items() if k[1] == table.shown}
                jitter = 0.75 + 0.75 * self._jitter.random()
                self._delays = {**kept, key: table.hub.bot_delay * jitter}
            return self._delays[key]
        bot = self.bot(seat, BOT)
        if not isinstance(bot, PacedBot):
            return table.hub.bot_delay
        key = (seat, table.version)
        if key not in self._delays:
            self._delays = {key: float(bot.delay_ms(table.state.view(seat))) / 1000}
        return self._delays[key]

    async def _drive(self) -> None:
        table = self.table
        table.start_clock()
        while not table.is_over:
            turn = self._next_turn()
            table.wake.clear()
            ticking = table.clock.is_running
            if turn is None and not ticking:
                await table.wake.wait()
                continue
            if turn is None or (ticking and turn[2] > time.monotonic() + TICK):
                try:
                    await asyncio.wait_for(table.wake.wait(), TICK)
                except TimeoutError:
                    try:
                        async with table.lock:
                            await _shielded(table.tick_locked(keep_silent=False))
                    except ServerError as e:  # not stored (storage down): the next tick
                        log.warning("table %s: clock tick refused: %s", table.id, e)
                        await asyncio.sleep(1.0)
                continue
            seat, by, due = turn
            try:
                if by == BOT and not table.clock.realtime:
                    await self._think_then_move(turn)
                    continue
                delay = due - time.monotonic()
                if delay > 0:
                    try:
                        await asyncio.wait_for(table.wake.wait(), delay)
                        continue  # something changed: look again
                    except TimeoutError:
                        pass
                if by == TIMER and not table.clock.realtime:
                    # The stand-in answers at a moment everyone can tell: THINK_SHARE of
                    # the bot delay after the timer's end (its moves nobody else sees at
                    # once, as a bot seat's: each waiting its own pad would tell how many).
                    await self._think_then_move(turn, due + table.hub.bot_delay * THINK_SHARE)
                    continue
                await self._bot_move(seat, by)
            except ServerError as e:
                if table.clock.realtime and e.code == "action/illegal":
                    # (real time: another seat took the treasure first; it decides again)
                    log.debug("table %s: bot move for seat %d refused: %s", table.id, seat, e)
                    continue
                log.warning("table %s: bot move for seat %d refused: %s", table.id, seat, e)
                await asyncio.sleep(1.0)
            except Exception:
                log.exception("table %s: bot move for seat %d failed", table.id, seat)
                await asyncio.sleep(1.0)

    async def _think_then_move(self, turn: tuple[int, str, float], at: float | None = None) -> None:
        """A bot seat's turn (or a timed-out seat's stand-in's, ``at`` the moment it
        answers, past the turn's due): decide now, while its delay runs, and act when the
        delay is over (or when the thinking is, if that takes longer). So a forced move and
        a real choice are answered at the same drawn moment, and how long a search bot
        thinks tells nobody whether it had a choice. A move nobody else can see (it
        changes no other seat's view or choices, nor the spectators') is played as soon
        as it is decided: only the moves others see wait for the delay. A search bot that can
        answer early (its ``deadline``) thinks for at most half the delay left, so its
        hidden moves come one after another within the delay, each with half of what the
        one before left, and neither how long it thought nor how many hidden moves it
        made shows in when its next move others see comes (short of the few milliseconds
        a hidden move takes to store once the delay is spent). Wake-ups that leave the
        turn as it was (a presence frame, another seat's bot handed over) do not cut the
        wait short."""
        table = self.table
        seat, by, due = turn
        due = due if at is None else at
        version = table.version
        until = math.inf
        if table.hub.bot_delay > 0:  # (none: the operator wants bots at once, as tests do)
            until = time.perf_counter() + max(0.0, due - time.monotonic()) * THINK_SHARE
        action = await self._decide(seat, by, until)
        while action is not None:
            if table.version != version or table.is_over or self._next_turn() != turn:
                return  # the table moved while the bot thought or waited: decide again
            delay = due - time.monotonic()
            if delay <= 0 or self._unseen(seat, action):
                await self._act(seat, by, version, action)
                return
            table.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.wake.wait(), delay)

    def _unseen(self, seat: int, action: Action) -> bool:
        """Whether ``action`` of ``seat`` would change nothing anyone else sees: no other
        seat's view or choices, not the spectators' view, not who is to act."""
        state = self.table.state
        trial = state.clone()
        try:
            trial.apply(seat, action)
        except ThieveryError:
            return False  # (refused when played, as it would be then)
        if list(trial.to_act) != list(state.to_act) or trial.is_over:
            return False
        others = [s for s in range(state.players) if s != seat]
        return trial.view(None) == state.view(None) and all(
            trial.view(a) == state.view(a) and trial.legal_actions(a) == state.legal_actions(a)
            for a in others
        )

    async def _bot_move(self, seat: int, by: str) -> None:
        """A bot decides from the seat's view (off the loop), then acts if nothing moved.
        For a seat whose turn timer ran out (a moment everyone can tell), the timeout bot
        answers :data:`THINK_SHARE` of the bot delay after it, thinking within that, so
        how long it thought (a search bot: whether the seat had a choice) does not show."""
        table = self.table
        version = table.version
        pad = table.hub.bot_delay * THINK_SHARE if by == TIMER else 0.0
        start = time.monotonic()
        until = time.perf_counter() + pad if pad > 0 else math.inf
        if table.clock.realtime:  # (the others play on meanwhile: see the module's words)
            until = min(until, time.perf_counter() + table.hub.caps.realtime_think_seconds)
        try:
            action = await self._decide(seat, by, until)
            if action is None:
                if table.clock.realtime:
                    # Nothing to do at the table's time (the hourglass ran out meanwhile):
                    # the clock's tick is stored first, so the table moves on (asked again
                    # at once, the seat would find nothing again, for ever).
                    async with table.lock:
                        await _shielded(table.tick_locked(keep_silent=False))
                    await asyncio.sleep(0)
                return
            left = start + pad - time.monotonic()
            if left > 0:
                await asyncio.sleep(left)  # (a move made meanwhile wins: see _act)
            await self._act(seat, by, version, action)
        finally:
            self._due.pop(seat, None)  # (real time: due again a reaction time from now)

    def _now(self, state: State) -> State:
        """``state`` as the seat finds it now: a real-time game's moved to the table's time
        (a copy; the table applies and stores the tick with the action, see
        :meth:`LiveTable.act_locked`). The stored state's time is its last change's: there
        a seat's hand could still be busy with its last drop, and a bot asked then was
        offered nothing but closing its chest, every round after one treasure."""
        table = self.table
        tick = table.clock.tick(state, True) if table.clock.realtime else None
        if tick is None:
            return state
        moved = state.clone()
        moved.apply(CLOCK, table.spec.parse_action(tick))
        return moved

    async def _decide(self, seat: int, by: str, until: float = math.inf) -> Action | None:
        """What the bot for ``seat`` plays from the seat's view and legal actions (in a
        thread unless it is known to be quick), or ``None`` if the seat has none."""
        table, hub = self.table, self.table.hub
        state = self._now(table.state)
        view = state.view(seat)
        legal = state.legal_actions(seat)
        if not legal:
            return None
        bot = self.bot(seat, by)
        if hasattr(bot, "deadline"):  # an anytime search: answers by then (perf_counter)
            bot.deadline = until
        # The proof is earned per game, and only by real choices: a search bot answers a
        # forced move (one legal action) at once, which says nothing of its next choice.
        proof = f"{bot.name}/{table.spec.name}"
        choice = len(legal) > 1
        quick = hub.quick_bots.get(proof, 0)
        began = time.perf_counter()
        trusted = bot.name in hub.caps.inline_bots or quick >= QUICK_PROOF
        if hub.bot_threads and (bot.name in hub.slow_bots or not trusted):
            pool = hub.bot_pool
            if pool is not None:
                pool.warm()  # (at the first bot that may think long; ready soon after)
                if not pool.can_run(bot, table.spec.name):
                    pool = None  # (not ready yet, or a bot it cannot run: a thread)
            async with pool.gate if pool is not None else hub.bot_gate:
                began = time.perf_counter()
                try:
                    action = await asyncio.wait_for(
                        self._think(bot, view, legal, pool), hub.caps.bot_seconds
                    )
                except TimeoutError:
                    log.warning(
                        "table %s: bot %s thought over %g s; a random legal action instead",
                        table.id,
                        bot.name,
                        hub.caps.bot_seconds,
                    )
                    action = self._jitter.choice(legal)
                    # The late thread may still run: the next decision gets a fresh bot.
                    self.bots = {k: b for k, b in self.bots.items() if b is not bot}
                    if pool is not None:
                        pool.abandon()  # (else later decisions queue behind the late one)
                took = time.perf_counter() - began
            if took >= SLOW_BOT:
                hub.slow_bots.add(bot.name)
            elif choice and bot.name not in hub.slow_bots:
                hub.quick_bots[proof] = quick + 1
        else:
            action = bot.act(view, legal)
            if time.perf_counter() - began > SLOW_BOT:
                hub.slow_bots.add(bot.name)  # think off the event loop from now on
        return action

    async def _think(
        self, bot: Bot, view: JSON, legal: Sequence[Action], pool: BotPool | None
    ) -> Action:
        """The bot's choice, made in one of ``pool``'s processes (the bot after thinking,
        its generator moved on, is the one kept) or else in a thread (the caller holds the
        hub's gate then). A decision the pool cannot take after all is made in a thread,
        one at a time as ever."""
        if pool is None:
            return await asyncio.to_thread(bot.act, view, legal)
        try:
            action, thought = await pool.think(bot, self.table.spec.name, view, legal)
        except Unavailable:
            async with self.table.hub.bot_gate:
                return await asyncio.to_thread(bot.act, view, legal)
        except BotFailed as e:  # (as in a thread: the bot as it left it, its error)
            self._keep(bot, e.bot)
            raise e.error from None
        self._keep(bot, thought)
        return action

    def _keep(self, sent: Bot, thought: Bot) -> None:
        """The bot that came back from a process in place of the one sent there (if the
        table still has it: one dropped or replaced meanwhile stays gone)."""
        self.bots = {k: thought if b is sent else b for k, b in self.bots.items()}

    async def _act(self, seat: int, by: str, version: int, action: Action) -> None:
        """Play ``action`` for ``seat`` if the table is still at ``version``."""
        table = self.table
        async with table.lock:
            await table.settle()
            # The table moved while the bot thought: decide again. Not in real time, where
            # everyone moves at once (a quick seat's every drop would put a slower one's
            # off for good): the action is checked at the table's time as it is played.
            if table.is_over or (table.version != version and not table.clock.realtime):
                return
            if by == BOT and table.seats[seat].bot is None:
                return  # (the seat was given back meanwhile: read back by settle, say)
            if (
                by == TIMER
                and table.seats[seat].bot is None
                and (
                    time.monotonic()
                    < table.waiting_since.get(seat, 0) + (table.record.turn_seconds or 0)
                )
            ):
                return
            await _shielded(table.act_locked(seat, action, by))
