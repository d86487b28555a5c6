"""Thieves Den's chains told step by step (motion.js), in a real Chromium, on a stacked
two-seat table moved through the HTTP API: a steal at the other seat's Location (the steal,
the Owner Bonus paid, the ability's gain, the bonus's gain), a Double Up (the tile paid,
its Thief, its compulsory steal and what that set off), the end of a round (the last pass,
the clean-up, the Direction tile) and the final scoring (the Fence majorities, then each
Scheme). Each seat and a spectator are told the same steps from their own views: nothing
secret on the way (another's Scheme before the final scoring shows it, another's new hand).
Reduced motion draws the frame's board at once; the story can be skipped."""

from __future__ import annotations

import re
from typing import Any, Literal

import httpx2
import pytest
from playwright.sync_api import Browser, Page, expect

import thievery
from tests.browser.conftest import SeatLinks, seat_key
from tests.browser.test_motion_web import on_the_tests_clock, run_story
from tests.browser.test_motion_web import told as steps_told
from thievery.core.protocol import State

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1400, "height": 1000}
THIEVING = re.compile(r"^(Thieving|Stehlen)$")
SCOUTING_PHASE = re.compile(r"^(Scouting|Auskundschaften)$")
SEED = 5
SCHEMES = ["village-shadow", "shadow-ruins"]  # Ada's, Bob's
HEXER = "warlock-hexer-a"
OPTIONS: dict[str, Any] = {
    # Dealt alternately from the top: Ada gets Market, Tavern, Hideout, Crypt; Bob gets
    # Potion Shop, Farmstead, Rooftops, Shrine.
    "location_deck": [
        "market-a",
        "potion-shop-a",
        "tavern-a",
        "farmstead-a",
        "hideout-a",
        "rooftops-a",
        "crypt-a",
        "shrine-a",
    ],
    # Stack 0 shows Double Up (then Renown, Windfall); stacks 1 and 2 Inside Job, Hire Out.
    "power_tiles": [
        "double-up",
        "renown",
        "windfall",
        "inside-job",
        "recruits",
        "sleight",
        "hire-out",
        "busy-night",
        "recall",
    ],
    "fence_deck": [HEXER],  # in the row: 2 Potions for 6 Prestige
    "first_player": 0,
    "schemes": SCHEMES,
}
SCOUTING = [
    (0, {"type": "pick", "card": "market-a"}),
    (1, {"type": "pick", "card": "potion-shop-a"}),
    (0, {"type": "pick", "card": "farmstead-a"}),
    (1, {"type": "pick", "card": "tavern-a"}),
    (0, {"type": "pick", "card": "hideout-a"}),
    (1, {"type": "pick", "card": "rooftops-a"}),
]
STEAL = (0, {"type": "steal", "card": "potion-shop-a"})  # Bob's Location: his Owner Bonus
WITCH = (1, {"type": "witch", "treasure": "potion"})
DOUBLE_UP = (0, {"type": "power", "tile": "double-up", "pay": "potion"})

# What #game shows on every change: the step told, each seat's counts, the Thieves on the
# Potion Shop, the marked seat and card, and the whole HTML (for the secrets).
RECORD = """() => {
  const game = document.getElementById("game");
  const num = (el) => (el ? Number(el.textContent) : null);
  window.seen = [];
  const note = () => {
    const bar = game.querySelector(".narration");
    const seats = {};
    for (const seat of game.querySelectorAll(".td-seat")) {
      seats[seat.dataset.seat] = {
        thieves: num(seat.querySelector(".td-seatinfo [data-token=thief] b")),
        potions: num(seat.querySelector(".td-seatinfo [data-token=potion] b")),
        prestige: num(seat.querySelector(".td-score b")),
        locations: [...seat.querySelectorAll(".td-above .td-loc")].map((e) => e.dataset.card),
        above: [...seat.querySelectorAll(".td-above [data-card]")].map((e) => e.dataset.card),
        told: seat.classList.contains("td-told"),
      };
    }
    const shop = game.querySelector('[data-card="potion-shop-a"] .td-spot');
    window.seen.push({
      narrating: game.dataset.narrating === "true",
      step: game.dataset.step || null,
      text: bar ? bar.querySelector(".narr-text")?.textContent || "" : null,
      count: bar ? bar.querySelector(".narr-count")?.textContent || "" : null,
      seats,
      row: [...game.querySelectorAll(".td-fences .td-card")].map((e) => e.dataset.card || null),
      hand: [...game.querySelectorAll(".td-hand [data-card]")].map((e) => e.dataset.card),
      shop: !shop ? null : shop.classList.contains("taken") ? num(shop.querySelector("b")) ?? 1 : 0,
      toldCards: [...game.querySelectorAll(".td-card.td-told, .td-tile.td-told")]
        .map((e) => e.dataset.card || e.dataset.tile),
      html: game.innerHTML,
    });
  };
  new MutationObserver(note).observe(game, {
    childList: true, subtree: true, attributes: true,
    attributeFilter: ["data-narrating", "data-step"],
  });
}"""


class Table(SeatLinks):
    """The stacked table, both seats human, moved through the HTTP API; the same game kept
    by the engine here, to know what comes."""

    def __init__(self, server: str) -> None:
        body: dict[str, Any] = {
            "game": "thieves-den",
            "scenario": True,
            "seed": SEED,
            "options": OPTIONS,
            "seats": [{"kind": "human", "name": n} for n in ("Ada", "Bob")],
        }
        made = httpx2.post(f"{server}/api/tables", json=body)
        assert made.status_code == 201, made.text
        self.server = server
        self.id = made.json()["table"]["id"]
        super().__init__(made.json()["seats"])
        self.state: State = thievery.game("thieves-den").new(2, SEED, OPTIONS)

    def act(self, seat: int, action: dict[str, Any]) -> list[Any]:
        response = httpx2.post(
            f"{self.server}/api/tables/{self.id}/actions",
            json={"action": action},
            headers={"Authorization": f"Bearer {self.key(seat)}"},
        )
        assert response.status_code == 200, response.text
        return list(self.state.apply(seat, action))

    def next_move(self) -> tuple[int, dict[str, Any]]:
        """A short game's next move: keep the first card, pass, else the first choice."""
        seat = self.state.to_act[0]
        legal = [a.to_json() for a in self.state.legal_actions(seat)]
        passing = [a for a in legal if a["type"] == "pass"]
        return seat, (passing or legal)[0]

    def play_until_the_last_move(self) -> tuple[int, dict[str, Any]]:
        """Play on (the short game) up to the move that ends the game; that move."""
        while True:
            seat, action = self.next_move()
            trial = self.state.clone()
            trial.apply(seat, action)
            if trial.is_over:
                return seat, action
            self.act(seat, action)


def open_page(
    browser: Browser,
    url: str,
    motion: Literal["no-preference", "reduce"] = "no-preference",
    locale: str = "en-GB",
) -> Page:
    """A page on ``url``, its timers on the test's clock (paused: a story moves on only
    as the test runs it; under reduced motion nothing waits on a timer)."""
    context = browser.new_context(viewport=DESKTOP, locale=locale, reduced_motion=motion)
    page = context.new_page()
    page.goto(url)
    expect(page.locator(".td-seat")).to_have_count(2)
    on_the_tests_clock(page)
    return page


def settled(page: Page, round_: int = 1, phase: re.Pattern[str] = THIEVING) -> None:
    """Until the page shows ``phase`` (Thieving) of round ``round_``, no story playing (one
    under way is run to its end on the page's clock), then record what it draws."""
    for _ in range(300):
        if page.evaluate("'narrating' in document.getElementById('game').dataset"):
            page.clock.run_for(100)
        elif page.locator(".td-round").inner_text() == str(round_) and phase.match(
            page.locator(".td-phase").inner_text()
        ):
            break
        else:
            page.wait_for_timeout(50)
    else:
        raise AssertionError(f"the page never showed {phase.pattern} of round {round_}")
    page.wait_for_timeout(150)
    page.evaluate(RECORD)


def told(page: Page) -> list[dict[str, Any]]:
    """Once a story has started: run to its end on the page's clock; its steps, once
    each, in order."""
    run_story(page)
    return steps_told(page)


def counts(step: dict[str, Any]) -> list[tuple[int, int, int]]:
    """Each seat's Thieves, Potions and Prestige at a step."""
    seats = step["seats"]
    return [(seats[k]["thieves"], seats[k]["potions"], seats[k]["prestige"]) for k in sorted(seats)]


def drawn_at_once(page: Page, selector: str, text: str) -> None:
    """Once ``selector`` shows ``text`` (the frame drawn): nothing was told on the way."""
    expect(page.locator(selector)).to_have_text(text)
    page.wait_for_timeout(300)
    seen: list[dict[str, Any]] = page.evaluate("window.seen")
    assert seen and not any(s["narrating"] for s in seen)


def never_shown(page: Page, needles: list[str], until_step: str | None = None) -> None:
    """None of ``needles`` (HTML fragments) in anything the page drew (up to the first
    step marked ``until_step``)."""
    seen: list[dict[str, Any]] = page.evaluate("window.seen")
    for snapshot in seen:
        if until_step and snapshot["step"] == until_step:
            break
        shown = [n for n in needles if n in snapshot["html"]]
        assert not shown, f"shown too early: {shown} (step {snapshot['step']})"


def test_a_steal_and_a_double_up_are_told_step_by_step(server: str, browser: Browser) -> None:
    table = Table(server)
    pages: dict[int | None, Page] = {s: open_page(browser, table.invites[s]) for s in (0, 1)}
    for s in (0, 1):  # (the pages' invites are used: the seats' keys from now on)
        table.tokens[s] = seat_key(pages[s], table.invites[s])
    pages[None] = open_page(browser, f"{server}/table/{table.id}?watch", locale="de-DE")
    errors: list[str] = []
    for page in pages.values():
        page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        for move in SCOUTING:
            table.act(*move)
        for page in pages.values():
            settled(page)

        # Ada steals at Bob's Potion Shop. Bob (and the spectator) are told the steal with
        # what it gives her, then his Owner Bonus with what it gives him.
        table.act(*STEAL)
        story = {s: told(pages[s]) for s in (1, None)}
        bob = story[1]
        assert [s["step"] for s in bob] == ["steal", "bonus"], bob
        assert [s["count"] for s in bob] == ["1/2", "2/2"]
        texts = [s["text"] for s in bob]
        assert texts[0] == "Ada steals at your Potion Shop · Ada takes 3 potions"
        assert texts[1] == "You get the Owner Bonus of Potion Shop · You take 1 potion"
        # The board catches up step by step: the Thief on the Potion Shop and Ada's Potions,
        # then Bob's Potion; the step's seat and card stand out.
        assert [s["shop"] for s in bob] == [1, 1]
        assert [s["seats"]["0"]["thieves"] for s in bob] == [2, 2]
        assert [s["seats"]["0"]["potions"] for s in bob] == [3, 3]
        assert [s["seats"]["1"]["potions"] for s in bob] == [0, 1]
        assert [(s["seats"]["0"]["told"], s["seats"]["1"]["told"]) for s in bob] == [
            (True, False),
            (False, True),
        ]
        assert all("potion-shop-a" in s["toldCards"] for s in bob)
        # The spectator is told the same steps (in German).
        assert [s["seats"] for s in story[None]] == [s["seats"] for s in bob]
        assert "stiehlt" in story[None][0]["text"]
        # Ada chose the steal, knowing the card: her steal and its bonus are one step, drawn
        # at once.
        drawn_at_once(pages[0], '.td-seat[data-seat="1"] .td-seatinfo [data-token=potion] b', "1")

        # Bob's Witch delivery is one step: drawn at once, nothing told.
        for s in pages:
            settled(pages[s])
        table.act(*WITCH)
        drawn_at_once(pages[0], '.td-seat[data-seat="1"] .td-score b', "2")

        # Ada's Double Up: the tile paid and its Thief; the compulsory steal on the only
        # Action Spot that holds a Thief (Bob's Potion Shop) and its Potion; his bonus (the
        # supply has no Potion left for him): told to her in two steps, to Bob in three.
        for s in pages:
            settled(pages[s])
        table.act(*DOUBLE_UP)
        story = {s: told(page) for s, page in pages.items()}
        ada = story[0]
        assert [s["step"] for s in ada] == ["power", "steal"], [s["text"] for s in ada]
        texts = [s["text"] for s in ada]
        assert texts[0] == "You use the Power tile Double Up (paying a potion) · You take 1 thief"
        assert texts[1] == (
            "You steal at Bob's Potion Shop · Bob gets the Owner Bonus of Potion Shop"
            " · You take 1 potion · Bob gets no potion: the supply is empty"
        )
        assert "double-up" in ada[0]["toldCards"]
        assert [s["seats"]["0"]["thieves"] for s in ada] == [3, 2]
        assert [s["shop"] for s in ada] == [1, 2]
        assert [s["seats"]["0"]["potions"] for s in ada] == [2, 3]
        bob = story[1]
        assert [s["step"] for s in bob] == ["power", "steal", "bonus"]
        assert (
            bob[2]["text"]
            == "You get the Owner Bonus of Potion Shop · You get no potion: the supply is empty"
        )
        assert [counts(bob[0]), counts(bob[2])] == [counts(ada[0]), counts(ada[1])]
        assert [x["seats"] for x in story[None]] == [x["seats"] for x in bob]
        # Nothing secret on the way: no seat sees another's Scheme, the spectator none.
        never_shown(pages[0], [f'data-scheme="{SCHEMES[1]}"'])
        never_shown(pages[1], [f'data-scheme="{SCHEMES[0]}"'])
        never_shown(pages[None], [f'data-scheme="{x}"' for x in SCHEMES])

        # The end of round 1: Bob passes (one step: at once), Ada's pass ends the round.
        table.act(1, {"type": "pass"})
        for s in pages:
            settled(pages[s])
        events = table.act(0, {"type": "pass"})
        story = {s: told(page) for s, page in pages.items()}
        ada = story[0]
        assert [s["step"] for s in ada] == ["pass", "cleanup", "direction"], ada
        assert "Round 1 ends" in ada[1]["text"]
        # The clean-up: the Locations leave the boards, the Thieves on them go home.
        assert ada[0]["seats"]["1"]["locations"] == ["potion-shop-a", "tavern-a", "rooftops-a"]
        assert ada[1]["seats"]["1"]["locations"] == []
        assert ada[1]["seats"]["1"]["thieves"] == 3 + 2  # his 3, and Ada's 2 on his shop
        # Round 2's hands are dealt in this frame: nobody sees another's, on the way or after.
        hands = {
            e.audience: e.data["cards"] for e in events if e.type == "dealt" and e.data["cards"]
        }
        assert set(hands) == {0, 1}
        for seat, cards in hands.items():
            for other, page in pages.items():
                if other != seat:
                    never_shown(page, [f'data-card="{c}"' for c in cards])
        expect(pages[0].locator(".td-hand [data-card]")).to_have_count(len(hands[0]))

        # The final scoring: play on to the last move, then the majorities and the Schemes.
        seat, last = table.play_until_the_last_move()
        for s in pages:
            settled(pages[s], 3)
        table.act(seat, last)
        story = {s: told(page) for s, page in pages.items()}
        ada = story[0]
        assert [s["step"] for s in ada][-4:] == ["cleanup", "majorities", "scheme", "scheme"]
        assert "Final scoring" in ada[-3]["text"]
        assert re.search(r"Your Scheme \(Village \+ Shadow\): \d+ × \d+ = \+\d+", ada[-2]["text"])
        assert re.search(r"Bob’s Scheme \(Shadow \+ Ruins\)", ada[-1]["text"])
        # Bob's Scheme shows on Ada's page from its own step on, not before.
        never_shown(pages[0], [f'data-scheme="{SCHEMES[1]}"'], until_step="scheme")
        assert f'data-scheme="{SCHEMES[1]}"' in ada[-1]["html"]
        result = table.state.view(None)["result"]
        assert [ada[-1]["seats"][str(s)]["prestige"] for s in (0, 1)] == result["scores"]
        expect(pages[0].locator(".td-final")).to_have_count(1)
        # The spectator's page is German: the same steps, in German, no word left English.
        watcher = story[None]
        assert [s["step"] for s in watcher] == [s["step"] for s in ada]
        assert watcher[-3]["text"].startswith("Schlusswertung")
        assert "Plan von Ada (Dorf + Schatten)" in watcher[-2]["text"]
        assert "Runde 3 endet" in watcher[-4]["text"]
        missing = pages[None].evaluate(
            "async () => [...(await import('/static/js/i18n.js')).missing]"
        )
        assert missing == []
        assert errors == []
    finally:
        for page in pages.values():
            page.context.close()


def test_reduced_motion_draws_at_once_a_story_can_be_skipped_and_a_sale_is_told(
    server: str, browser: Browser
) -> None:
    table = Table(server)
    calm = open_page(browser, f"{server}/table/{table.id}?watch", motion="reduce")
    busy = open_page(browser, table.invites[1])
    table.tokens[1] = seat_key(busy, table.invites[1])  # (its invite is used now)
    errors: list[str] = []
    for page in (calm, busy):
        page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        # The last pick of Scouting, told to Bob: the reveal, then the cards left in the
        # hands laid out as neutral Locations (his hand empty then). Ada's last card is
        # hers until then.
        for move in SCOUTING[:-1]:
            table.act(*move)
        settled(busy, 1, SCOUTING_PHASE)
        table.act(*SCOUTING[-1])
        steps = told(busy)
        assert [s["step"] for s in steps] == ["reveal", "neutral"], steps
        assert steps[0]["seats"]["1"]["locations"] == ["potion-shop-a", "tavern-a", "rooftops-a"]
        assert steps[0]["hand"] == ["shrine-a"] and steps[1]["hand"] == []
        never_shown(busy, ['data-card="crypt-a"'], until_step="neutral")
        assert 'data-card="crypt-a"' in steps[1]["html"]
        for page in (calm, busy):
            settled(page)
        # Bob's story waits on the test's clock: it holds at its first step until Escape,
        # however long the checks of the calm page take. The calm page's clock stands
        # still too: what it draws waited on no timer.
        table.act(*STEAL)
        expect(
            calm.locator('.td-seat[data-seat="1"] .td-seatinfo [data-token=potion] b')
        ).to_have_text("1")
        seen: list[dict[str, Any]] = calm.evaluate("window.seen")
        assert seen and not any(s["narrating"] or s["text"] is not None for s in seen)
        # The first change is the frame's board: the Potions taken, Bob's bonus paid.
        assert seen[0]["seats"]["0"]["potions"] == 3 and seen[0]["seats"]["1"]["potions"] == 1
        # Bob's page tells it; Escape skips to the board at once, with his choices.
        expect(busy.locator("#game[data-narrating]")).to_have_count(1)
        busy.keyboard.press("Escape")
        expect(busy.locator("#game[data-narrating]")).to_have_count(0)  # (its clock stands still)
        expect(
            busy.locator('.td-seat[data-seat="1"] .td-seatinfo [data-token=potion] b')
        ).to_have_text("1")
        expect(busy.locator("#game [data-action]").first).to_be_visible()
        shown = {s["count"] for s in busy.evaluate("window.seen") if s["narrating"]}
        assert "2/2" not in shown
        expect(busy.locator("#log")).to_contain_text("You take 1 potion")

        # Ada's sale to the Hexer, told to Bob: the sale (her Potions and a Thief on the
        # Fence, now above her board; its place in the row empty), then the new Fence.
        table.act(*WITCH)
        settled(busy)
        table.act(0, {"type": "fence", "card": HEXER})
        steps = told(busy)
        assert [s["step"] for s in steps] == ["fence", "fence-drawn"], steps
        # (named as the card set names it: "Hexer", not its id in words, "Warlock Hexer")
        assert steps[0]["text"] == "Ada sells to the Fence Hexer for 6 Prestige"
        assert steps[1]["text"].startswith("New Fence: ")
        assert [counts(s)[0] for s in steps] == [(1, 1, 6), (1, 1, 6)]
        row = [s["row"] for s in steps]
        assert row[0].count(None) == 1 and HEXER not in row[0]
        assert None not in row[1] and row[1][row[0].index(None)] not in (None, HEXER)
        assert all(HEXER in s["seats"]["0"]["above"] for s in steps)
        assert errors == []
    finally:
        calm.context.close()
        busy.context.close()
