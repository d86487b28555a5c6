"""Issue 20 in a real Chromium: Thieves Den's cards in German. A German page shows our
unofficial set's German names and texts (the view's ``catalogue["de"]``: the card file's
``name_de``/``text_de``, else German made from the ability) on the hand, the board, the
Power tiles and in the log, after updates too; an English page shows the English; and a
card file without German words still loads, its names as they are and its texts in
German."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, Page, expect

from thievery.games.thieves_den.cards import DEFAULT_PATH, inline_card_set, load_card_set

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1400, "height": 1000}
# Seat 0 is dealt the Market first, the Renown tile lies on top of the first Power stack.
STACKED = {"first_player": 0, "location_deck": ["market-a"], "power_tiles": ["renown"]}


def table(server: str, options: dict[str, Any]) -> str:
    """A scenario table (Zoe and two random bots); Zoe's invite link."""
    body = {
        "game": "thieves-den",
        "scenario": True,
        "seed": 2,
        "options": {**STACKED, **options},
        "seats": [{"kind": "human", "name": "Zoe"}]
        + [{"kind": "bot", "bot": "random", "name": n} for n in ("Ann", "Bob")],
    }
    made = httpx2.post(f"{server}/api/tables", json=body)
    assert made.status_code < 300, made.text
    return str(made.json()["seats"][0]["invite"])


def open_page(browser: Browser, url: str, locale: str) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport=DESKTOP, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page, errors


def test_a_german_page_shows_the_german_card_names_and_texts(
    server: str, browser: Browser, output: Path
) -> None:
    german = load_card_set().catalogue["de"]
    assert german["locations"]["market"] == {
        "name": "Markt",
        "text": "Nimm 2 Juwelen",
        "bonus_text": "Nimm 2 Diebe",
    }
    assert german["powers"]["renown"] == {"name": "Ruhm", "text": "Erhalte 3 Prestige"}
    page, errors = open_page(browser, table(server, {}), "de-DE")
    try:
        market = page.locator('.td-hand [data-card="market-a"]')
        expect(market.locator(".td-lname")).to_have_text("Markt")
        expect(market.locator(".td-ltext")).to_have_text("Nimm 2 Juwelen")
        assert "Besitzerbonus: Nimm 2 Diebe" in (market.get_attribute("title") or "")
        tile = page.locator('.td-tile[data-tile="renown"]')
        expect(tile.locator(".td-tname")).to_contain_text("Ruhm")
        expect(tile.locator(".td-ttext")).to_have_text("Erhalte 3 Prestige")
        fences = page.locator(".td-fname").all_inner_texts()
        names_de = {x["name"] for x in german["fences"].values()}
        assert fences and set(fences) <= names_de, fences
        chip = page.locator(".td-unofficial")
        expect(chip).to_have_attribute(
            "title", german["name"] + ": unser eigener Kartensatz, nicht der des Verlags"
        )
        # Picked and revealed: drawn from update frames, which leave the catalogue out.
        market.click()
        mine = page.locator('.td-seat.me [data-card="market-a"]')
        expect(mine.locator(".td-lname")).to_have_text("Markt")
        expect(page.locator("#log")).to_contain_text("Markt")
        body = page.locator("#game").inner_text()
        for english in ("Market", "Renown", "Take 2 Jewels", "Gain 3 Prestige"):
            assert english not in body, english
        page.screenshot(path=str(output / "thieves-den-german-cards.png"), full_page=True)
        assert errors == []
    finally:
        page.context.close()


def test_an_english_page_keeps_the_english_names(server: str, browser: Browser) -> None:
    page, errors = open_page(browser, table(server, {}), "en-GB")
    try:
        market = page.locator('.td-hand [data-card="market-a"]')
        expect(market.locator(".td-lname")).to_have_text("Market")
        expect(market.locator(".td-ltext")).to_have_text("Take 2 Jewels")
        tile = page.locator('.td-tile[data-tile="renown"]')
        expect(tile.locator(".td-tname")).to_contain_text("Renown")
        assert "Markt" not in page.locator("#game").inner_text()
        assert errors == []
    finally:
        page.context.close()


def test_a_card_file_without_german_loads_and_speaks_german_texts(
    server: str, browser: Browser, tmp_path: Path
) -> None:
    """No name_de or text_de anywhere: the names stay as the file gives them, the texts
    are German made from the abilities."""
    lines = DEFAULT_PATH.read_text(encoding="utf-8").splitlines()
    plain = [line for line in lines if not line.startswith(("name_de", "text_de"))]
    path = tmp_path / "plain.toml"
    path.write_text("\n".join(plain) + "\n", encoding="utf-8")
    document = inline_card_set(path)
    assert '"name_de": "' not in json.dumps(document)  # none given (null at most)
    page, errors = open_page(browser, table(server, {"cards": document}), "de-DE")
    try:
        market = page.locator('.td-hand [data-card="market-a"]')
        expect(market.locator(".td-lname")).to_have_text("Market")
        expect(market.locator(".td-ltext")).to_have_text("Nimm 2 Juwelen")
        tile = page.locator('.td-tile[data-tile="renown"]')
        expect(tile.locator(".td-tname")).to_contain_text("Renown")
        expect(tile.locator(".td-ttext")).to_have_text("Erhalte 3 Prestige")
        assert errors == []
    finally:
        page.context.close()


def test_how_to_play_shows_the_german_rules_page_on_a_german_page(
    server: str, browser: Browser
) -> None:
    """The How to play panel asks for ?lang=de on a German page: RULES.de.md, rendered."""
    for locale, heading in (("de-DE", "Regelentscheidungen"), ("en-GB", "rules decisions")):
        page, errors = open_page(browser, server + "/", locale)
        try:
            page.select_option("#game", "thieves-den")
            page.click("#how-to-play")
            rules = page.locator("#help-rules")
            expect(rules.locator("h3").first).to_contain_text(f"Thieves Den: {heading}")
            if locale == "de-DE":
                expect(rules).to_contain_text("Machtplättchen")
                expect(page.locator("#help .help")).to_have_text(
                    "Wo die Spielregel schweigt oder unklar ist, haben wir so entschieden."
                )
            assert errors == []
        finally:
            page.context.close()
