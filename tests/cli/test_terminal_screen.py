"""The terminal's turn-by-turn screens: every screen fits 100×40, long menus are chosen in
steps, ``?`` shows a legend, and a hot-seat handover wipes the screen and the scrollback."""

from __future__ import annotations

import io
import itertools
import json
import random
import re

import pyte
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

import thievery
from thievery.cli import app, menu
from thievery.cli.play import MENU_LINES, Quit, Session, most
from thievery.cli.render import renderer
from thievery.core.i18n import use_language

WIDTH, HEIGHT = 100, 40
TURN_BASED = ["schattendieb", "thieves", "thieves-den"]
CHOICE = re.compile(r"(?:choose|wähl) (\d+)-(\d+)")  # (English, German)
LOG_TITLE = re.compile(r"^╭─+ (What happened|Was geschah)\b")
MORE = re.compile(r"^ +\d+ (more choices|weitere Möglichkeiten) \(", re.M)
ENTRY = re.compile(r"^ +[1-9]\d* ", re.M)
UNOFFICIAL = {"en": "(UNOFFICIAL cards)", "de": "(INOFFIZIELLE Karten)"}


SHORT = {"schattendieb": {"games": 1}}  # one game of the match: the same screens


def hot_seat(game: str, players: int, seed: int, console: Console) -> Session:
    spec = thievery.game(game)
    state = spec.new(players, seed, SHORT.get(game, {}))
    return Session(console, spec, state, {}, humans=players)


def answer_randomly(console: Console, rng: random.Random, on_screen: list[str]) -> None:
    """Answer every prompt with a random valid number, keeping the text each prompt
    ends (one screen) in ``on_screen``."""
    out = console.file
    assert isinstance(out, io.StringIO)
    start = [0]

    def fake_input(prompt: str = "", **_: object) -> str:
        console.print(prompt, end="")
        text = out.getvalue()[start[0] :]
        start[0] = len(out.getvalue())
        on_screen.append(text)
        found = CHOICE.search(prompt)
        if found is None:  # "Pass the terminal to Seat N and press Enter"
            return ""
        low, high = int(found[1]), int(found[2])
        return str(rng.randint(max(low, 1), high))

    console.input = fake_input  # type: ignore[method-assign]


def screens_of(game: str, players: int, seed: int, every: int) -> list[str]:
    """The screens of a hot-seat game played at random: every ``every``-th decision on
    the screen (answered at random), the others played directly (their events still go
    to the log), so that many games take a few seconds."""
    console = Console(file=io.StringIO(), width=WIDTH, height=HEIGHT, color_system=None)
    screens: list[str] = []
    rng = random.Random(seed)
    answer_randomly(console, rng, screens)
    session = hot_seat(game, players, seed, console)
    state = session.state
    for turn in itertools.count():
        if not state.to_act:
            break
        seat = state.to_act[0]
        if turn % every == 0:
            session.human_turn(seat)
        else:
            session.record(state.apply(seat, rng.choice(state.legal_actions(seat))))
    session.show(None, final=True)
    assert state.result() is not None
    return screens


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", TURN_BASED)
def test_every_screen_fits_100_by_40_at_every_player_count(game: str, lang: str) -> None:
    """Every screen, in English and German, at every player count, a few seeds each:
    the whole board is on it (its top line too), the log has room, and a menu chosen
    in steps shows several choices a page. (Thieves Den's board once took up to 34
    lines: the top scrolled off, and menus showed one choice a page.)"""
    spec = thievery.game(game)
    worst = (0, "")
    few = (99, "")
    for players in range(spec.min_players, spec.max_players + 1):
        with use_language(lang):
            screens = [
                text
                for seed in (players, players + 10)
                for text in screens_of(game, players, seed, every=5)
            ]
        for text in screens:
            lines = text.count("\n") + 1
            if lines > worst[0]:
                worst = (lines, text)
            if MORE.search(text) and len(ENTRY.findall(text)) - 1 < few[0]:
                few = (len(ENTRY.findall(text)) - 1, text)
            assert max(len(line) for line in text.splitlines()) <= WIDTH
            if game == "thieves-den" and "Thieves Den" in text:
                assert text.lstrip("\n").startswith("╭") and UNOFFICIAL[lang] in text, text
    assert worst[0] <= HEIGHT, f"a {worst[0]}-line screen:\n{worst[1]}"
    assert few[0] >= 3, f"a menu page of {few[0]} choices:\n{few[1]}"


def test_a_long_menu_is_chosen_in_steps_and_can_go_back() -> None:
    # Thieves!: a Thief's move lists every loot card and every destination (13-55 lines);
    # here it is a menu of seats, then cards, then destinations.
    spec = thievery.game("thieves")
    rng = random.Random(3)
    for seed in range(40):
        state = spec.new(4, seed, {})
        while state.to_act and len(state.legal_actions(state.to_act[0])) <= MENU_LINES:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.to_act:
            break
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    view = state.view(seat)
    draw = renderer("thieves")
    assert draw.group is not None
    root = menu.build(
        [(draw.action(a.to_json(), view), draw.group(a.to_json(), view)) for a in legal],
        MENU_LINES,
    )
    top = root.entries()
    assert len(top) <= MENU_LINES < len(legal)
    # every action is reachable through the steps, once
    reached: list[int] = []

    def walk(node: menu.Node) -> None:
        for entry in node.entries():
            if entry.node is not None:
                walk(entry.node)
            else:
                assert entry.index is not None
                reached.append(entry.index)

    walk(root)
    labels = [draw.action(a.to_json(), view) for a in legal]
    assert sorted({labels[i] for i in reached}) == sorted(set(labels))
    assert len(reached) == len(set(reached))

    # Played through the Session: open a heading, go back, open it again, choose.
    console = Console(file=io.StringIO(), width=WIDTH, height=HEIGHT, color_system=None)
    heading = next(i for i, e in enumerate(top, 1) if e.node is not None)
    answers = iter(["", str(heading), "0", str(heading), "1", "1", "1", "1"])  # ("": handover)
    console.input = lambda prompt="", **_: next(answers)  # type: ignore[method-assign]
    before = json.dumps(state.view(None), sort_keys=True)
    session = Session(console, spec, state, {}, humans=4)
    session.human_turn(seat)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert " back" in text and "choices)" in text
    assert json.dumps(state.view(None), sort_keys=True) != before  # a move was made


@pytest.mark.parametrize("game", [*TURN_BASED, "schatz-rabatz"])
def test_every_game_has_a_legend_and_question_mark_shows_it(game: str) -> None:
    legend = renderer(game).legend
    assert len(legend.splitlines()) >= 3
    if game == "schatz-rabatz":
        return  # live screen: tested in tests/games/schatz_rabatz/test_terminal.py
    spec = thievery.game(game)
    state = spec.new(spec.min_players, 1, {})
    console = Console(file=io.StringIO(), width=WIDTH, height=HEIGHT, color_system=None)
    answers = iter(["?", "1"])
    console.input = lambda prompt="", **_: next(answers)  # type: ignore[method-assign]
    Session(console, spec, state, {}, humans=1).human_turn(state.to_act[0])
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Legend" in text and legend.splitlines()[0] in text


def test_a_hot_seat_handover_wipes_the_screen_and_the_scrollback() -> None:
    """In a terminal emulator with scrollback (pyte's HistoryScreen), nothing of the first
    seat's hand is left on screen or in the history once the second ("seat 2": seats are
    counted from 1 on the screen) is asked to take the terminal."""
    spec = thievery.game("schattendieb")
    state = spec.new(3, 5, {})
    screen = pyte.HistoryScreen(WIDTH, HEIGHT, history=5000)
    stream = pyte.Stream(screen)

    class Terminal(io.StringIO):
        def write(self, s: str) -> int:
            stream.feed(s.replace("\n", "\r\n"))
            return len(s)

        def isatty(self) -> bool:
            return True

    console = Console(
        file=Terminal(), width=WIDTH, height=HEIGHT, force_terminal=True, color_system=None
    )
    session = Session(console, spec, state, {}, humans=3)
    seen: list[tuple[str, list[str]]] = []

    def lines() -> list[str]:
        history = ["".join(ch.data for ch in row.values()) for row in screen.history.top]
        return [*history, *screen.display]

    def fake_input(prompt: str = "", **_: object) -> str:
        console.print(prompt, end="")
        seen.append((prompt, lines()))
        return "" if "Pass the terminal" in prompt else "1"

    console.input = fake_input  # type: ignore[method-assign]
    hand0 = " ".join(state.view(0)["hand"])
    session.human_turn(0)
    assert any("Your hand" in line for line in seen[-1][1])  # seat 0 saw its hand
    session.human_turn(1)
    handover = next(text for prompt, text in seen if "Pass the terminal to Seat 2" in prompt)
    assert not any("Your hand" in line for line in handover), "seat 0's screen survived"
    assert len([line for line in handover if line.strip()]) == 1
    assert hand0  # seat 0 had cards to hide


def test_a_non_number_answer_is_asked_again_and_changes_nothing() -> None:
    """'²' is a digit to Python but no number: it is refused like 'x', not a crash."""
    spec = thievery.game("thieves")
    state = spec.new(3, 1, {})
    before = json.dumps(state.view(None), sort_keys=True)
    console = Console(file=io.StringIO(), width=WIDTH, height=HEIGHT, color_system=None)
    answers = iter(["²", "x", "99", "q"])
    console.input = lambda prompt="", **_: next(answers)  # type: ignore[method-assign]
    with pytest.raises(Quit):
        Session(console, spec, state, {}, humans=1).human_turn(state.to_act[0])
    assert console.file.getvalue().count("Please type a number") == 3  # type: ignore[attr-defined]
    assert json.dumps(state.view(None), sort_keys=True) == before


@settings(deadline=None)  # (a stall of the shared machine is no failure)
@given(st.integers(0, 20), st.integers(-2, 40), st.integers(-5, 45))
def test_most_finds_what_trying_each_count_from_the_top_finds(
    low: int, high: int, edge: int
) -> None:
    """The screen's log and menu take the most lines that fit: ``most`` finds, in a few
    renders, the count that trying every count down from ``high`` would (to ``low``)."""
    tried: list[int] = []

    def fits(n: int) -> bool:  # fits up to ``edge`` lines
        tried.append(n)
        return n <= edge

    count = high
    while count > low and not fits(count):
        count -= 1
    expected, tried = count, []
    assert most(low, high, fits) == expected
    assert len(tried) <= 2 + max(0, high - low).bit_length()


@pytest.mark.parametrize("game", TURN_BASED)
def test_a_log_whose_newest_lines_wrap_still_leaves_the_screen_whole(game: str) -> None:
    """The menu gets the rows the log's newest lines take as they wrap, not one row each:
    two long log lines (five rows each) once pushed the screen past its height."""
    spec = thievery.game(game)
    console = Console(file=io.StringIO(), width=WIDTH, height=HEIGHT, color_system=None)
    screens: list[str] = []
    answer_randomly(console, random.Random(1), screens)
    session = hot_seat(game, spec.max_players, 1, console)
    seat = session.state.to_act[0]
    session.logs[seat] += ["a long line of the log " * 20, "another long line " * 25]
    session.last_human = seat  # (no handover screen)
    session.human_turn(seat)
    assert screens and "another long line" in screens[0]
    assert screens[0].count("\n") + 1 <= HEIGHT, screens[0]


def pages_of(session: Session, labels: list[str], room: int) -> list[list[str]]:
    """The pages a menu of ``labels`` is shown in, turning the page as ``human_turn``
    does (the pages after the first offer "back"), each in ``room`` lines."""
    node = menu.build([(label, ()) for label in labels], len(labels))
    entries = node.entries()
    pages: list[list[str]] = []
    first = 0
    while first < len(entries):
        shown, more, _ = session.page(0, room, [(node, 0)], entries[first:], back=bool(pages))
        pages.append([entry.label for entry in shown])
        first += len(shown)
        assert more == (first < len(entries))
    return pages


def test_a_paged_menu_never_leaves_its_last_choice_alone_on_a_page() -> None:
    """Four choices and the "more" line fit, the fifth (a long line: two rows) does not:
    the pages were 4 and 1; they share the choices, 3 and 2."""
    spec = thievery.game("thieves")
    console = Console(file=io.StringIO(), width=WIDTH, height=HEIGHT, color_system=None)
    session = Session(console, spec, spec.new(3, 1, {}), {}, humans=1)
    labels = [f"choice {i}" for i in range(1, 5)] + ["a long last choice " * 8]
    pages = pages_of(session, labels, room=6)  # (the heading, 4 choices and "more")
    assert [len(page) for page in pages] == [3, 2]
    assert [label for page in pages for label in page] == labels
    # nine short choices in pages of up to 4 (and "more"): 3, 3 and 3, not 4, 4 and 1
    labels = [f"choice {i}" for i in range(1, 10)]
    assert [len(page) for page in pages_of(session, labels, room=6)] == [3, 3, 3]


ENDED = {"en": ("Game over —", "Match over —"), "de": ("Spiel vorbei —", "Partie vorbei —")}
STANDINGS = re.compile(r"^╭─+ (Final standings|Endstand) ─")
SEAT = re.compile(r"\b(?:[Ss]eat|Sitzplatz|Platz) \d+(?: \([^)]*\))?")


def panel_text(lines: list[str], start: int) -> str:
    """The words of a panel from its line ``start`` to its bottom border, lines joined."""
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("╰"))
    return " ".join(line.strip("│ ") for line in lines[start:end])


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", TURN_BASED)
def test_the_end_lines_name_the_seats_as_the_rest_of_the_screen(game: str, lang: str) -> None:
    """The board's game-over lines said "winner: seat 4" (Thieves Den's majorities and
    schemes too) where the log and the final standings say "Seat 4 (Casual)"."""
    args = ["play", game, "--humans", "0", "--seed", "3", "-p", "4", "--lang", lang]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    over = max(i for i, line in enumerate(lines) if any(m in line for m in ENDED[lang]))
    said = panel_text(lines, over)
    standings = panel_text(lines, next(i for i, s in enumerate(lines) if STANDINGS.match(s)) + 1)
    named = set(SEAT.findall(standings))
    assert len(named) == 4, standings  # every seat by its screen name: "Seat 1 (Casual)"
    shown = SEAT.findall(said)
    assert shown and set(shown) <= named, said
