"""Game records: everything needed to replay a game exactly, as JSON."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from thievery.core.errors import ComponentsChanged, InvalidRecord, ThieveryError, UnknownGame
from thievery.core.protocol import JSON, NAME_LIMIT, Event, GameSpec, State
from thievery.core.registry import game, plugin
from thievery.core.rng import KEYED


@dataclass
class GameRecord:
    """A game: its name, version, players, options, seed and every action with its seat;
    optionally the seats' names (public, one per seat), which event words use, and the
    digests of the components it was played with (``components``: see
    :func:`check_components`)."""

    game: str
    version: int
    players: int
    seed: int
    options: JSON
    actions: list[tuple[int, JSON]] = field(default_factory=list)
    result: JSON | None = None
    names: list[str] | None = None
    # Fair deals (server tables): the salt of the deal's commitment, revealed with the
    # seed once the game is over, and whether the creator chose the deal (a scenario).
    salt: str | None = None
    scenario: bool = False
    # The components the game was played with: its spec's ``component_digests`` (a card
    # set, a components file: data that can change without a rules version), by name.
    # ``None``: not known (a record made before records named them).
    components: dict[str, str] | None = None

    @property
    def commitment(self) -> str | None:
        """The commitment to this record's deal (``None`` without a salt)."""
        if self.salt is None:
            return None
        return deal_commitment(
            self.game,
            self.seed,
            self.salt,
            self.scenario,
            version=self.version,
            players=self.players,
            options=self.options,
        )

    @classmethod
    def of(
        cls, state: State, names: Sequence[str] | None = None, *, components: bool = True
    ) -> GameRecord:
        """The record of a state's game so far (with the seats' names, if given). Options
        that name a file (a Thieves Den card set's path) are kept with the file read in,
        as it is now: the record replays on any machine, whatever becomes of the file.
        With the digests of the components it is played with (``components``; without,
        for a caller that knows them already: a Thieves Den set's take milliseconds)."""
        try:
            options = plugin(state.spec.name).inline_options(state.options)
        except UnknownGame:  # (a game made in place, not installed: it names no files)
            options = dict(state.options)
        return cls(
            game=state.spec.name,
            version=state.spec.version,
            players=state.players,
            seed=state.seed,  # (a server's keyed deal: its table's seed is put in its place)
            options=options,
            actions=[(seat, action.to_json()) for seat, action in state.history()],
            result=state.result(),
            names=list(names) if names is not None else None,
            components=state.spec.component_digests(options) if components else None,
        )

    def to_json(self) -> JSON:
        """The JSON form (``names`` and ``components`` only when the record has them)."""
        out: JSON = {
            "game": self.game,
            "version": self.version,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "actions": [{"seat": s, "action": a} for s, a in self.actions],
            "result": self.result,
        }
        if self.names is not None:
            out["names"] = self.names
        if self.salt is not None:
            out["salt"] = self.salt
            out["commitment"] = self.commitment
        if self.scenario:
            out["scenario"] = True
        if self.components is not None:
            out["components"] = dict(self.components)
        return out

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record; :class:`InvalidRecord` says what is wrong."""
        if not isinstance(data, dict):
            raise InvalidRecord("a game record is a JSON object")
        try:
            actions = [(_whole(a, "seat"), dict(a["action"])) for a in data.get("actions", [])]
            record = cls(
                game=str(data["game"]),
                version=_whole(data, "version"),
                players=_whole(data, "players"),
                seed=_whole(data, "seed"),
                options=dict(data.get("options") or {}),
                actions=actions,
                result=data.get("result"),
            )
        except KeyError as e:
            raise InvalidRecord(f"not a game record: {e.args[0]!r} is missing") from None
        except (TypeError, ValueError) as e:
            raise InvalidRecord(
                f"not a game record: a field has the wrong kind of value ({e})"
            ) from None
        record.names = _names(data.get("names"), record.players)
        record.components = _components(data.get("components"))
        salt = data.get("salt")
        if salt is not None and not (isinstance(salt, str) and SALT.fullmatch(salt)):
            raise InvalidRecord("a record's salt is 16 to 64 hexadecimal digits")
        record.salt = salt
        record.scenario = data.get("scenario") is True
        if salt is not None and not record.scenario:
            stacked = record.stacked_options()
            if stacked:
                raise InvalidRecord(
                    f"the record's options stack the deal ({', '.join(map(repr, stacked))}), "
                    "which only a scenario table may, but it does not say it is one"
                )
        stated = data.get("commitment")
        if stated is not None and stated != record.commitment:
            raise InvalidRecord(
                "the record's commitment does not match its seed and salt: the deal is not "
                "the one the table committed to"
            )
        return record

    def save(self, path: str | Path) -> None:
        """Write the record as JSON."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record from a JSON file."""
        try:
            return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
        except json.JSONDecodeError as e:
            raise InvalidRecord(f"{path}: not JSON ({e})") from None
        except UnicodeDecodeError:
            raise InvalidRecord(f"{path}: not a game record (not UTF-8 text)") from None

    def stacked_options(self) -> list[str]:
        """The options of this record that choose the deal (the game's secret ones: a stacked
        hand, say) set to something but their default, which only a scenario table may have;
        none for a game not installed."""
        try:
            options = game(self.game).options
        except ThieveryError:
            return []
        return [
            o.name
            for o in options
            if o.secret and self.options.get(o.name, o.default) not in (None, o.default)
        ]

    def start(self) -> State:
        """The game's starting state (dealt from the seed, and the salt if it keys the
        deal: see :func:`deal_seed`). A record played with other components than this
        install has is refused (:func:`check_components`)."""
        spec = game(self.game)
        options = spec.record_options(self.version, self.options)
        check_components(spec, self.components, options)
        return spec.new(self.players, deal_seed(self.seed, self.salt, self.scenario), options)

    def steps(self) -> Iterator[tuple[State, int, JSON, list[Event]]]:
        """Replay step by step: (state after, seat, action, events) for every action."""
        state = self.start()
        for i, (seat, action) in enumerate(self.actions):
            try:
                events = state.apply(seat, action)
            except ThieveryError as e:
                raise InvalidRecord(f"action {i} ({action}) by seat {seat}: {e}") from None
            yield state, seat, action, events


SALT = re.compile(r"[0-9a-f]{16,64}")


SALT_WHOLE_TABLE = 48  # hex digits of a salt whose commitment covers the whole setup
SALT_KEYED = 64  # hex digits of a salt that keys the deal too (see deal_seed)


def deal_seed(seed: int, salt: str | None, scenario: bool = False) -> int:
    """The seed a server table's game is dealt from. With a salt of :data:`SALT_KEYED` hex
    digits (every table a server made since 2026-12-06) and no scenario, a hash of the
    table's seed and salt, at least :data:`~thievery.core.rng.KEYED`: the game draws from a
    keyed generator (:func:`~thievery.core.rng.make_rng`), and nothing a seat sees can
    give the seed, the salt or an unseen card away. Else the seed itself: tables made
    before, scenario tables (whose seed is public, chosen to deal a known game) and games
    without a salt.

    >>> deal_seed(7, None) == deal_seed(7, "00" * 24) == deal_seed(7, "00" * 32, True) == 7
    True
    >>> deal_seed(7, "00" * 32) >= 2**64 and deal_seed(7, "00" * 32) != deal_seed(7, "01" * 32)
    True
    """
    if salt is None or len(salt) != SALT_KEYED or scenario:
        return seed
    text = f"thievery-deal-seed\n{seed}\n{salt}".encode()
    digest = hashlib.blake2b(text, digest_size=32, person=b"thievery-deal").digest()
    return KEYED | int.from_bytes(digest, "big")  # (its low bits random too: see make_rng)


def deal_commitment(
    game: str,
    seed: int,
    salt: str,
    scenario: bool = False,
    *,
    version: int | None = None,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> str:
    """The published commitment to a deal: SHA-256 of the game, the seed and a secret
    salt, and for a scenario table (whose creator chose the deal) that it is one. A server
    shows it when a table is made and reveals seed and salt in the finished record, so
    anyone can check that the deal was fixed before the first card, and that a scenario's
    record was not passed off as a fair deal's.

    A salt of :data:`SALT_WHOLE_TABLE` hex digits or more (every table made since 2026-12-05)
    commits to the whole setup too: the rules ``version``, the number of ``players`` and
    every option (a card set in full), so a record of another setup with the same seed
    and salt does not match. A shorter salt (tables made before) commits to game, seed and
    scenario only, as it always did.

    >>> deal_commitment("thieves", 7, "00" * 16)[:16]
    '4e2db182fd3f48d6'
    >>> deal_commitment("thieves", 7, "00" * 16, scenario=True)[:16] != "4e2db182fd3f48d6"
    True
    >>> whole = dict(version=1, players=3, options={"raid_ties": "all_busted"})
    >>> a = deal_commitment("thieves", 7, "00" * 24, **whole)
    >>> a != deal_commitment("thieves", 7, "00" * 24, **{**whole, "players": 4})
    True
    """
    text = f"thievery-deal\n{game}\n{seed}\n{salt}"
    if len(salt) >= SALT_WHOLE_TABLE:
        if version is None or players is None or options is None:
            raise ValueError("this commitment covers the rules version, players and options")
        setup = json.dumps(options, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        digest = hashlib.sha256(setup.encode()).hexdigest()
        text = f"thievery-deal-2\n{game}\n{version}\n{players}\n{digest}\n{seed}\n{salt}"
    return hashlib.sha256((text + ("\nscenario" if scenario else "")).encode()).hexdigest()


def _whole(data: Any, key: str) -> int:
    """A record's field that is a whole number (not a fraction, a string or a boolean,
    which ``int`` would have turned into one)."""
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRecord(f"a record's {key!r} is a whole number, not {value!r:.40}")
    return value


def _names(names: Any, players: int) -> list[str] | None:
    """A record's seat names, checked: absent, or one short string per seat."""
    if names is None:
        return None
    if (
        not isinstance(names, list)
        or len(names) != players
        or not all(isinstance(n, str) and len(n) <= NAME_LIMIT for n in names)
    ):
        raise InvalidRecord(
            f"a record's names are one per seat ({players}), each at most {NAME_LIMIT} characters"
        )
    return names


COMPONENT_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
COMPONENT_DIGEST = re.compile(r"[0-9a-f]{1,64}")


def _components(components: Any) -> dict[str, str] | None:
    """A record's component digests, checked: absent, or digests (hex) by name."""
    if components is None:
        return None
    if not isinstance(components, dict) or not all(
        isinstance(name, str)
        and COMPONENT_NAME.fullmatch(name)
        and isinstance(digest, str)
        and COMPONENT_DIGEST.fullmatch(digest)
        for name, digest in components.items()
    ):
        raise InvalidRecord(
            "a record's components are an object of digests (hexadecimal) by component name"
        )
    return dict(components)


def component_changes(
    recorded: Mapping[str, str], current: Mapping[str, str]
) -> list[tuple[str, str, str | None]]:
    """Each component ``recorded`` names whose digest differs from ``current``'s (this
    install's): (name, recorded digest, current digest or ``None`` for one this install
    does not have). One that ``current`` has and ``recorded`` does not name is not
    compared: nothing is known of it."""
    return [
        (name, digest, current.get(name))
        for name, digest in sorted(recorded.items())
        if current.get(name) != digest
    ]


def changes_words(
    changes: Sequence[tuple[str, str, str | None]],
    then: str = "the record's",
    here: str = "this install's",
) -> str:
    """Changed components in words: ``cards: the record's e82e8592f8ea, this install's
    0c4d2a61b7e3`` ("none" for one this install does not have), joined by semicolons."""
    return "; ".join(f"{name}: {then} {old}, {here} {new or 'none'}" for name, old, new in changes)


def check_components(
    spec: GameSpec, recorded: Mapping[str, str] | None, options: Mapping[str, Any]
) -> None:
    """Refuse (:class:`~thievery.core.errors.ComponentsChanged`, naming each component and
    both digests) a record whose ``recorded`` component digests are not the ones ``spec``
    plays ``options`` with here; ``None`` (not known) is not checked."""
    if recorded is None:
        return
    changed = component_changes(recorded, spec.component_digests(options))
    if changed:
        raise ComponentsChanged(
            f"the record was played with other {spec.title} components than this install "
            f"has ({changes_words(changed)}): replayed here it would not be the game "
            "played; replay it with the Thievery version that made it",
            spec.title,
            changed,
        )


def replay(record: GameRecord, check: bool = True) -> State:
    """The final state of a record, replayed exactly. A record that states a result
    (``check``) must end in it: one whose result was edited is refused
    (:class:`InvalidRecord`), as ``thievery verify`` refuses it."""
    final: State | None = None
    for step in record.steps():
        final = step[0]
    state = final if final is not None else record.start()
    if check and record.result is not None and state.result() != record.result:
        raise InvalidRecord(
            f"the record says the game ended {record.result}, its actions end it {state.result()}"
        )
    return state
