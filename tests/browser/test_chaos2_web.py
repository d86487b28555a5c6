"""The table page as players really meet it: a player gone at "Play again", a slow network
with a move on its way, the same seat open in two tabs at once."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import exchange, seat_key
from tests.browser.pages import moves_sent, watch_errors

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1400, "height": 1000}
# The host's token, kept as the lobby keeps it for the browser that made the table.
KEEP_HOST = """([id, host]) =>
  localStorage.setItem("thievery.tokens", JSON.stringify({[id]: {host}}))"""


def make(server: str, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    made = httpx2.post(f"{server}/api/tables", json={"game": game, "seats": seats, **extra})
    assert made.status_code == 201, made.text
    table: dict[str, Any] = made.json()
    return table


@pytest.fixture(scope="module")
def http() -> Iterator[httpx2.Client]:
    """One connection kept for the HTTP moves (a new one each took 20 times longer)."""
    with httpx2.Client() as client:
        yield client


def seen_by(http: httpx2.Client, server: str, table_id: str, key: str) -> dict[str, Any]:
    """What the seat of ``key`` may know now (``GET /state``)."""
    answer = http.get(
        f"{server}/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {key}"}
    )
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


def act(http: httpx2.Client, server: str, table_id: str, key: str, action: dict[str, Any]) -> None:
    done = http.post(
        f"{server}/api/tables/{table_id}/actions",
        json={"action": action},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert done.status_code == 200, done.text


def play_to_the_end(
    http: httpx2.Client, server: str, table_id: str, keys: list[str], seed: int = 1
) -> None:
    """Random legal moves for the human seats (over HTTP) until the game is over."""
    rng = random.Random(seed)
    deadline = time.time() + 30
    while not seen_by(http, server, table_id, keys[0])["result"]:
        assert time.time() < deadline, "the game did not end"
        for key in keys:
            legal = seen_by(http, server, table_id, key)["legal"]
            if legal:
                act(http, server, table_id, key, rng.choice(legal))


def test_play_again_with_a_player_gone_leaves_the_host_able_to_go_on(
    server: str, browser: Browser, http: httpx2.Client
) -> None:
    """Ben closed his tab at the end; Ana, the host, plays again. The next table has the
    same seats and host, and Ben's seat waits for him: the page says he is away, and its
    host can hand his seat to a bot (or close the table) as at the first table. (The page
    kept only Ana's seat key for the next table, not her host token: the next table lost
    its host controls, and a game waiting on a player gone was stuck for good.) Ben, back
    later, finds the next game in the lobby (and at the old table's link) and takes his
    seat back. (The lobby listed only the first table for him, finished, with its replay.)"""
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Ben"}]
    made = make(server, "thieves-den", seats)
    table_id, host = made["table"]["id"], made["host_token"]
    invites = [s["invite"] for s in made["seats"]]
    ana_context = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    ben_context = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    try:
        ana = ana_context.new_page()
        errors = watch_errors(ana)
        ana.goto(f"{invites[0].split('/table/')[0]}/")
        ana.evaluate(KEEP_HOST, [table_id, host])
        ana.goto(invites[0])
        expect(ana.locator("#who")).to_have_text("you are Ana")
        ben = ben_context.new_page()
        ben.goto(invites[1])
        expect(ben.locator("#who")).to_have_text("you are Ben")
        expect(ana.locator("#close-table")).to_be_visible()  # (the host's, at the first table)
        keys = [seat_key(ana, invites[0]), seat_key(ben, invites[1])]
        play_to_the_end(http, server, table_id, keys)
        expect(ana.locator("#result .again")).to_be_visible()
        ben.close()  # Ben has gone
        expect(ana.locator('#seats .s[data-seat="1"]')).to_contain_text("away")

        ana.locator("#result .again").click()
        ana.wait_for_url(re.compile(r"/table/(?!" + re.escape(table_id) + r")[^/?#]+$"))
        next_id = ana.url.rsplit("/", 1)[1]
        expect(ana.locator("#who")).to_have_text("you are Ana")
        expect(ana.locator('#seats .s[data-seat="1"]')).to_contain_text("away")
        # The host's controls came along: Ben's seat to a bot, and the game goes on.
        expect(ana.locator("#close-table")).to_be_visible()
        ana.locator('.host-bot[data-seat="1"]').click()
        expect(ana.locator('#seats .s[data-seat="1"]')).to_contain_text("bot")
        ana.locator("#game [data-action]").first.click()  # Ana's Scouting pick
        expect(ana.locator(".td-round")).to_have_text("1")
        deadline = time.time() + 10
        while httpx2.get(f"{server}/api/tables/{next_id}").json()["actions"] < 2:
            assert time.time() < deadline, "the bot did not play for Ben"
            ana.wait_for_timeout(100)

        # Ben is back, at the lobby: the next game is his to rejoin (his browser held only
        # the first table), and he takes his seat back from the bot.
        ben = ben_context.new_page()
        ben.goto(f"{server}/")
        listed = ben.locator("#live .table-item", has_text=next_id)
        expect(listed.get_by_role("link", name="Rejoin")).to_be_visible(timeout=8000)
        listed.get_by_role("link", name="Rejoin").click()
        ben.wait_for_url(re.compile(re.escape(next_id) + "$"))
        expect(ben.locator("#who")).to_have_text("you are Ben")
        # (and the first table's own page sends him on too)
        ben.goto(invites[1].split("#")[0])
        ben.locator("#result .go-next").click()
        ben.wait_for_url(re.compile(re.escape(next_id) + "$"))
        expect(ben.locator("#who")).to_have_text("you are Ben")
        ben.locator("#take-back").click()
        expect(ana.locator('#seats .s[data-seat="1"]')).to_contain_text("here")
        assert errors == []
    finally:
        ana_context.close()
        ben_context.close()


# A slow network: every websocket frame, either way, arrives this many ms late (in order).
SLOW_SOCKETS = """(() => {
  const DELAY = %d;
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    send(data) { setTimeout(() => { if (this.readyState === 1) super.send(data); }, DELAY); }
    get onmessage() { return this.heard || null; }
    set onmessage(handler) {
      this.heard = handler;
      super.onmessage = handler ? (event) => setTimeout(() => {
        if (this.heard === handler) handler.call(this, event);
      }, DELAY) : null;
    }
  };
})();"""


def test_a_move_on_its_way_stays_pending_when_another_seat_moves_first(
    server: str, browser: Browser
) -> None:
    """Ana, on a slow network (1 s a frame), picks a Scouting card; Ben picks meanwhile,
    and his pick reaches her page before hers has come back. Her move stays on its way:
    the page says so and offers nothing to click, and what she picked is what she keeps.
    (Any update cleared the move on its way: her cards were clickable again, the prompt
    said "Scouting: you, Ben are choosing…", and a second card clicked was sent and
    refused as stale, while the first was kept.)"""
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Ben"}]
    made = make(server, "thieves-den", seats)
    table_id, invites = made["table"]["id"], [s["invite"] for s in made["seats"]]
    ben = exchange(invites[1])
    context = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    try:
        context.add_init_script(SLOW_SOCKETS % 1000)
        page = context.new_page()
        errors = watch_errors(page)
        sent = moves_sent(page)
        page.goto(invites[0])
        expect(page.locator("#who")).to_have_text("you are Ana", timeout=10000)
        cards = page.locator(".td-hand [data-action]")
        expect(cards.first).to_be_visible()
        picked = json.loads(str(cards.first.get_attribute("data-action")))
        cards.first.click()
        with httpx2.Client() as http:
            act(http, server, table_id, ben, seen_by(http, server, table_id, ben)["legal"][0])
        # Ben's pick has reached Ana's page; hers is still on its way.
        expect(page.locator("#log")).to_contain_text("Ben picked a card")
        prompt = page.locator("#game [data-prompt]")
        expect(prompt).to_have_text("Sending your move…")
        expect(page.locator("#game [data-action]")).to_have_count(0)
        page.locator(".td-hand [data-card]").last.click()  # (a second click: nothing)
        expect(page.locator("#log")).to_contain_text("Revealed", timeout=10000)
        expect(prompt).not_to_have_text("Sending your move…")
        acts = [f for f in sent if f["type"] == "act"]
        assert [f["action"] for f in acts] == [picked]
        assert page.locator(".toast").count() == 0
        with httpx2.Client() as http:
            log = seen_by(http, server, table_id, seat_key(page, invites[0]))["log"]
        assert [e["cards"]["0"] for e in log if e["type"] == "reveal"] == [picked["card"]]
        assert errors == []
    finally:
        context.close()


# Der Schattendieb, stacked: Ana plays her Watch 9 and may then add her Watch 2 or Watch 5.
HANDS = [
    ["watch-9a", "watch-2a", "watch-5a", "ring-3a"],
    ["brooch-4a", "brooch-6a", "ring-7a", "cufflink-8a"],
    ["cufflink-3a", "ring-2a", "brooch-2a", "ring-9a"],
]


def stacked_schattendieb(server: str) -> tuple[str, str, list[str]]:
    """A scenario table of Ana, Ben and Cleo (HANDS); Ben and Cleo have played their first
    cards over HTTP. Its id, Ana's invite link, and Ben's and Cleo's keys."""
    body = {
        "game": "schattendieb",
        "scenario": True,
        "seed": 1,
        "options": {"games": 1, "hands": HANDS},
        "seats": [{"kind": "human", "name": n} for n in ("Ana", "Ben", "Cleo")],
    }
    made = httpx2.post(f"{server}/api/tables", json=body)
    assert made.status_code == 201, made.text
    table_id, invites = made.json()["table"]["id"], [s["invite"] for s in made.json()["seats"]]
    keys = [exchange(invites[1]), exchange(invites[2])]
    with httpx2.Client() as http:
        for key, card in zip(keys, ("brooch-4a", "cufflink-3a"), strict=True):
            act(http, server, table_id, key, {"type": "play", "card": card})
    return table_id, invites[0], keys


def test_a_move_on_its_way_says_so_in_der_schattendieb(server: str, browser: Browser) -> None:
    """On a slow network, the card Ana played is on its way: the prompt says so, not
    "Waiting for Ana…" (her own name, as if someone else were keeping the table waiting)."""
    _, invite, _ = stacked_schattendieb(server)
    context = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    try:
        context.add_init_script(SLOW_SOCKETS % 1000)
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(invite)
        expect(page.locator("#who")).to_have_text("you are Ana", timeout=10000)
        prompt = page.locator("#game [data-prompt]")
        expect(prompt).to_contain_text("Choose a card to play")
        page.locator('.sd-hand [data-card="watch-9a"]').click()
        expect(prompt).to_have_text("Sending your move…")
        expect(page.locator("#game [data-action]")).to_have_count(0)
        expect(prompt).to_contain_text("Add more", timeout=10000)  # (it came: Ana may add)
        assert errors == []
    finally:
        context.close()


def test_the_same_seat_in_two_tabs_moving_at_once_makes_one_move(
    server: str, browser: Browser
) -> None:
    """Ana has her seat open in two tabs and adds a Watch in each at the same moment (her
    Watch 2 in one, her Watch 5 in the other): one is added, never both; the other tab
    says its move was not made, her seat having moved first, and both tabs end showing the
    same hand and choices. (A move refused as stale is sent again if it is still to be
    made, which the other Watch still is: not when this seat made a move of its own
    meanwhile.)"""
    table_id, invite, _ = stacked_schattendieb(server)
    context = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    try:
        # (frames 0.4 s late: each tab sends its move before it can hear of the other's)
        context.add_init_script(SLOW_SOCKETS % 400)
        tabs = [context.new_page(), context.new_page()]
        errors = [watch_errors(tab) for tab in tabs]
        tabs[0].goto(invite)
        expect(tabs[0].locator("#who")).to_have_text("you are Ana")
        tabs[1].goto(invite.split("#")[0])  # (this browser's key, kept by the first tab)
        expect(tabs[1].locator("#who")).to_have_text("you are Ana")
        tabs[0].locator('.sd-hand [data-card="watch-9a"]').click()
        adds = ['[data-action*="watch-2a"]', '[data-action*="watch-5a"]']
        for tab in tabs:
            for add in adds:
                expect(tab.locator(f"#game {add}")).to_be_visible()
        # Both at once: neither tab has heard of the other's move when it sends its own.
        tabs[0].evaluate(f"document.querySelector('#game {adds[0]}').click()")
        tabs[1].evaluate(f"document.querySelector('#game {adds[1]}').click()")
        prompts = [tab.locator("#game [data-prompt]") for tab in tabs]
        for prompt in prompts:  # (both on their way, then both answered)
            expect(prompt).not_to_have_text("Sending your move…", timeout=8000)
        tabs[0].wait_for_timeout(700)  # (a move sent again, 0.4 s on its way, is made by now)
        with httpx2.Client() as http:
            view = seen_by(http, server, table_id, seat_key(tabs[0], invite))["view"]
        added = [c for c in ("watch-2a", "watch-5a") if c not in view["hand"]]
        assert len(added) == 1, f"added: {added}"
        loser = 1 if added == ["watch-2a"] else 0
        told = "Your move here was not made: your seat moved first (in another tab or window"
        expect(tabs[loser].locator(".toast", has_text=told)).to_have_count(1)
        expect(tabs[1 - loser].locator(".toast")).to_have_count(0)
        hands = [tab.locator(".sd-hand [data-card]") for tab in tabs]
        for tab, hand in zip(tabs, hands, strict=True):
            expect(hand).to_have_count(len(view["hand"]))
            expect(tab.locator("#game [data-action]")).to_have_count(2)  # (the other, Done)
        shown = [h.evaluate_all("els => els.map(e => e.dataset.card)") for h in hands]
        assert shown[0] == shown[1] and sorted(shown[0]) == sorted(view["hand"])
        assert errors == [[], []]
    finally:
        context.close()


def test_a_closed_table_does_not_say_a_move_is_on_its_way(server: str, browser: Browser) -> None:
    """Ana is to choose when the host closes the table: nothing is on its way, so the
    prompt does not say "Sending your move…" (the game's prompt took the closed table's
    empty choice for a move in flight), neither at once nor after a reload."""
    seats = [{"kind": "human", "name": n} for n in ("Ana", "Ben", "Cleo")]
    made = make(server, "schattendieb", seats)
    table_id, host = made["table"]["id"], made["host_token"]
    context = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(made["seats"][0]["invite"])
        expect(page.locator("#who")).to_have_text("you are Ana")
        prompt = page.locator("#game [data-prompt]")
        expect(prompt).to_contain_text("Choose a card to play")
        closed = httpx2.post(
            f"{server}/api/tables/{table_id}/close", headers={"Authorization": f"Bearer {host}"}
        )
        assert closed.status_code == 200, closed.text
        expect(page.locator("#after")).to_contain_text("This table was closed")
        expect(prompt).not_to_have_text("Sending your move…")
        expect(prompt).to_contain_text("Waiting for")  # (the game's own words, as it was)
        page.reload()
        expect(page.locator("#after")).to_contain_text("This table was closed")
        expect(prompt).not_to_have_text("Sending your move…")
        assert errors == []
    finally:
        context.close()


# The browser's seat key for a table, as the table page keeps it.
HOLD_SEAT = """([id, key]) =>
  localStorage.setItem("thievery.tokens", JSON.stringify({[id]: {token: key}}))"""
# A browser whose storage refuses every write (full, or a private window's).
STORAGE_FULL = """Storage.prototype.setItem = function () {
  throw new DOMException("full", "QuotaExceededError");
};"""


def test_the_lobby_draws_its_lists_when_storage_refuses_a_played_again_table(
    server: str, browser: Browser, http: httpx2.Client
) -> None:
    """The browser holds a seat at a table played again since, but its storage refuses
    writes (full, or a private window's): the lobby cannot keep the next table, and says
    so by not listing it as its own; it still draws its lists (it stayed at "Loading…",
    and threw at every refresh)."""
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Ben"}]
    made = make(server, "thieves-den", seats)
    first = made["table"]["id"]
    keys = [exchange(s["invite"]) for s in made["seats"]]
    play_to_the_end(http, server, first, keys)
    again = http.post(
        f"{server}/api/tables/{first}/again", headers={"Authorization": f"Bearer {keys[0]}"}
    )
    assert again.status_code == 200, again.text
    other = make(server, "thieves-den", seats, listed=True)["table"]["id"]
    context = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(f"{server}/")
        page.evaluate(HOLD_SEAT, [first, keys[1]])
        page.add_init_script(STORAGE_FULL)
        page.reload()
        expect(page.locator("#live .table-item", has_text=other)).to_be_visible()
        # (drawn, in the folded Finished list)
        expect(page.locator("#finished .table-item", has_text=first)).to_have_count(1)
        assert errors == []
    finally:
        context.close()


def test_a_browser_that_cannot_keep_a_seat_still_sits_and_is_told(
    server: str, browser: Browser, http: httpx2.Client
) -> None:
    """An invite opened in a browser whose storage refuses writes: the page still seats
    its player and plays (it threw as it loaded, before connecting), and tells them the
    seat is not kept (the invite is used up: a reload would leave them watching); at the
    end, "Go to the next game" still goes (it threw before it went)."""
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Ben"}]
    made = make(server, "thieves-den", seats)
    table_id, invites = made["table"]["id"], [s["invite"] for s in made["seats"]]
    context = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    try:
        context.add_init_script(STORAGE_FULL)
        page = context.new_page()
        errors = watch_errors(page)
        welcomes: list[dict[str, Any]] = []  # (Ana's key is read off her welcome frame)
        page.on(
            "websocket",
            lambda ws: ws.on(
                "framereceived",
                lambda text: welcomes.append(json.loads(text)) if '"welcome"' in text else None,
            ),
        )
        page.goto(invites[0])
        expect(page.locator("#who")).to_have_text("you are Ana")
        told = "This browser cannot keep your seat"
        expect(page.locator(".toast", has_text=told)).to_have_count(1)
        assert page.evaluate("() => localStorage.getItem('thievery.tokens')") is None
        keys = [next(w["key"] for w in welcomes if w.get("key")), exchange(invites[1])]
        play_to_the_end(http, server, table_id, keys)
        again = http.post(
            f"{server}/api/tables/{table_id}/again", headers={"Authorization": f"Bearer {keys[1]}"}
        )
        assert again.status_code == 200, again.text
        page.locator("#result .go-next").click()
        page.wait_for_url(re.compile(re.escape(again.json()["id"]) + "$"))
        expect(page.locator("#who")).to_have_text("you are Ana")
        assert errors == []
    finally:
        context.close()
