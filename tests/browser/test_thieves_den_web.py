"""Thieves Den in a real Chromium: a 3-player game (1 human, 2 bots) played to the end by
clicking only what the page offers, with a spectator who never sees the human's secrets;
and a table with a custom card set, whose words the page shows from the view's catalogue
(live, after updates, and in the replay of a record)."""

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

from tests.browser.conftest import seat_key
from tests.browser.pages import watch_errors
from tests.games.thieves_den.helpers import CUSTOM_SET, SPEC, write_custom_set
from thievery.core import GameRecord, Rng
from thievery.games.thieves_den.cards import inline_card_set

pytestmark = pytest.mark.browser

# ------------------------------------------------------------------ a whole game by clicking

NAMES = ["Zoe", "Ann", "Bob"]


def offered(page: Page, selector: str = "#game [data-action]") -> list[dict[str, Any]]:
    """The actions the page offers (as JSON), one per element, in page order."""
    raw = page.locator(selector).evaluate_all("els => els.map(e => e.dataset.action)")
    return [json.loads(a) for a in raw]


def open_seat_0(server: str, browser: Browser, body: dict[str, Any]) -> tuple[Page, list[str]]:
    """Create a table from ``body`` and open seat 0's invite link in a new page; the page
    and its JavaScript errors (collected from the start)."""
    made = httpx2.post(f"{server}/api/tables", json=body)
    assert made.status_code < 300, made.text
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = watch_errors(page)
    page.goto(made.json()["seats"][0]["invite"])
    return page, errors


def key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def test_play_a_whole_game_with_two_bots(server: str, browser: Browser, output: Path) -> None:
    body: dict[str, Any] = {
        "game": "thieves-den",
        "scenario": True,  # a chosen seed
        "seed": 11,
        "seats": [{"kind": "human", "name": NAMES[0]}]
        + [{"kind": "bot", "bot": "heuristic", "name": n} for n in NAMES[1:]],
    }
    made = httpx2.post(f"{server}/api/tables", json=body)
    assert made.status_code < 300, made.text
    table_id = made.json()["table"]["id"]
    me = made.json()["seats"][0]
    auth = {"Authorization": f"Bearer {me['token']}"}

    def legal_now() -> list[dict[str, Any]]:
        state = httpx2.get(f"{server}/api/tables/{table_id}/state", headers=auth).json()
        return list(state["legal"])

    # This test clicks legal moves: the chains are drawn at once, not told step by step
    # (test_thieves_den_told_web tells them).
    size = {"width": 1400, "height": 1000}
    ctx_me = browser.new_context(viewport=size, reduced_motion="reduce")
    ctx_watch = browser.new_context(viewport=size, reduced_motion="reduce")
    try:
        page = ctx_me.new_page()
        errors = watch_errors(page)
        page.goto(me["invite"])
        expect(page.locator("#who")).to_have_text("you are Zoe")
        auth["Authorization"] = f"Bearer {seat_key(page, me['invite'])}"  # (invite used)
        expect(page.locator(".td-seat")).to_have_count(3)
        expect(page.locator(".td-fences .td-fence")).to_have_count(6)
        expect(page.locator(".td-tile")).to_have_count(3)
        expect(page.locator(".td-wspot")).to_have_count(5)
        scheme = page.locator(".td-seat.me [data-scheme]").get_attribute("data-scheme")
        assert scheme
        watcher = ctx_watch.new_page()
        watch_errs = watch_errors(watcher)
        watcher.goto(f"{server}/table/{table_id}?watch")
        expect(watcher.locator(".td-seat")).to_have_count(3)
        expect(watcher.locator("#who")).to_have_text("watching")

        rng = random.Random(3)
        kinds: set[str] = set()
        clicks = checks = stale = 0
        shots: set[str] = set()
        deadline = time.time() + 90
        while not page.locator("#result").is_visible():
            assert time.time() < deadline, "the game did not end"
            try:
                acts = offered(page)
                if not acts:
                    page.wait_for_timeout(20)
                    continue
                # The page offers exactly the legal actions (Recruit's pairs after a pick).
                legal = {key(a) for a in legal_now()}
                shown = {key(a) for a in acts}
                if not shown <= legal:  # the table moved on under us: look again
                    stale += 1
                    assert stale < 100, f"offered but not legal: {shown - legal}"
                    continue
                stale = 0
                missing = [json.loads(a) for a in legal - shown]
                assert all(a["type"] == "recruit" for a in missing), missing
                if missing:
                    assert page.locator('.td-recruit [data-pick*="recruit"]').count()
                checks += 1
                kinds.update(a["type"] for a in acts)
                phase = page.locator(".td-phase").inner_text()
                # A spectator sees neither the human's Scheme, nor hand, nor sealed pick.
                seen = watcher.content()
                assert scheme not in seen
                assert watcher.locator(".td-hand, .td-kept, [data-scheme]").count() == 0
                if phase == "Scouting":
                    hand = page.locator(".td-hand [data-card]").evaluate_all(
                        "els => els.map(e => e.dataset.card)"
                    )
                    assert hand and all(f'data-card="{c}"' not in seen for c in hand)
                shot = {"Scouting": "scouting", "Thieving": "thieving"}.get(phase)
                if shot and shot not in shots and (shot == "scouting" or clicks > 12):
                    page.screenshot(path=str(output / f"thieves-den-{shot}.png"), full_page=True)
                    shots.add(shot)
                if page.locator(".td-act.decision").count() and "decision" not in shots:
                    page.screenshot(path=str(output / "thieves-den-decision.png"), full_page=True)
                    shots.add("decision")
                # Choose: mostly something other than passing or skipping.
                picks = page.locator('.td-recruit [data-pick*="recruit"][aria-pressed="false"]')
                if picks.count() and rng.random() < 0.2:
                    picks.nth(rng.randrange(picks.count())).click(timeout=1000)
                    pairs = offered(page, ".td-recruit [data-action]")
                    assert pairs and all(a["type"] == "recruit" for a in pairs)
                    page.locator(".td-recruit [data-action]").first.click(timeout=1000)
                    clicks += 1
                    continue
                busy = [a for a in acts if a["type"] not in ("pass", "skip")]
                choice = rng.choice(busy) if busy and rng.random() < 0.85 else rng.choice(acts)
                at = [i for i, a in enumerate(acts) if a == choice]
                page.locator("#game [data-action]").nth(rng.choice(at)).click(timeout=1000)
                clicks += 1
            except AssertionError:
                raise
            except Exception:  # the table moved on under the pointer: look again
                continue
        assert clicks >= 9 and checks >= 9
        assert {"pick", "pass", "steal"} <= kinds

        result = page.locator("#result")
        expect(result.locator("tr")).to_have_count(3)
        expect(result).to_contain_text("Final scores")
        page.screenshot(path=str(output / "thieves-den-result.png"))
        page.click("#close-result")
        expect(page.locator(".td-prompt")).to_contain_text("game is over")
        expect(page.locator(".td-final")).to_be_visible()
        expect(page.locator(".td-final tbody tr")).to_have_count(3)
        expect(page.locator(".td-badge.win").first).to_be_visible()
        expect(page.locator("[data-scheme]")).to_have_count(3)  # every Scheme is shown at the end
        expect(page.locator("#game [data-action]")).to_have_count(0)
        page.screenshot(path=str(output / "thieves-den-over.png"), full_page=True)
        expect(watcher.locator(".td-final")).to_be_visible()
        watcher.click("#close-result")
        watcher.screenshot(path=str(output / "thieves-den-spectator.png"), full_page=True)
        record = httpx2.get(f"{server}/api/tables/{table_id}/record").json()
        assert record["result"]["winners"]
        # The replay viewer draws it too.
        page.goto(f"{server}/replay/{table_id}")
        expect(page.locator(".td-seat")).to_have_count(3)
        page.click("#last")
        expect(page.locator(".td-final")).to_be_visible()
        page.screenshot(path=str(output / "thieves-den-replay.png"), full_page=True)
        assert errors == [] and watch_errs == []
    finally:
        ctx_me.close()
        ctx_watch.close()


# Non-instant 2-player cards on top of the deck: both unchosen cards become neutral Locations.
TWO_PLAYER_DECK = [
    "market-a", "potion-shop-a", "farmstead-a", "tavern-a",
    "wayside-inn-a", "black-market-a", "hideout-a", "smugglers-cove-a",
]  # fmt: skip


def test_two_players_steal_at_a_neutral_location(
    server: str, browser: Browser, output: Path
) -> None:
    body: dict[str, Any] = {
        "game": "thieves-den",
        "scenario": True,  # a stacked deal
        "options": {"location_deck": TWO_PLAYER_DECK, "first_player": 0},
        "seats": [
            {"kind": "human", "name": "Zoe"},
            {"kind": "bot", "bot": "random", "name": "Ann"},
        ],
    }
    page, errors = open_seat_0(server, browser, body)
    try:
        for left in (4, 3, 2):
            expect(page.locator(".td-hand [data-action]")).to_have_count(left)
            assert {a["type"] for a in offered(page)} == {"pick"}
            page.locator(".td-hand [data-action]").first.click()
        expect(page.locator(".td-phase")).to_have_text("Thieving")
        neutral = page.locator(".td-neutral .td-loc")
        expect(neutral).to_have_count(2)
        expect(page.locator(".td-prompt.you")).to_contain_text("Your turn")
        card = neutral.first.get_attribute("data-card")
        assert {"type": "steal", "card": card} in offered(page)
        page.screenshot(path=str(output / "thieves-den-two-players.png"), full_page=True)
        neutral.first.click()
        expect(page.locator(f'.td-neutral [data-card="{card}"] .td-spot.taken')).to_have_count(1)
        assert errors == []
    finally:
        page.close()


def test_a_custom_card_set_shows_its_own_names_and_texts(
    server: str, browser: Browser, tmp_path: Path, output: Path
) -> None:
    body: dict[str, Any] = {
        "game": "thieves-den",
        "scenario": True,  # a chosen seed and a stacked deal
        "seed": 2,
        # Seat 0 is dealt the Market ("Night Bazaar" here) and the Renown tile ("Fame")
        # lies on top of the first Power stack.
        "options": {
            "cards": inline_card_set(write_custom_set(tmp_path)),
            "first_player": 0,
            "location_deck": ["market-a"],
            "power_tiles": ["renown"],
        },
        "seats": [{"kind": "human", "name": "Zoe"}]
        + [{"kind": "bot", "bot": "random", "name": n} for n in ("Ann", "Bob")],
    }
    page, errors = open_seat_0(server, browser, body)
    try:
        market = page.locator('.td-hand [data-card="market-a"]')
        expect(market.locator(".td-lname")).to_have_text("Night Bazaar")
        expect(market.locator(".td-ltext")).to_have_text("Take 3 Jewels")
        assert "Owner Bonus: Take 2 Thieves" in (market.get_attribute("title") or "")
        tile = page.locator('.td-tile[data-tile="renown"]')
        expect(tile.locator(".td-tname")).to_contain_text("Fame")
        expect(tile.locator(".td-ttext")).to_have_text("Gain 5 Prestige")
        chip = page.locator(".td-unofficial")
        expect(chip).to_have_attribute("title", re.compile(f"^{re.escape(CUSTOM_SET)}:"))
        # Picked and revealed: drawn from update frames, which leave the catalogue out.
        market.click()
        mine = page.locator('.td-seat.me [data-card="market-a"]')
        expect(mine.locator(".td-lname")).to_have_text("Night Bazaar")
        expect(mine.locator(".td-ltext")).to_have_text("Take 3 Jewels")
        expect(tile.locator(".td-ttext")).to_have_text("Gain 5 Prestige")
        page.screenshot(path=str(output / "thieves-den-custom-cards.png"), full_page=True)
        assert errors == []
    finally:
        page.close()


def test_the_replay_of_a_custom_card_set_record_shows_its_words(
    server: str, browser: Browser, tmp_path: Path
) -> None:
    options = {"cards": inline_card_set(write_custom_set(tmp_path)), "power_tiles": ["renown"]}
    state = SPEC.new(3, 4, options)
    rng = Rng(1)
    while state.to_act:
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    record = tmp_path / "custom.json"
    GameRecord.of(state).save(record)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        errors = watch_errors(page)
        page.goto(f"{server}/replay")
        page.set_input_files("#file", str(record))
        expect(page.locator(".td-seat")).to_have_count(3)
        page.click("#next")  # a later step: its views leave the catalogue out
        expect(page.locator("#step")).to_have_text(re.compile(r"^step 1 of \d+$"))
        tile = page.locator('.td-tile[data-tile="renown"]')
        expect(tile.locator(".td-tname")).to_contain_text("Fame")
        expect(tile.locator(".td-ttext")).to_have_text("Gain 5 Prestige")
        page.click("#last")
        expect(page.locator(".td-final")).to_be_visible()
        assert errors == []
    finally:
        page.close()


def decisions_asked() -> dict[str, tuple[dict[str, Any], list[dict[str, Any]]]]:
    """For each kind of step that asks a seat something, a view (and its legal actions) of
    the seat asked, from random games."""
    found: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
    for seed in range(10):
        state, rng = SPEC.new(3, seed, {}), random.Random(seed)
        while state.result() is None:
            seat = state.to_act[0]
            view, legal = state.view(seat), state.legal_actions(seat)
            if view["stack"]:
                found.setdefault(view["stack"][-1][0], (view, [a.to_json() for a in legal]))
            state.apply(seat, rng.choice(legal))
    return found


def test_every_decision_is_asked_in_german(server: str, browser: Browser) -> None:
    """The page words a step's question itself (the view's text is the engine's English):
    "choose a treasure to pay (2 left)" showed in English on the German page."""
    asked = decisions_asked()
    assert {"wild", "pay", "refresh_fences", "action", "take"} <= set(asked)
    context = browser.new_context(locale="de-DE")
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(server + "/")
        for op, (view, legal) in sorted(asked.items()):
            text = page.evaluate(
                """async ([view, legal]) => {
                  const { default: game } = await import("/static/games/thieves-den/game.js");
                  const seats = [0, 1, 2].map((s) => ({ seat: s, kind: "human", name: "P" + s }));
                  const box = document.createElement("div");
                  const ctx = { view, legal, seat: view.seat, seats, toAct: view.to_act,
                    mode: "play", clockMs: null, send() {} };
                  game.render(box, ctx);
                  return box.querySelector("[data-prompt]").textContent;
                }""",
                [view, legal],
            )
            assert "choose" not in text and "you " not in text, (op, text)
            assert re.search(r"\b(wähl|mach|du darfst)\b", text, re.I), (op, text)
        assert errors == []
    finally:
        context.close()


# What screen readers hear for the counts: (English, German), the board's own words.
COUNT_WORDS = {
    "tome": ("Tome", "Foliant"),
    "jewel": ("Jewel", "Juwel"),
    "artifact": ("Artifact", "Artefakt"),
    "fossil": ("Fossil", "Fossil"),
    "potion": ("Potion", "Trank"),
    "supply": ("{what}: {n} in the supply", "{what}: {n} im Vorrat"),
    "thieves": ("Thieves: {n} in the supply", "Diebe: {n} im Vorrat"),
    "deck": ("Location cards in the deck: {n}", "Ortskarten im Stapel: {n}"),
    "held": ("treasures held: {n} (at most 8)", "gehaltene Schätze: {n} (höchstens 8)"),
    "on_board": ("Thieves on the board: {n}", "Diebe auf dem Tableau: {n}"),
    "board": ("Thieves: {n} (at most 6)", "Diebe: {n} (höchstens 6)"),
    "score": ("Prestige: {n}", "Prestige: {n}"),
    "fence": ("Prestige for a sale: {n}", "Prestige pro Verkauf: {n}"),
}

DRAW_VIEW = """async ([view, legal]) => {
  const { default: game } = await import("/static/games/thieves-den/game.js");
  const seats = [0, 1, 2].map((s) => ({ seat: s, kind: "human", name: "P" + s }));
  game.render(document.getElementById("game"), { view, legal, seat: view.seat, seats,
    toAct: view.to_act, mode: "play", clockMs: null, send() {} });
}"""


def counts_heard(view: dict[str, Any], lang: str) -> dict[str, list[str]]:
    """What a screen reader should hear for the supply's counts and seat 0's, in ``lang``."""
    w = {key: words[("en", "de").index(lang)] for key, words in COUNT_WORDS.items()}
    supply, mine = view["supply"], view["seats"][0]
    fences = view["catalogue"]["fences"]
    return {
        ".td-supply .td-on >> nth=0": [
            *(w["supply"].format(what=w[t], n=n) for t, n in supply["treasures"].items()),
            w["thieves"].format(n=supply["thieves"]),
        ],
        ".td-supply .td-deck": [w["deck"].format(n=view["location_deck"])],
        '.td-seat[data-seat="0"] .td-tr >> nth=0': [
            *(f"{w[t]}: {n}" for t, n in mine["treasures"].items()),
            w["held"].format(n=sum(mine["treasures"].values())),
        ],
        '.td-seat[data-seat="0"] .td-tr >> nth=1': [
            w["on_board"].format(n=mine["thieves"]),
            w["board"].format(n=mine["thieves"]),
        ],
        '.td-seat[data-seat="0"] .td-score': [w["score"].format(n=mine["prestige"])],
        **{
            f".td-fences .td-prest >> nth={i}": [w["fence"].format(n=fences[base]["prestige"])]
            for i, base in enumerate(c.rsplit("-", 1)[0] for c in view["fence_row"] if c)
        },
    }


def test_treasure_supply_and_prestige_counts_have_words_for_screen_readers(
    server: str, browser: Browser
) -> None:
    """The counts said only "3" to a screen reader (what they count was in hover titles):
    each says what it counts, in English and German, and no bare number is left. (The
    Prestige score and a Fence's Prestige were bare numbers after the others had words.)"""
    state, rng = SPEC.new(3, 2, {}), random.Random(1)
    view = state.view(0)
    while not (view["phase"] == "thieving" and sum(view["seats"][0]["treasures"].values()) > 1):
        seat = state.to_act[0]  # into the thieving phase, seat 0 holding treasures
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        view = state.view(0)
    legal = [a.to_json() for a in state.legal_actions(0)] if 0 in state.to_act else []
    for lang, locale in (("en", "en-GB"), ("de", "de-DE")):
        context = browser.new_context(locale=locale)
        try:
            page = context.new_page()
            errors = watch_errors(page)
            page.goto(server + "/replay")  # a page with the site's styles and a #game
            page.evaluate(DRAW_VIEW, [view, legal])
            for selector, said in counts_heard(view, lang).items():
                heard = page.locator(selector).aria_snapshot()
                rest = heard
                for words in said:
                    assert words in heard, (lang, words, heard)
                    rest = rest.replace(words, "", 1)
                # No number is left without what it counts.
                assert not re.search(r"\d", rest), (lang, selector, heard)
            assert errors == []
        finally:
            context.close()


def test_thieves_on_spots_and_fences_and_owner_bonuses_have_words_for_screen_readers(
    server: str, browser: Browser
) -> None:
    """A Location's Thieves on its Action Spot, a Fence's Thieves (each sale) and an Owner
    Bonus's counts were bare numbers to a screen reader, their words in hover titles only:
    each says what it counts, in English and German, and no bare number is left."""
    state = SPEC.new(3, 2, {})
    view = state.view(0)
    fences = [c for c in view["fence_row"] if c][:2]
    view["seats"][0]["locations"] = [{"card": "market-a", "thieves": 2}]  # (bonus: 2 Thieves)
    view["seats"][0]["fences"] = [{"card": fences[0], "uses": 2}, {"card": fences[1], "uses": 1}]
    heard_words = {
        "en": {
            '.td-seat[data-seat="0"] .td-loc .td-spot': "2 Thieves on the Action Spot",
            '.td-seat[data-seat="0"] .td-loc .td-bonus': "Owner Bonus: Take 2 Thieves",
            '.td-seat[data-seat="0"] .td-fence .td-spot >> nth=0': "2 Thieves on it",
            '.td-seat[data-seat="0"] .td-fence .td-spot >> nth=1': "1 Thief on it",
        },
        "de": {
            '.td-seat[data-seat="0"] .td-loc .td-spot': "2 Diebe auf dem Aktionsfeld",
            '.td-seat[data-seat="0"] .td-loc .td-bonus': "Besitzerbonus:",
            '.td-seat[data-seat="0"] .td-fence .td-spot >> nth=0': "2 Diebe darauf",
            '.td-seat[data-seat="0"] .td-fence .td-spot >> nth=1': "1 Dieb darauf",
        },
    }
    for lang, locale in (("en", "en-GB"), ("de", "de-DE")):
        context = browser.new_context(locale=locale)
        try:
            page = context.new_page()
            errors = watch_errors(page)
            page.goto(server + "/replay")
            page.evaluate(DRAW_VIEW, [view, []])
            for selector, words in heard_words[lang].items():
                heard = page.locator(selector).aria_snapshot()
                assert words in heard, (lang, selector, heard)
                if "onus" not in words:  # (the bonus's own words hold its number)
                    assert not re.search(r"\d", heard.replace(words, "", 1)), (lang, heard)
            assert errors == []
        finally:
            context.close()


# DRAW_VIEW with the game's stylesheet, as the table and the replay load it.
DRAW_STYLED = DRAW_VIEW.replace(
    'const { default: game } = await import("/static/games/thieves-den/game.js");',
    """const { loadRenderer } = await import("/static/js/common.js");
  const game = await loadRenderer("thieves-den");""",
)


def test_power_tiles_paid_for_fit_a_small_phone_in_german(server: str, browser: Browser) -> None:
    """Paid Power tiles' long German names ("Geschäftige Nacht", "Fossil genutzt") made the
    page scroll sideways on a 375 px phone: every tile, all paid for, fits the screen."""
    state, rng = SPEC.new(3, 2, {}), random.Random(1)
    while state.view(0)["phase"] != "thieving":
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    view = state.view(0)
    assert view["powers"] and all(p["tile"] for p in view["powers"])
    for p in view["powers"]:
        p["paid"] = "fossil"  # (each used this round: its chip beside its name)
    legal = [a.to_json() for a in state.legal_actions(0)] if 0 in state.to_act else []
    context = browser.new_context(
        viewport={"width": 375, "height": 667}, locale="de-DE", has_touch=True, is_mobile=True
    )
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(server + "/replay")  # a page with the site's styles and a #game
        assert DRAW_STYLED != DRAW_VIEW
        tiles = sorted(view["catalogue"]["powers"])
        assert len(tiles) >= 6
        for i in range(0, len(tiles), len(view["powers"])):  # every tile, in every column
            for turn in range(len(view["powers"])):
                shown = [tiles[(i + turn + k) % len(tiles)] for k in range(len(view["powers"]))]
                for p, tile in zip(view["powers"], shown, strict=True):
                    p["tile"] = tile
                page.evaluate(DRAW_STYLED, [view, legal])
                paid = page.locator(".td-tile .td-paid")
                expect(paid).to_have_count(len(view["powers"]))
                expect(paid.first).to_contain_text("genutzt")
                wide = page.evaluate(  # (on a phone the window grows to what is drawn)
                    "Math.max(document.documentElement.scrollWidth - innerWidth,"
                    " innerWidth - screen.width)"
                )
                assert wide <= 0, f"{shown}: the page is {wide} px too wide"
        assert errors == []
    finally:
        context.close()


def test_every_fence_shows_its_prestige_on_its_card_in_german(
    server: str, browser: Browser
) -> None:
    """German names are longer ("Totenbeschwörer", the Necromancer, worth 11): the name
    pushed its Prestige past the card's edge, out of sight. Every fence of the set, drawn
    in the row, keeps its Prestige within its card; and a legal card a keyboard focuses
    shows the focus ring (a later rule for :focus took it off)."""
    state = SPEC.new(3, 2, {})
    view = state.view(0)
    fences = sorted(view["catalogue"]["fences"])
    row = len(view["fence_row"])
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="de-DE")
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(server + "/replay")
        outside: list[str] = []
        for i in range(0, len(fences), row):
            view["fence_row"] = [f"{f}-a" for f in (fences * 2)[i : i + row]]
            page.evaluate(DRAW_STYLED, [view, []])
            cards = page.locator(".td-fence")
            expect(cards).to_have_count(row)
            outside += page.evaluate(
                """() => [...document.querySelectorAll(".td-fence")].filter((card) => {
                    const box = card.getBoundingClientRect();
                    const star = card.querySelector(".td-prest").getBoundingClientRect();
                    return star.right > box.right - 1 || star.left < box.left;
                  }).map((card) => card.querySelector(".td-fname").textContent)"""
            )
        assert outside == []
        legal = [{"type": "fence", "card": view["fence_row"][0]}]
        page.evaluate(DRAW_STYLED, [view, legal])
        card = page.locator(".td-card.legal").first
        expect(card).to_be_visible()
        page.keyboard.press("Tab")
        for _ in range(40):  # (Tab until the legal card has the focus)
            if card.evaluate("c => c === document.activeElement"):
                break
            page.keyboard.press("Tab")
        outline = card.evaluate("c => getComputedStyle(c).outlineStyle")
        assert outline == "solid"
        assert errors == []
    finally:
        context.close()


def test_the_first_treasure_chosen_for_recruit_is_pressed_for_screen_readers(
    server: str, browser: Browser
) -> None:
    """Recruit's first treasure, once chosen, was "chosen" only to the eye (a green border):
    a screen reader heard a plain image. Like Thieves' picked card it is a pressed toggle
    now: the treasures to choose from are buttons not pressed, the chosen one is pressed,
    and pressing it again puts it back."""
    state, rng = SPEC.new(2, 5, {}), random.Random(5)
    while not (0 in state.to_act and any(a.type == "recruit" for a in state.legal_actions(0))):
        seat = state.to_act[0]  # into the thieving phase, seat 0 able to Recruit
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    view, legal = state.view(0), [a.to_json() for a in state.legal_actions(0)]
    page = browser.new_page(locale="en-GB")
    try:
        errors = watch_errors(page)
        page.goto(server + "/replay")  # a page with the site's styles and a #game
        page.evaluate(DRAW_STYLED, [view, legal])
        recruit = page.locator(".td-recruit")
        choices = recruit.get_by_role("button", pressed=False)
        expect(choices.first).to_be_visible()
        assert recruit.get_by_role("button", pressed=True).count() == 0
        first = choices.first.get_attribute("data-token")
        choices.first.click()
        chosen = recruit.get_by_role("button", pressed=True)
        expect(chosen).to_have_count(1)
        expect(chosen).to_have_attribute("data-token", str(first))
        expect(chosen).to_have_class(re.compile(r"\bchosen\b"))
        expect(chosen).to_have_accessible_name(re.compile(r"^Recruit: pay an? \w+"))
        expect(recruit.locator("[data-action]").first).to_be_visible()  # (the second one)
        chosen.focus()
        page.keyboard.press("Enter")  # pressed again: put back, the choices again
        expect(recruit.get_by_role("button", pressed=True)).to_have_count(0)
        expect(recruit.locator("[data-action]")).to_have_count(0)
        expect(choices.first).to_be_visible()
        assert errors == []
    finally:
        page.close()
