"""Thieves Den's heuristic bot (placeholder: random)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from thievery.core.protocol import Action
from thievery.core.rng import Rng

JSON = dict[str, Any]


class HeuristicBot:
    """A sensible Thieves Den player."""

    name = "heuristic"

    def __init__(self, game: str, seat: int, rng: Rng) -> None:
        self.seat = seat
        self.rng = rng

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        return self.rng.choice(legal)
