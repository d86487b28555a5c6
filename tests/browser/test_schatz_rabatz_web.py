"""Schatz-Rabatz in a real Chromium, live on the server's clock: a round by keyboard against
three bots, and a drop that loses the race for a treasure."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import exchange, key_link, seat_key
from tests.browser.pages import watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.paced]  # a real-time game

BOTS = "packer-instant"


def create(server: str, seats: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    body = {"game": "schatz-rabatz", "options": options, "seats": seats}
    response = httpx2.post(f"{server}/api/tables", json=body)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def pick(page: Page) -> dict[str, Any]:
    """The pick the page shows: treasure, rotation, column."""
    el = page.locator(".sr-pick")
    return {
        "treasure": el.get_attribute("data-treasure"),
        "rotation": int(el.get_attribute("data-rotation") or 0),
        "column": int(el.get_attribute("data-column") or 0),
    }


def cells(text: str | None) -> list[list[int]]:
    return sorted(json.loads(text or "[]"))


def my_count(page: Page) -> int:
    return int(page.locator(".sr-chest.me").get_attribute("data-count") or 0)


def drop_by_keyboard(page: Page, keys: list[str], drop_key: str) -> str:
    """Pick, rotate and move with ``keys``, check the ghost, drop once the hand is ready
    (its cooldown ring gone); retry a lost race.

    Returns the treasure that landed; its cells are where the ghost showed it would rest.
    """
    for _ in range(5):
        expect(page.locator(".sr-hand")).to_have_count(0, timeout=10_000)
        for key in keys:
            page.keyboard.press(key)
        chosen = pick(page)
        ghost = page.locator(".sr-chest.me .sr-ghost")
        expect(ghost).to_have_count(1)
        if "bad" in (ghost.get_attribute("class") or ""):
            keys = ["ArrowDown"]
            continue
        expected = cells(ghost.get_attribute("data-cells"))
        before = my_count(page)
        page.keyboard.press(drop_key)
        page.wait_for_function(
            """([n, id]) => {
              const chest = document.querySelector('.sr-chest.me');
              return Number(chest.dataset.count) > n
                || !document.querySelector(`.sr-pool [data-treasure="${id}"]`);
            }""",
            arg=[before, chosen["treasure"]],
        )
        placed = page.locator(f'.sr-chest.me [data-treasure="{chosen["treasure"]}"]')
        if placed.count() == 1:
            assert cells(placed.get_attribute("data-cells")) == expected
            return str(chosen["treasure"])
        keys = []  # a bot took it first: the page moved the pick on; try again
    raise AssertionError("every drop lost its race")


def test_a_round_by_keyboard_against_three_bots(
    server: str, browser: Browser, output: Path
) -> None:
    seats = [{"kind": "human", "name": "Zoe"}] + [
        {"kind": "bot", "bot": BOTS, "name": f"Packer {i}"} for i in (1, 2, 3)
    ]
    made = create(server, seats, hourglass_seconds=20, hand_ms=2000)
    page = browser.new_page(viewport={"width": 1400, "height": 1050})
    errors = watch_errors(page)
    began = time.time()
    page.goto(made["seats"][0]["invite"])
    expect(page.locator("#who")).to_have_text("you are Zoe")
    expect(page.locator(".sr-chest.me")).to_have_count(1)
    expect(page.locator(".sr-other")).to_have_count(3)
    expect(page.locator(".sr[data-round='1']")).to_have_attribute("data-phase", "packing")

    # The hourglass counts down between frames, from the server's time.
    secs = page.locator(".sr-secs")
    first = float((secs.text_content() or "0").split()[0])
    assert 0 < first <= 20
    page.wait_for_function(
        "t => parseFloat(document.querySelector('.sr-secs').textContent) < t - 0.3", arg=first
    )
    # The bots pack at once: the pool shrinks for everyone, and what is gone is gone.
    page.wait_for_function(
        "() => [...document.querySelectorAll('.sr-other .sr-chest')]"
        ".some(c => Number(c.dataset.count) > 0)"
    )
    pool_ids = page.locator(".sr-pool [data-treasure]").evaluate_all(
        "els => els.map(e => e.dataset.treasure)"
    )
    packed = page.locator(".sr-other [data-treasure]").evaluate_all(
        "els => els.map(e => e.dataset.treasure)"
    )
    assert packed and not set(packed) & set(pool_ids)

    # Keyboard: pick (↓), rotate (R), move (← →), drop (Enter / Space).
    start = pick(page)
    page.keyboard.press("ArrowDown")
    assert pick(page)["treasure"] != start["treasure"]
    page.keyboard.press("r")
    assert pick(page)["rotation"] == (start["rotation"] + 1) % 4
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    landed = [drop_by_keyboard(page, [], "Enter")]
    # Hands have a speed: for 2 s the hand is busy. A ring shows it, and a drop is refused
    # with the reason (the page does not send it); reduced motion: a steady ring.
    ring = page.locator(".sr-mine .sr-hand[role='timer']")
    expect(ring).to_have_count(1)
    expect(ring.locator(".sr-hand-secs")).to_contain_text(" s")
    page.emulate_media(reduced_motion="reduce")
    assert (
        ring.locator(".sr-hand-arc").evaluate("e => getComputedStyle(e).transitionDuration") == "0s"
    )
    page.emulate_media(reduced_motion="no-preference")
    page.keyboard.press("Enter")
    expect(page.locator(".sr-msg.warn")).to_contain_text("hand is not ready")
    assert my_count(page) == 1
    landed.append(drop_by_keyboard(page, ["ArrowDown", "ArrowDown", "r", "ArrowLeft"], " "))
    landed.append(drop_by_keyboard(page, ["ArrowUp", "ArrowRight", "ArrowRight"], "Enter"))
    expect(page.locator(".sr-chest.me [data-treasure]")).to_have_count(3)
    for treasure in landed:
        expect(page.locator(f'.sr-pool [data-treasure="{treasure}"]')).to_have_count(0)
    page.screenshot(path=str(output / "schatz-rabatz-packing.png"))

    # Enter on a focused button of the page presses it (it dropped a treasure instead).
    page.focus("#how-to-play")
    page.keyboard.press("Enter")
    expect(page.get_by_role("dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(page.locator(".sr-chest.me [data-treasure]")).to_have_count(3)
    # The column buttons, ◀ and ▶, are named for a screen reader.
    expect(page.locator('.sr-btns [data-ui="left"]')).to_have_attribute(
        "aria-label", "column left (←)"
    )

    # Close the lid (C): the round is scored once every lid is closed (or time is up).
    page.keyboard.press("c")
    expect(page.locator(".sr-mine.closed")).to_have_count(1)
    expect(page.locator(".sr")).to_have_attribute("data-phase", "scored", timeout=30_000)
    score = page.locator(".sr-score.live")
    expect(score).to_have_attribute("data-step", "5", timeout=10_000)
    expect(score).to_contain_text("Jack-board")
    expect(score.locator("tbody tr")).to_have_count(4)
    expect(score.locator("tr.best")).not_to_have_count(0)
    expect(score.locator(".sr-part-won")).not_to_have_count(0)
    won = score.locator(".sr-part-won").count()
    expect(page.locator('.sr-ship[data-parts="1"]')).to_have_count(won)
    page.screenshot(path=str(output / "schatz-rabatz-scoring.png"))

    # Ready (Y): the bots are ready already, so the next round starts.
    page.keyboard.press("y")
    expect(page.locator(".sr[data-round='2']")).to_have_attribute("data-phase", "packing")
    expect(page.locator(".sr-score.past")).to_have_count(1)
    assert errors == []
    assert time.time() - began < 60


def test_a_drop_that_loses_the_race_is_answered(
    server: str, browser: Browser, output: Path
) -> None:
    made = create(
        server,
        [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        hourglass_seconds=60,
    )
    table = made["table"]["id"]
    ada_token = exchange(made["seats"][0]["invite"])  # (her link holds her key from now on)
    ada_link = key_link(made["seats"][0]["invite"], ada_token)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        bo = context.new_page()
        errors = watch_errors(bo)
        bo.goto(made["seats"][1]["invite"])
        expect(bo.locator("#who")).to_have_text("you are Bo")
        expect(bo.locator(".sr-pick")).to_have_count(1)
        wanted = pick(bo)["treasure"]
        assert wanted
        # Ada takes it while Bo's page is busy (a slow machine, a slow network): her drop
        # goes to the server from inside the same task as Bo's Enter, so his Enter goes out
        # against the table as he last saw it, and the news of her drop reaches him after.
        status = bo.evaluate(
            """([table, token, treasure]) => {
              const x = new XMLHttpRequest();
              x.open('POST', `/api/tables/${table}/actions`, false);
              x.setRequestHeader('Content-Type', 'application/json');
              x.setRequestHeader('Authorization', `Bearer ${token}`);
              x.send(JSON.stringify({action: {type: 'drop', treasure, rotation: 0, column: 0}}));
              document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
              return x.status;
            }""",
            [table, ada_token, wanted],
        )
        assert status == 200
        lost = bo.locator(".sr-msg.lost")
        expect(lost).to_contain_text("Too slow")
        expect(lost).to_contain_text("Ada")
        expect(bo.locator(f'.sr-pool [data-treasure="{wanted}"]')).to_have_count(0)
        expect(bo.locator(f'.sr-other [data-treasure="{wanted}"]')).to_have_count(1)
        assert bo.locator(".sr-chest.me").get_attribute("data-count") == "0"
        assert pick(bo)["treasure"] != wanted
        bo.screenshot(path=str(output / "schatz-rabatz-lost-race.png"))

        # The pointer: the rotate button, a column by hovering, a click drops there.
        before = pick(bo)
        bo.locator('.sr-btns [data-ui="rotate"]').click()
        assert pick(bo)["rotation"] == (before["rotation"] + 1) % 4
        column = bo.locator(".sr-chest.me .sr-col").nth(3)
        column.hover()
        expect(bo.locator(".sr-pick")).to_have_attribute(
            "data-column", column.get_attribute("data-col") or ""
        )
        chosen = pick(bo)
        expected = cells(bo.locator(".sr-chest.me .sr-ghost").get_attribute("data-cells"))
        bo.locator(".sr-chest.me .sr-col").nth(3).click()
        placed = bo.locator(f'.sr-chest.me [data-treasure="{chosen["treasure"]}"]')
        expect(placed).to_have_count(1)
        assert cells(placed.get_attribute("data-cells")) == expected
        # Hands have a speed, on the game's clock: it stands still until Ada comes, so
        # Bo's hand stays busy (the ring stays) however long he waits.
        expect(bo.locator(".sr-hand")).to_have_count(1)
        bo.wait_for_timeout(1200)
        expect(bo.locator(".sr-hand")).to_have_count(1)
        ada = context.new_page()
        ada.goto(ada_link)
        ada.click("#take-seat")  # (this browser holds Bo's seat: it asks first)
        expect(ada.locator("#who")).to_have_text("you are Ada")
        assert seat_key(ada, ada_link) == ada_token
        response = httpx2.post(  # her lid: a frame with the clock running
            f"{server}/api/tables/{table}/actions",
            json={"action": {"type": "close"}},
            headers={"Authorization": f"Bearer {ada_token}"},
        )
        assert response.status_code == 200, response.text
        # Then nobody moves, so no new frame comes when Bo's hand is ready: the page knows
        # from the view when it will be, and his next drop goes through then.
        expect(bo.locator(".sr-hand")).to_have_count(0, timeout=5_000)
        bo.keyboard.press("Enter")
        expect(bo.locator(".sr-chest.me [data-treasure]")).to_have_count(2)
        assert errors == []
    finally:
        context.close()


def test_enter_and_space_press_the_boards_buttons_and_a_dialog_holds_the_keys(
    server: str, browser: Browser
) -> None:
    """Enter or Space on the board's own buttons (Rotate, ▶, Close the lid) dropped the
    picked treasure instead; and the game's keys acted behind the How to play panel ("c"
    closed the lid), whose Tab order led out of it."""
    seats = [{"kind": "human", "name": "Zoe"}, {"kind": "bot", "bot": "packer-child"}]
    made = create(server, seats, hourglass_seconds=120, hand_ms=0)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = watch_errors(page)
    try:
        page.goto(made["seats"][0]["invite"])
        expect(page.locator(".sr[data-round='1']")).to_have_attribute("data-phase", "packing")
        before = pick(page)
        page.focus('.sr-btns [data-ui="rotate"]')
        page.keyboard.press("Enter")
        expect(page.locator(".sr-pick")).to_have_attribute(
            "data-rotation", str((before["rotation"] + 1) % 4)
        )
        page.focus('.sr-btns [data-ui="right"]')
        page.keyboard.press(" ")
        expect(page.locator(".sr-pick")).to_have_attribute("data-column", str(before["column"] + 1))
        page.wait_for_timeout(300)
        assert my_count(page) == 0  # nothing was dropped
        # How to play open: the game takes no keys, and Tab stays in the panel.
        page.click("#how-to-play")
        expect(page.locator("#help-close")).to_be_focused()
        shown = pick(page)
        for key in ("ArrowDown", "c", "y"):
            page.keyboard.press(key)
        page.wait_for_timeout(300)
        assert pick(page)["treasure"] == shown["treasure"] and my_count(page) == 0
        expect(page.locator(".sr-close")).to_have_count(1)  # the lid is still open
        for _ in range(6):
            page.keyboard.press("Tab")
            inside = page.evaluate(
                "document.getElementById('help').contains(document.activeElement)"
            )
            assert inside
        page.keyboard.press("Escape")
        expect(page.locator("#help")).to_have_count(0)
        page.focus(".sr-close")
        page.keyboard.press("Enter")  # the button itself: the lid closes, nothing drops
        expect(page.locator(".sr-close")).to_have_count(0)
        assert my_count(page) == 0
        assert errors == []
    finally:
        page.close()


def test_a_screen_reader_hears_the_chests_and_the_hourglass(server: str, browser: Browser) -> None:
    """The chest is one picture: its name says the lid, the treasures and how high each
    column is filled. The hourglass is a timer (read when asked), and a packing player is
    told once when ten seconds of sand are left."""
    seats = [{"kind": "human", "name": "Zoe"}, {"kind": "human", "name": "Max"}]
    made = create(server, seats, hourglass_seconds=12, hand_ms=0)
    page = browser.new_page(viewport={"width": 1400, "height": 1050})
    pages = [page]
    errors = watch_errors(page)
    try:
        page.goto(made["seats"][0]["invite"])
        mine = page.locator(".sr-chest.me svg[role='img']")
        empty = re.compile(
            r"^your chest, lid open; 0 treasures; columns filled to (0, )+0 \(the rim at \d+\)$"
        )
        expect(mine).to_have_attribute("aria-label", empty)
        other = page.locator(".sr-other svg[role='img']")
        expect(other).to_have_attribute(
            "aria-label", re.compile(r"^a chest, lid open; 0 treasures; ")
        )
        expect(page.get_by_role("timer", name="Hourglass:", exact=True)).to_have_count(1)

        landed = drop_by_keyboard(page, [], "Enter")
        placed = cells(
            page.locator(f'.sr-chest.me [data-treasure="{landed}"]').get_attribute("data-cells")
        )
        label = mine.get_attribute("aria-label") or ""
        found = re.fullmatch(
            r"your chest, lid open; 1 treasure; columns filled to ([\d, ]+) \(the rim at \d+\)",
            label,
        )
        assert found, label
        heights = [int(h) for h in found.group(1).split(", ")]
        assert heights == [
            max((y + 1 for x, y in placed if x == column), default=0)
            for column in range(len(heights))
        ]
        page.evaluate(
            """() => {
              const region = document.getElementById('announce');
              window.said = [];
              new MutationObserver(() => window.said.push(region.textContent))
                .observe(region, {childList: true, characterData: true, subtree: true});
            }"""
        )

        # Max comes (the game's clock waits for every player) and closes his lid: the hourglass
        # runs (12 s); at 10 s left Zoe is told, once.
        max_page = browser.new_page()
        pages.append(max_page)
        max_page.goto(made["seats"][1]["invite"])
        expect(max_page.locator(".sr-chest.me")).to_have_count(1)
        max_page.keyboard.press("c")
        expect(other).to_have_attribute(
            "aria-label", re.compile(r"^a chest, lid closed; 0 treasures; ")
        )
        page.wait_for_function(
            "() => window.said.some(text => text.includes('seconds left on the hourglass'))",
            timeout=8_000,
        )
        page.wait_for_timeout(1_500)  # (the countdown goes on: nothing more is said of it)
        said = [text for text in page.evaluate("window.said") if "seconds left" in text]
        assert len(said) == 1, said
        left = re.search(r"(\d+) seconds left on the hourglass", said[0])
        assert left and 1 <= int(left.group(1)) <= 10, said
        assert errors == []
    finally:
        for each in pages:
            each.close()
