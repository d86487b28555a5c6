"""The table page as players really meet it: a player gone at "Play again", a slow network
with a move on its way, the same seat open in two tabs at once."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import seat_key

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1400, "height": 1000}
# The host's token, kept as the lobby keeps it for the browser that made the table.
KEEP_HOST = """([id, host]) =>
  localStorage.setItem("thievery.tokens", JSON.stringify({[id]: {host}}))"""


def watch_errors(page: Page) -> list[str]:
    """Collect the page's JavaScript errors."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


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
    later at the old table's link, goes to the next game and takes his seat back."""
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

        # Ben is back, at the old table's link: the next game, his seat, taken back.
        ben = ben_context.new_page()
        ben.goto(f"{invites[1].split('#')[0]}")
        ben.locator("#result .go-next").click()
        ben.wait_for_url(re.compile(re.escape(next_id) + "$"))
        expect(ben.locator("#who")).to_have_text("you are Ben")
        ben.locator("#take-back").click()
        expect(ana.locator('#seats .s[data-seat="1"]')).to_contain_text("here")
        assert errors == []
    finally:
        ana_context.close()
        ben_context.close()
