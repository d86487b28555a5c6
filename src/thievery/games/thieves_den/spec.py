"""Thieves Den's spec: options, action parsing, the determinizer and events in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from thievery.core.errors import MalformedAction
from thievery.core.protocol import (
    Action,
    Event,
    GameSpec,
    Option,
    State,
    parse_fields,
    seat_name,
)
from thievery.core.rng import Rng
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
    ChooseLocation,
    Fence,
    Pick,
    Power,
    ReturnFence,
    Steal,
)
from thievery.games.thieves_den.cards import (
    TREASURES,
    load_card_set,
)
from thievery.games.thieves_den.effects import OP_NAMES
from thievery.games.thieves_den.rules import (
    NEUTRAL,
    PHASE_NAMES,
    ThievesDen,
    check_setup,
    universe_fences,
    universe_locations,
)

CARD_ACTIONS: dict[str, type[Action]] = {
    "pick": Pick,
    "steal": Steal,
    "fence": Fence,
    "location": ChooseLocation,
    "return_fence": ReturnFence,
}
TYPES = (
    "pick, steal, fence, power, witch, burgle, recruit, pass, treasure, opponent, location, "
    "return_fence, skip, give"
)


def _string(data: Mapping[str, Any], name: str, kind: str) -> str:
    (value,) = parse_fields(data, [name], kind=kind)
    if not isinstance(value, str):
        raise MalformedAction(f"a {kind!r} action's {name!r} is a string, not {value!r}")
    return value


def _treasure(data: Mapping[str, Any], name: str, kind: str) -> int:
    value = data.get(name)
    if not isinstance(value, str) or value not in TREASURE_INDEX:
        raise MalformedAction(
            f"a {kind!r} action's {name!r} is a treasure ({', '.join(TREASURES)}), not {value!r}"
        )
    return TREASURE_INDEX[value]


def _seat(data: Mapping[str, Any], kind: str) -> int:
    (value,) = parse_fields(data, ["seat"], kind=kind)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 5:
        raise MalformedAction(f"a {kind!r} action's 'seat' is a seat number, not {value!r}")
    return value


class ThievesDenSpec(GameSpec):
    """Thieves Den (Daily Magic Games, Alice Davis), 2 to 5 players, data-driven cards."""

    name: ClassVar[str] = "thieves-den"
    title: ClassVar[str] = "Thieves Den"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "cards",
            None,
            "a card set: the path of a card file (TOML, see data/unofficial.toml), or the "
            "set inline (the file's content as a JSON object); default: the unofficial "
            "Thievery set",
            local=True,
        ),
        Option("first_player", None, "the seat that starts with the Direction tile"),
        Option("location_deck", None, "stacked setup: Location ids on top, top first", secret=True),
        Option("fence_deck", None, "stacked setup: Fence ids on top, top first", secret=True),
        Option(
            "power_tiles",
            None,
            "stacked setup: Power tile ids, stack 0 top to bottom, then stacks 1 and 2",
            secret=True,
        ),
        Option("schemes", None, "stacked setup: one Scheme id per seat", secret=True),
    )

    def new(
        self, players: int, seed: int = 0, options: Mapping[str, Any] | None = None
    ) -> ThievesDen:
        resolved = self.check_new(players, seed, options)
        check_setup(players, resolved)
        return ThievesDen.start(players, seed, resolved)

    def parse_action(self, data: Mapping[str, Any]) -> Action:
        kind = data.get("type")
        if not isinstance(kind, str):
            raise MalformedAction(f"unknown action type {kind!r} (types: {TYPES})")
        if kind in CARD_ACTIONS:
            return CARD_ACTIONS[kind](_string(data, "card", kind))  # type: ignore[call-arg]
        if kind in ("pass", "skip"):
            parse_fields(data, [], kind=kind)
            return PASS if kind == "pass" else SKIP
        if kind in ("witch", "burgle", "treasure"):
            parse_fields(data, ["treasure"], kind=kind)
            t = _treasure(data, "treasure", kind)
            if kind == "witch":
                return WITCHES[t]
            return BURGLES[t] if kind == "burgle" else TREASURE_CHOICES[t]
        if kind == "recruit":
            parse_fields(data, ["first", "second"], kind=kind)
            a, b = _treasure(data, "first", kind), _treasure(data, "second", kind)
            if a > b:
                raise MalformedAction(
                    f"a 'recruit' action lists its treasures in order: {', '.join(TREASURES)}"
                )
            return RECRUITS[(a, b)]
        if kind == "power":
            parse_fields(data, ["tile", "pay"], kind=kind)
            tile = data["tile"]
            if not isinstance(tile, str):
                raise MalformedAction(f"a 'power' action's 'tile' is a string, not {tile!r}")
            return Power(tile, TREASURES[_treasure(data, "pay", kind)])
        if kind == "opponent":
            return OPPONENTS[_seat(data, kind)]
        if kind == "give":
            return GIVES[_seat(data, kind)]
        raise MalformedAction(f"unknown action type {kind!r} (types: {TYPES})")

    # ------------------------------------------------------------ determinizer

    def determinize(self, view: Mapping[str, Any], rng: Rng) -> State:
        """Rebuild a full state from a seat's view; every hidden thing is re-sampled.

        Hidden: other seats' hands, sealed picks and Schemes, the unused Schemes, the
        Location and Fence decks (except Location cards known to lie on top), and the Power
        tiles below each stack's top and in the box. A view that carries the seat's
        memory of the hands it passed in this Scouting (``"passed_hands"``) places
        those cards with the seats holding them now.
        """
        seat = view["seat"]
        if seat is None:
            raise ValueError("determinize needs a seat's view, not a spectator's")
        n = view["players"]
        options = {**self.defaults(), **view["options"]}
        cs = load_card_set(options.get("cards"))
        s = ThievesDen.blank(n, 0, options, cs)
        s.rng = Rng(rng.next64())
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
        if s.phase == 3:
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
        self.sample_hidden(s, view, rng)
        s._pending = s.pending_choices()
        return s

    def sample_hidden(self, s: ThievesDen, view: Mapping[str, Any], rng: Rng) -> None:
        cs = s.cs
        n, seat = s.players, view["seat"]
        loc = cs.loc_index
        # Location cards: other hands and picks, then the deck under its known top.
        top = [loc[c] for c in view["location_deck_top"]]
        seen = set(top) | set(s.neutral) | set(s.hands[seat])
        for k in range(n):
            seen.update(s.up[k])
            seen.update(s.collected[k])
        if s.pick[seat] >= 0:
            seen.add(s.pick[seat])
        passed = _passed_hands(s, view, seen)
        for cards in passed.values():
            seen.update(cards)
        pool = [c for c in universe_locations(cs, n) if c not in seen]
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
        s.loc_deck = pool + top[::-1]
        s.known_top = len(top)
        if len(s.loc_deck) != view["location_deck"]:
            raise ValueError("the view's Location card counts do not add up")
        # Fences: the deck is every Fence not in sight.
        seen_f = {f for f in s.fence_row if f >= 0}
        for k in range(n):
            seen_f.update(s.fences[k])
            seen_f.update(s.fences_collected[k])
        fdeck = [f for f in universe_fences(cs, n) if f not in seen_f]
        rng.shuffle(fdeck)
        s.fence_deck = fdeck
        # Power tiles below the tops and in the box.
        tops = [cs.power_index[p["tile"]] for p in view["powers"] if p["tile"] is not None]
        known = set(tops) | set(s.power_gone)
        tiles = [p for p in range(len(cs.power_id)) if p not in known]
        rng.shuffle(tiles)
        for i, p in enumerate(view["powers"]):
            if p["tile"] is None:
                s.power_stacks[i] = []
            else:
                below = [tiles.pop() for _ in range(p["below"])]
                s.power_stacks[i] = [*below, cs.power_index[p["tile"]]]
        s.power_box = tiles
        # Schemes: ours is known; the others' and the box are sampled.
        mine = view["seats"][seat]["scheme"]
        schemes = [k for k in range(len(cs.scheme_id)) if cs.scheme_id[k] != mine]
        rng.shuffle(schemes)
        for k in range(n):
            s.scheme[k] = cs.scheme_index[mine] if k == seat else schemes.pop()
        s.scheme_box = schemes

    # ------------------------------------------------------------ words

    def describe(
        self, event: Event, seat: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        """An event in words, e.g. ``Seat 2 steals at your Market``, from ``EVENT_WORDS``:
        a seat field (``seat``, ``from``, ``with``, ``owner``, ``holder``) is there as
        ``{seat}``, ``{Seat}`` (starting a sentence) or ``{seat_s}`` (possessive)."""
        d = dict(event.data)
        t = event.type
        actor = d.get("seat")

        def who(k: int) -> str:
            return seat_name(k, seat, names)

        fields = {"s": "" if actor == seat else "s", "es": "" if actor == seat else "es"}
        for key, value in d.items():
            if key in ("seat", "from", "with", "owner", "holder") and isinstance(value, int):
                fields[key] = who(value)
                fields[key.capitalize()] = seat_name(value, seat, names, capital=True)
                fields[key + "_s"] = seat_name(value, seat, names, possessive=True)
            elif key in ("card", "mine", "theirs", "tile", "to", "from"):
                fields[key] = _card_name(str(value))
            elif key == "count" and d.get("what") is not None:
                fields["things"] = _plural(int(value), str(d["what"]))
            else:
                fields[key] = str(value).replace("_", " ")
        fields["holder_has"] = "have" if d.get("holder") == seat else "has"
        if t == "steal" and d["owner"] in (-1, actor):
            t = "steal_free"
        if t == "gain" and d["count"] == 0:
            t = "gain_none"
        if t == "reveal":
            parts = [f"{who(int(k))}: {_card_name(c)}" for k, c in d["cards"].items()]
            return "Revealed — " + "; ".join(parts)
        if t in ("dealt", "neutral", "fences_drawn"):
            fields["cards"] = ", ".join(_card_name(c) for c in d["cards"]) or "none"
        if t == "recruit":
            fields["pay"] = " and a ".join(d["pay"])
        if t == "final":
            major = [f"{m} → {who(w)}" for m, w in d["majorities"].items() if w is not None]
            schemes = [
                f"{who(k)}: {x['scheme']} ×{x['sets']} (+{x['prestige']})"
                for k, x in enumerate(d["schemes"])
            ]
            return f"Final scoring — majorities: {', '.join(major) or 'none'}; " + "; ".join(
                schemes
            )
        if t == "game_over":
            winners = " and ".join(who(w) for w in d["winners"])
            return f"The game is over. Winner: {winners}. Scores: {d['scores']}"
        template = EVENT_WORDS.get(t)
        if template is None:
            return f"{t}: {d}"
        return template.format_map(fields)


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


EVENT_WORDS = {
    "round": "Round {round} begins; {holder} {holder_has} the Direction tile ({direction})",
    "dealt": "You were dealt {cards}",
    "picked": "{Seat} picked a card",
    "you_picked": "You keep {card}",
    "instant": "{Seat} use{s} the instant {card}",
    "neutral": "Neutral Locations this round: {cards}",
    "steal": "{Seat} steal{s} at {owner_s} {card}",
    "steal_free": "{Seat} steal{s} at {card}",
    "bonus": "{Seat} get{s} the Owner Bonus of {card}",
    "gain": "{Seat} take{s} {things}",
    "gain_none": "{Seat} get{s} no {what}: the supply is empty",
    "prestige": "{Seat} gain{s} {count} Prestige",
    "pay": "{Seat} pay{s} {things}",
    "return": "{Seat} return{s} {things} (over the limit)",
    "take": "{Seat} take{s} a {what} from {from}",
    "destroy": "{Seat} destroy{s} {from_s} {what}",
    "fence": "{Seat} sell{s} to the Fence {card} for {prestige} Prestige",
    "fence_drawn": "New Fence: {card}",
    "fences_drawn": "New Fences: {cards}",
    "power": "{Seat} use{s} the Power tile {tile} (paying a {pay})",
    "witch": "{Seat} deliver{s} a {treasure} to the Witch for {prestige} Prestige",
    "burgle": "{Seat} burgle{s} a {treasure} with 2 Thieves",
    "recruit": "{Seat} recruit{s} a Thief with a {pay}",
    "pass": "{Seat} pass{es}",
    "skip": "{Seat} skip{s}",
    "draw_location": "{Seat} draw{s} {card} from the Location deck",
    "recall": "{Seat} take{s} a Thief off {card}; it goes on top of the deck",
    "move": "{Seat} move{s} a Thief from {from} to {to}",
    "unplace": "{Seat} take{s} the Thief back from {card}",
    "return_fence": "{Seat} return{s} the Fence {card}",
    "swap": "{Seat} swap{s} {mine} for {with_s} {theirs}",
    "no_effect": "{Seat}: {effect} has no effect",
    "cleanup": "Round {round} cleaned up",
    "direction": "{Seat} take{s} the Direction tile",
}


def _card_name(card: str) -> str:
    """A card or tile id in words: ``noble-countess-a`` -> ``Noble Countess``."""
    base = card.rsplit("-", 1)[0] if card[-2:-1] == "-" else card
    return base.replace("-", " ").title()


def _plural(k: int, what: str) -> str:
    if k == 1:
        return f"1 {what}"
    return f"{k} thieves" if what == "thief" else f"{k} {what}s"


__all__ = ["ThievesDenSpec"]
