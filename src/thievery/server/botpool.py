"""Bots that think in processes of their own, beside the server.

A search bot thinks for a few hundred milliseconds a choice. In a thread of the server
process it holds the interpreter's lock half of that time, so every table on the server
answers slower while it thinks, and only one bot can think at a time. In a
:class:`BotPool` (``thievery serve --bot-processes N``) it thinks in one of N processes:
the event loop keeps its core, and N bots think at once on a machine with the cores.

A process gets what the bot in a thread gets, and nothing more: the bot (its name, seat
and random generator), its seat's view and legal actions. It answers with the action and
the bot as it is after thinking (its generator moved on), which the table keeps, so the
bot's next choice follows from this one as it would in a thread.

The processes start when the first bot not known to be quick needs one (a server of
people and quick bots only never starts them) and think at a lower priority than the
server (``nice``): a busy machine gives a bot fewer iterations, not its players slower
answers. Until they are ready, and for a bot a process cannot run (a game plug-in
registered only in the server's own memory), bots think in a thread as before. A process
that dies is replaced, and so are the processes when a decision outlives its time budget
(it would keep thinking there); after three failures in a row, bots think in threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from thievery.core.plugin import Bot
from thievery.core.protocol import JSON, Action

log = logging.getLogger("thievery.server")

NICENESS = 5  # how much lower the processes' priority is than the server's
MAX_AUTO = 4  # processes at most when their number is chosen for the machine
GIVE_UP = 3  # failed starts or deaths in a row, past which bots think in threads
ORPHAN_CHECK = 0.5  # seconds between a process's looks at whether its server is gone


def auto_size(workers: int = 1) -> int:
    """Bot processes for each of ``workers`` server processes on this machine: the cores
    the servers leave, shared among them, at least one each and at most :data:`MAX_AUTO`."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(MAX_AUTO, ((cores or 1) - workers) // max(1, workers)))


def _prepare(server: int) -> None:
    """A new process: the server's Ctrl+C is not its own (the server stops it), it ends
    when the server does (however that ends: a server killed cannot tell it), it yields
    to the server, and the games are loaded before the first bot comes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with, args=(server,), daemon=True).start()
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    import thievery.bots  # noqa: F401  (the generic bots)
    from thievery.core.registry import playable

    playable()  # (the installed games loaded)


def _end_with(server: int) -> None:
    """End this process once ``server``, its parent, is gone (it is then another's child;
    ``server`` is given, not read here: it may be gone before this process starts)."""
    while os.getppid() == server:
        time.sleep(ORPHAN_CHECK)
    os._exit(0)


def _ready() -> int:
    return os.getpid()


def _think(asked: bytes) -> tuple[Action | None, Bot, Exception | None]:
    """In a process of the pool: the bot's action (or the error it raised), and the bot
    after thinking. What it is asked comes pickled and is read here, so a bot or game this
    process cannot load is an error of this call (raised), not of the process (which
    would end it); the bot's own error is answered, with the bot as it left it."""
    bot, view, legal = pickle.loads(asked)
    try:
        return bot.act(view, legal), bot, None
    except Exception as e:
        return None, bot, e


def _processes(executor: ProcessPoolExecutor) -> list[multiprocessing.Process]:
    """An executor's processes (none once it is shut down)."""
    return list((getattr(executor, "_processes", None) or {}).values())


class _Retired:
    """An executor stopped or to be stopped, with what its shutdown lets go of (its
    processes, its manager thread): to be waited for at the pool's close."""

    def __init__(
        self, processes: list[multiprocessing.Process], manager: threading.Thread | None
    ) -> None:
        self.processes = processes
        self.manager = manager

    @classmethod
    def of(cls, executor: ProcessPoolExecutor) -> _Retired:
        return cls(_processes(executor), getattr(executor, "_executor_manager_thread", None))

    def alive(self) -> bool:
        """Whether a process or its manager thread still runs."""
        manager = self.manager
        return any(p.is_alive() for p in self.processes) or (
            manager is not None and manager.is_alive()
        )

    def reap(self) -> None:
        """End the processes (killed if SIGTERM does not do it) and wait for them and the
        manager thread."""
        for process in self.processes:
            with contextlib.suppress(Exception):
                process.terminate()
            process.join(timeout=2)
            if process.is_alive():  # (its manager thread would wait for it)
                process.kill()
                process.join(timeout=2)
        if self.manager is not None:
            self.manager.join(timeout=5)


class Unavailable(Exception):
    """The pool cannot take this decision (not started yet, or a process died): think in a
    thread instead."""


class BotFailed(Exception):
    """The bot raised ``error`` in a process; ``bot`` is the bot as it left it (its
    generator moved on, as a bot's in a thread would have)."""

    def __init__(self, error: Exception, bot: Bot) -> None:
        super().__init__(repr(error))
        self.error = error
        self.bot = bot


class BotPool:
    """``size`` processes for bots to think in (see the module's docstring)."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a bot pool has at least one process, not {size}")
        self.size = size
        self.gate = asyncio.Semaphore(size)  # bots thinking at once, one a process
        self.refused: set[tuple[str, str]] = set()  # (bot, game) a process could not run
        self.decisions = 0  # made in the pool
        self.failures = 0  # restarts since the last decision made in the pool
        self._executor: ProcessPoolExecutor | None = None
        self._warming: list[Future[int]] = []
        self._ready = False
        self._closed = False
        # Executors stopped for new ones (abandon, a death), with their processes: reaped
        # at close; dropped here once their processes have ended.
        self._retired: list[_Retired] = []

    @property
    def ready(self) -> bool:
        """Whether the processes are up (started, their games loaded)."""
        warming = self._warming
        if not self._ready and warming and all(f.done() for f in warming):
            self._warming = []
            failed = [f.exception() for f in warming if not f.cancelled() and f.exception()]
            self._ready = not failed and not any(f.cancelled() for f in warming)
            if failed:
                log.warning("the bot processes could not start (%r)", failed[0])
            if not self._ready:
                self._restart(self._executor)
        return self._ready

    def warm(self) -> None:
        """Start the processes in the background, if they are not started already."""
        if self._executor is not None or self._closed:
            return
        context = multiprocessing.get_context("spawn")  # (fork: not with threads running)
        self._executor = ProcessPoolExecutor(
            self.size, context, initializer=_prepare, initargs=(os.getpid(),)
        )
        self._warming = [self._executor.submit(_ready) for _ in range(self.size)]

    def can_run(self, bot: Bot, game: str) -> bool:
        """Whether this decision may go to a process now."""
        return self.ready and (bot.name, game) not in self.refused

    async def think(
        self, bot: Bot, game: str, view: JSON, legal: Sequence[Action]
    ) -> tuple[Action, Bot]:
        """The bot's action and the bot after thinking, from a process. Raises
        :class:`Unavailable` if none can take it (the caller thinks in a thread), and
        :class:`BotFailed` if the bot raised an error there."""
        executor = self._executor
        if executor is None or not self._ready:
            raise Unavailable("the bot processes are not ready")
        try:
            asked = pickle.dumps((bot, view, legal), pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError) as e:
            log.info("bot %s for %s thinks in a thread (%r)", bot.name, game, e)
            self.refused.add((bot.name, game))
            raise Unavailable(str(e)) from None
        try:
            future = executor.submit(_think, asked)
        except (BrokenProcessPool, RuntimeError) as e:  # (RuntimeError: shut down)
            self._restart(executor)
            raise Unavailable(str(e)) from None
        try:
            action, thought, error = await asyncio.wrap_future(future)
        except BrokenProcessPool as e:
            if self._executor is executor:  # (the first to hear of it: others were told too)
                log.warning("a bot process died (%s); new ones are started", e)
            self._restart(executor)
            raise Unavailable(str(e)) from None
        except Exception as e:
            # The process could not read what it was asked: a game or bot it does not know
            # (a plug-in registered only in this process's memory).
            log.info(
                "bot %s for %s thinks in a thread (a process could not: %r)", bot.name, game, e
            )
            self.refused.add((bot.name, game))
            raise Unavailable(str(e)) from None
        self.failures = 0
        if error is not None:
            raise BotFailed(error, thought)
        assert action is not None
        self.decisions += 1
        return action, thought

    def abandon(self) -> None:
        """Stop the processes and start new ones: a decision that outlived its time budget
        would keep its process thinking (a running call cannot be cancelled), and every
        later decision would queue behind it. (Not counted as the pool's failure.)"""
        executor = self._executor
        if executor is not None:
            retired = _Retired.of(executor)  # (before the shutdown lets go of its parts)
            self._terminate(executor)
            self._restart(executor, failed=False, retired=retired)

    def _restart(
        self,
        executor: ProcessPoolExecutor | None,
        failed: bool = True,
        retired: _Retired | None = None,
    ) -> None:
        """New processes in place of ``executor``'s (if it is still the pool's: a dead
        process fails every call waiting there, and only the first restarts it), unless the
        pool failed :data:`GIVE_UP` times in a row (no decision made in between): then bots
        think in threads from now on."""
        if executor is not self._executor:
            return
        self._executor, self._ready, self._warming = None, False, []
        if executor is not None:
            self._retired = [r for r in self._retired if r.alive()]
            self._retired.append(retired or _Retired.of(executor))
            executor.shutdown(wait=False, cancel_futures=True)
        if self._closed:
            return
        self.failures += failed
        if self.failures >= GIVE_UP:
            log.warning(
                "the bot processes failed %d times in a row: bots think in threads", GIVE_UP
            )
            self._closed = True
            return
        self.warm()

    def pids(self) -> list[int]:
        """The processes' ids (for tests and the operator)."""
        executor = self._executor
        processes = getattr(executor, "_processes", None) or {}
        return sorted(processes)

    def close(self) -> None:
        """Stop the processes, at once: the server stops (a bot still thinking there is
        stopped with it)."""
        self._closed = True
        executor, self._executor, self._ready, self._warming = self._executor, None, False, []
        retired, self._retired = self._retired, []
        if executor is not None:
            retired.append(_Retired.of(executor))
            self._terminate(executor)
        # Then waited for and let go of, with those stopped before: their queues'
        # semaphores are unlinked only as they are collected, and uvicorn ends the process
        # by its signal, without the interpreter's exit, so the resource tracker found them
        # left ("There appear to be 5 leaked semaphore objects" at a server's stop).
        if not retired:  # (bots never thought in processes: nothing to wait for)
            return
        for old in retired:
            old.reap()
        del executor, retired
        multiprocessing.active_children()  # (the ended processes reaped: their queues go)
        gc.collect()

    @staticmethod
    def _terminate(executor: ProcessPoolExecutor) -> None:
        processes = _processes(executor)
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
