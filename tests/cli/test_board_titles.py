"""A board's title on an 80-column terminal: said whole, not cut off at the border."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from thievery.cli import app

TITLE = re.compile(r"^╭─+ (?:Der Schattendieb — )?(?:Game|Spiel) \d")
WHOLE = re.compile(r" · (?:discard|Ablage) \d+ ─+╮$")


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("width", [80, 100])
def test_der_schattendieb_title_is_whole_at_80_columns(lang: str, width: int) -> None:
    """At 80 columns the title "Der Schattendieb — Game 1 of 1 · round 10 · step: play ·
    draw pile 64 · discard 0" was cut ("… · draw pile 64 · dis─╮"; German "… · Zugstape─╮"):
    a narrow one says it shorter ("Game 1/1 · round 10 · play · pile 64 · discard 0")."""
    args = ["play", "schattendieb", "--seed", "3", "-p", "3", "-o", "games=1", "--lang", lang]
    result = CliRunner().invoke(app, args, input="1\n" * 300, env={"COLUMNS": str(width)})
    titles = [line for line in result.output.splitlines() if TITLE.match(line)]
    assert titles, result.output
    cut = [t for t in titles if not WHOLE.search(t)]
    assert not cut, cut
    if width == 100:  # (where the whole title fits, it is said in full)
        full = "step: " if lang == "en" else "Schritt: "
        assert all(full in t for t in titles), titles


def test_der_schattendieb_german_headings_are_whole_words_at_80_columns() -> None:
    """The safes' column narrows as the round's column fills: its German heading
    "Tresorinhalt" was cut into "Tresorin" and "halt". Every heading word is whole."""
    headings = {"Platz", "Tresor", "Hand", "diese", "Runde", "im", "n/Summe", "Partie"}
    seen: set[str] = set()
    for seed in (1, 2):
        args = ["play", "schattendieb", "--seed", str(seed), "-p", "7", "-o", "games=1"]
        result = CliRunner().invoke(
            app, [*args, "--lang", "de"], input="1\n" * 300, env={"COLUMNS": "80"}
        )
        for line in result.output.splitlines():
            if line.startswith("│ ┃"):
                seen |= set(line.replace("┃", " ").replace("│", " ").split())
    assert seen and seen <= headings, seen - headings
