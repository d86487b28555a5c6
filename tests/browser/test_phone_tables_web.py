"""The score tables on a German phone: Thieves Den's final scoring, Schatz-Rabatz's round
scoring and Der Schattendieb's standings fit a 360 px wide phone (their long German
headings break at soft hyphens, smaller type and padding) instead of scrolling sideways
inside their box with nothing to say so; where one still cannot fit (a narrower screen) its
box scrolls and shows a shade at the edge with more beyond it (.scroll-x)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import finished_by_bots

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
# Each game: the most seats (the longest names: bots' levels), its bot and options, and
# its score table.
TABLES: dict[str, tuple[int, str, dict[str, Any], str]] = {
    "thieves-den": (5, "random", {}, ".td-ftable"),
    "schatz-rabatz": (
        4,
        "packer-instant",
        {"short_game": True, "hourglass_seconds": 2, "hand_ms": 0},
        ".sr-table",
    ),
    "schattendieb": (7, "random", {"games": 3}, ".sd-standings"),
}
# The table's box (the one with .scroll-x, else its parent): how wide it is, how wide its
# content, and whether it shows that it scrolls (overflow-x auto, covers that scroll).
# Given a width, the box is made that narrow first (a screen too narrow for the table).
MEASURE = """(table, narrow) => {
  const box = table.closest(".scroll-x") || table.parentElement;
  if (narrow) box.style.width = `${narrow}px`;
  const style = getComputedStyle(box);
  return {
    client: box.clientWidth,
    scroll: box.scrollWidth,
    table: Math.ceil(table.getBoundingClientRect().width),
    hinted: style.overflowX === "auto" && style.backgroundAttachment.startsWith("local")
      && style.backgroundImage.includes("gradient"),
  };
}"""


def score_table(browser: Browser, url: str, selector: str) -> Page:
    """A German page watching ``url`` on a phone, its result dialog closed and the score
    table ``selector`` shown."""
    page = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
    page.goto(url)
    expect(page.locator("#result-title")).to_be_visible()
    page.locator("#close-result").dispatch_event("click")  # (a small screen: it is below)
    expect(page.locator(selector).first).to_be_visible()
    return page


@pytest.mark.parametrize("game", list(TABLES))
def test_a_score_table_fits_a_german_phone(server: str, browser: Browser, game: str) -> None:
    players, bot, options, selector = TABLES[game]
    url = f"{server}/table/{finished_by_bots(server, game, options, bot, players)}?watch"
    page = score_table(browser, url, selector)
    try:
        table = page.locator(selector).first
        found = table.evaluate(MEASURE, None)
        assert found["scroll"] <= found["client"] and found["table"] <= found["client"], found
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # Narrower than any phone: the box scrolls and says so.
        narrow = table.evaluate(MEASURE, 200)
        assert narrow["scroll"] > narrow["client"] and narrow["hinted"], narrow
    finally:
        page.context.close()
