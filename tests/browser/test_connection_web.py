"""The table page when its connection dies without a word (a phone between networks, a NAT
that forgot it): the browser's socket stays "open" and a new one stays "connecting" for
minutes, so the page must find it out itself, say so, and come back once the network does."""

from __future__ import annotations

import re
import time

import httpx2
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

DESKTOP = {"width": 1400, "height": 1000}
MOVABLE = '#game [data-action], #game [data-pick]:not([data-pick*="clear"])'


def actions_done(server: str, table_id: str) -> int:
    count: int = httpx2.get(f"{server}/api/tables/{table_id}").json()["actions"]
    return count


def start_a_move(page: Page) -> None:
    """Click a legal action (a card picked first where the game asks for one)."""
    for _ in range(4):
        acts = page.locator("#game [data-action]")
        if acts.count():
            acts.first.click(timeout=2000)
            return
        page.locator('#game [data-pick]:not([data-pick*="clear"])').first.click(timeout=2000)
    raise AssertionError("no move to make")


def test_a_connection_dead_without_a_word_is_given_up_and_the_lost_move_told(
    server: str, browser: Browser
) -> None:
    seats = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "bot": "random"}] * 2
    made = httpx2.post(f"{server}/api/tables", json={"game": "thieves", "seats": seats})
    assert made.status_code == 201, made.text
    table_id, invite = made.json()["table"]["id"], made.json()["seats"][0]["invite"]
    network = {"up": True}
    sockets: list[str] = []  # how each connection the page made went

    def route(ws: WebSocketRoute) -> None:
        if not network["up"]:  # (opened, it hears nothing: the handshake's answer is lost)
            sockets.append("lost")
            ws.on_message(lambda message: None)
            return
        sockets.append("through")
        upstream = ws.connect_to_server()
        # Once the network is down, this connection is dead for good, both ways: nothing
        # reaches the other end, not even the server's close.
        alive = {"yes": True}

        def from_page(message: str | bytes) -> None:
            alive["yes"] = alive["yes"] and network["up"]
            if alive["yes"]:
                upstream.send(message)

        def from_server(message: str | bytes) -> None:
            alive["yes"] = alive["yes"] and network["up"]
            if alive["yes"]:
                ws.send(message)

        def closed(code: int | None, reason: str | None) -> None:
            if alive["yes"] and network["up"]:
                ws.close(code=code, reason=reason)

        ws.on_message(from_page)
        upstream.on_message(from_server)
        upstream.on_close(closed)

    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.route_web_socket(re.compile(r"/api/tables/[^/]+/ws$"), route)
        page.goto(invite)
        expect(page.locator("#who")).to_have_text("you are Ana")
        expect(page.locator(MOVABLE).first).to_be_visible(timeout=15000)  # (Ana's turn)
        expect(page.locator("#status")).to_have_text("connected")
        before = actions_done(server, table_id)

        network["up"] = False
        start_a_move(page)  # into the dead connection: it never reaches the table
        # Found out in seconds (no answer to the move, nor to a ping), and said.
        expect(page.locator("#status")).not_to_have_text("connected", timeout=15000)
        expect(page.locator("#status")).to_have_text(re.compile("connecting"))
        # Still down: the new connections are given up too, not waited on for ever.
        deadline = time.time() + 30
        while sockets.count("lost") < 2:
            assert time.time() < deadline, sockets
            page.wait_for_timeout(500)
        expect(page.locator("#status")).not_to_have_text("connected")

        network["up"] = True
        expect(page.locator("#status")).to_have_text("connected", timeout=25000)
        # The move made in the dead connection: not applied, and the player is told.
        expect(page.locator(".toast")).to_contain_text("Your move did not reach the table")
        assert actions_done(server, table_id) == before
        expect(page.locator(MOVABLE).first).to_be_visible()
        start_a_move(page)  # made again: it counts, once
        deadline = time.time() + 15
        while actions_done(server, table_id) == before:
            assert time.time() < deadline, "the move made again was not applied"
            page.wait_for_timeout(200)
        assert errors == []
    finally:
        context.close()
