"""Replays for the browser: a game record stepped through as one audience saw it.

A perspective is a seat (what that seat saw), ``None`` (a spectator) or ``"all"`` (every
seat's view at once, for after the game). Steps where the perspective saw nothing change
are folded into the next one. Uploaded records may hold a local option's content inline
(a Thieves Den card set) but never a path: the server opens no file a stranger names.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from thievery.core.errors import InvalidRecord, ThieveryError
from thievery.core.protocol import JSON, Event, State, seat_name
from thievery.core.record import GameRecord
from thievery.core.registry import plugin
from thievery.server.audience import describe_all, without
from thievery.server.errors import ServerError

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
        raise ServerError("replay/perspective", f"no perspective {value!r}") from None
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


def replay_steps(record: GameRecord, perspective: Perspective) -> JSON:
    """Every step of ``record`` as ``perspective`` saw it: views, actions and events, the
    events' words naming seats by the record's names (a record without them: "seat N").

    The views' ``static`` keys (the game's ``static_view``, e.g. its options) are in the
    first step only: they never change."""
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
    steps: list[JSON] = [{"n": 0, "actions": [], "events": [], **_frame(state, perspective)}]
    last_text = json.dumps(_frame(state, perspective, static), sort_keys=True)
    pending_actions: list[JSON] = []
    pending_events: list[JSON] = []
    for i, (seat_i, action) in enumerate(record.actions):
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
        steps.append(
            {
                "n": i + 1,
                "actions": pending_actions,
                "events": pending_events,
                **frame,
            }
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
    }


def record_from_json(data: Any) -> GameRecord:
    """A record sent by a client; :class:`ServerError` if it is not one."""
    try:
        record = GameRecord.from_json(data)
        # An uploaded record must not make the server open files (a card set path); a card
        # set inline is checked by the game when the record starts.
        plugin(record.game).check_remote_options(record.options)
        return record
    except ThieveryError as e:
        raise ServerError(e.code, str(e)) from None
