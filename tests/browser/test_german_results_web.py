"""A German result names a seat without a person's name as a seat, not a rank: "Platz 4"
is the seat's name, but "Platz 4 gewinnt" (and "Sieger: Platz 4", a score table of
"Platz 1", "Platz 2" …) reads as "4th place wins". Where scores or the winner are told
(the result's title and table, its "How it ended" lines, each game's last prompt) the seat
is "Sitzplatz 4". English stays "Seat 4"."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import finished_by_bots

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
# "Platz 2" with no "Sitz" before it: a seat's default name read as a rank.
RANK_LIKE = re.compile(r"(?<!Sitz)Platz \d")
# Each game: its options and a bot that plays it to the end quickly, and how many seats.
BOTS: dict[str, tuple[dict[str, Any], str, int]] = {
    "schattendieb": ({"games": 1}, "random", 3),
    "thieves": ({}, "random", 3),
    "thieves-den": ({}, "random", 3),
    "schatz-rabatz": (
        {"short_game": True, "hourglass_seconds": 2, "hand_ms": 0},
        "packer-instant",
        2,
    ),
}

# The games whose last prompt names who won (Der Schattendieb's says the match is over).
PROMPT_NAMES_WINNERS = {"thieves", "thieves-den", "schatz-rabatz"}


def finished(server: str, game: str) -> str:
    """A table of ``game`` that bots without names played to the end: its id."""
    options, bot, players = BOTS[game]
    return finished_by_bots(server, game, options, bot, players)


def watch(browser: Browser, url: str, locale: str) -> tuple[Page, list[str]]:
    """A page watching ``url`` on a phone in ``locale``, and its JavaScript errors."""
    page = browser.new_context(viewport=PHONE, locale=locale).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page, errors


@pytest.mark.parametrize("game", list(BOTS))
def test_a_german_result_names_a_seat_as_a_seat_not_a_rank(
    server: str, browser: Browser, game: str
) -> None:
    url = f"{server}/table/{finished(server, game)}?watch"
    page, errors = watch(browser, url, "de-DE")
    try:
        title = page.locator("#result-title")
        expect(title).to_have_text(re.compile(r"^Sitzplatz \d.* gewinn(t|en)$"))
        rows = page.locator("#result table td:first-child").all_inner_texts()
        assert len(rows) == BOTS[game][2], rows
        assert all(re.match(r"^(★ )?Sitzplatz \d", row) for row in rows), rows
        ended = page.locator("#result .ended p").all_inner_texts()
        assert ended and all(not RANK_LIKE.search(line) for line in ended), ended
        assert any("Sieger: Sitzplatz " in line for line in ended), ended
        if game == "thieves-den":  # its final scoring, beside the result
            final = page.locator(".td-final").inner_text()
            assert "Sitzplatz " in final and not RANK_LIKE.search(final), final
        prompt = page.locator("#game [data-prompt]").first.inner_text()
        assert not RANK_LIKE.search(prompt), prompt
        if game in PROMPT_NAMES_WINNERS:
            assert "Sitzplatz " in prompt, prompt
        assert errors == []
    finally:
        page.context.close()
    english, errors = watch(browser, url, "en-GB")
    try:
        expect(english.locator("#result-title")).to_have_text(re.compile(r"^Seat \d.* wins?$"))
        assert "Sitzplatz" not in english.locator("body").inner_text()
        assert errors == []
    finally:
        english.context.close()
