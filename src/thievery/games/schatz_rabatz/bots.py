"""Schatz-Rabatz's packing bot: it reads only its view and the legal actions.

Every treasure counts one, whatever its size, so the bot packs densely and small: each
drop is scored by the treasure's chance to count (one less the chance that the coming
Jack-board claims it; in Big Pirates the board is already turned and claims are certain)
against the room it takes (its cells, the holes it leaves underneath, how much rougher
the chest's surface gets). It never drops a treasure that would stick out above the rim,
and closes its lid when nothing worth packing fits. Its speed is how long it takes per
action (``delay_ms``); ``instant`` is for simulations, where time is simulated.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import partial
from typing import Any

from thievery.core.protocol import Action
from thievery.core.rng import Rng
from thievery.games.schatz_rabatz.pieces import (
    BOARD_CLAIMS,
    BOARD_INDEX,
    N_BOARDS,
    N_TREASURES,
    ORIENTATIONS,
    SHAPE_OF,
    TREASURE_INDEX,
    Orientation,
)

JSON = dict[str, Any]

# Milliseconds per action at each speed (drops per second: 0.4, 0.8, 2, unlimited).
SPEEDS: dict[str, int] = {"child": 2500, "adult": 1250, "expert": 500, "instant": 0}
READY_MS = 800  # how long a (non-instant) bot takes to say it is ready


def claim_chances(view: JSON) -> list[float]:
    """Per treasure, the chance the Jack-board used at this round's scoring claims it.

    Big Pirates: the turned board, for certain. Otherwise the board on top of the stack:
    known once every board has been seen (they go back under the stack in order), else
    one of the boards never turned yet, each as likely.
    """
    if view["board"] is not None:
        claims = {TREASURE_INDEX[t] for t in view["board"]["claims"]}
        return [1.0 if t in claims else 0.0 for t in range(N_TREASURES)]
    turned = [BOARD_INDEX[b] for b in view["boards_turned"]]
    seen = list(dict.fromkeys(turned))
    if len(seen) == N_BOARDS:
        candidates = [seen[len(turned) % N_BOARDS]]
    else:
        candidates = [b for b in range(N_BOARDS) if b not in seen]
    chance = [0.0] * N_TREASURES
    for b in candidates:
        for t in BOARD_CLAIMS[b]:
            chance[t] += 1 / len(candidates)
    return chance


def placement_cost(heights: Sequence[int], depth: int, o: Orientation, column: int) -> float:
    """The room a drop takes, or infinity if it would stick out above the rim."""
    w = o.width
    row = max(heights[column + i] - o.bottoms[i] for i in range(w))
    if row + o.height > depth:
        return float("inf")
    holes = sum(row + o.bottoms[i] - heights[column + i] for i in range(w))
    after = list(heights)
    for i in range(w):
        after[column + i] = row + o.tops[i]
    rough_before = sum(abs(a - b) for a, b in itertools.pairwise(heights))
    rough_after = sum(abs(a - b) for a, b in itertools.pairwise(after))
    # Walls count as edges too: a lone gap against a wall is hard to fill.
    rough_before += abs(depth - heights[0]) + abs(depth - heights[-1])
    rough_after += abs(depth - after[0]) + abs(depth - after[-1])
    return len(o.cells) + 2.0 * holes + 0.4 * (rough_after - rough_before) + 0.1 * row


class PackingBot:
    """A dense packer with a speed: ``child``, ``adult``, ``expert`` or ``instant``."""

    def __init__(
        self, game: str, seat: int, rng: Rng, speed: str = "adult", name: str = "heuristic"
    ) -> None:
        if speed not in SPEEDS:
            raise ValueError(f"speed is one of {', '.join(SPEEDS)}, not {speed!r}")
        self.seat = seat
        self.rng = rng
        self.speed = speed
        self.name = name
        self.action_ms = SPEEDS[speed]

    def delay_ms(self, view: JSON) -> int:
        """How long this bot takes before its next action (game time, jittered ±20%)."""
        if self.action_ms == 0:
            return 0
        base = READY_MS if view["phase"] == "scored" else self.action_ms
        return int(base * (0.8 + 0.4 * self.rng.random()))

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        """The best drop by value for room; the lid once nothing fits that Jack would
        probably leave alone (a treasure that fits always counts, holes or not)."""
        if len(legal) == 1:
            return legal[0]
        chest = view["chests"][self.seat]
        heights, depth = chest["heights"], view["depth"]
        chances = claim_chances(view)
        costs: dict[tuple[int, int, int], float] = {}
        best: Action | None = None
        best_score = 0.0
        for action in legal:
            if action.type != "drop":
                continue
            t = TREASURE_INDEX[action.treasure]  # type: ignore[attr-defined]
            shape = SHAPE_OF[t]
            key = (shape, action.rotation, action.column)  # type: ignore[attr-defined]
            cost = costs.get(key)
            if cost is None:
                o = ORIENTATIONS[shape][key[1]]
                cost = costs[key] = placement_cost(heights, depth, o, key[2])
            if cost == float("inf") or chances[t] > 0.5:
                continue  # it would be taken out, or Jack would likely claim it
            score = (1.0 - chances[t]) * 10.0 - cost + 0.01 * self.rng.random()
            if best is None or score > best_score:
                best, best_score = action, score
        if best is not None:
            return best
        return next(a for a in legal if a.type == "close")


def _factory(speed: str, name: str) -> partial[PackingBot]:
    return partial(PackingBot, speed=speed, name=name)


BOTS: dict[str, partial[PackingBot]] = {
    "heuristic": _factory("adult", "heuristic"),
    **{f"packer-{speed}": _factory(speed, f"packer-{speed}") for speed in SPEEDS},
}
