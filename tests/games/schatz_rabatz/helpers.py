"""Scenario helpers for Schatz-Rabatz: stacked Jack-boards, drops, chest cells."""

from __future__ import annotations

from typing import Any

import thievery
from thievery.core import Event
from thievery.games.schatz_rabatz.rules import SchatzRabatz

GAME = thievery.plugin("schatz-rabatz")
SPEC = GAME.spec
BOARDS = [f"jack-{i}" for i in range(1, 10)]  # stacked: jack-1 is turned first


def new(players: int = 2, **options: Any) -> SchatzRabatz:
    """A match with the Jack-boards stacked in order (jack-1 on top)."""
    return seeded(players, 3, {"boards": BOARDS, **options})


def seeded(players: int, seed: int, options: dict[str, Any] | None = None) -> SchatzRabatz:
    """A match from a seed (the Jack-boards shuffled unless stacked)."""
    state = SPEC.new(players, seed, options)
    assert isinstance(state, SchatzRabatz)
    return state


def wait_hand(state: SchatzRabatz, seat: int) -> list[Event]:
    """Move the clock on to when the seat's hand is ready again (if it is not yet)."""
    ready = state.hand_ready[seat]
    return state.advance(ready) if state.now_ms < ready else []


def drop(state: SchatzRabatz, seat: int, treasure: str, rotation: int, column: int) -> int:
    """Drop a treasure, its hand ready first (the clock moves on to when it is, if need
    be); return the row it came to rest on."""
    wait_hand(state, seat)
    action = {"type": "drop", "treasure": treasure, "rotation": rotation, "column": column}
    (event,) = of_type(state.apply(seat, action), "drop")
    row: int = event["row"]
    return row


def cells(state: SchatzRabatz, seat: int) -> set[tuple[int, int]]:
    """Every filled cell of a seat's chest, from its view."""
    chest = state.view(seat)["chests"][seat]
    return {(x, y) for p in chest["treasures"] for x, y in p["cells"]}


def of_type(events: list[Event], kind: str) -> list[dict[str, Any]]:
    """The data of the events of one type."""
    return [e.data for e in events if e.type == kind]


def kinds(events: list[Event]) -> list[str]:
    """The types of some events, in order."""
    return [e.type for e in events]


def snapshot(state: SchatzRabatz) -> Any:
    """Everything observable about a state, to compare before and after."""
    views = [state.view(s) for s in [None, *range(state.players)]]
    return views, state.locations(), state.to_act, len(state.history()), state.now_ms


def finish_round(state: SchatzRabatz) -> list[Event]:
    """Close every open lid (in seat order); return the events."""
    events: list[Event] = []
    for seat in range(state.players):
        if seat in state.to_act and state.phase == 0:
            events += state.apply(seat, {"type": "close"})
    return events


def all_ready(state: SchatzRabatz) -> list[Event]:
    """Every seat says ready; return the events."""
    events: list[Event] = []
    for seat in list(state.to_act):
        events += state.apply(seat, {"type": "ready"})
    return events
