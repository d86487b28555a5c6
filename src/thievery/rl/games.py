"""Each game's fixed action space and observation layout (see docs/rl.md).

An adapter takes the player count and a freshly started state (for what the options fix,
like Thieves Den's card set, which is public) and returns every action the game can
ever ask for at that player count, in a fixed order, and the observation's fields. The
fields read only the seat's view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache, reduce
from itertools import chain, compress
from operator import or_
from typing import Any

from thievery.core.protocol import Action, State
from thievery.rl.encoding import (
    ActionCodec,
    Field,
    Sink,
    bag,
    custom,
    number,
    one_hot,
    per_seat,
    per_seat_bag,
    per_seat_one_hot,
    put,
    seat,
    seats,
    vocabulary,
)

# (every action, the observation's fields, and for a real-time game whether a seat to act
# may wait now: time must then still change something, so that no game waits forever)
Spaces = tuple[list[Action], list[Field], Callable[[State, int], bool] | None]
Adapter = Callable[[int, State], Spaces]
# The indices of ``state.legal_actions(seat)`` (any order), faster than mapping each
# action: made from the game's action codec (a test keeps it equal to the mapping).
LegalIndices = Callable[[State, int], list[int]]
# The same as one number: bit ``i`` is set for each legal index ``i``.
LegalBits = Callable[[State, int], int]


def schattendieb(players: int, probe: State) -> Spaces:
    """Der Schattendieb: play / steal / add one of the 105 cards, or done."""
    from thievery.games.schattendieb import actions as A
    from thievery.games.schattendieb.cards import CARD_ID, KINDS
    from thievery.games.schattendieb.view import PHASE_NAMES

    acts: list[Action] = [*A.PLAYS, *A.STEALS, *A.ADDS, A.DONE]
    cards = vocabulary(CARD_ID)
    n = players

    def thieves(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        # the steal queue: per relative seat, the thieves it has waiting
        for s, t in v["thieves"]:
            put(out, at + ((s - me) % n) * len(cards) + cards[t], 1.0)

    fields = [
        one_hot("phase", PHASE_NAMES),
        seats("to_act", n),
        seat("dealer", n),
        number("round", 20),
        number("game_no", 1),
        number("games", 1),
        number("pile_size", 105),
        number("discard_size", 105),
        bag("hand", cards),
        per_seat("hand_sizes", n, 10),
        per_seat_bag("safes", n, cards),
        per_seat_bag("closed", n, cards, "closed: per relative seat, its Close Safe card"),
        bag("discard", cards),
        per_seat("chosen", n, 1, "chosen: per relative seat, has played its sealed card"),
        bag("my_choice", cards),
        per_seat_bag("revealed", n, cards),
        per_seat_bag("front", n, cards),
        per_seat_bag("table", n, cards),
        custom("thieves", n * len(cards), thieves, "thieves: per relative seat, its thieves"),
        bag("steal_candidates", cards),
        per_seat_one_hot("add_kinds", n, KINDS),
        per_seat("add_asked", n),
        per_seat("add_done", n),
        bag("my_adds", cards),
        per_seat("scores", n, 50),
    ]
    return acts, fields, None


def thieves(players: int, probe: State) -> Spaces:
    """Thieves!: play a card (money to a seat), remove a police card, move loot, pass."""
    from thievery.games.thieves import actions as A
    from thievery.games.thieves.cards import (
        ALL_CARDS,
        CARD_ID,
        FINAL_VALUE,
        POLICE,
        RAID_VALUE,
    )
    from thievery.games.thieves.cards import KIND as CARD_KIND
    from thievery.games.thieves.view import PENDING, PHASE_NAMES

    n = players
    acts: list[Action] = []
    for c in ALL_CARDS:
        acts += A.PLAYABLE[n][c]
    acts += [A.REMOVES[c] for c in ALL_CARDS if CARD_KIND[c] == POLICE]
    acts += [
        A.MOVES[f][slot][t]
        for f in range(n)
        for slot in range(A.MAX_SLOTS)
        for t in range(n)
        if t != f
    ]
    acts.append(A.PASS)
    cards = vocabulary(CARD_ID)
    slots = A.MAX_SLOTS
    per_slot = 5

    # what a known card adds to its slot: (position in the slot, number), nonzero only
    known = {
        cid: [(d, x) for d, x in ((2, 1.0), (3, FINAL_VALUE[c] / 3), (4, RAID_VALUE[c] / 3)) if x]
        for cid, c in cards.items()
    }

    def loot(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        # per relative seat, per slot: [occupied, face up, known, final value/3, raid value/3]
        ats, values = out.at, out.value
        for s in range(n):
            row = v["loot"][(me + s) % n]
            base = at + s * slots * per_slot
            for i, slot in enumerate(row):
                o = base + i * per_slot
                ats.append(o)
                values.append(1.0)
                if slot["face_up"]:
                    ats.append(o + 1)
                    values.append(1.0)
                card = slot["card"]
                if card is not None:
                    for d, x in known[card]:
                        ats.append(o + d)
                        values.append(x)

    def known_loot(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        add_at, add_value = out.at.append, out.value.append
        rows = v["loot"]
        k = len(cards)
        for s in range(n):
            base = at + s * k
            for slot in rows[(me + s) % n]:
                card = slot["card"]
                if card is not None:
                    add_at(base + cards[card])
                    add_value(1.0)

    fields = [
        one_hot("phase", PHASE_NAMES),
        one_hot("pending", [p for p in PENDING if p is not None]),
        seats("to_act", n),
        seat("current", n),
        seat("first_player", n),
        number("turn", 100),
        bag("hand", cards),
        per_seat("hand_sizes", n, 4),
        custom(
            "loot",
            n * slots * per_slot,
            loot,
            f"loot: per relative seat, per slot (0-{slots - 1}): occupied, face up, "
            "card known to the viewer, its final value / 3, its raid value / 3",
        ),
        custom(
            "loot_cards",
            n * len(cards),
            known_loot,
            "loot_cards: per relative seat, count per card id of the loot the viewer can see",
        ),
        bag("police", cards),
        number("cars", 4),
        bag("getaways", cards),
        number("deck_size", 52),
        bag("discard", cards),
        bag("resolving", cards),
        bag("drawn", cards),
        number("double_loot_draws", 2),
        per_seat("police_free", n, 4),
    ]
    return acts, fields, None


def thieves_den(players: int, probe: State) -> Spaces:
    """Thieves Den: the card set's Locations, Fences and Power tiles fix the actions."""
    from thievery.games.thieves_den import actions as A
    from thievery.games.thieves_den.cards import TREASURES
    from thievery.games.thieves_den.effects import OP_NAMES
    from thievery.games.thieves_den.view import PHASE_NAMES

    cs = probe.cs  # type: ignore[attr-defined]  # the public card set the options chose
    table = A.interned(cs)
    n = players
    acts: list[Action] = [
        *table["pick"],
        *table["steal"],
        *table["location"],
        *table["fence"],
        *table["return_fence"],
        *(p for row in table["power"] for p in row),
        *A.WITCHES,
        *A.BURGLES,
        *A.TREASURE_CHOICES,
        *(A.RECRUITS[pair] for pair in A.RECRUIT_PAIRS),
        *A.OPPONENTS[:n],
        *A.GIVES[:n],
        A.PASS,
        A.SKIP,
    ]
    locs = vocabulary(cs.loc_id)
    fences = vocabulary(cs.fence_id)
    powers = vocabulary(cs.power_id)
    schemes = vocabulary(cs.scheme_id)
    ops = vocabulary(OP_NAMES)
    treasures = vocabulary(TREASURES)
    n_seat = 5 + 3 + 2 * len(locs) + 2 * len(fences) + len(schemes)

    n_locs, n_fences = len(locs), len(fences)

    def seat_boards(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        add_at, add_value = out.at.append, out.value.append
        boards = v["seats"]
        for s in range(n):
            x = boards[(me + s) % n]
            o = at + s * n_seat
            for t, count in x["treasures"].items():
                if y := count / 5:
                    add_at(o + treasures[t])
                    add_value(y)
            for d, key, scale in ((5, "prestige", 50), (6, "thieves", 5), (7, "hand_size", 5)):
                if y := x[key] / scale:
                    add_at(o + d)
                    add_value(y)
            o += 8
            for loc in x["locations"]:
                if y := 1.0 + loc["thieves"]:
                    add_at(o + locs[loc["card"]])
                    add_value(y)
            o += n_locs
            for c in x["collected"]:
                add_at(o + locs[c])
                add_value(1.0)
            o += n_locs
            for fence in x["fences"]:
                if y := 1.0 + fence["uses"]:
                    add_at(o + fences[fence["card"]])
                    add_value(y)
            o += n_fences
            for f in x["fences_collected"]:
                add_at(o + fences[f])
                add_value(1.0)
            o += n_fences
            if x["scheme"] is not None:
                add_at(o + schemes[x["scheme"]])
                add_value(1.0)

    def seat_flags(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        boards = v["seats"]
        for s in range(n):
            x = boards[(me + s) % n]
            if x["passed"]:
                out.at.append(at + 2 * s)
                out.value.append(1.0)
            if x["picked"]:
                out.at.append(at + 2 * s + 1)
                out.value.append(1.0)

    def power_row(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        # per Power tile of the set: face up, paid (one of 5 treasures), tiles below / 3
        for p in v["powers"]:
            if p["tile"] is None:
                continue
            o = at + powers[p["tile"]] * 7
            put(out, o, 1.0)
            if p["paid"] is not None:
                put(out, o + 1 + treasures[p["paid"]], 1.0)
            put(out, o + 6, p["below"] / 3)

    def supply(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        sup = v["supply"]
        for t, count in sup["treasures"].items():
            put(out, at + treasures[t], count / 10)
        put(out, at + 5, sup["thieves"] / 10)
        for t, free in v["witch"].items():
            put(out, at + 6 + treasures[t], 1.0 if free else 0.0)
        for t, count in v["recruit"].items():
            put(out, at + 11 + treasures[t], count / 5)

    def neutral(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        for y in v["neutral"]:
            put(out, at + locs[y["card"]], 1.0 + y["thieves"])

    def stack(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        st = v["stack"]  # (the view's list, bottom first: the last effect runs next)
        for i, entry in enumerate(reversed(st)):
            o = at if i == 0 else at + len(ops)
            put(out, o + ops[entry[0]], 1.0)

    fields = [
        one_hot("phase", PHASE_NAMES),
        seats("to_act", n),
        seat("holder", n),
        seat("current", n),
        seat("decider", n),
        one_hot("direction", ("clockwise", "counterclockwise")),
        number("round", 10),
        custom(
            "supply",
            16,
            supply,
            "supply: treasures / 10 (5), thieves / 10, Witch spot free (5), Recruit row / 5 (5)",
        ),
        number("burgle", 5),
        number("location_deck", 40),
        bag("location_deck_top", locs),
        number("fence_deck", 40),
        bag("fence_row", fences),
        custom(
            "powers",
            7 * len(powers),
            power_row,
            "powers: per Power tile of the set: face up, paid treasure (one-hot 5), below / 3",
        ),
        bag("powers_gone", powers),
        custom("neutral", len(locs), neutral, "neutral: per Location, 1 + thieves on it"),
        custom(
            "seats",
            n * n_seat,
            seat_boards,
            "seats: per relative seat: treasures / 5 (5), prestige / 50, thieves / 5, "
            "hand size / 5, Locations up (1 + thieves), collected, Fences (1 + uses), "
            "Fences collected, scheme (known: own, or at the end)",
        ),
        custom("seat_flags", 2 * n, seat_flags, "seat_flags: per relative seat: passed, picked"),
        bag("hand", locs),
        bag("my_pick", locs),
        custom(
            "stack",
            2 * len(ops),
            stack,
            "stack: the next effect's op (one-hot: the view's last entry), then counts of "
            "the later ones' ops",
        ),
        seats("tied", n),
    ]
    return acts, fields, None


def schatz_rabatz(players: int, probe: State) -> Spaces:
    """Schatz-Rabatz: drop a treasure (rotation, column), close the lid, be ready."""
    from thievery.games.schatz_rabatz import actions as A
    from thievery.games.schatz_rabatz.data import SHIP_PARTS
    from thievery.games.schatz_rabatz.pieces import (
        BOARD_ID,
        CARD_ID,
        DISTINCT,
        SHAPE_OF,
        TREASURE_ID,
    )
    from thievery.games.schatz_rabatz.view import PHASE_NAMES

    width = int(probe.options["width"])
    depth = int(probe.options["depth"])
    acts: list[Action] = [  # each treasure's distinct rotations only (a circle has one)
        A.DROPS[t][r * A.MAX_WIDTH + c]
        for t in range(len(TREASURE_ID))
        for r in DISTINCT[SHAPE_OF[t]]
        for c in range(width)
    ]
    acts += [A.CLOSE, A.READY]
    n = players
    treasures = vocabulary(TREASURE_ID)
    boards = vocabulary(BOARD_ID)
    parts = vocabulary(CARD_ID)
    per_chest = 3 + width + width * depth

    def clock(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        now = v["now_ms"]
        glass = v["hourglass"]
        ends = glass["ends_ms"]  # None: not turned yet (Little Pirates), so all of it is left
        put(out, at, 1.0 if ends is None else max(0, ends - now) / max(1, glass["length_ms"]))
        ready = v["hand_ready_ms"]
        put(out, at + 1, max(0, ready - now) / 1000 if isinstance(ready, int) else 0.0)

    def chests(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        add_at, add_value = out.at.append, out.value.append
        now = v["now_ms"]
        all_chests = v["chests"]
        for s in range(n):
            chest = all_chests[(me + s) % n]
            o = at + s * per_chest
            if chest["open"]:
                add_at(o)
                add_value(1.0)
            if chest["closed_ms"] is not None:
                add_at(o + 1)
                add_value(1.0)
            if y := max(0, chest["hand_ready_ms"] - now) / 1000:
                add_at(o + 2)
                add_value(y)
            for x, h in enumerate(chest["heights"][:width]):
                if y := h / depth:
                    add_at(o + 3 + x)
                    add_value(y)
            grid = o + 3 + width
            cells = [
                grid + y * width + x
                for t in chest["treasures"]
                for x, y in t["cells"]
                if 0 <= x < width and 0 <= y < depth
            ]
            out.at.extend(cells)
            out.value.extend([1.0] * len(cells))

    fields = [
        one_hot("phase", PHASE_NAMES),
        seats("to_act", n),
        number("round", 10),
        custom(
            "clock",
            2,
            clock,
            "clock: hourglass time left / its length (1 before it is turned), own hand "
            "busy for (s)",
        ),
        bag("pool", treasures),
        custom(
            "chests",
            n * per_chest,
            chests,
            f"chests: per relative seat: open, closed, hand busy for (s), column heights / "
            f"depth ({width}), cells filled (row-major, {depth} rows of {width})",
        ),
        per_seat_bag("out", n, treasures),
        per_seat_bag("jack", n, treasures),
        bag("board.claims", treasures),
        one_hot("board.id", BOARD_ID),
        bag("boards_turned", boards),
        number("stack_size", len(BOARD_ID)),
        per_seat_bag("ships", n, parts),
        bag("supply", parts),
        per_seat("ready", n),
        custom(
            "ship_parts",
            len(SHIP_PARTS),
            lambda v, me, n, out, at: _parts(v, out, at, SHIP_PARTS),
            "ship_parts: which ship parts this game uses",
        ),
    ]
    return acts, fields, _may_wait


def _may_wait(state: State, seat: int) -> bool:
    """Schatz-Rabatz: a seat may wait while packing if the hourglass runs or its hand is
    busy (after the scoring, time changes nothing: a seat must say it is ready)."""
    s: Any = state
    return bool(s.phase == _packing() and (s.ends_ms >= 0 or s.now_ms < s.hand_ready[seat]))


@cache
def _packing() -> Any:
    from thievery.games.schatz_rabatz.rules import PACKING

    return PACKING


def _parts(v: Mapping[str, Any], out: Sink, at: int, names: tuple[str, ...]) -> None:
    for p in v["ship_parts"]:
        put(out, at + names.index(p), 1.0)


ADAPTERS: dict[str, Adapter] = {
    "schattendieb": schattendieb,
    "thieves": thieves,
    "thieves-den": thieves_den,
    "schatz-rabatz": schatz_rabatz,
}


class _DropRows:
    """Schatz-Rabatz's legal actions as its ``legal_actions`` makes them: a seat packing
    may drop each treasure still in the pool wherever the engine's drop table for its
    chest's skyline allows (hundreds of actions), or close. Each drop table's rows are
    turned into indices (and bits) once and remembered with the table (the engine shares
    the tables between states), instead of mapping hundreds of actions per decision."""

    def __init__(self, codec: ActionCodec) -> None:
        from thievery.games.schatz_rabatz.actions import CLOSE, READY
        from thievery.games.schatz_rabatz.rules import SCORED, _drop_table

        self.codec = codec
        self.close, self.ready = codec.index[CLOSE], codec.index[READY]
        self.scored = SCORED
        self.drop_table = _drop_table
        # id(table) -> (the table, per treasure: its drops' indices, the same as bits)
        self.tables: dict[int, tuple[list[list[Action]], list[list[int]], list[int]]] = {}

    def _known(self, state: State, seat: int) -> tuple[list[list[int]], list[int]] | None:
        """The indices and bits of each treasure's drops into ``seat``'s chest (``None``:
        it may not drop now)."""
        s: Any = state
        if s.phase == self.scored or s.now_ms < s.hand_ready[seat]:
            return None
        table = self.drop_table(s.depth, s.heights[seat])
        known = self.tables.get(id(table))
        if known is None or known[0] is not table:
            if len(self.tables) > 50_000:
                self.tables.clear()
            indices = [self.codec.indices(row) for row in table]
            bits = [sum(1 << i for i in row) for row in indices]
            known = self.tables[id(table)] = (table, indices, bits)
        return known[1], known[2]

    def _other(self, state: State) -> int:
        """The one legal index of a seat that may not drop: ``ready`` or ``close``."""
        s: Any = state
        return self.ready if s.phase == self.scored else self.close

    def indices(self, state: State, seat: int) -> list[int]:
        """The indices of ``state.legal_actions(seat)``."""
        if seat not in state.to_act:
            return []
        known = self._known(state, seat)
        if known is None:
            return [self._other(state)]
        out = list(chain.from_iterable(compress(known[0], state.in_pool)))  # type: ignore[attr-defined]
        out.append(self.close)
        return out

    def bits(self, state: State, seat: int) -> int:
        """The same as one number: bit ``i`` set for each legal index ``i``."""
        s: Any = state
        if seat not in s._to_act:
            return 0
        if s.phase == self.scored:  # (what _known and _other say, without the calls:
            return 1 << self.ready  # most masks are these two)
        if s.now_ms < s.hand_ready[seat]:
            return 1 << self.close
        known = self._known(state, seat)
        assert known is not None
        return reduce(or_, compress(known[1], s.in_pool), 1 << self.close)


def schatz_rabatz_legal(codec: ActionCodec) -> tuple[LegalIndices, LegalBits]:
    """Schatz-Rabatz's legal indices and bits (see :class:`_DropRows`)."""
    rows = _DropRows(codec)
    return rows.indices, rows.bits


def thieves_legal(codec: ActionCodec) -> tuple[LegalIndices, None]:
    """Thieves!'s legal indices: while a card is to be played (most decisions), every way
    to play each card in the hand, as its ``legal_actions`` lists them, from a table of
    each card's indices made once; otherwise the actions mapped one by one."""
    from thievery.games.thieves.actions import PLAYABLE
    from thievery.games.thieves.rules import PLAY

    by_card: list[list[int]] = []  # made at the first call (the codec fixes the players)

    def indices(state: State, seat: int) -> list[int]:
        s: Any = state
        if s.phase != PLAY or seat not in s._to_act:
            return codec.indices(state.legal_actions(seat))
        if not by_card:
            by_card.extend(codec.indices(ways) for ways in PLAYABLE[s.players])
        out: list[int] = []
        for c in s.hands[seat]:
            out += by_card[c]
        return out

    return indices, None


def schattendieb_legal(codec: ActionCodec) -> tuple[LegalIndices, None]:
    """Der Schattendieb's legal indices: while cards are played face down (most
    decisions), the play of each card in the hand, as its ``legal_actions`` lists them;
    otherwise the actions mapped one by one."""
    from thievery.games.schattendieb.actions import PLAYS
    from thievery.games.schattendieb.rules import PLAY

    plays = codec.indices(PLAYS)  # by card number

    def indices(state: State, seat: int) -> list[int]:
        s: Any = state
        if s.phase != PLAY or seat not in s._to_act:
            return codec.indices(state.legal_actions(seat))
        return [plays[c] for c in s.hands[seat]]

    return indices, None


# A game's quicker way to its legal indices, and to the same as bits (for masks).
LEGAL_INDICES: dict[str, Callable[[ActionCodec], tuple[LegalIndices, LegalBits | None]]] = {
    "schattendieb": schattendieb_legal,
    "thieves": thieves_legal,
    "schatz-rabatz": schatz_rabatz_legal,
}
