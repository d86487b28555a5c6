"""A move refused as stale, in one tab: the table moved on because of someone else, whose
events may name this seat (a target, every seat in a reveal). The page is not to take that
for a move of its own seat made elsewhere: that is the update's ``acted`` (the two tabs of
one seat: tests/browser/test_chaos2_web.py)."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import exchange
from tests.browser.pages import moves_sent, watch_errors

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1400, "height": 1000}
MOVED_ELSEWHERE = "your seat moved first"

# The page's moves held back while ``window.holdActs`` (sent by ``window.releaseActs()``):
# a move on its way for as long as the test needs. With ``window.nameMe`` set, the next
# update of another seat's drop gets one more event, naming this seat (as a game's event
# may name a seat another seat's action concerns).
HOLD_ACTS = """(() => {
  const Socket = window.WebSocket;
  window.holdActs = false;
  window.heldActs = [];
  window.nameMe = false;
  window.releaseActs = () => {
    window.holdActs = false;
    window.heldActs.splice(0).forEach((send) => send());
  };
  window.WebSocket = class extends Socket {
    send(data) {
      if (window.holdActs && JSON.parse(data).type === "act") {
        window.heldActs.push(() => { if (this.readyState === 1) super.send(data); });
        return;
      }
      super.send(data);
    }
    get onmessage() { return this.heard || null; }
    set onmessage(handler) {
      this.heard = handler;
      super.onmessage = handler ? (event) => {
        let data = event.data;
        const frame = JSON.parse(data);
        if (window.nameMe && frame.type === "update"
          && frame.events.some((e) => e.type === "drop" && e.seat !== frame.seat)) {
          window.nameMe = false;
          const note = "A note about you";
          frame.events.push({ type: "note", audience: null, seat: frame.seat, text: note });
          data = JSON.stringify(frame);
        }
        handler.call(this, { data });
      } : null;
    }
  };
})();"""


def schatz_rabatz(server: str, **options: Any) -> dict[str, Any]:
    """A Schatz-Rabatz table of Ana and Ben (a shared pool: one's drop changes what the
    other may drop)."""
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Ben"}]
    body = {"game": "schatz-rabatz", "options": {"hand_ms": 0, **options}, "seats": seats}
    made = httpx2.post(f"{server}/api/tables", json=body)
    assert made.status_code == 201, made.text
    table: dict[str, Any] = made.json()
    return table


def drop_held(page: Page) -> dict[str, Any]:
    """Ana drops her pick (Enter) while her moves are held: it stays on its way."""
    expect(page.locator(".sr-chest.me .sr-ghost")).to_have_count(1)
    assert "bad" not in (page.locator(".sr-chest.me .sr-ghost").get_attribute("class") or "")
    page.evaluate("window.holdActs = true")
    page.keyboard.press("Enter")
    page.wait_for_function("window.heldActs.length === 1")
    return {"treasure": page.locator(".sr-pick").get_attribute("data-treasure")}


def test_a_move_stale_from_another_seats_move_naming_this_seat_is_sent_again(
    server: str, browser: Browser
) -> None:
    """Ana drops a treasure; before it reaches the table Ben drops another, and the update
    of his drop names Ana in an event. Her drop is refused as stale (the pool changed) but
    is still to be made: it is sent again and made, and she is not told her seat moved
    elsewhere. (Any event naming her seat was taken for a move of her own made in another
    tab: her drop was dropped, and she was told "your seat moved first".)"""
    made = schatz_rabatz(server, hourglass_seconds=120)
    table_id, invites = made["table"]["id"], [s["invite"] for s in made["seats"]]
    ben = exchange(invites[1])  # (Ben never connects: the clock stands still)
    context = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    try:
        context.add_init_script(HOLD_ACTS)
        page = context.new_page()
        errors = watch_errors(page)
        sent = moves_sent(page)
        page.goto(invites[0])
        expect(page.locator("#who")).to_have_text("you are Ana", timeout=10000)
        mine = drop_held(page)["treasure"]
        bearer = {"Authorization": f"Bearer {ben}"}
        legal = httpx2.get(f"{server}/api/tables/{table_id}/state", headers=bearer).json()["legal"]
        drop = next(a for a in legal if a["type"] == "drop" and a["treasure"] != mine)
        his = drop["treasure"]
        page.evaluate("window.nameMe = true")
        done = httpx2.post(
            f"{server}/api/tables/{table_id}/actions", json={"action": drop}, headers=bearer
        )
        assert done.status_code == 200, done.text
        expect(page.locator("#log")).to_contain_text("A note about you")
        expect(page.locator(f'.sr-other [data-treasure="{his}"]')).to_have_count(1)
        page.evaluate("window.releaseActs()")
        expect(page.locator(f'.sr-chest.me [data-treasure="{mine}"]')).to_have_count(1)
        acts = [f["action"] for f in sent if f["type"] == "act"]
        assert len(acts) == 2 and acts[0] == acts[1] and acts[0]["treasure"] == mine
        expect(page.locator(".toast", has_text=MOVED_ELSEWHERE)).to_have_count(0)
        assert errors == []
    finally:
        context.close()


@pytest.mark.paced
def test_a_move_stale_when_time_runs_out_is_not_told_as_made_elsewhere(
    server: str, browser: Browser
) -> None:
    """Ana's drop is on its way when the hourglass runs out: the table closes every lid,
    hers too (each lid's event names its seat), and her drop is refused as stale. She is
    told the table moved on, not that her seat moved first in another tab or window."""
    made = schatz_rabatz(server, hourglass_seconds=2)
    invites = [s["invite"] for s in made["seats"]]
    ana = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    ben = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    try:
        ana.add_init_script(HOLD_ACTS)
        page = ana.new_page()
        errors = watch_errors(page)
        sent = moves_sent(page)
        page.goto(invites[0])
        expect(page.locator("#who")).to_have_text("you are Ana", timeout=10000)
        drop_held(page)  # (before the clock starts: it waits for Ben)
        other = ben.new_page()
        other.goto(invites[1])
        expect(other.locator("#who")).to_have_text("you are Ben", timeout=10000)
        expect(page.locator(".sr")).to_have_attribute("data-phase", "scored", timeout=15000)
        page.evaluate("window.releaseActs()")
        expect(page.locator(".toast", has_text="the table has moved on")).to_have_count(1)
        expect(page.locator(".toast", has_text=MOVED_ELSEWHERE)).to_have_count(0)
        assert len([f for f in sent if f["type"] == "act"]) == 1
        assert errors == []
    finally:
        ana.close()
        ben.close()
