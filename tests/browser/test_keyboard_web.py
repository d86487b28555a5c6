"""A keyboard-only player in a real Chromium: the focus stays where the player put it when
a page draws a part of itself anew (the lobby's lists every 5 s, the table's seats and
chat on every change), never lost to the page's <body>."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.browser.conftest import finished_by_bots

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1400, "height": 1000}


def make(server: str, body: dict[str, Any]) -> dict[str, Any]:
    response = httpx2.post(f"{server}/api/tables", json=body)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def wait_redrawn(page: Page) -> None:
    """Mark the focused element, then wait until the page has drawn it anew (the marked
    one left the document)."""
    page.evaluate("window.focusedBefore = document.activeElement")
    page.wait_for_function("() => !document.contains(window.focusedBefore)", timeout=15000)


def focused(page: Page) -> dict[str, str | None]:
    found: dict[str, str | None] = page.evaluate(
        """() => {
          const e = document.activeElement;
          return { tag: e.tagName, id: e.id, table: e.dataset.table ?? null,
                   text: e.textContent.trim().slice(0, 60) };
        }"""
    )
    return found


def test_the_lobby_keeps_the_focus_on_a_join_button_through_its_refresh(
    server: str, browser: Browser
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
    table_id = make(server, {"game": "thieves", "listed": True, "seats": seats})["table"]["id"]
    page = browser.new_page(viewport=DESKTOP)
    try:
        page.goto(server + "/")
        join = page.locator(f'#open button.join[data-table="{table_id}"]')
        join.focus()
        wait_redrawn(page)  # (the lists are read again every 5 s)
        assert focused(page) == {"tag": "BUTTON", "id": "", "table": table_id, "text": "Join"}
    finally:
        page.close()


def test_the_seat_buttons_keep_the_focus_when_the_seats_are_drawn_anew(
    server: str, browser: Browser
) -> None:
    """(Bo, a person who is away, keeps the match from ending while a bot plays for Ana.)"""
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}]
    seats.append({"kind": "bot", "bot": "heuristic"})
    made = make(server, {"game": "schattendieb", "seats": seats})
    page = browser.new_page(viewport=DESKTOP)
    bo = browser.new_page()
    try:
        page.goto(made["seats"][0]["invite"])
        page.locator("#to-bot").focus()
        page.keyboard.press("Enter")
        # The button the press replaced has the focus: Enter again takes the seat back.
        page.locator("#take-back").wait_for()
        page.wait_for_timeout(100)
        assert focused(page)["id"] == "take-back"
        # Bo comes: the seats are drawn anew, and "Copy my seat link" keeps the focus.
        page.locator("#my-link").focus()
        page.evaluate("window.focusedBefore = document.activeElement")
        bo.goto(made["seats"][1]["invite"])
        page.wait_for_function("() => !document.contains(window.focusedBefore)")
        assert focused(page)["id"] == "my-link"
        page.locator("#take-back").focus()
        page.keyboard.press("Enter")
        page.locator("#to-bot").wait_for()
        page.wait_for_timeout(100)
        assert focused(page)["id"] == "to-bot"
    finally:
        page.close()
        bo.close()


def test_a_thieves_card_picked_by_the_keyboard_keeps_the_focus(
    server: str, browser: Browser
) -> None:
    """Thieves!' two steps, card then where it goes: Enter on a card picks it, and the
    focus stays on it (pressed), Tab goes on to its choices; Cancel gives the focus back
    to the card; a police card picked becomes its one move, focused. (All three fell to
    the page, and Tab began again at its top.)"""
    hands = [["money-3a", "police-1a", "money-0a"], ["money-1a", "money-1b", "money-1c"]]
    hands.append(["money-1d", "money-1e", "money-1f"])
    options = {"hands": hands, "deck_top": ["money-2a", "money-2b"], "first_player": 0}
    seats = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "bot": "random"}] * 2
    body = {"game": "thieves", "scenario": True, "options": options, "seats": seats}
    page = browser.new_page(viewport=DESKTOP)
    try:
        page.goto(make(server, body)["seats"][0]["invite"])
        money = page.locator('.tv-hand [data-card="money-3a"]')
        expect(money).to_have_attribute("aria-pressed", "false")
        money.focus()
        page.keyboard.press("Enter")
        expect(money).to_have_attribute("aria-pressed", "true")
        assert page.evaluate("document.activeElement.dataset.card") == "money-3a"
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.card") == "police-1a"
        page.get_by_role("button", name="Cancel").focus()
        page.keyboard.press("Enter")
        expect(money).to_have_attribute("aria-pressed", "false")
        assert page.evaluate("document.activeElement.dataset.card") == "money-3a"
        police = page.locator('.tv-hand [data-card="police-1a"]')
        police.focus()
        page.keyboard.press("Enter")
        expect(police).to_have_attribute("data-action", '{"type":"play","card":"police-1a"}')
        assert page.evaluate("document.activeElement.dataset.card") == "police-1a"
    finally:
        page.close()


def test_the_replay_shows_the_perspective_chosen_last(server: str, browser: Browser) -> None:
    """Perspectives chosen one after another (a menu's arrow keys choose each in turn): a
    replay that comes later than the last choice's is not shown (it was "everything",
    every hand face up, under "Seen by: Cy")."""
    finished = finished_by_bots(server, "schattendieb", {"games": 1}, "random", 3)
    steps = {
        p: len(httpx2.get(f"{server}/api/tables/{finished}/replay?perspective={p}").json()["steps"])
        for p in ("all", "2")
    }
    page = browser.new_page(viewport=DESKTOP)
    held: list[Route] = []
    try:
        page.goto(f"{server}/replay/{finished}")
        expect(page.locator("#step")).to_have_text(f"step 0 of {steps['all'] - 1}")
        page.select_option("#perspective", "spectator")
        page.route(lambda url: url.endswith("perspective=all"), lambda r: held.append(r))  # held
        page.select_option("#perspective", "all")
        page.select_option("#perspective", "2")
        expect(page.locator("#step")).to_have_text(f"step 0 of {steps['2'] - 1}")
        assert len(held) == 1
        with page.expect_response(lambda r: r.url.endswith("perspective=all")) as came:
            held[0].continue_()
        came.value.finished()
        page.wait_for_timeout(300)  # (the page reads it and draws)
        expect(page.locator("#perspective")).to_have_value("2")
        expect(page.locator("#step")).to_have_text(f"step 0 of {steps['2'] - 1}")
        # Ada's hand, as Cy saw it: face down (everything showed it face up).
        ada = page.locator('.sd-seat[data-seat="0"] .sd-row').first
        expect(ada.locator(".sd-card.sd-back")).not_to_have_count(0)
        expect(ada.locator(".sd-card:not(.sd-back)")).to_have_count(0)
    finally:
        page.close()
