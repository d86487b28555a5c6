"""Thieves Den's rules: the state of a game (three rounds of Scouting, Thieving and
Cleanup for 2 to 5 players) and everything that changes it. Scouting is a simultaneous
sealed pick-and-pass (every seat with cards is in ``to_act``); picks are revealed together
and Instant Locations resolve in turn order. Thieving runs in turn order from the Direction
tile's holder: one action or pass at a time. Every ability is interpreted from the card
set's effect steps (``effects.py``) on a continuation stack; a step with more than one
possible choice asks its seat (a single choice happens by itself), so every multi-step
ability is a sequence of small decisions. Card sets are ``cards.py``, actions interned
values (``actions.py``); what a seat sees is ``view.py``, where everything lies
``reading.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from thievery.core.errors import InvalidOption
from thievery.core.protocol import JSON, Action, Event, GameSpec, State
from thievery.core.rng import Rng, make_rng
from thievery.games.thieves_den.actions import (
    BURGLES,
    GIVES,
    OPPONENTS,
    PASS,
    RECRUITS,
    SKIP,
    TREASURE_CHOICES,
    TREASURE_INDEX,
    WITCHES,
    Burgle,
    ChooseLocation,
    Fence,
    Pick,
    Power,
    Recruit,
    Skip,
    Steal,
    Witch,
    interned,
)
from thievery.games.thieves_den.cards import (
    DEFAULT_PATH,
    FENCE_TYPES,
    LOCATION_TYPES,
    NAMING_EVENTS,
    TREASURES,
    CardSet,
    CardSetEvent,
    load_card_set,
)
from thievery.games.thieves_den.effects import (
    ACTION,
    COMPULSORY_BIT,
    DECISION_OPS,
    DESTROY,
    DRAW_LOCATION,
    FENCE_BIT,
    GAIN,
    LIMIT,
    MOVE,
    OCCUPIED_BIT,
    OP_NAMES,
    PAY,
    PRESTIGE,
    RECALL,
    REFRESH,
    SELF_BONUS_BIT,
    STEAL_BIT,
    SWAP,
    TAKE,
    THIEF,
    UNPLACE,
    WILD,
)
from thievery.games.thieves_den.reading import locations_of
from thievery.games.thieves_den.view import view as view_of

SCOUT, THIEVE, GIVE, OVER = range(4)  # the phases, named in views by view.PHASE_NAMES
ROUNDS = 3
_DEFAULT_SET = str(DEFAULT_PATH)  # the default card set's path (CardSet.path)
HAND = 4
PICKS = 3
ROW = 6
STACKS = 3
STACK_HEIGHT = 3
MAX_TREASURES = 8
MAX_THIEVES = 6
START_THIEVES = 3
OFF, NEUTRAL = -3, -1  # loc_owner of a card not face up / of a neutral 2-player card
ANY_PAY = 6  # PAY step: any treasure (see effects.ANY)
# RECRUITS[(a, b)] as RECRUIT_GRID[a][b] (either order): no tuple made per pair
RECRUIT_GRID = [[RECRUITS[min(a, b), max(a, b)] for b in range(5)] for a in range(5)]


class ThievesDen(State):
    """A game of Thieves Den in progress.

    Where the rulebook is silent or ambiguous (the 2-player "icon", Recall's other
    thieves, compulsory and optional follow-ups, passed players, the limits, ...), the
    engine follows the rulings on the game's rules page, ``RULES.md`` in this package
    (``thievery rules thieves-den``), each with the rulebook sentence it interprets.
    """

    __slots__ = (
        "_decider",
        "_history",
        "_pending",
        "_to_act",
        "a_fence",
        "a_loc",
        "a_pick",
        "a_power",
        "a_steal",
        "burgle",
        "collected",
        "cs",
        "current",
        "direction",
        "fence_deck",
        "fence_owner",
        "fence_row",
        "fence_uses",
        "fences",
        "fences_collected",
        "final",
        "hands",
        "holder",
        "known_top",
        "loc_deck",
        "loc_owner",
        "neutral",
        "on_loc",
        "options",
        "passed",
        "phase",
        "pick",
        "pick_no",
        "players",
        "power_box",
        "power_gone",
        "power_paid",
        "power_stacks",
        "prestige",
        "queue",
        "recruit",
        "rng",
        "round",
        "scheme",
        "scheme_box",
        "seed",
        "supply",
        "supply_thieves",
        "thieves",
        "tied",
        "treasure",
        "up",
        "witch",
    )

    spec: ClassVar[GameSpec]

    players: int
    seed: int
    options: JSON
    rng: Rng
    cs: CardSet
    round: int
    phase: int
    direction: int  # +1 clockwise (seat + 1), -1 counter-clockwise
    holder: int  # who has the Direction tile
    current: int  # whose turn in the thieving phase
    passed: list[bool]
    prestige: list[int]
    treasure: list[list[int]]  # per seat, 5 counts
    thieves: list[int]  # on each player board
    scheme: list[int]
    scheme_box: list[int]
    hands: list[list[int]]
    pick: list[int]  # sealed pick, -1 none
    pick_no: int
    up: list[list[int]]  # face-up Locations above each board this round
    collected: list[list[int]]  # face-down Locations left of each board
    neutral: list[int]  # 2 players: face-up neutral Locations
    loc_owner: list[int]  # per Location card: seat above whose board it lies, NEUTRAL, OFF
    on_loc: list[int]  # thieves on each Location card
    loc_deck: list[int]  # top is the END
    known_top: int  # how many cards on top of the deck everyone knows
    fences: list[list[int]]  # Fences above each board this round
    fences_collected: list[list[int]]
    fence_row: list[int]  # -1: an empty slot
    fence_deck: list[int]
    fence_owner: list[int]
    fence_uses: list[int]  # how many times each Fence was sold to (a thief + desires each)
    power_stacks: list[list[int]]  # top is the END
    power_paid: list[int]  # treasure beside each stack's top tile, -1 none
    power_gone: list[int]  # tiles removed in Cleanup (public)
    power_box: list[int]  # tiles never used (hidden)
    witch: list[int]  # 1 if the spot holds a treasure
    burgle: int  # thieves on the Burgle space
    recruit: list[int]  # treasures on the Recruit space
    supply: list[int]
    supply_thieves: int
    queue: list[tuple[int, int, int, int, int]]  # (op, seat, a, b, c); next is the END
    tied: list[int]
    final: JSON | None
    a_pick: list[Pick]
    a_steal: list[Steal]
    a_loc: list[ChooseLocation]
    a_fence: list[Fence]
    a_power: list[list[Power]]
    _decider: int  # the single seat asked, -1 during simultaneous picks
    _pending: list[Action]
    _to_act: tuple[int, ...]
    _history: tuple[Any, ...] | None

    # ---------------------------------------------------------------- setup

    @classmethod
    def blank(cls, players: int, seed: int, options: JSON, cs: CardSet) -> ThievesDen:
        """An empty table for ``cs`` (no cards placed): the start of setup and determinize.
        A card set other than the default one makes a :class:`NamedCardsDen`."""
        named = cls is ThievesDen and cs.path != _DEFAULT_SET
        s = object.__new__(NamedCardsDen if named else cls)
        s.players, s.seed, s.options, s.cs = players, seed, options, cs
        acts = interned(cs)
        s.a_pick, s.a_steal, s.a_loc = acts["pick"], acts["steal"], acts["location"]
        s.a_fence, s.a_power = acts["fence"], acts["power"]
        n = players
        s.rng = make_rng(seed)
        s.round, s.phase, s.direction, s.holder, s.current = 0, SCOUT, 1, 0, -1
        s.passed = [False] * n
        s.prestige = [0] * n
        s.treasure = [[0] * 5 for _ in range(n)]
        s.thieves = [START_THIEVES] * n
        s.scheme, s.scheme_box = [-1] * n, []
        s.hands = [[] for _ in range(n)]
        s.pick, s.pick_no = [-1] * n, 0
        s.up = [[] for _ in range(n)]
        s.collected = [[] for _ in range(n)]
        s.neutral = []
        s.loc_owner = [OFF] * len(cs.loc_id)
        s.on_loc = [0] * len(cs.loc_id)
        s.loc_deck, s.known_top = [], 0
        s.fences = [[] for _ in range(n)]
        s.fences_collected = [[] for _ in range(n)]
        s.fence_row, s.fence_deck = [-1] * ROW, []
        s.fence_owner = [-1] * len(cs.fence_id)
        s.fence_uses = [0] * len(cs.fence_id)
        s.power_stacks = [[] for _ in range(STACKS)]
        s.power_paid = [-1] * STACKS
        s.power_gone, s.power_box = [], []
        s.witch = [0] * 5
        s.burgle, s.recruit = 0, [0] * 5
        s.supply = [2 * n + 1] * 5
        s.supply_thieves = START_THIEVES * n
        s.queue, s.tied, s.final = [], [], None
        s._decider, s._pending, s._to_act, s._history = -1, [], (), None
        return s

    @classmethod
    def start(cls, players: int, seed: int, options: JSON, cs: CardSet | None = None) -> ThievesDen:
        """A new game; ``options`` already resolved and checked (see :func:`check_setup`,
        which gives the card set they name: ``cs``, else it is loaded here)."""
        if cs is None:
            cs = load_card_set(options.get("cards"))
        s = cls.blank(players, seed, options, cs)
        rng = s.rng
        schemes = list(range(len(cs.scheme_id)))
        rng.shuffle(schemes)
        fixed = options.get("schemes")
        if fixed:
            chosen = [cs.scheme_index[i] for i in fixed]
            rest = [c for c in schemes if c not in chosen]
            s.scheme, s.scheme_box = chosen, rest
        else:
            s.scheme, s.scheme_box = schemes[:players], schemes[players:]
        locs = universe_locations(cs, players)
        s.loc_deck = stacked(locs, options.get("location_deck"), cs.loc_index, rng)
        fences = universe_fences(cs, players)
        deck = stacked(fences, options.get("fence_deck"), cs.fence_index, rng)
        s.fence_row = [deck.pop() for _ in range(ROW)]
        s.fence_deck = deck
        tiles = stacked(
            list(range(len(cs.power_id))), options.get("power_tiles"), cs.power_index, rng
        )
        for i in range(STACKS):  # listed top first: stack 0's three, then stack 1's ...
            s.power_stacks[i] = [tiles.pop() for _ in range(STACK_HEIGHT)][::-1]
        s.power_box = tiles
        first = options.get("first_player")
        s.holder = rng.below(players) if first is None else first
        s._new_round([])
        return s

    def first_player(self) -> int | None:
        """The Direction tile's holder (asked of a new game: it starts the thieving; the
        picks of Scouting come first, everyone at once)."""
        return self.holder

    def clone(self) -> ThievesDen:
        """An independent copy (cheap: flat lists of ints)."""
        c = object.__new__(type(self))  # (NamedCardsDen too)
        c.players, c.seed, c.options, c.cs = self.players, self.seed, self.options, self.cs
        c.a_pick, c.a_steal, c.a_loc = self.a_pick, self.a_steal, self.a_loc
        c.a_fence, c.a_power = self.a_fence, self.a_power
        c.rng = self.rng.copy()
        c.round, c.phase, c.direction = self.round, self.phase, self.direction
        c.holder, c.current = self.holder, self.current
        c.passed = self.passed[:]
        c.prestige = self.prestige[:]
        c.treasure = [t[:] for t in self.treasure]
        c.thieves = self.thieves[:]
        c.scheme, c.scheme_box = self.scheme[:], self.scheme_box[:]
        c.hands = [h[:] for h in self.hands]
        c.pick, c.pick_no = self.pick[:], self.pick_no
        c.up = [u[:] for u in self.up]
        c.collected = [u[:] for u in self.collected]
        c.neutral = self.neutral[:]
        c.loc_owner, c.on_loc = self.loc_owner[:], self.on_loc[:]
        c.loc_deck, c.known_top = self.loc_deck[:], self.known_top
        c.fences = [f[:] for f in self.fences]
        c.fences_collected = [f[:] for f in self.fences_collected]
        c.fence_row, c.fence_deck = self.fence_row[:], self.fence_deck[:]
        c.fence_owner, c.fence_uses = self.fence_owner[:], self.fence_uses[:]
        c.power_stacks = [p[:] for p in self.power_stacks]
        c.power_paid = self.power_paid[:]
        c.power_gone, c.power_box = self.power_gone[:], self.power_box[:]
        c.witch = self.witch[:]
        c.burgle, c.recruit = self.burgle, self.recruit[:]
        c.supply, c.supply_thieves = self.supply[:], self.supply_thieves
        c.queue, c.tied, c.final = self.queue[:], self.tied[:], self.final
        c._decider, c._pending, c._to_act = self._decider, self._pending, self._to_act
        c._history = self._history
        return c

    # ---------------------------------------------------------------- protocol

    @property
    def to_act(self) -> tuple[int, ...]:
        return self._to_act

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self._to_act:
            return []
        if self._decider < 0:
            a = self.a_pick
            return [a[c] for c in self.hands[seat]]
        return list(self._pending)

    def is_legal(self, seat: int, action: Action) -> bool:
        if seat not in self._to_act:
            return False
        if self._decider < 0:
            if type(action) is not Pick:
                return False
            return self.cs.loc_index.get(action.card, -1) in self.hands[seat]
        pending = self._pending
        for a in pending:  # the interned values first: no dataclass comparisons
            if a is action:
                return True
        return action in pending

    def why_illegal(self, seat: int, action: Action) -> str:
        if self.phase == OVER or seat not in self._to_act:
            return super().why_illegal(seat, action)
        if self._decider < 0:
            if type(action) is not Pick:
                return f"now every seat picks a Location card, not {action.type!r}"
            return f"{action.card} is not in seat {seat}'s hand"
        kinds = sorted({a.type for a in self._pending})
        top = self.queue[-1] if self.queue else None
        if type(action) is Skip and top and top[0] == ACTION and self.is_compulsory(top[3]):
            return (
                "this follow-up action is compulsory: it can be skipped only when none can "
                f"be taken, and seat {seat} can {' or '.join(kinds)} now"
            )
        if action.type not in kinds:
            return f"now seat {seat} may {', '.join(kinds)}, not {action.type!r}"
        return f"{action.to_json()} is not possible now: {self.decision_text()}"

    def _apply(self, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        if self._decider < 0:
            self._pick(seat, self.cs.loc_index[action.card], events)  # type: ignore[attr-defined]
            return events
        if self.queue:
            self._resolve(self.queue.pop(), action, events)
        elif self.phase == GIVE:
            self._give(action.seat, events)  # type: ignore[attr-defined]
            return events
        else:
            self._main(seat, action, events)
        self._run(events)
        return events

    # ---------------------------------------------------------------- scouting

    def _new_round(self, events: list[Event]) -> None:
        n, d = self.players, self.direction
        self.round += 1
        self.phase = SCOUT
        self.passed = [False] * n
        self.pick_no = 0
        self.current = -1
        deck = self.loc_deck
        dealt = 0
        for _ in range(HAND):
            for i in range(n):
                if deck:
                    self.hands[(self.holder + i * d) % n].append(deck.pop())
                    dealt += 1
        self.known_top = max(0, self.known_top - dealt)
        events.append(
            Event(
                "round",
                {
                    "round": self.round,
                    "holder": self.holder,
                    "direction": "clockwise" if d > 0 else "counterclockwise",
                },
            )
        )
        for s in range(n):
            ids = [self.cs.loc_id[c] for c in self.hands[s]]
            events.append(Event("dealt", {"seat": s, "cards": ids}, audience=s))
        self._start_picks(events)

    def _start_picks(self, events: list[Event]) -> None:
        if self.pick_no < PICKS and any(self.hands):
            self._decider = -1
            self._pending = []
            self._to_act = tuple(s for s in range(self.players) if self.hands[s])
        else:
            self._end_scouting(events)

    def _pick(self, seat: int, card: int, events: list[Event]) -> None:
        self.hands[seat].remove(card)
        self.pick[seat] = card
        to_act = list(self._to_act)  # (the seat is in it once: is_legal checked)
        to_act.remove(seat)
        self._to_act = tuple(to_act)
        events.append(Event("picked", {"seat": seat}))
        events.append(Event("you_picked", {"seat": seat, "card": self.cs.loc_id[card]}, seat))
        if not self._to_act:
            self._reveal(events)

    def turn_order(self) -> list[int]:
        """Every seat in turn order from the Direction tile's holder."""
        n, d = self.players, self.direction
        return [(self.holder + i * d) % n for i in range(n)]

    def _reveal(self, events: list[Event]) -> None:
        cs = self.cs
        order = self.turn_order()
        shown = {s: cs.loc_id[self.pick[s]] for s in order if self.pick[s] >= 0}
        events.append(Event("reveal", {"cards": shown}))
        instants: list[tuple[int, int]] = []
        for s in order:
            c = self.pick[s]
            if c < 0:
                continue
            if cs.loc_instant[c]:
                self.collected[s].append(c)
                instants.append((s, c))
            else:
                self.up[s].append(c)
                self.loc_owner[c] = s
        self.pick = [-1] * self.players
        self.pick_no += 1
        for s, c in reversed(instants):
            self._push(cs.loc_ability[c], s)
        for s, c in instants:
            events.append(Event("instant", {"seat": s, "card": cs.loc_id[c]}))
        self._run(events)

    def _after_reveal(self, events: list[Event]) -> None:
        """Pass the hands on in the Direction tile's direction, then pick again or end."""
        n, d = self.players, self.direction
        hands: list[list[int]] = [[] for _ in range(n)]
        for s in range(n):
            hands[(s + d) % n] = self.hands[s]
        self.hands = hands
        self._start_picks(events)

    def _end_scouting(self, events: list[Event]) -> None:
        cs = self.cs
        leftovers = [c for h in self.hands for c in h]
        self.hands = [[] for _ in range(self.players)]
        for c in leftovers:
            if self.players == 2 and not cs.loc_instant[c]:
                self.neutral.append(c)
                self.loc_owner[c] = NEUTRAL
            else:
                self.loc_deck.insert(0, c)
        if self.neutral:
            events.append(Event("neutral", {"cards": [cs.loc_id[c] for c in self.neutral]}))
        self.phase = THIEVE
        self._start_turn(self.holder)

    # ---------------------------------------------------------------- thieving turns

    def _start_turn(self, seat: int) -> None:
        self.current = seat
        self._decider = seat
        self._to_act = (seat,)
        self._pending = self.main_actions(seat)

    def _next_turn(self, events: list[Event]) -> None:
        n, d = self.players, self.direction
        for i in range(1, n + 1):
            s = (self.current + i * d) % n
            if not self.passed[s]:
                self._start_turn(s)
                return
        self._cleanup(events)

    def can_use(self, seat: int, cost: tuple[int, ...], thieves: int, paid: int = -1) -> bool:
        """Whether ``seat`` can pay an ability's ``cost`` after placing ``thieves`` thieves
        and (for a Power tile) one treasure of type ``paid``."""
        tr = self.treasure[seat]
        if self.thieves[seat] - thieves < cost[6]:
            return False
        total = sum(tr) - (paid >= 0)
        specific = 0
        for t in range(5):
            have = tr[t] - (t == paid)
            if have < cost[t]:
                return False
            specific += cost[t]
        return total - specific >= cost[5]

    def _steal_targets(self, seat: int, occupied: bool, placed: int = 1) -> list[int]:
        """Face-up Locations ``seat`` may use: free (or occupied) spots whose cost it can
        pay after placing ``placed`` thieves from its board."""
        paid = self.cs.loc_paid
        on = self.on_loc
        out = []
        for group in (*self.up, self.neutral):
            for c in group:
                if (on[c] > 0) is occupied and (
                    not paid[c] or self.can_use(seat, self.cs.loc_cost[c], placed)
                ):
                    out.append(c)
        return out

    def _can_fence(self, seat: int, f: int) -> bool:
        tr = self.treasure[seat]
        for t, k in self.cs.fence_need[f]:  # noqa: SIM110 (a plain loop is faster than all())
            if tr[t] < k:
                return False
        return True

    def main_actions(self, seat: int) -> list[Action]:
        """Every legal main action of the seat whose turn it is."""
        # (plain loops and the checks of can_use and _can_fence written out: on Python
        # 3.11 each comprehension, generator or method call is a call)
        acts: list[Action] = []
        add = acts.append
        tr = self.treasure[seat]
        t0, t1, t2, t3, t4 = tr
        held = t0 + t1 + t2 + t3 + t4
        th = self.thieves[seat]
        kinds = []
        for t in range(5):
            if tr[t]:
                kinds.append(t)
        cs = self.cs
        if th >= 1:  # (what _steal_targets(seat, False) gives, without its list)
            steal = self.a_steal
            on = self.on_loc
            paid, costs = cs.loc_paid, cs.loc_cost
            for group in (*self.up, self.neutral):
                for c in group:
                    if on[c] > 0:
                        continue
                    if not paid[c]:
                        add(steal[c])
                        continue
                    k = costs[c]  # can_use(seat, k, 1): after placing one thief
                    if (
                        th > k[6]
                        and t0 >= k[0]
                        and t1 >= k[1]
                        and t2 >= k[2]
                        and t3 >= k[3]
                        and t4 >= k[4]
                        and held - k[0] - k[1] - k[2] - k[3] - k[4] >= k[5]
                    ):
                        add(steal[c])
            fence = self.a_fence
            total, need = cs.fence_total, cs.fence_need
            for f in self.fence_row:
                if f >= 0 and total[f] <= held:
                    for t, n in need[f]:  # (_can_fence)
                        if tr[t] < n:
                            break
                    else:
                        add(fence[f])
        if held:
            for i in range(STACKS):
                stack = self.power_stacks[i]
                if stack and self.power_paid[i] < 0:
                    tile = stack[-1]
                    row = self.a_power[tile]
                    if cs.power_paid[tile]:
                        cost = cs.power_cost[tile]
                        for t in kinds:
                            if self.can_use(seat, cost, 0, t):
                                add(row[t])
                    else:
                        for t in kinds:
                            add(row[t])
            witch = self.witch
            for t in kinds:
                if not witch[t]:
                    add(WITCHES[t])
        if th >= 2:
            supply = self.supply
            for t in range(5):
                if supply[t]:
                    add(BURGLES[t])
        if held >= 2:
            for i, a in enumerate(kinds):
                pairs = RECRUIT_GRID[a]
                if tr[a] >= 2:
                    add(pairs[a])
                for b in kinds[i + 1 :]:
                    add(pairs[b])
        add(PASS)
        return acts

    def _main(self, seat: int, action: Action, events: list[Event]) -> None:
        kind = type(action)
        cs = self.cs
        if kind is Steal:
            self._steal(seat, cs.loc_index[action.card], 0, events)  # type: ignore[attr-defined]
        elif kind is Fence:
            self._fence(seat, cs.fence_index[action.card], events)  # type: ignore[attr-defined]
        elif kind is Power:
            tile = cs.power_index[action.tile]  # type: ignore[attr-defined]
            t = TREASURE_INDEX[action.pay]  # type: ignore[attr-defined]
            slot = next(i for i in range(STACKS) if self.power_stacks[i][-1:] == [tile])
            self.treasure[seat][t] -= 1
            self.power_paid[slot] = t
            events.append(
                Event("power", {"seat": seat, "tile": cs.power_id[tile], "pay": TREASURES[t]})
            )
            self._push(cs.power_ability[tile], seat)
        elif kind is Witch:
            t = TREASURE_INDEX[action.treasure]  # type: ignore[attr-defined]
            self.treasure[seat][t] -= 1
            self.witch[t] = 1
            self.prestige[seat] += cs.witch[t]
            events.append(
                Event("witch", {"seat": seat, "treasure": TREASURES[t], "prestige": cs.witch[t]})
            )
        elif kind is Burgle:
            t = TREASURE_INDEX[action.treasure]  # type: ignore[attr-defined]
            self.thieves[seat] -= 2
            self.burgle += 2
            events.append(Event("burgle", {"seat": seat, "treasure": TREASURES[t]}))
            self._gain(seat, t, 1, events)
        elif kind is Recruit:
            a = TREASURE_INDEX[action.first]  # type: ignore[attr-defined]
            b = TREASURE_INDEX[action.second]  # type: ignore[attr-defined]
            tr = self.treasure[seat]
            tr[a] -= 1
            tr[b] -= 1
            self.recruit[a] += 1
            self.recruit[b] += 1
            events.append(Event("recruit", {"seat": seat, "pay": [TREASURES[a], TREASURES[b]]}))
            self._gain(seat, THIEF, 1, events)
        else:  # Pass
            self.passed[seat] = True
            events.append(Event("pass", {"seat": seat}))

    def _steal(self, seat: int, c: int, flags: int, events: list[Event]) -> None:
        self.thieves[seat] -= 1
        self.on_loc[c] += 1
        owner = self.loc_owner[c]
        events.append(
            Event("steal", {"seat": seat, "card": self.cs.loc_id[c], "owner": max(owner, -1)})
        )
        self._activate(seat, c, flags, events)

    def _activate(self, seat: int, c: int, flags: int, events: list[Event]) -> None:
        """Push a Location's Owner Bonus (for whoever gets it) and then its ability."""
        cs = self.cs
        owner = self.loc_owner[c]
        bonus_to = -1
        if flags & SELF_BONUS_BIT:
            bonus_to = seat if owner != NEUTRAL else -1
        elif owner >= 0 and owner != seat:
            bonus_to = owner
        if bonus_to >= 0 and cs.loc_bonus[c]:
            events.append(Event("bonus", {"seat": bonus_to, "card": cs.loc_id[c]}))
            self._push(cs.loc_bonus[c], bonus_to)
        self._push(cs.loc_ability[c], seat)

    def _fence(self, seat: int, f: int, events: list[Event]) -> None:
        cs = self.cs
        desire = cs.fence_desire[f]
        tr = self.treasure[seat]
        for t in range(5):
            tr[t] -= desire[t]
        self.thieves[seat] -= 1
        self.fence_uses[f] += 1
        self.prestige[seat] += cs.fence_prestige[f]
        owner = self.fence_owner[f] if f not in self.fence_row else -1
        events.append(
            Event(
                "fence",
                {
                    "seat": seat,
                    "card": cs.fence_id[f],
                    "prestige": cs.fence_prestige[f],
                    "owner": owner,
                },
            )
        )
        if f in self.fence_row:
            slot = self.fence_row.index(f)
            self.fence_row[slot] = self.fence_deck.pop() if self.fence_deck else -1
            self.fences[seat].append(f)
            self.fence_owner[f] = seat
            if self.fence_row[slot] >= 0:
                events.append(Event("fence_drawn", {"card": cs.fence_id[self.fence_row[slot]]}))

    # ---------------------------------------------------------------- effects

    def _push(self, steps: tuple[tuple[int, int, int, int], ...], seat: int) -> None:
        q = self.queue
        for op, a, b, c in reversed(steps):
            q.append((op, seat, a, b, c))

    def _gain(self, seat: int, what: int, count: int, events: list[Event]) -> None:
        """Gain from the limited supply (as much as it has), then enforce the limits."""
        if what == THIEF:
            k = min(count, self.supply_thieves)
            self.supply_thieves -= k
            self.thieves[seat] += k
            events.append(Event("gain", {"seat": seat, "what": "thief", "count": k}))
            self._thief_limit(seat, events)
            return
        k = min(count, self.supply[what])
        self.supply[what] -= k
        self.treasure[seat][what] += k
        events.append(Event("gain", {"seat": seat, "what": TREASURES[what], "count": k}))
        if sum(self.treasure[seat]) > MAX_TREASURES:
            self.queue.append((LIMIT, seat, 0, 0, 0))

    def _thief_limit(self, seat: int, events: list[Event]) -> None:
        extra = self.thieves[seat] - MAX_THIEVES
        if extra > 0:
            self.thieves[seat] = MAX_THIEVES
            self.supply_thieves += extra
            events.append(Event("return", {"seat": seat, "what": "thief", "count": extra}))

    def _run(self, events: list[Event]) -> None:
        """Run the continuation stack until a real decision or its end."""
        q = self.queue
        while q:
            step = q[-1]
            if step[0] in DECISION_OPS:
                choices = self._choices(step)
                if len(choices) > 1:
                    self._decider = step[1]
                    self._to_act = (step[1],)
                    self._pending = choices
                    return
                q.pop()
                if choices:
                    self._resolve(step, choices[0], events)
                else:
                    self._exec(step, events)
                continue
            q.pop()
            self._exec(step, events)
        if self.phase == SCOUT:
            self._after_reveal(events)
        elif self.phase == THIEVE:
            self._next_turn(events)

    def _targets(self, seat: int, thief: bool) -> list[int]:
        """Opponents who have not passed and have a thief (or a treasure) to lose."""
        out = []
        for o in range(self.players):
            has = (self.thieves[o] > 0) if thief else (sum(self.treasure[o]) > 0)
            if o != seat and not self.passed[o] and has:
                out.append(o)
        return out

    def _thieved_locations(self, seat: int) -> list[int]:
        """Location cards with a thief that ``seat`` may affect (not a passed opponent's)."""
        out = [c for c in self.neutral if self.on_loc[c]]
        for s in range(self.players):
            if s == seat or not self.passed[s]:
                out.extend(c for c in self.up[s] if self.on_loc[c])
        return out

    def _choices(self, step: tuple[int, int, int, int, int]) -> list[Action]:
        op, seat, a, b, _ = step
        if op == WILD:
            acts: list[Action] = [TREASURE_CHOICES[t] for t in range(5) if self.supply[t]]
            if acts and step[4]:
                acts.append(SKIP)
            return acts
        if op == LIMIT:
            tr = self.treasure[seat]
            if sum(tr) <= MAX_TREASURES:
                return []
            return [TREASURE_CHOICES[t] for t in range(5) if tr[t]]
        if op in (TAKE, DESTROY):
            if a < 0:
                return [OPPONENTS[o] for o in self._targets(seat, op == TAKE and b == THIEF)]
            tr = self.treasure[a]
            return [TREASURE_CHOICES[t] for t in range(5) if tr[t]]
        if op == PAY:  # any treasure
            tr = self.treasure[seat]
            return [TREASURE_CHOICES[t] for t in range(5) if tr[t]] if a == ANY_PAY else []
        if op == ACTION:
            return self._follow_up_choices(seat, a, b)
        if op == RECALL:
            return [self.a_loc[c] for c in self._thieved_locations(seat)]
        if op == MOVE:
            targets = self._steal_targets(seat, False, 0)
            if a < 0:
                return [self.a_loc[c] for c in self._thieved_locations(seat)] if targets else []
            return [self.a_loc[c] for c in targets if c != a]
        if op == REFRESH:
            if b <= 0:
                return []
            return [self.a_ret_fence(f) for f in self.fence_row if f >= 0]
        if op == SWAP:
            if a < 0:
                if not any(
                    self.up[o] for o in range(self.players) if o != seat and not self.passed[o]
                ):
                    return []
                return [self.a_loc[c] for c in self.up[seat]]
            return [
                self.a_loc[c]
                for o in range(self.players)
                if o != seat and not self.passed[o]
                for c in self.up[o]
            ]
        return []

    def a_ret_fence(self, f: int) -> Action:
        """The interned ``return_fence`` action of Fence card ``f``."""
        action: Action = self.cs.actions["return_fence"][f]
        return action

    def is_compulsory(self, flags: int) -> bool:
        """Whether a follow-up with these ``flags`` must be taken when it can be (the card
        set marks it compulsory and the table plays the rulebook's reading)."""
        return bool(flags & COMPULSORY_BIT) and self.options.get("follow_ups") != "optional"

    def _follow_up_choices(self, seat: int, mask: int, flags: int) -> list[Action]:
        """The Steal and Fence actions a follow-up may take, and ``skip`` unless it is
        compulsory (a compulsory one with no possible action does nothing)."""
        acts: list[Action] = []
        if self.thieves[seat] >= 1:
            occupied = bool(flags & OCCUPIED_BIT)
            if mask & STEAL_BIT:
                steal = self.a_steal
                acts.extend(steal[c] for c in self._steal_targets(seat, occupied))
            if mask & FENCE_BIT:
                fence = self.a_fence
                if occupied:
                    pool = [f for fs in self.fences for f in fs]
                else:
                    pool = [f for f in self.fence_row if f >= 0]
                acts.extend(fence[f] for f in pool if self._can_fence(seat, f))
        if not self.is_compulsory(flags):
            acts.append(SKIP)
        return acts

    def _exec(self, step: tuple[int, int, int, int, int], events: list[Event]) -> None:
        """A step that needs no decision (or whose decision has no possible choice)."""
        op, seat, a, b, _ = step
        if op == GAIN:
            self._gain(seat, a, b, events)
        elif op == PRESTIGE:
            self.prestige[seat] += b
            events.append(Event("prestige", {"seat": seat, "count": b}))
        elif op == PAY:
            if a == THIEF:
                k = min(b, self.thieves[seat])
                self.thieves[seat] -= k
                self.supply_thieves += k
                events.append(Event("pay", {"seat": seat, "what": "thief", "count": k}))
            elif a < 5:
                k = min(b, self.treasure[seat][a])
                self.treasure[seat][a] -= k
                self.supply[a] += k
                events.append(Event("pay", {"seat": seat, "what": TREASURES[a], "count": k}))
        elif op == DRAW_LOCATION:
            if b > 1:
                self.queue.append((DRAW_LOCATION, seat, 0, b - 1, 0))
            self._draw_location(seat, events)
        elif op == UNPLACE:
            self.on_loc[a] -= 1
            self.thieves[seat] += 1
            events.append(Event("unplace", {"seat": seat, "card": self.cs.loc_id[a]}))
            self._thief_limit(seat, events)
        elif op == REFRESH:
            drawn = []
            for i in range(ROW):
                if self.fence_row[i] < 0 and self.fence_deck:
                    self.fence_row[i] = self.fence_deck.pop()
                    drawn.append(self.cs.fence_id[self.fence_row[i]])
            events.append(Event("fences_drawn", {"cards": drawn}))
        elif op in (TAKE, DESTROY, RECALL, MOVE, SWAP, WILD, ACTION):
            events.append(Event("no_effect", {"seat": seat, "effect": OP_NAMES[op]}))

    def _draw_location(self, seat: int, events: list[Event]) -> None:
        if not self.loc_deck:
            events.append(Event("no_effect", {"seat": seat, "effect": "draw_location"}))
            return
        c = self.loc_deck.pop()
        self.known_top = max(0, self.known_top - 1)
        cs = self.cs
        events.append(Event("draw_location", {"seat": seat, "card": cs.loc_id[c]}))
        if cs.loc_instant[c]:
            self.collected[seat].append(c)
            self._push(cs.loc_ability[c], seat)
        else:
            self.up[seat].append(c)
            self.loc_owner[c] = seat

    def _resolve(
        self, step: tuple[int, int, int, int, int], action: Action, events: list[Event]
    ) -> None:
        """Apply a seat's choice for the decision ``step`` (already popped)."""
        op, seat, a, b, c = step
        cs = self.cs
        if type(action) is Skip:
            events.append(Event("skip", {"seat": seat}))
            return
        if op == WILD:
            if b > 1:
                self.queue.append((WILD, seat, 0, b - 1, c))
            self._gain(seat, TREASURE_INDEX[action.treasure], 1, events)  # type: ignore[attr-defined]
        elif op == LIMIT:
            t = TREASURE_INDEX[action.treasure]  # type: ignore[attr-defined]
            self.treasure[seat][t] -= 1
            self.supply[t] += 1
            events.append(Event("return", {"seat": seat, "what": TREASURES[t], "count": 1}))
            self.queue.append((LIMIT, seat, 0, 0, 0))
        elif op in (TAKE, DESTROY) and a < 0:
            o = action.seat  # type: ignore[attr-defined]
            if op == TAKE and b == THIEF:
                self.thieves[o] -= 1
                self.thieves[seat] += 1
                events.append(Event("take", {"seat": seat, "from": o, "what": "thief"}))
                self._thief_limit(seat, events)
            else:
                self.queue.append((op, seat, o, b, 0))
        elif op in (TAKE, DESTROY):
            t = TREASURE_INDEX[action.treasure]  # type: ignore[attr-defined]
            self.treasure[a][t] -= 1
            if op == TAKE:
                self.treasure[seat][t] += 1
                events.append(Event("take", {"seat": seat, "from": a, "what": TREASURES[t]}))
                if sum(self.treasure[seat]) > MAX_TREASURES:
                    self.queue.append((LIMIT, seat, 0, 0, 0))
            else:
                self.supply[t] += 1
                events.append(Event("destroy", {"seat": seat, "from": a, "what": TREASURES[t]}))
        elif op == PAY:
            t = TREASURE_INDEX[action.treasure]  # type: ignore[attr-defined]
            self.treasure[seat][t] -= 1
            self.supply[t] += 1
            events.append(Event("pay", {"seat": seat, "what": TREASURES[t], "count": 1}))
            if b > 1:
                self.queue.append((PAY, seat, a, b - 1, 0))
        elif op == ACTION:
            if type(action) is Steal:
                self._steal(seat, cs.loc_index[action.card], b, events)
            else:
                self._fence(seat, cs.fence_index[action.card], events)  # type: ignore[attr-defined]
        elif op == RECALL:
            self._recall(seat, cs.loc_index[action.card], events)  # type: ignore[attr-defined]
        elif op == MOVE:
            card = cs.loc_index[action.card]  # type: ignore[attr-defined]
            if a < 0:
                self.queue.append((MOVE, seat, card, 0, 0))
            else:
                self.on_loc[a] -= 1
                self.on_loc[card] += 1
                events.append(
                    Event("move", {"seat": seat, "from": cs.loc_id[a], "to": cs.loc_id[card]})
                )
                self.queue.append((UNPLACE, seat, card, 0, 0))
                self._activate(seat, card, 0, events)
        elif op == REFRESH:
            f = cs.fence_index[action.card]  # type: ignore[attr-defined]
            self.fence_row[self.fence_row.index(f)] = -1
            self.fence_deck.insert(0, f)
            events.append(Event("return_fence", {"seat": seat, "card": cs.fence_id[f]}))
            self.queue.append((REFRESH, seat, 0, b - 1, c + 1))
        elif op == SWAP:
            card = cs.loc_index[action.card]  # type: ignore[attr-defined]
            if a < 0:
                self.queue.append((SWAP, seat, card, 0, 0))
            else:
                self._swap(seat, a, card, events)

    def _recall(self, seat: int, c: int, events: list[Event]) -> None:
        owner = self.loc_owner[c]
        self.on_loc[c] -= 1
        self.thieves[seat] += 1
        self.supply_thieves += self.on_loc[c]
        self.on_loc[c] = 0
        if owner == NEUTRAL:
            self.neutral.remove(c)
        else:
            self.up[owner].remove(c)
        self.loc_owner[c] = OFF
        self.loc_deck.append(c)
        self.known_top += 1
        events.append(Event("recall", {"seat": seat, "card": self.cs.loc_id[c], "owner": owner}))
        self._thief_limit(seat, events)

    def _swap(self, seat: int, mine: int, theirs: int, events: list[Event]) -> None:
        other = self.loc_owner[theirs]
        mine_list, their_list = self.up[seat], self.up[other]
        mine_list[mine_list.index(mine)] = theirs
        their_list[their_list.index(theirs)] = mine
        self.loc_owner[mine], self.loc_owner[theirs] = other, seat
        cs = self.cs
        events.append(
            Event(
                "swap",
                {"seat": seat, "mine": cs.loc_id[mine], "theirs": cs.loc_id[theirs], "with": other},
            )
        )

    # ---------------------------------------------------------------- cleanup and end

    def _cleanup(self, events: list[Event]) -> None:
        n = self.players
        on = self.on_loc
        # 1. Thieves on Locations go to their owners; the cards are collected.
        for s in range(n):
            for c in self.up[s]:
                self.thieves[s] += on[c]
                on[c] = 0
                self.loc_owner[c] = OFF
                self._thief_limit(s, events)
            self.collected[s].extend(self.up[s])
            self.up[s] = []
        for c in self.neutral:
            self.supply_thieves += on[c]
            on[c] = 0
            self.loc_owner[c] = OFF
            self.loc_deck.insert(0, c)
        self.neutral = []
        # 2. Tokens on Fences go back; the cards are collected.
        cs = self.cs
        for s in range(n):
            for f in self.fences[s]:
                uses = self.fence_uses[f]
                self.supply_thieves += uses
                desire = cs.fence_desire[f]
                for t in range(5):
                    self.supply[t] += uses * desire[t]
                self.fence_uses[f] = 0
                self.fence_owner[f] = -1
            self.fences_collected[s].extend(self.fences[s])
            self.fences[s] = []
        # 3. Power tiles: treasures back, the top tiles out, the next ones up.
        for i in range(STACKS):
            if self.power_paid[i] >= 0:
                self.supply[self.power_paid[i]] += 1
                self.power_paid[i] = -1
            if self.power_stacks[i]:
                self.power_gone.append(self.power_stacks[i].pop())
        # 4.-6. The Witch, Burgle and Recruit spaces.
        for t in range(5):
            self.supply[t] += self.witch[t] + self.recruit[t]
            self.witch[t] = 0
            self.recruit[t] = 0
        self.supply_thieves += self.burgle
        self.burgle = 0
        events.append(Event("cleanup", {"round": self.round}))
        if self.round >= ROUNDS:
            self._end_game(events)
            return
        # 7. The Direction tile.
        low = min(self.prestige)
        tied = [s for s in range(n) if self.prestige[s] == low]
        if len(tied) > 1:
            tokens = [sum(self.treasure[s]) + self.thieves[s] for s in tied]
            fewest = min(tokens)
            tied = [s for s, k in zip(tied, tokens, strict=True) if k == fewest]
        if len(tied) > 1:
            self.phase = GIVE
            self.tied = tied
            self._decider = self.holder
            self._to_act = (self.holder,)
            self._pending = [GIVES[s] for s in tied]
            return
        self._give(tied[0], events)

    def _give(self, seat: int, events: list[Event]) -> None:
        self.holder = seat
        self.tied = []
        self.direction = -self.direction
        events.append(Event("direction", {"seat": seat}))
        self._new_round(events)

    def _end_game(self, events: list[Event]) -> None:
        n = self.players
        cs = self.cs
        counts = [[0] * len(FENCE_TYPES) for _ in range(n)]
        for s in range(n):
            for f in self.fences_collected[s]:
                counts[s][cs.fence_type[f]] += 1
        majorities: dict[str, int | None] = {}
        for k, name in enumerate(FENCE_TYPES):
            best = max(counts[s][k] for s in range(n))
            leaders = [s for s in range(n) if counts[s][k] == best]
            winner = leaders[0] if best > 0 and len(leaders) == 1 else None
            majorities[name] = winner
            if winner is not None:
                self.prestige[winner] += cs.majority[k]
        schemes = []
        for s in range(n):
            types = [0] * len(LOCATION_TYPES)
            for c in self.collected[s]:
                types[cs.loc_type[c]] += 1
            a, b = cs.scheme_types[self.scheme[s]]
            sets = min(types[a], types[b])
            gain = sets * cs.scheme_prestige[self.scheme[s]]
            self.prestige[s] += gain
            schemes.append({"scheme": cs.scheme_id[self.scheme[s]], "sets": sets, "prestige": gain})
        self.final = {"majorities": majorities, "schemes": schemes}
        self.phase = OVER
        self._to_act = ()
        self._decider = -2
        self._pending = []
        events.append(Event("final", {**self.final, "scores": self.prestige[:]}))
        events.append(Event("game_over", self.result() or {}))

    # ---------------------------------------------------------------- reading

    def result(self) -> JSON | None:
        if self.phase != OVER:
            return None
        best = max(self.prestige)
        top = [s for s in range(self.players) if self.prestige[s] == best]
        if len(top) > 1:
            tokens = {s: sum(self.treasure[s]) + self.thieves[s] for s in top}
            most = max(tokens.values())
            top = [s for s in top if tokens[s] == most]
        return {"scores": self.prestige[:], "winners": top}

    def pending_choices(self) -> list[Action]:
        """The choices of the seat being asked now, worked out from the state."""
        if self.phase == OVER or self._decider < 0:
            return []
        if self.queue:
            return self._choices(self.queue[-1])
        if self.phase == GIVE:
            return [GIVES[s] for s in self.tied]
        return self.main_actions(self.current)

    def decision_text(self) -> str:
        """What the seat being asked is deciding, in words."""
        if self.phase == OVER:
            return "the game is over"
        if self._decider < 0:
            return "pick a Location card to keep"
        if not self.queue:
            if self.phase == GIVE:
                return "give the Direction tile to a tied player"
            return "take an action or pass"
        op, _seat, a, b, _ = self.queue[-1]
        cs = self.cs
        texts = {
            WILD: f"choose a treasure to take ({b} left)",
            LIMIT: "you have more than 8 treasures: choose one to return",
            PAY: f"choose a treasure to pay ({b} left)",
            ACTION: "take a follow-up action (compulsory)"
            if self.is_compulsory(b)
            else "you may take a follow-up action",
            RECALL: "choose a Location to take a Thief from",
            REFRESH: f"choose a Fence of the row to return ({b} left)",
        }
        if op in (TAKE, DESTROY):
            verb = "take" if op == TAKE else "destroy"
            what = "a thief" if b == THIEF else "a treasure"
            if a < 0:
                return f"choose an opponent to {verb} {what} from"
            return f"choose a treasure of seat {a} to {verb}"
        if op == MOVE:
            if a < 0:
                return "choose a Location to move a Thief from"
            return f"choose a Location to move the Thief from {cs.loc_id[a]} to"
        if op == SWAP:
            if a < 0:
                return "choose one of your Locations to swap"
            return f"choose an opponent's Location to swap for {cs.loc_id[a]}"
        return texts.get(op, OP_NAMES[op])

    def view(self, seat: int | None) -> JSON:
        """Exactly what ``seat`` may know (``None``: a spectator): see ``view.py``."""
        return view_of(self, seat)

    def locations(self) -> dict[str, list[Any]]:
        """Where every card, tile and token is (tokens numbered per type, place by place):
        see ``reading.py``."""
        return locations_of(self)


# ------------------------------------------------------------------ setup helpers


class NamedCardsDen(ThievesDen):
    """A game of a card set other than the default one: each event that names a card
    carries the set (:class:`~thievery.games.thieves_den.cards.CardSetEvent`), so that
    its words name the cards as that set does. (The default set's games keep plain
    events, worded by the default set: their ``apply`` pays nothing for this.)"""

    def apply(self, seat: int, action: Action | Mapping[str, Any]) -> list[Event]:
        """As :meth:`State.apply`; each event carries the game's card set, for its words
        (:class:`~thievery.games.thieves_den.cards.CardSetEvent`)."""
        return self._with_cards(super().apply(seat, action))

    def apply_legal(self, seat: int, action: Action) -> list[Event]:
        """As :meth:`State.apply_legal`, the events with the card set (see :meth:`apply`;
        ``apply_trusted``, the search's fast path, leaves them plain)."""
        return self._with_cards(super().apply_legal(seat, action))

    def _with_cards(self, events: list[Event]) -> list[Event]:
        cs = self.cs
        return [CardSetEvent.of(e, cs) if e.type in NAMING_EVENTS else e for e in events]


def universe_locations(cs: CardSet, players: int) -> list[int]:
    """The Location cards in play for a player count (the 2-player set for 2)."""
    return list(cs.loc_two) if players == 2 else list(range(len(cs.loc_id)))


def universe_fences(cs: CardSet, players: int) -> list[int]:
    """The Fence cards in play for a player count."""
    return list(cs.fence_two) if players == 2 else list(range(len(cs.fence_id)))


def stacked(cards: list[int], top: list[str] | None, index: dict[str, int], rng: Rng) -> list[int]:
    """Shuffle ``cards`` (a deck whose top is the END), with ``top`` ids fixed on top."""
    fixed = [index[c] for c in top] if top else []
    on_top = set(fixed)
    rest = [c for c in cards if c not in on_top]
    rng.shuffle(rest)
    return rest + fixed[::-1]


def check_setup(players: int, options: Mapping[str, Any]) -> CardSet:
    """Validate the card set (a file path or an inline document) and the stacked setup;
    returns the card set (for :meth:`ThievesDen.start`: loaded once per new game)."""
    cards = options.get("cards")
    if cards is not None and not isinstance(cards, str | Mapping):
        raise InvalidOption(
            f"option 'cards' is a card file path or an inline card set (an object), not {cards!r}"
        )
    cs = load_card_set(cards)
    first = options.get("first_player")
    if first is not None and (
        isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players
    ):
        raise InvalidOption(f"option 'first_player' must be a seat from 0 to {players - 1}")
    locs = {cs.loc_id[c] for c in universe_locations(cs, players)}
    fences = {cs.fence_id[f] for f in universe_fences(cs, players)}
    checks: list[tuple[str, set[str], int]] = [
        ("location_deck", locs, len(locs)),
        ("fence_deck", fences, len(fences)),
        ("power_tiles", set(cs.power_id), STACKS * STACK_HEIGHT),
        ("schemes", set(cs.scheme_id), players),
    ]
    for name, allowed, most in checks:
        ids = options.get(name)
        if ids is None:
            continue
        if not isinstance(ids, list) or not all(isinstance(c, str) for c in ids):
            raise InvalidOption(f"option {name!r} must be a list of ids")
        for c in ids:
            if c not in allowed:
                raise InvalidOption(f"option {name!r}: there is no {c!r} in this game")
        if len(set(ids)) != len(ids):
            raise InvalidOption(f"option {name!r}: an id is listed twice")
        if len(ids) > most:
            raise InvalidOption(f"option {name!r}: at most {most} ids")
        if name == "schemes" and len(ids) != players:
            raise InvalidOption(f"option 'schemes' needs one Scheme per seat ({players})")
    if len(fences) < ROW:
        raise InvalidOption(f"the card set has too few Fences for {players} players")
    if len(cs.power_id) < STACKS * STACK_HEIGHT:
        raise InvalidOption("the card set needs at least 9 Power tiles")
    if len(cs.scheme_id) < players:
        raise InvalidOption(f"the card set needs at least {players} Schemes")
    return cs
