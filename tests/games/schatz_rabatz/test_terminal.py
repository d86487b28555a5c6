"""Schatz-Rabatz in the terminal: the renderer, replaying a record with clock ticks, and
the live keyboard mode driven by scripted keys on a fake clock."""

from __future__ import annotations

import re
from pathlib import Path

import pyte
import pytest
from rich.console import Console, RenderableType
from typer.testing import CliRunner

from thievery.bots import make_bot
from thievery.cli import app
from thievery.cli.render import PLAIN, renderer, seat_labels
from thievery.core import Event, GameRecord, Rng
from thievery.core.i18n import localized, result_name, use_language
from thievery.core.protocol import default_seat_name
from thievery.core.registry import plugin
from thievery.games.schatz_rabatz import lang_de
from thievery.games.schatz_rabatz.live import LiveGame, play_live, run
from thievery.games.schatz_rabatz.render import last_round_text

from .helpers import SPEC, all_ready, cells, drop, finish_round, new


def text(frame: RenderableType, width: int = 110, colour: bool = True, height: int = 40) -> str:
    """A frame's text as a console of ``width``×``height`` draws it in colour (``colour``)
    or without (the treasures then carry colour letters). (A live frame too tall for the
    height is drawn compact: see test_the_live_screen_fits_80_by_24.)"""
    console = Console(
        width=width,
        height=height,
        record=True,
        color_system="standard" if colour else None,
        no_color=False,
    )
    console.print(frame)
    return console.export_text()


def test_renderer_shows_pool_chests_hourglass_and_ships() -> None:
    assert renderer("schatz-rabatz") is not PLAIN
    state = new(3)
    drop(state, 0, "crown-red", 0, 0)
    drop(state, 0, "sword-blue", 1, 5)
    drop(state, 0, "sword-green", 1, 5)  # sticks out above the rim
    state.advance(12_300)
    shown = text(renderer("schatz-rabatz").table(state.view(0)))
    assert "pool (37)" in shown and "17.7 s left" in shown
    assert "Seat 1 (you)" in shown and "│ open" in shown and "rim" in shown  # counted from 1
    assert "│K · K · · S │" in shown  # the crown's cup, the sword on end
    assert "│ └────────────┘ " in shown and "│  1 2 3 4 5 6 " in shown  # columns from 1
    assert "ship 0/4 ▱▱▱▱" in shown
    state.advance(31_000)
    shown = text(renderer("schatz-rabatz").table(state.view(1)))
    assert "Seat 2 (you)" in shown and "waiting for ready" in shown
    assert "above the rim: S" in shown and "Jack-board 1 claims" in shown
    assert "Round 1 (Jack-board 1)" in shown and "ship 1/4 ▰▱▱▱" in shown
    assert "Seat 1: 2, Seat 2: 0, Seat 3: 0. Seat 1 took the bow " in shown  # not "bow-1"
    waiting = text(renderer("schatz-rabatz").table(new(2, little_pirates=True).view(None)))
    assert "waits for the first lid" in waiting


def test_without_colour_every_treasure_marks_its_colour_with_a_letter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With NO_COLOR (or a console without colour) the pool read "ring R R R R R", the
    chests "K K S" and the Jack-board's claims "C H R P G S B K": no colour told apart."""
    state = new(3)
    drop(state, 0, "crown-red", 0, 0)
    drop(state, 0, "sword-blue", 1, 5)
    drop(state, 0, "sword-green", 1, 5)  # sticks out above the rim
    state.advance(12_300)
    draw = renderer("schatz-rabatz").table
    assert "ring R R R R R " in text(draw(state.view(0)))  # in colour: the colour shows
    shown = text(draw(state.view(0)), colour=False)
    assert "ring Rr Rb Rg Ry Rp " in shown and "crown Kb Kg Ky Kp" in shown
    assert "│Kr· Kr· · Sb│" in shown and "│KrKrKr· · Sb│" in shown  # a cell is two wide
    assert "│ └────────────┘ " in shown and "│  1 2 3 4 5 6 " in shown  # (as in colour)
    state.advance(31_000)
    with use_language("de"):
        shown = text(draw(state.view(1)), colour=False)
    assert "Ring Rr Rb Rg Re Rl " in shown and "über dem Rand: Sg" in shown
    assert "Jacks Tafel 1 beansprucht: Cr Hg Rl Pb Ge Sr Bg Kl" in shown
    # NO_COLOR in the environment: a colour console draws the letters too, live as well
    monkeypatch.setenv("NO_COLOR", "1")
    # (a screen of 40 lines, as text() draws on: the live frame is drawn whole, not
    # compact, whatever size of terminal the tests run in, if any)
    console = Console(width=110, height=40, record=True, color_system="standard")
    console.print(draw(state.view(1)))
    assert "Jack-board 1 claims: Cr Hg Rp Pb Gy Sr Bg Kp" in console.export_text()
    console.print(live().render())
    assert "Your pick: red circle, turned 0, column 1   circle Cr" in console.export_text()


@pytest.mark.parametrize(
    ("width", "numbers"),
    [
        (10, " 1 2 3 4 5 6 7 8 9 10 "),  # "10" is last: it stands apart from the 9
        (11, " 1   3   5   7   9   11 "),  # every other one from 11 columns on
        (12, " 1   3   5   7   9   11   "),
    ],
)
def test_a_wide_chests_column_numbers_stand_apart_under_their_columns(
    width: int, numbers: str
) -> None:
    """Two-digit column numbers do not run together ("9 101112"), and each number stands
    under its column: here the gold bar dropped at the 11th column (of 12) or 9th."""
    state = new(2, width=width)
    column = 10 if width == 12 else 8
    drop(state, 0, "goldbar-red", 0, column)
    lines = text(renderer("schatz-rabatz").table(state.view(0)), width=120).splitlines()
    ruler = next(line for line in lines if "│  1 " in line)
    assert "│ " + numbers in ruler and "1011" not in ruler
    floor = next(line for line in lines if "B B" in line and "· ·" in line)  # in the chest
    at = floor.index("B B")
    assert ruler[at : at + 2].strip() == str(column + 1)  # the number under the bar


def test_the_last_rounds_line_names_ship_parts_in_words_in_both_languages() -> None:
    """The ship parts taken, as the log and the web name them (no card ids, no copy
    numbers: the four copies of a part are alike)."""
    last = {
        "round": 2,
        "board": "jack-4",
        "counts": [3, 5, 1],
        "parts": [None, "middle-a-1", "bow-2"],
    }
    view = {"last_round": last}
    line = last_round_text(view)
    assert line is not None and line.plain == (
        "Round 2 (Jack-board 4) — Seat 1: 3, Seat 2: 5, Seat 3: 1. "
        "Seat 2 took the middle A, Seat 3 took the bow"
    )
    with use_language("de"):
        line = last_round_text(view)
    assert line is not None and line.plain == (
        "Runde 2 (Jacks Tafel 4) — Platz 1: 3, Platz 2: 5, Platz 3: 1. "
        "Platz 2 nahm das Mittelteil A, Platz 3 nahm den Bug"
    )


def test_menu_lines_say_what_an_action_does() -> None:
    action = renderer("schatz-rabatz").action
    view = new().view(0)
    assert action({"type": "close"}, view) == "Close the lid"
    assert action({"type": "ready"}, view) == "Ready for the next round"
    assert action({"type": "tick", "now_ms": 1500}, view) == "The clock moves to 1.5 s"
    drop_json = {"type": "drop", "treasure": "goldbar-red", "rotation": 0, "column": 2}
    assert action(drop_json, view) == "Pack the red gold bar at column 3"  # counted from 1
    drop_json = {"type": "drop", "treasure": "sword-purple", "rotation": 1, "column": 0}
    assert action(drop_json, view) == "Pack the purple sword, turned 1 at column 1"
    with use_language("de"):
        assert action(drop_json, view) == "Schwert (lila), 1-mal gedreht in Spalte 1 packen"


def test_a_record_with_clock_ticks_replays_in_the_terminal(tmp_path: Path) -> None:
    state = new(2, hourglass_seconds=2)
    drop(state, 0, "circle-red", 0, 0)
    state.advance(2_500)
    all_ready(state)
    finish_round(state)
    path = tmp_path / "game.json"
    GameRecord.of(state).save(path)
    result = CliRunner().invoke(app, ["replay", str(path), "--no-step", "--everything"])
    assert result.exit_code == 0, result.output
    assert "The clock: The clock moves to 2.5 s" in result.output  # (was "Seat -1: …")
    assert "The hourglass ran out at 2.0 s" in result.output


def live(players: int = 2, **options: object) -> LiveGame:
    """A live game: the human is seat 0, a child bot plays seat 1 (and 2, 3)."""
    state = new(players, **options)
    bots = {s: make_bot("packer-child", SPEC.name, s, 3) for s in range(1, players)}
    return LiveGame(state, 0, bots, Rng(1))


def test_keys_pick_rotate_move_and_drop_where_the_ghost_shows() -> None:
    game = live()
    assert game.selected == "circle-red"
    for key in ["down"] * 35:  # circles, hexagons, … down to the first crown
        game.key(key)
    assert game.selected == "crown-red"
    game.key("r")
    game.key("right")
    game.key("d")
    assert (game.rotation, game.column) == (1, 2)
    shown = text(game.render())
    assert "red crown, turned 1, column 3 " in shown  # counted from 1, as the log counts
    with use_language("de"):
        assert "Krone (rot), 1-mal gedreht, Spalte 3 " in text(game.render())
    for _ in range(9):
        game.key("right")
    assert game.column == 4  # a crown turned once is 2 wide: columns 0 to 4
    ghost = set(game.ghost())
    assert ghost and "░░" in text(game.render())
    game.key("enter")
    assert cells(game.state, 0) == ghost
    assert game.log[-1].startswith(
        "You packed the red crown (turned 1, column 5, row 1 from the bottom)"
    )
    assert game.selected == "crown-blue"  # the next one in the pool
    game.key("up")
    assert game.selected == "goldbar-purple"


def test_a_drop_that_lost_the_race_is_answered_clearly() -> None:
    game = live()
    game.key("up")  # wrap round to the last treasure: the purple crown
    assert game.selected == "crown-purple"
    drop(game.state, 1, "crown-purple", 0, 0)  # seat 1 is quicker
    game.key("enter")
    # the seat counted from 1, the treasure in words
    assert game.message == "Too slow! purple crown is gone: seat 2 took it"
    assert game.selected == "circle-red"
    assert "Too slow!" in text(game.render())
    assert cells(game.state, 0) == set()


def test_a_drop_that_lost_the_race_is_answered_clearly_in_german() -> None:
    with use_language("de"):
        game = live()
        game.key("up")
        drop(game.state, 1, "crown-purple", 0, 0)
        game.key("enter")
        # no id, no English seat, no pronoun of the wrong gender
        assert game.message == "Zu langsam! Krone (lila) ist weg: Platz 2 war schneller", (
            game.message
        )


def test_the_live_loop_counts_down_closes_and_waits_for_ready() -> None:
    """Scripted keys on a fake clock: a drop, then nothing until the hourglass runs out,
    ready, then the lid closed at once in round 2, and quit."""
    game = live(2, hourglass_seconds=5)
    now = [0.0]
    script: list[str | None] = ["enter", *[None] * 120, "y", *[None] * 40, "c", "q"]
    frames: list[str] = []

    def keys(timeout: float) -> str | None:
        now[0] += timeout
        return script.pop(0) if script else "q"

    def clock() -> float:
        return now[0]

    def display(frame: RenderableType) -> None:
        frames.append(text(frame))

    run(game, keys, clock, display)
    state = game.state
    assert any("⌛ 4." in f for f in frames) and any("waiting for ready" in f for f in frames)
    assert state.round_no == 2 and not state.is_open[0]
    assert state.view(0)["last_round"]["counts"][0] <= 1
    assert any("The hourglass ran out at 5.0 s" in line for f in frames for line in f.split("\n"))


def test_watching_bots_live_to_the_end() -> None:
    state = new(3, hourglass_seconds=3, short_game=True)
    bots = {s: make_bot("packer-expert", SPEC.name, s, 5) for s in range(3)}
    game = LiveGame(state, None, bots, Rng(2))
    now = [0.0]

    def keys(timeout: float) -> str | None:
        now[0] += timeout
        return "y"  # a spectator's keys do nothing

    last: list[RenderableType] = []
    run(game, keys, lambda: now[0], last.append, fps=2)
    assert state.is_over and "winner" in text(last[-1])


def test_the_live_log_names_the_seats() -> None:
    state = new(2)
    bots = {1: make_bot("packer-instant", SPEC.name, 1, 3)}
    game = LiveGame(state, 0, bots, Rng(1), names=["Ann", "Robo"])
    game.key("enter")
    assert game.log[-1].startswith("You packed")
    game.tick(3_000)
    assert any(line.startswith("Robo packed") for line in game.log), game.log


def test_play_live_needs_a_terminal_and_a_player_for_every_seat() -> None:
    state = new(2)
    with pytest.raises(ValueError, match="neither a human nor a bot"):
        play_live(state, 0, {})
    with pytest.raises(ValueError, match="needs a terminal"):
        play_live(state, 0, {1: make_bot("heuristic", SPEC.name, 1, 1)})


def test_a_drop_before_the_hand_is_ready_is_refused_saying_how_long_to_wait() -> None:
    game = live()
    game.key("enter")  # circle-red, at 0 ms
    assert cells(game.state, 0) == {(0, 0)} and game.message == ""
    game.tick(300)
    assert "hand busy: ready in 0.5 s" in text(game.render())
    game.key("enter")  # the next circle, 500 ms too early
    # in plain words (the rules' reason, "seat 0's hand is not ready: a hand needs 800 ms
    # between two drops, so … (now 300 ms, 500 ms to wait)", is for API users)
    assert game.message == "Your hand is not ready yet: wait 0.5 s"
    assert "Your hand is not ready yet: wait 0.5 s" in text(game.render())
    assert cells(game.state, 0) == {(0, 0)}  # nothing changed
    game.tick(420)
    with use_language("de"):
        game.key("enter")
        assert game.message == "Deine Hand ist noch nicht bereit: Warte 0,4 s"
    game.tick(800)
    assert "hand busy" not in text(game.render())
    game.key("enter")
    assert len(cells(game.state, 0)) == 2 and game.message == ""


def test_the_live_screen_fits_100_by_40_and_question_mark_shows_the_legend() -> None:
    """Four chests, a full log, Big Pirates' board and the last round's line: every frame
    of a match watched to the end fits a 100×40 terminal."""
    state = new(4, hourglass_seconds=4, short_game=True, big_pirates=True)
    bots = {s: make_bot("packer-expert", SPEC.name, s, 5) for s in range(1, 4)}
    game = LiveGame(state, 0, bots, Rng(2))
    now = [0.0]
    heights: list[int] = []

    def keys(timeout: float) -> str | None:
        now[0] += timeout
        return "enter"  # drop whatever is picked, say ready after the scoring

    def display(frame: RenderableType) -> None:
        heights.append(text(frame, width=100).count("\n"))

    run(game, keys, lambda: now[0], display, fps=4)
    assert state.is_over and len(heights) > 20
    assert max(heights) <= 40, max(heights)
    legend = renderer("schatz-rabatz").legend
    assert game.key("?") and legend.splitlines()[1] in text(game.render(), width=100)
    assert game.key("?") and "What happened" in text(game.render(), width=100)


def test_german_words_give_each_ship_part_its_article() -> None:
    """ "Platz 3 nimmt Bug", "nahm Heck": a part needs its article (der Bug, das Heck,
    das Mittelteil), in the log and in the last round's line."""
    scored = Event(
        "scored",
        {"round": 2, "counts": [3, 2, 1], "parts": ["stern-1", "bow-2", "middle-a-1"]},
    )
    told = lang_de.describe(scored, None)
    assert told.endswith(
        "Platz 0 nimmt das Heck, Platz 1 nimmt den Bug, Platz 2 nimmt das Mittelteil A"
    )
    last = {"round": 2, "board": "jack-3", "counts": [3, 2], "parts": ["bow-2", "stern-1"]}
    with use_language("de"):
        line = last_round_text({"last_round": last})
    assert line is not None
    assert line.plain.endswith("Platz 1 nahm den Bug, Platz 2 nahm das Heck")
    line = last_round_text({"last_round": last})
    assert line is not None and line.plain.endswith("Seat 1 took the bow, Seat 2 took the stern")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_live_end_line_names_the_winners_as_the_log_does(lang: str) -> None:
    """ "A ship is complete — winner: seat 2" under a log that says "Seat 2 (Expert)"."""
    state = new(3, hourglass_seconds=3, short_game=True)
    bots = {s: make_bot("packer-expert", SPEC.name, s, 5) for s in range(3)}
    with use_language(lang):
        names = seat_labels(3, [default_seat_name(s, "packer-expert") for s in range(3)])
        game = LiveGame(state, None, bots, Rng(2), names)
        now = [0.0]

        def keys(timeout: float) -> str | None:
            now[0] += timeout
            return None

        last: list[RenderableType] = []
        run(game, keys, lambda: now[0], last.append, fps=2)
        shown = " ".join(text(last[-1]).split())
        result = state.result()
        assert result is not None
        winners = [result_name(names[w]) for w in result["winners"]]
    said = "A ship is complete — winner: " if lang == "en" else "Ein Schiff ist fertig — Sieger: "
    joined = (" and " if lang == "en" else " und ").join(winners)
    assert said + joined in shown, shown
    assert all(name.endswith(")") for name in winners)  # (with the bot's level)


TOP = re.compile(r"^(round|Runde) \d+ · ")
YOU = {"en": "Seat {n} (you)", "de": "Platz {n} (du)"}
SEAT_TITLE = {"en": "Seat {n}", "de": "Platz {n}"}
KEYS = {"en": "↑↓ treasure", "de": "↑↓ Schatz"}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_live_screen_fits_80_by_24(players: int, lang: str) -> None:
    """A match watched to the end on an 80×24 terminal (pyte's), without colour (every
    treasure two letters wide): each frame is whole on the screen, its top line the
    round and the hourglass, every chest, the keys and the log's newest line. (Four
    players' frame took 51 lines: the top was cut off, and a live screen cannot
    scroll.) ``?`` shows the legend in 80×24 too."""
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    state = new(players, hourglass_seconds=4, short_game=True, big_pirates=True)
    bots = {s: make_bot("packer-expert", SPEC.name, s, 5) for s in range(1, players)}
    with use_language(lang):
        names = seat_labels(players, None)
        game = LiveGame(state, 0, bots, Rng(2), names)
        now = [0.0]
        shown: list[list[str]] = []

        def keys(timeout: float) -> str | None:
            now[0] += timeout
            return "enter"  # drop whatever is picked, say ready after the scoring

        def display(frame: RenderableType) -> None:
            drawn = text(frame, width=80, height=24, colour=False)
            assert len(drawn.splitlines()) <= 24, drawn
            screen.reset()
            stream.feed(drawn.rstrip("\n").replace("\n", "\r\n"))
            shown.append(list(screen.display))

        run(game, keys, lambda: now[0], display, fps=4)
        assert game.key("?")
        legend = localized(plugin("schatz-rabatz").package, "LEGEND") or renderer(SPEC.name).legend
        display(game.render())
    assert state.is_over and len(shown) > 20
    for rows in shown[:-1]:
        assert TOP.match(rows[0]), "\n".join(rows)
        on_screen = "\n".join(rows)
        assert YOU[lang].format(n=1) in on_screen
        for seat in range(2, players + 1):
            assert SEAT_TITLE[lang].format(n=seat) in on_screen
    running = [rows for rows in shown[:-2] if KEYS[lang] in "\n".join(rows)]
    assert len(running) > 20  # (the keys while the match runs)
    for rows in running:
        keys_row = next(i for i, row in enumerate(rows) if KEYS[lang] in row)
        assert any(row.strip() for row in rows[keys_row + 1 :]), "no line of the log"
    assert legend.splitlines()[1] in "\n".join(shown[-1])
