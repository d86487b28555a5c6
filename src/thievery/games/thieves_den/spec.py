"""Thieves Den's spec: its name, players and options, and the words around the rules:
parsing actions, determinizing a view (delegated to ``view.py``) and events in words."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
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
from thievery.games.thieves_den.cards import TREASURES, card_set_content, card_words
from thievery.games.thieves_den.rules import ThievesDen, check_setup
from thievery.games.thieves_den.view import Determinizer

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
    # 2: a compulsory follow-up (the default set's Double Up, Busy Night and Inside Job)
    # must be taken whenever it can be; version 1 let every follow-up be skipped, and its
    # records replay with ``follow_ups = "optional"`` (see ``record_options``).
    version: ClassVar[int] = 2
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
        Option(
            "follow_ups",
            "rulebook",
            "'rulebook': a follow-up action the card set marks compulsory (Double Up, Busy "
            "Night, Inside Job) must be taken whenever one can be; 'optional' (only to replay "
            "records of version 1, not for new tables): every follow-up may be skipped",
            choices=("rulebook", "optional"),
            legacy=True,
        ),
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
        cs = check_setup(players, resolved)  # (the card set, loaded once)
        return ThievesDen.start(players, seed, resolved, cs)

    def component_digests(self, options: Mapping[str, Any] | None = None) -> dict[str, str]:
        """The card set played (``cards``: the default set, or the one the option names or
        holds), by its validated content: balance passes changed the default set's cards
        without a rules version, so the version alone does not say which cards a run had."""
        return {"cards": content_digest(card_set_content((options or {}).get("cards")))}

    def record_options(self, version: int, options: Mapping[str, Any]) -> JSON:
        """Version 1 records (every follow-up could be skipped) replay with
        ``follow_ups = "optional"``, exactly as they were played."""
        if version == 1:
            return {**options, "follow_ups": "optional"}
        return super().record_options(version, options)

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
        those cards with the seats holding them now. See ``view.Determinizer``.
        """
        return Determinizer(self, view).sample(rng, last=True)

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
        card_name = card_words(event)

        def who(k: int) -> str:
            return seat_name(k, seat, names)

        fields = {"s": "" if actor == seat else "s", "es": "" if actor == seat else "es"}
        for key, value in d.items():
            if key in ("seat", "from", "with", "owner", "holder") and isinstance(value, int):
                fields[key] = who(value)
                fields[key.capitalize()] = seat_name(value, seat, names, capital=True)
                fields[key + "_s"] = seat_name(value, seat, names, possessive=True)
            elif key in ("card", "mine", "theirs", "tile", "to", "from"):
                fields[key] = card_name(str(value))
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
            parts = [f"{who(int(k))}: {card_name(c)}" for k, c in d["cards"].items()]
            return "Revealed — " + "; ".join(parts)
        if t in ("dealt", "neutral", "fences_drawn"):
            fields["cards"] = ", ".join(card_name(c) for c in d["cards"]) or "none"
        if t == "recruit":  # ("with two tomes", "with a tome and a jewel")
            a, b = (str(x) for x in d["pay"])
            fields["pay"] = f"two {a}s" if a == b else f"a {a} and a {b}"
        if t == "final":
            major = [f"{m.title()} → {who(w)}" for m, w in d["majorities"].items() if w is not None]
            schemes = [  # (a scheme's id names its two location types: "village-city")
                f"{who(k)}: Scheme {' + '.join(str(x['scheme']).title().split('-'))}"
                f" ×{x['sets']} (+{x['prestige']})"
                for k, x in enumerate(d["schemes"])
            ]
            return f"Final scoring — majorities: {', '.join(major) or 'none'}; " + "; ".join(
                schemes
            )
        if t == "game_over":
            winners = " and ".join(who(w) for w in d["winners"])
            scores = ", ".join(f"{who(k)} {v}" for k, v in enumerate(d["scores"]))
            return f"The game is over. Winner: {winners}. Scores: {scores}"
        template = EVENT_WORDS.get(t)
        if template is None:
            return f"{t}: {d}"
        return _articles(template.format_map(fields))


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
    "recruit": "{Seat} recruit{s} a Thief with {pay}",
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


def _articles(text: str) -> str:
    """The article made "an" before a vowel: "burgles an artifact", "paying an artifact"."""
    return re.sub(r"\ba (?=[aeiou])", "an ", text)


def _plural(k: int, what: str) -> str:
    if k == 1:
        return f"1 {what}"
    return f"{k} thieves" if what == "thief" else f"{k} {what}s"


__all__ = ["ThievesDenSpec"]
