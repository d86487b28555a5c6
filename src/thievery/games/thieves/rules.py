"""Thieves!'s rules: the state of a game (turns of draw-up-to-4 then play one card, police
raids, the 7th getaway) and everything that changes it. Every decision belongs to the
player whose turn it is: the card to play (and, for money, the seat it goes to), then the
follow-ups -- which police card a Roadblock removes, which loot card a Thief moves (or
none: the move may be declined), and the cards a Double Loot draws; everything else
happens by itself. Cards are small integers (``cards.py``), actions interned values
(``actions.py``); what a seat sees is ``view.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from thievery.core.errors import InvalidOption
from thievery.core.protocol import JSON, Action, Event, GameSpec, State
from thievery.core.rng import Rng, make_rng
from thievery.core.setup import CardIds
from thievery.games.thieves.actions import MOVES, PASS, PLAYABLE, REMOVES, Move, Pass, Play, Remove
from thievery.games.thieves.cards import (
    ALARM,
    ALL_CARDS,
    CARD_ID,
    CARD_INDEX,
    CARD_MASK,
    CARS,
    DEAL,
    EXPOSED,
    FACE_UP,
    FINAL_VALUE,
    GETAWAY,
    GETAWAYS,
    GETAWAYS_TO_END,
    HAND,
    KIND,
    MONEY,
    POLICE,
    RAID_VALUE,
    ROADBLOCK,
    THIEF,
)
from thievery.games.thieves.view import view as view_of

PLAY, REMOVE, MOVE, DOUBLE, OVER = range(5)  # the phases, named in views by view.PHASE_NAMES


def raid_values(loot: list[list[int]]) -> list[int]:
    """Each seat's loot as the police count it (Diamond Ring 3, Horseshoe 1)."""
    return [sum(RAID_VALUE[e & CARD_MASK] for e in row) for row in loot]


def final_values(loot: list[list[int]]) -> list[int]:
    """Each seat's loot at the end of the game (Diamond Ring 1, Horseshoe 3)."""
    return [sum(FINAL_VALUE[e & CARD_MASK] for e in row) for row in loot]


class Thieves(State):
    """A game of Thieves! in progress.

    Its rules decisions are all in the game's rules page (``RULES.md``); how the code
    follows a few of them:

    - Alarm: each player's police cards are placed automatically, lowest id first (every
      1-car card before the 2-car cards), with a raid check after each card.
    - A follow-up with exactly one possible choice happens by itself; so does playing a
      Double Loot card that is not money, since it has only one way to be played.
    - A Thief's move is optional: whenever a move is offered (there is loot anywhere),
      ``pass`` is offered too; the actor may move a card to or from itself.
    - A raid reveals every face-down loot card to everyone; the survivors lie face down again,
      but everyone still knows them (the view shows their ids, and lists them in ``exposed``).
      The deck is shuffled whole after busted loot and police are put back.
    - Everyone saw an Alarm empty every hand of police, so the view carries ``police_free``:
      per seat, how many hand cards everyone knows are not police (held since the last Alarm;
      a lower bound, one less after each non-police play, since it may have been one of them).
      The determinizer respects it.
    - A Roadblock lies on the table (``resolving``) while its player picks the police card;
      then the police card and the Roadblock are discarded, in that order.
    - At the end of the game every loot card is shown (everyone counts their loot).
    """

    __slots__ = (
        "_history",
        "_to_act",
        "acting",
        "all_busted",
        "cars",
        "clean",
        "current",
        "deck",
        "discard",
        "drawn",
        "extra",
        "first",
        "getaways",
        "hands",
        "last_raid",
        "loot",
        "options",
        "phase",
        "players",
        "police",
        "rng",
        "seed",
        "turn",
    )

    spec: ClassVar[GameSpec]

    players: int
    seed: int
    options: JSON
    rng: Rng
    all_busted: bool  # raid_ties == "all_busted"
    hands: list[list[int]]
    deck: list[int]  # the top is the END of the list
    discard: list[int]
    loot: list[list[int]]  # per seat, slots in order: card | EXPOSED | FACE_UP flags
    police: list[int]
    cars: int
    getaways: list[int]
    first: int
    current: int
    turn: int
    phase: int
    acting: int  # a Roadblock waiting for its choice, else -1
    drawn: int  # the Double Loot card to play now, else -1
    extra: int  # Double Loot draw-and-plays still owed this turn
    clean: list[int]  # per seat: hand cards everyone knows are not police (since an Alarm)
    last_raid: JSON | None
    _to_act: tuple[int, ...]
    _history: tuple[Any, ...] | None

    # ---------------------------------------------------------------- setup

    @classmethod
    def start(cls, players: int, seed: int, options: JSON) -> Thieves:
        """A new game; ``options`` already resolved and checked."""
        s = object.__new__(cls)
        s.players, s.seed, s.options = players, seed, options
        s.rng = rng = make_rng(seed)
        s.all_busted = options["raid_ties"] == "all_busted"
        hands = options.get("hands")
        top = [CARD_INDEX[c] for c in options.get("deck_top") or []]
        stacked = [[CARD_INDEX[c] for c in h] for h in hands] if hands else None
        fixed = {c for h in stacked or [] for c in h} | set(top)
        rest = [c for c in ALL_CARDS if c not in fixed and KIND[c] != GETAWAY]
        rng.shuffle(rest)
        if stacked is None:
            stacked = [[] for _ in range(players)]
            for _ in range(DEAL):
                for h in stacked:
                    h.append(rest.pop())
        rest.extend(g for g in GETAWAYS if g not in fixed)
        rng.shuffle(rest)
        s.hands = stacked
        s.deck = rest + top[::-1]
        s.discard, s.police, s.getaways = [], [], []
        s.loot = [[] for _ in range(players)]
        s.clean = [0] * players
        s.cars, s.turn, s.acting, s.drawn, s.extra = 0, 0, -1, -1, 0
        s.phase = PLAY
        s.last_raid = None
        s._history = None
        first = options.get("first_player")
        s.first = rng.below(players) if first is None else first
        s._start_turn(s.first, [])
        return s

    def clone(self) -> Thieves:
        """An independent copy (cheap: flat lists of ints)."""
        c = object.__new__(Thieves)
        c.players, c.seed, c.options = self.players, self.seed, self.options
        c.rng = self.rng.copy()
        c.all_busted = self.all_busted
        c.hands = [h[:] for h in self.hands]
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.loot = [row[:] for row in self.loot]
        c.clean = self.clean[:]
        c.police = self.police[:]
        c.getaways = self.getaways[:]
        c.cars, c.first, c.current, c.turn = self.cars, self.first, self.current, self.turn
        c.phase, c.acting, c.drawn, c.extra = self.phase, self.acting, self.drawn, self.extra
        c.last_raid = self.last_raid  # replaced, never mutated
        c._to_act = self._to_act
        c._history = self._history
        return c

    # ---------------------------------------------------------------- protocol

    @property
    def to_act(self) -> tuple[int, ...]:
        return self._to_act

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self._to_act:
            return []
        phase = self.phase
        if phase == PLAY:
            table = PLAYABLE[self.players]
            out: list[Action] = []
            for c in self.hands[seat]:
                out += table[c]
            return out
        if phase == DOUBLE:
            return PLAYABLE[self.players][self.drawn][:]
        if phase == REMOVE:
            return [REMOVES[c] for c in self.police]
        out = [
            MOVES[f][slot][t]
            for f, row in enumerate(self.loot)
            for slot in range(len(row))
            for t in range(self.players)
            if t != f
        ]
        out.append(PASS)  # the Thief's move may be declined
        return out

    def is_legal(self, seat: int, action: Action) -> bool:
        if seat not in self._to_act:
            return False
        phase = self.phase
        kind = type(action)
        if kind is Play:
            if phase == PLAY:
                card = CARD_INDEX.get(action.card, -1)  # type: ignore[attr-defined]
                if card not in self.hands[seat]:
                    return False
            elif phase == DOUBLE:
                card = CARD_INDEX.get(action.card, -1)  # type: ignore[attr-defined]
                if card != self.drawn:
                    return False
            else:
                return False
            to = action.to  # type: ignore[attr-defined]
            if KIND[card] == MONEY:
                return type(to) is int and 0 <= to < self.players
            return to is None
        if kind is Pass:
            return phase == MOVE
        if kind is Remove:
            return phase == REMOVE and CARD_INDEX.get(action.card, -1) in self.police  # type: ignore[attr-defined]
        if kind is Move:
            if phase != MOVE:
                return False
            f, slot, t = action.source, action.slot, action.to  # type: ignore[attr-defined]
            n = self.players
            return (
                type(f) is int
                and type(slot) is int
                and type(t) is int
                and 0 <= f < n
                and 0 <= t < n
                and f != t
                and 0 <= slot < len(self.loot[f])
            )
        return False

    def why_illegal(self, seat: int, action: Action) -> str:
        if self.phase == OVER or seat not in self._to_act:
            return super().why_illegal(seat, action)
        phase = self.phase
        expected = {PLAY: "play", DOUBLE: "play", REMOVE: "remove", MOVE: "move"}[phase]
        if action.type != expected:
            what = {
                PLAY: "play a card from your hand",
                DOUBLE: f"play {CARD_ID[self.drawn]}, drawn by Double Loot",
                REMOVE: "remove a police card (Roadblock)",
                MOVE: "move a loot card (Thief) or pass",
            }[phase]
            if action.type == "pass":
                return f"there is no Thief's move to decline: now is the time to {what}"
            return f"now is the time to {what}, not to {action.type}"
        if phase in (PLAY, DOUBLE):
            return self._why_play(seat, action)
        if phase == REMOVE:
            in_play = ", ".join(CARD_ID[c] for c in self.police)
            return f"{action.card!r} is not in play; the police in play: {in_play}"  # type: ignore[attr-defined]
        f, slot, t = action.source, action.slot, action.to  # type: ignore[attr-defined]
        n = self.players
        for name, value in (("from", f), ("to", t)):
            if type(value) is not int or not 0 <= value < n:
                return f"there is no seat {value!r} ({name}); seats are 0 to {n - 1}"
        if f == t:
            return "a Thief moves a loot card to a different player"
        return f"seat {f} has no loot card in slot {slot!r} (it has {len(self.loot[f])})"

    def _why_play(self, seat: int, action: Action) -> str:
        cid = action.card  # type: ignore[attr-defined]
        card = CARD_INDEX.get(cid, -1)
        if card < 0:
            return f"there is no card {cid!r}"
        if self.phase == DOUBLE and card != self.drawn:
            return f"Double Loot: you must play {CARD_ID[self.drawn]}, the card just drawn"
        if self.phase == PLAY and card not in self.hands[seat]:
            return f"{cid} is not in seat {seat}'s hand"
        to = action.to  # type: ignore[attr-defined]
        if KIND[card] == MONEY:
            n = self.players
            return f"money goes to a seat: 'to' must be 0 to {n - 1}, not {to!r}"
        return f"{cid} is not money: it is played without 'to'"

    def _apply(self, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        kind = type(action)
        if kind is Play:
            card = CARD_INDEX[action.card]  # type: ignore[attr-defined]
            if self.phase == DOUBLE:
                self.drawn = -1
            else:
                self.hands[seat].remove(card)
                if self.clean[seat] and KIND[card] != POLICE:
                    self.clean[seat] -= 1  # it may have been one of the known clean cards
            if self._play(seat, card, action.to, events):  # type: ignore[attr-defined]
                return events
        elif kind is Remove:
            self._remove(seat, CARD_INDEX[action.card], events)  # type: ignore[attr-defined]
        elif kind is Pass:
            events.append(Event("pass", {"seat": seat}))
        else:
            self._move(seat, action.source, action.slot, action.to, events)  # type: ignore[attr-defined]
        self._next(events)
        return events

    # ---------------------------------------------------------------- the turn

    def _draw(self, seat: int, events: list[Event]) -> int:
        """Draw one card; getaways are placed and replaced. -1: the 7th getaway is placed
        (the caller ends the game)."""
        deck = self.deck
        while True:
            if not deck:
                raise AssertionError("the deck ran out before the 7th getaway car")
            card = deck.pop()
            if KIND[card] != GETAWAY:
                return card
            self.getaways.append(card)
            placed = len(self.getaways)
            events.append(Event("getaway", {"seat": seat, "card": CARD_ID[card], "placed": placed}))
            if placed >= GETAWAYS_TO_END:
                return -1

    def _start_turn(self, seat: int, events: list[Event]) -> None:
        """Phase 1: the player draws up to 4; then phase 2 waits for the card to play.

        The public ``turn`` event comes first and says how many cards went into the hand
        (filled in once drawn); getaways drawn on the way follow it.
        """
        self.current = seat
        self.turn += 1
        hand = self.hands[seat]
        deck = self.deck
        if len(hand) == HAND - 1 and deck and KIND[deck[-1]] != GETAWAY:  # the usual case
            card = deck.pop()
            hand.append(card)
            events.append(Event("turn", {"seat": seat, "turn": self.turn, "drew": 1}))
            events.append(Event("drew", {"cards": [CARD_ID[card]]}, audience=seat))
            self.phase = PLAY
            self._to_act = (seat,)
            return
        info: JSON = {"seat": seat, "turn": self.turn, "drew": 0}
        events.append(Event("turn", info))
        drew: list[int] = []
        over = False
        while len(hand) < HAND:
            card = self._draw(seat, events)
            if card < 0:
                over = True
                break
            hand.append(card)
            drew.append(card)
        info["drew"] = len(drew)
        if drew:
            events.append(Event("drew", {"cards": [CARD_ID[c] for c in drew]}, audience=seat))
        if over:
            self._end(events)
        else:
            self.phase = PLAY
            self._to_act = (seat,)

    def _next(self, events: list[Event]) -> None:
        """After a play is fully resolved: the next Double Loot draw, or the next turn."""
        while self.extra:
            self.extra -= 1
            seat = self.current
            card = self._draw(seat, events)
            if card < 0:
                self._end(events)
                return
            events.append(Event("double_draw", {"seat": seat}))
            events.append(Event("drew", {"cards": [CARD_ID[card]]}, audience=seat))
            if KIND[card] == MONEY:
                self.drawn = card
                self.phase = DOUBLE
                return
            # Only one way to play it: it happens by itself.
            if self._play(seat, card, None, events):
                return
        self._start_turn((self.current + 1) % self.players, events)

    def _play(self, seat: int, card: int, to: int | None, events: list[Event]) -> bool:
        """Play ``card``; True if a follow-up decision now waits."""
        kind = KIND[card]
        cid = CARD_ID[card]
        if kind == MONEY:
            if to == seat:
                self.loot[seat].append(card)
                events.append(Event("loot", {"seat": seat, "to": seat, "card": None}))
            else:
                self.loot[to].append(card | FACE_UP)  # type: ignore[index]
                events.append(Event("loot", {"seat": seat, "to": to, "card": cid}))
            return False
        if kind == POLICE:
            self._place_police(seat, card, events)
            return False
        events.append(Event("action", {"seat": seat, "card": cid}))
        if kind == ROADBLOCK:
            police = self.police
            if not police:
                self.discard.append(card)
                return False
            self.acting = card
            if len(police) > 1:
                return self._ask(REMOVE)
            self._remove(seat, police[0], events)
            return False
        self.discard.append(card)
        if kind == ALARM:
            n = self.players
            for i in range(n):
                p = (seat + i) % n
                hand = self.hands[p]
                cops = sorted(c for c in hand if KIND[c] == POLICE)
                for c in cops:
                    hand.remove(c)
                    self._place_police(p, c, events)
            self.clean = [len(h) for h in self.hands]
        elif kind == THIEF:
            # With 3+ seats any loot card has 2+ destinations: always a real choice.
            if any(self.loot):
                return self._ask(MOVE)
        else:  # Double Loot
            self.extra += 2
        return False

    def _ask(self, phase: int) -> bool:
        self.phase = phase
        self._to_act = (self.current,)
        return True

    def _remove(self, seat: int, card: int, events: list[Event]) -> None:
        self.police.remove(card)
        self.cars -= CARS[card]
        self.discard.append(card)
        self.discard.append(self.acting)
        events.append(
            Event(
                "remove",
                {
                    "seat": seat,
                    "card": CARD_ID[card],
                    "roadblock": CARD_ID[self.acting],
                    "cars": self.cars,
                },
            )
        )
        self.acting = -1

    def _move(self, seat: int, source: int, slot: int, to: int, events: list[Event]) -> None:
        card = self.loot[source].pop(slot) & CARD_MASK
        self.loot[to].append(card | FACE_UP)
        events.append(
            Event(
                "move",
                {
                    "seat": seat,
                    "from": source,
                    "slot": slot,
                    "to": to,
                    "card": CARD_ID[card],
                },
            )
        )

    def _place_police(self, seat: int, card: int, events: list[Event]) -> None:
        self.police.append(card)
        self.cars += CARS[card]
        events.append(Event("police", {"seat": seat, "card": CARD_ID[card], "cars": self.cars}))
        if self.cars >= 4:
            self._raid(seat, events)

    def _raid(self, seat: int, events: list[Event]) -> None:
        """Reveal all loot, bust the richest, shuffle busted loot and police into the deck."""
        loot = self.loot
        values = raid_values(loot)
        top = max(values)
        busted = [s for s, v in enumerate(values) if v == top] if top > 0 else []
        if len(busted) > 1 and not self.all_busted:
            busted = []
        raid: JSON = {
            "seat": seat,
            "cars": self.cars,
            "police": [CARD_ID[c] for c in self.police],
            "loot": [[CARD_ID[e & CARD_MASK] for e in row] for row in loot],
            "values": values,
            "busted": busted,
        }
        deck = self.deck
        for s, row in enumerate(loot):
            if s in busted:
                deck.extend(e & CARD_MASK for e in row)
                loot[s] = []
            else:
                loot[s] = [e | EXPOSED for e in row]
        deck.extend(self.police)
        self.police = []
        self.cars = 0
        self.rng.shuffle(deck)
        self.last_raid = raid
        events.append(Event("raid", raid))

    def _end(self, events: list[Event]) -> None:
        self.phase = OVER
        self._to_act = ()
        self.extra = 0
        result = self.result()
        events.append(
            Event(
                "game_over",
                {
                    **(result or {}),
                    "loot": [[CARD_ID[e & CARD_MASK] for e in row] for row in self.loot],
                },
            )
        )

    # ---------------------------------------------------------------- reading

    def result(self) -> JSON | None:
        if self.phase != OVER:
            return None
        scores = final_values(self.loot)
        best = max(scores)
        return {"scores": scores, "winners": [s for s, v in enumerate(scores) if v == best]}

    def view(self, seat: int | None) -> JSON:
        """Exactly what ``seat`` may know (``None``: a spectator): see ``view.py``."""
        return view_of(self, seat)

    def locations(self) -> dict[str, list[int]]:
        """Where every card is, by place name (for invariant checks and tests)."""
        places: dict[str, list[int]] = {
            "deck": self.deck,
            "discard": self.discard,
            "police": self.police,
            "getaways": self.getaways,
            "resolving": [self.acting] if self.acting >= 0 else [],
            "drawn": [self.drawn] if self.drawn >= 0 else [],
        }
        for s in range(self.players):
            places[f"hand{s}"] = self.hands[s]
            places[f"loot{s}"] = [e & CARD_MASK for e in self.loot[s]]
        return places


def check_setup(players: int, options: Mapping[str, Any]) -> None:
    """Validate the options ``first_player``, ``hands`` and ``deck_top``."""
    first = options.get("first_player")
    if first is not None and (
        isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players
    ):
        raise InvalidOption(
            f"option 'first_player' must be a seat from 0 to {players - 1}, not {first!r}"
        )
    check_ids = CardIds(CARD_INDEX)

    hands = options.get("hands")
    if hands is not None:
        if not isinstance(hands, list) or len(hands) != players:
            raise InvalidOption(f"option 'hands' needs one hand per seat ({players})")
        for s, h in enumerate(hands):
            check_ids(h, f"option 'hands', seat {s}")
            if len(h) != DEAL:
                raise InvalidOption(f"option 'hands', seat {s}: a hand has {DEAL} cards")
            for c in h:
                if KIND[CARD_INDEX[c]] == GETAWAY:
                    raise InvalidOption(
                        f"option 'hands', seat {s}: {c} is a getaway car; getaways are set "
                        "aside while the hands are dealt"
                    )
    top = options.get("deck_top")
    if top is not None:
        check_ids(top, "option 'deck_top'")
        if hands is None:
            left = sum(
                1 for c in ALL_CARDS if KIND[c] != GETAWAY and CARD_ID[c] not in check_ids.seen
            )
            if left < DEAL * players:
                raise InvalidOption(
                    "option 'deck_top' leaves too few cards (getaways aside) to deal the hands"
                )
