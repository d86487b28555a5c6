"""Replays for the browser: a game record stepped through as one audience saw it.

A perspective is a seat (what that seat saw), ``None`` (a spectator) or ``"all"`` (every
seat's view at once, for after the game). Steps where the perspective saw nothing change
are folded into the next one. Uploaded records may hold a local option's content inline
(a Thieves Den card set) but never a path: the server opens no file a stranger names.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from thievery.core.errors import InvalidRecord, ThieveryError
from thievery.core.protocol import JSON, Event, State, seat_name
from thievery.core.record import GameRecord
from thievery.core.registry import plugin
from thievery.server.audience import describe_all, without
from thievery.server.errors import ServerError
from thievery.server.limits import Caps
from thievery.server.seats import check_names

Perspective = int | str | None
MAX_STEPS = 20_000


def parse_perspective(value: str | None, players: int) -> Perspective:
    """``"all"``, ``"spectator"`` / empty (``None``) or a seat number."""
    if value in (None, "", "spectator"):
        return None
    if value == "all":
        return "all"
    try:
        seat = int(value)
    except ValueError:
        raise ServerError("replay/perspective", f"no perspective {value[:40]!r}") from None
    if not 0 <= seat < players:
        raise ServerError("replay/perspective", f"there is no seat {seat}")
    return seat


def _words(
    state: State, events: list[Event], seat: int | None, names: Sequence[str] | None
) -> list[JSON]:
    return describe_all(state.spec, events, seat, names)


def _frame(state: State, perspective: Perspective, leave_out: tuple[str, ...] = ()) -> JSON:
    if perspective == "all":
        return {
            "view": without(state.view(None), leave_out),
            "views": [without(state.view(s), leave_out) for s in range(state.players)],
        }
    seat = perspective if isinstance(perspective, int) else None
    return {"view": without(state.view(seat), leave_out)}


def replay_steps(
    record: GameRecord,
    perspective: Perspective,
    *,
    start: int = 0,
    limit: int | None = None,
    max_bytes: int | None = None,
    seconds: float | None = None,
    encoded: bool = False,
) -> JSON:
    """Every step of ``record`` as ``perspective`` saw it: views, actions and events, the
    events' words naming seats by the record's names (a record without them: "seat N").

    The views' ``static`` keys (the game's ``static_view``, e.g. its options) are in the
    first step only: they never change.

    Bounded: only steps ``start`` to ``start + limit`` are kept (``page`` says where the
    next page starts); past ``max_bytes`` of kept JSON it refuses with ``replay/too_large``
    (413, ask for pages), past ``seconds`` of work with ``replay/too_slow`` (503).

    ``encoded``: each step is kept as its compact JSON text, not as objects. A long
    replay's steps as objects are millions of them: freeing them, or a full collection
    over them, holds the GIL (and so every table's event loop) for a large part of a
    second."""
    deadline = None if seconds is None else time.monotonic() + seconds
    end = None if limit is None else start + limit
    if len(record.actions) > MAX_STEPS:
        raise ServerError("record/too_long", f"a replay has at most {MAX_STEPS} actions")
    try:
        state = record.start()
    except ThieveryError as e:
        raise ServerError(e.code, str(e)) from None
    seat = perspective if isinstance(perspective, int) else None
    see_all = perspective == "all"
    names = record.names
    static = plugin(state.spec.name).static_view  # in the first step's views only
    first = {"n": 0, "actions": [], "events": [], **_frame(state, perspective)}
    steps: list[Any] = []
    size = 0  # of the kept steps' JSON
    if start == 0 and end != 0:
        size = _keep(steps, first, encoded)
    index = 0  # of the step made last
    last_text = json.dumps(_frame(state, perspective, static), sort_keys=True)
    pending_actions: list[JSON] = []
    pending_events: list[JSON] = []
    for i, (seat_i, action) in enumerate(record.actions):
        if deadline is not None and time.monotonic() > deadline:
            raise ServerError(
                "replay/too_slow",
                f"the replay took more than {seconds:g} s of work; ask for fewer steps "
                "(?start=&limit=)",
                503,
            )
        try:
            events = state.apply(seat_i, action)
        except ThieveryError as e:
            raise ServerError(
                InvalidRecord.code, f"action {i} ({action}) by seat {seat_i}: {e}"
            ) from None
        if see_all or seat_i == seat:
            pending_actions.append({"seat": seat_i, "action": action})
        if see_all:
            pending_events.extend(_words(state, events, None, names))
            for s in range(state.players):
                pending_events.extend(
                    {**e, "text": f"(to {seat_name(s, None, names)}) {e['text']}"}
                    for e in _words(state, events, s, names)
                    if e["audience"] is not None
                )
        else:
            pending_events.extend(_words(state, events, seat, names))
        frame = _frame(state, perspective, static)
        text = json.dumps(frame, sort_keys=True)
        if text == last_text and not pending_events and not pending_actions:
            continue
        last_text = text
        index += 1
        if index >= start and (end is None or index < end):
            step = {"n": i + 1, "actions": pending_actions, "events": pending_events, **frame}
            size += _keep(steps, step, encoded)
            if max_bytes is not None and size > max_bytes:
                raise ServerError(
                    "replay/too_large",
                    f"the replay is over {max_bytes} bytes; ask for it in pages "
                    "(?start=0&limit=200, then the page's 'next')",
                    413,
                )
        pending_actions, pending_events = [], []
    return {
        "game": record.game,
        "players": record.players,
        "perspective": perspective,
        "names": names,
        "result": state.result(),
        # Fair deals: the commitment the record's seed and salt give (a stated one that
        # differs was refused when the record was read), and whether it replays to the
        # result it states.
        "deal": {
            "commitment": record.commitment,
            "scenario": record.scenario,
            "result_matches": record.result is None or record.result == state.result(),
        },
        "static": list(static),
        "steps": steps,
        "page": {
            "start": start,
            "limit": limit,
            "total": index + 1,
            "next": end if end is not None and end <= index else None,
        },
    }


def _compact(step: JSON) -> str:
    return json.dumps(step, separators=(",", ":"))


def _keep(steps: list[Any], step: JSON, encoded: bool) -> int:
    """Keep ``step`` (as its JSON text if ``encoded``); the length of that JSON."""
    text = _compact(step)
    steps.append(text if encoded else step)
    return len(text)


def record_from_json(data: Any) -> GameRecord:
    """A record sent by a client; :class:`ServerError` if it is not one."""
    try:
        record = GameRecord.from_json(data)
        # An uploaded record must not make the server open files (a card set path); a card
        # set inline is checked by the game when the record starts.
        plugin(record.game).check_remote_options(record.options)
    except ThieveryError as e:
        raise ServerError(e.code, str(e)) from None
    if record.names is not None:  # (the replay's words name seats by them, "you" too)
        try:
            check_names(record.names)
        except ServerError as e:
            raise ServerError("record/invalid", f"a record's names: {e.message}") from None
    return record


class Replayer:
    """Replays off the event loop: one worker at a time (``Caps.replay_workers``), each
    bounded in work and size, its JSON (and gzipped JSON) cached per finished table (at
    most ``replay_cache`` of them and ``replay_cache_bytes`` in all)."""

    def __init__(self, caps: Caps) -> None:
        self.caps = caps
        self.cache: OrderedDict[tuple[Any, ...], tuple[bytes, bytes]] = OrderedDict()
        self.cached_bytes = 0
        self._gate: asyncio.Semaphore | None = None
        self.waiting = 0  # replays waiting for a worker (at most Caps.replay_queue)

    async def steps(
        self,
        record: GameRecord,
        perspective: Perspective,
        *,
        key: tuple[Any, ...] | None = None,
        start: int = 0,
        limit: int | None = None,
    ) -> tuple[bytes, bytes]:
        """The replay as JSON bytes, plain and gzipped; ``key`` (a finished table's)
        caches it."""
        full_key = None if key is None else (*key, perspective, start, limit)
        if full_key is not None and full_key in self.cache:
            self.cache.move_to_end(full_key)
            return self.cache[full_key]
        if self._gate is None:
            self._gate = asyncio.Semaphore(self.caps.replay_workers)
        if self.waiting >= self.caps.replay_queue:
            raise ServerError(
                "replay/busy",
                "the server is busy with other replays: try again in a few seconds",
                503,
            )
        self.waiting += 1
        try:
            await self._gate.acquire()
        finally:
            self.waiting -= 1
        try:
            body = await asyncio.to_thread(self._work, record, perspective, start, limit)
        finally:
            self._gate.release()
        size = len(body[0]) + len(body[1])
        if full_key is not None and size <= self.caps.replay_cache_bytes // 2:
            self.cache[full_key] = body
            self.cached_bytes += size
            while (
                len(self.cache) > self.caps.replay_cache
                or self.cached_bytes > self.caps.replay_cache_bytes
            ):
                _, (raw, packed) = self.cache.popitem(last=False)
                self.cached_bytes -= len(raw) + len(packed)
        return body

    def _work(
        self, record: GameRecord, perspective: Perspective, start: int, limit: int | None
    ) -> tuple[bytes, bytes]:
        try:
            data = replay_steps(
                record,
                perspective,
                start=start,
                limit=limit,
                max_bytes=self.caps.replay_bytes,
                seconds=self.caps.replay_seconds,
                encoded=True,
            )
        except ServerError as e:
            refused = ServerError(e.code, e.message, e.status)
        else:
            return self._encode(data)
        # Raised afresh, here: the first error's traceback held the steps made so far
        # (up to replay_bytes of small objects), and freeing them where the error is
        # handled, on the event loop, stalled every table for a tenth of a second.
        raise refused

    @staticmethod
    def _encode(data: JSON) -> tuple[bytes, bytes]:
        # The steps come encoded one by one (replay_steps(encoded=True)): one json.dumps
        # of the whole would hold the GIL (and so the event loop) for the length of a long
        # replay.
        steps = data.pop("steps")
        head = json.dumps(data, separators=(",", ":"))[:-1]
        body = ",".join(s if isinstance(s, str) else _compact(s) for s in steps)
        raw = f'{head},"steps":[{body}]}}'.encode()
        return raw, gzip.compress(raw, compresslevel=5)
