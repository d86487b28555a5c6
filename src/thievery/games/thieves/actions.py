"""Thieves!'s actions: the card to play (``play``, money ``to`` a seat) and the follow-ups
a Roadblock and a Thief ask for (``remove``, ``move``, or ``pass`` to decline the Thief's
move), as small frozen values with a JSON form, interned in tables so that
``legal_actions`` and ``parse_action`` build no new objects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from thievery.core.protocol import JSON, Action
from thievery.games.thieves.cards import ALL_CARDS, CARD_ID, GETAWAY, KIND, MONEY

MAX_SEATS = 6
MAX_SLOTS = 26  # there are 26 money cards


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card: money goes ``to`` a seat (your own: face down), other cards have none."""

    type: ClassVar[str] = "play"
    card: str
    to: int | None = None

    def to_json(self) -> JSON:
        if self.to is None:
            return {"type": "play", "card": self.card}
        return {"type": "play", "card": self.card, "to": self.to}


@dataclass(frozen=True, slots=True)
class Remove(Action):
    """Roadblock: discard this police card from play."""

    type: ClassVar[str] = "remove"
    card: str


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Thief: move the loot card in ``slot`` of seat ``source`` to seat ``to``.

    Its JSON form calls ``source`` ``from``: ``{"type": "move", "from": 0, "slot": 1,
    "to": 2}``.
    """

    type: ClassVar[str] = "move"
    source: int
    slot: int
    to: int

    def to_json(self) -> JSON:
        return {"type": "move", "from": self.source, "slot": self.slot, "to": self.to}


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Thief: decline to move anything (the move is optional); ``{"type": "pass"}``."""

    type: ClassVar[str] = "pass"


# Interned action values: legal_actions and parse_action build no new objects.
PLAY_TO = [[Play(cid, t) for t in range(MAX_SEATS)] for cid in CARD_ID]
PLAY_ONE = [Play(cid) for cid in CARD_ID]
REMOVES = [Remove(cid) for cid in CARD_ID]
PASS = Pass()
MOVES = [
    [[Move(f, slot, t) for t in range(MAX_SEATS)] for slot in range(MAX_SLOTS)]
    for f in range(MAX_SEATS)
]
# PLAYABLE[n][card]: every way to play ``card`` with ``n`` seats.
PLAYABLE: list[list[list[Action]]] = [
    [
        list(PLAY_TO[c][:n]) if KIND[c] == MONEY else [] if KIND[c] == GETAWAY else [PLAY_ONE[c]]
        for c in ALL_CARDS
    ]
    for n in range(MAX_SEATS + 1)
]
