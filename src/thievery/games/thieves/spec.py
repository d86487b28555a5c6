"""Thieves!'s spec: options, action parsing, the determinizer and events in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from thievery.core.errors import InvalidOption, MalformedAction
from thievery.core.protocol import Action, Event, GameSpec, Option, State
from thievery.core.rng import Rng
from thievery.games.thieves.cards import (
    ALL_CARDS,
    CARD_ID,
    CARD_INDEX,
    CARS,
    GETAWAY,
    KIND,
    MONEY,
    POLICE,
    describe_card,
)
from thievery.games.thieves.rules import (
    EXPOSED,
    FACE_UP,
    MAX_SEATS,
    MAX_SLOTS,
    MOVES,
    PHASE_NAMES,
    PLAY_ONE,
    PLAY_TO,
    REMOVES,
    Move,
    Play,
    Thieves,
    check_setup,
)


def _seat_field(value: Any, name: str, kind: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction(f"a {kind!r} action's {name!r} is a whole number, not {value!r}")
    return value


def _card_field(data: Mapping[str, Any], kind: str) -> int:
    if "card" not in data:
        raise MalformedAction(f"a {kind!r} action needs the field 'card'")
    card = data["card"]
    if not isinstance(card, str) or card not in CARD_INDEX:
        raise MalformedAction(f"there is no card {card!r}")
    return CARD_INDEX[card]


class ThievesSpec(GameSpec):
    """Thieves! (Richard de Rijk; 999 Games, Piatnik "Fladeranti"), 3 to 6 players."""

    name: ClassVar[str] = "thieves"
    title: ClassVar[str] = "Thieves!"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "raid_ties",
            "all_busted",
            "when several players tie for the richest loot in a raid: 'all_busted' or "
            "'none_busted'",
            choices=("all_busted", "none_busted"),
        ),
        Option("first_player", None, "the seat that plays first (default: drawn with the seed)"),
        Option("hands", None, "stacked setup: 3 card ids per seat, no getaways", secret=True),
        Option(
            "deck_top",
            None,
            "stacked setup: ids on top of the deck, top first "
            "(getaways allowed); the rest is shuffled below",
            secret=True,
        ),
    )

    def new(self, players: int, seed: int = 0, options: Mapping[str, Any] | None = None) -> Thieves:
        self.check_players(players)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidOption(f"the seed must be a whole number, not {seed!r}")
        resolved = self.resolve_options(options)
        check_setup(players, resolved)
        return Thieves.start(players, seed, resolved)

    def parse_action(self, data: Mapping[str, Any]) -> Action:
        kind = data.get("type")
        if kind == "play":
            extra = set(data) - {"type", "card", "to"}
            if extra:
                raise MalformedAction(f"a 'play' action has no field {sorted(extra)[0]!r}")
            card = _card_field(data, "play")
            if KIND[card] != MONEY:
                if "to" in data:
                    raise MalformedAction(
                        f"{CARD_ID[card]} is not money: it is played without 'to'"
                    )
                return PLAY_ONE[card]
            if "to" not in data:
                raise MalformedAction(f"{CARD_ID[card]} is money: a 'play' needs 'to' (a seat)")
            to = _seat_field(data["to"], "to", "play")
            return PLAY_TO[card][to] if 0 <= to < MAX_SEATS else Play(CARD_ID[card], to)
        if kind == "remove":
            extra = set(data) - {"type", "card"}
            if extra:
                raise MalformedAction(f"a 'remove' action has no field {sorted(extra)[0]!r}")
            return REMOVES[_card_field(data, "remove")]
        if kind == "move":
            extra = set(data) - {"type", "from", "slot", "to"}
            if extra:
                raise MalformedAction(f"a 'move' action has no field {sorted(extra)[0]!r}")
            for name in ("from", "slot", "to"):
                if name not in data:
                    raise MalformedAction(f"a 'move' action needs the field {name!r}")
            f, slot, t = (_seat_field(data[k], k, "move") for k in ("from", "slot", "to"))
            if 0 <= f < MAX_SEATS and 0 <= t < MAX_SEATS and 0 <= slot < MAX_SLOTS:
                return MOVES[f][slot][t]
            return Move(f, slot, t)
        raise MalformedAction(f"unknown action type {kind!r} (types: play, remove, move)")

    # ------------------------------------------------------------ determinizer

    def determinize(self, view: Mapping[str, Any], rng: Rng) -> State:
        """Rebuild a full state from a seat's view; every hidden card is re-sampled.

        Hidden: other hands, face-down loot the seat has not seen, a Double Loot card
        another player is holding, and the deck's contents and order. Face-down loot and a
        Double Loot card waiting to be played are always money; hands never hold getaways,
        and at least ``police_free`` cards of each hand are not police; every getaway not
        placed is in the deck.
        """
        seat = view["seat"]
        if seat is None:
            raise ValueError("determinize needs a seat's view, not a spectator's")
        n = view["players"]
        s = object.__new__(Thieves)
        s.players, s.seed = n, 0
        s.options = {**self.defaults(), **view["options"]}
        s.rng = Rng(rng.next64())
        s.all_busted = s.options["raid_ties"] == "all_busted"
        s.phase = PHASE_NAMES.index(view["phase"])
        s.current, s.first, s.turn = view["current"], view["first_player"], view["turn"]
        s._to_act = tuple(view["to_act"])
        s._history = None
        s.last_raid = view["last_raid"]
        s.extra = view["double_loot_draws"]

        def ids(cards: list[str]) -> list[int]:
            return [CARD_INDEX[c] for c in cards]

        s.police = ids(view["police"])
        s.cars = sum(CARS[c] for c in s.police)
        s.getaways = ids(view["getaways"])
        s.discard = ids(view["discard"])
        s.acting = CARD_INDEX[view["resolving"]] if view["resolving"] is not None else -1
        known: set[int] = set(s.police) | set(s.getaways) | set(s.discard)
        if s.acting >= 0:
            known.add(s.acting)
        s.hands = [[] for _ in range(n)]
        s.hands[seat] = ids(view["hand"])
        known.update(s.hands[seat])
        s.drawn = -1
        hidden_drawn = False
        if view["drawn"] is not None:
            s.drawn = CARD_INDEX[view["drawn"]]
            known.add(s.drawn)
        elif view["phase"] == "double_loot":
            hidden_drawn = True
        s.loot = []
        hidden_slots: list[tuple[int, int]] = []
        for t, row in enumerate(view["loot"]):
            exposed = set(view["exposed"][t])
            out: list[int] = []
            for i, slot in enumerate(row):
                flags = FACE_UP if slot["face_up"] else EXPOSED if i in exposed else 0
                if slot["card"] is None:
                    hidden_slots.append((t, i))
                    out.append(flags)
                else:
                    card = CARD_INDEX[slot["card"]]
                    known.add(card)
                    out.append(card | flags)
            s.loot.append(out)
        pool = [c for c in ALL_CARDS if c not in known]
        rng.shuffle(pool)
        # Greedy, most constrained first (the true state shows it always fits): hidden loot
        # and a hidden Double Loot card are money; then each hand's police-free part; then
        # the rest of the hands from anything but getaways; the deck keeps what is left.
        money = [c for c in pool if KIND[c] == MONEY]
        wanted = len(hidden_slots) + hidden_drawn
        if len(money) < wanted:
            raise ValueError("no full state is consistent with this view")
        for (t, i), card in zip(hidden_slots, money, strict=False):
            s.loot[t][i] |= card
        if hidden_drawn:
            s.drawn = money[wanted - 1]
        used = set(money[:wanted])
        rest = [c for c in pool if c not in used]
        s.clean = list(view["police_free"])
        clean = [c for c in rest if KIND[c] != POLICE and KIND[c] != GETAWAY]
        taken = 0
        for t in range(n):
            if t != seat:
                s.hands[t] = clean[taken : taken + s.clean[t]]
                taken += s.clean[t]
        if taken > len(clean):
            raise ValueError("no full state is consistent with this view")
        used = set(clean[:taken])
        rest = [c for c in rest if c not in used]
        playable = [c for c in rest if KIND[c] != GETAWAY]
        take = 0
        for t in range(n):
            if t != seat:
                size = view["hand_sizes"][t] - s.clean[t]
                s.hands[t] += playable[take : take + size]
                take += size
                rng.shuffle(s.hands[t])
        if take > len(playable):
            raise ValueError("no full state is consistent with this view")
        used = set(playable[:take])
        s.deck = [c for c in rest if c not in used]
        if len(s.deck) != view["deck_size"]:
            raise ValueError("the view's card counts do not add up")
        return s

    # ------------------------------------------------------------ words

    def describe(self, event: Event, seat: int | None = None) -> str:
        d = event.data

        def who(t: int) -> str:
            return "you" if t == seat else f"seat {t}"

        def card(c: str) -> str:
            return describe_card(CARD_INDEX[c])

        t = event.type
        if t == "turn":
            whose = "your" if d["seat"] == seat else f"seat {d['seat']}'s"
            return f"Turn {d['turn']}: {whose} turn"
        if t == "draw":
            return f"{who(d['seat']).capitalize()} drew {d['count']} card(s)"
        if t == "drew":
            return "You drew " + ", ".join(card(c) for c in d["cards"])
        if t == "double_draw":
            return f"Double Loot: {who(d['seat'])} drew a card"
        if t == "getaway":
            return f"{who(d['seat']).capitalize()} drew a getaway car: {d['placed']} of 7 placed"
        if t == "loot":
            if d["card"] is None:
                return f"{who(d['seat']).capitalize()} put a money card face down"
            return f"{who(d['seat']).capitalize()} gave {card(d['card'])} to {who(d['to'])}"
        if t == "police":
            return (
                f"{who(d['seat']).capitalize()} placed {card(d['card'])}: "
                f"{d['cars']} car(s) in play"
            )
        if t == "action":
            return f"{who(d['seat']).capitalize()} played {card(d['card'])}"
        if t == "remove":
            return (
                f"{who(d['seat']).capitalize()} removed {card(d['card'])} with the "
                f"Roadblock: {d['cars']} car(s) in play"
            )
        if t == "move":
            return (
                f"{who(d['seat']).capitalize()} moved {card(d['card'])} from "
                f"{who(d['from'])} to {who(d['to'])}"
            )
        if t == "raid":
            values = ", ".join(f"{who(s)} {v}" for s, v in enumerate(d["values"]))
            busted = " and ".join(who(s) for s in d["busted"]) or "nobody"
            return f"Police raid! Loot values: {values}. Busted: {busted}"
        if t == "game_over":
            scores = ", ".join(f"{who(s)} {v}" for s, v in enumerate(d["scores"]))
            winners = " and ".join(who(s) for s in d["winners"])
            return f"The 7th getaway car! Game over. Loot: {scores}. Winner: {winners}"
        return f"{t}: {d}"


__all__ = ["CARD_ID", "ThievesSpec"]
