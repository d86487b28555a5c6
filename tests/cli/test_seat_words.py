"""How the terminal names seats, in English and German: every line of a screen names a seat
as the others do ("Seat 2 (Casual)", "Platz 2 (Amateur)"; the web's words), counted from 1."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from thievery.cli import app

runner = CliRunner()
LOWER_SEAT = re.compile(r"\bseat \d")  # "seat 2": the screens say "Seat 2"


def answers(n: int, choice: str = "1") -> str:
    return "".join(f"{choice}\n" for _ in range(n))


@pytest.mark.parametrize(
    ("lang", "raid", "busted"),
    [
        (
            "en",
            "Last raid — Seat 1 (Casual): 7, Seat 2 (Casual): 1, Seat 3 (Casual): 7;",
            "busted: Seat 1 (Casual), Seat 3 (Casual)",
        ),
        (
            "de",
            "Letzte Razzia — Platz 1 (Amateur): 7, Platz 2 (Amateur): 1, Platz 3 (Amateur): 7;",
            "geschnappt: Platz 1 (Amateur), Platz 3 (Amateur)",
        ),
    ],
)
def test_thieves_last_raid_names_the_seats_as_the_screen_does(
    lang: str, raid: str, busted: str
) -> None:
    """The last-raid line said "seat 1: 7, seat 2: 1; busted: seat 1" (German "Platz 1: 7")
    where every other line says "Seat 1 (Casual)"."""
    args = ["play", "thieves", "--humans", "0", "--seed", "2", "-p", "3", "--lang", lang]
    result = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    text = " ".join(line.strip("│ ") for line in result.output.splitlines())
    assert raid in text and busted in text, result.output
    assert not LOWER_SEAT.search(result.output), result.output


@pytest.mark.parametrize(
    ("lang", "heading", "given"),
    [
        ("en", "Thieves! — turn 3 · Seat 1 to play", "face up to Seat 2 (Casual)"),
        ("de", "Thieves! — Zug 3 · Platz 1 ist dran", "offen an Platz 2 (Amateur) geben"),
    ],
)
def test_thieves_title_and_menus_name_the_seats_as_the_screen_does(
    lang: str, heading: str, given: str
) -> None:
    """The board's title said "seat 1 to play" and the menus "Give Money 2 face up to seat
    2", "seat 2's loot": by number, lowercase, where the log says "Seat 2 (Casual)"."""
    args = ["play", "thieves", "--seed", "1", "-p", "3", "--lang", lang]
    result = runner.invoke(app, args, input=answers(60), env={"COLUMNS": "80"})
    assert heading in result.output and given in result.output, result.output
    assert not LOWER_SEAT.search(result.output), result.output


RAW_SCHEME = re.compile(r"\b(?:village|shadow|ruins|holy|city)-[a-z]+\b")


@pytest.mark.parametrize(
    ("lang", "board", "log", "mine"),
    [
        (
            "en",
            "Schemes: Seat 1 (Casual): Village + Holy ×3 (+15); Seat 2 (Casual): Shadow + Holy",
            "Seat 1 (Casual): Scheme Village + Holy ×3 (+15)",
            "Scheme: Village + Holy, 5 Prestige per set",
        ),
        (
            "de",
            "Pläne: Sitzplatz 1 (Amateur): Dorf + Heilig ×3 (+15); Sitzplatz 2 (Amateur): "
            "Schatten + Heilig",
            "Sitzplatz 1 (Amateur): Plan Dorf + Heilig ×3 (+15)",
            "Plan: Dorf + Heilig, 5 Prestige pro Satz",
        ),
    ],
)
def test_thieves_den_names_a_scheme_alike_on_the_board_in_the_log_and_in_your_line(
    lang: str, board: str, log: str, mine: str
) -> None:
    """The board's end line named Schemes by id ("village-holy ×3"; German "Dorf+Heilig"),
    the log "Scheme Village + Holy" ("Plan Dorf+Heilig"), your own line "Scheme: village +
    holy" (lowercase)."""
    args = ["play", "thieves-den", "--humans", "0", "--seed", "3", "-p", "3", "--lang", lang]
    ended = runner.invoke(app, args, env={"COLUMNS": "300"})
    assert ended.exit_code == 0, ended.output
    assert board in ended.output and log in ended.output, ended.output
    assert not RAW_SCHEME.search(ended.output), ended.output
    args = ["play", "thieves-den", "--seed", "3", "-p", "3", "--lang", lang]
    playing = runner.invoke(app, args, input="q\n", env={"COLUMNS": "100"})
    assert mine in playing.output, playing.output
