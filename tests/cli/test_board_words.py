"""A board's own words, in English and German: counts said as a player says them."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from thievery.cli import app

POLICE = re.compile(r"(?:Police|Polizei): .*?(?=   )")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", {"Police: none", "Police: 1 car P1", "Police: 2 cars P1 P1", "Police: 2 cars P2"}),
        (
            "de",
            {
                "Polizei: keine",
                "Polizei: 1 Auto P1",
                "Polizei: 2 Autos P1 P1",
                "Polizei: 2 Autos P2",
            },
        ),
    ],
)
def test_thieves_police_line_says_its_cars_in_words(lang: str, said: set[str]) -> None:
    """Thieves!'s police line read "Police: 0 car(s) none" and "Police: 1 car(s) P1" (German
    "Polizei: 0 Auto(s) keine")."""
    args = ["play", "thieves", "-p", "3", "--seed", "4", "--lang", lang]
    result = CliRunner().invoke(app, args, input="1\n" * 200, env={"COLUMNS": "100"})
    shown = set(POLICE.findall(result.output))
    assert shown == said, shown
    legend = CliRunner().invoke(app, args, input="?\nq\n", env={"COLUMNS": "100"}).output
    assert ("Police: 3 cars" if lang == "en" else "Polizei: 3 Autos") in legend, legend
