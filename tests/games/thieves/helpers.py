"""Scenario helpers for Thieves!: stacked setups and plays by the player whose turn it is."""

from __future__ import annotations

from typing import Any

import thievery
from thievery.core import Event
from thievery.games.thieves.rules import Thieves

GAME = thievery.plugin("thieves")
SPEC = GAME.spec


def new(hands: list[list[str]], deck_top: list[str], first: int = 0, **options: Any) -> Thieves:
    """A game from a stacked setup: ``hands`` (3 ids per seat), ``deck_top`` (top first)."""
    opts = {"hands": hands, "deck_top": deck_top, "first_player": first, **options}
    state = SPEC.new(len(hands), seed=5, options=opts)
    assert isinstance(state, Thieves)
    return state


def play(state: Thieves, card: str, to: int | None = None) -> list[Event]:
    """The current player plays ``card`` (money needs ``to``)."""
    action: dict[str, Any] = {"type": "play", "card": card}
    if to is not None:
        action["to"] = to
    return state.apply(state.current, action)


def kinds(events: list[Event]) -> list[str]:
    """The types of some events, in order."""
    return [e.type for e in events]


def of_type(events: list[Event], kind: str) -> list[dict[str, Any]]:
    """The data of the events of one type."""
    return [e.data for e in events if e.type == kind]


def loot_ids(state: Thieves, seat: int, viewer: int | None = None) -> list[str | None]:
    """A seat's loot row as ``viewer`` sees it (``None``: the spectator)."""
    return [slot["card"] for slot in state.view(viewer)["loot"][seat]]


def snapshot(state: Thieves) -> Any:
    """Everything observable about a state, to compare before and after."""
    views = [state.view(s) for s in [None, *range(state.players)]]
    places = {k: list(v) for k, v in state.locations().items()}
    return views, places, state.to_act, len(state.history()), state.rng.state


def double_loot_draws_the_thief() -> tuple[Thieves, list[Event]]:
    """Seat 0's Double Loot draws a Thief (loot lies in front of seats 1 and 2), then money:
    the state, and the events of playing the Double Loot."""
    state = new(
        [
            ["double-loot-a", "money-0a", "money-0b"],
            ["money-3a", "money-0c", "police-1h"],
            ["money-1a", "police-1g", "police-1f"],
        ],
        ["money-1b", "money-1c", "money-1d", "thief-b", "money-2a", "money-1f"],
        first=1,
    )
    play(state, "money-3a", 1)
    play(state, "money-1a", 2)
    return state, play(state, "double-loot-a")
