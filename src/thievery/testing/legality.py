"""``is_legal(seat, a)`` if and only if ``a in legal_actions(seat)``: checked on any game.

Legality has two doors: ``legal_actions`` (what bots, pages and menus offer) and
``is_legal`` (what ``apply`` admits). They must agree exactly, or a client can play a
move no menu offers (a second name for a listed move, a move of the wrong seat). The
check plays random games, and at sampled states makes candidate actions from the game's
own actions: every field of an action replaced by the values that field takes anywhere
in the game (other cards, rotations, columns, seats, with whole-number neighbours), both
as action values and through ``parse_action`` from JSON, together with wrongly typed
JSON. Every listed action must be legal; every candidate not listed must be refused by
``is_legal`` and by ``apply`` (the state unchanged); malformed JSON must be refused with
:class:`~thievery.core.errors.MalformedAction`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from functools import partial
from typing import Any

from thievery.core.errors import IllegalAction, MalformedAction
from thievery.core.protocol import JSON, Action, ClockedState, GameSpec, State
from thievery.core.rng import Rng
from thievery.testing._support import (
    MAX_STEPS,
    GameLike,
    expect,
    refused,
    snapshot,
    spec_of,
    tick,
    where,
)

Scalar = str | int | float | bool | None
# Wrongly typed field values: parse_action must refuse them with MalformedAction, or read
# them as some action (which is then checked like any other).
ODD_VALUES: tuple[Any, ...] = (None, True, "no-such-thing", -1, 2.5, [], {})


class ActionShapes:
    """The actions a game uses: one example per type and, per field name, every value
    the field took (whole numbers with their neighbours), by JSON key and by the action
    value's attribute (the two may differ: ``"from"`` in JSON, ``source`` in Python)."""

    def __init__(self) -> None:
        self.examples: dict[str, Action] = {}
        self.values: dict[str, set[tuple[str, Scalar]]] = {}
        self.attributes: dict[str, set[tuple[str, Scalar]]] = {}

    def add(self, action: Action) -> None:
        """Learn from one action."""
        self.examples.setdefault(action.type, action)
        for name, value in action.to_json().items():
            if name != "type":
                _note(self.values, name, value)
        if dataclasses.is_dataclass(action):
            for field in dataclasses.fields(action):
                _note(self.attributes, field.name, getattr(action, field.name))

    def field_values(self, name: str) -> list[Scalar]:
        """Every value seen for the JSON key ``name``, in a stable order."""
        return _ordered(self.values.get(name, set()))

    def attribute_values(self, name: str) -> list[Scalar]:
        """Every value seen for the action attribute ``name``, in a stable order."""
        return _ordered(self.attributes.get(name, set()))


def _note(pool: dict[str, set[tuple[str, Scalar]]], name: str, value: Any) -> None:
    if not isinstance(value, str | int | float | bool | None):
        return
    seen = pool.setdefault(name, set())
    seen.add((type(value).__name__, value))
    if isinstance(value, int) and not isinstance(value, bool):
        seen.add(("int", value - 1))
        seen.add(("int", value + 1))


def _ordered(seen: set[tuple[str, Scalar]]) -> list[Scalar]:
    return [v for _, v in sorted(seen, key=repr)]


def learn_shapes(
    spec: GameSpec, players: int, seed: int, shapes: ActionShapes | None = None
) -> tuple[ActionShapes, int]:
    """The action shapes of one seeded random game (every seat's legal actions at every
    step; added to ``shapes`` if given), and the game's length in steps."""
    shapes = ActionShapes() if shapes is None else shapes
    seen: set[Action] = set()
    steps = 0
    for state, _ in _random_states(spec, players, seed):
        for seat in range(players):
            for action in state.legal_actions(seat):  # in order: the same on every run
                if action not in seen:
                    seen.add(action)
                    shapes.add(action)
        steps += 1
    return shapes, steps


def _random_states(spec: GameSpec, players: int, seed: int) -> Iterator[tuple[State, int]]:
    """The states of the seeded random game (the policy of the playouts), each with its
    step, just before an action is chosen."""
    state = spec.new(players, seed)
    rng = Rng(seed + 99)
    for step in range(MAX_STEPS):
        tick(state, rng)
        if not state.to_act:
            return
        yield state, step
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError(f"{where(spec, players, seed)}: no end within {MAX_STEPS} steps")


def candidate_actions(
    spec: GameSpec, state: State, shapes: ActionShapes, bases: Sequence[Action], rng: Rng
) -> tuple[list[Action], list[JSON]]:
    """Actions made from ``bases`` with one field changed, as values and through JSON;
    and the JSON forms ``parse_action`` refuses (each such form is returned once)."""
    made: dict[Action, None] = {}
    malformed: list[JSON] = []
    tried: set[str] = set()

    def parse(data: JSON) -> None:
        key = repr(sorted(data.items(), key=lambda kv: kv[0]))
        if key in tried:
            return
        tried.add(key)
        try:
            made[spec.parse_action(data)] = None
        except MalformedAction:
            malformed.append(data)
        except Exception as e:
            raise AssertionError(
                f"{spec.name}: parse_action({data!r}) raised {type(e).__name__}: {e}; "
                "input that is no action must raise MalformedAction"
            ) from e

    if isinstance(state, ClockedState):
        parse({"type": "tick", "now_ms": state.now_ms + 1})
    for base in bases:
        made[base] = None
        if dataclasses.is_dataclass(base):
            for field in dataclasses.fields(base):
                now = getattr(base, field.name)
                for value in _some(shapes.attribute_values(field.name), rng):
                    if value != now:
                        made[dataclasses.replace(base, **{field.name: value})] = None
        data = base.to_json()
        for name in data:
            if name == "type":
                continue
            for value in _some(shapes.field_values(name), rng):
                parse({**data, name: value})
            for odd in ODD_VALUES:
                parse({**data, name: odd})
        parse({**data, "no_such_field": 1})
        if len(data) > 1:
            parse({k: v for k, v in list(data.items())[:-1]})
    return list(made), malformed


def _some(values: list[Scalar], rng: Rng, most: int = 24) -> list[Scalar]:
    """At most ``most`` of ``values``, drawn at random when there are more."""
    if len(values) <= most:
        return values
    return [values[rng.below(len(values))] for _ in range(most)]


def _sample(items: Sequence[Any], k: int, rng: Rng) -> list[Any]:
    if len(items) <= k:
        return list(items)
    pool = list(items)
    rng.shuffle(pool)
    return pool[:k]


def _check_state(
    spec: GameSpec, state: State, shapes: ActionShapes, rng: Rng, at: str, applies: int
) -> int:
    """Check one state for every seat; returns how many candidates were compared."""
    before = snapshot(state)
    legal_by_seat = [state.legal_actions(seat) for seat in range(state.players)]
    everyone = [a for legal in legal_by_seat for a in legal]
    compared = 0
    for seat, legal in enumerate(legal_by_seat):
        for action in legal:
            if not _is_legal(state, seat, action, at):
                raise AssertionError(
                    f"{at}: seat {seat}'s legal action {action.to_json()} is refused by is_legal"
                )
        listed = set(legal)
        bases = (
            _sample(legal, 6, rng)
            + _sample(everyone, 3, rng)
            + _sample(list(shapes.examples.values()), 6, rng)
        )
        candidates, malformed = candidate_actions(spec, state, shapes, bases, rng)
        unlisted: list[Action] = []
        for action in candidates:
            is_listed = action in listed
            is_legal = _is_legal(state, seat, action, at)
            if is_legal != is_listed:
                raise AssertionError(
                    f"{at}: is_legal(seat {seat}, {action!r}) is {is_legal}, but "
                    f"legal_actions(seat {seat}) {'lists' if is_listed else 'does not list'} it"
                )
            if not is_listed:
                unlisted.append(action)
            compared += 1
        for action in _sample(unlisted, applies, rng):
            refused(
                partial(state.apply, seat, action),
                IllegalAction,
                f"{at}: seat {seat} applying {action!r}, which legal_actions does not list",
            )
        for data in _sample(malformed, 2, rng):
            refused(
                partial(state.apply, seat, data),
                MalformedAction,
                f"{at}: seat {seat} applying the malformed {data!r}",
            )
    expect(snapshot(state) == before, f"{at}: a refused action changed the game")
    return compared


def _is_legal(state: State, seat: int, action: Action, at: str) -> bool:
    try:
        answer = state.is_legal(seat, action)
    except Exception as e:
        raise AssertionError(
            f"{at}: is_legal(seat {seat}, {action!r}) raised {type(e).__name__}: {e}; "
            "it must answer True or False"
        ) from e
    if not isinstance(answer, bool):
        raise AssertionError(f"{at}: is_legal gave {answer!r}, not True or False")
    return answer


def check_is_legal_matches_legal_actions(
    game: GameLike,
    players: int,
    *,
    seeds: Iterable[int] = (0, 1),
    states: int = 30,
    applies: int = 3,
) -> None:
    """``is_legal(seat, a)`` holds exactly for the ``a`` in ``legal_actions(seat)``, for
    every seat at about ``states`` states spread over each seeded random game; unlisted
    candidates are refused by ``apply`` too (``applies`` per seat and state), leaving the
    game unchanged, and malformed JSON is refused as :class:`MalformedAction`."""
    spec = spec_of(game)
    shapes = ActionShapes()  # from every seed's game: rare action types seen in any
    lengths = {seed: learn_shapes(spec, players, seed, shapes)[1] for seed in seeds}
    compared = 0
    for seed, length in lengths.items():
        every = max(1, length // max(1, states))
        rng = Rng(seed + 7)
        for state, step in _random_states(spec, players, seed):
            if step % every == 0:
                at = where(spec, players, seed, step)
                compared += _check_state(spec, state, shapes, rng, at, applies)
    expect(compared > 0, f"{spec.name}, {players} players: no candidate action was compared")
