"""What every check shares: resolving a game, the seeded random policy, snapshots, and
failing with a clear message (plain ``AssertionError``: no test framework needed)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from thievery.core.errors import UnknownGame
from thievery.core.plugin import GamePlugin
from thievery.core.protocol import ClockedState, Event, GameSpec, State
from thievery.core.registry import plugin as registered_plugin
from thievery.core.rng import Rng

GameLike = str | GamePlugin | GameSpec
"""A game as the checks take it: its registered name, its plug-in or its spec."""

MAX_STEPS = 20_000  # a random game that has not ended by then is taken not to end


def spec_of(game: GameLike) -> GameSpec:
    """The spec of a game given by name, plug-in or spec."""
    if isinstance(game, GameSpec):
        return game
    if isinstance(game, GamePlugin):
        return game.spec
    if isinstance(game, str):
        return registered_plugin(game).spec
    raise TypeError(f"a game is its name, GamePlugin or GameSpec, not {game!r}")


def plugin_of(game: GameLike) -> GamePlugin | None:
    """The plug-in of a game, if it has one (a bare spec that is not registered: none)."""
    if isinstance(game, GamePlugin):
        return game
    if isinstance(game, str):
        return registered_plugin(game)
    try:
        found = registered_plugin(game.name)
    except UnknownGame:
        return None
    return found if found.spec is game else None


def player_counts(game: GameLike, players: int | Iterable[int] | None = None) -> list[int]:
    """The player counts to check: every allowed count, or the ones asked for (checked)."""
    spec = spec_of(game)
    if players is None:
        return list(range(spec.min_players, spec.max_players + 1))
    counts = [players] if isinstance(players, int) else list(players)
    for n in counts:
        spec.check_players(n)
    return counts


def expect(condition: object, message: str) -> None:
    """Fail with ``message`` unless ``condition`` holds (an ``assert`` that ``-O`` keeps)."""
    if not condition:
        raise AssertionError(message)


def refused(
    call: Callable[[], object], kind: type[Exception], what: str, *, match: str | None = None
) -> Exception:
    """Run ``call``; fail unless it raises ``kind`` (with ``match`` in its message)."""
    try:
        call()
    except kind as e:
        if match is not None and match not in str(e):
            raise AssertionError(
                f"{what}: refused, but the reason {str(e)!r} lacks {match!r}"
            ) from e
        return e
    except Exception as e:
        raise AssertionError(
            f"{what}: expected {kind.__name__}, got {type(e).__name__}: {e}"
        ) from e
    raise AssertionError(f"{what}: accepted, but it must be refused with {kind.__name__}")


def components(state: State) -> Counter[Any]:
    """Every component of a state, counted over all its places."""
    return Counter(c for place in state.locations().values() for c in place)


def all_views(state: State) -> list[Any]:
    """The spectator's view, then every seat's."""
    return [state.view(s) for s in [None, *range(state.players)]]


def snapshot(state: State) -> tuple[Any, ...]:
    """Everything a refused action must leave as it was."""
    clock = state.now_ms if isinstance(state, ClockedState) else None
    return (
        all_views(state),
        state.locations(),
        len(state.history()),
        state.to_act,
        state.result(),
        clock,
    )


def json_copy(value: Any) -> Any:
    """``value`` through JSON and back (fails on anything JSON cannot carry)."""
    return json.loads(json.dumps(value))


def tick(state: State, rng: Rng) -> list[Event]:
    """Real-time games (:class:`ClockedState`): let up to 3 s pass, one step in three."""
    if not isinstance(state, ClockedState) or rng.below(3):
        return []
    return state.advance(state.now_ms + rng.below(3000))


def where(spec: GameSpec, players: int, seed: int, step: int | None = None) -> str:
    """How a failure names its game: ``thieves, 3 players, seed 2, step 17``."""
    at = f", step {step}" if step is not None else ""
    return f"{spec.name}, {players} players, seed {seed}{at}"
