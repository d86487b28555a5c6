"""Pickpocket's determinizer: full states consistent with one seat's view, everything the
seat cannot see re-sampled (the other hands, the deck, the other seats' banked cards).

Search bots play on these samples, never on the true state, so nothing they decide can
depend on a card still hidden from them. Nothing the view shows changes: a sample's view
for that seat, and its legal actions, are the view and legal actions it came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from thievery.core.protocol import GameSpec
from thievery.core.rng import Rng

from pickpocket.cards import ALL_CARDS, CARD_INDEX
from pickpocket.rules import FACE_UP, Pickpocket


class Determinizer:
    """Reads one seat's view once; :meth:`sample` draws a fresh consistent full state."""

    def __init__(self, spec: GameSpec, view: Mapping[str, Any]) -> None:
        seat = view["seat"]
        if seat is None:
            raise ValueError("determinize needs a seat's view, not a spectator's")
        n = view["players"]
        self.seat: int = seat
        t = self.template = object.__new__(Pickpocket)
        t.players, t.seed = n, 0
        t.options = {**spec.defaults(), **view["options"]}
        t.rng = Rng(0)
        t.first, t.turn, t.total = view["first_player"], view["turn"], view["rounds"] * n
        t._to_act = tuple(view["to_act"])
        t._history = None
        t.hands = [[] for _ in range(n)]
        t.hands[seat] = [CARD_INDEX[c] for c in view["hand"]]
        known = set(t.hands[seat])
        t.vaults = []
        self.hidden: list[tuple[int, int]] = []  # (seat, slot) of every unseen vault card
        for s, vault in enumerate(view["vaults"]):
            slots: list[int] = []
            for i, slot in enumerate(vault):
                flag = FACE_UP if slot["face_up"] else 0
                if slot["card"] is None:
                    self.hidden.append((s, i))
                    slots.append(flag)
                else:
                    card = CARD_INDEX[slot["card"]]
                    known.add(card)
                    slots.append(card | flag)
            t.vaults.append(slots)
        t.deck = []
        self.pool = [c for c in ALL_CARDS if c not in known]
        self.sizes: list[int] = list(view["hand_sizes"])
        unseen = sum(self.sizes) - self.sizes[seat] + len(self.hidden) + view["deck_size"]
        if len(self.pool) != unseen:
            raise ValueError("the view's card counts do not add up")

    def sample(self, rng: Rng) -> Pickpocket:
        """A fresh full state consistent with the view (its own random stream too)."""
        s = self.template.clone()
        s.rng = Rng(rng.next64())
        pool = self.pool[:]
        rng.shuffle(pool)
        for seat, slot in self.hidden:
            s.vaults[seat][slot] |= pool.pop()
        for seat, size in enumerate(self.sizes):
            if seat != self.seat:
                s.hands[seat] = sorted(pool.pop() for _ in range(size))
        s.deck = pool
        return s
