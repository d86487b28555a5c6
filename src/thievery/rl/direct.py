"""Observation vectors read straight from a game's state for one seat (the fast path).

:meth:`thievery.rl.encoding.ObservationLayout.encode` turns a seat's **view** into the
vector; building the view (JSON: ids as strings, nested dicts) and reading it back cost
more than the rest of a decision. A *seat encoder* here writes the very same numbers
from the state, reading exactly the parts of it that :func:`view` shows that seat (the
comments name the view's key each block reproduces), with card numbers as the vocabulary
positions they are. It is the view's twin, not a second source of truth:

- ``tests/rl/test_direct.py`` holds every seat encoder bit-identical to
  ``layout.encode(state.view(seat), seat)`` for every seat of every decision of random
  games (several player counts), and re-runs the secrecy test on it directly (states
  determinized from the seat's view give the same vector);
- :class:`thievery.rl.match.Match` uses a seat encoder where the game has one
  (:data:`SEAT_ENCODERS`), else the view.

A seat encoder is made once per layout: ``SEAT_ENCODERS[game](layout, probe)`` (``probe``
a freshly started state, for what the options fix: a card set, a chest's size) gives
``encode(state, seat) -> Vector``, or ``None`` where the view's encoding must serve.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from thievery.core.protocol import State
from thievery.rl.encoding import ObservationLayout, Vector

SeatEncoder = Callable[[State, int], Vector]


def finish(size: int, ones: list[int], at: list[int], value: list[float]) -> Vector:
    """The ``float32`` vector with 1 at every position of ``ones`` and ``value[i]`` at
    ``at[i]``. Every position must come once (a seat encoder's game guarantees it: each
    card is in one place; the layout's encoder would add repeated positions up, and the
    tests compare the two byte for byte)."""
    out = np.zeros(size, dtype=np.float32)
    out[np.fromiter(ones, np.intp, len(ones))] = 1.0
    if at:
        out[np.fromiter(at, np.intp, len(at))] = np.array(value, np.float32)
    return out


def offsets(layout: ObservationLayout, names: str) -> list[int]:
    """The offsets of the fields named in ``names`` (separated by spaces), in that order."""
    where = dict(zip((f.name for f in layout.fields), layout.offsets, strict=True))
    return [where[name] for name in names.split()]


def schattendieb(layout: ObservationLayout, probe: State) -> SeatEncoder:
    """Der Schattendieb: card numbers are their vocabulary positions (``CARD_ID`` order),
    phases their positions in ``PHASE_NAMES``, kinds theirs in ``KINDS``."""
    from thievery.games.schattendieb.cards import CARD_ID, KINDS
    from thievery.games.schattendieb.rules import PLAY, STEAL

    size = layout.size
    k = len(CARD_ID)
    (phase_at, to_act_at, dealer_at, round_at, game_no_at, games_at, pile_at,
     discard_size_at, hand_at, hand_sizes_at, safes_at, closed_at, discard_at, chosen_at,
     my_choice_at, revealed_at, front_at, table_at, thieves_at, candidates_at, kinds_at,
     asked_at, done_at, my_adds_at, scores_at) = offsets(
        layout,
        "phase to_act dealer round game_no games pile_size discard_size hand hand_sizes "
        "safes closed discard chosen my_choice revealed front table thieves "
        "steal_candidates add_kinds add_asked add_done my_adds scores",
    )  # fmt: skip
    n_kinds = len(KINDS)

    def encode(state: State, me: int) -> Vector:
        s: Any = state
        ones: list[int] = []  # positions of 1s
        at: list[int] = []  # positions of other numbers, and the numbers
        value: list[float] = []
        add_one, add_at, add_value = ones.append, at.append, value.append
        n = s.players
        phase = s.phase
        add_one(phase_at + phase)  # "phase"
        for x in s._to_act:  # "to_act"
            add_one(to_act_at + (x - me) % n)
        add_one(dealer_at + (s.dealer - me) % n)  # "dealer"
        at += (game_no_at, games_at)  # "game_no" (shown from 1), "games"
        value += (float(s.game_no + 1), float(s.games))
        if s.round_no:  # "round"
            add_at(round_at)
            add_value(s.round_no / 20.0)
        if s.pile:  # "pile_size"
            add_at(pile_at)
            add_value(len(s.pile) / 105.0)
        seen = len(s.discard) + len(s.burned)  # "discard_size"
        if seen:
            add_at(discard_size_at)
            add_value(seen / 105.0)
        for c in s.hands[me]:  # "hand" (own)
            add_one(hand_at + c)
        hands, adds, safes, closed = s.hands, s.adds, s.safes, s.closed
        choice, revealed, front, table = s.choice, s.revealed, s.front, s.table
        kinds, asked, done, totals = s.add_kind, s.add_asked, s.add_done, s.totals
        shown = phase != PLAY  # "revealed" is shown once the play step is over
        for r in range(n):
            t = (me + r) % n  # the absolute seat of relative seat r
            held = len(hands[t]) + len(adds[t])  # "hand_sizes": public sizes
            if held:
                add_at(hand_sizes_at + r)
                add_value(held / 10.0)
            base = r * k
            o = safes_at + base
            for c in safes[t]:  # "safes"
                add_one(o + c)
            if closed[t] >= 0:  # "closed"
                add_one(closed_at + base + closed[t])
            if choice[t] >= 0:  # "chosen": whether, never which
                add_one(chosen_at + r)
            if shown and revealed[t] >= 0:  # "revealed"
                add_one(revealed_at + base + revealed[t])
            o = front_at + base
            for c in front[t]:  # "front"
                add_one(o + c)
            if table[t] >= 0:  # "table"
                add_one(table_at + base + table[t])
            if kinds[t] >= 0:  # "add_kinds"
                add_one(kinds_at + r * n_kinds + kinds[t])
            if asked[t]:  # "add_asked"
                add_at(asked_at + r)
                add_value(float(asked[t]))
            if done[t]:  # "add_done"
                add_at(done_at + r)
                add_value(float(done[t]))
            if totals[t]:  # "scores"
                add_at(scores_at + r)
                add_value(totals[t] / 50.0)
        for c in s.discard:  # "discard"
            add_one(discard_at + c)
        if choice[me] >= 0:  # "my_choice" (own)
            add_one(my_choice_at + choice[me])
        for t, c in s.steal_queue:  # "thieves"
            add_one(thieves_at + ((t - me) % n) * k + c)
        if phase == STEAL:  # "steal_candidates"
            for c in s._steal_candidates():
                add_one(candidates_at + c)
        for c in adds[me]:  # "my_adds" (own)
            add_one(my_adds_at + c)
        return finish(size, ones, at, value)

    return encode


def thieves(layout: ObservationLayout, probe: State) -> SeatEncoder:
    """Thieves!: card numbers are their vocabulary positions (``CARD_ID`` order); a loot
    slot's entry holds its card and whether it is face up or was exposed in a raid."""
    from thievery.games.thieves.actions import MAX_SLOTS
    from thievery.games.thieves.cards import (
        ALL_CARDS,
        CARD_ID,
        CARD_MASK,
        EXPOSED,
        FACE_UP,
        FINAL_VALUE,
        RAID_VALUE,
    )
    from thievery.games.thieves.rules import OVER, PLAY

    size = layout.size
    k = len(CARD_ID)
    (phase_at, pending_at, to_act_at, current_at, first_at, turn_at, hand_at,
     hand_sizes_at, loot_at, loot_cards_at, police_at, cars_at, getaways_at, deck_at,
     discard_at, resolving_at, drawn_at, draws_at, free_at) = offsets(
        layout,
        "phase pending to_act current first_player turn hand hand_sizes loot loot_cards "
        "police cars getaways deck_size discard resolving drawn double_loot_draws "
        "police_free",
    )  # fmt: skip
    per_slot = 5
    per_seat = MAX_SLOTS * per_slot
    # what a known card adds to its slot: (position in the slot, number), nonzero only
    known = [
        [(d, x) for d, x in ((2, 1.0), (3, FINAL_VALUE[c] / 3), (4, RAID_VALUE[c] / 3)) if x]
        for c in ALL_CARDS
    ]

    # One seat's loot row: (relative seat, whether the viewer sees every card of it (its
    # own row, or the game is over), the row's entries) -> (positions of 1s, positions of
    # other numbers, the numbers). Rows change one card at a time, so most are known.
    # (Tuples: the garbage collector stops tracking them, however many are kept.)
    Block = tuple[tuple[int, ...], tuple[int, ...], tuple[float, ...]]
    rows: dict[tuple[int, ...], Block] = {}

    def loot_row(row: tuple[int, ...]) -> Block:
        r, mine, entries = row[0], row[1], row[2:]
        ones: list[int] = []
        at: list[int] = []
        value: list[float] = []
        base = loot_at + r * per_seat
        cards_base = loot_cards_at + r * k
        for i, e in enumerate(entries):
            slot = base + i * per_slot
            ones.append(slot)  # occupied
            if e >= FACE_UP:
                ones.append(slot + 1)
            if e >= EXPOSED or mine:  # the card, where the view shows it
                c = e & CARD_MASK
                ones.append(cards_base + c)
                for d, x in known[c]:
                    at.append(slot + d)
                    value.append(x)
        return tuple(ones), tuple(at), tuple(value)

    def encode(state: State, me: int) -> Vector:
        s: Any = state
        ones: list[int] = []  # positions of 1s
        at: list[int] = []  # positions of other numbers, and the numbers
        value: list[float] = []
        add_one, add_at, add_value = ones.append, at.append, value.append
        n = s.players
        phase = s.phase
        over = phase == OVER
        add_one(phase_at + phase)  # "phase"
        if PLAY < phase < OVER:  # "pending": remove, move or double_loot
            add_one(pending_at + phase - 1)
        for x in s._to_act:  # "to_act"
            add_one(to_act_at + (x - me) % n)
        add_one(current_at + (s.current - me) % n)  # "current"
        add_one(first_at + (s.first - me) % n)  # "first_player"
        if s.turn:  # "turn"
            add_at(turn_at)
            add_value(s.turn / 100.0)
        for c in s.hands[me]:  # "hand" (own)
            add_one(hand_at + c)
        hands, loot, clean = s.hands, s.loot, s.clean
        for r in range(n):
            t = (me + r) % n
            if hands[t]:  # "hand_sizes"
                add_at(hand_sizes_at + r)
                add_value(len(hands[t]) / 4.0)
            if clean[t]:  # "police_free"
                add_at(free_at + r)
                add_value(clean[t] / 4.0)
            # "loot" and "loot_cards" (see loot_row), remembered per row as it is
            row = (r, t == me or over, *loot[t])
            done = rows.get(row)
            if done is None:
                if len(rows) > 50_000:
                    rows.clear()
                done = rows[row] = loot_row(row)
            ones += done[0]
            at += done[1]
            value += done[2]
        for c in s.police:  # "police"
            add_one(police_at + c)
        if s.cars:  # "cars"
            add_at(cars_at)
            add_value(s.cars / 4.0)
        for c in s.getaways:  # "getaways"
            add_one(getaways_at + c)
        if s.deck:  # "deck_size"
            add_at(deck_at)
            add_value(len(s.deck) / 52.0)
        for c in s.discard:  # "discard"
            add_one(discard_at + c)
        if s.acting >= 0:  # "resolving"
            add_one(resolving_at + s.acting)
        if s.drawn >= 0 and me == s.current:  # "drawn": for its player only
            add_one(drawn_at + s.drawn)
        if s.extra:  # "double_loot_draws"
            add_at(draws_at)
            add_value(s.extra / 2.0)
        return finish(size, ones, at, value)

    return encode


def thieves_den(layout: ObservationLayout, probe: State) -> SeatEncoder | None:
    """Thieves Den: Location, Fence, Power tile and Scheme numbers are their positions in
    the card set's id lists (``None`` if a set repeats an id: the view's encoding then
    serves), treasures theirs in ``TREASURES``, effect ops theirs in ``OP_NAMES``."""
    from thievery.games.thieves_den.effects import OP_NAMES
    from thievery.games.thieves_den.rules import OVER, THIEVE

    cs: Any = probe.cs  # type: ignore[attr-defined]
    if any(len(set(ids)) != len(ids) for ids in (cs.loc_id, cs.fence_id, cs.power_id)):
        return None
    if len(set(cs.scheme_id)) != len(cs.scheme_id):
        return None
    size = layout.size
    n_locs, n_fences, n_schemes, n_ops = (
        len(cs.loc_id),
        len(cs.fence_id),
        len(cs.scheme_id),
        len(OP_NAMES),
    )
    n_seat = 8 + 2 * n_locs + 2 * n_fences + n_schemes
    (phase_at, to_act_at, holder_at, current_at, decider_at, direction_at, round_at,
     supply_at, burgle_at, deck_at, top_at, fence_deck_at, fence_row_at, powers_at,
     gone_at, neutral_at, seats_at, flags_at, hand_at, pick_at, stack_at, tied_at) = offsets(
        layout,
        "phase to_act holder current decider direction round supply burgle location_deck "
        "location_deck_top fence_deck fence_row powers powers_gone neutral seats "
        "seat_flags hand my_pick stack tied",
    )  # fmt: skip

    def encode(state: State, me: int) -> Vector:
        s: Any = state
        ones: list[int] = []  # positions of 1s
        at: list[int] = []  # positions of other numbers, and the numbers
        value: list[float] = []
        add_one, add_at, add_value = ones.append, at.append, value.append
        n = s.players
        phase = s.phase
        on_loc = s.on_loc
        add_one(phase_at + phase)  # "phase"
        for x in s._to_act:  # "to_act"
            add_one(to_act_at + (x - me) % n)
        add_one(holder_at + (s.holder - me) % n)  # "holder"
        if phase == THIEVE:  # "current": only while thieving
            add_one(current_at + (s.current - me) % n)
        if s._decider >= 0:  # "decider"
            add_one(decider_at + (s._decider - me) % n)
        add_one(direction_at + (0 if s.direction > 0 else 1))  # "direction"
        if s.round:  # "round"
            add_at(round_at)
            add_value(s.round / 10)
        for t in range(5):  # "supply": treasures, thieves, Witch spots, Recruit row
            if s.supply[t]:
                add_at(supply_at + t)
                add_value(s.supply[t] / 10)
            if s.witch[t]:
                add_one(supply_at + 6 + t)
            if s.recruit[t]:
                add_at(supply_at + 11 + t)
                add_value(s.recruit[t] / 5)
        if s.supply_thieves:
            add_at(supply_at + 5)
            add_value(s.supply_thieves / 10)
        if s.burgle:  # "burgle"
            add_at(burgle_at)
            add_value(s.burgle / 5)
        deck = s.loc_deck
        if deck:  # "location_deck"
            add_at(deck_at)
            add_value(len(deck) / 40)
        if s.known_top:  # "location_deck_top": the cards known to lie on top
            for c in deck[len(deck) - s.known_top :]:
                add_one(top_at + c)
        if s.fence_deck:  # "fence_deck"
            add_at(fence_deck_at)
            add_value(len(s.fence_deck) / 40)
        for f in s.fence_row:  # "fence_row"
            if f >= 0:
                add_one(fence_row_at + f)
        for i, st in enumerate(s.power_stacks):  # "powers": the tiles face up
            if st:
                o = powers_at + st[-1] * 7
                add_one(o)
                if s.power_paid[i] >= 0:
                    add_one(o + 1 + s.power_paid[i])
                if len(st) > 1:
                    add_at(o + 6)
                    add_value((len(st) - 1) / 3)
        for p in s.power_gone:  # "powers_gone"
            add_one(gone_at + p)
        for c in s.neutral:  # "neutral"
            add_at(neutral_at + c)
            add_value(1.0 + on_loc[c])
        over = phase == OVER
        treasure, prestige, thieves, hands = s.treasure, s.prestige, s.thieves, s.hands
        up, collected, fences, kept = s.up, s.collected, s.fences, s.fences_collected
        uses, passed, pick, scheme = s.fence_uses, s.passed, s.pick, s.scheme
        for r in range(n):  # "seats" and "seat_flags"
            t = (me + r) % n
            o = seats_at + r * n_seat
            for x, count in enumerate(treasure[t]):
                if count:
                    add_at(o + x)
                    add_value(count / 5)
            if prestige[t]:
                add_at(o + 5)
                add_value(prestige[t] / 50)
            if thieves[t]:
                add_at(o + 6)
                add_value(thieves[t] / 5)
            if hands[t]:
                add_at(o + 7)
                add_value(len(hands[t]) / 5)
            o += 8
            for c in up[t]:
                add_at(o + c)
                add_value(1.0 + on_loc[c])
            o += n_locs
            for c in collected[t]:
                add_one(o + c)
            o += n_locs
            for f in fences[t]:
                add_at(o + f)
                add_value(1.0 + uses[f])
            o += n_fences
            for f in kept[t]:
                add_one(o + f)
            o += n_fences
            if t == me or over:  # a Scheme is secret until the end
                add_one(o + scheme[t] % n_schemes)
            if passed[t]:
                add_one(flags_at + 2 * r)
            if pick[t] >= 0:  # whether, never which
                add_one(flags_at + 2 * r + 1)
        for c in hands[me]:  # "hand" (own)
            add_one(hand_at + c)
        if pick[me] >= 0:  # "my_pick" (own)
            add_one(pick_at + pick[me])
        queue = s.queue
        if queue:  # "stack": the next op, then how many of each op come later
            add_one(stack_at + queue[0][0])
            later: dict[int, float] = {}
            for entry in queue[1:]:
                later[entry[0]] = later.get(entry[0], 0.0) + 1.0
            at += [stack_at + n_ops + op for op in later]
            value += later.values()
        for x in s.tied:  # "tied"
            add_one(tied_at + (x - me) % n)
        return finish(size, ones, at, value)

    return encode


def schatz_rabatz(layout: ObservationLayout, probe: State) -> SeatEncoder:
    """Schatz-Rabatz: treasure, Jack-board and ship-part numbers are their positions in
    ``TREASURE_ID``, ``BOARD_ID`` and ``CARD_ID``; a placed treasure's cells come from its
    orientation (remembered per placement)."""
    from thievery.games.schatz_rabatz.pieces import (
        BOARD_CLAIMS,
        BOARD_ID,
        N_TREASURES,
        ORIENTATIONS,
        SHAPE_OF,
    )
    from thievery.games.schatz_rabatz.rules import PACKING

    p: Any = probe
    width, depth = p.width, p.depth
    per_chest = 3 + width + width * depth
    n_treasures = N_TREASURES
    claims = [sorted(BOARD_CLAIMS[b]) for b in range(len(BOARD_ID))]
    (phase_at, to_act_at, round_at, clock_at, pool_at, chests_at, out_at, jack_at,
     claims_at, board_at, turned_at, stack_at, ships_at, supply_at, ready_at,
     parts_at) = offsets(
        layout,
        "phase to_act round clock pool chests out jack board.claims board.id "
        "boards_turned stack_size ships supply ready ship_parts",
    )  # fmt: skip
    n_parts = layout.fields[layout.offsets.index(ships_at)].size // max(1, p.players)
    size = layout.size
    cells: dict[tuple[int, int, int, int], list[int]] = {}  # placement -> its grid cells

    def grid_cells(placed: tuple[int, int, int, int]) -> list[int]:
        t, r, c, row = placed
        found = cells[placed] = [
            (row + y) * width + c + x
            for x, y in ORIENTATIONS[SHAPE_OF[t]][r].cells
            if 0 <= c + x < width and 0 <= row + y < depth
        ]
        return found

    def encode(state: State, me: int) -> Vector:
        s: Any = state
        ones: list[int] = []  # positions of 1s
        at: list[int] = []  # positions of other numbers, and the numbers
        value: list[float] = []
        add_one, add_at, add_value = ones.append, at.append, value.append
        n = s.players
        now = s.now_ms
        add_one(phase_at + s.phase)  # "phase"
        for x in s._to_act:  # "to_act"
            add_one(to_act_at + (x - me) % n)
        if s.round_no:  # "round"
            add_at(round_at)
            add_value(s.round_no / 10)
        # "clock": the hourglass's time left (all of it before it is turned), and the
        # seat's own hand busy while it packs with its lid open
        if s.ends_ms < 0:
            add_one(clock_at)
        elif s.ends_ms > now:
            add_at(clock_at)
            add_value((s.ends_ms - now) / max(1, s.hourglass_ms))
        if s.phase == PACKING and s.is_open[me] and s.hand_ready[me] > now:
            add_at(clock_at + 1)
            add_value((s.hand_ready[me] - now) / 1000)
        for t in range(n_treasures):  # "pool"
            if s.in_pool[t]:
                add_one(pool_at + t)
        is_open, closed, ready_ms, heights = s.is_open, s.closed_ms, s.hand_ready, s.heights
        chests, out, jack, ships, ready = s.chests, s.out, s.jack, s.ships, s.ready
        for r in range(n):
            t = (me + r) % n
            o = chests_at + r * per_chest  # "chests"
            if is_open[t]:
                add_one(o)
            if closed[t] >= 0:
                add_one(o + 1)
            if ready_ms[t] > now:
                add_at(o + 2)
                add_value((ready_ms[t] - now) / 1000)
            for x, h in enumerate(heights[t][:width]):
                if h:
                    add_at(o + 3 + x)
                    add_value(h / depth)
            grid = o + 3 + width
            for placed in chests[t]:
                found = cells.get(placed)
                if found is None:
                    found = grid_cells(placed)
                for i in found:
                    add_one(grid + i)
            for x in out[t]:  # "out"
                add_one(out_at + r * n_treasures + x)
            for x in jack[t]:  # "jack"
                add_one(jack_at + r * n_treasures + x)
            for c in ships[t]:  # "ships"
                add_one(ships_at + r * n_parts + c)
            if ready[t]:  # "ready"
                add_at(ready_at + r)
                add_value(float(ready[t]))
        if s.board >= 0:  # "board.claims", "board.id"
            for x in claims[s.board]:
                add_one(claims_at + x)
            add_one(board_at + s.board)
        for b in s.turned:  # "boards_turned"
            add_one(turned_at + b)
        if s.stack:  # "stack_size"
            add_at(stack_at)
            add_value(len(s.stack) / len(BOARD_ID))
        for c in s.supply:  # "supply"
            add_one(supply_at + c)
        for x in s.needs:  # "ship_parts"
            add_one(parts_at + x)
        return finish(size, ones, at, value)

    return encode


SEAT_ENCODERS: dict[str, Callable[[ObservationLayout, State], SeatEncoder | None]] = {
    "schattendieb": schattendieb,
    "thieves": thieves,
    "thieves-den": thieves_den,
    "schatz-rabatz": schatz_rabatz,
}
