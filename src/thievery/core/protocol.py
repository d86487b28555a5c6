"""The small protocol every game implements: a spec, a mutable state, actions and events.

A face (terminal, server, RL wrapper, bot) only ever uses these names:
``spec.new``, ``state.to_act``, ``state.legal_actions``, ``state.apply``, ``state.view``,
``state.result``, ``state.clone`` and ``spec.determinize``.
"""

from __future__ import annotations

import hashlib
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Self

from thievery.core.errors import IllegalAction, InvalidOption, InvalidRecord, MalformedAction
from thievery.core.rng import Rng

JSON = dict[str, Any]

# Real-time games: the pseudo-seat whose action ``{"type": "tick", "now_ms": T}`` moves the
# game's clock (``state.advance``), so that records and servers replay time exactly.
CLOCK = -1


class Action:
    """Base of every action value: small, immutable, with a ``type`` and a JSON form.

    Subclasses are frozen dataclasses whose fields are the action's named fields.
    """

    __slots__ = ()
    type: ClassVar[str]

    def to_json(self) -> JSON:
        """The JSON form, e.g. ``{"type": "play", "card": "ring-6b"}``."""
        out: JSON = {"type": self.type}
        for name in self.__dataclass_fields__:  # type: ignore[attr-defined]
            out[name] = getattr(self, name)
        return out


class Event(NamedTuple):
    """Something that happened, with its audience: ``None`` for everyone, else one seat.

    A named tuple: events are made in the engines' hot loops.
    """

    type: str
    data: JSON
    audience: int | None = None

    def is_visible_to(self, seat: int | None) -> bool:
        """Whether a seat (``None``: a spectator) may see this event."""
        return self.audience is None or self.audience == seat

    def to_json(self) -> JSON:
        """The JSON form."""
        return {"type": self.type, "audience": self.audience, **self.data}


NAME_LIMIT = 40  # characters in a seat's name (server tables, game records)


def seat_name(
    seat: int,
    viewer: int | None,
    names: Sequence[str] | None = None,
    *,
    capital: bool = False,
    possessive: bool = False,
) -> str:
    """How an event's words name ``seat`` for ``viewer`` (``None``: a spectator): "you"
    for the viewer's own seat, else its name from ``names`` (public, one per seat) or,
    without names (or for a number that is no seat), "seat N". ``capital`` starts a
    sentence ("You", "Seat 2"; a name is shown as given), ``possessive`` gives "your",
    "seat 2's", "Ann's".

    >>> names = ["Ann", "Bo", "cy"]
    >>> seat_name(1, 1), seat_name(2, 1), seat_name(2, None, names, capital=True)
    ('you', 'seat 2', 'cy')
    >>> seat_name(1, 1, capital=True, possessive=True), seat_name(0, 1, names, possessive=True)
    ('Your', "Ann's")
    """
    if seat == viewer:
        word = "your" if possessive else "you"
        return word.capitalize() if capital else word
    if names is not None and 0 <= seat < len(names):
        word = names[seat]
    else:
        word = f"{'Seat' if capital else 'seat'} {seat}"
    return f"{word}'s" if possessive else word


def default_seat_name(seat: int, bot: str | None = None) -> str:
    """The name a seat gets when nobody gives it one: ``Seat 2`` or ``Seat 2 (heuristic)``
    (by its index, as records and servers keep it; faces show it as players read it, see
    :data:`DEFAULT_SEAT_NAME`, which reads it back).

    >>> DEFAULT_SEAT_NAME.fullmatch(default_seat_name(2, "heuristic")).groups()
    ('2', 'heuristic')
    >>> DEFAULT_SEAT_NAME.fullmatch(default_seat_name(0)).groups()
    ('0', None)
    """
    return f"Seat {seat} ({bot})" if bot else f"Seat {seat}"


# What :func:`default_seat_name` writes: the seat's index and the bot's engine name, if any.
# Faces read a default name back to show it as players read it ("Seat 3 (Casual)").
DEFAULT_SEAT_NAME = re.compile(r"Seat (\d+)(?: \((.+)\))?")


def seat_number(seat: int) -> int:
    """The number players read for ``seat``: screens and pages count seats from 1 ("Seat
    1" is the first), while actions, views, events and records index them from 0.

    >>> seat_number(0)
    1
    """
    return seat + 1


# "seat 2" in the engine's own words (its refusals, a decision asked), by index.
_SEAT_IN_WORDS = re.compile(r"\b([Ss]eat) (\d+)\b")


def renumber_seats(text: str) -> str:
    """The engine's words with the seats as players count them: the rules word refusals
    and decisions by seat index ("seat 0's hand is not ready"), a face shows them
    counted from 1.

    >>> renumber_seats("crown-red is gone: seat 0 took it; Seat 2 waits")
    'crown-red is gone: seat 1 took it; Seat 3 waits'
    """
    return _SEAT_IN_WORDS.sub(lambda m: f"{m[1]} {seat_number(int(m[2]))}", text)


@dataclass(frozen=True)
class Option:
    """A rule or setup option with its default and what it allows."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    secret: bool = False  # never shown to seats (a stacked deal)
    # A file on this machine: a string value is its path, refused over the network; an
    # object is the file's content inline (see the plug-in's FileOptions), accepted anywhere.
    local: bool = False
    # Keeps an older rules version for its records only (see GameSpec.record_options): not
    # listed, not in views, refused for new server tables.
    legacy: bool = False

    def check(self, value: Any) -> Any:
        """Validate a value; return it (normalised) or raise :class:`InvalidOption`."""
        if self.choices is not None:
            if value not in self.choices:
                allowed = ", ".join(repr(c) for c in self.choices)
                raise InvalidOption(f"option {self.name!r} must be one of {allowed}, not {value!r}")
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise InvalidOption(f"option {self.name!r} must be true or false, not {value!r}")
            return value
        if isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOption(f"option {self.name!r} must be a whole number, not {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise InvalidOption(f"option {self.name!r} must be at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise InvalidOption(f"option {self.name!r} must be at most {self.maximum}")
            return value
        return value


DIGEST_CHARS = 12  # a component digest's hex digits (48 bits): a version's name, not a seal


def content_digest(content: Any) -> str:
    """A short digest of JSON-able ``content``: the first :data:`DIGEST_CHARS` hex digits
    of the SHA-256 of its canonical JSON (sorted keys, no spaces). Equal content, equal
    digests, in any run on any machine; any change, another.

    >>> content_digest({"b": [1, 2], "a": "x"}) == content_digest({"a": "x", "b": [1, 2]})
    True
    >>> content_digest({"a": 1}) != content_digest({"a": 2})
    True
    """
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_CHARS]


class GameSpec(ABC):
    """What a game is: its name, player range, options, and how to start and read it."""

    name: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[int]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]]

    def defaults(self) -> JSON:
        """Every option with its default value."""
        return {o.name: o.default for o in self.options}

    def check_players(self, players: int) -> None:
        """Raise :class:`InvalidOption` unless the player count is allowed."""
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not (self.min_players <= players <= self.max_players)
        ):
            raise InvalidOption(
                f"{self.title} needs {self.min_players} to {self.max_players} players, "
                f"not {players!r}"
            )

    def check_new(self, players: int, seed: int, options: Mapping[str, Any] | None) -> JSON:
        """What every ``new`` checks first: the player count, the seed, the options.
        Returns the options resolved (defaults overlaid, each checked)."""
        self.check_players(players)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidOption(f"the seed must be a whole number, not {seed!r}")
        return self.resolve_options(options)

    def resolve_options(self, options: Mapping[str, Any] | None) -> JSON:
        """Defaults overlaid with ``options``, each checked; unknown names are refused."""
        resolved = self.defaults()
        known = {o.name: o for o in self.options}
        for name, value in (options or {}).items():
            if name not in known:
                allowed = ", ".join(sorted(known))
                raise InvalidOption(f"{self.title} has no option {name!r} (options: {allowed})")
            resolved[name] = known[name].check(value)
        return resolved

    def record_options(self, version: int, options: Mapping[str, Any]) -> JSON:
        """The options under which a record made by rules ``version`` replays exactly as
        it was played. A game whose rules changed (and whose ``version`` went up) keeps
        older records replaying by mapping their version to options that keep the old
        reading (e.g. a rule that did not exist then switched off); a version it cannot
        replay is refused with :class:`InvalidRecord`."""
        if version != self.version:
            raise InvalidRecord(
                f"record is for {self.title} version {version}; this is version {self.version}"
            )
        return dict(options)

    def component_digests(self, options: Mapping[str, Any] | None = None) -> dict[str, str]:
        """The game's data that can change without its rules ``version`` (a card set, a
        components file: whatever balance passes may edit), as played with ``options``:
        by name, a :func:`content_digest` of the content actually used (the default or
        the one the options name). A balance report records them beside the version, so
        that it says which components its games were played with. None by default."""
        return {}

    def public_options(self, options: Mapping[str, Any]) -> JSON:
        """The options a seat may see (secret ones, like a stacked deal, and legacy ones
        left out)."""
        hidden = {o.name for o in self.options if o.secret or o.legacy}
        return {k: v for k, v in options.items() if k not in hidden}

    @abstractmethod
    def new(self, players: int, seed: int = 0, options: Mapping[str, Any] | None = None) -> State:
        """A new game (or match) for ``players`` seats."""

    @abstractmethod
    def parse_action(self, data: Mapping[str, Any]) -> Action:
        """An action from its JSON form; :class:`MalformedAction` if it is not one."""

    @abstractmethod
    def determinize(self, view: Mapping[str, Any], rng: Rng) -> State:
        """A full state consistent with one seat's view, everything hidden re-sampled."""

    @abstractmethod
    def describe(
        self, event: Event, seat: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        """An event in words, as ``seat`` (``None``: a spectator) would read it. Seats are
        named by :func:`seat_name`: ``seat`` itself is "you", the others go by ``names``
        (one per seat) or, without names, "seat N"."""

    def info(self) -> JSON:
        """The spec as JSON, for listings and the API."""
        return {
            "name": self.name,
            "title": self.title,
            "version": self.version,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [
                {
                    "name": o.name,
                    "default": o.default,
                    "help": o.help,
                    "choices": list(o.choices) if o.choices else None,
                    "minimum": o.minimum,
                    "maximum": o.maximum,
                    "local": o.local,
                }
                for o in self.options
                if not (o.secret or o.legacy)
            ],
        }


class State(ABC):
    """One game in progress: mutable, cheap to clone, changed only through :meth:`apply`."""

    spec: ClassVar[GameSpec]
    players: int
    seed: int
    options: JSON
    # Actions so far as a cons list ((seat, action), previous) shared between clones.
    _history: tuple[Any, ...] | None

    @property
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The seats that must act now (several: a simultaneous decision; none: over)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now (empty if it need not act)."""

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Apply an action already known to be legal."""

    @abstractmethod
    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``action`` is legal for ``seat`` now."""

    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """Exactly what ``seat`` may know, JSON-ready; ``None`` is the spectator's view.
        Read it, do not change it: what never changes in a game (Thieves Den's card
        catalogue) is one object shared by every view of it (copy a view to change it)."""

    def views(self, seats: Sequence[int | None]) -> list[JSON]:
        """:meth:`view` for several seats at once, each exactly as :meth:`view` gives it. A
        game may build what they share once: the views may then share their public parts,
        so treat them as read-only (the server encodes them and lets them go)."""
        return [self.view(seat) for seat in seats]

    @abstractmethod
    def result(self) -> JSON | None:
        """``None`` while running; then ``{"scores": [...], "winners": [...]}``."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def locations(self) -> dict[str, list[Any]]:
        """Where every component is, by place name; each component in exactly one place.

        For invariant checks (the conformance suite), never for players: it is not a view.
        """

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.result() is not None

    def first_player(self) -> int | None:
        """At the start: the seat the rules make the first player, where that is not the
        seat whose decision comes first (Thieves Den's holder of the Direction tile, while
        everyone picks at once first). ``None``: the first decision's seat (balance
        reports count the first player's wins by it)."""
        return None

    def apply(self, seat: int, action: Action | Mapping[str, Any]) -> list[Event]:
        """Apply ``seat``'s action (a value or its JSON dict) and return the events.

        Raises :class:`MalformedAction` or :class:`IllegalAction` and changes nothing if
        the action is not legal now.
        """
        clock = type(seat) is int and seat == CLOCK
        if clock and not isinstance(self, ClockedState):
            raise IllegalAction(f"{self.spec.title} has no clock: there is no seat -1")
        if not isinstance(action, Action):
            if not isinstance(action, Mapping):
                raise MalformedAction(f"an action is an object with a 'type', not {action!r}")
            action = self.spec.parse_action(action)
        if clock:
            assert isinstance(self, ClockedState)
            if not isinstance(action, Tick):
                raise IllegalAction("the clock (seat -1) only moves time: a 'tick' action")
            return self.advance(action.now_ms)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(f"there is no seat {seat!r} (seats are 0 to {self.players - 1})")
        if not self.is_legal(seat, action):
            raise IllegalAction(self.why_illegal(seat, action))
        events = self._apply(seat, action)
        self._history = ((seat, action), self._history)
        return events

    def apply_legal(self, seat: int, action: Action) -> list[Event]:
        """Apply ``seat``'s action that the caller knows is legal now (one of
        ``legal_actions(seat)``, e.g. checked against an action mask made from them) and
        record it in the history, as :meth:`apply` does without parsing or checking it
        again. An illegal action here breaks the state: use :meth:`apply` when unsure."""
        events = self._apply(seat, action)
        self._history = ((seat, action), self._history)
        return events

    def apply_trusted(self, seat: int, action: Action) -> list[Event]:
        """Apply an action taken from ``legal_actions(seat)`` without checking it again and
        without recording it in the history: the fast path for search bots' simulations."""
        return self._apply(seat, action)

    def why_illegal(self, seat: int, action: Action) -> str:
        """A clear reason why ``action`` is not legal for ``seat`` (games refine this)."""
        if self.is_over:
            return "the game is over"
        if seat not in self.to_act:
            waiting = ", ".join(str(s) for s in self.to_act)
            return f"seat {seat} is not to act now (waiting for seat {waiting})"
        return f"{action.to_json()} is not legal for seat {seat} now"

    def history(self) -> list[tuple[int, Action]]:
        """Every applied action with its seat, oldest first."""
        out: list[tuple[int, Action]] = []
        node = self._history
        while node is not None:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out


@dataclass(frozen=True, slots=True)
class Tick(Action):
    """The clock moved to ``now_ms``: the action of the ``CLOCK`` pseudo-seat in a
    real-time game, ``{"type": "tick", "now_ms": T}``."""

    type: ClassVar[str] = "tick"
    now_ms: int


def parse_tick(data: Mapping[str, Any]) -> Tick:
    """A tick from its JSON form (a real-time game's ``parse_action`` calls this)."""
    (now,) = parse_fields(data, ["now_ms"], kind="tick")
    if isinstance(now, bool) or not isinstance(now, int) or now < 0:
        raise MalformedAction(f"a tick's now_ms is a whole number >= 0, not {now!r}")
    return Tick(now)


class ClockedState(State):
    """A real-time game: time is an input, never read from a clock by the engine.

    ``now_ms`` is the milliseconds since the game began; :meth:`advance` moves it (and
    runs out whatever timer is due). The base :meth:`State.apply` hands the ``CLOCK``
    pseudo-seat's ``tick`` to :meth:`advance`, and games record ticks in the history as
    ``(CLOCK, Tick(now_ms))``, so a record replays time exactly. Faces tell a real-time
    game by ``isinstance(state, ClockedState)``: a server ticks it, a simulation plays it
    on simulated time.
    """

    now_ms: int

    @abstractmethod
    def advance(self, now_ms: int) -> list[Event]:
        """Move the clock to ``now_ms`` (never backwards) and return what happened."""


def parse_fields(data: Mapping[str, Any], fields: Sequence[str], *, kind: str) -> list[Any]:
    """The values of ``fields`` in an action's JSON form; refuse missing or extra keys."""
    extra = set(data) - {"type", *fields}
    if extra:
        raise MalformedAction(f"a {kind!r} action has no field {sorted(extra)[0]!r}")
    values = []
    for name in fields:
        if name not in data:
            raise MalformedAction(f"a {kind!r} action needs the field {name!r}")
        values.append(data[name])
    return values
