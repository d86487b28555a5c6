"""Golden playthroughs, one per game (the OpenSpiel way): a seeded game played by a
seeded random policy, written per step as each seat's view and legal actions, the
action taken and the events (``thievery.testing.playthrough``), kept in
``tests/golden/<game>.txt``. Each test writes the playthrough again and compares it with
the file; a difference fails with a readable diff naming the first step that changed.

When the rules, views or actions change on purpose, write the files again and review
the diff in git:

    THIEVERY_REGOLD=1 .venv/bin/pytest tests/core/test_golden.py
"""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

import thievery
from thievery.core.registry import GROUP
from thievery.testing import check_golden, playthrough

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

# Per game: players, seed, options, steps (None: the whole game). Kept small: a short
# game, a few hundred KB at most; Schatz-Rabatz in tiny chests with a 2 s hourglass, so
# its clock ticks run the hourglass out round after round.
PLAYTHROUGHS: dict[str, dict[str, Any]] = {
    "schattendieb": {"players": 4, "seed": 1, "options": {"games": 1}},
    "thieves": {"players": 3, "seed": 1},
    "thieves-den": {"players": 2, "seed": 1},
    "schatz-rabatz": {
        "players": 2,
        "seed": 3,
        "options": {"width": 3, "depth": 2, "hourglass_seconds": 2},
    },
}


def test_every_game_of_thievery_has_a_golden_playthrough() -> None:
    # Other installed distributions may add games (with golden files of their own); ours
    # are the entry points into thievery.games.
    ours = [p.name for p in entry_points(group=GROUP) if p.value.startswith("thievery.games.")]
    assert sorted(PLAYTHROUGHS) == sorted(ours)
    assert set(ours) <= set(thievery.game_names())


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_the_golden_playthrough_is_unchanged(name: str) -> None:
    case = PLAYTHROUGHS[name]
    check_golden(
        GOLDEN / f"{name}.txt",
        name,
        case["players"],
        case["seed"],
        options=case.get("options"),
        steps=case.get("steps"),
    )


def test_the_golden_files_stay_small_and_show_what_they_promise() -> None:
    for name in PLAYTHROUGHS:
        text = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
        assert len(text.encode()) < 400_000, name
        assert "\nlegal 0: " in text and "\nview 0: " in text and "\naction: seat " in text
        assert text.rstrip().splitlines()[-1].startswith("result: {"), name  # played to the end
    assert (GOLDEN / "schatz-rabatz.txt").read_text().count('"type":"time_up"') >= 2


def test_a_changed_playthrough_fails_with_a_readable_diff(tmp_path: Path) -> None:
    path = tmp_path / "thieves.txt"
    check_golden(path, "thieves", 3, 1, steps=3, regold=True)
    check_golden(path, "thieves", 3, 1, steps=3, regold=False)
    lines = path.read_text().splitlines()
    changed = next(i for i, line in enumerate(lines) if line.startswith("legal 1: "))
    lines[changed] = "legal 1: nothing"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(AssertionError) as failure:
        check_golden(path, "thieves", 3, 1, steps=3, regold=False)
    message = str(failure.value)
    assert "changed from step 0" in message and "THIEVERY_REGOLD=1" in message
    assert "-legal 1: nothing" in message and "\n+legal 1: {" in message
    with pytest.raises(AssertionError, match="no golden file"):
        check_golden(tmp_path / "none.txt", "thieves", 3, 1, steps=3, regold=False)


def test_a_playthrough_is_the_same_every_time_and_differs_by_seed() -> None:
    first = playthrough("schattendieb", 3, 5, {"games": 1}, steps=6)
    assert first == playthrough("schattendieb", 3, 5, {"games": 1}, steps=6)
    assert first != playthrough("schattendieb", 3, 6, {"games": 1}, steps=6)
    assert first.count("== step ") == 6
