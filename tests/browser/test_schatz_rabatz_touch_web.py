"""Schatz-Rabatz by touch on a 390 px phone, in a real Chromium with real touch input (the
DevTools protocol's touch events, so the page gets touch pointer events and the browser's
own scrolling rules): a treasure dragged from the pile lands in the column it is let go
over, the preview following the finger; a tap on the picked treasure turns it; a drag let
go outside the chest drops nothing; a drag while the hand is busy drops nothing."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, expect

from tests.browser.test_schatz_rabatz_web import pick

pytestmark = [pytest.mark.browser, pytest.mark.paced]  # a real-time game

PHONE = {"width": 390, "height": 844}
HAND_MS = 4000  # long enough for the busy-hand drag on a loaded machine


class Finger:
    """One finger on the page's touch screen (Chromium's DevTools touch events)."""

    def __init__(self, context: BrowserContext, page: Page) -> None:
        self.cdp: CDPSession = context.new_cdp_session(page)
        self.page = page

    def touch(self, kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def down(self, x: float, y: float) -> None:
        self.touch("touchStart", x, y)

    def move(self, x0: float, y0: float, x1: float, y1: float, steps: int = 8) -> None:
        for i in range(1, steps + 1):
            self.touch("touchMove", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
            self.page.wait_for_timeout(15)

    def up(self, x: float, y: float) -> None:
        self.touch("touchEnd", x, y)

    def drag(self, start: tuple[float, float], end: tuple[float, float]) -> None:
        self.down(*start)
        self.move(*start, *end)
        self.up(*end)


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box, f"{selector} is not drawn"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def count(page: Page) -> int:
    return int(page.locator(".sr-chest.me").get_attribute("data-count") or 0)


def chest_above_the_dock(page: Page) -> None:
    """Scroll so that the chest's bottom sits just above the controls docked at the bottom
    (the lowest rows of the pile show above it)."""
    page.evaluate(
        """() => {
          const chest = document.querySelector('.sr-chest.me').getBoundingClientRect();
          const dock = document.querySelector('.sr-controls').getBoundingClientRect();
          window.scrollBy(0, chest.bottom - dock.top + 6);
        }"""
    )
    page.wait_for_timeout(100)


def visible_pool_treasure(page: Page, avoid: set[str]) -> str:
    """A treasure of the pile in full sight (above the dock, below the top), not in ``avoid``."""
    found: str | None = page.evaluate(
        """(avoid) => {
          const dock = document.querySelector('.sr-controls').getBoundingClientRect().top;
          const slots = [...document.querySelectorAll('.sr-slot[data-pick]')].reverse();
          const ok = slots.find((s) => {
            const r = s.getBoundingClientRect();
            return r.top > 0 && r.bottom < dock && !avoid.includes(s.dataset.pick)
              && !s.classList.contains('nofit');
          });
          return ok ? ok.dataset.pick : null;
        }""",
        sorted(avoid),
    )
    assert found, "no treasure of the pile in sight"
    return found


@pytest.fixture
def table(server: str, browser: Browser) -> Iterator[tuple[Page, BrowserContext, Page]]:
    """Ada on a touch phone; Bo on a desktop page with a mouse (both there: the game's clock
    runs)."""
    with phone_and_desk(server, browser) as found:
        yield found


@contextlib.contextmanager
def phone_and_desk(
    server: str, browser: Browser, viewport: dict[str, int] = PHONE, locale: str = "en-GB"
) -> Iterator[tuple[Page, BrowserContext, Page]]:
    """A table of two: Ada on a touch phone (``viewport``, ``locale``), Bo on an English
    desktop page with a mouse; Ada's page, her browser, Bo's page."""
    body = {
        "game": "schatz-rabatz",
        "options": {"hourglass_seconds": 300, "hand_ms": HAND_MS},
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
    }
    made = httpx2.post(f"{server}/api/tables", json=body)
    assert made.status_code == 201, made.text
    seats = made.json()["seats"]
    phone = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True, locale=locale)
    desk = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        bo = desk.new_page()
        bo.goto(seats[1]["invite"])
        expect(bo.locator("#who")).to_have_text("you are Bo")
        ada = phone.new_page()
        ada.goto(seats[0]["invite"])
        expect(ada.locator("#who")).to_contain_text("Ada")
        expect(ada.locator(".sr-pick")).to_have_count(1)
        expect(bo.locator(".sr-pick")).to_have_count(1)
        yield ada, phone, bo
    finally:
        phone.close()
        desk.close()


def test_drag_tap_and_cancel_by_touch_on_a_phone(
    table: tuple[Page, BrowserContext, Page],
) -> None:
    page, context, _ = table
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    finger = Finger(context, page)
    expect(page.locator(".sr-prompt")).to_contain_text("Drag a treasure onto a column")
    # The drag handles do not scroll the page.
    assert (
        page.locator(".sr-slot[data-pick]").first.evaluate("e => getComputedStyle(e).touchAction")
        == "none"
    )
    chest_above_the_dock(page)

    # A tap on the picked treasure turns it, again and again; nothing is dropped.
    first = pick(page)
    page.touchscreen.tap(*centre(page, ".sr-pick-art"))
    expect(page.locator(".sr-pick")).to_have_attribute(
        "data-rotation", str((first["rotation"] + 1) % 4)
    )
    page.touchscreen.tap(*centre(page, ".sr-pick-art"))
    expect(page.locator(".sr-pick")).to_have_attribute(
        "data-rotation", str((first["rotation"] + 2) % 4)
    )
    # A tap on another treasure of the pile picks it (turned as before); a tap on it again
    # (the picked one) turns it.
    other = visible_pool_treasure(page, {str(first["treasure"])})
    page.touchscreen.tap(*centre(page, f'.sr-slot[data-pick="{other}"]'))
    expect(page.locator(".sr-pick")).to_have_attribute("data-treasure", other)
    rotation = pick(page)["rotation"]
    page.touchscreen.tap(*centre(page, f'.sr-slot[data-pick="{other}"]'))
    expect(page.locator(".sr-pick")).to_have_attribute("data-rotation", str((rotation + 1) % 4))
    assert count(page) == 0

    # A drag from the pile: the preview follows the finger over the chest's columns, and
    # letting go drops the treasure in the column under the finger.
    dragged = visible_pool_treasure(page, set())
    start = centre(page, f'.sr-slot[data-pick="{dragged}"]')
    scrolled = page.evaluate("scrollY")
    columns = page.locator(".sr-chest.me rect.sr-col")
    finger.down(*start)
    at = start
    seen: list[int] = []
    for k in (1, 4, 2):
        target = centre(page, f".sr-chest.me rect.sr-col >> nth={k}")
        finger.move(*at, *target)
        at = target
        want = columns.nth(k).get_attribute("data-col")
        expect(page.locator(".sr-pick")).to_have_attribute("data-column", want or "")
        expect(page.locator(".sr-pick")).to_have_attribute("data-treasure", dragged)
        seen.append(int(want or 0))
    assert page.evaluate("scrollY") == scrolled, "the page scrolled while dragging"
    expect(page.locator(".sr-drag-image")).to_have_count(1)
    ghost = page.locator(".sr-chest.me .sr-ghost")
    expected = sorted(json.loads(ghost.get_attribute("data-cells") or "[]"))
    assert min(x for x, _ in expected) == seen[-1]
    assert count(page) == 0  # nothing sent before the finger is lifted
    finger.up(*at)
    expect(page.locator(".sr-chest.me")).to_have_attribute("data-count", "1")
    placed = page.locator(f'.sr-chest.me [data-treasure="{dragged}"]')
    expect(placed).to_have_count(1)
    assert sorted(json.loads(placed.get_attribute("data-cells") or "[]")) == expected
    expect(page.locator(f'.sr-pool [data-treasure="{dragged}"]')).to_have_count(0)
    expect(page.locator(".sr-drag-image")).to_have_count(0)
    assert page.evaluate("scrollY") == scrolled

    # While the hand is busy, a drag onto the chest drops nothing and says why.
    expect(page.locator(".sr-hand")).to_have_count(1)
    busy = visible_pool_treasure(page, {dragged})
    finger.drag(
        centre(page, f'.sr-slot[data-pick="{busy}"]'),
        centre(page, ".sr-chest.me rect.sr-col >> nth=0"),
    )
    expect(page.locator(".sr-msg.warn")).to_contain_text("hand is not ready")
    page.wait_for_timeout(300)
    assert count(page) == 1
    expect(page.locator(f'.sr-pool [data-treasure="{busy}"]')).to_have_count(1)

    # Let go outside the chest (over the pile): nothing is dropped, the column is as it was.
    expect(page.locator(".sr-hand")).to_have_count(0, timeout=HAND_MS + 3000)
    before = pick(page)
    loose = visible_pool_treasure(page, {dragged, busy})
    origin = centre(page, f'.sr-slot[data-pick="{loose}"]')
    over = centre(page, ".sr-chest.me rect.sr-col >> nth=5")
    finger.down(*origin)
    finger.move(*origin, *over)
    moved_to = pick(page)["column"]
    finger.move(*over, *origin)
    finger.up(*origin)
    expect(page.locator(".sr-msg.info")).to_contain_text("Not dropped")
    page.wait_for_timeout(300)
    assert count(page) == 1
    expect(page.locator(f'.sr-pool [data-treasure="{loose}"]')).to_have_count(1)
    assert before["column"] == 0  # where the refused drag left it
    assert moved_to == int(columns.nth(5).get_attribute("data-col") or 0) > 0
    assert pick(page)["column"] == before["column"]
    expect(page.locator(".sr-drag-image")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert errors == []


def test_a_mouse_drags_too(table: tuple[Page, BrowserContext, Page]) -> None:
    """The same pointer code on a desktop: a mouse drag drops where it is let go (and eats
    the click it ends with: one drop); let go outside the chest, nothing."""
    _, _, page = table
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    dragged = visible_pool_treasure(page, set())
    start = centre(page, f'.sr-slot[data-pick="{dragged}"]')
    column = page.locator(".sr-chest.me rect.sr-col").nth(3)
    end = centre(page, ".sr-chest.me rect.sr-col >> nth=3")
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    expect(page.locator(".sr-pick")).to_have_attribute("data-treasure", dragged)
    want = int(column.get_attribute("data-col") or 0)
    expect(page.locator(".sr-pick")).to_have_attribute("data-column", str(want))
    expected = sorted(
        json.loads(page.locator(".sr-chest.me .sr-ghost").get_attribute("data-cells") or "[]")
    )
    page.mouse.up()
    placed = page.locator(f'.sr-chest.me [data-treasure="{dragged}"]')
    expect(placed).to_have_count(1)
    assert sorted(json.loads(placed.get_attribute("data-cells") or "[]")) == expected
    page.wait_for_timeout(300)
    assert count(page) == 1  # one drop, not a second from the click the drag ended with
    # Let go over the pile: nothing dropped.
    other = visible_pool_treasure(page, {dragged})
    start = centre(page, f'.sr-slot[data-pick="{other}"]')
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=6)
    page.mouse.move(*start, steps=6)
    page.mouse.up()
    expect(page.locator(".sr-msg.info")).to_contain_text("Not dropped")
    page.wait_for_timeout(HAND_MS + 300)
    assert count(page) == 1
    expect(page.locator(f'.sr-pool [data-treasure="{other}"]')).to_have_count(1)
    assert errors == []


def tap_the_lid(phone: BrowserContext, page: Page) -> Callable[[], None]:
    """A finger's tap on Close the lid (in sight first); returns one more tap there."""
    finger = Finger(phone, page)
    page.locator(".sr-close").scroll_into_view_if_needed()
    x, y = centre(page, ".sr-close")

    def tap() -> None:
        finger.down(x, y)
        finger.up(x, y)

    tap()
    return tap


def test_a_finger_closes_the_lid_with_a_second_tap_a_mouse_with_one(
    table: tuple[Page, BrowserContext, Page],
) -> None:
    """On a phone Close the lid sits right under Drop and cannot be undone: one tap (a
    finger that meant Drop, say) arms it, a second tap closes. A mouse closes at once."""
    ada, phone, bo = table
    tap = tap_the_lid(phone, ada)
    expect(ada.locator(".sr-close")).to_have_text("Tap again to close the lid")
    ada.wait_for_timeout(300)
    expect(ada.locator(".sr-chest.me svg.sr-chest-svg")).to_have_attribute(
        "aria-label", re.compile("lid open")
    )
    tap()
    expect(ada.locator(".sr-close")).to_have_count(0)  # closed
    bo.locator(".sr-close").click()  # a mouse: at once
    expect(bo.locator(".sr-close")).to_have_count(0)


def test_the_armed_lid_stays_armed_when_the_board_is_drawn_again(
    table: tuple[Page, BrowserContext, Page],
) -> None:
    """Armed, the button said so until the next frame drew it again (another seat's move):
    then it read "Close the lid" while one more tap closed it."""
    ada, phone, bo = table
    tap_the_lid(phone, ada)
    expect(ada.locator(".sr-close.armed")).to_have_text("Tap again to close the lid")
    bo.locator(".sr-close").click()  # Bo's lid: a new frame at Ada's
    expect(ada.locator(".sr-chest:not(.me) svg.sr-chest-svg").first).to_have_attribute(
        "aria-label", re.compile("lid closed")
    )
    expect(ada.locator(".sr-close.armed")).to_have_text("Tap again to close the lid")
    # (a phone shows no key hint: "(C)" is there for a keyboard)
    unarmed = ada.locator(".sr-close:not(.armed)")
    expect(unarmed).to_have_text("Close the lid", use_inner_text=True, timeout=5000)


# A key named in words a phone shows: a letter in brackets, Enter's ⏎, the keys' names.
KEY_HINT = re.compile(r"\([A-Z←→]\)|⏎|\b(?:Enter|Leertaste|Space|Drück|Press)\b|\b[CRY] ")
# Where the pile's top and the chest's bottom are, scrolled so that the pile starts just
# below the header (sticky on a phone); where the header ends and the dock begins.
TOGETHER = """() => {
  const header = document.querySelector("header.top").getBoundingClientRect().bottom;
  window.scrollBy(0, document.querySelector(".sr-pool").getBoundingClientRect().top - header);
  const pool = document.querySelector(".sr-pool").getBoundingClientRect();
  const chest = document.querySelector(".sr-chest.me").getBoundingClientRect();
  const dock = document.querySelector(".sr-controls").getBoundingClientRect();
  return { header, pile: pool.top, chest: chest.bottom, dock: dock.top,
    page: document.documentElement.scrollHeight, screen: innerHeight };
}"""


def test_a_german_phone_names_no_keys_and_shows_the_pile_and_chest_together(
    server: str, browser: Browser, output: Path
) -> None:
    """A phone has no keys: its prompts and buttons named them ("C Deckel schließen",
    "Fallen lassen ⏎", "Drück Y"); a desktop page still does. On a 360 x 740 phone the
    pile and the chest fit between the header and the controls docked at the bottom."""
    with phone_and_desk(server, browser, {"width": 360, "height": 740}, "de-DE") as found:
        ada, phone, bo = found
        errors: list[str] = []
        ada.on("pageerror", lambda e: errors.append(str(e)))
        prompt = ada.locator(".sr-prompt")
        expect(prompt).to_contain_text("Zieh einen Schatz auf eine Spalte")
        shown = [prompt.inner_text(), ada.locator(".sr-controls").inner_text()]
        assert not any(KEY_HINT.search(text) for text in shown), shown
        expect(ada.locator(".sr-drop")).to_have_text("Fallen lassen", use_inner_text=True)
        place = ada.evaluate(TOGETHER)
        assert place["pile"] >= place["header"] - 1 and place["chest"] <= place["dock"], place
        assert place["page"] > place["screen"]  # (it did scroll: the check is not idle)
        ada.screenshot(path=str(output / "schatz-rabatz-phone-de.png"))
        # A mouse and keys: the hints are there.
        expect(bo.locator(".sr-prompt")).to_contain_text("Enter/Space/click drop")
        expect(bo.locator(".sr-close")).to_have_text("Close the lid (C)", use_inner_text=True)
        # After the scoring: ready, by a tap, not "Y".
        tap_the_lid(phone, ada)()
        bo.locator(".sr-close").click()
        ready = ada.locator(".sr-ready")
        expect(ready).to_have_text("Bereit für Runde 2", use_inner_text=True, timeout=15_000)
        expect(prompt).to_have_text("Runde gezählt. Bereit für die nächste Runde?")
        expect(bo.locator(".sr-ready")).to_have_text("Ready for round 2 (Y)", use_inner_text=True)
        assert errors == []
