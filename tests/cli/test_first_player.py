"""Who plays first, from the command line: ``--first`` counts seats from 1 as the screens
do (``--first 3`` is Seat 3); the game option ``first_player`` counts from 0 as records
do, and an out-of-range one is refused in words that say so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from thievery.cli import app

runner = CliRunner()


def play(*args: str, lang: str = "en") -> tuple[int, str]:
    result = runner.invoke(
        app, ["play", *args, "--humans", "0", "--seed", "4", "--lang", lang], terminal_width=200
    )
    return result.exit_code, result.output


@pytest.mark.parametrize(("game", "first"), [("thieves", 3), ("thieves-den", 1)])
def test_first_counts_seats_from_1_and_records_the_engines_option(
    tmp_path: Path, game: str, first: int
) -> None:
    record = tmp_path / "game.json"
    code, output = play(game, "-p", "3", "--first", str(first), "--save", str(record))
    assert code == 0, output
    # (the record keeps the engine's option, counted from 0, as before)
    assert json.loads(record.read_text())["options"]["first_player"] == first - 1


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "error: --first is a seat from 1 to 3 (Seat 1 to Seat 3), not 4"),
        ("de", "Fehler: --first ist ein Platz von 1 bis 3 (Platz 1 bis Platz 3), nicht 4"),
    ],
)
def test_first_out_of_range_is_refused_counted_from_1(lang: str, words: str) -> None:
    code, output = play("thieves", "-p", "3", "--first", "4", lang=lang)
    assert code == 2 and words in output, output
    code, output = play("thieves", "-p", "3", "--first", "0", lang=lang)
    assert code == 2 and ("not 0" in output or "nicht 0" in output), output


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "en",
            "error: --option first_player counts seats from 0, as game records do: 0 (Seat 1 "
            "on the screen) to 2 (Seat 3), not 3; or use --first, which counts from 1 as the "
            "screens do (--first 1 to --first 3)",
        ),
        (
            "de",
            "Fehler: --option first_player zählt die Plätze ab 0, wie Spielprotokolle: 0 "
            "(Platz 1 auf dem Bildschirm) bis 2 (Platz 3), nicht 3; oder nimm --first, das "
            "wie der Bildschirm ab 1 zählt (--first 1 bis --first 3)",
        ),
    ],
)
def test_first_player_option_out_of_range_says_how_it_counts(lang: str, words: str) -> None:
    """It said "option 'first_player' must be a seat from 0 to 2, not 3" (in German
    "Nicht erlaubt (option 'first_player' must be …)"), where every screen counts seats
    from 1: a player typing 3 for Seat 3 was not told that 0 is Seat 1."""
    code, output = play("thieves", "-p", "3", "-o", "first_player=3", lang=lang)
    assert code == 2 and output.strip() == words, output


def test_first_is_refused_twice_or_where_no_one_plays_first() -> None:
    code, output = play("thieves", "-p", "3", "--first", "2", "-o", "first_player=1")
    assert code == 2 and "both name the first player: give one" in output, output
    code, output = play("schattendieb", "-p", "3", "--first", "1", lang="de")
    assert code == 2 and "Der Schattendieb hat keinen Startspieler" in output, output


def test_play_help_says_how_first_and_first_player_count() -> None:
    result = runner.invoke(app, ["play", "--help"], terminal_width=200)
    text = " ".join(result.output.replace("│", " ").split())
    assert "--first" in text and "counted from 1 as the screens count them" in text, text
    assert "--first 2 is --option first_player=1" in text, text
    assert "first_player=0 is Seat 1" in text, text
