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

A seat encoder is made once per layout: ``SEAT_ENCODERS[game](layout)`` gives
``encode(state, seat) -> Vector``.
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
        out[at] = value
    return out


def offsets(layout: ObservationLayout, names: str) -> list[int]:
    """The offsets of the fields named in ``names`` (separated by spaces), in that order."""
    where = dict(zip((f.name for f in layout.fields), layout.offsets, strict=True))
    return [where[name] for name in names.split()]


def schattendieb(layout: ObservationLayout) -> SeatEncoder:
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
        n = s.players
        order = [(me + r) % n for r in range(n)]  # absolute seat of each relative seat
        phase = s.phase
        ones = [phase_at + phase]  # "phase"
        ones += [to_act_at + (x - me) % n for x in s._to_act]  # "to_act"
        ones.append(dealer_at + (s.dealer - me) % n)  # "dealer"
        at = [game_no_at, games_at]  # "game_no" (shown from 1), "games"
        value = [float(s.game_no + 1), float(s.games)]
        if s.round_no:  # "round"
            at.append(round_at)
            value.append(s.round_no / 20.0)
        if s.pile:  # "pile_size"
            at.append(pile_at)
            value.append(len(s.pile) / 105.0)
        seen = len(s.discard) + len(s.burned)  # "discard_size"
        if seen:
            at.append(discard_size_at)
            value.append(seen / 105.0)
        ones += [hand_at + c for c in s.hands[me]]  # "hand" (own)
        hands, adds, safes, closed = s.hands, s.adds, s.safes, s.closed
        choice, revealed, front, table = s.choice, s.revealed, s.front, s.table
        kinds, asked, done, totals = s.add_kind, s.add_asked, s.add_done, s.totals
        shown = phase != PLAY  # "revealed" is shown once the play step is over
        for r, t in enumerate(order):
            held = len(hands[t]) + len(adds[t])  # "hand_sizes": public sizes
            if held:
                at.append(hand_sizes_at + r)
                value.append(held / 10.0)
            base = r * k
            ones += [safes_at + base + c for c in safes[t]]  # "safes"
            if closed[t] >= 0:  # "closed"
                ones.append(closed_at + base + closed[t])
            if choice[t] >= 0:  # "chosen": whether, never which
                ones.append(chosen_at + r)
            if shown and revealed[t] >= 0:  # "revealed"
                ones.append(revealed_at + base + revealed[t])
            ones += [front_at + base + c for c in front[t]]  # "front"
            if table[t] >= 0:  # "table"
                ones.append(table_at + base + table[t])
            if kinds[t] >= 0:  # "add_kinds"
                ones.append(kinds_at + r * n_kinds + kinds[t])
            if asked[t]:  # "add_asked"
                at.append(asked_at + r)
                value.append(float(asked[t]))
            if done[t]:  # "add_done"
                at.append(done_at + r)
                value.append(float(done[t]))
            if totals[t]:  # "scores"
                at.append(scores_at + r)
                value.append(totals[t] / 50.0)
        ones += [discard_at + c for c in s.discard]  # "discard"
        if choice[me] >= 0:  # "my_choice" (own)
            ones.append(my_choice_at + choice[me])
        ones += [thieves_at + ((t - me) % n) * k + c for t, c in s.steal_queue]  # "thieves"
        if phase == STEAL:  # "steal_candidates"
            ones += [candidates_at + c for c in s._steal_candidates()]
        ones += [my_adds_at + c for c in adds[me]]  # "my_adds" (own)
        return finish(size, ones, at, value)

    return encode


def thieves(layout: ObservationLayout) -> SeatEncoder:
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
        n = s.players
        phase = s.phase
        over = phase == OVER
        ones = [phase_at + phase]  # "phase"
        if PLAY < phase < OVER:  # "pending": remove, move or double_loot
            ones.append(pending_at + phase - 1)
        ones += [to_act_at + (x - me) % n for x in s._to_act]  # "to_act"
        ones.append(current_at + (s.current - me) % n)  # "current"
        ones.append(first_at + (s.first - me) % n)  # "first_player"
        at: list[int] = []
        value: list[float] = []
        if s.turn:  # "turn"
            at.append(turn_at)
            value.append(s.turn / 100.0)
        ones += [hand_at + c for c in s.hands[me]]  # "hand" (own)
        hands, loot, clean = s.hands, s.loot, s.clean
        for r in range(n):
            t = (me + r) % n
            if hands[t]:  # "hand_sizes"
                at.append(hand_sizes_at + r)
                value.append(len(hands[t]) / 4.0)
            if clean[t]:  # "police_free"
                at.append(free_at + r)
                value.append(clean[t] / 4.0)
            # "loot": occupied, face up, and the card where the view shows it (own
            # loot, loot everyone saw, everything at the end); "loot_cards" its counts
            mine = t == me or over
            base = loot_at + r * per_seat
            cards_base = loot_cards_at + r * k
            for i, e in enumerate(loot[t]):
                slot = base + i * per_slot
                ones.append(slot)
                if e >= FACE_UP:
                    ones.append(slot + 1)
                if e >= EXPOSED or mine:
                    c = e & CARD_MASK
                    ones.append(cards_base + c)
                    for d, x in known[c]:
                        at.append(slot + d)
                        value.append(x)
        ones += [police_at + c for c in s.police]  # "police"
        if s.cars:  # "cars"
            at.append(cars_at)
            value.append(s.cars / 4.0)
        ones += [getaways_at + c for c in s.getaways]  # "getaways"
        if s.deck:  # "deck_size"
            at.append(deck_at)
            value.append(len(s.deck) / 52.0)
        ones += [discard_at + c for c in s.discard]  # "discard"
        if s.acting >= 0:  # "resolving"
            ones.append(resolving_at + s.acting)
        if s.drawn >= 0 and me == s.current:  # "drawn": for its player only
            ones.append(drawn_at + s.drawn)
        if s.extra:  # "double_loot_draws"
            at.append(draws_at)
            value.append(s.extra / 2.0)
        return finish(size, ones, at, value)

    return encode


SEAT_ENCODERS: dict[str, Callable[[ObservationLayout], SeatEncoder]] = {
    "schattendieb": schattendieb,
    "thieves": thieves,
}
