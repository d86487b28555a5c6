"""Observation vectors read straight from a game's state for one seat (the fast path).

:meth:`thievery.rl.encoding.ObservationLayout.encode` turns a seat's **view** into the
vector; building the view (JSON: ids as strings, nested dicts) and reading it back cost
more than the rest of a decision. A *seat encoder* here writes the very same numbers
from the state, reading exactly the parts of it that :func:`view` shows that seat (the
comments name the view's key each block reproduces), with card numbers as the vocabulary
positions they are. It is the view's twin, not a second source of truth:

- ``tests/rl/test_direct.py`` holds every seat encoder bit-identical to
  ``layout.encode(state.view(seat), seat)`` for every seat of every decision of random
  games (every player count, and options that change the vectors);
- ``tests/rl/test_secrecy.py`` re-samples everything the seat cannot know and checks the
  seat encoder's vector (and the view's) does not change;
- :class:`thievery.rl.match.Match` uses a seat encoder where the game has one
  (:data:`SEAT_ENCODERS`), else the view.

An encoder writes its numbers through the ``memoryview`` of a zeroed float32 numpy array
(``.data``: its item assignment converts a float more cheaply than an ``array("f")``'s
or numpy's own) and copies parts kept as ``array("f")`` blocks in whole. Each position
is written once (the games keep each card in one place); where the view's encoding
would add up repeats (Thieves Den's later effects), the encoder counts.

A seat encoder is made once per layout: ``SEAT_ENCODERS[game](layout, probe)`` (``probe``
a freshly started state, for what the options fix: a card set, a chest's size) gives
``encode(state, seat) -> Vector``, or ``None`` where the view's encoding must serve.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from struct import Struct
from typing import Any

import numpy as np

from thievery.core.protocol import State
from thievery.rl.encoding import ObservationLayout, Vector

SeatEncoder = Callable[[State, int], Vector]
FLOAT32 = np.dtype(np.float32)  # (np.frombuffer takes a dtype quicker than a type)


def offsets(layout: ObservationLayout, names: str) -> list[int]:
    """The offsets of the fields named in ``names`` (separated by spaces), in that order."""
    where = dict(zip((f.name for f in layout.fields), layout.offsets, strict=True))
    return [where[name] for name in names.split()]


TurnBlocks = list[dict[tuple[int, ...], "array[float]"]]


def turn_blocks(players: int) -> TurnBlocks:
    """Per seat, its "to_act" numbers by the tuple of seats to act (see :func:`turn_block`)."""
    return [{} for _ in range(players)]


def turn_block(blocks: TurnBlocks, me: int, to_act: tuple[int, ...]) -> array[float]:
    """Seat ``me``'s "to_act" numbers (1.0 at each seat to act, relative to ``me``), made
    once per tuple of seats and remembered in ``blocks``."""
    n = len(blocks)
    block = array("f", bytes(4 * n))
    for x in to_act:
        block[(x - me) % n] = 1.0
    blocks[me][to_act] = block
    return block


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
        vec = np.zeros(size, FLOAT32)
        buf: memoryview[float] = vec.data  # type: ignore[assignment]  # (its floats)
        n = s.players
        phase = s.phase
        buf[phase_at + phase] = 1.0  # "phase"
        for x in s._to_act:  # "to_act"
            buf[to_act_at + (x - me) % n] = 1.0
        buf[dealer_at + (s.dealer - me) % n] = 1.0  # "dealer"
        buf[game_no_at] = float(s.game_no + 1)  # "game_no" (shown from 1)
        buf[games_at] = float(s.games)  # "games"
        if s.round_no:  # "round"
            buf[round_at] = s.round_no / 20.0
        if s.pile:  # "pile_size"
            buf[pile_at] = len(s.pile) / 105.0
        seen = len(s.discard) + len(s.burned)  # "discard_size"
        if seen:
            buf[discard_size_at] = seen / 105.0
        for c in s.hands[me]:  # "hand" (own)
            buf[hand_at + c] = 1.0
        hands, adds, safes, closed = s.hands, s.adds, s.safes, s.closed
        choice, revealed, front, table = s.choice, s.revealed, s.front, s.table
        kinds, asked, done, totals = s.add_kind, s.add_asked, s.add_done, s.totals
        shown = phase != PLAY  # "revealed" is shown once the play step is over
        for r in range(n):
            t = (me + r) % n  # the absolute seat of relative seat r
            held = len(hands[t]) + len(adds[t])  # "hand_sizes": public sizes
            if held:
                buf[hand_sizes_at + r] = held / 10.0
            base = r * k
            o = safes_at + base
            for c in safes[t]:  # "safes"
                buf[o + c] = 1.0
            if closed[t] >= 0:  # "closed"
                buf[closed_at + base + closed[t]] = 1.0
            if choice[t] >= 0:  # "chosen": whether, never which
                buf[chosen_at + r] = 1.0
            if shown and revealed[t] >= 0:  # "revealed"
                buf[revealed_at + base + revealed[t]] = 1.0
            o = front_at + base
            for c in front[t]:  # "front"
                buf[o + c] = 1.0
            if table[t] >= 0:  # "table"
                buf[table_at + base + table[t]] = 1.0
            if kinds[t] >= 0:  # "add_kinds"
                buf[kinds_at + r * n_kinds + kinds[t]] = 1.0
            if asked[t]:  # "add_asked"
                buf[asked_at + r] = float(asked[t])
            if done[t]:  # "add_done"
                buf[done_at + r] = float(done[t])
            if totals[t]:  # "scores"
                buf[scores_at + r] = totals[t] / 50.0
        for c in s.discard:  # "discard"
            buf[discard_at + c] = 1.0
        if choice[me] >= 0:  # "my_choice" (own)
            buf[my_choice_at + choice[me]] = 1.0
        for t, c in s.steal_queue:  # "thieves"
            buf[thieves_at + ((t - me) % n) * k + c] = 1.0
        if phase == STEAL:  # "steal_candidates"
            for c in s._steal_candidates():
                buf[candidates_at + c] = 1.0
        for c in adds[me]:  # "my_adds" (own)
            buf[my_adds_at + c] = 1.0
        return vec

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

    def encode(state: State, me: int) -> Vector:
        s: Any = state
        vec = np.zeros(size, FLOAT32)
        buf: memoryview[float] = vec.data  # type: ignore[assignment]  # (its floats)
        n = s.players
        phase = s.phase
        over = phase == OVER
        buf[phase_at + phase] = 1.0  # "phase"
        if PLAY < phase < OVER:  # "pending": remove, move or double_loot
            buf[pending_at + phase - 1] = 1.0
        for x in s._to_act:  # "to_act"
            buf[to_act_at + (x - me) % n] = 1.0
        buf[current_at + (s.current - me) % n] = 1.0  # "current"
        buf[first_at + (s.first - me) % n] = 1.0  # "first_player"
        if s.turn:  # "turn"
            buf[turn_at] = s.turn / 100.0
        for c in s.hands[me]:  # "hand" (own)
            buf[hand_at + c] = 1.0
        hands, loot, clean = s.hands, s.loot, s.clean
        for r in range(n):
            t = (me + r) % n
            if hands[t]:  # "hand_sizes"
                buf[hand_sizes_at + r] = len(hands[t]) / 4.0
            if clean[t]:  # "police_free"
                buf[free_at + r] = clean[t] / 4.0
            # "loot" (5 numbers a slot, slots in order) and "loot_cards"; every card is
            # shown to the row's owner (and to all once the game is over), else only once
            # exposed (written straight in: remembering rows by content cost more)
            mine = t == me or over
            slot = loot_at + r * per_seat
            cards_o = loot_cards_at + r * k
            for e in loot[t]:
                buf[slot] = 1.0  # occupied
                if e >= FACE_UP:
                    buf[slot + 1] = 1.0
                if e >= EXPOSED or mine:  # the card, where the view shows it
                    c = e & CARD_MASK
                    buf[cards_o + c] = 1.0
                    for d, x in known[c]:
                        buf[slot + d] = x
                slot += per_slot
        for c in s.police:  # "police"
            buf[police_at + c] = 1.0
        if s.cars:  # "cars"
            buf[cars_at] = s.cars / 4.0
        for c in s.getaways:  # "getaways"
            buf[getaways_at + c] = 1.0
        if s.deck:  # "deck_size"
            buf[deck_at] = len(s.deck) / 52.0
        for c in s.discard:  # "discard"
            buf[discard_at + c] = 1.0
        if s.acting >= 0:  # "resolving"
            buf[resolving_at + s.acting] = 1.0
        if s.drawn >= 0 and me == s.current:  # "drawn": for its player only
            buf[drawn_at + s.drawn] = 1.0
        if s.extra:  # "double_loot_draws"
            buf[draws_at] = s.extra / 2.0
        return vec

    return encode


def thieves_den(layout: ObservationLayout, probe: State) -> SeatEncoder | None:
    """Thieves Den: Location, Fence, Power tile and Scheme numbers are their positions in
    the card set's id lists (``None`` if a set repeats an id: the view's encoding then
    serves), treasures theirs in ``TREASURES``, effect ops theirs in ``OP_NAMES``.

    Runs of numbers that lie side by side ("round" to "location_deck"; each seat's
    treasures, prestige, thieves and hand size) are written by one ``struct`` call each,
    zeros included (a zero written over a zero changes nothing)."""
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
    # "round", "supply" (16), "burgle" and "location_deck" lie side by side: one run
    if not (supply_at == round_at + 1 and burgle_at == supply_at + 16 == deck_at - 1):
        raise ValueError("Thieves Den's layout: round .. location_deck are not one run")
    put_counts = Struct("19f").pack_into  # "round" .. "location_deck"
    put_head = Struct("8f").pack_into  # a seat's treasures, prestige, thieves, hand size

    # "fence_row", "powers" (7 a tile) and "powers_gone" lie side by side; their numbers
    # by state object (id), with copies of what they were made from: (the Fence row, the
    # Power stacks, the treasures paid beside them, the tiles gone, the numbers)
    n_powers = len(cs.power_id)
    if not (powers_at == fence_row_at + n_fences and gone_at == powers_at + 7 * n_powers):
        raise ValueError("Thieves Den's layout: fence_row .. powers_gone are not one run")
    if neutral_at != gone_at + n_powers:
        raise ValueError("Thieves Den's layout: neutral does not follow powers_gone")
    Board = tuple[list[int], list[list[int]], list[int], list[int], "array[float]"]
    boards: dict[int, Board] = {}
    no_board = array("f", bytes(4 * (neutral_at - fence_row_at)))

    def board_block(
        row: list[int], stacks: list[list[int]], paid: list[int], gone: list[int]
    ) -> Board:
        block = no_board[:]
        for f in row:  # "fence_row"
            if f >= 0:
                block[f] = 1.0
        for i, st in enumerate(stacks):  # "powers": the tiles face up
            if st:
                o = n_fences + st[-1] * 7
                block[o] = 1.0
                if paid[i] >= 0:
                    block[o + 1 + paid[i]] = 1.0
                if len(st) > 1:
                    block[o + 6] = (len(st) - 1) / 3
        for p in gone:  # "powers_gone"
            block[n_fences + 7 * n_powers + p] = 1.0
        return row[:], [st[:] for st in stacks], paid[:], gone[:], block

    # per seat ``me``, every seat in its order (``me`` first) with the offsets of its
    # "seats" numbers (its first 8 as a byte offset, then its Locations face up, those
    # collected, its Fences, those collected and its Scheme) and of its "seat_flags"
    n_seats = probe.players
    seats = []
    for me in range(n_seats):
        row = []
        for r in range(n_seats):
            o = seats_at + r * n_seat
            up_o = o + 8
            row.append(
                (
                    (me + r) % n_seats,
                    4 * o,
                    up_o,
                    up_o + n_locs,
                    up_o + 2 * n_locs,
                    up_o + 2 * n_locs + n_fences,
                    up_o + 2 * n_locs + 2 * n_fences,
                    flags_at + 2 * r,
                )
            )
        seats.append(row)

    # "phase", "to_act", "holder", "current", "decider" and "direction" (one run before
    # "round") by (the seat, the phase, the seats to act, holder, current, decider,
    # direction): a few hundred blocks recur all game
    if not phase_at < to_act_at < holder_at < current_at < decider_at < direction_at:
        raise ValueError("Thieves Den's layout: phase .. direction are not in order")
    if round_at != direction_at + 2:
        raise ValueError("Thieves Den's layout: round does not follow direction")
    heads: dict[tuple[Any, ...], array[float]] = {}
    no_head = array("f", bytes(4 * (round_at - phase_at)))

    def head_block(key: tuple[Any, ...]) -> array[float]:
        me, phase, to_act, holder, current, decider, direction = key
        n = n_seats
        block = no_head[:]
        block[phase] = 1.0  # "phase"
        for x in to_act:  # "to_act"
            block[to_act_at - phase_at + (x - me) % n] = 1.0
        block[holder_at - phase_at + (holder - me) % n] = 1.0  # "holder"
        if phase == THIEVE:  # "current": only while thieving
            block[current_at - phase_at + (current - me) % n] = 1.0
        if decider >= 0:  # "decider"
            block[decider_at - phase_at + (decider - me) % n] = 1.0
        block[direction_at - phase_at + (0 if direction > 0 else 1)] = 1.0  # "direction"
        if len(heads) > 20_000:
            heads.clear()
        heads[key] = block
        return block

    def encode(state: State, me: int) -> Vector:
        s: Any = state
        vec = np.zeros(size, FLOAT32)
        buf: memoryview[float] = vec.data  # type: ignore[assignment]  # (its floats)
        n = s.players
        phase = s.phase
        on_loc = s.on_loc
        # "phase" .. "direction" (one run), remembered by what they show
        key = (me, phase, s._to_act, s.holder, s.current, s._decider, s.direction)
        block = heads.get(key)
        if block is None:
            block = head_block(key)
        buf[phase_at:round_at] = block
        # "round"; "supply": treasures, thieves, Witch spots, Recruit row; "burgle";
        # "location_deck"
        sup, witch, rec, deck = s.supply, s.witch, s.recruit, s.loc_deck
        put_counts(
            buf,
            4 * round_at,
            s.round / 10,
            sup[0] / 10,
            sup[1] / 10,
            sup[2] / 10,
            sup[3] / 10,
            sup[4] / 10,
            s.supply_thieves / 10,
            1.0 if witch[0] else 0.0,
            1.0 if witch[1] else 0.0,
            1.0 if witch[2] else 0.0,
            1.0 if witch[3] else 0.0,
            1.0 if witch[4] else 0.0,
            rec[0] / 5,
            rec[1] / 5,
            rec[2] / 5,
            rec[3] / 5,
            rec[4] / 5,
            s.burgle / 5,
            len(deck) / 40,
        )
        if s.known_top:  # "location_deck_top": the cards known to lie on top
            for c in deck[len(deck) - s.known_top :]:
                buf[top_at + c] = 1.0
        if s.fence_deck:  # "fence_deck"
            buf[fence_deck_at] = len(s.fence_deck) / 40
        # "fence_row", "powers", "powers_gone": this state's last block if they are as
        # they were (they change a few times a game), else written again
        row, stacks, paid, gone = s.fence_row, s.power_stacks, s.power_paid, s.power_gone
        board = boards.get(id(s))
        if (
            board is None
            or board[0] != row
            or board[1] != stacks
            or board[2] != paid
            or board[3] != gone
        ):
            board = board_block(row, stacks, paid, gone)
            if len(boards) > 256:  # (one entry per state object in play)
                boards.clear()
            boards[id(s)] = board
        buf[fence_row_at:neutral_at] = board[4]
        for c in s.neutral:  # "neutral"
            buf[neutral_at + c] = 1.0 + on_loc[c]
        over = phase == OVER
        treasure, prestige, thieves, hands = s.treasure, s.prestige, s.thieves, s.hands
        up, collected, fences, kept = s.up, s.collected, s.fences, s.fences_collected
        uses, passed, pick, scheme = s.fence_uses, s.passed, s.pick, s.scheme
        for t, head, up_o, col_o, fen_o, kept_o, scheme_o, flag in seats[me]:
            tr = treasure[t]
            put_head(
                buf,
                head,
                tr[0] / 5,
                tr[1] / 5,
                tr[2] / 5,
                tr[3] / 5,
                tr[4] / 5,
                prestige[t] / 50,
                thieves[t] / 5,
                len(hands[t]) / 5,
            )
            for c in up[t]:
                buf[up_o + c] = 1.0 + on_loc[c]
            for c in collected[t]:
                buf[col_o + c] = 1.0
            if fences[t]:
                for f in fences[t]:
                    buf[fen_o + f] = 1.0 + uses[f]
            if kept[t]:
                for f in kept[t]:
                    buf[kept_o + f] = 1.0
            if t == me or over:  # a Scheme is secret until the end
                buf[scheme_o + scheme[t] % n_schemes] = 1.0
            if passed[t]:
                buf[flag] = 1.0
            if pick[t] >= 0:
                buf[flag + 1] = 1.0
        for c in hands[me]:  # "hand" (own)
            buf[hand_at + c] = 1.0
        if pick[me] >= 0:  # "my_pick" (own)
            buf[pick_at + pick[me]] = 1.0
        queue = s.queue
        if queue:  # "stack": the next op (the last entry), then how many of each come later
            buf[stack_at + queue[-1][0]] = 1.0
            later: dict[int, float] = {}
            for entry in queue[:-1]:
                later[entry[0]] = later.get(entry[0], 0.0) + 1.0
            for op, count in later.items():
                buf[stack_at + n_ops + op] = count
        for x in s.tied:  # "tied"
            buf[tied_at + (x - me) % n] = 1.0
        return vec

    return encode


def schatz_rabatz(layout: ObservationLayout, probe: State) -> SeatEncoder:
    """Schatz-Rabatz: treasure, Jack-board and ship-part numbers are their positions in
    ``TREASURE_ID``, ``BOARD_ID`` and ``CARD_ID``; a placed treasure's cells come from its
    orientation (each chest's block remembered by its content)."""
    from thievery.games.schatz_rabatz.pieces import (
        BOARD_CLAIMS,
        BOARD_ID,
        CARD_ID,
        N_TREASURES,
        ORIENTATIONS,
        SHAPE_OF,
    )
    from thievery.games.schatz_rabatz.rules import PACKING

    p: Any = probe
    width, depth = p.width, p.depth
    per_chest = 3 + width + width * depth
    n_treasures = N_TREASURES
    (phase_at, to_act_at, round_at, clock_at, pool_at, chests_at, out_at, jack_at,
     claims_at, board_at, turned_at, stack_at, ships_at, supply_at, ready_at,
     parts_at) = offsets(
        layout,
        "phase to_act round clock pool chests out jack board.claims board.id "
        "boards_turned stack_size ships supply ready ship_parts",
    )  # fmt: skip
    n_seats = p.players
    turns = turn_blocks(n_seats)
    n_parts = layout.fields[layout.offsets.index(ships_at)].size // max(1, n_seats)
    # each Jack board's "board.claims" numbers
    n_claims = layout.fields[layout.offsets.index(claims_at)].size
    claims = [array("f", bytes(4 * n_claims)) for _ in BOARD_ID]
    for b, block in enumerate(claims):
        for x in BOARD_CLAIMS[b]:
            block[x] = 1.0
    size = layout.size
    # A chest's column heights and cells: (the heights, the placements) -> its numbers
    # ("chests" from the heights on: heights / depth, then the cells row by row), a float
    # array copied into the vector whole. A chest changes one drop at a time.
    blocks: dict[tuple[Any, ...], array[float]] = {}
    block_size = width + width * depth
    empty = array("f", bytes(4 * block_size))

    def chest_block(key: tuple[Any, ...]) -> array[float]:
        block = empty[:]
        for x, h in enumerate(key[:width]):
            block[x] = h / depth
        for t, r, c, row in key[width:]:
            for x, y in ORIENTATIONS[SHAPE_OF[t]][r].cells:
                if 0 <= c + x < width and 0 <= row + y < depth:
                    block[width + (row + y) * width + c + x] = 1.0
        if len(blocks) > 20_000:  # (a couple of hundred bytes each)
            blocks.clear()
        blocks[key] = block
        return block

    # The supply's ship parts (a card leaves it now and then): their "supply" numbers.
    supplies: dict[tuple[int, ...], array[float]] = {}
    pools: dict[bytes, array[float]] = {}
    n_cards = len(CARD_ID)
    no_cards = array("f", bytes(4 * n_cards))

    def supply_block(key: tuple[int, ...]) -> array[float]:
        block = no_cards[:]
        for c in key:
            block[c] = 1.0
        if len(supplies) > 20_000:
            supplies.clear()
        supplies[key] = block
        return block

    # per seat ``me``, the other seats in its order (``me`` first) with the offsets of
    # their numbers: (seat, "chests" entry, its heights and cells, "out", "jack",
    # "ships", "ready")
    seats = [
        [
            ((me + r) % n_seats, chests_at + r * per_chest, chests_at + r * per_chest + 3,
             out_at + r * n_treasures, jack_at + r * n_treasures, ships_at + r * n_parts,
             ready_at + r)
            for r in range(n_seats)
        ]
        for me in range(n_seats)
    ]  # fmt: skip

    def encode(state: State, me: int) -> Vector:
        s: Any = state
        vec = np.zeros(size, FLOAT32)
        buf: memoryview[float] = vec.data  # type: ignore[assignment]  # (its floats)
        n = s.players
        now = s.now_ms
        buf[phase_at + s.phase] = 1.0  # "phase"
        to_act = s._to_act  # "to_act"
        block = turns[me].get(to_act)
        if block is None:
            block = turn_block(turns, me, to_act)
        buf[to_act_at : to_act_at + n] = block
        if s.round_no:  # "round"
            buf[round_at] = s.round_no / 10
        # "clock": the hourglass's time left (all of it before it is turned), and the
        # seat's own hand busy while it packs with its lid open
        if s.ends_ms < 0:
            buf[clock_at] = 1.0
        elif s.ends_ms > now:
            buf[clock_at] = (s.ends_ms - now) / max(1, s.hourglass_ms)
        if s.phase == PACKING and s.is_open[me] and s.hand_ready[me] > now:
            buf[clock_at + 1] = (s.hand_ready[me] - now) / 1000
        pool = bytes(s.in_pool)  # "pool": 1.0 or 0.0 a treasure, remembered by content
        block = pools.get(pool)
        if block is None:
            if len(pools) > 20_000:
                pools.clear()
            block = pools[pool] = array("f", s.in_pool)
        buf[pool_at : pool_at + n_treasures] = block
        is_open, closed, ready_ms, heights = s.is_open, s.closed_ms, s.hand_ready, s.heights
        chests, out, jack, ships, ready = s.chests, s.out, s.jack, s.ships, s.ready
        for t, o, cells, out_o, jack_o, ships_o, ready_o in seats[me]:
            if is_open[t]:  # "chests"
                buf[o] = 1.0
            if closed[t] >= 0:
                buf[o + 1] = 1.0
            if ready_ms[t] > now:
                buf[o + 2] = (ready_ms[t] - now) / 1000
            key = (*heights[t], *chests[t])  # (a skyline has a height per column)
            block = blocks.get(key)
            if block is None:
                block = chest_block(key)
            buf[cells : cells + block_size] = block
            for x in out[t]:  # "out"
                buf[out_o + x] = 1.0
            for x in jack[t]:  # "jack"
                buf[jack_o + x] = 1.0
            for c in ships[t]:  # "ships"
                buf[ships_o + c] = 1.0
            if ready[t]:  # "ready"
                buf[ready_o] = float(ready[t])
        if s.board >= 0:  # "board.claims", "board.id"
            buf[claims_at : claims_at + n_claims] = claims[s.board]
            buf[board_at + s.board] = 1.0
        for b in s.turned:  # "boards_turned"
            buf[turned_at + b] = 1.0
        if s.stack:  # "stack_size"
            buf[stack_at] = len(s.stack) / len(BOARD_ID)
        key = tuple(s.supply)  # "supply", remembered by its content
        block = supplies.get(key)
        if block is None:
            block = supply_block(key)
        buf[supply_at : supply_at + n_cards] = block
        for x in s.needs:  # "ship_parts"
            buf[parts_at + x] = 1.0
        return vec

    return encode


SEAT_ENCODERS: dict[str, Callable[[ObservationLayout, State], SeatEncoder | None]] = {
    "schattendieb": schattendieb,
    "thieves": thieves,
    "thieves-den": thieves_den,
    "schatz-rabatz": schatz_rabatz,
}
