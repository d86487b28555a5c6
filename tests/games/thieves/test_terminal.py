"""Thieves! in the terminal: the renderer, and whole games through `thievery play` and
`thievery simulate`."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from tests.games.thieves.helpers import new, play
from thievery.cli import app
from thievery.cli.render import PLAIN, describe, legend_of, renderer, seat_labels
from thievery.core import Rng
from thievery.core.i18n import use_language
from thievery.games.thieves import SPEC

runner = CliRunner()


def rendered(view: dict[str, object]) -> str:
    console = Console(width=110, record=True, color_system=None)
    console.print(renderer("thieves").table(view))
    return console.export_text()


def test_renderer_shows_loot_police_getaways_hand_and_raid() -> None:
    assert renderer("thieves") is not PLAIN
    state = new(
        [
            ["money-3a", "police-1a", "diamond-ring"],
            ["money-1a", "police-1b", "money-0b"],
            ["police-2a", "money-2a", "money-1b"],
        ],
        ["getaway-a", "horseshoe", "money-1d", "money-1e", "money-1f", "money-1g"],
    )
    play(state, "money-3a", 0)
    play(state, "money-1a", 1)
    play(state, "police-2a")
    play(state, "police-1a")
    play(state, "police-1b")  # raid: seat 0 busted
    play(state, "money-2a", 2)  # face down
    text = rendered(state.view(1))
    placed = len(state.view(1)["getaways"])  # the deck was shuffled in the raid
    assert f"Getaways: {placed}/7" in text and "Police: none" in text
    # (seats counted from 1 on the screen: seat index 0 reads "Seat 1")
    assert "Last raid — Seat 1: 3, Seat 2: 1, Seat 3: 0; busted: Seat 1" in text
    assert "1 (you)" not in text and "2 (you)" in text  # the table's row of seat index 1
    assert "Your hand" in text and "[$1]" in text  # own face-down card, known to everyone
    assert "▒" in text  # seat 2's face-down card
    spectator = rendered(state.view(None))
    assert "Your hand" not in spectator
    menu = [renderer("thieves").action(a.to_json(), state.view(0)) for a in state.legal_actions(0)]
    assert "Keep Diamond Ring face down" in menu
    assert "Give Horseshoe face up to Seat 3" in menu  # seat index 2


def test_a_finished_games_title_says_it_is_over_not_whose_turn_it_is() -> None:
    """The finished board's title named a seat 'to play' above 'Game over'."""
    state = SPEC.new(3, 3)
    rng = Rng(3)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    for seat, language in [(0, "en"), (None, "en"), (2, "de")]:
        with use_language(language):
            text = rendered(state.view(seat))
        turn, over = ("turn", "game over") if language == "en" else ("Zug", "Spiel vorbei")
        assert f"Thieves! — {turn} {state.view(seat)['turn']} · {over}" in text
        assert "to play" not in text and "ist dran" not in text


def test_renderer_follow_up_menus() -> None:
    state = new(
        [
            ["thief-a", "money-0a", "police-1a"],
            ["money-3a", "money-0b", "money-0c"],
            ["police-2a", "roadblock-a", "money-1a"],
        ],
        ["money-1b", "money-1c", "money-1d", "money-1e"],
        first=1,
    )
    play(state, "money-3a", 1)
    play(state, "police-2a")
    play(state, "police-1a")
    play(state, "money-0b", 0)
    play(state, "roadblock-a")
    view = state.view(2)
    assert "Roadblock: pick" in rendered(view)
    labels = [renderer("thieves").action(a.to_json(), view) for a in state.legal_actions(2)]
    assert labels == ["Remove Police (2 cars) from play", "Remove Police (1 car) from play"]
    state.apply(2, {"type": "remove", "card": "police-1a"})
    play(state, "thief-a")
    view = state.view(0)
    labels = [renderer("thieves").action(a.to_json(), view) for a in state.legal_actions(0)]
    assert "Move Money 0 (slot 1) from you to Seat 2" in labels  # seat index 1, slot 0
    assert "Move a face-down card (slot 1) from Seat 2 to you" in labels
    # The Thief's move is optional: the menu's last line declines it.
    assert labels[-1] == "Don't move anything (decline the Thief's move)"
    assert "Thief: move a loot card (▒ = face down, picked blind), or don't" in rendered(view)


def test_the_thiefs_menu_counts_loot_slots_from_1_from_the_left() -> None:
    """Seat 2's loot row reads Money 3, a face-down card, Money 2 (left to right): its
    slots are 1, 2 and 3 in the menu, its lines and headings, in both languages, as the
    legend says; the actions keep the 0-based slot."""
    state = new(
        [
            ["money-3a", "thief-a", "money-0a"],
            ["money-1a", "money-0b", "money-0c"],
            ["money-2a", "money-1b", "money-1c"],
        ],
        ["money-1d", "money-1e", "money-1f", "money-1g"],
    )
    play(state, "money-3a", 1)
    play(state, "money-1a", 1)  # face down
    play(state, "money-2a", 1)
    play(state, "thief-a")
    view, thieves = state.view(0), renderer("thieves")
    moves = [a.to_json() for a in state.legal_actions(0) if a.type == "move"]
    to_me = {a["slot"]: a for a in moves if a["to"] == 0}
    assert sorted(to_me) == [0, 1, 2]
    assert [thieves.action(to_me[slot], view) for slot in (0, 1, 2)] == [
        "Move Money 3 (slot 1) from Seat 2 to you",
        "Move a face-down card (slot 2) from Seat 2 to you",
        "Move Money 2 (slot 3) from Seat 2 to you",
    ]
    assert thieves.group(to_me[1], view) == (
        "Move a card from Seat 2's loot",
        "Move a face-down card (slot 2)",
    )
    assert "slot 2  in the Thief's moves: the 2nd card of a loot row" in legend_of(
        "thieves", thieves
    )
    with use_language("de"):
        assert thieves.action(to_me[2], view) == "Geld 2 (Feld 3) von Platz 2 zu dir verschieben"
        assert thieves.group(to_me[1], view)[1] == "eine verdeckte Karte (Feld 2) verschieben"
        legend = legend_of("thieves", thieves)
        assert "Feld 2  bei den Zügen des Diebs: die 2. Karte einer Beutereihe" in legend


def test_play_a_full_game_against_bots_and_save_it(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    answers = "\n".join(["x", "0", "99"] + ["1"] * 300) + "\n"
    result = runner.invoke(
        app,
        [
            "play",
            "thieves",
            "--players",
            "4",
            "--humans",
            "1",
            "--seed",
            "7",
            "--save",
            str(record),
        ],
        input=answers,
    )
    assert result.exit_code == 0, result.output
    assert "Your hand" in result.output and "Thieves!" in result.output
    data = json.loads(record.read_text())
    assert data["game"] == "thieves" and data["result"]["winners"]
    assert {a["seat"] for a in data["actions"]} == {0, 1, 2, 3}


def test_simulate_heuristic_against_random(tmp_path: Path) -> None:
    out = tmp_path / "sim.json"
    result = runner.invoke(
        app,
        [
            "simulate",
            "thieves",
            "--games",
            "30",
            "--bots",
            "heuristic,random,random",
            "--seed",
            "1",
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    rows = {r["bot"]: r for r in json.loads(out.read_text())["standings"]}
    assert rows["heuristic"]["games"] == 30 and rows["random"]["games"] == 60


def test_hot_seat_passes_the_terminal_between_humans() -> None:
    answers = "\n".join(["", "1"] * 8 + ["q"]) + "\n"
    result = runner.invoke(
        app, ["play", "thieves", "--players", "3", "--humans", "2", "--seed", "2"], input=answers
    )
    assert result.exit_code == 0, result.output
    assert "Pass the terminal to Seat 1" in result.output  # seats counted from 1
    assert "Pass the terminal to Seat 2" in result.output
    assert "Pass the terminal to Seat 0" not in result.output


def test_a_turn_that_draws_only_getaway_cars_does_not_say_it_drew_0_cards() -> None:
    """Seat 2's draw turns up the last getaway cars and no card for the hand: the log
    read "drew 0 cards" right before "drew a getaway car"."""
    getaways = [f"getaway-{c}" for c in "abcdefg"]
    state = new(
        [
            ["money-3a", "money-0a", "money-0b"],
            ["money-1a", "money-0c", "money-1d"],
            ["money-2a", "money-1b", "money-1c"],
        ],
        ["money-2b", *getaways],  # (Seat 1 draws the money before the first turn)
    )
    events = play(state, "money-3a", 1)
    assert state.is_over
    (turn,) = [e for e in events if e.type == "turn"]
    assert turn.data["drew"] == 0
    for language, said, wrong in [
        ("en", "Turn 2: Seat 2's turn", "drew 0"),
        ("de", "Zug 2: Platz 2 ist dran", "0 Karten"),
    ]:
        with use_language(language):
            lines = [describe(SPEC, e, None, seat_labels(3, None)) for e in events]
        assert said in lines and not any(wrong in line for line in lines), lines
    # a turn that draws a card still says so
    state = new(
        [
            ["money-3a", "money-0a", "money-0b"],
            ["money-1a", "money-0c", "money-1d"],
            ["money-2a", "money-1b", "money-1c"],
        ],
        ["money-2b", "money-2c"],
    )
    (turn,) = [e for e in play(state, "money-3a", 1) if e.type == "turn"]
    assert turn.data["drew"] == 1
    assert describe(SPEC, turn, None, seat_labels(3, None)) == (
        "Turn 2: Seat 2's turn (drew 1 card)"
    )
    with use_language("de"):
        said = describe(SPEC, turn, None, seat_labels(3, None))
    assert said == "Zug 2: Platz 2 ist dran (1 Karte gezogen)"
