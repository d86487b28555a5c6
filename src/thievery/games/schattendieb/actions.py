"""Der Schattendieb's actions: the four decisions a seat can take (``play``, ``steal``,
``add``, ``done``) as small frozen values with a JSON form, interned once per card so that
``legal_actions`` and ``parse_action`` build no new objects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from thievery.core.protocol import Action
from thievery.games.schattendieb.cards import CARD_ID


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Step 1: play a hand card face down."""

    type: ClassVar[str] = "play"
    card: str


@dataclass(frozen=True, slots=True)
class Steal(Action):
    """Step 3: the thief's owner takes this revealed jewellery card."""

    type: ClassVar[str] = "steal"
    card: str


@dataclass(frozen=True, slots=True)
class Add(Action):
    """Step 4: add this hand card (same kind as the revealed one); repeatable."""

    type: ClassVar[str] = "add"
    card: str


@dataclass(frozen=True, slots=True)
class Done(Action):
    """Step 4: add nothing more."""

    type: ClassVar[str] = "done"


# Interned action values, indexed by card number: legal_actions builds no new objects.
PLAYS = [Play(c) for c in CARD_ID]
STEALS = [Steal(c) for c in CARD_ID]
ADDS = [Add(c) for c in CARD_ID]
DONE = Done()
