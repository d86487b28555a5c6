"""The terminal's turn-by-turn screens: every screen fits 100×40, and 80×24 in the compact
layout (a big terminal keeps the full one), long menus are chosen in steps, ``?`` shows a
legend, and a hot-seat handover wipes the screen and the scrollback."""

from __future__ import annotations

import io
import itertools
import json
import random
import re
from typing import Any

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
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # (a handover's wipe of screen and scrollback)


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


def screens_of(
    game: str,
    players: int,
    seed: int,
    every: int,
    size: tuple[int, int] = (WIDTH, HEIGHT),
    terminal: bool = False,
) -> list[str]:
    """The screens of a hot-seat game played at random: every ``every``-th decision on
    the screen (answered at random), the others played directly (their events still go
    to the log), so that many games take a few seconds. ``size``: the console's (a
    ``terminal``'s: else the screen's height is play.SCREEN_HEIGHT); ``terminal``: the
    last screen is the final one, and a hot-seat handover's wipe is left out."""
    width, height = size
    console = Console(
        file=io.StringIO(),
        width=width,
        height=height,
        color_system=None,
        force_terminal=terminal,
    )
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
    done = len(console.file.getvalue())  # type: ignore[attr-defined]
    session.show(None, final=True)
    assert state.result() is not None
    if terminal:
        screens.append(console.file.getvalue()[done:])  # type: ignore[attr-defined]
        return [ANSI.sub("", text) for text in screens]
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
STANDINGS = re.compile(r"^[╭─]─+ (Final standings|Endstand) ─")
SEAT = re.compile(r"\b(?:[Ss]eat|Sitzplatz|Platz) \d+(?: \([^)]*\))?")


def panel_text(lines: list[str], start: int) -> str:
    """The words of a panel from its line ``start`` to its bottom border, lines joined;
    in the compact layout (no box): to the next part's rule, or the end."""
    end = next(
        (i for i in range(start, len(lines)) if lines[i].startswith(("╰", "──"))), len(lines)
    )
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


TITLE = {  # (Der Schattendieb's title drops the game's name where it is too long for a line)
    "schattendieb": re.compile(r" (Der Schattendieb — )?(Game|Spiel) \d+( of |/)\d+ · "),
    "thieves": re.compile(r" Thieves! — "),
    "thieves-den": re.compile(r" (Thieves Den )?\((UNOFFICIAL cards|INOFFIZIELLE Karten)\) — "),
}
YOURS = {  # what a seat's own screen says of it (its hand; Thieves Den: the decision)
    "schattendieb": ("Your hand", "Deine Hand"),
    "thieves": ("Your hand", "Deine Hand"),
    "thieves-den": ("Now: ", "Jetzt: "),
}
ENDING = re.compile(r"^(?:│ )?(Winner|Sieger): ", re.M)
SEAT_ROW = re.compile(r"^(?:│ │ )?(\d) ", re.M)
LOGGED = re.compile(r"^[╭─]─+ (What happened|Was geschah)\b", re.M)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", TURN_BASED)
def test_every_screen_fits_80_by_24_with_the_fewest_and_the_most_players(
    game: str, lang: str
) -> None:
    """Whole hot-seat games on an 80×24 terminal, in English and German, with the fewest
    and the most players: every screen, each menu's and the final one, is whole on the
    terminal: its first line is the board's title, it is at most 24 lines of at most 80
    columns, and it has every seat's row, the seat's hand (Thieves Den: the decision
    asked) and the prompt last, or the final standings; nearly every one has the log.
    (Thieves Den's board at 3 to 5 players and Der Schattendieb's at 7 were taller than
    24 lines: the title and other seats' rows scrolled off while the player chose.)"""
    spec = thievery.game(game)
    seen = logged = 0
    for players in (spec.min_players, spec.max_players):
        for seed in (1, 2):
            with use_language(lang):
                screens = screens_of(game, players, seed, 3, size=(80, 24), terminal=True)
            *turns, final = [text.lstrip("\n") for text in screens]
            for text in [*(t for t in turns if CHOICE.search(t)), final]:
                rows = text.rstrip("\n").split("\n")
                assert len(rows) <= 24, f"{len(rows)} lines:\n{text}"
                assert max(len(row) for row in rows) <= 80, text
                assert TITLE[game].search(rows[0]), text
                seats = {int(n) for n in SEAT_ROW.findall(text)}
                assert seats >= set(range(1, players + 1)), text
                seen += 1
            for text in (t for t in turns if CHOICE.search(t)):
                assert any(words in text for words in YOURS[game]), text
                assert CHOICE.search(text.rstrip("\n").split("\n")[-1]), text
                logged += bool(LOGGED.search(text))
            assert ENDING.search(final), final
    assert seen > 40 and logged >= 0.75 * seen


@pytest.mark.parametrize("game", TURN_BASED)
def test_a_big_terminal_keeps_the_full_layout(game: str) -> None:
    """On a terminal with room (120×50), every screen of a game with the most players is
    drawn in the full layout: the board in its box, the log in its box."""
    spec = thievery.game(game)
    screens = screens_of(game, spec.max_players, 1, 3, size=(120, 50), terminal=True)
    turns = [text.lstrip("\n") for text in screens if CHOICE.search(text)]
    assert len(turns) > 5
    for text in turns:
        assert text.startswith("╭") and TITLE[game].search(text.split("\n")[0]), text
        assert any(LOG_TITLE.match(line) for line in text.split("\n")), text


WORD = re.compile(r"[^\s│┃╭╮╰╯─━┏┓┗┛┡┩┳╇└┘┴┬·,;:()\[\]|]+")


def board_text(game: str, view: dict[str, object], width: int = 100) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderer(game).table(view))
    return console.file.getvalue()  # type: ignore[attr-defined, no-any-return]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", TURN_BASED)
def test_the_compact_boards_say_what_the_player_decides_by(game: str, lang: str) -> None:
    """The compact board (a small terminal's) of a seat at many points of games with
    the most players, against the full one: Der Schattendieb's and Thieves!' say every
    word the full one says. Thieves Den's shortens the Fences ("Duke (nob) JJAP→11★"),
    leaves out the card set's name and which treasure paid for a used Power tile; it
    names every Fence with its type, Power tile, seat's Prestige and treasures, the
    Witch's and the supply's treasures and your Scheme and decision."""
    spec = thievery.game(game)
    rng = random.Random(1)
    checked = 0
    with use_language(lang):
        for seed in range(3):
            state = spec.new(spec.max_players, seed, SHORT.get(game, {}))
            for turn in itertools.count():
                if not state.to_act:
                    break
                seat = state.to_act[0]
                if turn % 3 == 0:
                    view = state.view(seat)
                    full = board_text(game, view)
                    compact = board_text(game, {**view, "compact": True})
                    assert len(compact.splitlines()) < len(full.splitlines())
                    if game == "thieves-den":
                        thieves_den_says(view, compact)
                    else:
                        assert set(WORD.findall(full)) <= set(WORD.findall(compact)), compact
                    checked += 1
                state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 20


def thieves_den_says(view: dict[str, Any], compact: str) -> None:
    from thievery.games.thieves_den import render

    cs = render.cards_of(view)
    flat = " ".join(compact.split())
    for card in filter(None, view["fence_row"]):
        assert " ".join(render.short_fence_text(cs, card).plain.split()) in flat
    for tile in view["powers"]:
        if tile["tile"] is not None:
            assert render.power_name(cs, cs.power_index[tile["tile"]]) in flat
    for t, n in enumerate(render.TREASURES):
        assert f"{render.LETTER[n]}→{cs.witch[t]}" in flat
    assert render.treasure_text(view["supply"]["treasures"]).plain in flat
    rows = [line.split() for line in compact.splitlines()]
    for s, x in enumerate(view["seats"]):
        row = next(r for r in rows if r and r[0] == str(s + 1))
        assert str(x["prestige"]) in row and render.treasure_text(x["treasures"]).plain in " ".join(
            row
        )
    assert any(line.startswith(("Scheme: ", "Plan: ")) for line in compact.splitlines())
    assert any(line.startswith(("Now: ", "Jetzt: ")) for line in compact.splitlines())
