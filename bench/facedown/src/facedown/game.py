"""Face Down: the cards, the one action, the state, every seat's view, the determinizer and
the spec. The rules are boardgame.io's harness game ``facedown`` (see ``RULES.md``).

Inside the engine a card is an int 0 to 51 (suit-major: ``card // 13`` is the suit); its id
(``7S``) appears only in actions, events and views.

>>> CARD_ID[0], CARD_ID[51]
('AS', 'KC')
>>> parse_action({"type": "play", "card": "TD"}) is PLAYS[CARD_INDEX["TD"]]
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from thievery.core.errors import MalformedAction
from thievery.core.protocol import (
    JSON,
    Action,
    Event,
    GameSpec,
    Option,
    State,
    parse_fields,
    seat_name,
)
from thievery.core.rng import Rng, make_rng

RANKS = "A23456789TJQK"
SUITS = "SHDC"
CARD_ID = tuple(r + s for s in SUITS for r in RANKS)
CARD_INDEX = {cid: c for c, cid in enumerate(CARD_ID)}
PLAYERS = 4
HAND = 4
TURNS = 40


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play ``card`` from your hand face down onto the table (then draw, while the deck lasts)."""

    type: ClassVar[str] = "play"
    card: str


PLAYS = tuple(Play(cid) for cid in CARD_ID)  # interned, by card


def parse_action(data: Mapping[str, Any]) -> Action:
    """An action from its JSON form; :class:`MalformedAction` if it is not one."""
    kind = data.get("type")
    if kind != "play":
        raise MalformedAction(f"unknown action type {kind!r} (types: play)")
    (card,) = parse_fields(data, ["card"], kind="play")
    if not isinstance(card, str) or card not in CARD_INDEX:
        raise MalformedAction(f"there is no card {card!r}")
    return PLAYS[CARD_INDEX[card]]


class FaceDown(State):
    """A game of Face Down: flat lists of ints, cheap to clone."""

    __slots__ = ("_history", "_to_act", "deck", "hands", "options", "players", "seed", "table")

    spec: ClassVar[GameSpec]  # set below, once the spec exists

    players: int
    seed: int
    options: JSON
    hands: list[list[int]]  # in the order dealt and drawn
    deck: list[int]  # the top is the end of the list
    table: list[tuple[int, int]]  # (seat, card), in the order played
    _to_act: tuple[int, ...]
    _history: tuple[Any, ...] | None

    @classmethod
    def start(cls, players: int, seed: int, options: JSON) -> FaceDown:
        s = object.__new__(cls)
        s.players, s.seed, s.options = players, seed, options
        deck = list(range(len(CARD_ID)))
        make_rng(seed).shuffle(deck)
        s.hands = [[deck.pop() for _ in range(HAND)] for _ in range(players)]
        s.deck = deck
        s.table = []
        s._to_act = (0,)
        s._history = None
        return s

    def clone(self) -> FaceDown:
        c = object.__new__(FaceDown)
        c.players, c.seed, c.options = self.players, self.seed, self.options
        c.hands = [h[:] for h in self.hands]
        c.deck = self.deck[:]
        c.table = self.table[:]
        c._to_act = self._to_act
        c._history = self._history
        return c

    @property
    def to_act(self) -> tuple[int, ...]:
        return self._to_act

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self._to_act:
            return []
        return [PLAYS[c] for c in self.hands[seat]]

    def is_legal(self, seat: int, action: Action) -> bool:
        return (
            seat in self._to_act
            and isinstance(action, Play)
            and CARD_INDEX.get(action.card, -1) in self.hands[seat]
        )

    def why_illegal(self, seat: int, action: Action) -> str:
        if seat in self._to_act and isinstance(action, Play):
            return f"{action.card} is not in your hand"
        return super().why_illegal(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        assert isinstance(action, Play)
        card = CARD_INDEX[action.card]
        hand = self.hands[seat]
        hand.remove(card)
        self.table.append((seat, card))
        drew = bool(self.deck)
        events = [Event("play", {"seat": seat, "drew": drew})]
        if drew:
            new = self.deck.pop()
            hand.append(new)
            events.append(Event("drew", {"seat": seat, "card": CARD_ID[new]}, audience=seat))
        if len(self.table) >= TURNS:
            self._to_act = ()
            events.append(Event("game_over", {"turns": len(self.table), **(self.result() or {})}))
        else:
            self._to_act = ((seat + 1) % self.players,)
        return events

    def result(self) -> JSON | None:
        if len(self.table) < TURNS:
            return None
        scores = [0] * self.players
        for seat, _ in self.table:
            scores[seat] += 1
        best = max(scores)
        return {"scores": scores, "winners": [s for s, v in enumerate(scores) if v == best]}

    def view(self, seat: int | None) -> JSON:
        """Its own hand and the cards it played (in order); everyone's hand size, the deck
        size, who played each card on the table (as the harness's ``G.table``)."""
        return self.views([seat])[0]

    def views(self, seats: Sequence[int | None]) -> list[JSON]:
        """:meth:`view` for several seats, what they all see built once (and shared): each
        seat's own hand and played cards; everyone's hand size, the deck size, who played
        each table card."""
        to_act = list(self._to_act)
        sizes = [len(h) for h in self.hands]
        table = [s for s, _ in self.table]
        result = self.result()
        played: list[list[str]] = [[] for _ in self.hands]  # (one pass over the table)
        for s, c in self.table:
            played[s].append(CARD_ID[c])
        return [
            {
                "game": "facedown",
                "players": self.players,
                "seat": seat,
                "to_act": to_act,
                "hand": [CARD_ID[c] for c in self.hands[seat]] if seat is not None else [],
                "hand_sizes": sizes,
                "deck_size": len(self.deck),
                "table": table,
                "played": played[seat] if seat is not None else [],
                "result": result,
            }
            for seat in seats
        ]

    def locations(self) -> dict[str, list[int]]:
        places: dict[str, list[int]] = {"deck": self.deck, "table": [c for _, c in self.table]}
        for s in range(self.players):
            places[f"hand{s}"] = self.hands[s]
        return places


class Determinizer:
    """Reads one seat's view once; :meth:`sample` draws a fresh consistent full state: the
    other hands, the deck and the other seats' table cards re-sampled."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        seat = view["seat"]
        if seat is None:
            raise ValueError("determinize needs a seat's view, not a spectator's")
        self.seat: int = seat
        n = view["players"]
        t = self.template = object.__new__(FaceDown)
        t.players, t.seed, t.options = n, 0, {}
        t._to_act = tuple(view["to_act"])
        t._history = None
        t.hands = [[] for _ in range(n)]
        t.hands[seat] = [CARD_INDEX[c] for c in view["hand"]]
        known = set(t.hands[seat])
        t.table = []
        self.hidden: list[int] = []  # table slots whose card the seat cannot see
        played = iter(view["played"])
        for i, who in enumerate(view["table"]):
            if who == seat:
                card = CARD_INDEX[next(played)]
                known.add(card)
                t.table.append((who, card))
            else:
                self.hidden.append(i)
                t.table.append((who, -1))
        t.deck = []
        self.sizes: list[int] = list(view["hand_sizes"])
        self.pool = [c for c in range(len(CARD_ID)) if c not in known]
        unseen = sum(self.sizes) - self.sizes[seat] + len(self.hidden) + view["deck_size"]
        if len(self.pool) != unseen:
            raise ValueError("the view's card counts do not add up")

    def sample(self, rng: Rng) -> FaceDown:
        s = self.template.clone()
        pool = self.pool[:]
        rng.shuffle(pool)
        for i in self.hidden:
            s.table[i] = (s.table[i][0], pool.pop())
        for seat, size in enumerate(self.sizes):
            if seat != self.seat:
                s.hands[seat] = [pool.pop() for _ in range(size)]
        s.deck = pool
        return s


class FaceDownSpec(GameSpec):
    """Face Down, 4 players: boardgame.io's load-test game."""

    name: ClassVar[str] = "facedown"
    title: ClassVar[str] = "Face Down"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = PLAYERS
    max_players: ClassVar[int] = PLAYERS
    options: ClassVar[tuple[Option, ...]] = ()

    def new(
        self, players: int, seed: int = 0, options: Mapping[str, Any] | None = None
    ) -> FaceDown:
        return FaceDown.start(players, seed, self.check_new(players, seed, options))

    def parse_action(self, data: Mapping[str, Any]) -> Action:
        return parse_action(data)

    def determinize(self, view: Mapping[str, Any], rng: Rng) -> FaceDown:
        return Determinizer(view).sample(rng)

    def describe(
        self, event: Event, seat: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        d = event.data
        if event.type == "play":
            drew = " and drew a card" if d["drew"] else ""
            return (
                f"{seat_name(d['seat'], seat, names, capital=True)} played a card face down{drew}"
            )
        if event.type == "drew":
            return f"You drew {d['card']}"
        if event.type == "game_over":
            return f"Game over after {d['turns']} turns"
        return f"{event.type}: {d}"


SPEC = FaceDownSpec()
FaceDown.spec = SPEC
