"""Schatz-Rabatz's packing bot: it reads only its view and the legal actions.

Every treasure counts one, whatever its size, so the bot packs densely and small: each
drop is scored by the treasure's chance to count (one less the chance that the coming
Jack-board claims it; in Big Pirates the board is already turned and claims are certain)
against the room it takes (its cells, the holes it leaves underneath, how much rougher
the chest's surface gets). It never drops a treasure that would stick out above the rim,
and closes its lid when nothing worth packing fits. Its speed is how long it takes per
action (``delay_ms``); ``instant`` is for simulations, where time is simulated. Whatever
its speed, its hand obeys the rules' hand speed: ``delay_ms`` is never shorter than the
wait for the seat's hand (the view's ``hand_ready_ms``), so an ``instant`` bot drops once
every ``hand_ms``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from thievery.core.protocol import Action
from thievery.core.rng import Rng
from thievery.games.schatz_rabatz.actions import Drop
from thievery.games.schatz_rabatz.pieces import (
    BOARD_CLAIMS,
    BOARD_INDEX,
    DISTINCT,
    N_BOARDS,
    N_TREASURES,
    ORIENTATIONS,
    SHAPE_OF,
    TREASURE_ID,
    TREASURE_INDEX,
    Orientation,
)

JSON = dict[str, Any]

# Milliseconds per action at each speed (drops per second: 0.4, 0.8, 2, unlimited).
SPEEDS: dict[str, int] = {"child": 2500, "adult": 1250, "expert": 500, "instant": 0}
READY_MS = 800  # how long a (non-instant) bot takes to say it is ready


def hand_wait_ms(view: JSON) -> int:
    """How long the seat must wait before its hand may drop again (0: it may now)."""
    ready = view.get("hand_ready_ms")
    return max(0, ready - view["now_ms"]) if ready is not None else 0


def scoring_boards(view: JSON) -> list[int]:
    """The Jack-boards (indices) that may score this round, each as likely.

    Big Pirates: the turned board. Otherwise the board on top of the stack: known once
    every board has been seen (they go back under the stack in order), else one of the
    boards never turned yet.
    """
    if view["board"] is not None:
        return [BOARD_INDEX[view["board"]["id"]]]
    turned = [BOARD_INDEX[b] for b in view["boards_turned"]]
    seen = list(dict.fromkeys(turned))
    if len(seen) == N_BOARDS:
        return [seen[len(turned) % N_BOARDS]]
    return [b for b in range(N_BOARDS) if b not in seen]


def claim_chances(view: JSON) -> list[float]:
    """Per treasure, the chance the Jack-board used at this round's scoring claims it
    (one of the :func:`scoring_boards`, each as likely)."""
    if view["board"] is not None:
        claims = {TREASURE_INDEX[t] for t in view["board"]["claims"]}
        return [1.0 if t in claims else 0.0 for t in range(N_TREASURES)]
    candidates = scoring_boards(view)
    chance = [0.0] * N_TREASURES
    for b in candidates:
        for t in BOARD_CLAIMS[b]:
            chance[t] += 1 / len(candidates)
    return chance


def placement_cost(heights: Sequence[int], depth: int, o: Orientation, column: int) -> float:
    """The room a drop takes, or infinity if it would stick out above the rim: its cells,
    the holes it leaves underneath, how much rougher the surface gets (the walls count
    as rim-high edges), and a little for resting high."""
    w = o.width
    bottoms = o.bottoms
    row = max(heights[column + i] - bottoms[i] for i in range(w))
    if row + o.height > depth:
        return float("inf")
    holes = sum(row + bottoms[i] - heights[column + i] for i in range(w))
    # Roughness changes only from the column left of the shape to the one right of it.
    lo, hi = column - 1, column + w
    edge = [depth if c < 0 or c >= len(heights) else heights[c] for c in range(lo, hi + 1)]
    after = [edge[0], *(row + o.tops[i] for i in range(w)), edge[-1]]
    before = sum(abs(edge[i + 1] - edge[i]) for i in range(w + 1))
    rougher = sum(abs(after[i + 1] - after[i]) for i in range(w + 1)) - before
    return len(o.cells) + 2.0 * holes + 0.4 * rougher + 0.1 * row


# The packer's scoring, shared with the search bot (``search.py``): a drop is worth its
# chance to count (ten points for a certain one) less the room it takes, and a treasure
# the coming Jack-board claims more likely than not is left in the pool.
COUNT_VALUE = 10.0
MAX_CLAIM = 0.5


def drop_score(chance: float, cost: float) -> float:
    """The packer's score of a drop: its chance to count against the room it takes."""
    return (1.0 - chance) * COUNT_VALUE - cost


Placement = tuple[float, int, int]  # (cost, rotation, column)
_CHEAPEST: dict[tuple[int, ...], list[Placement | None]] = {}


def cheapest_placements(heights: Sequence[int], depth: int) -> list[Placement | None]:
    """Per shape, its cheapest drop that stays below the rim (``None``: none fits).

    Remembered per skyline: the same chests recur across moves and games.
    """
    key = (depth, *heights)
    found = _CHEAPEST.get(key)
    if found is None:
        if len(_CHEAPEST) > 100_000:
            _CHEAPEST.clear()
        found = []
        for shape, rotations in enumerate(DISTINCT):
            best: Placement | None = None
            for r in rotations:
                o = ORIENTATIONS[shape][r]
                for c in range(len(heights) - o.width + 1):
                    cost = placement_cost(heights, depth, o, c)
                    if cost != float("inf") and (best is None or cost < best[0]):
                        best = (cost, r, c)
            found.append(best)
        _CHEAPEST[key] = found
    return found


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
        """How long this bot takes before its next action (game time, jittered ±20%), and
        never less than the wait for its hand."""
        if self.action_ms == 0:
            return hand_wait_ms(view)
        base = READY_MS if view["phase"] == "scored" else self.action_ms
        return max(int(base * (0.8 + 0.4 * self.rng.random())), hand_wait_ms(view))

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        """The best drop by value for room; the lid once nothing fits that Jack would
        probably leave alone (a treasure that fits always counts, holes or not)."""
        if len(legal) == 1:
            return legal[0]
        chances = claim_chances(view)
        # Colour only changes the chance Jack claims it: per shape, the safest in reach.
        safest: dict[int, int] = {}
        last = ""
        for action in legal:  # a treasure's drops come together: look at each once
            if type(action) is Drop and action.treasure != last:
                last = action.treasure
                t = TREASURE_INDEX[last]
                known = safest.get(SHAPE_OF[t])
                if known is None or chances[t] < chances[known]:
                    safest[SHAPE_OF[t]] = t
        cheapest = cheapest_placements(view["chests"][self.seat]["heights"], view["depth"])
        best: Action | None = None
        best_score = 0.0
        for shape, t in sorted(safest.items()):
            place = cheapest[shape]
            if place is None or chances[t] > MAX_CLAIM:
                continue  # it would be taken out when closing, or Jack would likely claim it
            score = drop_score(chances[t], place[0])
            if best is None or score > best_score:
                best, best_score = Drop(TREASURE_ID[t], place[1], place[2]), score
        if best is not None:  # in reach and below the rim: legal
            return best
        return next(a for a in legal if a.type == "close")


def _factory(speed: str, name: str) -> partial[PackingBot]:
    return partial(PackingBot, speed=speed, name=name)


BOTS: dict[str, partial[PackingBot]] = {
    "heuristic": _factory("adult", "heuristic"),
    **{f"packer-{speed}": _factory(speed, f"packer-{speed}") for speed in SPEEDS},
}
