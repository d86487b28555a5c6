"""Der Schattendieb's heuristic bot, a few rules of thumb that read only its view and the
legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from thievery.core.protocol import Action
from thievery.core.rng import Rng
from thievery.games.schattendieb.cards import (
    ANY_KIND,
    CARD_INDEX,
    CATEGORY,
    CLOSE,
    JEWEL,
    KIND,
    N_CARDS,
    THIEF,
    VALUE,
)

JSON = dict[str, Any]


def _unseen(view: JSON) -> list[int]:
    """Cards this seat has not seen anywhere: other hands, the pile, face-down discards."""
    seen: set[int] = set()
    for group in (view["hand"], view["discard"], view["my_adds"], *view["safes"], *view["front"]):
        seen.update(CARD_INDEX[c] for c in group)
    for c in (*view["closed"], *view["table"], view["my_choice"]):
        if c is not None:
            seen.add(CARD_INDEX[c])
    return [c for c in range(N_CARDS) if c not in seen]


class HeuristicBot:
    """A sensible Der Schattendieb player.

    It values a jewellery card by what it banks (the card plus the same-kind cards it could
    add) discounted by the chance of a tie it can foresee (how many cards of that value are
    still unseen); closes its safe once the safe is worth it (less as the pile runs down, at
    once when that would leave a single open safe); plays thieves when there is something
    to take; steals the most valuable card; and adds cards while its Close Safe cards still
    fit.
    """

    name = "heuristic"

    def __init__(self, game: str, seat: int, rng: Rng) -> None:
        self.seat = seat
        self.rng = rng

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        kind = legal[0].type
        if kind == "steal":
            return max(legal, key=lambda a: VALUE[CARD_INDEX[a.card]])  # type: ignore[attr-defined]
        if kind in ("add", "done"):
            return self._add(view, legal)
        scored = [(self._play_value(view, a), self.rng.random(), a) for a in legal]
        return max(scored, key=lambda t: (t[0], t[1]))[2]

    # ------------------------------------------------------------------ step 1

    def _play_value(self, view: JSON, action: Action) -> float:
        me = self.seat
        card = CARD_INDEX[action.card]  # type: ignore[attr-defined]
        hand = [CARD_INDEX[c] for c in view["hand"]]
        safe = [CARD_INDEX[c] for c in view["safes"][me]]
        open_seats = [s for s, c in enumerate(view["closed"]) if c is None]
        rivals = [s for s in open_seats if s != me and view["hand_sizes"][s] > 0]
        unseen = _unseen(view)
        total = sum(VALUE[c] for c in safe)
        cat = CATEGORY[card]
        if cat == CLOSE:
            if not 1 <= len(safe) <= VALUE[card]:
                return 0.1  # a harmless pass: the card is discarded
            threshold = 12 + 28 * min(1.0, view["pile_size"] / 80)
            if len(open_seats) == 2 or total >= threshold:
                return 100.0 + total  # close now
            return -5.0
        if cat == THIEF:
            others_jewels = sum(1 for c in unseen if CATEGORY[c] == JEWEL) / max(1, len(unseen))
            expected = 1 - (1 - others_jewels) ** max(1, len(rivals))
            share = 1.0 if KIND[card] == ANY_KIND else 0.3
            return 6.0 * expected * share
        # Jewellery: its value plus what could be added, less the chance of a tie.
        same = [c for c in hand if c != card and CATEGORY[c] == JEWEL and KIND[c] == KIND[card]]
        value = VALUE[card] + 0.8 * sum(VALUE[c] for c in same)
        unseen_same_value = sum(
            1 for c in unseen if CATEGORY[c] == JEWEL and VALUE[c] == VALUE[card]
        )
        p_other = unseen_same_value / max(1, len(unseen))
        p_tie = 1 - (1 - p_other) ** len(rivals)
        thieves = sum(
            1 for c in unseen if CATEGORY[c] == THIEF and KIND[c] in (ANY_KIND, KIND[card])
        )
        p_steal = min(0.9, thieves * len(rivals) / max(1, len(unseen)))
        best_close = max((VALUE[c] for c in hand if CATEGORY[c] == CLOSE), default=99)
        crowding = 3.0 if len(safe) + 1 + len(same) > best_close else 0.0
        return value * (1 - p_tie) * (1 - 0.5 * p_steal) - crowding

    # ------------------------------------------------------------------ step 4

    def _add(self, view: JSON, legal: Sequence[Action]) -> Action:
        me = self.seat
        adds = [a for a in legal if a.type == "add"]
        done = next(a for a in legal if a.type == "done")
        hand = [CARD_INDEX[c] for c in view["hand"]]
        in_safe_after = len(view["safes"][me]) + len(view["front"][me]) + len(view["my_adds"])
        best_close = max((VALUE[c] for c in hand if CATEGORY[c] == CLOSE), default=None)
        keep = 1 if view["pile_size"] == 0 else 0
        if len(hand) - 1 < keep:
            return done
        best = max(adds, key=lambda a: VALUE[CARD_INDEX[a.card]])  # type: ignore[attr-defined]
        if best_close is not None and in_safe_after + 1 > best_close:
            return done
        if VALUE[CARD_INDEX[best.card]] < 3:  # type: ignore[attr-defined]
            return done
        return best
