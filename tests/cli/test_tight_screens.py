"""Five seats of Thieves Den on an 80×24 terminal, late in the game: every screen fits.

The compact layout left some screens a line or two too long (hot-seat games played at
random: 1 in 1,250 in English, 1 in 380 in German; games played as below: one in five
had one in English, nearly one in two in German): the board grows as the game goes on
(the Fences, Locations that wrap, what each seat collected) and a choice's words take
up to three lines, so a menu page of one choice, "more" and "back" did not fit under
it, and the board's title scrolled off. Such a screen now takes the tight layout
(:class:`thievery.cli.play.Layout`): the menu's heading in the prompt, "more" and
"back" on one line, and the board in its fewest lines (the seats' rows without
headings, "31★ 2☻"; a Fence twice in the row once, "2× Duke"; the Scheme in short and
beside what you decide, if they fit a line together).
"""

from __future__ import annotations

import io
import itertools
import random
import re
from typing import Any

import pytest
from rich.console import Console

import thievery
from tests.cli.test_terminal_screen import ANSI, CHOICE, answer_randomly, board_text
from thievery.bots import make_bot
from thievery.cli import menu
from thievery.cli.play import Session
from thievery.cli.render import seat_labels, with_names
from thievery.core.i18n import recording_lookups, use_language
from thievery.core.protocol import default_seat_name
from thievery.games.thieves_den import render

PLAYERS = 5
TITLE = re.compile(r"^─+ (Thieves Den )?\((UNOFFICIAL cards|INOFFIZIELLE Karten)\) — ")
NOW = ("Now: ", "Jetzt: ")
TIGHT_ROW = re.compile(r"^\d .* \d+★ ", re.M)  # (a seat's row without headings: "1 ◆ 26★ T1")
SEAT_ROW = re.compile(r"^(\d) ", re.M)
FOLDED = re.compile(r"^(Seat|Platz) \d (·|— your turn ·|— du bist dran ·) ")  # (tight prompt)
HEADING = re.compile(r"^(Seat|Platz) \d — (your turn|du bist dran)", re.M)


def late_screens(seed: int, lang: str, humans: int = 2) -> list[str]:
    """The screens of a five-seat game from its second round on, as `thievery play
    thieves-den -p 5 --humans 2` shows them on an 80×24 terminal: Seats 1 and 2 people
    (answering at random), the others Casual bots, named as play names them. (The first
    round is played without screens: its boards are the smallest.)"""
    spec = thievery.game("thieves-den")
    console = Console(
        file=io.StringIO(), width=80, height=24, color_system=None, force_terminal=True
    )
    screens: list[str] = []
    rng = random.Random(seed)
    answer_randomly(console, rng, screens)
    with use_language(lang):
        state = spec.new(PLAYERS, seed, {})
        bots = {s: make_bot("heuristic", spec.name, s, seed) for s in range(humans, PLAYERS)}
        named = [default_seat_name(s, "heuristic" if s in bots else None) for s in range(PLAYERS)]
        session = Session(console, spec, state, {}, humans, seat_labels(PLAYERS, named))
        while state.to_act:
            seat = state.to_act[0]
            if seat in bots:
                action = bots[seat].act(state.view(seat), state.legal_actions(seat))
                session.record(state.apply(seat, action))
            elif state.view(seat)["round"] >= 2:
                session.human_turn(seat)
            else:
                session.record(state.apply(seat, rng.choice(state.legal_actions(seat))))
        done = len(console.file.getvalue())  # type: ignore[attr-defined]
        session.show(None, final=True)
        screens.append(console.file.getvalue()[done:])  # type: ignore[attr-defined]
    return [ANSI.sub("", text).lstrip("\n") for text in screens]


def check_fits(screens: list[str]) -> int:
    """Every menu's screen and the final one: at most 24 lines of at most 80 columns, the
    board's title first, every seat's row, what you decide and the prompt last. Returns
    how many took the tight layout."""
    *turns, final = screens
    tight = 0
    for text in [*(t for t in turns if CHOICE.search(t)), final]:
        rows = text.rstrip("\n").split("\n")
        assert len(rows) <= 24, f"{len(rows)} lines:\n{text}"
        assert max(len(row) for row in rows) <= 80, text
        assert TITLE.search(rows[0]), text
        assert {int(n) for n in SEAT_ROW.findall(text)} >= set(range(1, PLAYERS + 1)), text
        if text is not final:
            assert any(words in text for words in NOW), text
            assert CHOICE.search(rows[-1]), text
            if TIGHT_ROW.search(text):  # (the tight layout: the menu as tight too)
                tight += 1
                assert FOLDED.search(rows[-1]) or HEADING.search(text), text
                assert not re.search(r"\(\d+ (on the next page|auf der nächsten).*\n +0 ", text)
    return tight


@pytest.mark.parametrize(("lang", "seed"), [("en", 26), ("de", 7)])
def test_a_five_seat_screen_that_took_25_lines_fits_80_by_24(lang: str, seed: int) -> None:
    """Seeds whose games had 25-line screens (a choice of three lines on its own page,
    under a board of 19 lines and more): the title scrolled off as the player chose."""
    check_fits(late_screens(seed, lang))


def test_five_seat_screens_fit_80_by_24_in_both_languages() -> None:
    """A sweep of seeded games (bots, and people answering at random, in English and
    German): every screen fits, some in the tight layout, which speaks German in German."""
    tight = 0
    for lang, seeds in [("en", (12, 14)), ("de", (13, 16))]:
        with recording_lookups() as found:
            for seed in seeds:
                tight += check_fits(late_screens(seed, lang))
        assert not found.missing, f"no German for: {sorted(found.missing)}"
    assert tight >= 1


def tight_board(view: dict[str, Any]) -> str:
    return board_text("thieves-den", {**view, "compact": True, "tight": True}, width=80)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_tight_board_says_what_the_compact_one_says_in_fewer_lines(lang: str) -> None:
    """Every Fence (two alike once, "2× …"), Power tile, the Witch, the supply, each
    seat's Prestige, treasures and Thieves, your Scheme (its sets so far) and decision;
    never more lines than the compact board, and fewer for most views."""
    spec = thievery.game("thieves-den")
    rng = random.Random(2)
    fewer = checked = 0
    with use_language(lang):
        for seed in range(3):
            state = spec.new(PLAYERS, seed, {})
            names = seat_labels(PLAYERS, None)
            for turn in itertools.count():
                if not state.to_act:
                    break
                seat = state.to_act[0]
                if turn % 7 == 0:
                    view = with_names(state.view(seat), names)
                    tight = tight_board(view)
                    compact = board_text("thieves-den", {**view, "compact": True}, width=80)
                    assert len(tight.splitlines()) <= len(compact.splitlines()), tight
                    fewer += len(tight.splitlines()) < len(compact.splitlines())
                    says_all(view, tight)
                    checked += 1
                state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 20 and fewer > 0.9 * checked


def says_all(view: dict[str, Any], text: str) -> None:
    cs = render.cards_of(view)
    flat = " ".join(text.split())
    shown = [render.short_fence_text(cs, c).plain if c else "" for c in view["fence_row"]]
    for fence in filter(None, shown):
        times = shown.count(fence)
        assert (f"{times}× {fence}" if times > 1 else fence) in flat, (fence, text)
        if times == 1:
            assert f"× {fence}" not in flat
    for tile in view["powers"]:
        if tile["tile"] is not None:
            assert render.power_name(cs, cs.power_index[tile["tile"]]) in flat
    for t, n in enumerate(render.TREASURES):
        assert f"{render.LETTER[n]}→{cs.witch[t]}" in flat
    assert render.treasure_text(view["supply"]["treasures"]).plain in flat
    rows = [line.split() for line in text.splitlines()]
    for s, x in enumerate(view["seats"]):
        row = " ".join(next(r for r in rows if r and r[0] == str(s + 1)))
        assert f" {x['prestige']}★ " in f" {row} " and f" {x['thieves']}☻" in f" {row}", row
        assert render.treasure_text(x["treasures"]).plain in row, row
    me = view["seats"][view["seat"]]
    if me["scheme"]:
        sets = render._scheme_sets(cs, me)
        assert re.search(rf"(so far|bisher) {sets}\b|\b{sets} (so far|bisher)", flat), text
    assert any(words in text for words in NOW), text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_tight_menu_has_its_heading_in_the_prompt_and_more_beside_back(lang: str) -> None:
    """In any game (here Thieves!, whose board has no tight form): the heading opened goes
    into the prompt, the page's choices follow without a heading line, and "more" and
    "back" share their line."""
    spec = thievery.game("thieves")
    console = Console(file=io.StringIO(), width=80, height=24, color_system=None)
    with use_language(lang):
        session = Session(console, spec, spec.new(3, 1, {}), {}, humans=1)
        title = "Stehlen" if lang == "de" else "Steal"  # (a game's heading, in its words)
        node = menu.build([(f"choice {i}", (title,)) for i in range(12)], 4)
        steal = next(entry.node for entry in node.entries() if entry.node is not None)
        path = [(node, 0), (steal, 0)]
        entries, more, lines = session.page(
            0, 4, path, steal.entries(), back=True, heading=False, tight=True
        )
        prompt = session.prompt(0, len(entries) + 1, True, path, fold=True)
        loose = session.page(0, 4, path, steal.entries(), back=True)
    # (in 4 lines: three choices and "more … 0 back"; not tight, one choice and 3 lines
    # more: the heading, "more" and "back")
    assert more and len(entries) == 3 and len(lines.plain.split("\n")) == 4, lines.plain
    assert lines.plain.startswith("   1 choice 0\n")
    last = lines.plain.split("\n")[-1]
    assert re.fullmatch(r"   4 (more choices|weitere Möglichkeiten) \(.*\) +0 (back|zurück)", last)
    assert prompt in (
        "Seat 1 · Steal · choose 0-4 (? legend, q quit): ",
        "Platz 1 · Stehlen · wähl 0-4 (? Legende, q beenden): ",
    )
    assert len(loose[0]) == 1 and loose[2].plain.split("\n")[0] in (
        "Seat 1 — your turn: Steal",
        "Platz 1 — du bist dran: Stehlen",
    )
