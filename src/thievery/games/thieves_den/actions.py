"""Thieves Den's actions: small immutable values with a JSON form, interned for speed.

Main actions (``steal``, ``fence``, ``power``, ``witch``, ``burgle``, ``recruit``,
``pass``), the Scouting ``pick``, and the small decisions inside abilities
(``treasure``, ``opponent``, ``location``, ``return_fence``, ``skip``) and Cleanup
(``give``). Card-based actions are interned per card set by :func:`interned`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from thievery.core.protocol import Action
from thievery.games.thieves_den.cards import TREASURES, CardSet


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """Scouting: keep this Location card from your hand (sealed until all have picked)."""

    type: ClassVar[str] = "pick"
    card: str


@dataclass(frozen=True, slots=True)
class Steal(Action):
    """Put a Thief on this Location card's Action Spot and use its ability."""

    type: ClassVar[str] = "steal"
    card: str


@dataclass(frozen=True, slots=True)
class Fence(Action):
    """Sell this Fence its desires for its Prestige (placing a Thief on it)."""

    type: ClassVar[str] = "fence"
    card: str


@dataclass(frozen=True, slots=True)
class Power(Action):
    """Place one treasure (``pay``) beside this face-up Power tile and use it."""

    type: ClassVar[str] = "power"
    tile: str
    pay: str


@dataclass(frozen=True, slots=True)
class Witch(Action):
    """Deliver one treasure to the Witch's free spot of its type for Prestige."""

    type: ClassVar[str] = "witch"
    treasure: str


@dataclass(frozen=True, slots=True)
class Burgle(Action):
    """Spend 2 Thieves for 1 treasure of this type from the supply."""

    type: ClassVar[str] = "burgle"
    treasure: str


@dataclass(frozen=True, slots=True)
class Recruit(Action):
    """Spend these 2 treasures (``first`` not after ``second`` in treasure order) for 1 Thief."""

    type: ClassVar[str] = "recruit"
    first: str
    second: str


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Take no more actions this round (and be safe from other players' actions)."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class ChooseTreasure(Action):
    """Within an ability: this treasure type (to gain, take, destroy, pay or return)."""

    type: ClassVar[str] = "treasure"
    treasure: str


@dataclass(frozen=True, slots=True)
class ChooseOpponent(Action):
    """Within an ability: this opponent is the target."""

    type: ClassVar[str] = "opponent"
    seat: int


@dataclass(frozen=True, slots=True)
class ChooseLocation(Action):
    """Within an ability: this Location card (Recall, Sleight, Swap)."""

    type: ClassVar[str] = "location"
    card: str


@dataclass(frozen=True, slots=True)
class ReturnFence(Action):
    """Within New Buyers: return this Fence of the row to the bottom of the deck."""

    type: ClassVar[str] = "return_fence"
    card: str


@dataclass(frozen=True, slots=True)
class Skip(Action):
    """Decline an optional step (a follow-up action, the rest of an "up to" gain)."""

    type: ClassVar[str] = "skip"


@dataclass(frozen=True, slots=True)
class Give(Action):
    """Cleanup step 7 tie: give the Direction tile to this tied seat."""

    type: ClassVar[str] = "give"
    seat: int


MAX_SEATS = 5
WITCHES = [Witch(t) for t in TREASURES]
BURGLES = [Burgle(t) for t in TREASURES]
TREASURE_CHOICES = [ChooseTreasure(t) for t in TREASURES]
RECRUITS = {(a, b): Recruit(TREASURES[a], TREASURES[b]) for a in range(5) for b in range(a, 5)}
RECRUIT_PAIRS = tuple(RECRUITS)
OPPONENTS = [ChooseOpponent(s) for s in range(MAX_SEATS)]
GIVES = [Give(s) for s in range(MAX_SEATS)]
PASS = Pass()
SKIP = Skip()
TREASURE_INDEX = {t: i for i, t in enumerate(TREASURES)}


def interned(cs: CardSet) -> dict[str, list[Any]]:
    """The card set's interned actions (made once per set)."""
    if not cs.actions:
        cs.actions = {
            "pick": [Pick(c) for c in cs.loc_id],
            "steal": [Steal(c) for c in cs.loc_id],
            "location": [ChooseLocation(c) for c in cs.loc_id],
            "fence": [Fence(f) for f in cs.fence_id],
            "return_fence": [ReturnFence(f) for f in cs.fence_id],
            "power": [[Power(p, t) for t in TREASURES] for p in cs.power_id],
        }
    return cs.actions
