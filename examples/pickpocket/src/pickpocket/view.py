"""Pickpocket's view and its inverse: :func:`view_of`, what one seat may know, and the
determinizer, full states consistent with one seat's view, everything the seat cannot
see re-sampled (the other hands, the deck, the other seats' banked cards).

Search bots play on these samples, never on the true state, so nothing they decide can
depend on a card still hidden from them. Nothing the view shows changes: a sample's view
for that seat, and its legal actions, are the view and legal actions it came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from thievery.core.protocol import JSON, GameSpec
from thievery.core.rng import Rng

from pickpocket.cards import ALL_CARDS, CARD, CARD_ID, CARD_INDEX, FACE_UP

if TYPE_CHECKING:
    from pickpocket.rules import Pickpocket


def view_of(state: Pickpocket, seat: int | None) -> JSON:
    """What ``seat`` may know (``None``: a spectator): its own hand, everyone's hand
    size, the deck size, every vault slot (``card`` is null where the seat cannot see
    it: another seat's banked card, until the game is over), the round, whose turn it
    is, the public options and the result."""
    over = state.turn >= state.total
    players = state.players
    return {
        "game": "pickpocket",
        "players": players,
        "seat": seat,
        "options": state.spec.public_options(state.options),
        "round": min(state.turn // players, state.total // players - 1) + 1,
        "rounds": state.total // players,
        "turn": state.turn,
        "first_player": state.first,
        "current": None if over else state.current,
        "to_act": list(state._to_act),
        "hand": [CARD_ID[c] for c in state.hands[seat]] if seat is not None else [],
        "hand_sizes": [len(h) for h in state.hands],
        "deck_size": len(state.deck),
        "vaults": [
            [
                {
                    "card": CARD_ID[e & CARD] if e & FACE_UP or s == seat or over else None,
                    "face_up": bool(e & FACE_UP),
                }
                for e in vault
            ]
            for s, vault in enumerate(state.vaults)
        ],
        "result": state.result(),
    }


class Determinizer:
    """Reads one seat's view once; :meth:`sample` draws a fresh consistent full state."""

    def __init__(self, spec: GameSpec, view: Mapping[str, Any]) -> None:
        seat = view["seat"]
        if seat is None:
            raise ValueError("determinize needs a seat's view, not a spectator's")
        n = view["players"]
        self.seat: int = seat
        from pickpocket.rules import Pickpocket  # rules imports this module

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
