"""Schatz-Rabatz's view and its inverse, side by side: :func:`view` is what one seat (or a
spectator) may know of a match, JSON-ready, and :class:`Determinizer` reads such a view
back into full states with the face-down Jack-boards re-sampled (for fair search bots).
Everything else in Schatz-Rabatz is public, so the determinizer keeps it as it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from thievery.core.protocol import JSON, GameSpec
from thievery.core.rng import Rng
from thievery.games.schatz_rabatz.data import SHAPES, SHIP_PARTS
from thievery.games.schatz_rabatz.pieces import (
    BOARD_CLAIMS,
    BOARD_ID,
    BOARD_INDEX,
    CARD_ID,
    CARD_INDEX,
    N_BOARDS,
    N_CARDS,
    N_TREASURES,
    ORIENTATIONS,
    PART_OF,
    SHAPE_OF,
    TREASURE_ID,
    TREASURE_INDEX,
)

if TYPE_CHECKING:  # rules.py imports this module for State.view
    from thievery.games.schatz_rabatz.rules import SchatzRabatz

# By phase number: rules.PACKING, SCORED, OVER (scored: waiting for everyone to be ready).
PHASE_NAMES = ("packing", "scored", "over")
# The treasures' shapes (cells as [x, y]) for clients that draw them; data, the same in
# every view.
SHAPES_JSON: dict[str, list[list[int]]] = {
    name: [list(cell) for cell in cells] for name, cells in SHAPES
}


def placed_json(placed: tuple[int, int, int, int]) -> JSON:
    """A treasure in a chest, with the cells it covers."""
    t, r, c, row = placed
    return {
        "id": TREASURE_ID[t],
        "rotation": r,
        "column": c,
        "row": row,
        "cells": [[c + x, row + y] for x, y in ORIENTATIONS[SHAPE_OF[t]][r].cells],
    }


def view(state: SchatzRabatz, seat: int | None) -> JSON:
    """What ``seat`` may know of ``state`` (``None``: a spectator), JSON-ready: everything
    but the order of the face-down Jack-boards (the same for every seat). The time, the
    round and phase, the hourglass, the pool, every chest with its treasures and skyline,
    the treasures taken out and claimed, the turned board, the ships and the supply.

    Every chest says when its seat's hand may drop again (``hand_ready_ms``, public: every
    drop is seen). The top-level ``hand_ready_ms`` is the real-time protocol's key for
    schedulers: the time this seat's next drop becomes legal while it is packing and its
    hand is not ready yet, else ``None`` (bots and clients wait for it)."""
    n = state.players
    ids = TREASURE_ID
    board = state.board
    return {
        "game": "schatz-rabatz",
        "players": n,
        "seat": seat,
        "options": state.spec.public_options(state.options),
        "width": state.width,
        "depth": state.depth,
        "shapes": {k: [c[:] for c in v] for k, v in SHAPES_JSON.items()},
        "now_ms": state.now_ms,
        "round": state.round_no,
        "phase": PHASE_NAMES[state.phase],
        "to_act": list(state._to_act),
        "hand_ready_ms": hand_ready_ms(state, seat),
        "hourglass": {
            "length_ms": state.hourglass_ms,
            "started_ms": state.started_ms if state.started_ms >= 0 else None,
            "ends_ms": state.ends_ms if state.ends_ms >= 0 else None,
        },
        "pool": [ids[t] for t in range(N_TREASURES) if state.in_pool[t]],
        "chests": [
            {
                "open": state.is_open[s],
                "closed_ms": state.closed_ms[s] if state.closed_ms[s] >= 0 else None,
                "treasures": [placed_json(p) for p in state.chests[s]],
                "heights": state.heights[s][:],
                "hand_ready_ms": state.hand_ready[s],
            }
            for s in range(n)
        ],
        "out": [[ids[t] for t in x] for x in state.out],
        "jack": [[ids[t] for t in x] for x in state.jack],
        "board": (
            {"id": BOARD_ID[board], "claims": [ids[t] for t in sorted(BOARD_CLAIMS[board])]}
            if board >= 0
            else None
        ),
        "boards_turned": [BOARD_ID[b] for b in state.turned],
        "stack_size": len(state.stack),
        "ship_parts": [SHIP_PARTS[p] for p in state.needs],
        "ships": [[CARD_ID[c] for c in x] for x in state.ships],
        "supply": [CARD_ID[c] for c in state.supply],
        "ready": state.ready[:],
        "last_round": _copied(state.last_round),
        "result": state.result(),
    }


def _copied(last: JSON | None) -> JSON | None:
    """The last round's tally, the view's own (the state keeps it until the next round:
    a caller changing its view must not change the game)."""
    if last is None:
        return None
    return {
        k: [list(x) if isinstance(x, list) else x for x in v] if isinstance(v, list) else v
        for k, v in last.items()
    }


def hand_ready_ms(state: SchatzRabatz, seat: int | None) -> int | None:
    """When ``seat``'s next drop becomes legal, if it is packing with its lid open and its
    hand is not ready yet; else ``None`` (nothing of the seat's waits for its hand)."""
    if seat is None or PHASE_NAMES[state.phase] != "packing" or not state.is_open[seat]:
        return None
    ready = state.hand_ready[seat]
    return ready if ready > state.now_ms else None


# ---------------------------------------------------------------- the determinizer


class Determinizer:
    """Reads one view once; each :meth:`sample` is a fresh full state consistent with it,
    the face-down Jack-boards re-shuffled.

    Everything else is public. The stack is a queue: each round's board comes off the top
    and goes back under it, so the boards already seen keep their known order at the
    bottom and only the never-turned ones are shuffled.
    """

    def __init__(self, spec: GameSpec, view: Mapping[str, Any]) -> None:
        from thievery.games.schatz_rabatz.rules import SchatzRabatz  # it imports this module

        n = view["players"]
        s = self.template = object.__new__(SchatzRabatz)
        s.players, s.seed = n, 0
        s.options = {**spec.defaults(), **view["options"]}
        s.rng = Rng(0)
        s.width, s.depth = view["width"], view["depth"]
        s.hourglass_ms = view["hourglass"]["length_ms"]
        s.hand_ms = s.options["hand_ms"]
        s.needs = tuple(SHIP_PARTS.index(p) for p in view["ship_parts"])
        s.now_ms, s.round_no = view["now_ms"], view["round"]
        s.phase = PHASE_NAMES.index(view["phase"])
        pool = {TREASURE_INDEX[t] for t in view["pool"]}
        s.in_pool = [t in pool for t in range(N_TREASURES)]
        s.chests = [
            [(TREASURE_INDEX[p["id"]], p["rotation"], p["column"], p["row"]) for p in chest]
            for chest in (c["treasures"] for c in view["chests"])
        ]
        s.heights = [list(c["heights"]) for c in view["chests"]]
        s.out = [[TREASURE_INDEX[t] for t in x] for x in view["out"]]
        s.jack = [[TREASURE_INDEX[t] for t in x] for x in view["jack"]]
        s.is_open = [c["open"] for c in view["chests"]]
        s.closed_ms = [c["closed_ms"] if c["closed_ms"] is not None else -1 for c in view["chests"]]
        s.hand_ready = [c["hand_ready_ms"] for c in view["chests"]]
        glass = view["hourglass"]
        s.started_ms = glass["started_ms"] if glass["started_ms"] is not None else -1
        s.ends_ms = glass["ends_ms"] if glass["ends_ms"] is not None else -1
        s.board = BOARD_INDEX[view["board"]["id"]] if view["board"] is not None else -1
        s.turned = [BOARD_INDEX[b] for b in view["boards_turned"]]
        s.stack = []
        s.ships = [[CARD_INDEX[c] for c in x] for x in view["ships"]]
        s.supply = [CARD_INDEX[c] for c in view["supply"]]
        s.box = [c for c in range(N_CARDS) if PART_OF[c] not in s.needs]
        s.ready = list(view["ready"])
        s.last_round = view["last_round"]
        s._to_act = tuple(view["to_act"])
        s._history = None
        s._silent = None
        self.seen = list(dict.fromkeys(s.turned))  # the stack's first boards, in order
        self.unseen = [b for b in range(N_BOARDS) if b not in self.seen]
        self.pops = len(s.turned)
        self.size = N_BOARDS - (1 if s.board >= 0 else 0)
        if self.size != view["stack_size"]:
            raise ValueError("the view's Jack-board counts do not add up")

    def sample(self, rng: Rng, *, last: bool = False) -> SchatzRabatz:
        """A fresh full state consistent with the view. With ``last`` no sample follows
        (``spec.determinize``): the template itself becomes this one, a copy saved."""
        s = self.template if last else self.template.clone()
        s.rng = Rng(rng.next64())
        unseen = self.unseen if last else self.unseen[:]
        rng.shuffle(unseen)
        first = self.seen + unseen  # the stack's order when the match began
        pops = self.pops
        s.stack = [first[(pops + i) % N_BOARDS] for i in range(self.size)]
        return s
