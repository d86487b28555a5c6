"""Issue 20's table chat and lobby list in a real Chromium: two players chatting (every
line escaped), muting a seat (kept in the browser), spectators reading only, the panel on
a phone; the lobby listing a table its host listed and a stranger joining it."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, WebSocketRoute, expect

from tests.browser.conftest import exchange, live_server, seat_key
from tests.browser.pages import watch_errors

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1400, "height": 1000}
EVIL = "<img src=x onerror=window.pwned=1>"
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


def shoot(page: Page, name: str) -> None:
    """A screenshot for people to look at (test-output/, not committed)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def make_table(server: str, listed: bool, humans: int = 2) -> dict[str, Any]:
    """A Der Schattendieb table of 3: Ada, then ``humans - 1`` more people, then bots."""
    seats: list[dict[str, Any]] = [{"kind": "human", "name": "Ada"}]
    seats += [{"kind": "human", "name": f"P{n}"} for n in range(1, humans)]
    seats += [{"kind": "bot", "bot": "random"} for _ in range(3 - humans)]
    body = {"game": "schattendieb", "seats": seats, "options": {"games": 1}, "listed": listed}
    response = httpx2.post(f"{server}/api/tables", json=body)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def sideways(page: Page) -> int:
    """How many pixels the page is wider than the window (0: no sideways scrolling)."""
    width: int = page.evaluate(
        "Math.max(document.documentElement.scrollWidth - innerWidth, innerWidth - screen.width)"
    )
    return width


def flood(page: Page, word: str) -> None:
    """Eight chat lines sent in one go (one script run), as a flood would be: typed one by
    one, a slow machine gives the bucket time to refill and the last line may pass."""
    page.evaluate(
        """(word) => {
          const input = document.getElementById("chat-text");
          const form = document.getElementById("chat-form");
          for (let n = 0; n < 8; n++) { input.value = `${word} ${n}`; form.requestSubmit(); }
        }""",
        word,
    )


def say(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def seated(context: BrowserContext, invite: str) -> Page:
    page = context.new_page()
    page.goto(invite)
    expect(page.locator("#chat-form")).to_be_visible()
    return page


def test_two_players_chat_escaped_and_a_seat_can_be_muted(server: str, browser: Browser) -> None:
    made = make_table(server, listed=False)
    contexts = [browser.new_context(viewport=DESKTOP, locale="en-GB") for _ in range(3)]
    try:
        ada = seated(contexts[0], made["seats"][0]["invite"])
        bo = seated(contexts[1], made["seats"][1]["invite"])
        errors = watch_errors(ada) + watch_errors(bo)
        expect(bo.locator("#chat-lines")).to_contain_text("No messages yet.")
        say(ada, "hello <b>P1</b>")
        say(ada, EVIL)
        lines = bo.locator("#chat-lines .chat-line")
        expect(lines).to_have_count(2)
        expect(lines.nth(0).locator(".text")).to_have_text("hello <b>P1</b>")
        expect(lines.nth(1).locator(".text")).to_have_text(EVIL)
        expect(lines.nth(0).locator(".who")).to_have_text("Ada")
        # The text stayed text: no element made of it, no script run.
        for page in (ada, bo):
            assert page.locator("#chat-lines b, #chat-lines img").count() == 0
            assert page.evaluate("window.pwned") is None
        expect(ada.locator("#chat-text")).to_have_value("")  # sent: the box is empty again
        # A spectator reads along and cannot write.
        watcher = contexts[2].new_page()
        watcher.goto(made["seats"][0]["invite"].split("#")[0] + "?watch")
        expect(watcher.locator("#chat-lines .chat-line")).to_have_count(2)
        expect(watcher.locator("#chat-readonly")).to_be_visible()
        expect(watcher.locator("#chat-form")).to_be_hidden()

        # P1 mutes Ada: her lines are hidden, now and later, also after a reload.
        mute = bo.locator("#chat-mutes button[data-seat='0']")
        expect(mute).to_have_text("Ada")
        expect(bo.locator("#chat-mutes button")).to_have_count(1)  # not P1's own seat
        mute.click()
        expect(mute).to_have_attribute("aria-pressed", "true")
        expect(lines).to_have_count(0)
        say(ada, "are you there?")
        expect(ada.locator("#chat-lines .chat-line")).to_have_count(3)
        expect(watcher.locator("#chat-lines .chat-line")).to_have_count(3)
        say(bo, "quiet here")
        expect(lines).to_have_count(1)  # only P1's own
        expect(ada.locator("#chat-lines .chat-line")).to_have_count(4)
        bo.reload()
        expect(bo.locator("#chat-mutes button[data-seat='0']")).to_have_attribute(
            "aria-pressed", "true"
        )
        expect(lines).to_have_count(1)
        bo.click("#chat-mutes button[data-seat='0']")
        expect(lines).to_have_count(4)  # the table kept them: shown again
        expect(lines.nth(2).locator(".text")).to_have_text("are you there?")
        shoot(bo, "chat-desktop-en")
        # Muting is this browser's own: Ada still sees everything.
        expect(ada.locator("#chat-mutes button[data-seat='1']")).to_have_attribute(
            "aria-pressed", "false"
        )

        # Too many lines at once: the server refuses, the page says so and keeps the text.
        flood(ada, "spam")
        expect(ada.locator(".toast").first).to_contain_text("too many chat lines")
        expect(ada.locator("#chat-text")).to_have_value(re.compile(r"^spam [0-7]$"))
        assert errors == []
    finally:
        for context in contexts:
            context.close()


def test_the_chat_on_a_phone_folds_counts_and_never_scrolls_sideways(
    server: str, browser: Browser
) -> None:
    made = make_table(server, listed=False)
    desk = browser.new_context(viewport=DESKTOP, locale="en-GB")
    phone = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    try:
        ada = seated(desk, made["seats"][0]["invite"])
        page = phone.new_page()
        errors = watch_errors(page)
        page.goto(made["seats"][1]["invite"])
        expect(page.locator(".sd-handbox").first).to_be_visible()
        panel = page.locator("#chat")
        expect(panel).not_to_have_attribute("open", "")  # folded on a phone
        expect(panel.locator("summary")).to_contain_text("Tisch-Chat")
        say(ada, "W" * 200)  # one long word: wrapped, never wider than the screen
        say(ada, "Viel Glück!")
        expect(page.locator("#chat-new")).to_have_text("2 neu")
        panel.locator("summary").click()
        expect(page.locator("#chat-new")).to_be_hidden()
        expect(page.locator("#chat-lines .chat-line")).to_have_count(2)
        page.locator("#chat-text").scroll_into_view_if_needed()
        expect(page.locator("#chat-text")).to_have_attribute("placeholder", "Sag etwas …")
        page.wait_for_timeout(100)
        assert sideways(page) <= 0, f"the table is {sideways(page)} px too wide"
        shoot(page, "chat-phone-de")
        box = page.locator("#chat").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        say(page, "Danke")
        expect(ada.locator("#chat-lines .chat-line .text").last).to_have_text("Danke")
        # A refusal in German too (the server words it in English: "too many chat lines").
        flood(page, "los")
        expect(page.locator(".toast").first).to_contain_text("Zu viel auf einmal")
        expect(page.locator(".toast").first).not_to_contain_text("too many")
        missing = page.evaluate(
            """async () => {
              const i18n = await import('/static/js/i18n.js');
              return [...i18n.missing, ...i18n.missingErrors];
            }"""
        )
        assert missing == [] and errors == []
        # Left open, it stays open.
        page.reload()
        expect(panel).to_have_attribute("open", "")
    finally:
        desk.close()
        phone.close()


def test_the_servers_refusals_are_told_in_german_on_a_german_page(
    server: str, browser: Browser
) -> None:
    """The server words its refusals in English; a German page tells them by their code
    (a table that does not exist, at the table and in the replay; a refused table)."""
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        for path in ("/table/nope123", "/replay/nope123"):
            page.goto(server + path)
            expect(page.locator("#game")).to_contain_text("Diesen Tisch gibt es nicht.")
            expect(page.locator("#game")).not_to_contain_text("there is no table")
        # A refusal whose server words name what was wrong keeps them, after the German.
        page.goto(server + "/")
        expect(page.locator("#seat-rows .seat-row").first).to_be_visible()
        page.evaluate(
            """async () => {
              const { errorText } = await import('/static/js/i18n.js');
              window.told = [
                errorText({ code: "options/invalid", message: "games is 1 to 9, not 0" }),
                errorText({ code: "limit/tables", message: "at most 50 tables" }),
                errorText({ code: "no/such", message: "as it is" }),
                errorText(new Error("Failed to fetch")),
              ];
            }"""
        )
        told = page.evaluate("window.told")
        assert told == [
            "Ungültige Tischoptionen. (games is 1 to 9, not 0)",
            "Eine Grenze dieses Servers ist erreicht. (at most 50 tables)",
            "as it is",
            "Failed to fetch",
        ]
        missing = page.evaluate(
            "async () => [...(await import('/static/js/i18n.js')).missingErrors]"
        )
        assert missing == ["no/such"]  # (a code without German is noted for the tests)
        assert errors == []
    finally:
        context.close()


def test_the_lobby_lists_a_listed_table_and_a_stranger_joins_it(
    server: str, browser: Browser
) -> None:
    listed = make_table(server, listed=True, humans=3)
    private = make_table(server, listed=False, humans=3)
    tid = listed["table"]["id"]
    context = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(server + "/")
        item = page.locator(f"#open .open-table[data-table='{tid}']")
        expect(item).to_be_visible()
        expect(item).to_contain_text("2 of 3 seats free")
        expect(item).to_contain_text("just now")
        expect(page.locator(f"#open [data-table='{private['table']['id']}']")).to_have_count(0)
        assert sideways(page) <= 0, f"the lobby is {sideways(page)} px too wide"
        item.scroll_into_view_if_needed()
        page.fill("#join-name", "Zoe")
        shoot(page, "lobby-open-tables-phone-en")
        item.locator("button.join").click()
        page.wait_for_url(f"**/table/{tid}")
        expect(page.locator("#who")).to_have_text("you are Zoe")  # the name brought along
        expect(page.locator("#chat-form")).to_be_attached()
        # The seat is the stranger's now: one free seat left, and its old invite is dead.
        left = httpx2.get(f"{server}/api/tables/open").json()
        assert [t["free"] for t in left if t["id"] == tid] == [[2]]
        old = {"Authorization": f"Bearer {listed['seats'][1]['token']}"}
        assert httpx2.get(f"{server}/api/tables/{tid}/state", headers=old).status_code == 403
        # Back in the lobby the table offers "Rejoin" to this browser, which kept the name.
        page.goto(server + "/")
        expect(item.get_by_role("link", name="Rejoin")).to_be_visible()
        expect(item).to_contain_text("Ada, Zoe, free")
        expect(page.locator("#join-name")).to_have_value("Zoe")
        assert errors == []
    finally:
        context.close()


def test_a_claim_whose_answer_is_lost_is_asked_again_and_the_seat_kept(
    server: str, browser: Browser
) -> None:
    """The server takes the seat but its answer never reaches the browser (the network
    fails): the browser asks again with the key it made, is answered as made, and plays at
    the seat, which is no key nobody holds."""
    listed = make_table(server, listed=True, humans=3)
    tid = listed["table"]["id"]
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        page = context.new_page()
        bodies: list[dict[str, Any]] = []

        def lose_first_answer(route: Route) -> None:
            bodies.append(route.request.post_data_json)
            answer = route.fetch()  # (the claim is made on the server)
            if len(bodies) == 1:
                assert answer.status == 200, answer.text()
                route.abort("connectionreset")  # ... and its answer lost
            else:
                route.fulfill(response=answer)

        page.route(f"**/api/tables/{tid}/seats/*/claim", lose_first_answer)
        page.goto(server + "/")
        item = page.locator(f"#open .open-table[data-table='{tid}']")
        expect(item).to_be_visible()  # (the lobby drawn: the name field filled in first)
        page.fill("#join-name", "Zoe")
        item.locator("button.join").click()
        page.wait_for_url(f"**/table/{tid}")
        expect(page.locator("#who")).to_have_text("you are Zoe")
        assert len(bodies) == 2 and bodies[0] == bodies[1]
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", bodies[0]["key"])
        held = page.evaluate("JSON.parse(localStorage.getItem('thievery.tokens'))")
        assert held[tid]["token"] == bodies[0]["key"]
        key = {"Authorization": f"Bearer {bodies[0]['key']}"}
        assert httpx2.get(f"{server}/api/tables/{tid}/state", headers=key).json()["seat"] == 1
    finally:
        context.close()


def test_a_welcome_lost_on_the_way_still_gives_the_invites_browser_its_seat(
    server: str, browser: Browser
) -> None:
    """The invite is exchanged at the first join, but the welcome with the seat's key never
    reaches the browser (the connection drops): joining again with the invite and the key
    it made gives it the seat, not "invite used"."""
    made = make_table(server, listed=False, humans=2)
    tid, invite = made["table"]["id"], made["seats"][1]["token"]
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        page = context.new_page()
        errors = watch_errors(page)
        joins: list[dict[str, Any]] = []
        dropped: list[str] = []

        def lose_first_welcome(ws: WebSocketRoute) -> None:
            upstream = ws.connect_to_server()

            def from_page(message: str | bytes) -> None:
                frame = json.loads(message)
                if frame.get("type") == "join":
                    joins.append(frame)
                upstream.send(message)

            def from_server(message: str | bytes) -> None:
                frame = json.loads(message)
                if frame.get("type") == "welcome" and frame.get("key") and not dropped:
                    dropped.append(frame["key"])  # exchanged on the server ...
                    ws.close()  # ... and the page never hears of it
                    return
                ws.send(message)

            ws.on_message(from_page)
            upstream.on_message(from_server)

        page.route_web_socket(re.compile(r"/api/tables/[^/]+/ws$"), lose_first_welcome)
        page.goto(f"{server}/table/{tid}#token={invite}")
        expect(page.locator("#who")).to_have_text("you are P1")
        assert len(dropped) == 1 and len(joins) >= 2
        assert joins[0]["token"] == joins[1]["token"] == invite
        assert joins[0]["key"] == joins[1]["key"] == dropped[0]  # the key the browser made
        held = page.evaluate("JSON.parse(localStorage.getItem('thievery.tokens'))")[tid]
        assert held["token"] == dropped[0] and held["invite"] == invite and "made" not in held
        key = {"Authorization": f"Bearer {dropped[0]}"}
        assert httpx2.get(f"{server}/api/tables/{tid}/state", headers=key).json()["seat"] == 1
        assert errors == []
    finally:
        context.close()


def test_a_table_listed_from_the_form_shows_in_another_lobby(server: str, browser: Browser) -> None:
    host = browser.new_context(viewport=DESKTOP, locale="de-DE")
    guest = browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        page = host.new_page()
        errors = watch_errors(page)
        page.goto(server + "/")
        expect(page.locator("#seat-rows .seat-row").first).to_be_visible()
        expect(page.locator("label[for=listed]")).to_have_text("In der Lobby zeigen")
        page.select_option("#game", "schattendieb")
        page.select_option("#players", "3")
        page.select_option("#seat-rows .seat-row >> nth=1 >> select", "human")
        page.check("#listed")
        page.click("#create")
        expect(page.locator("#listed-note")).to_be_visible()
        tid = (page.locator("#created h3").text_content() or "").split()[1]
        # Shown as it is (ids are case-sensitive), not in the heading's capitals.
        assert page.locator("#created h3 .table-id-text").inner_text() == tid
        assert tid in (page.locator("#created h3").inner_text())
        private = make_table(server, listed=False)["table"]["id"]
        other = guest.new_page()
        other.goto(server + "/")
        item = other.locator(f"#open .open-table[data-table='{tid}']")
        expect(item).to_contain_text("1 of 3 seats free")
        # Running: the listed table is in a stranger's "Playing now", an unlisted one not.
        expect(other.locator(f"#live .table-item:has-text('{tid}')")).to_have_count(1)
        expect(other.locator(f"#live .table-item:has-text('{private}')")).to_have_count(0)
        # The host's own lobby shows it too; without a listing it would not.
        page.reload()
        expect(page.locator(f"#open [data-table='{tid}']")).to_contain_text("1 von 3 Plätzen frei")
        missing = page.evaluate("async () => [...(await import('/static/js/i18n.js')).missing]")
        assert missing == [] and errors == []
    finally:
        host.close()
        guest.close()


def test_the_lobby_lists_tables_stored_but_not_loaded(tmp_path: Path, browser: Browser) -> None:
    """After a restart (or once idle tables are unloaded) a running table is listed from
    storage, which does not say who is to act: the lists still draw (they stayed on
    "Loading…", a TypeError every 5 s)."""
    db = tmp_path / "restarted.db"
    with live_server(db) as before:
        made = make_table(before, listed=True, humans=3)  # (in everyone's lists)
    with live_server(db) as after:
        listed = httpx2.get(f"{after}/api/tables").json()["live"]
        stored = [t for t in listed if t["id"] == made["table"]["id"]]
        assert [(t["loaded"], t["actions"]) for t in stored] == [(False, None)]  # (not 0)
        context = browser.new_context(viewport=DESKTOP, locale="en-GB")
        try:
            page = context.new_page()
            errors = watch_errors(page)
            page.goto(after + "/")
            item = page.locator("#live .table-item")
            expect(item).to_contain_text(made["table"]["id"])
            expect(item).to_contain_text("resting: it wakes when someone comes")
            assert errors == []
        finally:
            context.close()


def test_an_invite_with_a_bad_token_watches_instead_of_reconnecting(
    server: str, browser: Browser
) -> None:
    """A token the table does not know: the page says so and watches (it used to wait to
    be dropped for not joining, and reconnect for ever), and forgets the token."""
    tid = make_table(server, listed=False)["table"]["id"]
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        page = context.new_page()
        errors = watch_errors(page)
        sockets: list[object] = []
        page.on("websocket", lambda ws: sockets.append(ws))
        page.goto(f"{server}/table/{tid}#token=badbadbad")
        expect(page.locator(".toast")).to_contain_text("you are watching")
        expect(page.locator("#status")).to_have_text("connected")
        expect(page.locator("#seats")).to_contain_text("Ada")
        kept = page.evaluate("JSON.parse(localStorage.getItem('thievery.tokens') || '{}')")
        assert "token" not in kept.get(tid, {})
        page.wait_for_timeout(1500)
        assert len(sockets) == 1 and errors == []
        # A link whose key was cut off in copying says so too.
        page.goto("about:blank")
        page.goto(f"{server}/table/{tid}#token=")
        expect(page.locator(".toast")).to_contain_text("holds no seat's key")
        expect(page.locator("#who")).to_have_text("watching")
        # An address no table has (not even valid percent-encoding) says so, and stops.
        page.goto(f"{server}/table/%00%ff")
        expect(page.locator("#game")).to_contain_text("No such table")
        expect(page.locator("#status")).to_have_text("")
        assert errors == []
    finally:
        context.close()


def small_buttons(page: Page) -> list[str]:
    """The visible buttons less than 44 px high or wide (a finger's target), described."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll("button")]
          .filter((b) => b.offsetParent !== null)
          .map((b) => [b.getBoundingClientRect(), b.textContent.trim() || b.title || b.id])
          .filter(([r]) => r.height < 44 || r.width < 44)
          .map(([r, name]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    return found


def test_on_a_touch_screen_every_button_is_big_enough_for_a_finger(
    server: str, browser: Browser
) -> None:
    made = make_table(server, listed=False)
    context = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(server + "/")
        expect(page.locator("#create")).to_be_visible()
        assert small_buttons(page) == []
        page.goto(made["seats"][0]["invite"])
        expect(page.locator("#who")).to_have_text("you are Ada")
        assert small_buttons(page) == []
        assert sideways(page) <= 0 and errors == []
    finally:
        context.close()


def test_the_lobby_offers_bots_by_level(server: str, browser: Browser) -> None:
    """The seats' bots came in the engines' alphabetical order ("Beginner" last)."""
    page = browser.new_page(viewport=DESKTOP, locale="en-GB")
    try:
        page.goto(server + "/")
        expect(page.locator("#seat-rows .seat-row").first).to_be_visible()
        page.select_option("#game", "schatz-rabatz")
        options = page.locator("#seat-rows .seat-row >> nth=1 >> select option")
        expect(options.nth(1)).to_have_text("Bot: Beginner")
        words = options.all_inner_texts()[1:]
        assert words[:4] == ["Bot: Beginner", "Bot: Casual", "Bot: Strong", "Bot: Expert"]
        assert all("packer" in w for w in words[4:]) and len(words) > 4, words
    finally:
        page.close()


def test_the_lobbys_links_are_links_each_one_tab_stop(server: str, browser: Browser) -> None:
    """ "Sit here", "Watch", "Rejoin", "Replay" and "Record" are links that look like
    buttons. As buttons inside links they were two Tab stops each, and read twice."""
    bots = [{"kind": "bot", "bot": "random"}] * 3
    body = {"game": "schattendieb", "seats": bots, "options": {"games": 1}, "listed": True}
    finished = httpx2.post(f"{server}/api/tables", json=body).json()["table"]["id"]
    deadline = time.time() + 30
    while not any(
        tb["id"] == finished
        for tb in httpx2.get(f"{server}/api/tables?finished=15").json()["finished"]
    ):
        assert time.time() < deadline, "the bots' table did not finish"
        time.sleep(0.2)
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(server + "/")
        page.select_option("#game", "schattendieb")
        page.select_option("#players", "3")
        page.select_option("#seat-rows .seat-row >> nth=0 >> select", "human")
        page.click("#create")  # (this browser now holds seat 0: its live table says Rejoin)
        expect(page.get_by_role("link", name="Sit here")).to_be_visible()
        tid = (page.locator("#created h3").text_content() or "").split()[1]
        expect(
            page.locator(f"#live .table-item:has-text('{tid}')").get_by_role("link", name="Rejoin")
        ).to_be_visible()
        page.click("#finished-box summary")
        done = page.locator(f"#finished .table-item:has-text('{finished}')")
        expect(done.get_by_role("link", name="Replay")).to_have_attribute(
            "href", f"/replay/{finished}"
        )
        expect(done.get_by_role("link", name="Record")).to_be_visible()
        assert page.locator("a button, button a").count() == 0
        # From the Copy link before it: one Tab to Sit here, the next one past it.
        page.locator("#created .invite").first.locator("[data-copy]").focus()
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "sit"
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.closest('#sit') === null")
        assert page.evaluate("document.activeElement.tagName") in ("A", "BUTTON")
        assert errors == []
    finally:
        context.close()


def test_another_seats_link_opened_where_a_seat_is_held_asks_first(
    server: str, browser: Browser
) -> None:
    """A browser that holds Ada's seat opens P1's invite (to check it, say): asked first.
    Keeping its seat leaves the invite unused, for P1; taking the other seat is still
    possible, in German too."""
    made = make_table(server, listed=False, humans=3)
    tid = made["table"]["id"]
    ada, p1, p2 = (s["invite"] for s in made["seats"])
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        page = seated(context, ada)
        expect(page.locator("#who")).to_have_text("you are Ada")
        other = context.new_page()
        errors = watch_errors(other)
        other.goto(p1)
        expect(other.locator("#switch-seat")).to_contain_text("already have a seat")
        expect(other.locator("#keep-seat")).to_be_focused()
        other.click("#keep-seat")
        expect(other.locator("#who")).to_have_text("you are Ada")
        page.reload()
        expect(page.locator("#who")).to_have_text("you are Ada")
        # Her own invite, opened again (a way back to the game): her seat, nothing asked.
        again = context.new_page()
        again.goto(ada)
        expect(again.locator("#who")).to_have_text("you are Ada")
        expect(again.locator("#switch-seat")).to_have_count(0)
        # A watch link with P1's invite in it: watching, and her key is kept.
        kept = seat_key(page, ada)
        again.goto(p1.replace(f"/table/{tid}#", f"/table/{tid}?watch#"))
        expect(again.locator("#who")).to_have_text("watching")
        stored = again.evaluate("JSON.parse(localStorage.getItem('thievery.tokens'))")
        assert stored[tid]["token"] == kept
        # P1's invite was not used: P1's own browser takes the seat with it.
        friend = browser.new_context(viewport=DESKTOP, locale="en-GB")
        try:
            expect(seated(friend, p1).locator("#who")).to_have_text("you are P1")
        finally:
            friend.close()
        assert errors == []
    finally:
        context.close()
    # The lobby's browser keeps the host's own invite; the host sat down on a phone with it
    # (it is used): a friend's invite opened here is still asked about, not taken.
    made = make_table(server, listed=False, humans=2)
    tid = made["table"]["id"]
    mine = {"token": made["seats"][0]["token"], "seat": 0, "host": made["host_token"]}
    exchange(made["seats"][0]["invite"])  # (the phone)
    lobby = browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        page = lobby.new_page()
        page.goto(server + "/")
        page.evaluate(
            "e => localStorage.setItem('thievery.tokens', JSON.stringify(e))", {tid: mine}
        )
        page.goto(made["seats"][1]["invite"])
        expect(page.locator("#switch-seat")).to_contain_text("already have a seat")
    finally:
        lobby.close()
    made = make_table(server, listed=False, humans=3)  # (Ada's invite above is used)
    tid = made["table"]["id"]
    ada, _, p2 = (s["invite"] for s in made["seats"])
    german = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    try:
        page = german.new_page()
        page.goto(ada)
        expect(page.locator("#who")).to_have_text("du bist Ada")
        ada_key = seat_key(page, ada)
        page.goto(p2)
        expect(page.locator("#switch-seat")).to_contain_text("schon einen Platz")
        # (the header's status, while the question waits: it said "connecting", in English)
        expect(page.locator("#status")).to_have_text("verbinde …")
        page.click("#take-seat")
        expect(page.locator("#who")).to_contain_text("P2")
        p2_key = seat_key(page, p2)  # (the invite exchanged for P2's key)
        assert p2_key != ada_key
        kept = page.evaluate("JSON.parse(localStorage.getItem('thievery.tokens'))")
        assert kept[tid]["token"] == p2_key
    finally:
        german.close()
