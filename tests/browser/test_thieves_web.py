"""Thieves! in a real Chromium: a whole game by clicking, and every kind of choice, stacked."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages import watch_errors

pytestmark = pytest.mark.browser

NAMES = ["Zoe", "Ann", "Bob", "Cy"]


def actions(page: Page, selector: str = "#game [data-action]") -> list[dict[str, Any]]:
    """The actions the page offers (as JSON) under ``selector``."""
    raw = page.locator(selector).evaluate_all("els => els.map(e => e.dataset.action)")
    return [json.loads(a) for a in raw]


def my_turn(page: Page) -> None:
    """Wait until the page asks us to play a card."""
    expect(page.locator(".tv-prompt.you")).to_contain_text("Your turn", timeout=15000)


def seat(page: Page, n: int) -> Any:
    return page.locator(f'.tv-seat[data-seat="{n}"]')


def test_play_a_whole_game_against_three_bots(server: str, browser: Browser, output: Path) -> None:
    # This test clicks legal moves to the end: the Alarms and raids are drawn at once, not
    # told step by step (test_motion_web tells them; told, a game took 16-24 s, not 5-7).
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, reduced_motion="reduce")
    errors = watch_errors(page)
    page.goto(server + "/")
    page.select_option("#game", "thieves")
    expect(page.locator("#seat-rows .seat-row")).to_have_count(4)
    page.click("#create")
    expect(page.locator("#created .invite")).to_have_count(1)  # one human seat, 3 bots
    page.click("#sit")
    page.wait_for_url(re.compile(r"/table/"))
    expect(page.locator(".tv-seat")).to_have_count(4)
    expect(page.locator("#who")).to_have_text("you are Seat 1")
    expect(page.locator(".tv-getaways")).to_contain_text("Getaway cars")

    rng = random.Random(7)
    clicks = picks = 0
    shot = False
    offered: set[str] = set()
    deadline = time.time() + 150
    while not page.locator("#result").is_visible():
        assert time.time() < deadline, "the game did not end"
        acts = page.locator("#game [data-action]")
        choices = page.locator('#game [data-pick]:not([data-pick*="clear"])')
        try:
            if acts.count():
                # Everything offered is one of the legal actions, in its exact JSON shape.
                for a in actions(page):
                    offered.add(a["type"])
                    assert set(a) in (
                        {"type", "card", "to"},
                        {"type", "card"},
                        {"type", "from", "slot", "to"},
                        {"type"},  # declining the Thief's move (rules version 2)
                    )
                if not shot and page.locator(".tv-seat .tv-row .tv-card").count() >= 20:
                    page.screenshot(path=str(output / "thieves-table.png"))
                    shot = True
                acts.nth(rng.randrange(acts.count())).click(timeout=1000)
                clicks += 1
            elif choices.count():
                choices.nth(rng.randrange(choices.count())).click(timeout=1000)
                picks += 1
            else:
                page.wait_for_timeout(30)
        except Exception:  # the table moved on under the pointer: look again
            continue
    assert clicks >= 1 and picks >= 1  # games run from a handful of turns to dozens
    assert "play" in offered
    result = page.locator("#result")
    expect(result.locator("tr")).to_have_count(4)
    expect(result).to_contain_text("Final scores")
    page.screenshot(path=str(output / "thieves-result.png"))
    # Under the overlay the table shows the end: every loot card face up, the winners marked.
    page.click("#close-result")
    expect(page.locator(".tv-prompt")).to_contain_text("game is over")
    expect(page.locator(".tv-lootrow .tv-back")).to_have_count(0)
    expect(page.locator(".tv-badge.win").first).to_be_visible()
    expect(page.locator(".tv-gcount")).to_have_text("7/7")
    page.screenshot(path=str(output / "thieves-over.png"), full_page=True)
    if not shot:
        page.screenshot(path=str(output / "thieves-table.png"))

    # The replay viewer draws it too, with everything shown.
    table_id = page.url.rsplit("/", 1)[1]
    record = httpx2.get(f"{server}/api/tables/{table_id}/record").json()
    assert record["result"]["winners"]
    page.goto(f"{server}/replay/{table_id}")
    expect(page.locator(".tv-seat")).to_have_count(4)
    page.click("#last")
    expect(page.locator(".tv-prompt")).to_contain_text("over")
    page.screenshot(path=str(output / "thieves-replay.png"), full_page=True)
    assert errors == []


# A stacked deal (seat 0 plays first): an Alarm brings out two bots' police; a Roadblock
# removes one; a Double Loot draws money, then a Thief; later money goes to a bot face up
# and the second 2-car police card calls a raid. The bots hold only money until then.
HANDS = [
    ["alarm-a", "roadblock-a", "double-loot-a"],
    ["police-1a", "money-1a", "money-1b"],
    ["police-2a", "money-1c", "money-1d"],
    ["money-1e", "money-1f", "money-1g"],
]
DECK_TOP = [
    "money-3a", "money-2b", "money-2c", "money-2d", "money-2e", "money-1h", "police-2b",
    "money-1i", "money-0b", "money-0c", "money-2a", "money-3b", "thief-a", "money-3c",
    "money-3d", "money-2f", "money-0a", "money-2g", "diamond-ring", "horseshoe",
]  # fmt: skip


def test_every_kind_of_choice_by_clicking(server: str, browser: Browser, output: Path) -> None:
    body: dict[str, Any] = {
        "game": "thieves",
        "scenario": True,  # a stacked deal
        "options": {"hands": HANDS, "deck_top": DECK_TOP, "first_player": 0},
        "seats": [{"kind": "human", "name": "Zoe"}]
        + [{"kind": "bot", "bot": "heuristic", "name": n} for n in NAMES[1:]],
    }
    made = httpx2.post(f"{server}/api/tables", json=body)
    assert made.status_code < 300, made.text
    table_id = made.json()["table"]["id"]
    invite = made.json()["seats"][0]["invite"]
    ctx_me, ctx_watch = (
        browser.new_context(viewport={"width": 1400, "height": 1000}),
        browser.new_context(),
    )
    try:
        page = ctx_me.new_page()
        errors = watch_errors(page)
        page.goto(invite)
        expect(page.locator("#who")).to_have_text("you are Zoe")
        my_turn(page)
        expect(page.locator(".tv-hand [data-card]")).to_have_count(4)
        assert actions(page) == []  # nothing is sent before a card is picked

        # Turn 1: the Alarm. Picking shows what it does; the button plays it.
        page.click('.tv-hand [data-card="alarm-a"]')
        expect(page.locator(".tv-act")).to_contain_text("Everyone puts all police cards")
        assert actions(page) == [{"type": "play", "card": "alarm-a"}] * 2  # the card and the button
        page.click(".tv-act button.primary")
        expect(page.locator(".tv-policebox > .tv-cards [data-card]")).to_have_count(2)
        expect(page.locator(".tv-cars")).to_have_text("3")
        expect(page.locator(".tv-meter .tv-pip.on")).to_have_count(3)

        # Turn 5: the Roadblock, then the police card it removes.
        my_turn(page)
        page.click('.tv-hand [data-card="roadblock-a"]')
        page.click('.tv-hand [data-card="roadblock-a"]')  # clicking the picked card plays it
        expect(page.locator(".tv-prompt")).to_contain_text("Roadblock")
        assert sorted(a["card"] for a in actions(page)) == ["police-1a", "police-2a"]
        assert all(a["type"] == "remove" for a in actions(page))
        page.click('.tv-policebox [data-card="police-1a"]')
        expect(page.locator(".tv-cars")).to_have_text("2")
        expect(page.locator(".tv-policebox > .tv-cards [data-card]")).to_have_count(1)

        # Turn 9: Double Loot draws money (kept face down), then a Thief (a move).
        my_turn(page)
        page.click('.tv-hand [data-card="double-loot-a"]')
        page.click(".tv-act button.primary")
        expect(page.locator('.tv-drawn [data-card="money-3b"]')).to_be_visible()
        offered = actions(page, ".tv-act [data-action]")
        assert sorted(a["to"] for a in offered) == [0, 1, 2, 3]
        assert all(a == {"type": "play", "card": "money-3b", "to": a["to"]} for a in offered)
        watcher = ctx_watch.new_page()
        watcher.goto(f"{server}/table/{table_id}?watch")
        expect(watcher.locator(".tv-seat")).to_have_count(4)
        page.click('.tv-act button:has-text("Keep it face down")')
        mine = seat(page, 0).locator('[data-card="money-3b"]')
        expect(mine).to_have_class(re.compile("known-down"))
        # A spectator sees a face-down card and nothing of its id.
        expect(watcher.locator('.tv-seat[data-seat="0"] .tv-lootrow .tv-back')).to_have_count(1)
        assert "money-3b" not in watcher.content()

        expect(page.locator(".tv-prompt")).to_contain_text("Thief: click a loot card")
        # The Thief's move is optional, also when Double Loot draws the Thief.
        decline = page.locator('.tv-act button:has-text("Don’t move anything")')
        expect(decline).to_be_visible()
        assert json.loads(decline.get_attribute("data-action") or "{}") == {"type": "pass"}
        source = page.locator("#game .tv-seat [data-pick]").first
        moved = source.get_attribute("data-card")
        pick = json.loads(source.get_attribute("data-pick") or "{}")
        source.click()
        expect(page.locator(".tv-drop")).to_have_count(3)  # every seat but the one it leaves
        expect(decline).to_be_visible()  # still one click away with a card picked
        expect(page.locator(".tv-prompt")).to_contain_text("Move here")
        to = next(s for s in (1, 2, 3, 0) if s != pick["from"])
        drop = seat(page, to).locator(".tv-drop")
        assert json.loads(drop.get_attribute("data-action") or "{}") == {
            "type": "move",
            "from": pick["from"],
            "slot": pick["slot"],
            "to": to,
        }
        page.screenshot(path=str(output / "thieves-thief.png"))
        drop.click()
        if moved:
            expect(seat(page, to).locator(f'[data-card="{moved}"]')).to_have_count(1)

        # Turn 13: money face up to a bot.
        my_turn(page)
        page.click('.tv-hand [data-card="money-3a"]')
        expect(page.locator(".tv-act button")).to_have_count(5)  # keep, give to 3, cancel
        page.click('.tv-act button:has-text("Give to Ann")')
        expect(seat(page, 1).locator('[data-card="money-3a"]')).to_have_count(1)
        expect(seat(page, 1).locator('[data-card="money-3a"]')).not_to_have_class(
            re.compile("known-down")
        )

        # Turn 17: the 4th car: a raid, shown to everyone.
        my_turn(page)
        page.click('.tv-hand [data-card="police-2b"]')
        page.click(".tv-act button.primary")
        for p in (page, watcher):
            box = p.locator(".tv-raidbox")
            expect(box).to_be_visible()
            expect(box).to_contain_text("Last police raid")
            expect(box.locator(".tv-rseat")).to_have_count(4)
            expect(box.locator(".tv-stamp").first).to_have_text("BUSTED")
        page.screenshot(path=str(output / "thieves-raid.png"), full_page=True)
        watcher.screenshot(path=str(output / "thieves-spectator.png"), full_page=True)
        assert errors == []
    finally:
        ctx_me.close()
        ctx_watch.close()


def money_then_a_thief(server: str) -> str:
    """Zoe's invite to a stacked 3-seat table (Ann and Bob are bots): she plays first and
    holds the 3 and a Thief; every other card dealt or drawn early is money."""
    body: dict[str, Any] = {
        "game": "thieves",
        "scenario": True,  # a stacked deal
        "options": {
            "hands": [
                ["money-3a", "thief-a", "money-0a"],
                ["money-1a", "money-1b", "money-1c"],
                ["money-1d", "money-1e", "money-1f"],
            ],
            "deck_top": ["money-2a", "money-2b", "money-2c", "money-0b", "money-2d", "money-2e"],
            "first_player": 0,
        },
        "seats": [{"kind": "human", "name": "Zoe"}]
        + [{"kind": "bot", "bot": "heuristic", "name": n} for n in NAMES[1:3]],
    }
    made = httpx2.post(f"{server}/api/tables", json=body)
    assert made.status_code < 300, made.text
    invite: str = made.json()["seats"][0]["invite"]
    return invite


def test_declining_the_thiefs_move_by_clicking(server: str, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = watch_errors(page)
    page.goto(money_then_a_thief(server))
    my_turn(page)
    page.click('.tv-hand [data-card="money-3a"]')
    page.click('.tv-act button:has-text("Keep it face down")')
    my_turn(page)
    page.click('.tv-hand [data-card="thief-a"]')
    page.click('.tv-hand [data-card="thief-a"]')  # clicking the picked card plays it
    expect(page.locator(".tv-prompt")).to_contain_text("or don’t move anything")
    decline = page.locator('.tv-act button:has-text("Don’t move anything")')
    assert actions(page, ".tv-act [data-action]") == [{"type": "pass"}]
    decline.click()
    expect(page.locator("#log")).to_contain_text("You declined the Thief's move: nothing moved")
    expect(page.locator(".tv-prompt")).not_to_contain_text("Thief")
    # Nothing moved: the 3 still lies face down in front of Zoe, and no move is logged.
    expect(seat(page, 0).locator('[data-card="money-3a"]')).to_have_class(re.compile("known-down"))
    assert " moved Money" not in page.locator("#log").inner_text()
    assert errors == []


# The drop buttons' names by language: (the pick's button, whose panel it is in).
DROP_NAMES: dict[str, dict[Any, Any]] = {
    "en": {
        0: "Keep face down — your loot",
        1: "Give here face up — Ann’s loot",
        2: "Give here face up — Bob’s loot",
        "move": ["Move here — your loot", "Move here — Bob’s loot"],
        "thief": ["Thief: move", "from Ann"],
        "yourself": "To yourself",
        "to_bob": "To Bob",
    },
    "de": {
        0: "Verdeckt behalten — deine Beute",
        1: "Offen hierher geben — Beute von Ann",
        2: "Offen hierher geben — Beute von Bob",
        "move": ["Hierher verschieben — deine Beute", "Hierher verschieben — Beute von Bob"],
        "thief": ["Dieb:", "von Ann verschieben"],
        "yourself": "An dich",
        "to_bob": "An Bob",
    },
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_drop_buttons_name_whose_loot_they_go_to(
    server: str, browser: Browser, lang: str
) -> None:
    """Each seat's "Give here face up" button (one per other seat) read the same to a
    screen reader: its name says whose panel it is in, as the Thief's "Move here" does."""
    names = DROP_NAMES[lang]
    context = browser.new_context(
        viewport={"width": 1400, "height": 1000}, locale="de-DE" if lang == "de" else "en-GB"
    )
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(money_then_a_thief(server))
        expect(page.locator(".tv-prompt.you")).to_be_visible(timeout=15000)
        page.click('.tv-hand [data-card="money-3a"]')
        expect(page.locator(".tv-drop")).to_have_count(3)
        for s in (0, 1, 2):
            expect(seat(page, s).locator(".tv-drop")).to_have_accessible_name(names[s])
        seat(page, 1).locator(".tv-drop").click()  # face up to Ann
        expect(seat(page, 1).locator('[data-card="money-3a"]')).to_have_count(1)

        # The Thief takes it on: "Move here" on Zoe's and Bob's panels.
        expect(page.locator(".tv-prompt.you")).to_be_visible(timeout=15000)
        page.click('.tv-hand [data-card="thief-a"]')
        page.click('.tv-hand [data-card="thief-a"]')  # clicking the picked card plays it
        seat(page, 1).locator('[data-card="money-3a"]').click()
        expect(page.locator(".tv-drop")).to_have_count(2)
        for s, name in zip((0, 2), names["move"], strict=True):
            expect(seat(page, s).locator(".tv-drop")).to_have_accessible_name(name)
        # The prompt and its buttons in the page's language (German said "An du").
        act = page.locator(".tv-act")
        expect(act.locator("b").first).to_contain_text(names["thief"][0])
        expect(act.locator("b").first).to_contain_text(names["thief"][1])
        expect(act.locator("button", has_text=names["yourself"])).to_have_count(1)
        expect(act.locator("button", has_text=names["to_bob"])).to_have_count(1)
        missing = page.evaluate("async () => [...(await import('/static/js/i18n.js')).missing]")
        assert missing == [] and errors == []
    finally:
        context.close()
