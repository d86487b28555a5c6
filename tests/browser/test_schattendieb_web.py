"""Der Schattendieb in a real Chromium: a whole game by clicking, and two humans at one table."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, Page, expect

import thievery
from tests.browser.pages import watch_errors
from thievery.core import GameRecord, Rng

pytestmark = pytest.mark.browser


def hand(page: Page) -> list[str]:
    """The card ids in the hand the page shows."""
    return page.locator(".sd-hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")


def test_play_a_whole_game_against_three_bots(server: str, browser: Browser, output: Path) -> None:
    # This test clicks legal moves to the end: each step's outcome is drawn at once, not
    # told step by step (test_motion_web tells a round; told, a game took 9-22 s, not 6-8).
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, reduced_motion="reduce")
    errors = watch_errors(page)
    page.goto(server + "/")
    expect(page.locator("#seat-rows .seat-row")).to_have_count(4)
    expect(page.locator("#game")).to_have_value("schattendieb")
    page.fill("#opt-games", "1")
    page.click("#create")
    expect(page.locator("#created .invite")).to_have_count(1)  # one human seat, 3 bots
    page.click("#sit")
    page.wait_for_url(re.compile(r"/table/"))
    expect(page.locator(".sd-seat")).to_have_count(4)
    expect(page.locator("#who")).to_have_text("you are Seat 1")

    clicks = 0
    shot = False
    deadline = time.time() + 120
    while not page.locator("#result").is_visible():
        assert time.time() < deadline, "the game did not end"
        target = page.locator("#game [data-action]").first
        if target.count() == 0:
            page.wait_for_timeout(30)
            continue
        if not shot and clicks >= 3 and page.locator(".sd-strip").count():
            page.screenshot(path=str(output / "schattendieb-table.png"))
            shot = True
        try:
            target.click(timeout=1000)
            clicks += 1
        except Exception:  # the table moved on under the pointer: look again
            continue
    # The server deals with a random seed and a one-game match can end within a few
    # rounds, so the count of clicks varies; the human must have acted at least once.
    assert clicks >= 1
    result = page.locator("#result")
    expect(result.locator("tr")).to_have_count(4)
    expect(result).to_contain_text("Final scores")
    page.screenshot(path=str(output / "schattendieb-result.png"))
    # The end takes the focus (a screen reader reads who won), and its links are no buttons
    # inside links (each was reached, and read, twice).
    assert page.evaluate("document.activeElement.id") == "result-title"
    expect(result.locator("a button")).to_have_count(0)
    expect(result.locator("a.button")).to_have_count(2)
    assert (output / "schattendieb-table.png").exists() or shot is False
    table_url = page.url

    # The record and the replay viewer.
    table_id = table_url.rsplit("/", 1)[1]
    record = httpx2.get(f"{server}/api/tables/{table_id}/record").json()
    assert record["result"]["winners"]
    page.goto(f"{server}/replay/{table_id}")
    expect(page.locator(".sd-seat")).to_have_count(4)
    page.click("#last")
    expect(page.locator("#step")).to_contain_text("step")
    expect(page.locator(".sd-prompt")).to_contain_text("over")
    # Another perspective opens at the same moment of the game (its steps are fewer: it
    # kept the step number, and so showed another moment).
    everything = httpx2.get(f"{server}/api/tables/{table_id}/replay?perspective=all").json()
    spectator = httpx2.get(f"{server}/api/tables/{table_id}/replay?perspective=spectator")
    moments = [s["n"] for s in spectator.json()["steps"]]
    page.select_option("#perspective", "all")
    last = len(everything["steps"]) - 1
    expect(page.locator("#slider")).to_have_attribute("max", str(last))  # (it has come)
    middle = len(everything["steps"]) // 2
    page.locator("#slider").fill(str(middle))
    expect(page.locator("#slider")).to_have_value(str(middle))
    page.select_option("#perspective", "spectator")
    expect(page.locator("#slider")).to_have_attribute("max", str(len(moments) - 1))
    shown = max(i for i, n in enumerate(moments) if n <= everything["steps"][middle]["n"])
    expect(page.locator("#slider")).to_have_value(str(shown))
    page.select_option("#perspective", "0")
    page.click("#first")
    expect(page.locator(".sd-hand [data-card]")).to_have_count(4)
    # The slider, focused, moves one step an arrow (the page's keys moved it a second one).
    page.focus("#slider")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#slider")).to_have_value("1")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#slider")).to_have_value("2")
    expect(page.locator("#next")).to_have_attribute("aria-label", "next step")

    # Play again: a new table with the same seats; this browser keeps its seat.
    page.goto(table_url)
    page.locator("#result .again").click()
    page.wait_for_url(lambda url: url != table_url and "/table/" in url)
    expect(page.locator("#who")).to_have_text("you are Seat 1")
    expect(page.locator(".sd-hand [data-card]")).to_have_count(4)
    assert errors == []
    if not shot:
        page.screenshot(path=str(output / "schattendieb-table.png"))


def test_two_humans_through_invite_links_see_only_their_own_hands(
    server: str, browser: Browser, output: Path
) -> None:
    body: dict[str, Any] = {
        "game": "schattendieb",
        "options": {"games": 1},
        "seats": [
            {"kind": "human", "name": "Ada"},
            {"kind": "human", "name": "Bo"},
            {"kind": "bot", "bot": "heuristic"},
        ],
    }
    made = httpx2.post(f"{server}/api/tables", json=body).json()
    invites = [s["invite"] for s in made["seats"]]
    ada_ctx, bo_ctx = browser.new_context(), browser.new_context()
    try:
        ada, bo = ada_ctx.new_page(), bo_ctx.new_page()
        errors = watch_errors(ada) + watch_errors(bo)
        ada.goto(invites[0])
        bo.goto(invites[1])
        for page, name in ((ada, "Ada"), (bo, "Bo")):
            expect(page.locator("#who")).to_have_text(f"you are {name}")
            expect(page.locator(".sd-hand [data-card]")).to_have_count(4)
            assert "#token" not in page.url  # the token left the address bar
        ada_hand, bo_hand = hand(ada), hand(bo)
        assert not set(ada_hand) & set(bo_hand)
        assert not any(card in bo.content() for card in ada_hand)
        assert not any(card in ada.content() for card in bo_hand)

        # Ada plays; Bo sees only that she has chosen.
        played = ada_hand[0]
        ada.locator(f'.sd-hand [data-card="{played}"]').click()
        expect(ada.locator(".sd-seat.me .sealed")).to_have_count(1)
        expect(bo.locator('.sd-seat[data-seat="0"] .sd-badge')).to_have_text("✓ chosen")
        assert played not in bo.content()
        bo.screenshot(path=str(output / "schattendieb-two-humans.png"))

        # A reload resumes the seat where it was.
        ada.reload()
        expect(ada.locator("#who")).to_have_text("you are Ada")
        expect(ada.locator(".sd-seat.me .sealed")).to_have_count(1)
        assert errors == []
    finally:
        ada_ctx.close()
        bo_ctx.close()


def test_a_name_with_html_shows_as_text_in_the_log_and_the_replay(
    server: str, browser: Browser, tmp_path: Path
) -> None:
    evil = "<img src=x onerror=alert(1)>"
    body: dict[str, Any] = {
        "game": "schattendieb",
        "seats": [
            {"kind": "human", "name": "Ada"},
            {"kind": "bot", "bot": "heuristic", "name": evil},
            {"kind": "bot", "bot": "random"},
        ],
    }
    made = httpx2.post(f"{server}/api/tables", json=body).json()
    page = browser.new_page()
    errors = watch_errors(page)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(made["seats"][0]["invite"])
    log = page.locator("#log")
    expect(log).to_contain_text(f"{evil} chose a card")
    expect(log).to_contain_text("Seat 3 (Beginner) chose a card")
    page.locator("#game [data-action]").first.click()
    expect(log).to_contain_text("Revealed — you: ")
    expect(log).to_contain_text(f"; {evil}: ")
    assert page.locator("#log img").count() == 0

    # A record file naming its seats: the replay page names them too, as text.
    state = thievery.game("schattendieb").new(3, 2, {"games": 1})
    rng = Rng(2)
    while state.to_act:
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    record = tmp_path / "named.json"
    GameRecord.of(state, ["Ada", evil, "Cy"]).save(record)
    page.goto(f"{server}/replay")
    page.set_input_files("#file", str(record))
    expect(page.locator("#perspective option").nth(3)).to_have_text(evil)
    page.click("#last")
    expect(log).to_contain_text(evil)
    assert page.locator("img").count() == 0
    assert dialogs == [] and errors == []
    page.close()


RANDOM_BOT = {"kind": "bot", "bot": "random"}


def dealt(server: str, hands: list[list[str]], seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A one-game table whose seats are dealt ``hands`` (a scenario): the API's answer."""
    options = {"games": 1, "hands": hands}
    body = {"game": "schattendieb", "scenario": True, "seed": 7, "options": options, "seats": seats}
    made = httpx2.post(f"{server}/api/tables", json=body)
    assert made.status_code == 201, made.text
    answer: dict[str, Any] = made.json()
    return answer


def test_step_four_asks_every_seat_alike_and_nothing_to_add_is_one_click(
    server: str, browser: Browser, output: Path
) -> None:
    """Ada's Watch 3 and Bo's Ring 7 stay in front (no thieves, no tie possible with
    them); Ada holds no watch, Bo holds Ring 8. Both are asked, and each sees both
    seats "adding…"; Ada's only choice is one "Nothing to add" click."""
    hands = [
        ["watch-3a", "cufflink-4b", "cufflink-5b", "cufflink-6b"],
        ["ring-7a", "ring-8a", "cufflink-1b", "cufflink-2b"],
        ["brooch-5a", "brooch-1a", "brooch-2a", "close-12a"],
    ]
    seats = [
        {"kind": "human", "name": "Ada"},
        {"kind": "human", "name": "Bo"},
        {"kind": "bot", "bot": "heuristic"},
    ]
    made = dealt(server, hands, seats)
    invites = [s["invite"] for s in made["seats"]]
    ada_ctx, bo_ctx = browser.new_context(), browser.new_context()
    try:
        ada, bo = ada_ctx.new_page(), bo_ctx.new_page()
        errors = watch_errors(ada) + watch_errors(bo)
        ada.goto(invites[0])
        bo.goto(invites[1])
        ada.locator('.sd-hand [data-card="watch-3a"]').click()
        bo.locator('.sd-hand [data-card="ring-7a"]').click()
        for page in (ada, bo):
            expect(page.locator(".sd-prompt")).not_to_contain_text("Choose a card")
            for seat in (0, 1):
                badge = page.locator(f'.sd-seat[data-seat="{seat}"] .sd-badge')
                expect(badge).to_have_text("adding…")
        expect(ada.locator(".sd-prompt")).to_contain_text("you hold no Watch to add")
        expect(ada.locator("#game [data-action]")).to_have_count(1)
        expect(ada.locator(".sd-done button")).to_have_text("Nothing to add")
        expect(bo.locator(".sd-done button")).to_have_text("Done adding")
        expect(bo.locator('.sd-hand [data-card="ring-8a"].legal')).to_have_count(1)
        ada.screenshot(path=str(output / "schattendieb-nothing-to-add.png"))
        ada.locator(".sd-done button").click()
        expect(bo.locator('.sd-seat[data-seat="0"] .sd-badge')).to_have_text("✓ done")
        expect(bo.locator('.sd-seat[data-seat="1"] .sd-badge')).to_have_text("adding…")
        bo.locator(".sd-done button").click()
        expect(ada.locator(".sd-prompt")).to_contain_text("Choose a card")
        assert errors == []
    finally:
        ada_ctx.close()
        bo_ctx.close()


# Where each line of a card's name starts (the characters' rectangles, by a Range): the
# name, its line breaks (the index of each line's first character), and whether it stays
# inside its card.
NAME_LINES = """el => {
  const node = el.firstChild;
  const text = node.data;
  const starts = [];
  let top = null;
  for (let i = 0; i < text.length; i++) {
    const range = document.createRange();
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    // (the last of its boxes: the character after a break also spans the line's end)
    const rect = [...range.getClientRects()].pop();
    if (!rect?.width) continue; // (a soft hyphen where the line does not break)
    if (top !== null && rect.top > top + 2) starts.push(i);
    top = rect.top;
  }
  const card = el.closest(".sd-card").getBoundingClientRect();
  const name = el.getBoundingClientRect();
  return { text, starts, inside: name.left >= card.left && name.right <= card.right
    && el.scrollWidth <= el.clientWidth };
}"""


def test_long_german_card_names_break_with_a_hyphen_on_a_phone(
    server: str, browser: Browser, output: Path
) -> None:
    """ "Manschettenknopf" is wider than a card: it broke anywhere ("Manschettenk/nopf").
    Now a long name breaks where the word is made up, with a hyphen (a soft hyphen: the
    card's label and title keep the plain word)."""
    hands = [
        ["cufflink-4b", "thief-cufflink", "thief-brooch", "thief-shadow"],
        ["ring-7a", "ring-8a", "cufflink-1b", "cufflink-2b"],
        ["brooch-5a", "brooch-1a", "brooch-2a", "close-12a"],
    ]
    made = dealt(server, hands, [{"kind": "human", "name": "Ada"}] + [RANDOM_BOT] * 2)
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="de-DE", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(made["seats"][0]["invite"])
        cufflink = page.locator('.sd-hand [data-card="cufflink-4b"]')
        expect(cufflink).to_have_attribute("aria-label", "Manschettenknopf 4")
        names = page.locator(".sd-hand .sd-name")
        expect(names).to_have_count(4)
        broken = []
        for found in names.evaluate_all(f"els => els.map({NAME_LINES})"):
            text, starts = found["text"], found["starts"]
            assert found["inside"], found
            # every line but the first starts after a soft hyphen or a space
            assert all(text[i - 1] in "\u00ad " for i in starts), found
            broken += [text[i - 1] for i in starts]
        assert "\u00ad" in broken  # (Manschettenknopf does break: with a hyphen)
        cufflink.screenshot(path=str(output / "schattendieb-cufflink-phone.png"))
        assert errors == []
    finally:
        context.close()
