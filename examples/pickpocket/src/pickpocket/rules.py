"""Pickpocket's rules: the state, its legal actions, how they apply, and every seat's view.

Each player holds a few loot cards in secret. On your turn you either bank a card (it goes
face down into your vault) or pick a pocket (a random card of another player's hand goes
face up into your vault); either way you then draw a card from the deck while it lasts.
When nothing can be banked or picked, you pass. After ``rounds`` rounds (everyone one turn a
round, from a first player drawn with the seed) the vaults are counted: the highest total
wins, ties share the win. Cards still in hand count nothing.

Hidden: the other hands, the deck, and what lies face down in the other vaults. Public:
hand and deck sizes, and every stolen card (face up in the thief's vault).
"""

from __future__ import annotations

from bisect import insort
from typing import Any, ClassVar

from thievery.core.protocol import JSON, Action, Event, GameSpec, State
from thievery.core.rng import Rng, make_rng

from pickpocket.actions import BANKS, PASS, PICKS, Bank, Pass, Pick
from pickpocket.cards import ALL_CARDS, CARD, CARD_ID, CARD_INDEX, FACE_UP, VALUE
from pickpocket.view import view_of


class Pickpocket(State):
    """A game of Pickpocket in progress: flat lists of ints, cheap to clone."""

    __slots__ = (
        "_history",
        "_to_act",
        "deck",
        "first",
        "hands",
        "options",
        "players",
        "rng",
        "seed",
        "total",
        "turn",
        "vaults",
    )

    spec: ClassVar[GameSpec]  # set by the package's __init__

    players: int
    seed: int
    options: JSON
    rng: Rng
    hands: list[list[int]]  # each sorted
    deck: list[int]  # the top is the end of the list
    vaults: list[list[int]]  # per seat, in the order banked or stolen: card | FACE_UP
    first: int  # the seat that plays first
    turn: int  # turns played so far
    total: int  # turns in the game: rounds * players
    _to_act: tuple[int, ...]
    _history: tuple[Any, ...] | None

    # ---------------------------------------------------------------- setup

    @classmethod
    def start(cls, players: int, seed: int, options: JSON) -> Pickpocket:
        """A new game; ``options`` already resolved and checked by the spec."""
        s = object.__new__(cls)
        s.players, s.seed, s.options = players, seed, options
        s.rng = rng = make_rng(seed)
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        s.hands = [sorted(deck.pop() for _ in range(options["hand"])) for _ in range(players)]
        s.deck = deck
        s.vaults = [[] for _ in range(players)]
        s.first = rng.below(players)
        s.turn = 0
        s.total = options["rounds"] * players
        s._to_act = (s.first,)
        s._history = None
        return s

    def clone(self) -> Pickpocket:
        c = object.__new__(Pickpocket)
        c.players, c.seed, c.options = self.players, self.seed, self.options
        c.rng = self.rng.copy()
        c.hands = [h[:] for h in self.hands]
        c.deck = self.deck[:]
        c.vaults = [v[:] for v in self.vaults]
        c.first, c.turn, c.total = self.first, self.turn, self.total
        c._to_act = self._to_act
        c._history = self._history
        return c

    # ---------------------------------------------------------------- protocol

    @property
    def to_act(self) -> tuple[int, ...]:
        return self._to_act

    @property
    def current(self) -> int:
        """The seat whose turn it is (once over: the seat that would be next)."""
        return (self.first + self.turn) % self.players

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self._to_act:
            return []
        out: list[Action] = [BANKS[c] for c in self.hands[seat]]
        out += [PICKS[t] for t in range(self.players) if t != seat and self.hands[t]]
        return out or [PASS]

    def is_legal(self, seat: int, action: Action) -> bool:
        if seat not in self._to_act:
            return False
        if isinstance(action, Bank):
            return CARD_INDEX.get(action.card, -1) in self.hands[seat]
        if isinstance(action, Pick):
            t = action.target  # an int from parse_action, but a value can be made by hand
            return type(t) is int and 0 <= t < self.players and t != seat and bool(self.hands[t])
        if isinstance(action, Pass):
            return not any(self.hands)
        return False

    def why_illegal(self, seat: int, action: Action) -> str:
        if not self._to_act or seat not in self._to_act:
            return super().why_illegal(seat, action)
        if isinstance(action, Bank):
            return f"{action.card} is not in your hand"
        if isinstance(action, Pick):
            t = action.target
            if type(t) is not int or not 0 <= t < self.players:
                return f"there is no seat {t} (seats are 0 to {self.players - 1})"
            if t == seat:
                return "you cannot pick your own pocket"
            return f"seat {t} has no card in hand to pick"
        if isinstance(action, Pass):
            return "you may pass only when there is nothing to bank and no pocket to pick"
        return super().why_illegal(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        drew = bool(self.deck)  # either way, the player then draws a card if there is one
        if isinstance(action, Bank):
            card = CARD_INDEX[action.card]
            self.hands[seat].remove(card)
            self.vaults[seat].append(card)
            events.append(Event("bank", {"seat": seat, "drew": drew}))
        elif isinstance(action, Pick):
            victim = self.hands[action.target]
            card = victim.pop(self.rng.below(len(victim)))
            self.vaults[seat].append(card | FACE_UP)
            data = {"seat": seat, "target": action.target, "card": CARD_ID[card], "drew": drew}
            events.append(Event("pick", data))
        else:
            events.append(Event("pass", {"seat": seat}))
        if drew and not isinstance(action, Pass):
            new = self.deck.pop()
            insort(self.hands[seat], new)
            events.append(Event("drew", {"seat": seat, "card": CARD_ID[new]}, audience=seat))
        self._next(events)
        return events

    def _next(self, events: list[Event]) -> None:
        """The turn is over: the next seat's turn, a new round, or the end of the game."""
        self.turn += 1
        if self.turn >= self.total:
            self._to_act = ()
            vaults = [[CARD_ID[e & CARD] for e in v] for v in self.vaults]
            events.append(Event("game_over", {**(self.result() or {}), "vaults": vaults}))
            return
        if self.turn % self.players == 0:
            rounds = self.total // self.players
            events.append(Event("round", {"round": self.turn // self.players + 1, "of": rounds}))
        self._to_act = (self.current,)

    # ---------------------------------------------------------------- reading

    def scores(self) -> list[int]:
        """Every vault's total (what a seat may not know: use the view for that)."""
        return [sum(VALUE[e & CARD] for e in v) for v in self.vaults]

    def result(self) -> JSON | None:
        if self.turn < self.total:
            return None
        scores = self.scores()
        best = max(scores)
        return {"scores": scores, "winners": [s for s, v in enumerate(scores) if v == best]}

    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may know (``None``: a spectator): :func:`pickpocket.view.view_of`."""
        return view_of(self, seat)

    def locations(self) -> dict[str, list[int]]:
        places: dict[str, list[int]] = {"deck": self.deck}
        for s in range(self.players):
            places[f"hand{s}"] = self.hands[s]
            places[f"vault{s}"] = [e & CARD for e in self.vaults[s]]
        return places
