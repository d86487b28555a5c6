"""Scenario helpers for Der Schattendieb: stacked deals, arranged tables, whole rounds."""

from __future__ import annotations

from typing import Any

import thievery
from thievery.core import Event
from thievery.games.schattendieb.cards import CARD_INDEX
from thievery.games.schattendieb.rules import Schattendieb

GAME = thievery.plugin("schattendieb")
SPEC = GAME.spec


def new(hands: list[list[str]], pile_top: list[str] | None = None, **options: Any) -> Schattendieb:
    """A one-game match (unless ``games`` is given) from a stacked deal."""
    opts: dict[str, Any] = {"games": 1, "hands": hands, **options}
    if pile_top is not None:
        opts["pile_top"] = pile_top
    state = SPEC.new(len(hands), seed=5, options=opts)
    assert isinstance(state, Schattendieb)
    return state


def arrange(
    state: Schattendieb,
    *,
    safes: dict[int, list[str]] | None = None,
    closed: dict[int, str] | None = None,
    pile: list[str] | None = None,
) -> None:
    """Set up a mid-game table before a round: put ``safes`` and Close Safe cards in place
    (taken from wherever they are) and leave exactly ``pile`` (top first) as the draw pile;
    every other pile card goes face down to the discard. Cards stay accounted for."""

    def take(card: str) -> int:
        c = CARD_INDEX[card]
        for place in (state.pile, state.burned, state.discard, *state.hands, *state.safes):
            if c in place:
                place.remove(c)
                return c
        raise AssertionError(f"{card} is not free to arrange")

    for seat, cards in (safes or {}).items():
        state.safes[seat] = [take(c) for c in cards]
    for seat, card in (closed or {}).items():
        state.closed[seat] = take(card)
        state.burned.extend(state.hands[seat])
        state.hands[seat] = []
    if pile is not None:
        wanted = [take(c) for c in pile]
        state.burned.extend(state.pile)
        state.pile[:] = wanted[::-1]
    state.round_no -= 1
    state._new_round()


def round_of(
    state: Schattendieb,
    plays: dict[int, str],
    adds: dict[int, list[str]] | None = None,
    steals: list[str] | None = None,
) -> list[Event]:
    """Play one whole round: step 1 ``plays``, thieves' ``steals`` in order, step 4
    ``adds`` (every asked seat then says done). Returns every event."""
    events: list[Event] = []
    assert sorted(state.to_act) == sorted(plays), (state.to_act, plays)
    for seat, card in plays.items():
        events += state.apply(seat, {"type": "play", "card": card})
    steals = list(steals or [])
    while state.phase == 1:  # STEAL
        events += state.apply(state.to_act[0], {"type": "steal", "card": steals.pop(0)})
    assert not steals, "a planned steal did not happen"
    if state.phase == 2:  # ADD
        for seat in list(state.to_act):
            for card in (adds or {}).get(seat, []):
                events += state.apply(seat, {"type": "add", "card": card})
            events += state.apply(seat, {"type": "done"})
    return events


def of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    """The data of every event of one type."""
    return [e.data for e in events if e.type == kind]


def interleave(draws: dict[int, list[str]], order: list[int]) -> list[str]:
    """The pile (top first) that gives each seat ``draws[seat]`` when drawing round robin
    in ``order``, each seat taking exactly as many cards as listed."""
    queues = {s: list(cs) for s, cs in draws.items()}
    out = []
    while any(queues.values()):
        for s in order:
            if queues.get(s):
                out.append(queues[s].pop(0))
    return out
