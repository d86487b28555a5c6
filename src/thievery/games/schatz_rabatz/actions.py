"""Schatz-Rabatz's actions: the three decisions a seat can take (``drop``, ``close``,
``ready``) as small frozen values with a JSON form, interned once so that
``legal_actions`` and ``parse_action`` build no new objects. The clock's ``tick`` is
core's (:class:`thievery.core.protocol.Tick`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from thievery.core.protocol import Action
from thievery.games.schatz_rabatz.data import MAX_WIDTH as MAX_WIDTH  # (drops interned)
from thievery.games.schatz_rabatz.pieces import N_TREASURES, TREASURE_ID


@dataclass(frozen=True, slots=True)
class Drop(Action):
    """Take ``treasure`` from the pool, turn it ``rotation`` quarter turns clockwise and
    drop it with its left edge over ``column``."""

    type: ClassVar[str] = "drop"
    treasure: str
    rotation: int
    column: int


@dataclass(frozen=True, slots=True)
class Close(Action):
    """Put the lid on: no more treasures for this seat this round."""

    type: ClassVar[str] = "close"


@dataclass(frozen=True, slots=True)
class Ready(Action):
    """Ready for the next round (after the scoring)."""

    type: ClassVar[str] = "ready"


# Interned action values: DROPS[treasure][rotation * MAX_WIDTH + column].
DROPS: tuple[tuple[Drop, ...], ...] = tuple(
    tuple(Drop(TREASURE_ID[t], r, c) for r in range(4) for c in range(MAX_WIDTH))
    for t in range(N_TREASURES)
)
CLOSE = Close()
READY = Ready()
