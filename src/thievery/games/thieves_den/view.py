"""Thieves Den's view and its inverse, side by side: :func:`view` is what one seat (or a
spectator) may know of a game, JSON-ready, and :class:`Determinizer` reads such a view back
into full states with everything hidden from that seat re-sampled (for fair search bots),
placing the hands the seat passed on in Scouting where they are now if it remembers them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from thievery.core.protocol import JSON, GameSpec
from thievery.core.rng import Rng
from thievery.games.thieves_den.actions import TREASURE_INDEX
from thievery.games.thieves_den.cards import TREASURES, load_card_set
from thievery.games.thieves_den.effects import OP_NAMES

if TYPE_CHECKING:  # rules.py imports this module for State.view
    from thievery.games.thieves_den.rules import ThievesDen

# By phase number: rules.SCOUT, THIEVE, GIVE, OVER.
PHASE_NAMES = ("scouting", "thieving", "direction", "over")


def view(state: ThievesDen, seat: int | None) -> JSON:
    """Exactly what ``seat`` may know of ``state`` (``None``: a spectator), JSON-ready:
    every seat's board, Locations, Fences and counts, its own hand, sealed pick and Scheme
    (every Scheme once the game is over), the central board, the Location cards known to
    lie on top of the deck, the continuation stack, the decision asked and its seat."""
    cs = state.cs
    n = state.players
    lid, fid = cs.loc_id, cs.fence_id
    phase = PHASE_NAMES[state.phase]
    over = phase == "over"

    def treasures(counts: list[int]) -> dict[str, int]:
        return {TREASURES[t]: counts[t] for t in range(5)}

    seats = []
    for s in range(n):
        seats.append(
            {
                "prestige": state.prestige[s],
                "treasures": treasures(state.treasure[s]),
                "thieves": state.thieves[s],
                "locations": [{"card": lid[c], "thieves": state.on_loc[c]} for c in state.up[s]],
                "collected": [lid[c] for c in state.collected[s]],
                "fences": [{"card": fid[f], "uses": state.fence_uses[f]} for f in state.fences[s]],
                "fences_collected": [fid[f] for f in state.fences_collected[s]],
                "passed": state.passed[s],
                "hand_size": len(state.hands[s]),
                "picked": state.pick[s] >= 0,
                "scheme": cs.scheme_id[state.scheme[s]] if s == seat or over else None,
            }
        )
    deck = state.loc_deck
    top = [lid[c] for c in deck[len(deck) - state.known_top :][::-1]] if state.known_top else []
    return {
        "game": "thieves-den",
        "players": n,
        "seat": seat,
        "options": state.spec.public_options(state.options),
        "card_set": cs.name,
        "unofficial": cs.unofficial,
        "catalogue": cs.catalogue,  # the card set in words, the same for everyone
        "round": state.round,
        "phase": phase,
        "direction": "clockwise" if state.direction > 0 else "counterclockwise",
        "holder": state.holder,
        "current": state.current if phase == "thieving" else None,
        "to_act": list(state._to_act),
        "decider": state._decider if state._decider >= 0 else None,
        "decision": state.decision_text(),
        "supply": {"treasures": treasures(state.supply), "thieves": state.supply_thieves},
        "location_deck": len(deck),
        "location_deck_top": top,
        "fence_deck": len(state.fence_deck),
        "fence_row": [fid[f] if f >= 0 else None for f in state.fence_row],
        "powers": [
            {
                "tile": cs.power_id[st[-1]] if st else None,
                "paid": TREASURES[state.power_paid[i]] if state.power_paid[i] >= 0 else None,
                "below": max(0, len(st) - 1),
            }
            for i, st in enumerate(state.power_stacks)
        ],
        "powers_gone": [cs.power_id[p] for p in state.power_gone],
        "witch": {TREASURES[t]: bool(state.witch[t]) for t in range(5)},
        "burgle": state.burgle,
        "recruit": treasures(state.recruit),
        "neutral": [{"card": lid[c], "thieves": state.on_loc[c]} for c in state.neutral],
        "seats": seats,
        "hand": [lid[c] for c in state.hands[seat]] if seat is not None else [],
        "my_pick": (lid[state.pick[seat]] if seat is not None and state.pick[seat] >= 0 else None),
        "stack": [[OP_NAMES[st[0]], *st[1:]] for st in state.queue],
        "tied": state.tied[:],
        "final": state.final,
        "result": state.result(),
    }


# ---------------------------------------------------------------- the determinizer


class Determinizer:
    """Reads one seat's view once; each :meth:`sample` is a fresh, consistent full state.

    Hidden from a seat: other seats' hands, sealed picks and Schemes, the unused Schemes,
    the Location and Fence decks (except Location cards known to lie on top), and the Power
    tiles below each stack's top and in the box. A view that carries the seat's memory of
    the hands it passed in this Scouting (``"passed_hands"``, see :func:`_passed_hands`)
    places those cards with the seats holding them now.
    """

    def __init__(self, spec: GameSpec, view: Mapping[str, Any]) -> None:
        seat = view["seat"]
        if seat is None:
            raise ValueError("determinize needs a seat's view, not a spectator's")
        from thievery.games.thieves_den.rules import (  # it imports this module
            NEUTRAL,
            ThievesDen,
            universe_fences,
            universe_locations,
        )

        n = view["players"]
        options = {**spec.defaults(), **view["options"]}
        cs = load_card_set(options.get("cards"))
        s = self.template = ThievesDen.blank(n, 0, options, cs)
        self.view = view
        loc, fen, pow_ = cs.loc_index, cs.fence_index, cs.power_index

        def tr(d: Mapping[str, int]) -> list[int]:
            return [d[t] for t in TREASURES]

        s.round = view["round"]
        s.phase = PHASE_NAMES.index(view["phase"])
        s.direction = 1 if view["direction"] == "clockwise" else -1
        s.holder = view["holder"]
        s.current = view["current"] if view["current"] is not None else -1
        s.supply = tr(view["supply"]["treasures"])
        s.supply_thieves = view["supply"]["thieves"]
        s.fence_row = [fen[f] if f is not None else -1 for f in view["fence_row"]]
        s.witch = [int(view["witch"][t]) for t in TREASURES]
        s.burgle = view["burgle"]
        s.recruit = tr(view["recruit"])
        s.neutral = [loc[x["card"]] for x in view["neutral"]]
        for x in view["neutral"]:
            s.loc_owner[loc[x["card"]]] = NEUTRAL
            s.on_loc[loc[x["card"]]] = x["thieves"]
        for i, p in enumerate(view["powers"]):
            s.power_paid[i] = TREASURE_INDEX[p["paid"]] if p["paid"] is not None else -1
        s.power_gone = [pow_[p] for p in view["powers_gone"]]
        s.queue = [(OP_NAMES.index(st[0]), st[1], st[2], st[3], st[4]) for st in view["stack"]]
        s.tied = list(view["tied"])
        s.final = view["final"]
        s._to_act = tuple(view["to_act"])
        s._decider = view["decider"] if view["decider"] is not None else -1
        if view["phase"] == "over":
            s._decider = -2
        for k, x in enumerate(view["seats"]):
            s.prestige[k] = x["prestige"]
            s.treasure[k] = tr(x["treasures"])
            s.thieves[k] = x["thieves"]
            s.passed[k] = x["passed"]
            s.up[k] = [loc[y["card"]] for y in x["locations"]]
            for y in x["locations"]:
                s.loc_owner[loc[y["card"]]] = k
                s.on_loc[loc[y["card"]]] = y["thieves"]
            s.collected[k] = [loc[c] for c in x["collected"]]
            s.fences[k] = [fen[y["card"]] for y in x["fences"]]
            for y in x["fences"]:
                s.fence_owner[fen[y["card"]]] = k
                s.fence_uses[fen[y["card"]]] = y["uses"]
            s.fences_collected[k] = [fen[f] for f in x["fences_collected"]]
        s.hands[seat] = [loc[c] for c in view["hand"]]
        if view["my_pick"] is not None:
            s.pick[seat] = loc[view["my_pick"]]
        # What every sample shares: the cards in sight, the hands passed on, the unseen.
        self.top = [loc[c] for c in view["location_deck_top"]]
        seen = set(self.top) | set(s.neutral) | set(s.hands[seat])
        for k in range(n):
            seen.update(s.up[k])
            seen.update(s.collected[k])
        if s.pick[seat] >= 0:
            seen.add(s.pick[seat])
        self.passed = _passed_hands(s, view, seen)
        for cards in self.passed.values():
            seen.update(cards)
        self.unseen_locations = [c for c in universe_locations(cs, n) if c not in seen]
        seen_f = {f for f in s.fence_row if f >= 0}
        for k in range(n):
            seen_f.update(s.fences[k])
            seen_f.update(s.fences_collected[k])
        self.unseen_fences = [f for f in universe_fences(cs, n) if f not in seen_f]
        tops = [pow_[p["tile"]] for p in view["powers"] if p["tile"] is not None]
        known = set(tops) | set(s.power_gone)
        self.unseen_tiles = [p for p in range(len(cs.power_id)) if p not in known]
        mine = view["seats"][seat]["scheme"]
        self.mine = cs.scheme_index[mine]
        self.other_schemes = [k for k in range(len(cs.scheme_id)) if cs.scheme_id[k] != mine]

    def sample(self, rng: Rng, *, last: bool = False) -> ThievesDen:
        """A fresh full state consistent with the view. With ``last`` no sample follows
        (``spec.determinize``): the template itself becomes this one, a copy saved."""
        s = self.template if last else self.template.clone()
        s.rng = Rng(rng.next64())
        view, cs = self.view, s.cs
        n, seat = s.players, view["seat"]
        # Location cards: other hands and picks, then the deck under its known top.
        passed = self.passed
        pool = self.unseen_locations[:]
        rng.shuffle(pool)
        for k, x in enumerate(view["seats"]):
            if k == seat:
                continue
            if k in passed:  # a hand this seat held and passed on: known, bar the pick
                cards = passed[k][:]
                if x["picked"]:
                    s.pick[k] = cards.pop(rng.below(len(cards)))
                s.hands[k] = cards
                continue
            s.hands[k] = [pool.pop() for _ in range(x["hand_size"])]
            if x["picked"]:
                s.pick[k] = pool.pop()
        top = self.top
        s.loc_deck = pool + top[::-1]
        s.known_top = len(top)
        if len(s.loc_deck) != view["location_deck"]:
            raise ValueError("the view's Location card counts do not add up")
        # Fences: the deck is every Fence not in sight.
        fdeck = self.unseen_fences[:]
        rng.shuffle(fdeck)
        s.fence_deck = fdeck
        # Power tiles below the tops and in the box.
        tiles = self.unseen_tiles[:]
        rng.shuffle(tiles)
        for i, p in enumerate(view["powers"]):
            if p["tile"] is None:
                s.power_stacks[i] = []
            else:
                below = [tiles.pop() for _ in range(p["below"])]
                s.power_stacks[i] = [*below, cs.power_index[p["tile"]]]
        s.power_box = tiles
        # Schemes: ours is known; the others' and the box are sampled.
        schemes = self.other_schemes[:]
        rng.shuffle(schemes)
        for k in range(n):
            s.scheme[k] = self.mine if k == seat else schemes.pop()
        s.scheme_box = schemes
        s._pending = s.pending_choices()
        return s


def _passed_hands(s: ThievesDen, view: Mapping[str, Any], seen: set[int]) -> dict[int, list[int]]:
    """The hands a seat held earlier in this round's Scouting and passed on, by the seat
    holding each now (what is left of it once the picks made from it were revealed).

    Hands travel whole in the Direction tile's direction, one seat a pick, so a hand the
    seat held when it had ``size`` cards lies ``size - len(hand)`` seats on. The memory
    comes with the view under ``"passed_hands"`` (``[[round, cards], ...]``, from the
    seat's own earlier views; see ``search.MemoryBot``); a hand whose count does not fit
    the holder's (an empty deck dealt short hands) is left to chance.
    """
    memory = view.get("passed_hands")
    if not memory or view["phase"] != "scouting":
        return {}
    seat, n = view["seat"], s.players
    # The seat's hand as it picked from it last: an Instant's choice (a decider) comes
    # after the reveal but before the hands are passed.
    mine = len(view["hand"]) + (view["my_pick"] is not None or view["decider"] is not None)
    index = s.cs.loc_index
    known: dict[int, list[int]] = {}
    for round_no, ids in memory:
        steps = len(ids) - mine
        if round_no != view["round"] or steps <= 0 or steps % n == 0:
            continue
        k = (seat + steps * s.direction) % n
        cards = [index[c] for c in ids if index[c] not in seen]
        x = view["seats"][k]
        taken = any(c in h for h in known.values() for c in cards)
        if k not in known and not taken and len(cards) == x["hand_size"] + x["picked"]:
            known[k] = cards
    return known
