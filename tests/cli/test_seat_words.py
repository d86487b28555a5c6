"""How the terminal names seats, in English and German: every line of a screen names a seat
as the others do ("Seat 2 (Casual)", "Platz 2 (Amateur)"; the web's words), counted from 1."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import thievery
from thievery.cli import app
from thievery.cli.render import renderer, seat_labels, with_names
from thievery.core.i18n import use_language

runner = CliRunner()
LOWER_SEAT = re.compile(r"\bseat \d")  # "seat 2": the screens say "Seat 2"
MENU = re.compile(r"^ +\d+ ")  # a menu line: "  2 Target Seat 2 (Casual): …"


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


@pytest.mark.parametrize(
    ("lang", "lines", "now"),
    [
        (
            "en",
            [
                "Target Seat 2 (Casual): 8 Prestige, 3 treasures, 4 thieves",
                "Steal at Seat 2 (Casual)'s Library: Take 3 Tomes (Seat 2 (Casual) gets 1 Tome)",
                "Destroy Seat 2 (Casual)'s artifact",
            ],
            "Now: choose a treasure of Seat 2 (Casual) to destroy",
        ),
        (
            "de",
            [
                "Stehlen bei Markt von Platz 2 (Amateur): Nimm 2 Juwelen (Platz 2 (Amateur) "
                "bekommt 2 Diebe)",
                "Artefakt von Platz 2 (Amateur) zerstören",
            ],
            "Jetzt: wähl einen Schatz von Platz 2 (Amateur) zum Zerstören",
        ),
    ],
)
def test_thieves_den_menus_name_the_seats_as_the_screen_does(
    lang: str, lines: list[str], now: str
) -> None:
    """The menus said "Target seat 2 (8 Prestige, …)", "Steal at seat 2's Library … (seat 2
    gets 1 Tome)", "Destroy seat 2's artifact" (German "von Platz 2"), and the decision
    "Now: choose a treasure of seat 2 to destroy", where the log says "Seat 2 (Casual)"."""
    args = ["play", "thieves-den", "--seed", "1", "-p", "3", "--lang", lang]
    result = runner.invoke(app, args, input=answers(400), env={"COLUMNS": "100"})
    lines_out = result.output.splitlines()
    menus = {line.strip().split(" ", 1)[1] for line in lines_out if MENU.match(line)}
    assert set(lines) <= menus, sorted(menus)
    assert now in result.output, result.output
    assert not LOWER_SEAT.search(result.output), LOWER_SEAT.findall(result.output)
    if lang == "de":
        # (a line cut at the width may end in "(Platz 2": its "(Amateur)" on the next)
        assert not re.search(r"Platz \d(?! \()(?!$)", "\n".join(menus), re.M), menus


def test_schattendieb_steal_menu_names_the_seats_as_the_screen_does() -> None:
    """A steal's menu line said "Steal Ring 10 from seat 1" (German "von Platz 1") where the
    log says "Seat 2 (Casual)". (Seed 15, 3 seats, random moves: Seat 3 may steal first.)"""
    spec = thievery.game("schattendieb")
    state, rng = spec.new(3, 15, {"games": 1}), random.Random(15)
    names = ["Seat 0", "Seat 1 (heuristic)", "Seat 2 (random)"]  # (as a record names them)
    while not any(a.type == "steal" for a in state.legal_actions(state.to_act[0])):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seat = state.to_act[0]
    steals = [a.to_json() for a in state.legal_actions(seat) if a.type == "steal"]
    for lang, words in [
        ("en", ["Steal Ring 10 from Seat 1", "Steal Brooch 6 from Seat 2 (Casual)"]),
        ("de", ["Ring 10 von Platz 1 stehlen", "Brosche 6 von Platz 2 (Amateur) stehlen"]),
    ]:
        with use_language(lang):
            view = with_names(state.view(seat), seat_labels(3, names))
            assert [renderer("schattendieb").action(a, view) for a in steals] == words


@pytest.mark.parametrize(
    ("lang", "chest", "waiting", "last_round"),
    [
        (
            "en",
            "Seat 2 (you)",
            "waiting for ready: Seat 1, Seat 2, Seat 3 (Beginner)",
            "Round 1 (Jack-board 1) — Seat 1: 2, Seat 2: 0, Seat 3 (Beginner): 0. Seat 1 took "
            "the bow",
        ),
        (
            "de",
            "Platz 2 (du)",
            "warte auf „bereit“: Platz 1, Platz 2, Platz 3 (Anfänger)",
            "Runde 1 (Jacks Tafel 1) — Platz 1: 2, Platz 2: 0, Platz 3 (Anfänger): 0. Platz 1 "
            "nahm den Bug",
        ),
    ],
)
def test_schatz_rabatz_names_the_seats_as_the_screen_does(
    lang: str, chest: str, waiting: str, last_round: str
) -> None:
    """The live screen said "seat 2 (you)" over a chest, "waiting for ready: seat 1", and
    "Round 1 (Jack-board 1) — seat 1: 2, seat 2: 0 … seat 1 took the bow", where its log
    says "Seat 3 (Beginner)"; a chest's title names the seat by number alone (four chests
    share 80 columns)."""
    from tests.games.schatz_rabatz.helpers import drop, new

    state = new(3)
    drop(state, 0, "crown-red", 0, 0)
    drop(state, 0, "sword-blue", 1, 5)
    drop(state, 0, "sword-green", 1, 5)  # (sticks out above the rim: the hourglass runs)
    state.advance(43_300)  # (the round is counted)
    with use_language(lang):
        names = seat_labels(3, ["Seat 0", "Seat 1", "Seat 2 (random)"])
        console = Console(width=300, record=True, color_system=None, file=io.StringIO())
        console.print(renderer("schatz-rabatz").table(with_names(state.view(1), names)))
    shown = console.export_text()
    assert chest in shown and waiting in shown and last_round in shown, shown
    assert not LOWER_SEAT.search(shown), shown


@pytest.mark.parametrize(
    ("lang", "board", "standings"),
    [
        (
            "en",
            "winner: Seat 2 (Casual) and Seat 4 (Casual)",
            "Winner: Seat 2 (Casual) and Seat 4 (Casual)",
        ),
        (
            "de",
            "Sieger: Sitzplatz 2 (Amateur) und Sitzplatz 4 (Amateur)",
            "Sieger: Sitzplatz 2 (Amateur) und Sitzplatz 4 (Amateur)",
        ),
    ],
)
def test_tied_winners_are_listed_as_the_log_lists_them(
    lang: str, board: str, standings: str, tmp_path: Path
) -> None:
    """A tie read "winner: Seat 2 (Casual), Seat 4 (Casual)" on the board, in the final
    standings and a replay's result, where the log says "Winner: Seat 2 (Casual) and Seat 4
    (Casual)"."""
    record = tmp_path / "game.json"
    args = ["play", "thieves", "--humans", "0", "--seed", "2", "-p", "6", "--lang", lang]
    args += ["--save", str(record)]
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    over = next(line for line in lines if "Game over —" in line or "Spiel vorbei —" in line)
    assert board in over, over
    assert any(line.strip("│ ") == standings for line in lines), result.output
    assert "(Casual), Seat" not in result.output and "(Amateur), Sitzplatz" not in result.output
    replayed = runner.invoke(app, ["replay", str(record), "--no-step", "--lang", lang])
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.rstrip().endswith(standings.split(": ", 1)[1]), replayed.output
