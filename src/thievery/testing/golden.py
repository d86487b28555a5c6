"""Golden playthroughs: a seeded game written out step by step, per seat, as text.

The OpenSpiel way: a fixed seed and a seeded random policy play a game, and every step
writes what each seat sees (its view, as canonical JSON with sorted keys), what each
seat may do (its legal actions), the action taken and the events. Kept as a text file
beside the tests and compared on every run, it shows any change to a game's rules,
deal, views or random source as a readable diff; when the rules change on purpose,
write the file again (``check_golden(..., regold=True)``, or ``THIEVERY_REGOLD=1``).

The spectator's view is written whole; each seat's view as the keys where it differs
from the spectator's (a key only the spectator has is written ``<absent>``), so every
seat's view can be read back exactly. View keys the game declares static
(``GamePlugin.static_view``) are written once, at the top.

>>> text = playthrough("thieves", 3, seed=1, steps=2)
>>> text.splitlines()[0]
'# golden playthrough: thieves, 3 players, seed 1, options {}, first 2 steps'
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from thievery.core.protocol import JSON, ClockedState
from thievery.core.rng import Rng
from thievery.testing._support import MAX_STEPS, GameLike, plugin_of, spec_of, tick

REGOLD = "THIEVERY_REGOLD"  # set to 1: check_golden writes the files instead of comparing
ABSENT = "<absent>"


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, one line."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def playthrough(
    game: GameLike,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    steps: int | None = None,
) -> str:
    """A seeded game played by a seeded random policy (the conformance playouts'
    ``Rng(seed + 99)``: real-time games' clocks move too), written step by step (all of
    it, or the first ``steps`` steps): each seat's view and legal actions, the action
    taken and the events."""
    spec = spec_of(game)
    found = plugin_of(game)
    static = found.static_view if found is not None else ()
    state = spec.new(players, seed, dict(options) if options is not None else None)
    rng = Rng(seed + 99)
    shown = "all steps" if steps is None else f"first {steps} steps"
    lines = [
        f"# golden playthrough: {spec.name}, {players} players, seed {seed}, "
        f"options {canonical(dict(options or {}))}, {shown}",
        f"# game version {spec.version}; the random policy is Rng(seed + 99)",
    ]
    start = state.view(None)
    lines += [f"static {key}: {canonical(start[key])}" for key in static if key in start]
    for step in range(MAX_STEPS if steps is None else steps):
        clock = state.now_ms if isinstance(state, ClockedState) else None
        events = tick(state, rng)
        if isinstance(state, ClockedState) and state.now_ms != clock:
            lines.append(f"clock: now_ms {state.now_ms}")
            lines += [f"event: {canonical(e.to_json())}" for e in events]
        if not state.to_act:
            break
        lines.append(f"== step {step}: to act {list(state.to_act)}")
        lines += _views(state.view(None), [state.view(s) for s in range(players)], static)
        for s in range(players):
            legal = state.legal_actions(s)
            listed = " ".join(canonical(a.to_json()) for a in legal) if legal else "none"
            lines.append(f"legal {s}: {listed}")
        seat = rng.choice(state.to_act)
        action = rng.choice(state.legal_actions(seat))
        lines.append(f"action: seat {seat} {canonical(action.to_json())}")
        lines += [f"event: {canonical(e.to_json())}" for e in state.apply(seat, action)]
    else:
        if steps is None:
            raise AssertionError(f"{spec.name}: no end within {MAX_STEPS} steps")
    lines.append(f"result: {canonical(state.result())}")
    return "\n".join(lines) + "\n"


def _views(spectator: JSON, seats: list[JSON], static: tuple[str, ...]) -> list[str]:
    """The spectator's view whole, each seat's where it differs (static keys left out)."""
    lines = [
        f"view -: {key}: {canonical(spectator[key])}"
        for key in sorted(spectator)
        if key not in static
    ]
    for s, view in enumerate(seats):
        for key in sorted(set(view) | set(spectator)):
            if key in static:
                continue
            if key not in view:
                lines.append(f"view {s}: {key}: {ABSENT}")
            elif key not in spectator or view[key] != spectator[key]:
                lines.append(f"view {s}: {key}: {canonical(view[key])}")
    return lines


def check_golden(
    path: str | Path,
    game: GameLike,
    players: int,
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    steps: int | None = None,
    regold: bool | None = None,
) -> None:
    """The game's :func:`playthrough` must equal the golden file at ``path``; else fail
    with a readable diff. ``regold`` (default: the environment variable
    ``THIEVERY_REGOLD=1``) writes the file instead, for a rules change made on purpose."""
    path = Path(path)
    text = playthrough(game, players, seed, options, steps)
    if regold is None:
        regold = os.environ.get(REGOLD, "") not in ("", "0")
    if regold:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if not path.is_file():
        raise AssertionError(f"{path}: no golden file; write it with {REGOLD}=1")
    expected = path.read_text(encoding="utf-8")
    if expected != text:
        raise AssertionError(golden_diff(expected, text, str(path)))


def golden_diff(expected: str, actual: str, name: str, limit: int = 60) -> str:
    """A readable report of how a playthrough differs from its golden file: the first
    step that differs and a unified diff (at most ``limit`` lines; long lines cut)."""
    diff = list(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            f"{name} (golden)",
            f"{name} (now)",
            n=1,
            lineterm="",
        )
    )
    shown = [line if len(line) <= 300 else line[:300] + " ..." for line in diff[:limit]]
    more = f"\n... and {len(diff) - limit} more diff lines" if len(diff) > limit else ""
    first = _first_step_that_differs(expected, actual)
    return (
        f"{name}: the playthrough changed{first}. If the rules changed on purpose, write "
        f"the golden file again with {REGOLD}=1.\n" + "\n".join(shown) + more
    )


def _first_step_that_differs(expected: str, actual: str) -> str:
    step = "the start"
    for old, new in zip(expected.splitlines(), actual.splitlines(), strict=False):
        if old != new:
            return f" from {step}"
        if old.startswith("== step "):
            step = old[3:].split(":")[0]
    return ""
