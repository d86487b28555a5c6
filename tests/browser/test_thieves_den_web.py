"""Thieves Den in a real Chromium: a 3-player game (1 human, 2 bots) played to the end by
clicking only what the page offers, with a spectator who never sees the human's secrets.

The renderer carries the default card set's words (names, abilities, prices) in a generated
block; ``python tests/browser/test_thieves_den_web.py --write`` regenerates it from the card
file, and :func:`test_renderer_card_words_match_the_card_file` checks it is current.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

RENDERER = Path(__file__).resolve().parents[2] / "src/thievery/web/games/thieves-den.js"
BEGIN = "// BEGIN CARDS (generated from data/unofficial.toml; do not edit by hand)\n"
END = "// END CARDS\n"


# ------------------------------------------------------------------ the card words


def catalogue() -> dict[str, Any]:
    """The default card set's words, as the renderer reads them (one entry per design)."""
    from thievery.games.thieves_den.cards import (
        FENCE_TYPES,
        LOCATION_TYPES,
        TREASURES,
        load_card_set,
    )
    from thievery.games.thieves_den.effects import GAIN, THIEF, WILD

    cs = load_card_set()

    def base(card: str) -> str:
        return card.rsplit("-", 1)[0]

    def bonus(steps: tuple[tuple[int, int, int, int], ...]) -> list[list[Any]]:
        out: list[list[Any]] = []
        for op, a, b, _ in steps:
            if op == GAIN:
                out.append(["thief" if a == THIEF else TREASURES[a], b])
            elif op == WILD:
                out.append(["wild", b])
        return out

    locations: dict[str, Any] = {}
    for c, card in enumerate(cs.loc_id):
        locations.setdefault(
            base(card),
            {
                "name": cs.loc_name[c],
                "type": LOCATION_TYPES[cs.loc_type[c]],
                "instant": cs.loc_instant[c],
                "text": cs.loc_text[c],
                "bonus": [] if cs.loc_instant[c] else bonus(cs.loc_bonus[c]),
                "bonus_text": "" if cs.loc_instant[c] else cs.loc_bonus_text[c],
            },
        )
    fences: dict[str, Any] = {}
    for f, card in enumerate(cs.fence_id):
        fences.setdefault(
            base(card),
            {
                "name": cs.fence_name[f],
                "type": FENCE_TYPES[cs.fence_type[f]],
                "desires": [
                    t for t, k in zip(TREASURES, cs.fence_desire[f], strict=True) for _ in range(k)
                ],
                "prestige": cs.fence_prestige[f],
            },
        )
    return {
        "name": cs.name,
        "witch": dict(zip(TREASURES, cs.witch, strict=True)),
        "majority": dict(zip(FENCE_TYPES, cs.majority, strict=True)),
        "locations": locations,
        "fences": fences,
        "schemes": {
            k: {
                "types": [LOCATION_TYPES[t] for t in cs.scheme_types[i]],
                "prestige": cs.scheme_prestige[i],
            }
            for i, k in enumerate(cs.scheme_id)
        },
        "powers": {
            k: {"name": cs.power_name[i], "text": cs.power_text[i]}
            for i, k in enumerate(cs.power_id)
        },
    }


def block(data: dict[str, Any]) -> str:
    """The generated JavaScript between the markers: one line per card."""
    lines = ["const CARDS = {"]
    for key, value in data.items():
        if isinstance(value, dict) and key in ("locations", "fences", "schemes", "powers"):
            lines.append(f"  {json.dumps(key)}: {{")
            for k, v in value.items():
                lines.append(f"    {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
            lines.append("  },")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},")
    lines.append("};")
    return "\n".join(lines) + "\n"


def embedded() -> str:
    text = RENDERER.read_text(encoding="utf-8")
    return text[text.index(BEGIN) + len(BEGIN) : text.index(END)]


def write_block() -> None:
    text = RENDERER.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    RENDERER.write_text(head + BEGIN + block(catalogue()) + END + tail, encoding="utf-8")


def test_renderer_card_words_match_the_card_file() -> None:
    assert embedded() == block(catalogue()), (
        "the renderer's card words are out of date: run "
        "`python tests/browser/test_thieves_den_web.py --write`"
    )


# ------------------------------------------------------------------ a whole game by clicking

NAMES = ["You", "Ann", "Bob"]


def watch_errors(page: Page) -> list[str]:
    """Collect the page's JavaScript errors."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def offered(page: Page, selector: str = "#game [data-action]") -> list[dict[str, Any]]:
    """The actions the page offers (as JSON), one per element, in page order."""
    raw = page.locator(selector).evaluate_all("els => els.map(e => e.dataset.action)")
    return [json.loads(a) for a in raw]


def key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def test_play_a_whole_game_with_two_bots(server: str, browser: Browser, output: Path) -> None:
    body: dict[str, Any] = {
        "game": "thieves-den",
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

    ctx_me = browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx_watch = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = ctx_me.new_page()
        errors = watch_errors(page)
        page.goto(me["invite"])
        expect(page.locator("#who")).to_have_text("you are You")
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
                picks = page.locator('.td-recruit [data-pick*="recruit"]')
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
        "options": {"location_deck": TWO_PLAYER_DECK, "first_player": 0},
        "seats": [
            {"kind": "human", "name": "You"},
            {"kind": "bot", "bot": "random", "name": "Ann"},
        ],
    }
    made = httpx2.post(f"{server}/api/tables", json=body)
    assert made.status_code < 300, made.text
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        errors = watch_errors(page)
        page.goto(made.json()["seats"][0]["invite"])
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


if __name__ == "__main__" and "--write" in sys.argv:
    write_block()
    raise SystemExit(0)
