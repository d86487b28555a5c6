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
    result = runner.invoke(app, args, terminal_width=80)
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
    result = runner.invoke(app, args, input=answers(60), terminal_width=80)
    assert heading in result.output and given in result.output, result.output
    assert not LOWER_SEAT.search(result.output), result.output
