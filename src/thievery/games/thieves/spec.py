"""Thieves!'s spec: its name, players and options, and the words around the rules: parsing
actions, determinizing a view (delegated to ``view.py``) and events in words."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from thievery.core.errors import MalformedAction
from thievery.core.protocol import (
    JSON,
    Action,
    Event,
    GameSpec,
    Option,
    State,
    content_digest,
    seat_name,
)
from thievery.core.rng import Rng
from thievery.games.thieves.actions import (
    MAX_SEATS,
    MAX_SLOTS,
    MOVES,
    PASS,
    PLAY_ONE,
    PLAY_TO,
    REMOVES,
    Move,
    Play,
)
from thievery.games.thieves.cards import (
    CARD_ID,
    CARD_INDEX,
    CARS,
    FINAL_VALUE,
    KIND,
    MONEY,
    RAID_VALUE,
    describe_card,
)
from thievery.games.thieves.rules import Thieves, check_setup
from thievery.games.thieves.view import Determinizer


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
    # 2: the Thief's move may be declined (``pass``). Version 1 records (the move was
    # compulsory) hold no ``pass`` and replay the same under version 2's rules.
    version: ClassVar[int] = 2
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
        resolved = self.check_new(players, seed, options)
        check_setup(players, resolved)
        return Thieves.start(players, seed, resolved)

    def component_digests(self, options: Mapping[str, Any] | None = None) -> dict[str, str]:
        """The deck (``cards.py``): every card's id, kind, values and police cars, in deck
        order. It is code, not a data file, but a balance pass could change it without
        a rules version all the same."""
        deck = list(zip(CARD_ID, KIND, FINAL_VALUE, RAID_VALUE, CARS, strict=True))
        return {"deck": content_digest(deck)}

    def record_options(self, version: int, options: Mapping[str, Any]) -> JSON:
        """Version 1 (before ``pass``) replays under the same options: it only lacked a
        legal action, so every version 1 record is a legal version 2 game, played alike."""
        if version == 1:
            return dict(options)
        return super().record_options(version, options)

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
        if kind == "pass":
            extra = set(data) - {"type"}
            if extra:
                raise MalformedAction(f"a 'pass' action has no field {sorted(extra)[0]!r}")
            return PASS
        raise MalformedAction(f"unknown action type {kind!r} (types: play, remove, move, pass)")

    # ------------------------------------------------------------ determinizer

    def determinize(self, view: Mapping[str, Any], rng: Rng) -> State:
        """Rebuild a full state from a seat's view; every hidden card is re-sampled.

        Hidden: other hands, face-down loot the seat has not seen, a Double Loot card
        another player is holding, and the deck's contents and order. Face-down loot and a
        Double Loot card waiting to be played are always money; hands never hold getaways,
        and at least ``police_free`` cards of each hand are not police; every getaway not
        placed is in the deck.
        """
        return Determinizer(self, view).sample(rng)

    # ------------------------------------------------------------ words

    def describe(
        self, event: Event, seat: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        d = event.data

        def who(t: int, capital: bool = False) -> str:
            return seat_name(t, seat, names, capital=capital)

        def card(c: str) -> str:
            return describe_card(CARD_INDEX[c])

        t = event.type
        if t == "turn":
            whose = seat_name(d["seat"], seat, names, possessive=True)
            count = d["drew"]
            if not count:  # (no card came to the hand: a getaway car drawn says so itself)
                return f"Turn {d['turn']}: {whose} turn"
            return f"Turn {d['turn']}: {whose} turn (drew {count} card{'s' * (count != 1)})"
        if t == "drew":
            return "You drew " + ", ".join(card(c) for c in d["cards"])
        if t == "double_draw":
            return f"Double Loot: {who(d['seat'])} drew a card"
        if t == "getaway":
            return f"{who(d['seat'], True)} drew a getaway car: {d['placed']} of 7 placed"
        if t == "loot":
            if d["card"] is None:
                return f"{who(d['seat'], True)} put a money card face down"
            return f"{who(d['seat'], True)} gave {card(d['card'])} to {who(d['to'])}"
        if t == "police":
            return f"{who(d['seat'], True)} placed {card(d['card'])}: {_cars(d['cars'])} in play"
        if t == "action":
            return f"{who(d['seat'], True)} played {card(d['card'])}"
        if t == "remove":
            return (
                f"{who(d['seat'], True)} removed {card(d['card'])} with the "
                f"Roadblock: {_cars(d['cars'])} in play"
            )
        if t == "move":
            return (
                f"{who(d['seat'], True)} moved {card(d['card'])} from "
                f"{who(d['from'])} to {who(d['to'])}"
            )
        if t == "pass":
            return f"{who(d['seat'], True)} declined the Thief's move: nothing moved"
        if t == "raid":
            return raid_words(d, who)
        if t == "game_over":
            scores = ", ".join(f"{who(s)} {v}" for s, v in enumerate(d["scores"]))
            winners = " and ".join(who(s) for s in d["winners"])
            return f"The 7th getaway car! Game over. Loot: {scores}. Winner: {winners}"
        return f"{t}: {d}"


def _cars(n: int) -> str:
    """Police cars counted in words: ``0 cars``, ``1 car``, ``2 cars``."""
    return "1 car" if n == 1 else f"{n} cars"


def raid_words(d: Mapping[str, Any], who: Callable[..., str]) -> str:
    """A raid in words, with why it came and why the busted are busted: "Police raid: 4
    cars in play. Loot in a raid: you 3, seat 1 7. Busted: seat 1, the richest loot (7);
    it goes into the deck"."""
    values: list[int] = d["values"]
    worth = ", ".join(f"{who(s)} {v}" for s, v in enumerate(values))
    head = f"Police raid: {d['cars']} cars in play (4 or more). Loot in a raid: {worth}. "
    top = max(values) if values else 0
    busted = [who(s) for s in d["busted"]]
    if busted:
        tie = " all" if len(busted) > 1 else ""
        loot = "their loot goes" if len(busted) > 1 else "it goes"
        return (
            head + f"Busted: {' and '.join(busted)},{tie} with the richest loot ({top}); "
            f"{loot} into the deck"
        )
    if top <= 0:
        return head + "Nobody is busted: there is no loot worth anything"
    richest = " and ".join(who(s) for s, v in enumerate(values) if v == top)
    return head + f"Nobody is busted: {richest} tie for the richest loot ({top})"


__all__ = ["CARD_ID", "ThievesSpec", "raid_words"]
