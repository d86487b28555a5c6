"""Live tables: a game, its seats, who is watching, and the bots and timers that move.

The server holds no rules. A :class:`LiveTable` only calls the game protocol: ``apply`` on a
clone, store the action, then adopt the clone and tell each connection what its own
audience (a seat, or ``None`` for spectators) may see: that seat's view, its legal actions
and the events visible to it.

Versions are counted per audience: a seat's version goes up only when something it can see
changes, so numbers never reveal hidden moves (how many cards another seat sealed). An
action must name the version its seat last saw; an older one is refused as stale.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from thievery.bots.base import Bot, bot_names, make_bot
from thievery.core.errors import InvalidOption, MalformedAction, ThieveryError
from thievery.core.protocol import (
    CLOCK,
    JSON,
    NAME_LIMIT,
    Action,
    ClockedState,
    Event,
    GameSpec,
    State,
    default_seat_name,
)
from thievery.core.record import GameRecord
from thievery.core.registry import game as get_game
from thievery.core.registry import plugin
from thievery.server.errors import ServerError, bad_token, from_game_error, stale, unknown_table
from thievery.server.storage import ActionRow, Storage, TableRecord, make_writer

log = logging.getLogger("thievery.server")

HUMAN, BOT = "human", "bot"
LOG_LIMIT = 400  # events sent to a connection when it joins
LOG_KEEP = 1000  # events a table keeps in memory for that
SLOW_BOT = 0.02  # a bot that thinks longer than this (seconds) thinks in a thread
TICK = 0.25  # seconds between checks of a real-time game's clock


def _retrieved(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


def hash_token(token: str) -> str:
    """The stored form of a token (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh, unguessable seat or host token."""
    return secrets.token_urlsafe(24)


RESERVED_NAMES = ("you", "your")  # the log's words for the reader's own seat


def check_names(names: Sequence[str]) -> None:
    """Refuse seat names a log could not tell apart: two the same (ignoring case) or the
    words the log uses for the reader ("you")."""
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        key = name.casefold()
        if key in RESERVED_NAMES:
            raise ServerError(
                "seat/name",
                f"seat {seat} cannot be named {name!r}: logs say "
                "'you' to each player about their own seat",
            )
        if key in seen:
            raise ServerError(
                "seat/name",
                f"seats {seen[key]} and {seat} are both named {name!r}; "
                "give each seat its own name",
            )
        seen[key] = seat


def timeout_bot_for(game: str) -> str:
    """The bot that moves for a human seat whose turn timer ran out."""
    names = bot_names(game)
    return "heuristic" if "heuristic" in names else "random"


@dataclass
class Seat:
    """One seat: a human (reached through a token) or a bot; a human seat may be botted."""

    kind: str
    name: str
    bot: str | None = None  # who plays it now: a bot seat's bot, or a human seat's stand-in
    token_hash: str | None = None

    def stored(self) -> JSON:
        """The stored form (with the token hash)."""
        return {
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "token_hash": self.token_hash,
        }

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> Seat:
        """From the stored form."""
        return cls(str(data["kind"]), str(data["name"]), data.get("bot"), data.get("token_hash"))


def make_seat(
    game: str, seat: int, spec: Mapping[str, Any], seed: int, known_hash: str | None = None
) -> tuple[Seat, str | None]:
    """A seat from its request (``kind``, ``bot``, ``name``) and a new token for a human.

    With ``known_hash`` the human keeps an existing token (play again).
    """
    kind = spec.get("kind", HUMAN)
    bot = spec.get("bot")
    name = str(spec.get("name") or "").strip()[:NAME_LIMIT]
    if kind == BOT:
        bot = bot or timeout_bot_for(game)
        make_bot(bot, game, seat, seed)  # refuses unknown bots
        return Seat(BOT, name or default_seat_name(seat, bot), bot), None
    if kind != HUMAN:
        raise ServerError("seat/kind", f"a seat is 'human' or 'bot', not {kind!r}")
    if bot is not None:
        make_bot(bot, game, seat, seed)
    token = None if known_hash else new_token()
    digest = known_hash or hash_token(token or "")
    return Seat(HUMAN, name or default_seat_name(seat), bot, digest), token


class Listener:
    """One connection's way out: frames queue here and its own task sends them."""

    def __init__(self, seat: int | None, max_queue: int = 1000) -> None:
        self.seat = seat
        self.max_queue = max_queue
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.overflowed = False

    def push(self, text: str) -> None:
        """Queue a frame; a connection too slow to keep up is told to close."""
        if self.overflowed:
            return
        if self.queue.qsize() >= self.max_queue:
            self.overflowed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def close(self) -> None:
        """Ask the sender to stop."""
        self.queue.put_nowait(None)


Audience = int | None


class LiveTable:
    """A table in memory: the state, its seats, its listeners, its bot driver."""

    def __init__(self, hub: Hub, record: TableRecord, state: State) -> None:
        self.hub = hub
        self.record = record
        self.id = record.id
        self.state = state
        self.spec: GameSpec = state.spec
        self.seats = [Seat.from_stored(s) for s in record.seats]
        self.version = 0  # accepted actions
        self.audiences: list[Audience] = [*range(state.players), None]
        self.seq: dict[Audience, int] = dict.fromkeys(self.audiences, 0)
        self._cache: dict[Audience, tuple[int, JSON]] = {}
        self._seen: dict[Audience, JSON] = {a: self._snapshot(a) for a in self.audiences}
        self.log: deque[Event] = deque(maxlen=LOG_KEEP)
        self.listeners: set[Listener] = set()
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.changed_at = time.monotonic()
        self.waiting_since: dict[int, float] = dict.fromkeys(state.to_act, self.changed_at)
        self.bots: dict[tuple[int, str], Bot] = {}
        self.driver: asyncio.Task[None] | None = None
        self.broken: str | None = None
        # Real-time games (a ClockedState): the server's clock is the game's clock.
        self.realtime = isinstance(state, ClockedState)
        self.arrived: set[int] = set()
        self.clock_base: float | None = None
        self._delays: dict[tuple[int, int], float] = {}

    # ---------------------------------------------------------------- reading

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.state.is_over

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token acts for, or ``None``."""
        if not token:
            return None
        digest = hash_token(token)
        for i, seat in enumerate(self.seats):
            if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                return i
        return None

    def is_host(self, token: str | None) -> bool:
        """Whether a token is this table's host token."""
        return bool(token) and hmac.compare_digest(self.record.host_hash, hash_token(token or ""))

    def connected(self, seat: int) -> int:
        """How many connections a seat has."""
        return sum(1 for listener in self.listeners if listener.seat == seat)

    @property
    def names(self) -> list[str]:
        """Each seat's name (public: event words name seats by them)."""
        return [s.name for s in self.seats]

    def seats_json(self) -> list[JSON]:
        """The seats as anyone may see them."""
        return [
            {
                "seat": i,
                "kind": s.kind,
                "name": s.name,
                "bot": s.bot,
                "connected": self.connected(i),
            }
            for i, s in enumerate(self.seats)
        ]

    def summary(self) -> JSON:
        """The table for listings: game, seats, who is to act, the result."""
        return {
            "id": self.id,
            "game": self.spec.name,
            "title": self.spec.title,
            "players": self.state.players,
            "options": plugin(self.spec.name).listing_options(self.record.options),
            "seats": self.seats_json(),
            "to_act": list(self.state.to_act),
            "actions": self.version,
            "over": self.is_over,
            "result": self.state.result(),
            "turn_seconds": self.record.turn_seconds,
            "spectators": sum(1 for listener in self.listeners if listener.seat is None),
            "created_at": self.record.created_at,
            "prev_id": self.record.prev_id,
            "next_id": self.record.next_id,
        }

    def _snapshot(self, audience: Audience) -> JSON:
        """What an audience sees now: its view, legal actions, who is to act, the result.

        Cached until the next action; callers must not change it.
        """
        cached = self._cache.get(audience)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        state = self.state
        legal = [a.to_json() for a in state.legal_actions(audience)] if audience is not None else []
        parts: JSON = {
            "view": state.view(audience),
            "legal": legal,
            "to_act": list(state.to_act),
            "result": state.result(),
        }
        self._cache[audience] = (self.version, parts)
        return parts

    def event_json(self, event: Event, audience: Audience) -> JSON:
        """An event for an audience, with its words (seats by name)."""
        return event_words(self.spec, event, audience, self.names)

    def state_frame(self, kind: str, audience: Audience, events: Sequence[Event]) -> JSON:
        """A frame with everything ``audience`` may know now."""
        return {**self._frame_head(kind, audience, events), **self._snapshot(audience)}

    def _frame_head(self, kind: str, audience: Audience, events: Sequence[Event]) -> JSON:
        return {
            "type": kind,
            "table": self.id,
            "seat": audience,
            "version": self.seq[audience],
            "events": [self.event_json(e, audience) for e in events if e.is_visible_to(audience)],
            # Real-time games: the server's game time now (None before the clock starts),
            # so a client's countdown is right even after a reload.
            "clock_ms": self.clock_ms() if self.realtime else None,
        }

    def state_frame_text(self, kind: str, audience: Audience, events: Sequence[Event]) -> str:
        """:meth:`state_frame` as JSON text, its view without the game's static keys
        (``spec.static_view``: they never change, and the welcome frame had them)."""
        head = self._frame_head(kind, audience, events)
        parts = self._snapshot(audience)
        static = plugin(self.spec.name).static_view
        if static:
            parts = {**parts, "view": without(parts["view"], static)}
        return json.dumps({**head, **parts}, separators=(",", ":"))

    def welcome(self, audience: Audience) -> JSON:
        """The first frame of a connection: its state, the seats and the log so far, and
        which view keys are ``static`` (later frames leave them out; keep them)."""
        frame = self.state_frame("welcome", audience, [])
        frame["static"] = list(plugin(self.spec.name).static_view)
        visible = [e for e in self.log if e.is_visible_to(audience)][-LOG_LIMIT:]
        frame["log"] = [self.event_json(e, audience) for e in visible]
        frame["summary"] = self.summary()
        return frame

    # ---------------------------------------------------------------- changing

    def _adopt(self, new: State, actor: int, events: list[Event]) -> dict[Audience, list[Event]]:
        """Take the new state; return, per audience that sees a change, its events."""
        self.state = new
        self.version += 1
        self.log.extend(events)
        changed: dict[Audience, list[Event]] = {}
        for audience in self.audiences:
            visible = [e for e in events if e.is_visible_to(audience)]
            parts = self._snapshot(audience)
            if visible or audience == actor or parts != self._seen[audience]:
                self.seq[audience] += 1
                changed[audience] = visible
            self._seen[audience] = parts
        return changed

    def replay_row(self, row: ActionRow) -> None:
        """Apply a stored action while restoring (nobody is told)."""
        if row.n != self.version:
            raise ValueError(f"table {self.id}: action {row.n} where {self.version} was expected")
        new = self.state.clone()
        events = new.apply(row.seat, row.action)
        self._adopt(new, row.seat, events)
        self.waiting_since = dict.fromkeys(new.to_act, time.monotonic())
        if self.realtime and self._now_ms() > 0:  # the clock ran before: it runs on
            self.clock_base = time.monotonic() - self._now_ms() / 1000

    def _broadcast(self, changed: Mapping[Audience, list[Event]]) -> None:
        frames: dict[Audience, str] = {}
        for listener in list(self.listeners):
            audience = listener.seat
            if audience not in changed:
                continue
            if audience not in frames:
                frames[audience] = self.state_frame_text("update", audience, changed[audience])
            listener.push(frames[audience])

    def broadcast_json(self, frame: JSON) -> None:
        """Send one frame to every connection."""
        text = json.dumps(frame, separators=(",", ":"))
        for listener in list(self.listeners):
            listener.push(text)

    def _parse(self, data: Any) -> Action:
        if isinstance(data, Action):
            return data
        if not isinstance(data, Mapping):
            raise MalformedAction(f"an action is an object with a 'type', not {data!r:.80}")
        try:
            return self.spec.parse_action(data)
        except ThieveryError:
            raise
        except (TypeError, ValueError, KeyError, AttributeError) as e:
            raise MalformedAction(f"not an action: {e}") from None

    async def act(
        self, seat: int, data: Any, version: int | None, by: str = HUMAN
    ) -> tuple[int, list[Event]]:
        """Apply a seat's action if it is legal and fresh; store it; tell everyone.

        Returns the seat's new version and the events it may see. Cancelling the caller
        does not cancel an action already on its way to storage.
        """
        task = asyncio.ensure_future(self._act(seat, data, version, by))
        task.add_done_callback(_retrieved)  # a refusal nobody waits for any more is fine
        return await asyncio.shield(task)

    async def _act(
        self, seat: int, data: Any, version: int | None, by: str
    ) -> tuple[int, list[Event]]:
        async with self.lock:
            if self.broken:
                raise ServerError("table/broken", self.broken, 409)
            if self.is_over:
                raise ServerError("table/over", "the game is over", 409)
            if version is not None and version != self.seq[seat]:
                raise stale(version, self.seq[seat])
            if by == HUMAN and self.seats[seat].bot is not None:
                raise ServerError(
                    "seat/bot",
                    f"a bot ({self.seats[seat].bot}) plays seat {seat} now; take "
                    "the seat back first",
                    409,
                )
            return await self._act_locked(seat, data, by)

    async def _act_locked(self, seat: int, data: Any, by: str) -> tuple[int, list[Event]]:
        if self.realtime and seat != CLOCK:
            await self._tick_locked(keep_silent=True)  # the action happens now
        try:
            action = self._parse(data)
            new = self.state.clone()
            events = new.apply(seat, action)
        except ThieveryError as e:
            raise from_game_error(e) from None
        row = ActionRow(self.version, seat, action.to_json(), time.time(), by)
        over = new.is_over
        result = new.result()
        try:
            await self.hub.writer.submit(partial(self._store, row, over, result))
        except Exception as e:
            log.exception("table %s: could not store action %d", self.id, row.n)
            raise ServerError(
                "storage/failed", f"the action could not be stored ({type(e).__name__})", 503
            ) from None
        before = set(self.state.to_act)
        changed = self._adopt(new, seat, events)
        now = time.monotonic()
        self.changed_at = now
        self.waiting_since = {
            s: now if (s not in before or s == seat) else self.waiting_since.get(s, now)
            for s in new.to_act
        }
        self._broadcast(changed)
        self.wake.set()
        if over:
            self.record.finished = True
            self.record.result = result
            self.hub.finished(self)
        if seat == CLOCK:
            return 0, events
        return self.seq[seat], [e for e in events if e.is_visible_to(seat)]

    # ---------------------------------------------------------------- real time

    def clock_ms(self) -> int | None:
        """Milliseconds of game time now (real-time games), ``None`` before the clock starts."""
        if self.clock_base is None:
            return None
        return int((time.monotonic() - self.clock_base) * 1000)

    def _start_clock(self) -> None:
        """Start the clock once every human seat has come (or is played by a bot)."""
        if not self.realtime or self.clock_base is not None or self.is_over:
            return
        if all(s.kind == BOT or s.bot or i in self.arrived for i, s in enumerate(self.seats)):
            self.clock_base = time.monotonic() - self._now_ms() / 1000
            self.wake.set()

    def _now_ms(self) -> int:
        return self.state.now_ms if isinstance(self.state, ClockedState) else 0

    async def _tick_locked(self, keep_silent: bool) -> None:
        """Move a real-time game's clock to now (kept if something happened, or if asked)."""
        now = self.clock_ms()
        if now is None or now <= self._now_ms() or self.is_over:
            return
        tick = {"type": "tick", "now_ms": now}
        if not keep_silent:
            probe = self.state.clone()
            if not probe.apply(CLOCK, tick):
                return  # nothing but the clock moved: the next action's tick will say so
        await self._act_locked(CLOCK, tick, "clock")

    def _store(self, row: ActionRow, over: bool, result: JSON | None, conn: Any) -> None:
        Storage.append_action(conn, self.id, row)
        if over:
            Storage.finish_table(conn, self.id, result, row.n + 1)

    async def set_bot(self, seat: int, bot: str | None) -> None:
        """Hand a human seat to a bot (``bot`` a name), or give it back (``None``)."""
        async with self.lock:
            if not 0 <= seat < len(self.seats):
                raise ServerError("seat/unknown", f"there is no seat {seat}", 404)
            current = self.seats[seat]
            if current.kind != HUMAN:
                raise ServerError("seat/not_human", f"seat {seat} is a bot seat", 409)
            if bot is not None:
                try:
                    make_bot(bot, self.spec.name, seat, self.record.seed)
                except ThieveryError as e:
                    raise from_game_error(e) from None
            seats = [Seat(**s.__dict__) for s in self.seats]
            seats[seat].bot = bot
            stored = [s.stored() for s in seats]
            await self.hub.writer.submit(partial(Storage.set_seats, table_id=self.id, seats=stored))
            self.seats = seats
            self.record.seats = stored
            self.changed_at = time.monotonic()
            self.waiting_since[seat] = self.changed_at
        self.broadcast_seats()
        self.wake.set()

    def broadcast_seats(self) -> None:
        """Tell everyone who sits where and who is connected."""
        self.broadcast_json({"type": "seats", "table": self.id, "seats": self.seats_json()})

    # ---------------------------------------------------------------- listeners

    def attach(self, listener: Listener) -> None:
        """A connection joins (its welcome frame goes first)."""
        listener.push(json.dumps(self.welcome(listener.seat), separators=(",", ":")))
        self.listeners.add(listener)
        if listener.seat is not None:
            self.arrived.add(listener.seat)
            self._start_clock()
        self.broadcast_seats()

    def detach(self, listener: Listener) -> None:
        """A connection leaves."""
        if listener in self.listeners:
            self.listeners.discard(listener)
            self.broadcast_seats()

    # ---------------------------------------------------------------- bots and timers

    def start(self) -> None:
        """Start the bot driver (if the game is not over)."""
        if self.driver is None and not self.is_over and not self.broken:
            self.driver = asyncio.get_running_loop().create_task(
                self._drive(), name=f"table-{self.id}"
            )

    async def stop(self) -> None:
        """Stop the bot driver and close every connection."""
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.driver
            self.driver = None
        for listener in list(self.listeners):
            listener.close()

    def _next_turn(self) -> tuple[int, str, float] | None:
        """The next seat a bot moves for: (seat, "bot" or "timer", when)."""
        best: tuple[int, str, float] | None = None
        turn = self.record.turn_seconds
        for seat in self.state.to_act:
            if self.seats[seat].bot is not None:
                due, by = self.changed_at + self._bot_delay(seat), BOT
            elif turn:
                due, by = self.waiting_since.get(seat, self.changed_at) + turn, "timer"
            else:
                continue
            if best is None or due < best[2]:
                best = (seat, by, due)
        return best

    def _bot_delay(self, seat: int) -> float:
        """How long a bot waits: the hub's delay, or a real-time bot's own reaction time."""
        if self.hub.bot_delay <= 0 or not self.realtime:
            return self.hub.bot_delay
        bot = self._bot(seat, BOT)
        delay_ms = getattr(bot, "delay_ms", None)
        if not callable(delay_ms):
            return self.hub.bot_delay
        key = (seat, self.version)
        if key not in self._delays:
            self._delays = {key: float(delay_ms(self.state.view(seat))) / 1000}
        return self._delays[key]

    async def _drive(self) -> None:
        self._start_clock()
        while not self.is_over:
            turn = self._next_turn()
            self.wake.clear()
            ticking = self.realtime and self.clock_base is not None
            if turn is None and not ticking:
                await self.wake.wait()
                continue
            if turn is None or (ticking and turn[2] > time.monotonic() + TICK):
                try:
                    await asyncio.wait_for(self.wake.wait(), TICK)
                except TimeoutError:
                    async with self.lock:
                        await self._shielded(self._tick_locked(keep_silent=False))
                continue
            seat, by, due = turn
            delay = due - time.monotonic()
            if delay > 0:
                try:
                    await asyncio.wait_for(self.wake.wait(), delay)
                    continue  # something changed: look again
                except TimeoutError:
                    pass
            try:
                await self._bot_move(seat, by)
            except ServerError as e:
                log.warning("table %s: bot move for seat %d refused: %s", self.id, seat, e)
                await asyncio.sleep(1.0)
            except Exception:
                log.exception("table %s: bot move for seat %d failed", self.id, seat)
                await asyncio.sleep(1.0)

    @staticmethod
    async def _shielded(work: Any) -> None:
        """Finish ``work`` even if the caller is cancelled (it may be storing an action)."""
        await asyncio.shield(asyncio.ensure_future(work))

    def _bot(self, seat: int, by: str) -> Bot:
        name = self.seats[seat].bot if by == BOT else self.record.timeout_bot
        name = name or self.record.timeout_bot
        key = (seat, name)
        if key not in self.bots:
            self.bots[key] = make_bot(name, self.spec.name, seat, self.record.seed)
        return self.bots[key]

    async def _bot_move(self, seat: int, by: str) -> None:
        """A bot decides from the seat's view (off the loop), then acts if nothing moved."""
        version = self.version
        view = self.state.view(seat)
        legal = self.state.legal_actions(seat)
        if not legal:
            return
        bot = self._bot(seat, by)
        name = getattr(bot, "name", type(bot).__name__)
        if self.hub.bot_threads and name in self.hub.slow_bots:
            action = await asyncio.to_thread(bot.act, view, legal)
        else:
            began = time.perf_counter()
            action = bot.act(view, legal)
            if time.perf_counter() - began > SLOW_BOT:
                self.hub.slow_bots.add(name)  # think off the event loop from now on
        async with self.lock:
            if self.version != version or self.is_over:
                return  # the table moved while the bot thought: decide again
            if (
                by == "timer"
                and self.seats[seat].bot is None
                and (
                    time.monotonic()
                    < self.waiting_since.get(seat, 0) + (self.record.turn_seconds or 0)
                )
            ):
                return
            await asyncio.shield(asyncio.ensure_future(self._act_locked(seat, action, by)))


class Hub:
    """Every table the server knows: live ones in memory, finished ones loaded on demand."""

    def __init__(
        self,
        storage: Storage,
        *,
        bot_delay: float = 0.6,
        bot_threads: bool = True,
        finished_cache: int = 64,
        files_dir: Path | None = None,
    ) -> None:
        self.storage = storage
        self.files_dir = files_dir.resolve() if files_dir is not None else None
        self.writer = make_writer(storage)
        self.bot_delay = bot_delay
        self.bot_threads = bot_threads
        self.slow_bots: set[str] = set()
        self.finished_cache = finished_cache
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}

    def local_files(self, spec: GameSpec, options: Mapping[str, Any] | None) -> JSON:
        """Options that name files on this machine (a card set) may only name a file in
        the server's ``files_dir``, by name; that file is read in, so the table's options
        (its record, its seats' views) hold its content inline, never a server path.
        Content already inline is left to the game to check."""
        out = dict(options or {})
        for option in spec.options:
            value = out.get(option.name)
            if not option.local or not isinstance(value, str):
                continue
            if self.files_dir is None:
                plugin(spec.name).check_remote_options({option.name: value})  # refuses
                continue
            path = (self.files_dir / value).resolve()
            if not path.is_relative_to(self.files_dir) or not path.is_file():
                files = ", ".join(sorted(p.name for p in self.files_dir.iterdir() if p.is_file()))
                raise InvalidOption(
                    f"option {option.name!r}: the server has no file {value!r} "
                    f"(files: {files or 'none'})"
                )
        return plugin(spec.name).inline_options(out, self.files_dir)

    async def start(self) -> int:
        """Restore every unfinished table by replaying its log; how many were restored."""
        records = await asyncio.to_thread(self.storage.unfinished)
        restored = 0
        for record in records:
            try:
                table = await self._load(record)
            except Exception:
                log.exception("table %s could not be restored", record.id)
                continue
            self.tables[record.id] = table
            table.start()
            restored += 1
        if restored:
            log.info("restored %d unfinished tables", restored)
        return restored

    async def close(self) -> None:
        """Stop every driver, then the writer (after it stored what was queued)."""
        for table in list(self.tables.values()):
            await table.stop()
        await self.writer.aclose()
        self.storage.close()

    async def _load(self, record: TableRecord) -> LiveTable:
        rows = await asyncio.to_thread(self.storage.actions, record.id)
        spec = get_game(record.game)
        state = spec.new(record.players, record.seed, record.options)
        table = LiveTable(self, record, state)
        for row in rows:
            try:
                table.replay_row(row)
            except ThieveryError as e:
                table.broken = f"the stored action {row.n} no longer replays: {e}"
                log.error("table %s: %s", record.id, table.broken)
                break
        return table

    async def get(self, table_id: str) -> LiveTable:
        """A table by id (finished tables are loaded from storage and kept a while)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or len(table_id) > 32:
            raise unknown_table(str(table_id)[:40])
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[LiveTable] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            record = await asyncio.to_thread(self.storage.table, table_id)
            if record is None:
                raise unknown_table(table_id)
            table = await self._load(record)
            self.tables[table_id] = table
            table.start()
            self._evict()
            future.set_result(table)
            return table
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # mark retrieved
            raise
        finally:
            del self._loading[table_id]

    def finished(self, table: LiveTable) -> None:
        """A table's game just ended."""
        self._evict()

    def _evict(self) -> None:
        done = [t for t in self.tables.values() if t.is_over and not t.listeners]
        for table in done[: max(0, len(done) - self.finished_cache)]:
            del self.tables[table.id]

    def live(self) -> list[LiveTable]:
        """Tables whose game is still running."""
        return [t for t in self.tables.values() if not t.is_over]

    async def create(
        self,
        game: str,
        seats: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        turn_seconds: float | None = None,
        timeout_bot: str | None = None,
        token_hashes: Sequence[str | None] | None = None,
        host_hash: str | None = None,
        prev_id: str | None = None,
    ) -> tuple[LiveTable, list[str | None], str | None]:
        """A new table; returns it, a token per human seat (``None`` for bots) and the host's.

        ``token_hashes`` and ``host_hash`` keep the same people's tokens (play again).
        """
        spec = get_game(game)
        players = len(seats)
        seed = secrets.randbelow(2**53) if seed is None else seed
        try:
            spec.check_players(players)
            resolved = spec.resolve_options(self.local_files(spec, options))
            state = spec.new(players, seed, resolved)
            timeout_bot = timeout_bot or timeout_bot_for(spec.name)
            make_bot(timeout_bot, spec.name, 0, seed)
            made = [
                make_seat(spec.name, i, seat, seed, token_hashes[i] if token_hashes else None)
                for i, seat in enumerate(seats)
            ]
        except ThieveryError as e:
            raise from_game_error(e) from None
        if prev_id is None:  # a table played again keeps the names it had
            check_names([seat.name for seat, _ in made])
        if turn_seconds is not None and not 1 <= turn_seconds <= 24 * 3600:
            raise ServerError("options/invalid", "the turn timer is 1 second to 24 hours")
        host_token = None if host_hash else new_token()
        record = TableRecord(
            id=secrets.token_urlsafe(6),
            game=spec.name,
            game_version=spec.version,
            players=players,
            seed=seed,
            options=resolved,
            seats=[seat.stored() for seat, _ in made],
            host_hash=host_hash or hash_token(host_token or ""),
            turn_seconds=turn_seconds,
            timeout_bot=timeout_bot,
            prev_id=prev_id,
        )
        await self.writer.submit(partial(Storage.insert_table, record=record))
        table = LiveTable(self, record, state)
        self.tables[record.id] = table
        table.start()
        return table, [token for _, token in made], host_token

    async def again(self, table: LiveTable) -> LiveTable:
        """The table that plays again after ``table``: same seats, tokens and options."""
        if not table.is_over:
            raise ServerError("table/running", "the game is not over yet", 409)
        async with table.lock:
            if table.record.next_id:
                return await self.get(table.record.next_id)
            seats = [{"kind": s.kind, "name": s.name, "bot": s.bot} for s in table.seats]
            new, _, _ = await self.create(
                table.spec.name,
                seats,
                table.spec.public_options(table.record.options),
                turn_seconds=table.record.turn_seconds,
                timeout_bot=table.record.timeout_bot,
                token_hashes=[s.token_hash for s in table.seats],
                host_hash=table.record.host_hash,
                prev_id=table.id,
            )
            await self.writer.submit(partial(Storage.set_next, table_id=table.id, next_id=new.id))
            table.record.next_id = new.id
        table.broadcast_json({"type": "next", "table": table.id, "next": new.id})
        return new

    def record(self, table: LiveTable) -> GameRecord:
        """A finished table's game record (before the end it would give away the seed)."""
        if not table.is_over:
            raise ServerError(
                "record/unfinished", "the record is available once the game is over", 409
            )
        return GameRecord.of(table.state, table.names)

    async def authorize(self, table_id: str, token: str | None) -> tuple[LiveTable, int]:
        """The table and the seat a token acts for; :func:`bad_token` if it acts for none."""
        table = await self.get(table_id)
        seat = table.seat_of(token)
        if seat is None:
            raise bad_token()
        return table, seat


def without(view: JSON, keys: Sequence[str]) -> JSON:
    """A view without some of its keys (a game's static ones, sent once)."""
    return {k: v for k, v in view.items() if k not in keys}


def event_words(
    spec: GameSpec, event: Event, audience: Audience, names: Sequence[str] | None = None
) -> JSON:
    """An event's JSON for an audience with its words, seats named by ``names`` (none:
    "seat N"). The caller checks that the audience may see it."""
    try:
        text = spec.describe(event, audience, names)
    except Exception:  # words are a nicety; never lose a frame over them
        text = event.type
    return {**event.to_json(), "text": text}


def describe_all(
    spec: GameSpec,
    events: Sequence[Event],
    audience: Audience,
    names: Sequence[str] | None = None,
) -> list[JSON]:
    """Events visible to an audience, each with its words (seats named by ``names``)."""
    return [event_words(spec, e, audience, names) for e in events if e.is_visible_to(audience)]
