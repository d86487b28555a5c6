"""Thieves Den card sets: the TOML file format, its validation, and the compiled set.

A card set is a TOML file (``data/unofficial.toml`` is the default, documented at its
top) read with :mod:`tomllib` and validated with pydantic models. A broken file is
refused with a :class:`CardFileError` naming the file, the card and the field.

The same set can also travel *inline*: the file's content as a JSON object (its
document, :func:`inline_card_set`), validated by the same models with the same errors.
Game records and server tables hold card sets inline, so they replay on any machine and
never name a file on one.

The engine never reads the models: :func:`load_card_set` compiles them into a
:class:`CardSet` of flat tuples indexed by small integers (one per physical card), with
abilities as tuples of effect steps (see ``effects.py``) and interned action values.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import tomllib
from collections.abc import Callable, Mapping
from copy import deepcopy
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from thievery.core.errors import InvalidOption
from thievery.core.plugin import FileOptions
from thievery.core.protocol import JSON, Event

FORMAT = "thieves-den/cards"
FORMAT_VERSION = 1
INLINE = "the inline card set"  # how errors name a card set given inline
DEFAULT_PATH = Path(__file__).parent / "data" / "unofficial.toml"

TREASURES = ("tome", "jewel", "artifact", "fossil", "potion")
LOCATION_TYPES = ("village", "shadow", "ruins", "holy", "city")
FENCE_TYPES = ("noble", "agent", "collector", "warlock", "mercenary", "peddler", "tinkerer")
RULEBOOK_MAJORITY = {
    "noble": 3,
    "agent": 3,
    "collector": 4,
    "warlock": 4,
    "mercenary": 4,
    "peddler": 5,
    "tinkerer": 5,
}
COPY_LETTERS = "abcdefghij"

Treasure = Literal["tome", "jewel", "artifact", "fossil", "potion"]
LocationType = Literal["village", "shadow", "ruins", "holy", "city"]
FenceType = Literal["noble", "agent", "collector", "warlock", "mercenary", "peddler", "tinkerer"]
Count = Annotated[int, Field(ge=1, le=12)]
Ident = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=40)]
GermanName = Annotated[str | None, Field(min_length=1, max_length=40)]  # None: the name


class CardFileError(InvalidOption):
    """A card file that cannot be read or does not follow the format."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ------------------------------------------------------------------ effects


class Gain(_Strict):
    """Gain treasures (a type or wild, chosen one at a time) or thieves from the supply."""

    op: Literal["gain"]
    what: Literal["tome", "jewel", "artifact", "fossil", "potion", "wild", "thief"]
    count: Count = 1
    up_to: bool = False

    @model_validator(mode="after")
    def _up_to_only_wild(self) -> Gain:
        if self.up_to and self.what != "wild":
            raise ValueError("'up_to' is only for wild gains")
        return self


class Prestige(_Strict):
    """Gain prestige."""

    op: Literal["prestige"]
    count: Annotated[int, Field(ge=1, le=30)]


class Take(_Strict):
    """Take a treasure or a thief from an opponent's board onto yours."""

    op: Literal["take"]
    what: Literal["treasure", "thief"]


class Destroy(_Strict):
    """Return one of an opponent's treasures to the supply."""

    op: Literal["destroy"]


class Pay(_Strict):
    """Return treasures (a type or any) or thieves from your board to the supply."""

    op: Literal["pay"]
    what: Literal["tome", "jewel", "artifact", "fossil", "potion", "any", "thief"]
    count: Count = 1


class DrawLocation(_Strict):
    """Draw Location cards from the deck face up above your board."""

    op: Literal["draw_location"]
    count: Count = 1


class FollowUp(_Strict):
    """One more Steal or Fence action (with optional twists): one you may take, or with
    ``compulsory`` one you must take whenever one can be taken."""

    op: Literal["action"]
    choices: list[Literal["steal", "fence"]] = Field(min_length=1, max_length=2)
    occupied: bool = False
    owner_bonus_to_self: bool = False
    compulsory: bool = False


class RecallThief(_Strict):
    """Take a Thief off any Location card; that card goes on top of the Location deck."""

    op: Literal["recall_thief"]


class MoveThief(_Strict):
    """Move a Thief to another Location, use its ability, then keep the Thief."""

    op: Literal["move_thief"]


class RefreshFences(_Strict):
    """Return Fences of the row to the bottom of the deck and draw as many."""

    op: Literal["refresh_fences"]
    count: Annotated[int, Field(ge=1, le=6)] = 3


class SwapLocation(_Strict):
    """Swap one of your face-up Locations with an opponent's."""

    op: Literal["swap_location"]


Effect = Annotated[
    Gain
    | Prestige
    | Take
    | Destroy
    | Pay
    | DrawLocation
    | FollowUp
    | RecallThief
    | MoveThief
    | RefreshFences
    | SwapLocation,
    Field(discriminator="op"),
]


def _check_ability(ability: list[Any]) -> None:
    seen_other = False
    for effect in ability:
        if isinstance(effect, Pay):
            if seen_other:
                raise ValueError("'pay' effects must come first in an ability")
        else:
            seen_other = True


# ------------------------------------------------------------------ cards


class LocationModel(_Strict):
    """A Location design."""

    id: Ident
    name: str = Field(min_length=1, max_length=40)
    type: LocationType
    timing: Literal["action", "instant"]
    copies: Annotated[int, Field(ge=1, le=10)] = 2
    two_player_copies: Annotated[int, Field(ge=0, le=10)] = 1
    ability: list[Effect] = Field(min_length=1)
    owner_bonus: list[Gain] = Field(default_factory=list)
    text: str | None = None
    name_de: GermanName = None
    text_de: str | None = None

    @model_validator(mode="after")
    def _check(self) -> LocationModel:
        if self.two_player_copies > self.copies:
            raise ValueError("'two_player_copies' cannot exceed 'copies'")
        _check_ability(self.ability)
        if any(isinstance(effect, MoveThief) for effect in self.ability):
            # (a Thief moved to a Location uses its ability: two such Locations would
            # pass it back and forth, a compulsory move each time, for ever)
            raise ValueError(
                "a Location's ability cannot move a Thief (a Power's can): the Thief moved "
                "to another such Location would be moved on and on, and the game never end"
            )
        return self


class FenceModel(_Strict):
    """A Fence design."""

    id: Ident
    name: str = Field(min_length=1, max_length=40)
    type: FenceType
    desires: list[Treasure] = Field(min_length=1, max_length=8)
    prestige: Annotated[int, Field(ge=0, le=40)]
    copies: Annotated[int, Field(ge=1, le=10)] = 2
    two_player_copies: Annotated[int, Field(ge=0, le=10)] = 1
    name_de: GermanName = None

    @model_validator(mode="after")
    def _check(self) -> FenceModel:
        if self.two_player_copies > self.copies:
            raise ValueError("'two_player_copies' cannot exceed 'copies'")
        return self


class SchemeModel(_Strict):
    """A Scheme card: prestige per set of two location types."""

    id: Ident
    types: tuple[LocationType, LocationType]
    prestige: Annotated[int, Field(ge=0, le=30)]

    @model_validator(mode="after")
    def _check(self) -> SchemeModel:
        if self.types[0] == self.types[1]:
            raise ValueError("a Scheme names two different location types")
        return self


class PowerModel(_Strict):
    """A Power tile."""

    id: Ident
    name: str = Field(min_length=1, max_length=40)
    ability: list[Effect] = Field(min_length=1)
    text: str | None = None
    name_de: GermanName = None
    text_de: str | None = None

    @model_validator(mode="after")
    def _check(self) -> PowerModel:
        _check_ability(self.ability)
        return self


class Prices(_Strict):
    """The Witch's prestige for each treasure type."""

    tome: Annotated[int, Field(ge=0, le=20)]
    jewel: Annotated[int, Field(ge=0, le=20)]
    artifact: Annotated[int, Field(ge=0, le=20)]
    fossil: Annotated[int, Field(ge=0, le=20)]
    potion: Annotated[int, Field(ge=0, le=20)]


class Majority(_Strict):
    """End-of-game bonus for the most Fences of each type."""

    noble: Annotated[int, Field(ge=0, le=20)] = 3
    agent: Annotated[int, Field(ge=0, le=20)] = 3
    collector: Annotated[int, Field(ge=0, le=20)] = 4
    warlock: Annotated[int, Field(ge=0, le=20)] = 4
    mercenary: Annotated[int, Field(ge=0, le=20)] = 4
    peddler: Annotated[int, Field(ge=0, le=20)] = 5
    tinkerer: Annotated[int, Field(ge=0, le=20)] = 5


class CardFile(_Strict):
    """A whole card set file."""

    format: Literal["thieves-den/cards"]
    version: Literal[1]
    name: str = Field(min_length=1, max_length=80)
    unofficial: bool = True
    name_de: Annotated[str | None, Field(min_length=1, max_length=80)] = None
    witch: Prices
    majority: Majority = Majority()
    locations: list[LocationModel] = Field(min_length=1, max_length=100)
    fences: list[FenceModel] = Field(min_length=1, max_length=100)
    schemes: list[SchemeModel] = Field(min_length=5, max_length=50)
    powers: list[PowerModel] = Field(min_length=9, max_length=50)

    @model_validator(mode="after")
    def _check(self) -> CardFile:
        ids: dict[str, str] = {}
        groups: list[tuple[str, list[Any]]] = [
            ("location", self.locations),
            ("fence", self.fences),
            ("scheme", self.schemes),
            ("power", self.powers),
        ]
        for kind, cards in groups:
            for card in cards:
                if card.id in ids:
                    raise ValueError(f"{kind} id {card.id!r} is already used by a {ids[card.id]}")
                ids[card.id] = kind
        fences2 = sum(f.two_player_copies for f in self.fences)
        if fences2 < 6:
            raise ValueError(f"the 2-player Fences must fill the row of 6 (there are {fences2})")
        locs2 = sum(c.two_player_copies for c in self.locations)
        if locs2 < 8:
            raise ValueError(f"the 2-player Location deck needs at least 8 cards, not {locs2}")
        return self


# ------------------------------------------------------------------ loading


def _field_path(loc: tuple[int | str, ...]) -> str:
    """A field path without pydantic's union tags (``ability.0.gain.count`` ->
    ``ability.0.count``): a tag follows the index of an effect in a list."""
    out: list[str] = []
    for i, part in enumerate(loc):
        after_index = i >= 2 and isinstance(loc[i - 1], int) and loc[i - 2] in _EFFECT_LISTS
        if after_index and isinstance(part, str) and part in _EFFECT_TAGS:
            continue
        out.append(str(part))
    return ".".join(out)


def _where(raw: Any, loc: tuple[int | str, ...]) -> str:
    """A pydantic error location in words: the card (by id) and the field."""
    section = {"locations": "location", "fences": "fence", "schemes": "scheme", "powers": "power"}
    if len(loc) >= 2 and loc[0] in section and isinstance(loc[1], int):
        items = raw.get(loc[0]) if isinstance(raw, dict) else None
        card = items[loc[1]] if isinstance(items, list) and loc[1] < len(items) else None
        ident = card.get("id") if isinstance(card, dict) else None
        kind = section[str(loc[0])]
        name = f"{kind} {ident!r}" if ident else kind
        name += f" ({loc[0]}[{loc[1]}])"
        fieldname = _field_path(loc[2:]) if len(loc) > 2 else "(the card)"
        return f"{name}, field {fieldname!r}"
    return f"field {_field_path(loc) or '(top level)'!r}"


_EFFECT_LISTS = {"ability", "owner_bonus"}
_EFFECT_TAGS = {
    "gain",
    "prestige",
    "take",
    "destroy",
    "pay",
    "draw_location",
    "action",
    "recall_thief",
    "move_thief",
    "refresh_fences",
    "swap_location",
}


def parse_card_file(text: str, source: str) -> CardFile:
    """Validate a card file's text; :class:`CardFileError` names file, card and field."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CardFileError(f"{source}: not valid TOML ({e})") from None
    return parse_card_document(raw, source)


def parse_card_document(raw: Any, source: str = INLINE) -> CardFile:
    """Validate a card set's document (a card file's content as a JSON object, e.g. an
    inline ``cards`` option); :class:`CardFileError` names ``source``, card and field."""
    if not isinstance(raw, Mapping):
        raise CardFileError(f"{source}: a card set is an object of the {FORMAT!r} format")
    try:
        return CardFile.model_validate(raw)
    except ValidationError as e:
        problems = []
        for err in e.errors()[:5]:
            msg = err["msg"].removeprefix("Value error, ")
            problems.append(f"{source}: {_where(raw, tuple(err['loc']))}: {msg}")
        more = e.error_count() - len(problems)
        tail = f" (and {more} more problems)" if more > 0 else ""
        raise CardFileError("; ".join(problems) + tail) from None


def inline_card_set(path: str | Path, source: str | None = None) -> dict[str, Any]:
    """The card file at ``path`` as an inline document: the JSON form of its validated
    content, every field spelled out (defaults too), so it means the same set anywhere.
    Errors name the file as ``source`` (default: ``path``)."""
    name = str(path) if source is None else source
    return parse_card_file(read_card_text(path, name), name).model_dump(mode="json")


def card_set_content(cards: str | Path | Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A card set's validated content as JSON, every field spelled out (defaults too):
    ``cards`` as the option takes it, a file's path or a set inline, or ``None`` for the
    default set (``data/unofficial.toml``). The same set gives the same content however
    it is given; what it was read from, its comments and layout are not in it."""
    if isinstance(cards, Mapping):
        return parse_card_document(cards).model_dump(mode="json")
    return inline_card_set(cards or DEFAULT_PATH)


def read_card_text(path: str | Path, name: str) -> str:
    """A card file's text; :class:`CardFileError` (naming it ``name``) if it cannot be read
    or is not UTF-8 text."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except OSError as e:
        raise CardFileError(f"{name}: cannot read the card file ({e.strerror})") from None
    except UnicodeDecodeError as e:
        raise CardFileError(
            f"{name}: not a card file: not UTF-8 text (byte {e.start}: {e.reason})"
        ) from None


def card_set_digest(document: Mapping[str, Any]) -> str:
    """The SHA-256 of a document's canonical JSON (sorted keys): equal sets, equal digests."""
    try:
        text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError) as e:
        raise CardFileError(f"{INLINE}: not a JSON object ({e})") from None
    return hashlib.sha256(text.encode()).hexdigest()


# ------------------------------------------------------------------ compiled set


@dataclass(eq=False)
class CardSet:
    """A validated card set compiled for the engine: every physical card a small int.

    Location cards are numbered ``0..len(loc_id)-1``, Fence cards likewise in their own
    range, and so on. ``*_two`` are the cards of the 2-player set. ``path`` is the file's
    path, or ``inline:<digest>`` for a set given inline.
    """

    path: str
    name: str
    unofficial: bool
    witch: tuple[int, ...]
    majority: tuple[int, ...]
    loc_id: list[str] = field(default_factory=list)
    loc_name: list[str] = field(default_factory=list)
    loc_type: list[int] = field(default_factory=list)
    loc_instant: list[bool] = field(default_factory=list)
    loc_ability: list[tuple[tuple[int, int, int, int], ...]] = field(default_factory=list)
    loc_bonus: list[tuple[tuple[int, int, int, int], ...]] = field(default_factory=list)
    loc_cost: list[tuple[int, ...]] = field(default_factory=list)  # 5 treasures, any, thieves
    loc_paid: list[bool] = field(default_factory=list)  # any cost at all
    loc_text: list[str] = field(default_factory=list)
    loc_bonus_text: list[str] = field(default_factory=list)
    loc_two: list[int] = field(default_factory=list)
    # German words (the card file's name_de/text_de, else the name and a German text made
    # from the ability): for German screens only, the engine never reads them.
    name_de: str = ""
    loc_name_de: list[str] = field(default_factory=list)
    loc_text_de: list[str] = field(default_factory=list)
    loc_bonus_text_de: list[str] = field(default_factory=list)
    fence_name_de: list[str] = field(default_factory=list)
    power_name_de: list[str] = field(default_factory=list)
    power_text_de: list[str] = field(default_factory=list)
    fence_id: list[str] = field(default_factory=list)
    fence_name: list[str] = field(default_factory=list)
    fence_type: list[int] = field(default_factory=list)
    fence_desire: list[tuple[int, ...]] = field(default_factory=list)
    fence_need: list[tuple[tuple[int, int], ...]] = field(default_factory=list)
    fence_total: list[int] = field(default_factory=list)
    fence_prestige: list[int] = field(default_factory=list)
    fence_two: list[int] = field(default_factory=list)
    scheme_id: list[str] = field(default_factory=list)
    scheme_types: list[tuple[int, int]] = field(default_factory=list)
    scheme_prestige: list[int] = field(default_factory=list)
    power_id: list[str] = field(default_factory=list)
    power_name: list[str] = field(default_factory=list)
    power_ability: list[tuple[tuple[int, int, int, int], ...]] = field(default_factory=list)
    power_cost: list[tuple[int, ...]] = field(default_factory=list)
    power_paid: list[bool] = field(default_factory=list)
    power_text: list[str] = field(default_factory=list)
    loc_index: dict[str, int] = field(default_factory=dict)
    fence_index: dict[str, int] = field(default_factory=dict)
    scheme_index: dict[str, int] = field(default_factory=dict)
    power_index: dict[str, int] = field(default_factory=dict)
    # Interned actions (see rules.py), filled in by the rules module.
    actions: dict[str, list[Any]] = field(default_factory=dict)
    # The set in words for clients (see :func:`catalogue_of`); shared: never change it.
    catalogue: dict[str, Any] = field(default_factory=dict)

    def name_of(self, kind: str, card: str, german: bool = False) -> str:
        """A card's name as this set gives it, by its kind (``locations``, ``fences`` or
        ``powers``) and its id (a card's, ``market-a``, or its design's, ``market``): in
        German (``german``) the file's ``name_de``, else its name, as the screens show
        it. An id the set does not know: the id in words (``Market Stall``).

        >>> load_card_set().name_of("powers", "sleight"), load_card_set().name_of(
        ...     "locations", "market-b", german=True)
        ('Sleight of Hand', 'Markt')
        """
        design = card.rsplit("-", 1)[0] if card[-2:-1] == "-" else card
        words = (self.catalogue["de"] if german else self.catalogue).get(kind, {})
        found = words.get(card) or words.get(design)
        if found is not None:
            return str(found["name"])
        return design.replace("-", " ").title()


class CardSetEvent(Event):
    """An event with the card set of the game it happened in (``card_set``), so that its
    words name cards as that set does (``spec.describe``, ``lang_de.describe``): equal
    to the plain event, and serialized as one (its JSON has no more keys). A state's
    ``apply`` makes them; an event without a set (made by hand, or read back from JSON)
    is worded with the default set's names."""

    card_set: CardSet

    @classmethod
    def of(cls, event: Event, cs: CardSet) -> CardSetEvent:
        made = tuple.__new__(cls, event)
        made.card_set = cs
        return made


FENCE_EVENTS = frozenset({"fence", "fence_drawn", "fences_drawn", "return_fence"})
# The events that name cards: the only ones a state's apply gives their card set.
NAMING_EVENTS = FENCE_EVENTS | {
    "dealt",
    "you_picked",
    "reveal",
    "instant",
    "neutral",
    "steal",
    "bonus",
    "power",
    "draw_location",
    "recall",
    "move",
    "unplace",
    "swap",
}


def card_words(event: Event, german: bool = False) -> Callable[[str], str]:
    """How an event's words name the cards it holds: by the names of the card set it
    happened with (see :class:`CardSetEvent`; else the default set), in German
    (``german``) its German names. Fence events hold Fence cards, ``power`` a Power tile,
    the others Location cards. Only the cards the event holds are named, so its words
    show no more than its data, which its audience may see."""
    found = getattr(event, "card_set", None)
    t = event.type
    kind = "fences" if t in FENCE_EVENTS else "powers" if t == "power" else "locations"

    def name(card: str) -> str:
        cs = found if isinstance(found, CardSet) else load_card_set()
        return cs.name_of(kind, card, german)

    return name


def compile_card_file(data: CardFile, path: str) -> CardSet:
    """Number every physical card and compile every ability into effect steps."""
    from thievery.games.thieves_den import effects
    from thievery.games.thieves_den.lang_de import describe_ability as german

    cs = CardSet(
        path=path,
        name=data.name,
        unofficial=data.unofficial,
        witch=tuple(getattr(data.witch, t) for t in TREASURES),
        majority=tuple(getattr(data.majority, t) for t in FENCE_TYPES),
        name_de=data.name_de or data.name,
    )
    for loc in data.locations:
        ability = effects.compile_ability(loc.ability)
        bonus = effects.compile_ability(loc.owner_bonus)
        for copy in range(loc.copies):
            c = len(cs.loc_id)
            cs.loc_id.append(f"{loc.id}-{COPY_LETTERS[copy]}")
            cs.loc_name.append(loc.name)
            cs.loc_type.append(LOCATION_TYPES.index(loc.type))
            cs.loc_instant.append(loc.timing == "instant")
            cs.loc_ability.append(ability)
            cs.loc_bonus.append(bonus)
            cs.loc_cost.append(effects.cost_of(loc.ability))
            cs.loc_paid.append(any(cs.loc_cost[-1]))
            cs.loc_text.append(loc.text or effects.describe_ability(loc.ability))
            cs.loc_bonus_text.append(effects.describe_ability(loc.owner_bonus))
            cs.loc_name_de.append(loc.name_de or loc.name)
            cs.loc_text_de.append(loc.text_de or german(loc.ability))
            cs.loc_bonus_text_de.append(german(loc.owner_bonus))
            if copy < loc.two_player_copies:
                cs.loc_two.append(c)
    for fence in data.fences:
        desire = tuple(sum(1 for d in fence.desires if d == t) for t in TREASURES)
        for copy in range(fence.copies):
            f = len(cs.fence_id)
            cs.fence_id.append(f"{fence.id}-{COPY_LETTERS[copy]}")
            cs.fence_name.append(fence.name)
            cs.fence_name_de.append(fence.name_de or fence.name)
            cs.fence_type.append(FENCE_TYPES.index(fence.type))
            cs.fence_desire.append(desire)
            cs.fence_need.append(tuple((t, k) for t, k in enumerate(desire) if k))
            cs.fence_total.append(sum(desire))
            cs.fence_prestige.append(fence.prestige)
            if copy < fence.two_player_copies:
                cs.fence_two.append(f)
    for scheme in data.schemes:
        cs.scheme_id.append(scheme.id)
        a, b = scheme.types
        cs.scheme_types.append((LOCATION_TYPES.index(a), LOCATION_TYPES.index(b)))
        cs.scheme_prestige.append(scheme.prestige)
    for power in data.powers:
        cs.power_id.append(power.id)
        cs.power_name.append(power.name)
        cs.power_ability.append(effects.compile_ability(power.ability))
        cs.power_cost.append(effects.cost_of(power.ability))
        cs.power_paid.append(any(cs.power_cost[-1]))
        cs.power_text.append(power.text or effects.describe_ability(power.ability))
        cs.power_name_de.append(power.name_de or power.name)
        cs.power_text_de.append(power.text_de or german(power.ability))
    cs.loc_index = {c: i for i, c in enumerate(cs.loc_id)}
    cs.fence_index = {c: i for i, c in enumerate(cs.fence_id)}
    cs.scheme_index = {c: i for i, c in enumerate(cs.scheme_id)}
    cs.power_index = {c: i for i, c in enumerate(cs.power_id)}
    cs.catalogue = catalogue_of(cs)
    return cs


def catalogue_of(cs: CardSet) -> dict[str, Any]:
    """The card set in words, for clients that draw cards: every design by its id (a
    card's id without the copy letter), with its name, type and texts as the engine words
    them, the Witch's prices and the majority bonuses; and under ``"de"`` the German
    words of every design (``name``, ``text``, ``bonus_text``: the file's ``name_de`` and
    ``text_de``, else the name and a German text made from the ability). Public: the set
    is known to all.

    >>> load_card_set().catalogue["de"]["locations"]["market"]["text"]
    'Nimm 2 Juwelen'

    >>> load_card_set().catalogue["locations"]["market"]["text"]
    'Take 2 Jewels'
    """
    from thievery.games.thieves_den.effects import GAIN, THIEF, WILD

    def icons(steps: tuple[tuple[int, int, int, int], ...]) -> list[list[Any]]:
        return [
            ["wild" if op == WILD else "thief" if a == THIEF else TREASURES[a], b]
            for op, a, b, _ in steps
            if op in (GAIN, WILD)
        ]

    locations: dict[str, Any] = {}
    for c, card in enumerate(cs.loc_id):
        instant = cs.loc_instant[c]
        locations.setdefault(
            card.rsplit("-", 1)[0],
            {
                "name": cs.loc_name[c],
                "type": LOCATION_TYPES[cs.loc_type[c]],
                "instant": instant,
                "text": cs.loc_text[c],
                "bonus": [] if instant else icons(cs.loc_bonus[c]),
                "bonus_text": "" if instant else cs.loc_bonus_text[c],
            },
        )
    fences: dict[str, Any] = {}
    for f, card in enumerate(cs.fence_id):
        fences.setdefault(
            card.rsplit("-", 1)[0],
            {
                "name": cs.fence_name[f],
                "type": FENCE_TYPES[cs.fence_type[f]],
                "desires": [
                    t for t, k in zip(TREASURES, cs.fence_desire[f], strict=True) for _ in range(k)
                ],
                "prestige": cs.fence_prestige[f],
            },
        )
    return {
        "name": cs.name,
        "de": _german_catalogue(cs),
        "witch": dict(zip(TREASURES, cs.witch, strict=True)),
        "majority": dict(zip(FENCE_TYPES, cs.majority, strict=True)),
        "locations": locations,
        "fences": fences,
        "schemes": {
            k: {"types": [LOCATION_TYPES[t] for t in cs.scheme_types[i]], "prestige": p}
            for i, (k, p) in enumerate(zip(cs.scheme_id, cs.scheme_prestige, strict=True))
        },
        "powers": {
            k: {"name": cs.power_name[i], "text": cs.power_text[i]}
            for i, k in enumerate(cs.power_id)
        },
    }


def _german_catalogue(cs: CardSet) -> dict[str, Any]:
    """The German words of every design, by design id (see :func:`catalogue_of`)."""

    def design(card: str) -> str:
        return card.rsplit("-", 1)[0]

    locations: dict[str, Any] = {}
    for c, card in enumerate(cs.loc_id):
        locations.setdefault(
            design(card),
            {
                "name": cs.loc_name_de[c],
                "text": cs.loc_text_de[c],
                "bonus_text": "" if cs.loc_instant[c] else cs.loc_bonus_text_de[c],
            },
        )
    fences: dict[str, Any] = {}
    for f, card in enumerate(cs.fence_id):
        fences.setdefault(design(card), {"name": cs.fence_name_de[f]})
    powers = {
        k: {"name": cs.power_name_de[i], "text": cs.power_text_de[i]}
        for i, k in enumerate(cs.power_id)
    }
    return {"name": cs.name_de, "locations": locations, "fences": fences, "powers": powers}


@lru_cache(maxsize=16)
def _load(path: str, mtime: float) -> CardSet:
    return compile_card_file(parse_card_file(read_card_text(path, path), path), path)


INLINE_CACHE = 16  # compiled inline sets kept, by digest (the oldest goes first)
_inline: dict[str, CardSet] = {}
_inline_lock = threading.Lock()  # server bots load card sets from worker threads


# The documents last loaded, by identity, each with a copy of what it said then: a game
# made again and again from one options dict (an RL environment's every reset) is told its
# set by a comparison (11 µs for the shipped set), not a digest of the whole document's
# JSON (250 µs). A document changed since is compared unequal and digested anew.
_seen: dict[int, tuple[Mapping[str, Any], Mapping[str, Any], CardSet]] = {}


def _load_inline(document: Mapping[str, Any]) -> CardSet:
    with _inline_lock:
        seen = _seen.get(id(document))
    if seen is not None and seen[0] is document and seen[1] == document:
        return seen[2]
    digest = card_set_digest(document)
    with _inline_lock:
        cs = _inline.get(digest)
    if cs is None:
        cs = compile_card_file(parse_card_document(document), f"inline:{digest}")
        with _inline_lock:
            while len(_inline) >= INLINE_CACHE:
                del _inline[next(iter(_inline))]
            cs = _inline.setdefault(digest, cs)
    with _inline_lock:
        while len(_seen) >= INLINE_CACHE:
            del _seen[next(iter(_seen))]
        _seen[id(document)] = (document, deepcopy(document), cs)
    return cs


# A file's set by the path as given (with the folder it is relative to) and the file's
# identity, time and size as os.stat gives them: one stat a load, where resolving the
# path (the cache key of _load) takes a system call per folder on the way.
_by_stat: dict[tuple[str, str, int, int, int, int], CardSet] = {}
_DEFAULT = str(DEFAULT_PATH)


def load_card_set(cards: str | Mapping[str, Any] | None = None) -> CardSet:
    """The compiled card set ``cards`` names, cached: a file path (by the file, its time
    and size), an inline document (see :func:`inline_card_set`; cached by its
    :func:`card_set_digest`) or ``None``, the default unofficial set."""
    if isinstance(cards, Mapping):
        return _load_inline(cards)
    name = os.fspath(cards) if cards else _DEFAULT
    try:
        st = os.stat(name)
    except OSError as e:
        raise CardFileError(f"{Path(name)}: cannot read the card file ({e.strerror})") from None
    folder = "" if os.path.isabs(name) else os.getcwd()
    key = (name, folder, st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)
    found = _by_stat.get(key)
    if found is not None:
        return found
    target = Path(name)
    try:
        resolved = target.resolve(strict=True)
        mtime = resolved.stat().st_mtime
    except OSError as e:
        raise CardFileError(f"{target}: cannot read the card file ({e.strerror})") from None
    if resolved.is_dir():
        raise CardFileError(f"{target}: is a folder, not a card file")
    cs = _load(str(resolved), mtime)
    if len(_by_stat) >= 64:
        _by_stat.clear()
    _by_stat[key] = cs
    return cs


class CardSetFiles(FileOptions):
    """The option ``cards`` names a file on this machine or holds a set inline."""

    def inline(self, options: Mapping[str, Any], folder: Path | None = None) -> JSON:
        """``options`` with a ``cards`` file path replaced by the file's content inline
        (:func:`inline_card_set`)."""
        out = dict(options)
        cards = out.get("cards")
        if isinstance(cards, str):
            out["cards"] = inline_card_set(Path(folder or "", cards), source=cards)
        return out

    def listing(self, public: Mapping[str, Any]) -> JSON:
        """Public options with an inline card set shortened to its name and digest (the
        whole set, about 14 KB, is in every view's ``options`` and in the record)."""
        out = dict(public)
        cards = out.get("cards")
        if isinstance(cards, Mapping):
            out["cards"] = {"name": cards.get("name"), "digest": card_set_digest(cards)}
        return out
