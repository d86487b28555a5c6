"""Thieves!'s determinizer: full states consistent with one seat's view, hidden cards
re-sampled. The view is read once; each :meth:`Determinizer.sample` is a fresh draw.

Hidden from a seat: other hands, face-down loot it has not seen, a Double Loot card another
player is holding, and the deck's contents and order. What the view implies is kept:
face-down loot and a Double Loot card waiting to be played are money; hands never hold
getaways, and at least ``police_free`` cards of each hand are not police; every getaway
not placed is in the deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from thievery.core.protocol import GameSpec
from thievery.core.rng import Rng
from thievery.games.thieves.cards import (
    ALL_CARDS,
    CARD_INDEX,
    CARS,
    GETAWAY,
    KIND,
    MONEY,
    POLICE,
)
from thievery.games.thieves.rules import EXPOSED, FACE_UP, PHASE_NAMES, Thieves

IS_MONEY = [KIND[c] == MONEY for c in ALL_CARDS]
IS_CLEAN = [KIND[c] != POLICE and KIND[c] != GETAWAY for c in ALL_CARDS]
IS_HELD = [KIND[c] != GETAWAY for c in ALL_CARDS]


def _ids(cards: list[str]) -> list[int]:
    return [CARD_INDEX[c] for c in cards]


class Determinizer:
    """Reads one seat's view; :meth:`sample` draws a consistent full state."""

    def __init__(self, spec: GameSpec, view: Mapping[str, Any]) -> None:
        seat = view["seat"]
        if seat is None:
            raise ValueError("determinize needs a seat's view, not a spectator's")
        n = view["players"]
        self.seat = seat
        t = self.template = object.__new__(Thieves)
        t.players, t.seed = n, 0
        t.options = {**spec.defaults(), **view["options"]}
        t.rng = Rng(0)
        t.all_busted = t.options["raid_ties"] == "all_busted"
        t.phase = PHASE_NAMES.index(view["phase"])
        t.current, t.first, t.turn = view["current"], view["first_player"], view["turn"]
        t._to_act = tuple(view["to_act"])
        t._history = None
        t.last_raid = view["last_raid"]
        t.extra = view["double_loot_draws"]
        t.clean = list(view["police_free"])
        t.police = _ids(view["police"])
        t.cars = sum(CARS[c] for c in t.police)
        t.getaways = _ids(view["getaways"])
        t.discard = _ids(view["discard"])
        t.acting = CARD_INDEX[view["resolving"]] if view["resolving"] is not None else -1
        known: set[int] = set(t.police) | set(t.getaways) | set(t.discard)
        if t.acting >= 0:
            known.add(t.acting)
        t.hands = [[] for _ in range(n)]
        t.hands[seat] = _ids(view["hand"])
        known.update(t.hands[seat])
        t.drawn = -1
        self.hidden_drawn = False
        if view["drawn"] is not None:
            t.drawn = CARD_INDEX[view["drawn"]]
            known.add(t.drawn)
        elif view["phase"] == "double_loot":
            self.hidden_drawn = True
        t.loot = []
        self.hidden_slots: list[tuple[int, int]] = []
        for s, row in enumerate(view["loot"]):
            exposed = set(view["exposed"][s])
            out: list[int] = []
            for i, slot in enumerate(row):
                flags = FACE_UP if slot["face_up"] else EXPOSED if i in exposed else 0
                if slot["card"] is None:
                    self.hidden_slots.append((s, i))
                    out.append(flags)
                else:
                    card = CARD_INDEX[slot["card"]]
                    known.add(card)
                    out.append(card | flags)
            t.loot.append(out)
        t.deck = []
        self.pool = [c for c in ALL_CARDS if c not in known]
        self.others = [s for s in range(n) if s != seat]
        self.sizes = list(view["hand_sizes"])
        self.deck_size = view["deck_size"]

    def sample(self, rng: Rng) -> Thieves:
        """A fresh full state consistent with the view."""
        s = self.template.clone()
        s.rng = Rng(rng.next64())
        pool = self.pool[:]
        rng.shuffle(pool)
        # Greedy, most constrained first (the true state shows it always fits): hidden loot
        # and a hidden Double Loot card are money; then each hand's police-free part; then
        # the rest of the hands from anything but getaways; the deck keeps what is left.
        money = [c for c in pool if IS_MONEY[c]]
        wanted = len(self.hidden_slots) + self.hidden_drawn
        if len(money) < wanted:
            raise ValueError("no full state is consistent with this view")
        for (t, i), card in zip(self.hidden_slots, money, strict=False):
            s.loot[t][i] |= card
        if self.hidden_drawn:
            s.drawn = money[wanted - 1]
        used = set(money[:wanted])
        clean = [c for c in pool if IS_CLEAN[c] and c not in used]
        taken = 0
        for t in self.others:
            s.hands[t] = clean[taken : taken + s.clean[t]]
            taken += s.clean[t]
        if taken > len(clean):
            raise ValueError("no full state is consistent with this view")
        used.update(clean[:taken])
        held = [c for c in pool if IS_HELD[c] and c not in used]
        take = 0
        for t in self.others:
            size = self.sizes[t] - s.clean[t]
            hand = s.hands[t]
            hand += held[take : take + size]
            take += size
            if s.clean[t] and size:
                rng.shuffle(hand)
        if take > len(held):
            raise ValueError("no full state is consistent with this view")
        used.update(held[:take])
        s.deck = [c for c in pool if c not in used]
        if len(s.deck) != self.deck_size:
            raise ValueError("the view's card counts do not add up")
        return s
