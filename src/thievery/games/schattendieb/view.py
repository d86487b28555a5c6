"""Der Schattendieb's views read back: the determinizer, which rebuilds a full state from
one seat's view with everything hidden re-sampled (the view itself is ``rules.view``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from thievery.core.protocol import GameSpec
from thievery.core.rng import Rng
from thievery.games.schattendieb.cards import (
    ALL_CARDS,
    CARD_INDEX,
    KIND,
    KINDS,
)
from thievery.games.schattendieb.rules import (
    PHASE_NAMES,
    Schattendieb,
)


class Determinizer:
    """A seat's view parsed once into a template state and the pool of unseen cards;
    :meth:`sample` deals the pool into the hidden places."""

    def __init__(self, spec: GameSpec, view: Mapping[str, Any], *, quiet: bool = False) -> None:
        seat = view["seat"]
        if seat is None:
            raise ValueError("determinize needs a seat's view, not a spectator's")
        n = view["players"]
        s = object.__new__(Schattendieb)
        s.players, s.seed = n, 0
        s.options = {**spec.defaults(), **view["options"]}
        s.rng = Rng(0)
        s.games, s.game_no, s.dealer = view["games"], view["game_no"] - 1, view["dealer"]
        s.totals = list(view["scores"])
        s.game_scores = [list(g) for g in view["game_scores"]]
        last = view["last_round"]
        s.last_round = last and [
            last["round"],
            [CARD_INDEX[c] if c is not None else -1 for c in last["revealed"]],
            [[CARD_INDEX[c] for c in a] for a in last["added"]],
            list(last["closed"]),
            last["ended"],
        ]
        s._history = None
        s.quiet = quiet
        s.phase = PHASE_NAMES.index(view["phase"])
        s.round_no = view["round"]

        def ids(cards: list[str]) -> list[int]:
            return [CARD_INDEX[c] for c in cards]

        def one(card: str | None) -> int:
            return CARD_INDEX[card] if card is not None else -1

        s.safes = [ids(x) for x in view["safes"]]
        s.closed = [one(c) for c in view["closed"]]
        s.discard = ids(view["discard"])
        s.burned = []
        s.pile = []
        s.front = [ids(x) for x in view["front"]]
        s.table = [one(c) for c in view["table"]]
        s.revealed = [one(c) for c in view["revealed"]]
        s.steal_queue = [(t, CARD_INDEX[c]) for t, c in view["thieves"]]
        s.add_kind = [KINDS.index(k) if k is not None else -1 for k in view["add_kinds"]]
        s.add_asked = list(view["add_asked"])
        s.add_done = list(view["add_done"])
        s._to_act = tuple(view["to_act"])
        s.choice = [-1] * n
        s.adds = [[] for _ in range(n)]
        s.hands = [[] for _ in range(n)]
        s.hands[seat] = ids(view["hand"])
        s.adds[seat] = ids(view["my_adds"])
        if view["my_choice"] is not None:
            s.choice[seat] = CARD_INDEX[view["my_choice"]]
        known = {
            c
            for place in (*s.safes, *s.front, s.discard, s.hands[seat], s.adds[seat])
            for c in place
        }
        known.update(c for c in (*s.closed, *s.table, s.choice[seat]) if c >= 0)
        self.template = s
        self.pool = [c for c in ALL_CARDS if c not in known]
        self.burned = view["discard_size"] - len(view["discard"])
        self.pile_size = view["pile_size"]
        self.chosen = list(view["chosen"])
        # Each other seat's hidden hand: (seat, size, kind, +1 must hold it / -1 none / 0).
        self.demands: list[tuple[int, int, int, int]] = []
        for t in range(n):
            if t == seat:
                continue
            size = view["hand_sizes"][t] + (1 if self.chosen[t] else 0)
            rule, kind = 0, s.add_kind[t]
            if view["phase"] == "add" and kind >= 0:
                if not s.add_asked[t]:
                    rule = -1
                elif t in s._to_act:
                    rule = 1
            self.demands.append((t, size, kind, rule))
        self.demands.sort(key=lambda d: -abs(d[3]))  # constrained seats first
        self.constrained = any(d[3] for d in self.demands)
        if sum(d[1] for d in self.demands) + self.burned + self.pile_size != len(self.pool):
            raise ValueError("the view's card counts do not add up")

    def _deal(self, pool: list[int]) -> dict[int, list[int]] | None:
        hands: dict[int, list[int]] = {}
        if not self.constrained:
            at = 0
            for t, size, _, _ in self.demands:
                hands[t] = pool[at : at + size]
                at += size
            del pool[:at]
            return hands
        for t, size, kind, rule in self.demands:
            if rule == -1:
                hand = [c for c in pool if KIND[c] != kind][:size]
                if len(hand) < size:
                    return None
            elif rule == 1:
                first = next((c for c in pool if KIND[c] == kind), None)
                if first is None or size < 1:
                    return None
                hand = [first, *[c for c in pool if c != first][: size - 1]]
            else:
                hand = pool[:size]
            taken = set(hand)
            pool[:] = [c for c in pool if c not in taken]
            hands[t] = hand
        return hands

    def sample(self, rng: Rng) -> Schattendieb:
        """A new full state consistent with the view."""
        for _ in range(1000):
            pool = self.pool[:]
            rng.shuffle(pool)
            hands = self._deal(pool)
            if hands is not None:
                break
        else:
            raise ValueError("no full state is consistent with this view")
        s = self.template.clone()
        s.rng = Rng(rng.next64())
        for t, hand in hands.items():
            if self.chosen[t]:
                s.choice[t] = hand.pop()
            s.hands[t] = hand
        s.burned = pool[: self.burned]
        s.pile = pool[self.burned :]
        return s
