"""Pickpocket's heuristic bot: it reads only its view and the legal actions.

Banking your best card is worth its value. A picked pocket is worth, on average, the mean
value of the cards you have not seen, plus what it denies the victim: a card they would
have banked if they have turns enough left to bank their whole hand. The bot takes the
best of these (ties at random).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from thievery.core.protocol import Action
from thievery.core.rng import Rng

from pickpocket.actions import Bank, Pick
from pickpocket.cards import CARD_ID, VALUE, value_of

JSON = dict[str, Any]


def unseen_mean(view: JSON) -> float:
    """The mean value of the cards this seat has not seen (in other hands, the deck, or
    face down in other vaults)."""
    seen = set(view["hand"])
    seen.update(slot["card"] for vault in view["vaults"] for slot in vault if slot["card"])
    values = [VALUE[c] for c, cid in enumerate(CARD_ID) if cid not in seen]
    return sum(values) / len(values) if values else 0.0


def turns_left(view: JSON, seat: int) -> int:
    """How many turns ``seat`` still has, this one included if it is ``seat``'s."""
    n = view["players"]
    remaining = view["rounds"] * n - view["turn"]
    ahead = (seat - view["current"]) % n  # turns before ``seat``'s next one
    return 0 if remaining <= ahead else (remaining - ahead + n - 1) // n


class HeuristicBot:
    """A sensible Pickpocket player."""

    name = "heuristic"

    def __init__(self, game: str, seat: int, rng: Rng) -> None:
        self.seat = seat
        self.rng = rng

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        guess = unseen_mean(view)
        scored = [(self.score(view, a, guess), self.rng.random(), a) for a in legal]
        return max(scored, key=lambda t: (t[0], t[1]))[2]

    def score(self, view: JSON, action: Action, guess: float) -> float:
        """How much ``action`` is worth to this seat, roughly in loot."""
        if isinstance(action, Bank):
            return float(value_of(action.card))
        if isinstance(action, Pick):
            t = action.target
            # A victim with fewer turns than cards would never have banked them all.
            denial = 0.5 if view["hand_sizes"][t] <= turns_left(view, t) else 0.2
            return guess * (1 + denial)
        return 0.0
