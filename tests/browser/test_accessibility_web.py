"""axe-core's accessibility checks (WCAG A and AA, and its best practices) on every page:
the lobby, a table of each game, a replay; on a desktop in English and a phone in German.
axe-core comes with ``axe-playwright-python``."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1400, "height": 1000}
GAMES = {
    "schattendieb": "random",
    "thieves": "random",
    "thieves-den": "random",
    "schatz-rabatz": "packer-child",
}
THIEVES_DEN_CSS = Path(__file__).parents[2] / "src/thievery/games/thieves_den/web/game.css"

AXE = Axe()


def problems(page: Page, only: list[str] | None = None) -> list[str]:
    """What axe finds on the page now: one line a rule broken, with up to three places."""
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if only:
        options["runOnly"] = only
    found = AXE.run(page, options=options).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): "
        + "; ".join(
            f"{' '.join(n['target'])}: {(n.get('failureSummary') or '').splitlines()[-1].strip()}"
            for n in v["nodes"][:3]
        )
        for v in found
    ]


def table(server: str, game: str, bot: str) -> str:
    """A table of three: a person (the invite returned), two bots."""
    seats = [{"kind": "human", "name": "Ada"}] + [{"kind": "bot", "bot": bot}] * 2
    made = httpx2.post(f"{server}/api/tables", json={"game": game, "seats": seats})
    assert made.status_code == 201, made.text
    invite: str = made.json()["seats"][0]["invite"]
    return invite


def finished(server: str) -> str:
    """A Der Schattendieb table the bots played to the end: its id."""
    body = {"game": "schattendieb", "seats": [{"kind": "bot", "bot": "random"}] * 3}
    table_id: str = httpx2.post(f"{server}/api/tables", json=body).json()["table"]["id"]
    deadline = time.time() + 30
    while not httpx2.get(f"{server}/api/tables/{table_id}").json().get("over"):
        assert time.time() < deadline, "the bots' table did not finish"
        time.sleep(0.2)
    return table_id


@pytest.mark.parametrize(
    ("locale", "viewport"), [("en-GB", DESKTOP), ("de-DE", PHONE)], ids=["desktop-en", "phone-de"]
)
def test_axe_finds_nothing_on_any_page(
    server: str, browser: Browser, locale: str, viewport: dict[str, int]
) -> None:
    pages = {"lobby": server + "/"}
    pages |= {game: table(server, game, bot) for game, bot in GAMES.items()}
    pages["replay"] = f"{server}/replay/{finished(server)}"
    context = browser.new_context(viewport=viewport, locale=locale)
    found: dict[str, list[str]] = {}
    try:
        for name, url in pages.items():
            page = context.new_page()
            page.goto(url)
            if name == "lobby":
                expect(page.locator("#seat-rows .seat-row").first).to_be_visible()
            elif name == "replay":
                expect(page.locator("#game > :not(.card-panel)").first).to_be_visible()
            else:
                expect(page.locator("#who")).to_contain_text("Ada")
                expect(page.locator("#game > *").first).to_be_visible()
            found[name] = problems(page)
            page.close()
    finally:
        context.close()
    assert found == {name: [] for name in pages}


def test_every_thieves_den_colour_label_is_readable(server: str, browser: Browser) -> None:
    """White small capitals on each faction's and location's colour (a deal shows only
    some of them): each at least 4.5:1, as WCAG AA asks of small text."""
    css = THIEVES_DEN_CSS.read_text()
    factions = sorted(set(re.findall(r"\.td-fy-([a-z]+) \{ --fc:", css)))
    locations = sorted(set(re.findall(r"\.td-ty-([a-z]+) \{ --tc:", css)))
    assert len(factions) >= 7 and len(locations) >= 5
    page = browser.new_page(viewport=DESKTOP)
    try:
        page.goto(table(server, "thieves-den", "random"))
        expect(page.locator(".td").first).to_be_visible()
        head = '<div class="td-fy-{0}"><div class="td-fhead"><span class="td-ftype">{0}</span>'
        labels = "".join(head.format(f) + "</div></div>" for f in factions)
        labels += "".join(f'<span class="td-type td-ty-{t}">{t}</span>' for t in locations)
        page.evaluate(
            "html => { const box = document.createElement('div'); box.id = 'swatches';"
            " box.innerHTML = html; document.querySelector('.td').appendChild(box); }",
            labels,
        )
        expect(page.locator("#swatches .td-ftype")).to_have_count(len(factions))
        assert problems(page, ["color-contrast"]) == []
    finally:
        page.close()


def test_no_page_scrolls_sideways_at_any_width(server: str, browser: Browser) -> None:
    """A desktop zoomed to 200 % is a window of about 640 CSS pixels: the header ran past
    its edge between the phone layout (600 px) and ~900 px."""
    pages = [server + "/", table(server, "schattendieb", "random")]
    pages.append(table(server, "thieves-den", "random"))
    wide: list[tuple[str, str, int, int]] = []
    for locale in ("en-GB", "de-DE"):
        context = browser.new_context(viewport=DESKTOP, locale=locale)
        try:
            for url in pages:
                page = context.new_page()
                page.goto(url)
                expect(page.locator("header.top")).to_be_visible()
                page.wait_for_timeout(300)  # (the page's first frame drawn)
                for width in range(320, 1441, 80):
                    page.set_viewport_size({"width": width, "height": 700})
                    scroll = page.evaluate("document.documentElement.scrollWidth")
                    if scroll > width:
                        wide.append((locale, url.split("/")[-1][:20], width, scroll))
                page.close()
        finally:
            context.close()
    assert wide == []


def test_the_lobby_form_fits_a_phone_for_every_game_in_both_languages(
    server: str, browser: Browser
) -> None:
    """Each game's seats and options, at 320 and 390 px: German bot names (longer) made a
    seat's select as wide as its longest choice, and the lobby scroll sideways."""
    wide: list[tuple[str, str, int, int]] = []
    for locale in ("en-GB", "de-DE"):
        context = browser.new_context(viewport=DESKTOP, locale=locale)
        try:
            page = context.new_page()
            page.goto(server + "/")
            games = page.locator("#game option")
            expect(games).to_have_count(4)
            for game in games.evaluate_all("options => options.map((o) => o.value)"):
                page.select_option("#game", game)
                for width in (320, 390):
                    page.set_viewport_size({"width": width, "height": 700})
                    scroll = page.evaluate("document.documentElement.scrollWidth")
                    if scroll > width:
                        wide.append((locale, game, width, scroll))
                page.set_viewport_size(DESKTOP)
        finally:
            context.close()
    assert wide == []


HANDS = {"schattendieb": ".sd-handbox", "thieves": ".tv-handbox", "thieves-den": ".td-handbox"}


def test_a_short_window_keeps_nothing_stuck_to_the_screen(server: str, browser: Browser) -> None:
    """A phone held upright keeps the header on top and the hand docked at the bottom; held
    sideways (or a page zoomed in: 320 × 180 at 400 %) they took most of the screen, so
    there nothing sticks and the page scrolls."""
    invites = {game: table(server, game, GAMES[game]) for game in HANDS}
    seen: dict[tuple[str, int, int], tuple[str, str]] = {}
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    try:
        for game, hand in HANDS.items():
            page = context.new_page()
            page.goto(invites[game])
            expect(page.locator("#who")).to_contain_text("Ada")
            expect(page.locator(hand)).to_be_visible()
            for width, height in ((390, 844), (844, 390), (568, 320), (320, 180)):
                page.set_viewport_size({"width": width, "height": height})
                seen[game, width, height] = tuple(
                    page.evaluate(
                        "h => [getComputedStyle(document.querySelector('header.top')).position,"
                        " getComputedStyle(document.querySelector(h)).position]",
                        hand,
                    )
                )
            page.close()
    finally:
        context.close()
    for game in HANDS:
        assert seen[game, 390, 844] == ("sticky", "fixed"), game
        for shape in ((844, 390), (568, 320), (320, 180)):
            assert seen[(game, *shape)] == ("static", "static"), (game, shape)
