"""Pickpocket's actions: bank a card, pick a pocket, or pass; small frozen values with a
JSON form, interned so that ``legal_actions`` and ``parse_action`` build no new objects.

>>> parse_action({"type": "bank", "card": "watch-7"}) is BANKS[CARD_INDEX["watch-7"]]
True
>>> parse_action({"type": "pick", "target": 2}).to_json()
{'type': 'pick', 'target': 2}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from thievery.core.errors import MalformedAction
from thievery.core.protocol import Action, parse_fields

from pickpocket.cards import CARD_ID, CARD_INDEX

MAX_PLAYERS = 3


@dataclass(frozen=True, slots=True)
class Bank(Action):
    """Put ``card`` from your hand face down into your vault."""

    type: ClassVar[str] = "bank"
    card: str


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """Pick ``target``'s pocket: a random card of their hand goes face up into your vault."""

    type: ClassVar[str] = "pick"
    target: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Nothing to bank and no pocket to pick: the turn passes."""

    type: ClassVar[str] = "pass"


BANKS = tuple(Bank(cid) for cid in CARD_ID)  # by card
PICKS = tuple(Pick(t) for t in range(MAX_PLAYERS))  # by target seat
PASS = Pass()


def parse_action(data: Mapping[str, Any]) -> Action:
    """An action from its JSON form; :class:`MalformedAction` if it is not one. Whether it
    is legal now is the state's question, not this one's."""
    kind = data.get("type")
    if kind == "bank":
        (card,) = parse_fields(data, ["card"], kind="bank")
        if not isinstance(card, str) or card not in CARD_INDEX:
            raise MalformedAction(f"there is no card {card!r}")
        return BANKS[CARD_INDEX[card]]
    if kind == "pick":
        (target,) = parse_fields(data, ["target"], kind="pick")
        if isinstance(target, bool) or not isinstance(target, int):
            raise MalformedAction(f"a pick's target is a seat number, not {target!r}")
        return PICKS[target] if 0 <= target < MAX_PLAYERS else Pick(target)
    if kind == "pass":
        parse_fields(data, [], kind="pass")
        return PASS
    raise MalformedAction(f"unknown action type {kind!r} (types: bank, pick, pass)")
