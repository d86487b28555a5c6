"""Issue 20 in a real Chromium: the event lines in German. Every game's renderer words its
events in German (game.js ``words(event, ctx)``) from the event's type and data; the pages
show those lines in the log, the replay, the timer's notice and the end screen when they
are German, and the server's English text when they are English."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, Page, expect

import thievery
from tests.browser.conftest import seat_key
from thievery.core import Event, Rng

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1400, "height": 1000}
NAMES = ["Ada", "Bob", "Cy", "Di"]
PLAYERS = {"schattendieb": 4, "thieves": 3, "thieves-den": 2, "schatz-rabatz": 2}
OPTIONS: dict[str, dict[str, Any]] = {"schattendieb": {"games": 2}}

# Every event type of every game (the list; Thieves Den: its EVENT_WORDS and more).
TYPES = {
    "schattendieb": "chose reveal tie steal adding added done add close close_failed drew draw "
    "pile_discarded game_over dealt new_game match_over",
    "thieves": "turn drew double_draw getaway loot police action remove move pass raid game_over",
    "schatz-rabatz": "round board drop close hourglass time_up scored ready game_over",
    "thieves-den": "round dealt picked you_picked instant neutral steal bonus gain prestige pay "
    "return take destroy fence fence_drawn fences_drawn power witch burgle recruit pass skip "
    "draw_location recall move unplace return_fence swap no_effect cleanup direction reveal "
    "final game_over",
}

# Events random play seldom or never brings, and words' special cases, made by hand (the
# game's describe() must take them, so their data is the engine's shape).
MADE: dict[str, list[Event]] = {
    "schattendieb": [
        Event("pile_discarded", {"count": 3}),
        Event("steal", {"seat": 1, "thief": "thief-shadow", "card": None, "from": None}),
        Event("game_over", {"game": 1, "reason": "no_cards", "scores": [0, 4, 7, 2]}),
        Event("game_over", {"game": 1, "reason": "one_open", "scores": [3, 0, 0, 2]}),
        Event("game_over", {"game": 2, "reason": "all_close", "scores": [3, 0, 5, 2]}),
        Event("reveal", {"cards": {}}),
        Event("draw", {"counts": {}}),
    ],
    "thieves": [
        Event("raid", {"cars": 4, "values": [3, 7, 7], "busted": [1, 2]}),
        Event("raid", {"cars": 5, "values": [7, 3, 1], "busted": [0]}),
        Event("raid", {"cars": 4, "values": [0, 0, 0], "busted": []}),
        Event("raid", {"cars": 4, "values": [6, 6, 1], "busted": []}),
        Event("pass", {"seat": 0}),
        Event("loot", {"seat": 0, "to": 0, "card": None}),
        Event("turn", {"seat": 1, "turn": 4, "drew": 0}),  # (only getaway cars drawn)
    ],
    "schatz-rabatz": [
        Event("hourglass", {"at_ms": 1200, "ends_ms": 31200}),
        Event("time_up", {"at_ms": 31200}),
        Event("round", {"round": 2, "at_ms": 40000, "ends_ms": None}),
        Event("close", {"seat": 0, "at_ms": 9500, "removed": ["crown-red", "sword-blue"]}),
    ],
    "thieves-den": [
        Event("gain", {"seat": 1, "what": "jewel", "count": 0}),
        Event("steal", {"seat": 0, "card": "market-a", "owner": -1}),
    ],
}


def samples(game: str) -> list[dict[str, Any]]:
    """Events of every kind from random games (a few of each type, as seat 0 may see them)
    and the made ones, each with the server's English words for seat 0."""
    spec = thievery.game(game)
    found: dict[str, list[Event]] = {}
    for seed in range(12):
        state = spec.new(PLAYERS[game], seed, OPTIONS.get(game, {}))
        rng = Rng(seed)
        while state.to_act:
            seat = rng.choice(state.to_act)
            for e in state.apply(seat, rng.choice(state.legal_actions(seat))):
                if e.is_visible_to(0) and len(found.setdefault(e.type, [])) < 6:
                    found[e.type].append(e)
    events = [e for kind in found.values() for e in kind] + MADE[game]
    names = NAMES[: PLAYERS[game]]
    return [{**e.to_json(), "text": spec.describe(e, 0, names)} for e in events]


LINES = """async ([game, events, names]) => {
  const renderer = (await import(`/static/games/${game}/game.js`)).default;
  const { eventText } = await import("/static/js/common.js");
  const seats = names.map((name, seat) => ({ seat, name }));
  return events.map((e) => eventText(renderer, e, { seat: 0, seats, view: null }));
}"""

MISSING = """async () => {
  const i18n = await import("/static/js/i18n.js");
  return { words: [...i18n.missingWords], strings: [...i18n.missing] };
}"""


@pytest.fixture
def pages(browser: Browser) -> Iterator[dict[str, Page]]:
    """A German and an English page (each with its JavaScript errors in page.errors)."""
    made: dict[str, Page] = {}
    contexts = []
    for lang, locale in (("de", "de-DE"), ("en", "en-GB")):
        context = browser.new_context(viewport=DESKTOP, locale=locale)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.errors = errors  # type: ignore[attr-defined]
        made[lang] = page
    yield made
    for context in contexts:
        context.close()


def nothing_missing(page: Page) -> None:
    left = page.evaluate(MISSING)
    assert left == {"words": [], "strings": []}, left
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", list(TYPES))
def test_every_event_of_every_game_has_german_words(
    server: str, pages: dict[str, Page], game: str
) -> None:
    events = samples(game)
    assert set(TYPES[game].split()) <= {e["type"] for e in events}
    names = NAMES[: PLAYERS[game]]
    for page in pages.values():
        page.goto(server + "/replay")
    german: list[str] = pages["de"].evaluate(LINES, [game, events, names])
    english: list[str] = pages["en"].evaluate(LINES, [game, events, names])
    # English: the server's words, as they came (the seats have names: nothing renamed).
    assert english == [e["text"] for e in events]
    for e, line in zip(events, german, strict=True):
        assert line != e["text"], f"{e['type']} is still English: {line}"
        assert not re.search(r"undefined|null|NaN|\[object|\{|\}", line), (e, line)
        if e["type"] == "turn" and e["drew"] == 0:  # not "(0 Karten gezogen)"
            assert "gezogen" not in line and "drew" not in e["text"], (line, e["text"])
        if e.get("audience") == 0 or (e["type"] == "you_picked" and e.get("seat") == 0):
            assert re.search(r"\b(Du|Dir|du|dir)\b", line), line  # a line for you says so
    you = [line for e, line in zip(events, german, strict=True) if e.get("seat") == 0]
    assert any(re.match(r"^Du \w+", line) for line in you), you
    assert not any(re.search(r"\bAda\b", line) for line in you), you
    for page in pages.values():
        nothing_missing(page)


def english_texts(server: str, table: str, perspective: str) -> list[str]:
    """Every event line the server words for a perspective, from the finished table."""
    replay = httpx2.get(f"{server}/api/tables/{table}/replay?perspective={perspective}").json()
    return [e["text"] for step in replay["steps"] for e in step["events"]]


def log_lines(page: Page, selector: str = "#log .e") -> list[str]:
    lines: list[str] = page.locator(selector).all_inner_texts()
    return [line.strip() for line in lines]


@pytest.mark.paced
def test_a_game_at_the_table_and_in_the_replay_in_german_and_english(
    server: str, pages: dict[str, Page]
) -> None:
    # Der Schattendieb, Ada against three bots, a 2 s turn timer: the timer plays for her
    # once (the notice in German), then a bot plays her seat to the end of the game.
    seats: list[dict[str, Any]] = [{"kind": "human", "name": "Ada"}]
    seats += [{"kind": "bot", "bot": "random", "name": n} for n in NAMES[1:]]
    body = {"game": "schattendieb", "seats": seats, "options": {"games": 1}, "turn_seconds": 2}
    made = httpx2.post(f"{server}/api/tables", json=body).json()
    table = made["table"]["id"]
    page = pages["de"]
    page.goto(made["seats"][0]["invite"])
    notice = page.locator("#turn-notice")
    expect(notice).to_be_visible(timeout=8000)
    expect(notice).to_contain_text("Die Zeit ist abgelaufen: Ein Bot hat für dich gespielt.")
    expect(notice.locator(".help")).to_have_text(re.compile(r"^Du (hast|bist) "))
    page.click("#turn-notice-ok")
    key = seat_key(page, made["seats"][0]["invite"])  # (the invite is used: Ada's key)
    page.click("#to-bot")
    expect(page.locator("#result")).to_be_visible(timeout=15_000)
    english = english_texts(server, table, "0")[-300:]  # (the table shows the last 300)
    german = log_lines(page)
    assert len(german) == len(english) and not set(german) & set(english), german
    assert any(line.startswith("Du hast") for line in german)
    assert any(line.startswith("Aufgedeckt — ") for line in german)
    ended = log_lines(page, "#result .ended p")
    assert ended and ended[-1].startswith("Die Partie ist vorbei. Sieger: ")
    assert any(line.startswith("Spiel 1 vorbei (") for line in ended)
    nothing_missing(page)

    # The replay in German: the log and the step's lines, everything shown.
    page.goto(f"{server}/replay/{table}")
    expect(page.locator("#step")).not_to_be_empty()
    page.click("#last")
    expect(page.locator("#actions .step-event").first).to_be_visible()
    german = log_lines(page)
    assert german and not set(german) & set(english_texts(server, table, "all"))
    assert any(line.startswith("Die Partie ist vorbei.") for line in german)
    nothing_missing(page)

    # English: the table and the replay show the server's words.
    en = pages["en"]
    en.goto(f"{server}/table/{table}#token={key}")
    expect(en.locator("#result")).to_be_visible()
    assert log_lines(en) == english
    assert log_lines(en, "#result .ended p")[-1].startswith("The match is over. Winner: ")
    en.goto(f"{server}/replay/{table}")
    expect(en.locator("#step")).not_to_be_empty()
    en.click("#last")
    expect(en.locator("#actions .step-event").first).to_be_visible()
    # (the replay's log shows the last 300 events: a long game has more)
    assert log_lines(en) == english_texts(server, table, "all")[-300:]
    assert en.errors == []  # type: ignore[attr-defined]


LIVE: dict[str, dict[str, Any]] = {
    "thieves": {"bot": "random", "options": {}},
    "thieves-den": {"bot": "random", "options": {}},
    "schatz-rabatz": {
        "bot": "packer-instant",
        "options": {"short_game": True, "hourglass_seconds": 2, "hand_ms": 0},
    },
}


@pytest.mark.paced
@pytest.mark.parametrize("game", list(LIVE))
def test_a_whole_game_at_the_table_in_german(
    server: str, pages: dict[str, Page], game: str
) -> None:
    # Ada against bots, then a bot plays her seat to the end: the whole log in German.
    bot = LIVE[game]["bot"]
    seats: list[dict[str, Any]] = [{"kind": "human", "name": "Ada"}]
    seats += [{"kind": "bot", "bot": bot, "name": n} for n in NAMES[1 : PLAYERS[game]]]
    body = {"game": game, "seats": seats, "options": LIVE[game]["options"]}
    made = httpx2.post(f"{server}/api/tables", json=body).json()
    table = made["table"]["id"]
    page = pages["de"]
    page.goto(made["seats"][0]["invite"])
    # The table is drawn (when Ada plays first, nothing has happened yet: an empty log).
    expect(page.locator("#to-bot")).to_be_visible()
    page.click("#to-bot")
    expect(page.locator("#result")).to_be_visible(timeout=20_000)
    english = english_texts(server, table, "0")[-300:]  # (the table shows the last 300)
    german = log_lines(page)
    assert german and len(german) == min(len(english), 300)
    assert not set(german) & set(english), sorted(set(german) & set(english))
    assert any(line.startswith("Du ") for line in german)
    assert log_lines(page, "#result .ended p")
    nothing_missing(page)


def test_schatz_rabatz_log_lines_count_columns_and_rows_from_1(
    server: str, pages: dict[str, Page]
) -> None:
    # The panel beside the chest counts columns from 1 ("column 1" is the leftmost): so do
    # the log's lines in both languages, and rows from 1 at the bottom, saying so; the
    # event keeps the engine's 0-based column and row.
    drop = Event(
        "drop", {"seat": 1, "treasure": "goldbar-red", "rotation": 1, "column": 0, "row": 2}
    )
    names = NAMES[:2]
    events = [{**drop.to_json(), "text": thievery.game("schatz-rabatz").describe(drop, 0, names)}]
    for page in pages.values():
        page.goto(server + "/replay")
    english = pages["en"].evaluate(LINES, ["schatz-rabatz", events, names])
    german = pages["de"].evaluate(LINES, ["schatz-rabatz", events, names])
    assert english == ["Bob packed the red gold bar (turned 1, column 1, row 3 from the bottom)"]
    assert german == ["Bob hat Goldbarren (rot) gepackt (Drehung 1, Spalte 1, Reihe 3 von unten)"]
    for page in pages.values():
        nothing_missing(page)


def test_schatz_rabatz_german_log_names_a_ship_part_with_its_article(
    server: str, pages: dict[str, Page]
) -> None:
    """ "Bob nimmt Bug" lacked the article; the terminal's German says it too."""
    scored = Event("scored", {"round": 1, "counts": [3, 5], "parts": [None, "bow-2"]})
    events = [{**scored.to_json(), "text": ""}]
    page = pages["de"]
    page.goto(server + "/replay")
    german = page.evaluate(LINES, ["schatz-rabatz", events, NAMES[:2]])
    assert german == ["Runde 1 gezählt — du 3, Bob 5. Bob nimmt den Bug"]  # (seat 0 reads)
    stern = [{**events[0], "parts": ["stern-1", None]}]
    assert page.evaluate(LINES, ["schatz-rabatz", stern, NAMES[:2]])[0].endswith(
        "Du nimmst das Heck"
    )
    nothing_missing(page)


def test_thieves_den_payments_read_as_the_terminal_reads_them(
    server: str, pages: dict[str, Page]
) -> None:
    """A Recruit paid with two tomes read "mit 1 Foliant und 1 Foliant" on the page (and
    "mit einem Folianten und einem Folianten" in the terminal); a Power tile "bezahlt mit 1
    Foliant". Both say it as German does now, the page as the terminal."""
    from thievery.games.thieves_den import lang_de

    made = [
        Event("recruit", {"seat": 1, "pay": ["tome", "tome"]}),
        Event("recruit", {"seat": 0, "pay": ["potion", "potion"]}),
        Event("recruit", {"seat": 1, "pay": ["artifact", "jewel"]}),
        Event("power", {"seat": 1, "tile": "sleight", "pay": "tome"}),
    ]
    names = NAMES[:2]
    events = [e.to_json() for e in made]
    page = pages["de"]
    page.goto(server + "/replay")
    german: list[str] = page.evaluate(LINES, ["thieves-den", events, names])
    # (the tile's name comes from the table's card set, not in this sample's context)
    assert german[:3] == [lang_de.describe(e, 0, names) for e in made[:3]]
    assert german[:3] == [
        "Bob wirbt mit zwei Folianten einen Dieb an",
        "Du wirbst mit zwei Tränken einen Dieb an",
        "Bob wirbt mit einem Artefakt und einem Juwel einen Dieb an",
    ]
    assert "(bezahlt mit einem Folianten)" in german[3]
    nothing_missing(page)
