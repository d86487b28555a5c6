"""Der Schattendieb's rules: the state of a match (several games, each a sequence of
seven-step rounds) and everything that changes it. Steps 1 (play) and 4 (add) are
simultaneous, sealed decisions; step 3 asks a thief's owner to choose when several cards
could be stolen; everything else happens by itself. Cards are small integers
(``cards.py``), actions interned values (``actions.py``); what a seat sees is ``view.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from thievery.core.errors import InvalidOption
from thievery.core.protocol import JSON, Action, Event, GameSpec, State
from thievery.core.rng import Rng, make_rng
from thievery.core.setup import CardIds
from thievery.games.schattendieb.actions import ADDS, DONE, PLAYS, STEALS, Add, Done, Play, Steal
from thievery.games.schattendieb.cards import (
    ALL_CARDS,
    ANY_KIND,
    CARD_ID,
    CARD_INDEX,
    CATEGORY,
    CLOSE,
    JEWEL,
    JEWEL_KIND,
    KIND,
    KINDS,
    SHADOW,
    THIEF,
    VALUE,
)
from thievery.games.schattendieb.view import view as view_of
from thievery.games.schattendieb.view import views as views_of

PLAY, STEAL, ADD, OVER = 0, 1, 2, 3  # the phases, named in views by view.PHASE_NAMES
HAND = 4


class Schattendieb(State):
    """A match of Der Schattendieb in progress."""

    __slots__ = (
        "_history",
        "_to_act",
        "add_asked",
        "add_done",
        "add_kind",
        "adds",
        "burned",
        "choice",
        "closed",
        "dealer",
        "discard",
        "front",
        "game_no",
        "game_scores",
        "games",
        "hands",
        "last_round",
        "options",
        "phase",
        "pile",
        "players",
        "quiet",
        "revealed",
        "rng",
        "round_no",
        "safes",
        "seed",
        "steal_queue",
        "table",
        "totals",
    )

    spec: ClassVar[GameSpec]

    players: int
    seed: int
    options: JSON
    rng: Rng
    games: int
    game_no: int
    dealer: int
    totals: list[int]
    game_scores: list[list[int]]
    hands: list[list[int]]
    pile: list[int]  # the top is the END of the list
    discard: list[int]  # cards everyone saw go there, in order
    burned: list[int]  # face-down discards: the leftover draw pile
    safes: list[list[int]]
    closed: list[int]  # the Close Safe card of a closed safe, -1 while open
    phase: int
    round_no: int
    choice: list[int]  # step 1's face-down card, -1 none
    revealed: list[int]  # what each seat revealed this round, -1 none
    front: list[list[int]]  # jewellery lying in front of each seat
    table: list[int]  # a revealed thief or Close Safe card still lying in front, -1 none
    steal_queue: list[tuple[int, int]]  # (seat, thief card) still to steal, head first
    add_kind: list[int]  # kind of the jewellery in front during step 4, -1 none
    add_asked: list[bool]
    add_done: list[bool]
    adds: list[list[int]]  # step 4's sealed additions
    last_round: list[Any] | None
    _to_act: tuple[int, ...]
    _history: tuple[Any, ...] | None
    # Search mode (for sampled states inside a search, never for play): no events, and
    # the state stops at the end of the current game of the match instead of dealing
    # the next one (search rollouts end there anyway).
    quiet: bool

    # ---------------------------------------------------------------- setup

    @classmethod
    def start(cls, players: int, seed: int, options: JSON) -> Schattendieb:
        """A new match; ``options`` already resolved and checked."""
        s = object.__new__(cls)
        s.players, s.seed, s.options = players, seed, options
        s.rng = make_rng(seed)
        s.games = options["games"]
        s.game_no = 0
        s.dealer = players - 1
        s.totals = [0] * players
        s.game_scores = []
        s.last_round = None
        s._history = None
        s.quiet = False
        s._deal(options.get("hands"), options.get("pile_top"))
        return s

    def _deal(self, hands: list[list[str]] | None, pile_top: list[str] | None) -> None:
        n = self.players
        stacked_hands = [[CARD_INDEX[c] for c in h] for h in hands] if hands else None
        top = [CARD_INDEX[c] for c in pile_top] if pile_top else []
        fixed = {c for h in stacked_hands or [] for c in h} | set(top)
        rest = [c for c in ALL_CARDS if c not in fixed]
        self.rng.shuffle(rest)
        if stacked_hands is not None:
            self.hands = stacked_hands
        else:
            self.hands = [[] for _ in range(n)]
            for _ in range(HAND):
                for i in range(n):
                    self.hands[(self.dealer + 1 + i) % n].append(rest.pop())
        self.pile = rest + top[::-1]
        self.discard, self.burned = [], []
        self.safes = [[] for _ in range(n)]
        self.closed = [-1] * n
        self.round_no = 0
        self._new_round()

    def _new_round(self) -> None:
        n = self.players
        self.round_no += 1
        self.phase = PLAY
        self.choice = [-1] * n
        self.revealed = [-1] * n
        self.front = [[] for _ in range(n)]
        self.table = [-1] * n
        self.steal_queue = []
        self.add_kind = [-1] * n
        self.add_asked = [False] * n
        self.add_done = [False] * n
        self.adds = [[] for _ in range(n)]
        closed, hands = self.closed, self.hands
        self._to_act = tuple([s for s in range(n) if closed[s] < 0 and hands[s]])

    def clone(self) -> Schattendieb:
        """An independent copy (cheap: flat lists of ints)."""
        c = object.__new__(Schattendieb)
        c.players, c.seed, c.options = self.players, self.seed, self.options
        c.rng = self.rng.copy()
        c.games, c.game_no, c.dealer = self.games, self.game_no, self.dealer
        c.totals = self.totals[:]
        c.game_scores = self.game_scores[:]  # inner lists are never mutated
        c.hands = [h[:] for h in self.hands]
        c.pile = self.pile[:]
        c.discard = self.discard[:]
        c.burned = self.burned[:]
        c.safes = [h[:] for h in self.safes]
        c.closed = self.closed[:]
        c.phase, c.round_no = self.phase, self.round_no
        c.choice = self.choice[:]
        c.revealed = self.revealed[:]
        c.front = [h[:] for h in self.front]
        c.table = self.table[:]
        c.steal_queue = self.steal_queue[:]
        c.add_kind = self.add_kind[:]
        c.add_asked = self.add_asked[:]
        c.add_done = self.add_done[:]
        c.adds = [h[:] for h in self.adds]
        c.last_round = self.last_round  # replaced, never mutated
        c._to_act = self._to_act
        c._history = self._history
        c.quiet = self.quiet
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
            return [PLAYS[c] for c in self.hands[seat]]
        if phase == STEAL:
            return [STEALS[c] for c in self._steal_candidates()]
        kind = self.add_kind[seat]
        kinds = self._addable_kinds()
        acts: list[Action] = [ADDS[c] for c in self.hands[seat] if kinds[c] == kind]
        acts.append(DONE)
        return acts

    def _addable_kinds(self) -> list[int]:
        """Per card, the kind step 4 lets it be added to: jewellery only (rules version
        1, kept to replay its records, also let a Thief of that kind be added)."""
        return KIND if self.options.get("v1_add_step") else JEWEL_KIND

    def is_legal(self, seat: int, action: Action) -> bool:
        if seat not in self._to_act:
            return False
        phase = self.phase
        if phase == PLAY:
            return type(action) is Play and CARD_INDEX.get(action.card, -1) in self.hands[seat]
        if phase == STEAL:
            return type(action) is Steal and CARD_INDEX.get(action.card, -1) in (
                self._steal_candidates()
            )
        if type(action) is Done:
            return True
        if type(action) is Add:
            card = CARD_INDEX.get(action.card, -1)
            kinds = self._addable_kinds()
            return card in self.hands[seat] and kinds[card] == self.add_kind[seat]
        return False

    def why_illegal(self, seat: int, action: Action) -> str:
        if self.phase == OVER or seat not in self._to_act:
            return super().why_illegal(seat, action)
        expected = {PLAY: "play", STEAL: "steal", ADD: "add or done"}[self.phase]
        if action.type not in expected.split(" or "):
            return f"now is the time to {expected}, not to {action.type}"
        card = getattr(action, "card", "")
        if card not in CARD_INDEX:
            return f"there is no card {card!r}"
        if self.phase == PLAY:
            return f"{card} is not in seat {seat}'s hand"
        if self.phase == STEAL:
            options = ", ".join(CARD_ID[c] for c in self._steal_candidates())
            return f"the thief cannot take {card}; it can take {options}"
        kind = KINDS[self.add_kind[seat]]
        c = CARD_INDEX[card]
        if c in self.hands[seat] and CATEGORY[c] == THIEF and KIND[c] == self.add_kind[seat]:
            return f"a Thief is no jewellery: seat {seat} can only add {kind} jewellery, not {card}"
        return f"seat {seat} can only add {kind} cards from its hand, not {card}"

    def _apply(self, seat: int, action: Action) -> list[Event]:
        phase = self.phase
        if phase == PLAY:
            card = CARD_INDEX[action.card]  # type: ignore[attr-defined]
            self.hands[seat].remove(card)
            self.choice[seat] = card
            to_act = self._to_act
            i = to_act.index(seat)
            self._to_act = to_act[:i] + to_act[i + 1 :]
            events = [] if self.quiet else [Event("chose", {"seat": seat})]
            if not self._to_act:
                self._reveal(events)
            return events
        if phase == STEAL:
            card = CARD_INDEX[action.card]  # type: ignore[attr-defined]
            events = []
            self._steal(seat, self.steal_queue.pop(0)[1], card, events)
            self._run_thieves(events)
            return events
        if type(action) is Add:
            card = CARD_INDEX[action.card]
            self.hands[seat].remove(card)
            self.adds[seat].append(card)
            if self.quiet:
                return []
            return [Event("added", {"seat": seat, "card": action.card}, audience=seat)]
        self.add_done[seat] = True
        self._to_act = tuple(s for s in self._to_act if s != seat)
        events = [] if self.quiet else [Event("done", {"seat": seat})]
        if not self._to_act:
            self._finish_round(events)
        return events

    # ---------------------------------------------------------------- the round

    def _reveal(self, events: list[Event]) -> None:
        """Steps 1 (reveal) and 2 (ties), then the thieves."""
        revealed = self.revealed = self.choice
        self.choice = [-1] * self.players
        if not self.quiet:
            cards = {s: CARD_ID[c] for s, c in enumerate(revealed) if c >= 0}
            events.append(Event("reveal", {"cards": cards}))
        values = [VALUE[c] for c in revealed if c >= 0 and CATEGORY[c] == JEWEL]
        tied = []
        thieves = []
        for s, c in enumerate(revealed):
            if c < 0:
                continue
            cat = CATEGORY[c]
            if cat == JEWEL:
                if values.count(VALUE[c]) > 1:
                    tied.append(c)
                    self.discard.append(c)
                else:
                    self.front[s].append(c)
            else:
                self.table[s] = c
                if cat == THIEF:
                    thieves.append((s, c))
        if tied and not self.quiet:
            events.append(Event("tie", {"cards": [CARD_ID[c] for c in tied]}))
        if thieves:
            thieves.sort(key=lambda t: (t[1] != SHADOW, t[0]))
            self.steal_queue = thieves
            self._run_thieves(events)
        else:
            self._begin_add(events)

    def _steal_candidates(self) -> list[int]:
        kind = KIND[self.steal_queue[0][1]]
        return [c for f in self.front for c in f if kind == ANY_KIND or KIND[c] == kind]

    def _steal(self, seat: int, thief: int, card: int, events: list[Event]) -> None:
        owner = next(s for s, f in enumerate(self.front) if card in f)
        self.front[owner].remove(card)
        self.safes[seat].append(card)
        if not self.quiet:
            events.append(
                Event(
                    "steal",
                    {
                        "seat": seat,
                        "thief": CARD_ID[thief],
                        "card": CARD_ID[card],
                        "from": owner,
                    },
                )
            )

    def _run_thieves(self, events: list[Event]) -> None:
        """Step 3: thieves in order; stop to ask an owner who has a real choice."""
        while self.steal_queue:
            seat, thief = self.steal_queue[0]
            candidates = self._steal_candidates()
            if len(candidates) > 1:
                self.phase = STEAL
                self._to_act = (seat,)
                return
            self.steal_queue.pop(0)
            if candidates:
                self._steal(seat, thief, candidates[0], events)
            elif not self.quiet:
                events.append(
                    Event(
                        "steal",
                        {
                            "seat": seat,
                            "thief": CARD_ID[thief],
                            "card": None,
                            "from": None,
                        },
                    )
                )
        for s, c in enumerate(self.table):
            if c >= 0 and CATEGORY[c] == THIEF:
                self.discard.append(c)
                self.table[s] = -1
        self._begin_add(events)

    def _begin_add(self, events: list[Event]) -> None:
        """Step 4: ask every seat whose own jewellery still lies in front, whether or not
        it holds a card of that kind, so that the asking tells nobody who holds one (a
        seat with nothing to add answers ``done``). Rules version 1 (kept to replay its
        records) asked only the seats holding a card of their kind."""
        self.phase = ADD
        asked = []
        hands = self.hands
        v1 = self.options.get("v1_add_step", False)
        for s, f in enumerate(self.front):
            if f:
                kind = KIND[f[0]]
                self.add_kind[s] = kind
                if not v1 or kind in [KIND[c] for c in hands[s]]:
                    self.add_asked[s] = True
                    asked.append(s)
        self._to_act = tuple(asked)
        if not asked:
            self._finish_round(events)
        elif not self.quiet:
            events.append(Event("adding", {"seats": asked}))

    def _finish_round(self, events: list[Event]) -> None:
        """Reveal step 4's additions, then steps 5 to 7 and the end checks."""
        n = self.players
        if not self.quiet and any(self.adds):
            added = {s: [CARD_ID[c] for c in a] for s, a in enumerate(self.adds) if a}
            events.append(Event("add", {"cards": added}))
        for s, a in enumerate(self.adds):
            if a:
                self.front[s].extend(a)
                self.adds[s] = []
        self._to_act = ()
        open_seats = [s for s in range(n) if self.closed[s] < 0]
        # The round in brief, kept as ints (views turn it into ids): round, revealed,
        # added per seat, seats that closed, how the game ended (or None).
        summary: list[Any] = [self.round_no, self.revealed, [f[1:] for f in self.front], [], None]
        # End check after step 4: an empty pile and an open safe with an empty hand.
        if not self.pile and any(not self.hands[s] for s in open_seats):
            self._fill()
            self._discard_table()
            self._end_game("no_cards", summary, events)
            return
        self._fill()  # step 5
        # Step 6: close safes, unless everyone still in wants to close.
        closers = [s for s in open_seats if self.table[s] >= 0 and CATEGORY[self.table[s]] == CLOSE]
        everyone = bool(closers) and len(closers) == len(open_seats)
        if everyone and (
            self.options["all_close_rule"] == "revealed" or all(map(self._can_close, closers))
        ):
            self._discard_table()
            self._end_game("all_close", summary, events)
            return
        for s in closers:
            card = self.table[s]
            can_close = self._can_close(s)
            self.table[s] = -1
            if can_close:
                self.closed[s] = card
                hand = self.hands[s]
                self.rng.shuffle(hand)
                self.pile[0:0] = hand  # face down under the draw pile
                if not self.quiet:
                    events.append(
                        Event(
                            "close",
                            {
                                "seat": s,
                                "card": CARD_ID[card],
                                "under_pile": len(hand),
                            },
                        )
                    )
                self.hands[s] = []
                summary[3].append(s)
            else:
                self.discard.append(card)
                if not self.quiet:
                    events.append(Event("close_failed", {"seat": s, "card": CARD_ID[card]}))
        still_open = [s for s in range(n) if self.closed[s] < 0]
        if len(still_open) <= 1:
            self._end_game("one_open", summary, events)
            return
        self._draw(still_open, events)  # step 7
        self.last_round = summary
        self._new_round()
        if not self._to_act:  # nobody open holds a card: the round passes at once
            self._reveal(events)

    def _stop_quietly(self) -> None:
        """Search mode's end of a game: scored into the totals, then nobody acts. The
        match is over if this was its last game; else the safes are emptied for the next
        game, which search never deals (``result`` stays ``None``; evaluations read the
        totals)."""
        n = self.players
        self._to_act = ()
        if self.game_no + 1 >= self.games:
            self.phase = OVER
            return
        self.game_no += 1
        self.dealer = (self.dealer + 1) % n
        self.hands = [[] for _ in range(n)]
        self.safes = [[] for _ in range(n)]
        self.closed = [-1] * n
        self.front = [[] for _ in range(n)]
        self.table = [-1] * n

    def _can_close(self, seat: int) -> bool:
        return 1 <= len(self.safes[seat]) <= VALUE[self.table[seat]]

    def _fill(self) -> None:
        for s, f in enumerate(self.front):
            if f:
                self.safes[s].extend(f)
                self.front[s] = []

    def _discard_table(self) -> None:
        for s, c in enumerate(self.table):
            if c >= 0:
                self.discard.append(c)
                self.table[s] = -1

    def _draw(self, seats: list[int], events: list[Event]) -> None:
        """Step 7: round robin from the seat after the dealer, up to 4 (or 3)."""
        pile = self.pile
        if not pile:
            return
        n = self.players
        hands = self.hands
        need = sum([HAND - len(hands[s]) for s in seats if len(hands[s]) < HAND])
        target = HAND if len(pile) >= need else HAND - 1
        first = self.dealer + 1
        order = [s for s in [(first + i) % n for i in range(n)] if s in seats]
        drawn = dict.fromkeys(order, 0)
        quiet = self.quiet
        progress = True
        while pile and progress:
            progress = False
            for s in order:
                hand = hands[s]
                if pile and len(hand) < target:
                    card = pile.pop()
                    hand.append(card)
                    drawn[s] += 1
                    progress = True
                    if not quiet:
                        events.append(Event("drew", {"card": CARD_ID[card]}, audience=s))
        if not quiet:
            events.append(Event("draw", {"counts": {s: k for s, k in drawn.items() if k}}))
        if target < HAND and pile:
            if not quiet:
                events.append(Event("pile_discarded", {"count": len(pile)}))
            self.burned.extend(pile)
            pile.clear()

    def _end_game(self, reason: str, summary: list[Any], events: list[Event]) -> None:
        n = self.players
        scores = [
            sum(VALUE[c] for c in self.safes[s]) if self.closed[s] >= 0 else 0 for s in range(n)
        ]
        self.game_scores = [*self.game_scores, scores]
        for s in range(n):
            self.totals[s] += scores[s]
        summary[4] = reason
        self.last_round = summary
        if self.quiet:  # search mode: stop with this game (see ``quiet``)
            self._stop_quietly()
            return
        events.append(
            Event(
                "game_over",
                {
                    "game": self.game_no + 1,
                    "reason": reason,
                    "scores": scores,
                    "totals": self.totals[:],
                },
            )
        )
        if self.game_no + 1 < self.games:
            self.game_no += 1
            self.dealer = (self.dealer + 1) % n
            self._deal(None, None)
            for s in range(n):
                events.append(
                    Event("dealt", {"cards": [CARD_ID[c] for c in self.hands[s]]}, audience=s)
                )
            events.append(Event("new_game", {"game": self.game_no + 1, "dealer": self.dealer}))
            if not self._to_act:
                self._reveal(events)
        else:
            self.phase = OVER
            self._to_act = ()
            events.append(Event("match_over", self.result() or {}))

    # ---------------------------------------------------------------- reading

    def result(self) -> JSON | None:
        if self.phase != OVER:
            return None
        best = max(self.totals)
        return {
            "scores": self.totals[:],
            "winners": [s for s, t in enumerate(self.totals) if t == best],
        }

    def hand_size(self, seat: int) -> int:
        """The public hand size (sealed step-4 additions still count as in hand)."""
        return len(self.hands[seat]) + len(self.adds[seat])

    def view(self, seat: int | None) -> JSON:
        """Exactly what ``seat`` may know (``None``: a spectator): see ``view.py``."""
        return view_of(self, seat)

    def views(self, seats: Sequence[int | None]) -> list[JSON]:
        """Several seats' views, what they share built once: see ``view.py``."""
        return views_of(self, seats)

    def locations(self) -> dict[str, list[int]]:
        """Where every card is, by place name (for invariant checks and tests)."""
        places: dict[str, list[int]] = {
            "pile": self.pile,
            "discard": self.discard,
            "burned": self.burned,
        }
        for s in range(self.players):
            places[f"hand{s}"] = self.hands[s]
            places[f"safe{s}"] = self.safes[s]
            places[f"front{s}"] = self.front[s]
            places[f"adds{s}"] = self.adds[s]
            places[f"closed{s}"] = [self.closed[s]] if self.closed[s] >= 0 else []
            places[f"choice{s}"] = [self.choice[s]] if self.choice[s] >= 0 else []
            places[f"table{s}"] = [self.table[s]] if self.table[s] >= 0 else []
        return places


def check_setup(players: int, options: Mapping[str, Any]) -> None:
    """Validate the stacked deal options ``hands`` and ``pile_top``."""
    check_ids = CardIds(CARD_INDEX)

    hands = options.get("hands")
    if hands is not None:
        if not isinstance(hands, list) or len(hands) != players:
            raise InvalidOption(f"option 'hands' needs one hand per seat ({players})")
        for s, h in enumerate(hands):
            check_ids(h, f"option 'hands', seat {s}")
            if len(h) != HAND:
                raise InvalidOption(f"option 'hands', seat {s}: a hand has {HAND} cards")
    top = options.get("pile_top")
    if top is not None:
        check_ids(top, "option 'pile_top'")
        if len(check_ids.seen) > len(ALL_CARDS) - (0 if hands else HAND * players):
            raise InvalidOption("option 'pile_top' leaves too few cards to deal the hands")
