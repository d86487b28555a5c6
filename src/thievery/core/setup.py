"""Helpers the games share: checking stacked decks, and a soft-max for search evaluations."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Any

from thievery.core.errors import InvalidOption


class CardIds:
    """Checks the card ids of stacked-deck options: known, listed as ids, none twice.

    >>> check = CardIds({"a", "b"})
    >>> check(["a"], "option 'pile_top'")
    >>> check(["a"], "option 'hands'")
    Traceback (most recent call last):
    ...
    thievery.core.errors.InvalidOption: option 'hands': card 'a' is used twice
    """

    def __init__(self, known: Collection[str]) -> None:
        self.known = known
        self.seen: set[str] = set()

    def __call__(self, ids: Any, where: str) -> None:
        if not isinstance(ids, list) or not all(isinstance(c, str) for c in ids):
            raise InvalidOption(f"{where} must be a list of card ids")
        for c in ids:
            if c not in self.known:
                raise InvalidOption(f"{where}: there is no card {c!r}")
            if c in self.seen:
                raise InvalidOption(f"{where}: card {c!r} is used twice")
            self.seen.add(c)


def soft_max(values: Sequence[float], temperature: float = 1.0) -> list[float]:
    """Shares in [0, 1] summing to 1, larger for larger values (a search bot's estimate of
    each seat's chance to win from estimated scores).

    >>> [round(x, 3) for x in soft_max([0.0, 0.0])]
    [0.5, 0.5]
    """
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]
