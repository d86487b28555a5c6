"""The command line's own words (Typer's usage errors and help screens) in German when the
command line is German (``--lang de`` anywhere in it, else a German environment), and
English, as Typer words them, otherwise; usage errors still exit with status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from enum import StrEnum
from pathlib import Path

import pytest
import typer
from typer import rich_utils
from typer.main import get_command
from typer.testing import CliRunner, Result

import thievery
from thievery.cli import app
from thievery.cli.lang_de import WORDS
from thievery.cli.usage import (
    ERRORS,
    HELP_OPTION,
    RICH_WORDS,
    USAGE_PIECES,
    USAGE_PREFIX,
    VALUE_ERRORS,
    ThieveryCommand,
    ThieveryGroup,
    cli_language,
)

runner = CliRunner()
WIDE = {"COLUMNS": "200", "LC_ALL": "", "LC_MESSAGES": ""}
GERMAN = {**WIDE, "LANG": "de_DE.UTF-8"}
ENGLISH = {**WIDE, "LANG": "en_GB.UTF-8"}


def run(args: list[str], env: dict[str, str]) -> Result:
    return runner.invoke(app, args, env=env)


def box(output: str) -> str:
    """The words in the error box (its lines joined)."""
    lines = [line.strip("│ ") for line in output.splitlines() if line.startswith("│")]
    return " ".join(line for line in lines if line)


def lines(output: str) -> list[str]:
    return [line.rstrip() for line in output.splitlines()]


# (arguments, the error's German words, its English words as Typer gives them)
CASES = [
    (
        ["play", "schattendieb", "--players", "x"],
        "Ungültiger Wert für '--players' / '-p': 'x' ist keine ganze Zahl",
        "Invalid value for '--players' / '-p': Input should be a valid integer, unable to "
        "parse string as an integer",
    ),
    (
        ["ladder", "schattendieb", "--workers", "1.5"],
        "Ungültiger Wert für '--workers': '1.5' ist keine ganze Zahl",
        "Invalid value for '--workers': Input should be a valid integer, unable to parse "
        "string as an integer",
    ),
    (
        ["serve", "--bot-delay", "soon"],
        "Ungültiger Wert für '--bot-delay': 'soon' ist keine Zahl",
        "Invalid value for '--bot-delay': Input should be a valid number, unable to parse "
        "string as a number",
    ),
    (
        ["serve", "--port", "70000"],
        "Ungültiger Wert für '--port': 70000 ist zu groß (höchstens 65535)",
        "Invalid value for '--port': Input should be less than or equal to 65535",
    ),
    (
        ["serve", "--bot-think-seconds", "0"],
        "Ungültiger Wert für '--bot-think-seconds': Sekunden über 0 und höchstens 10, nicht 0",
        "Invalid value for '--bot-think-seconds': seconds above 0 and at most 10, not 0",
    ),
    (
        ["simulate", "schattendieb", "--workers", "0"],
        "Ungültiger Wert für '--workers': 0 ist zu klein (mindestens 1)",
        "Invalid value for '--workers': Input should be greater than or equal to 1",
    ),
    (
        ["play", "schattendieb", "--lang", "fr"],
        "Ungültiger Wert für '--lang': unbekannte Sprache 'fr' (Sprachen: en, de)",
        "Invalid value for '--lang': unknown language 'fr' (languages: en, de)",
    ),
    (["play"], "Das Argument 'game' fehlt.", "Missing argument 'game'."),
    (["simulate", "schattendieb"], "Die Option '--bots' fehlt.", "Missing option '--bots'."),
    (
        ["simulate", "schattendieb", "--bots", "random,random", "-o", "games"],
        "Ungültiger Wert: eine Option ist NAME=WERT, nicht 'games'",
        "Invalid value: an option is NAME=VALUE, not 'games'",
    ),
    (["verify"], "Das Argument 'file' fehlt.", "Missing argument 'file'."),
    (
        ["play", "schattendieb", "--seeed", "1"],
        "Unbekannte Option: --seeed (Meintest du: --save, --seed?)",
        "No such option: --seeed (Possible options: --save, --seed)",
    ),
    (["games", "--foo"], "Unbekannte Option: --foo", "No such option: --foo"),
    (["--foo"], "Unbekannte Option: --foo", "No such option: --foo"),
    (
        ["play", "schattendieb", "one", "two"],
        "Zu viele Argumente (one two)",
        "Got unexpected extra argument(s) (one two)",
    ),
    (
        ["plya"],
        "Unbekannter Befehl 'plya'. Meintest du 'play', 'replay'?",
        "No such command 'plya'. Did you mean 'play', 'replay'?",
    ),
    (["nosuch"], "Unbekannter Befehl 'nosuch'.", "No such command 'nosuch'."),
    (
        ["replay", "game.json", "--seat"],
        "Die Option '--seat' braucht einen Wert.",
        "Option '--seat' requires an argument.",
    ),
    (
        ["replay", "game.json", "--everything=yes"],
        "Die Option '--everything' nimmt keinen Wert.",
        "Option '--everything' does not take a value.",
    ),
]


@pytest.mark.parametrize(("args", "german", "english"), CASES)
def test_a_usage_error_is_german_in_a_german_environment(
    args: list[str], german: str, english: str
) -> None:
    result = run(args, GERMAN)
    assert result.exit_code == 2, result.output
    assert box(result.output) == german
    assert "╭─ Fehler ─" in result.output and "Error" not in result.output
    english_result = run(args, ENGLISH)
    assert english_result.exit_code == 2
    assert box(english_result.output) == english
    assert "╭─ Error ─" in english_result.output


PLAY_CASES = [case for case in CASES if case[0][:1] == ["play"] and "--lang" not in case[0]]


@pytest.mark.parametrize(("args", "german", "english"), PLAY_CASES)
def test_lang_de_anywhere_on_the_line_makes_its_usage_error_german(
    args: list[str], german: str, english: str
) -> None:
    for line in ([*args, "--lang", "de"], [*args[:1], "--lang=de", *args[1:]]):
        result = run(line, ENGLISH)
        assert result.exit_code == 2
        assert box(result.output) == german, line
    forced = run([*args, "--lang", "en"], GERMAN)
    assert box(forced.output) == english


def test_lang_de_on_a_command_without_it_is_refused_in_german() -> None:
    result = run(["serve", "--lang", "de"], ENGLISH)
    assert result.exit_code == 2 and box(result.output) == "Unbekannte Option: --lang"


def test_the_usage_line_and_the_hint_are_german() -> None:
    result = run(["play", "schattendieb", "--players", "x"], GERMAN)
    assert lines(result.output)[:2] == [
        "Aufruf: thievery play [OPTIONEN] {game}",
        "Hilfe zeigt 'thievery play --help'.",
    ]
    top = run(["plya"], GERMAN)
    assert lines(top.output)[0] == "Aufruf: thievery [OPTIONEN] BEFEHL [ARGUMENTE]..."
    english = run(["play", "schattendieb", "--players", "x"], ENGLISH)
    assert lines(english.output)[:2] == [
        "Usage: thievery play [OPTIONS] {game}",
        "Try 'thievery play --help' for help.",
    ]


def test_the_help_screens_fixed_words_are_german() -> None:
    german = run(["play", "--help", "--lang", "de"], ENGLISH)
    assert german.exit_code == 0
    out = lines(german.output)
    assert "Aufruf: thievery play [OPTIONEN] {game}" in [line.strip() for line in out]
    assert any(line.startswith("╭─ Argumente ─") for line in out)
    assert any(line.startswith("╭─ Optionen ─") for line in out)
    assert "[Pflicht]" in german.output and "[Standard: 4]" in german.output
    assert "Diese Hilfe zeigen und beenden." in german.output
    assert "Usage" not in german.output and "[default" not in german.output
    top = run(["--help"], GERMAN)
    assert any(line.startswith("╭─ Befehle ─") for line in lines(top.output))
    english = run(["play", "--help"], ENGLISH)  # (and Typer's words are back after a run)
    assert "Usage: thievery play [OPTIONS] {game}" in english.output
    assert "╭─ Options ─" in english.output and "[default: 4]" in english.output
    assert "Show this message and exit." in english.output and "[required]" in english.output


def test_the_console_script_says_it_in_german(tmp_path: Path) -> None:
    env = {**os.environ, **GERMAN, "PYTHONPATH": str(Path(thievery.__file__).parents[1])}
    done = subprocess.run(
        [sys.executable, "-m", "thievery", "play", "schattendieb", "--players", "x"],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 2
    assert box(done.stderr) == "Ungültiger Wert für '--players' / '-p': 'x' ist keine ganze Zahl"
    assert "╭─ Fehler ─" in done.stderr


class Colour(StrEnum):
    red = "red"
    blue = "blue"


def small_app() -> typer.Typer:
    """An app with the kinds of option thievery has none of: a choice, a path that must
    exist and be a file."""
    small = typer.Typer(cls=ThieveryGroup, add_completion=False)

    @small.command(cls=ThieveryCommand)
    def paint(
        colour: Colour = typer.Option(Colour.red),
        file: Path | None = typer.Option(None, exists=True, dir_okay=False),
        lang: str = typer.Option("en"),
    ) -> None:
        """Paint."""

    @small.command(cls=ThieveryCommand)
    def other() -> None:
        """Other."""

    return small


@pytest.mark.parametrize(
    ("args", "german", "english"),
    [
        (
            ["paint", "--colour", "green"],
            "Ungültiger Wert für '--colour': 'green' ist keins von 'red', 'blue'.",
            "Invalid value for '--colour': Value error, 'green' is not one of 'red', 'blue'.",
        ),
        (
            ["paint", "--file", "nowhere.txt"],
            "Ungültiger Wert für '--file': 'nowhere.txt' gibt es nicht.",
            "Invalid value for '--file': file 'nowhere.txt' does not exist.",
        ),
        (
            ["paint", "--file", "."],
            "Ungültiger Wert für '--file': '.' ist ein Ordner.",
            "Invalid value for '--file': file '.' is a directory.",
        ),
    ],
)
def test_choices_and_paths_are_german_too(args: list[str], german: str, english: str) -> None:
    small = small_app()
    result = runner.invoke(small, [*args, "--lang", "de"], env=ENGLISH)
    assert result.exit_code == 2 and box(result.output) == german
    result = runner.invoke(small, args, env=GERMAN)
    assert result.exit_code == 2 and box(result.output) == german
    result = runner.invoke(small, args, env=ENGLISH)
    assert result.exit_code == 2 and box(result.output) == english


def test_the_language_of_the_command_line() -> None:
    assert cli_language(["play", "x", "--lang", "de"]) == "de"
    assert cli_language(["play", "--lang=DE", "x", "--lang", "en"]) == "en"
    assert cli_language(["play", "--lang", "fr"]) == cli_language([])  # (the environment's)
    assert cli_language(["play", "--", "--lang", "de"]) == cli_language([])


def test_every_command_speaks_the_command_lines_language() -> None:
    group = get_command(app)
    assert isinstance(group, ThieveryGroup)
    assert group.commands and all(
        isinstance(command, ThieveryCommand) for command in group.commands.values()
    )


def test_typer_still_has_the_words_put_into_german() -> None:
    """Typer's words as this module knows them: should an upgrade reword or drop one, this
    fails (rather than the German screens going English unnoticed)."""
    for name, english in RICH_WORDS.items():
        assert getattr(rich_utils, name) == english, name
    result = run(["play", "--help"], ENGLISH)
    assert USAGE_PREFIX + "thievery play [OPTIONS]" in result.output
    assert HELP_OPTION in result.output
    top = run(["--help"], ENGLISH).output
    assert all(piece in top for piece in USAGE_PIECES)


def test_every_word_has_its_german() -> None:
    english = [*ERRORS, *VALUE_ERRORS.values(), *RICH_WORDS.values(), *USAGE_PIECES]
    missing = [text for text in [*english, USAGE_PREFIX, HELP_OPTION] if text not in WORDS]
    assert not missing
