"""See what happened, in a real Chromium: a frame's chained effects told step by step
(motion.js), a Thieves! Alarm that sets off a raid on a stacked deal played through the
HTTP API: the Alarm, each police car, the loot turned over, the busted loot gone; skipping;
reduced motion showing the final board at once; nothing secret shown to another seat on the
way; the live region saying the steps."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import httpx2
import pytest
from playwright.sync_api import Browser, Page, expect

import thievery
from tests.browser.conftest import SeatLinks, seat_key
from tests.browser.pages import watch_errors

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1400, "height": 1000}
PHONE = {"width": 390, "height": 844}
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"

# Ada keeps 3 face down, Bob keeps 1 face down, Cleo plays the Alarm: her 2 cars, Ada's
# car (3), Bob's car (4: a raid, called by Bob); Ada's loot is the richest (3): busted.
HANDS = [
    ["money-3a", "police-1a", "money-0a"],
    ["money-1a", "police-1b", "money-0b"],
    ["alarm-a", "police-2a", "money-0c"],
]
DECK_TOP = ["money-2a", "money-2b", "money-2c", "money-1b", "money-1c"]
# Cards that stay in a hand the whole test: nobody else may ever see them.
SECRET_HANDS = {
    0: {"money-0a", "money-2a"},
    1: {"money-0b", "money-2b"},
    2: {"money-0c", "money-2c"},
}
# Face-down loot: only its owner sees it until the raid turns it over.
FACE_DOWN = {0: "money-3a", 1: "money-1a"}

# Everything #game shows, on every change: the step told (if any), the cards drawn, the
# police in play and the car count (Thieves!), each seat's cards in front and in its safe
# (Der Schattendieb).
RECORD = """() => {
  const game = document.getElementById("game");
  const ids = (els) => [...els].map((e) => e.dataset.card);
  window.seen = [];
  const note = () => {
    const bar = game.querySelector(".narration");
    const seats = {};
    for (const seat of game.querySelectorAll(".sd-seat")) {
      seats[seat.dataset.seat] = {
        safe: ids(seat.querySelectorAll(".sd-safe [data-card]")),
        front: ids(seat.querySelectorAll(".sd-row:not(:has(.sd-safe)) [data-card]")),
        closed: seat.classList.contains("closed"),
      };
    }
    window.seen.push({
      at: performance.now(),
      narrating: game.dataset.narrating === "true",
      step: game.dataset.step || null,
      text: bar ? bar.querySelector(".narr-text")?.textContent || "" : null,
      count: bar ? bar.querySelector(".narr-count")?.textContent || "" : null,
      police: ids(game.querySelectorAll(".tv-policebox > .tv-cards [data-card]")),
      cars: game.querySelector(".tv-cars")?.textContent ?? null,
      seats,
      html: game.innerHTML,
    });
  };
  new MutationObserver(note).observe(game, {
    childList: true, subtree: true, attributes: true,
    attributeFilter: ["data-narrating", "data-step"],
  });
}"""

HEAR = """() => {
  const region = document.getElementById("announce");
  window.heard = [];
  new MutationObserver(() => { if (region.textContent) window.heard.push(region.textContent); })
    .observe(region, { childList: true, characterData: true, subtree: true });
}"""


OPTIONS = {"hands": HANDS, "deck_top": DECK_TOP, "first_player": 0}
ACTIONS = [
    (0, {"type": "play", "card": "money-3a", "to": 0}),
    (1, {"type": "play", "card": "money-1a", "to": 1}),
    (2, {"type": "play", "card": "alarm-a"}),
]


def quiet_seed() -> int:
    """A seed whose raid shuffle gives Ada no getaway car next (so the Alarm's story is its
    six steps), found by playing the stacked game with the engine."""
    for seed in range(100):
        state = thievery.game("thieves").new(3, seed, OPTIONS)
        events = [e for seat, action in ACTIONS for e in state.apply(seat, action)]
        if not any(e.type == "getaway" for e in events):
            return seed
    raise AssertionError("no seed without a getaway car")


class Table(SeatLinks):
    """A stacked three-seat Thieves! table, all seats human, moved through the HTTP API."""

    def __init__(self, server: str) -> None:
        body: dict[str, Any] = {
            "game": "thieves",
            "scenario": True,  # a stacked deal
            "seed": quiet_seed(),
            "options": OPTIONS,
            "seats": [{"kind": "human", "name": n} for n in ("Ada", "Bob", "Cleo")],
        }
        made = httpx2.post(f"{server}/api/tables", json=body)
        assert made.status_code == 201, made.text
        self.server = server
        self.id = made.json()["table"]["id"]
        super().__init__(made.json()["seats"])

    def act(self, seat: int, action: dict[str, Any]) -> None:
        response = httpx2.post(
            f"{self.server}/api/tables/{self.id}/actions",
            json={"action": action},
            headers={"Authorization": f"Bearer {self.key(seat)}"},
        )
        assert response.status_code == 200, response.text

    def up_to_the_alarm(self) -> None:
        """Turns 1 and 2: Ada and Bob keep money face down."""
        for seat, action in ACTIONS[:2]:
            self.act(seat, action)

    def alarm(self) -> None:
        """Turn 3: Cleo's Alarm."""
        self.act(*ACTIONS[2])


def open_seat(
    browser: Browser,
    table: Table,
    seat: int,
    motion: Literal["no-preference", "reduce"] = "no-preference",
    locale: str = "en-GB",
    viewport: dict[str, int] = DESKTOP,
) -> Page:
    context = browser.new_context(viewport=viewport, locale=locale, reduced_motion=motion)
    page = context.new_page()
    page.goto(table.invites[seat])
    expect(page.locator(".tv-seat")).to_have_count(3)
    table.tokens[seat] = seat_key(page, table.invites[seat])  # (its invite is used now)
    return page


def before_the_alarm(browser: Browser, table: Table, **how: Any) -> Page:
    """Ada's page (opened ``how``), turns 1 and 2 played and drawn, recording #game."""
    ada = open_seat(browser, table, 0, **how)
    table.up_to_the_alarm()
    expect(ada.locator('.tv-seat[data-seat="1"] .tv-lootrow .tv-back')).to_have_count(1)
    ada.wait_for_timeout(200)  # the last frame drawn
    ada.evaluate(RECORD)
    return ada


def on_the_tests_clock(page: Page) -> None:
    """From now on the page's timers (a story's steps among them) wait on the test's clock
    (Playwright's), paused: a story moves on only as :func:`run_story` runs it, so what a
    test sees of it, and how long each step stays, does not hang on the machine's load."""
    page.clock.install()
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)


def run_story(page: Page, tick_ms: int = 100) -> None:
    """Once the page has begun a story (on the test's clock): its clock run, ``tick_ms`` at
    a time, until the story has ended. (The steps' times are whole multiples of the tick:
    each step is seen at the very moment its timer is due.)"""
    expect(page.locator("#game[data-narrating]")).to_have_count(1, timeout=10_000)
    for _ in range(1000):
        page.clock.run_for(tick_ms)
        if not page.evaluate("'narrating' in document.getElementById('game').dataset"):
            return
    raise AssertionError("the story did not end")


def held_ms(page: Page, steps: list[dict[str, Any]]) -> list[float]:
    """How long each step told stayed on show, by the page's clock (to the story's end)."""
    seen: list[dict[str, Any]] = page.evaluate("window.seen")
    last = max(i for i, s in enumerate(seen) if s["count"] == steps[-1]["count"] and s["narrating"])
    end = next(s["at"] for s in seen[last:] if not s["narrating"])
    return [b["at"] - a["at"] for a, b in zip(steps, [*steps[1:], {"at": end}], strict=True)]


def told(page: Page) -> list[dict[str, Any]]:
    """The steps told, once each, in order: [{text, police, cars, step}]."""
    seen: list[dict[str, Any]] = page.evaluate("window.seen")
    steps: list[dict[str, Any]] = []
    for s in seen:
        if s["narrating"] and s["text"] and (not steps or steps[-1]["count"] != s["count"]):
            steps.append(s)
    return steps


def test_an_alarm_and_its_raid_are_told_car_by_car(server: str, browser: Browser) -> None:
    table = Table(server)
    ada = open_seat(browser, table, 0)
    bob = open_seat(browser, table, 1)
    errors = [watch_errors(ada), watch_errors(bob)]  # (each page's list, filled as it goes)
    try:
        table.up_to_the_alarm()
        expect(ada.locator(".tv-seat")).to_have_count(3)
        expect(ada.locator("#log")).to_contain_text("Bob put a money card face down")
        expect(bob.locator("#log")).to_contain_text("Cleo's turn")
        for page in (ada, bob):
            page.wait_for_timeout(200)  # the last frame drawn
            page.evaluate(RECORD)
            page.evaluate(HEAR)
            on_the_tests_clock(page)
        table.alarm()
        for page in (ada, bob):
            run_story(page)

        steps = told(ada)
        texts = [s["text"] for s in steps]
        assert len(steps) == 6, [(s["count"], s["text"]) for s in steps]
        assert "Cleo" in texts[0] and "Alarm" in texts[0]
        # The police cars arrive one by one, in seat order from Cleo: the board catches up.
        assert [s["police"] for s in steps[1:4]] == [
            ["police-2a"],
            ["police-2a", "police-1a"],
            ["police-2a", "police-1a", "police-1b"],
        ]
        assert [s["cars"] for s in steps[1:4]] == ["2", "3", "4"]
        assert "Cleo" in texts[1] and "You" in texts[2] and "Bob" in texts[3]
        # Then the raid: the loot turned over (the cars still there), then the busted loot gone.
        assert steps[4]["step"] == "raid" and "raid" in texts[4].lower()
        assert steps[4]["police"] == ["police-2a", "police-1a", "police-1b"]
        assert steps[5]["step"] == "busted" and "Busted" in texts[5] and steps[5]["police"] == []
        assert [s["count"] for s in steps] == [f"{i}/6" for i in range(1, 7)]
        # Each step stays 0.7 s (by the page's clock: the test's).
        held = held_ms(ada, steps)
        assert held == [700] * 6, held
        # The final board: no police, Ada's loot gone, Bob's face-down card seen by all.
        expect(ada.locator(".tv-policebox > .tv-cards [data-card]")).to_have_count(0)
        expect(ada.locator('.tv-seat.me .tv-lootrow [data-card="money-3a"]')).to_have_count(0)
        bobs = ada.locator('.tv-seat[data-seat="1"] .tv-lootrow [data-card="money-1a"]')
        expect(bobs).to_have_count(1)
        expect(ada.locator(".tv-prompt.you")).to_contain_text("Your turn")
        # Each step was said politely, in order, once the page's own lines were held back.
        heard = " ".join(ada.evaluate("window.heard"))
        places = [heard.find(t) for t in texts]
        assert -1 not in places and places == sorted(places), (texts, heard)
        # Bob's page told the same story from his seat.
        assert [s["police"] for s in told(bob)[1:4]] == [s["police"] for s in steps[1:4]]
        assert errors == [[], []]
    finally:
        ada.context.close()
        bob.context.close()


def test_nothing_secret_is_shown_on_the_way(server: str, browser: Browser) -> None:
    """Each seat, and a spectator, is told the Alarm: no card of another's hand ever shows,
    nor another's face-down loot before the raid turns it over."""
    table = Table(server)
    pages: list[tuple[int | None, Page]] = [(s, open_seat(browser, table, s)) for s in range(3)]
    watcher = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    watcher.goto(f"{server}/table/{table.id}?watch")
    expect(watcher.locator(".tv-seat")).to_have_count(3)
    pages.append((None, watcher))
    try:
        for _, page in pages:
            page.evaluate(RECORD)
            on_the_tests_clock(page)
        table.up_to_the_alarm()
        table.alarm()
        for _, page in pages:
            run_story(page)
        for seat, page in pages:
            seen: list[dict[str, Any]] = page.evaluate("window.seen")
            assert any(s["narrating"] for s in seen)
            others = set().union(*(cards for s, cards in SECRET_HANDS.items() if s != seat))
            for snapshot in seen:
                shown = {c for c in others if f'"{c}"' in snapshot["html"]}
                assert not shown, f"seat {seat} saw {shown} in another seat's hand"
            # Another seat's face-down loot stays hidden until the raid turns it over.
            before_raid = []
            for snapshot in seen:
                if snapshot["step"] in ("raid", "busted"):
                    break
                before_raid.append(snapshot)
            assert before_raid and any(s["narrating"] for s in before_raid)
            for owner, card in FACE_DOWN.items():
                if owner == seat:
                    continue
                assert not any(f'"{card}"' in s["html"] for s in before_raid), (seat, card)
        # Ada kept hers face down and sees it (the raid later busts it).
        first = pages[0][1].evaluate("window.seen")[0]["html"]
        assert 'data-card="money-3a"' in first
    finally:
        for _, page in pages:
            page.context.close()


def test_reduced_motion_shows_the_final_board_at_once(server: str, browser: Browser) -> None:
    table = Table(server)
    ada = before_the_alarm(browser, table, motion="reduce")
    errors = watch_errors(ada)
    try:
        ada.evaluate(
            """() => { window.glides = 0; const o = Element.prototype.animate;
              Element.prototype.animate = function (...a) {
                window.glides++; return o.apply(this, a); }; }"""
        )
        on_the_tests_clock(ada)  # its timers stand still: a story told would not end
        table.alarm()
        expect(ada.locator(".tv-prompt.you")).to_contain_text("Your turn")
        seen: list[dict[str, Any]] = ada.evaluate("window.seen")
        assert seen and not any(s["narrating"] or s["text"] is not None for s in seen)
        # The first change is already the final board: no police, Ada's loot gone.
        assert all(s["police"] == [] for s in seen)
        assert ada.evaluate("window.glides") == 0
        expect(ada.locator("#log")).to_contain_text("Busted")
        assert errors == []
    finally:
        ada.context.close()


@pytest.mark.parametrize("how", ["click", "Escape"])
def test_the_story_can_be_skipped(server: str, browser: Browser, how: str) -> None:
    table = Table(server)
    ada = before_the_alarm(browser, table)
    errors = watch_errors(ada)
    try:
        on_the_tests_clock(ada)  # the story cannot end by itself
        table.alarm()
        expect(ada.locator("#game[data-narrating]")).to_have_count(1)
        expect(ada.locator(".narration .narr-count")).to_have_text("1/6")
        if how == "click":
            ada.click(".narration .narr-skip")
        else:
            ada.keyboard.press("Escape")
        # At once (the page's clock stands still) the final board, with the player's choices.
        expect(ada.locator("#game[data-narrating]")).to_have_count(0)
        expect(ada.locator(".tv-prompt.you")).to_contain_text("Your turn")
        expect(ada.locator(".tv-policebox > .tv-cards [data-card]")).to_have_count(0)
        counts = {s["count"] for s in ada.evaluate("window.seen") if s["narrating"]}
        assert "6/6" not in counts
        # The skipped steps are not lost: the log has them all.
        expect(ada.locator("#log")).to_contain_text("Busted")
        # The click that skipped sent nothing: the hand still waits for a card.
        assert ada.locator(".tv-hand [data-card]").count() == 4
        assert errors == []
    finally:
        ada.context.close()


def test_the_page_can_end_a_story_at_once(server: str, browser: Browser) -> None:
    """What the table page does when the player closes the game's result to look at the
    table (``endStory``): the story on show ends, and the board is the newest at once."""
    table = Table(server)
    ada = before_the_alarm(browser, table)
    errors = watch_errors(ada)
    try:
        on_the_tests_clock(ada)  # the story cannot end by itself
        table.alarm()
        expect(ada.locator("#game[data-narrating]")).to_have_count(1)
        ada.evaluate(
            """import("/static/js/motion.js")
                 .then((m) => m.endStory(document.getElementById("game")))"""
        )
        expect(ada.locator("#game[data-narrating]")).to_have_count(0)
        expect(ada.locator(".tv-prompt.you")).to_contain_text("Your turn")
        expect(ada.locator(".tv-policebox > .tv-cards [data-card]")).to_have_count(0)
        assert "6/6" not in {s["count"] for s in ada.evaluate("window.seen") if s["narrating"]}
        assert errors == []
    finally:
        ada.context.close()


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_raid_told_on_desktop_and_phone_in_both_languages(
    server: str, browser: Browser, lang: str, size: str
) -> None:
    """A screenshot of the raid being told (test-output/screenshots), and its words in the
    page's language; the bar fits the phone."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    table = Table(server)
    viewport = PHONE if size == "phone" else DESKTOP
    locale = "de-DE" if lang == "de" else "en-GB"
    ada = before_the_alarm(browser, table, locale=locale, viewport=viewport)
    errors = watch_errors(ada)
    try:
        on_the_tests_clock(ada)  # so that the shot catches the raid
        table.alarm()
        expect(ada.locator(".narration .narr-count")).to_have_text("1/6")
        for _ in range(4):
            ada.clock.run_for(800)
        expect(ada.locator("#game[data-step=raid]")).to_have_count(1)
        bar = ada.locator(".narration")
        skip = "Überspringen »" if lang == "de" else "Skip »"
        expect(bar.locator(".narr-skip")).to_have_text(skip)
        expect(bar.locator(".narr-text")).to_contain_text("Razzia" if lang == "de" else "raid")
        box = bar.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        ada.screenshot(
            path=str(SHOTS / f"thieves-{size}-raid-told-{lang}.png"), animations="disabled"
        )
        run_story(ada)
        if lang == "de":
            texts = [s["text"] for s in told(ada)]
            assert "Alarm" in texts[0] and "Polizei" in texts[1] and "Geschnappt" in texts[5], texts
            missing = ada.evaluate("async () => [...(await import('/static/js/i18n.js')).missing]")
            assert missing == []
        assert errors == []
    finally:
        ada.context.close()


# Der Schattendieb, four seats. Round 1: Bo's Brooch 7 and Cy's Cufflink 7 tie, Dee's Ring
# Thief takes Ada's Ring 3 (the only ring). Round 2: Ada's Watch 5 and Bo's Brooch 9 stay in
# front, Bo adds Brooch 8; Cy's Close Safe 4 fails (an empty safe), Dee's Close Safe 5 closes.
SD_HANDS = [
    ["ring-3a", "watch-5a", "watch-6a", "cufflink-1a"],
    ["brooch-7a", "brooch-9a", "brooch-8a", "cufflink-2a"],
    ["cufflink-7a", "close-4a", "cufflink-3a", "cufflink-4a"],
    ["thief-ring", "close-5a", "cufflink-5a", "cufflink-6a"],
]


class SdTable(SeatLinks):
    """A one-game Der Schattendieb table of four people with stacked ``hands``, moved
    through the HTTP API."""

    def __init__(self, server: str, hands: list[list[str]]) -> None:
        body: dict[str, Any] = {
            "game": "schattendieb",
            "scenario": True,
            "seed": 3,
            "options": {"games": 1, "hands": hands},
            "seats": [{"kind": "human", "name": n} for n in ("Ada", "Bo", "Cy", "Dee")],
        }
        made = httpx2.post(f"{server}/api/tables", json=body)
        assert made.status_code == 201, made.text
        self.url = f"{server}/api/tables/{made.json()['table']['id']}/actions"
        super().__init__(made.json()["seats"])

    def act(self, seat: int, action: dict[str, Any]) -> None:
        response = httpx2.post(
            self.url, json={"action": action}, headers={"Authorization": f"Bearer {self.key(seat)}"}
        )
        assert response.status_code == 200, response.text

    def open_ada(self, browser: Browser) -> tuple[Page, list[str]]:
        """Ada's page (a context of its own: close it), drawn, and its JavaScript errors."""
        ada = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
        errors = watch_errors(ada)
        ada.goto(self.invites[0])
        expect(ada.locator(".sd-seat")).to_have_count(4)
        self.tokens[0] = seat_key(ada, self.invites[0])
        ada.wait_for_timeout(200)
        return ada, errors


def test_a_round_of_der_schattendieb_is_told_step_by_step(server: str, browser: Browser) -> None:
    seats = SdTable(server, SD_HANDS)
    act = seats.act
    ada, errors = seats.open_ada(browser)
    try:
        ada.evaluate(RECORD)
        on_the_tests_clock(ada)
        for seat, card in enumerate(["ring-3a", "brooch-7a", "cufflink-7a", "thief-ring"]):
            act(seat, {"type": "play", "card": card})
        run_story(ada)
        steps = told(ada)
        assert [s["step"] for s in steps] == ["reveal", "tie", "steal"], steps
        assert "Revealed" in steps[0]["text"] and "Tie" in steps[1]["text"]
        assert "Ring 3" in steps[2]["text"]
        # The board catches up: the tied pair in front, then gone; the ring into Dee's safe.
        at = [s["seats"] for s in steps]
        assert "brooch-7a" in at[0]["1"]["front"] and "cufflink-7a" in at[0]["2"]["front"]
        assert "brooch-7a" not in at[1]["1"]["front"] and "ring-3a" in at[1]["0"]["front"]
        assert at[2]["3"]["safe"] == ["ring-3a"] and "ring-3a" not in at[2]["0"]["front"]

        ada.evaluate(RECORD)
        for seat, card in enumerate(["watch-5a", "brooch-9a", "close-4a", "close-5a"]):
            act(seat, {"type": "play", "card": card})
        expect(ada.locator(".sd-done button")).to_have_text("Done adding")
        act(1, {"type": "add", "card": "brooch-8a"})
        act(1, {"type": "done"})
        ada.evaluate(RECORD)  # (the steps wait on the test's clock: a shot of the safes filled)
        ada.locator(".sd-done button").click()
        expect(ada.locator("#game[data-step=add]")).to_have_count(1)
        ada.clock.run_for(800)
        expect(ada.locator("#game[data-step=fill]")).to_have_count(1)
        SHOTS.mkdir(parents=True, exist_ok=True)
        shot = SHOTS / "schattendieb-desktop-safes-filled-told-en.png"
        ada.screenshot(path=str(shot), animations="disabled")
        run_story(ada)
        steps = told(ada)
        assert [s["step"] for s in steps] == ["add", "fill", "close", "close"], steps
        at = [s["seats"] for s in steps]
        assert at[0]["1"]["front"] == ["brooch-9a", "brooch-8a"]
        assert at[1]["0"]["safe"] == ["watch-5a"] and at[1]["0"]["front"] == []
        assert at[1]["1"]["safe"] == ["brooch-9a", "brooch-8a"]
        assert "safes" in steps[1]["text"]
        assert "Cy" in steps[2]["text"] and not at[2]["2"]["closed"]
        assert "Dee" in steps[3]["text"] and at[3]["3"]["closed"]
        expect(ada.locator(".sd-prompt")).to_contain_text("Choose a card")
        assert errors == []
    finally:
        ada.context.close()


def test_double_loot_tells_each_drawn_card_played_and_hides_the_money(
    server: str, browser: Browser
) -> None:
    """Ada's Double Loot draws a police car (played at once) and then money (hers to
    place): told as the Double Loot, the draw, the car, the next draw. The money stays
    Ada's secret on Bob's page, however she keeps it."""
    body: dict[str, Any] = {
        "game": "thieves",
        "scenario": True,
        "seed": 1,
        "options": {
            "hands": [
                ["double-loot-a", "money-0a", "money-0b"],
                ["money-1b", "money-1c", "money-1d"],
                ["money-1e", "money-1f", "money-1g"],
            ],
            "deck_top": ["money-1a", "police-1a", "money-3a"],
            "first_player": 0,
        },
        "seats": [{"kind": "human", "name": n} for n in ("Ada", "Bob", "Cleo")],
    }
    made = httpx2.post(f"{server}/api/tables", json=body)
    assert made.status_code == 201, made.text
    invites = [s["invite"] for s in made.json()["seats"]]
    contexts = [browser.new_context(viewport=DESKTOP, locale="en-GB") for _ in range(2)]
    ada, bob = (c.new_page() for c in contexts)
    errors = [watch_errors(ada), watch_errors(bob)]  # (each page's list, filled as it goes)
    try:
        for page, invite in ((ada, invites[0]), (bob, invites[1])):
            page.goto(invite)
            expect(page.locator(".tv-seat")).to_have_count(3)
            page.wait_for_timeout(200)
            page.evaluate(RECORD)
            on_the_tests_clock(page)
        ada.click('.tv-hand [data-card="double-loot-a"]')
        ada.click(".tv-act button.primary")
        for page in (ada, bob):
            run_story(page)
            steps = told(page)
            texts = [s["text"] for s in steps]
            assert len(steps) == 4, texts
            assert "Double Loot" in texts[0] and "Double Loot" in texts[1]
            assert steps[1]["police"] == [] and steps[2]["police"] == ["police-1a"]
            assert "Police" in texts[2] and "Double Loot" in texts[3]
        expect(ada.locator(".tv-drawn [data-card='money-3a']")).to_have_count(1)
        ada.click(".tv-act button.primary")  # keep it face down
        expect(bob.locator('.tv-seat[data-seat="0"] .tv-lootrow .tv-back')).to_have_count(1)
        bob.wait_for_timeout(300)
        seen: list[dict[str, Any]] = bob.evaluate("window.seen")
        assert not any('"money-3a"' in s["html"] for s in seen)
        assert '"money-3a"' not in bob.locator("#game").inner_html()
        assert errors == [[], []]
    finally:
        for c in contexts:
            c.close()


def test_when_the_table_moves_on_the_story_hurries_and_ends_on_the_newest_board(
    server: str, browser: Browser
) -> None:
    """Ada's own move (sent from elsewhere, say a second tab) comes while her page still
    tells the Alarm: the rest goes quicker (0.5 s a step) and the story ends on the board
    after her move."""
    table = Table(server)
    ada = before_the_alarm(browser, table)
    errors = watch_errors(ada)
    try:
        on_the_tests_clock(ada)
        ada.evaluate(HEAR)
        table.alarm()
        expect(ada.locator(".narration .narr-count")).to_have_text("1/6")
        ada.clock.run_for(700)
        expect(ada.locator(".narration .narr-count")).to_have_text("2/6")
        table.act(0, {"type": "play", "card": "money-0a", "to": 0})
        # The move's frame is here: its log line (her turn 1 put one there already).
        expect(ada.locator("#log .e").filter(has_text="You put")).to_have_count(2)
        run_story(ada)
        steps = told(ada)
        # The Alarm's six steps, then those of Ada's move (her card, any getaway car drawn).
        texts = [s["text"] for s in steps]
        assert "Alarm" in texts[0] and "Busted" in texts[5] and "You put" in texts[6], texts
        # The step on show when the move came keeps its 0.7 s; the rest go quicker.
        held = held_ms(ada, steps)
        assert held == [700, 700] + [500] * (len(steps) - 2), held
        # A screen reader hears the move once, in its place after the raid (its log line
        # was read with each step still on show, ahead of the story).
        heard = ada.evaluate("window.heard")
        putting = [i for i, h in enumerate(heard) if "You put" in h]
        busted = [i for i, h in enumerate(heard) if "Busted" in h]
        assert len(putting) == 1 and busted and putting[0] > busted[0], heard
        # The newest board: Ada's money kept face down, Bob to play.
        expect(ada.locator('.tv-seat.me .tv-lootrow [data-card="money-0a"]')).to_have_count(1)
        expect(ada.locator(".tv-top")).to_contain_text("Bob’s turn")
        assert errors == []
    finally:
        ada.context.close()


def test_while_bots_move_during_stories_each_line_is_heard_once(
    server: str, browser: Browser
) -> None:
    """Bots that move at once bring new frames while a story is told: their log lines wait
    for the story's end (they were read at once, each time with the step on show again, and
    a long story ended with a batch of lines many turns old)."""
    seats = [{"kind": "human", "name": "Ada"}] + [{"kind": "bot", "bot": "heuristic"}] * 2
    made = httpx2.post(f"{server}/api/tables", json={"game": "thieves", "seats": seats}).json()
    tid, token = made["table"]["id"], made["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-GB")
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(made["seats"][0]["invite"])
        expect(page.locator("#who")).to_have_text("you are Ada")
        auth = {"Authorization": f"Bearer {seat_key(page, made['seats'][0]['invite'])}"}
        page.evaluate(HEAR)
        moves = 0
        for _ in range(200):
            state = httpx2.get(f"{server}/api/tables/{tid}/state", headers=auth).json()
            if state["result"] is not None or moves == 6:
                break
            if state["legal"]:
                body = {"action": state["legal"][0], "version": state["version"]}
                httpx2.post(f"{server}/api/tables/{tid}/actions", json=body, headers=auth)
                moves += 1
            page.wait_for_timeout(150)
        assert moves >= 3
        page.wait_for_function(
            "() => !document.getElementById('game').dataset.narrating", timeout=60_000
        )
        page.wait_for_timeout(200)
        heard: list[str] = page.evaluate("window.heard")
        logged = page.locator("#log .e").all_text_contents()
        said = [part for text in heard for part in text.split(" · ")]
        again = {
            p: said.count(p) for p in set(said) if p in logged and said.count(p) > logged.count(p)
        }
        assert again == {}, (again, heard)
        assert errors == []
    finally:
        context.close()


def test_the_result_waits_for_the_last_story_to_end(server: str, browser: Browser) -> None:
    """The last action's chain is told before the winner is: every seat reveals Close
    Safe with an empty safe, and the game ends. The result box came up over the story's
    first step ("1/2 …"), announcing the winners before the board showed why."""
    hands = [
        ["close-4a", "watch-5a", "watch-6a", "cufflink-1a"],
        ["close-5a", "brooch-9a", "brooch-8a", "cufflink-2a"],
        ["close-6a", "cufflink-7a", "cufflink-3a", "cufflink-4a"],
        ["close-7a", "thief-ring", "cufflink-5a", "cufflink-6a"],
    ]
    seats = SdTable(server, hands)
    ada, errors = seats.open_ada(browser)
    try:
        on_the_tests_clock(ada)
        for seat in range(4):
            seats.act(seat, {"type": "play", "card": hands[seat][0]})
        expect(ada.locator("#game[data-narrating]")).to_have_count(1, timeout=10_000)
        ada.clock.run_for(100)
        expect(ada.locator("#result")).to_have_count(0)  # (not over the story)
        assert ada.locator("#after").is_hidden()
        run_story(ada)
        expect(ada.locator("#result")).to_contain_text("win")
        expect(ada.locator("#result-title")).to_be_focused()
        assert errors == []
    finally:
        ada.context.close()
