"""The replay page in a real Chromium: its "This step" panel words a step as the table's
log words it, for the game and the page's language, from the perspective on show."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

import thievery
from thievery.core import GameRecord, Rng

pytestmark = pytest.mark.browser

NAMES = ["Ada", "Bob", "Cy", "Di"]
LOCALES = {"en": "en-GB", "de": "de-DE"}

# Every step's events in the page's log words (eventText, as the table page words them),
# for the perspective's seat (null: a spectator, or everything; everything shown, a seat's
# private line is worded as told to that seat).
WORDED = """async ([steps, seat, names, all]) => {
  const renderer = (await import("/static/games/schattendieb/game.js")).default;
  const { eventText } = await import("/static/js/common.js");
  const seats = names.map((name, s) => ({ seat: s, name }));
  return steps.map((step) => step.events.map((e) =>
    eventText(renderer, e, { seat, seats, to: all ? e.audience ?? null : null })));
}"""
# Everything shown, another seat's private line: marked whom it was told to, and worded as
# it was told ("You drew …"), in the page's language.
TOLD = {"en": r"\(to {name}\) You ", "de": r"\(an {name}\) Du "}


def finished_record(path: Path) -> dict[str, Any]:
    """A whole game of Der Schattendieb between random players, its seats named, saved."""
    state = thievery.game("schattendieb").new(4, 1, {"games": 1})
    rng = Rng(1)
    while state.to_act:
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    GameRecord.of(state, NAMES).save(path)
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def replaying(context: BrowserContext, server: str, path: Path) -> tuple[Page, list[str]]:
    """The replay page with the record file ``path`` picked and shown, and its errors."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/replay")
    page.set_input_files("#file", str(path))
    expect(page.locator("#step")).not_to_be_empty()
    return page, errors


@pytest.mark.parametrize("lang", ["en", "de"])
def test_this_step_is_worded_as_the_tables_log_words_it(
    server: str, browser: Browser, tmp_path: Path, lang: str
) -> None:
    # The panel said "Ada: play · card cufflink 10a" (the action's fields, raw card ids, in
    # English on the German page too) above the step's log lines.
    path = tmp_path / "schattendieb.json"
    record = finished_record(path)
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale=LOCALES[lang])
    try:
        page, errors = replaying(context, server, path)
        for perspective, seat in (("0", 0), ("all", None)):
            page.select_option("#perspective", perspective)
            replay = httpx2.post(
                f"{server}/api/replay?perspective={perspective}", json=record
            ).json()
            steps = replay["steps"]
            expect(page.locator("#slider")).to_have_attribute("max", str(len(steps) - 1))
            page.click("#first")
            expect(page.locator("#actions")).to_have_text(
                "The start." if lang == "en" else "Der Anfang."
            )
            everything = perspective == "all"
            worded: list[list[str]] = page.evaluate(WORDED, [steps, seat, NAMES, everything])
            own = told = 0
            for n in range(1, len(steps)):
                page.click("#next")
                lines = page.locator("#actions .step-event")
                expect(lines).to_have_count(len(worded[n]))
                shown = [line.strip() for line in lines.all_inner_texts()]
                assert shown == worded[n], (perspective, n, shown, worded[n])
                text = page.locator("#actions").inner_text()
                assert not re.search(r"\b[a-z]+-\d+[ab]\b|·", text), text  # no raw fields
                you = "Du " if lang == "de" else "You "
                own += any(line.startswith(you) for line in shown)
                for event, line in zip(steps[n]["events"], shown, strict=True):
                    if everything and event["audience"] is not None:
                        mark = TOLD[lang].format(name=NAMES[event["audience"]])
                        assert re.match(mark, line), (perspective, n, line)
                        told += 1
            assert (told > 0) == everything, (perspective, told)
            # The seat's own moves are told as the table tells them to it ("You chose a
            # card"); everything shown names every seat.
            assert (own > 0) == (seat == 0), (perspective, own)
            if lang == "de":
                english = {e["text"] for step in steps for e in step["events"]}
                assert not set(page.locator("#log .e").all_inner_texts()) & english
        assert errors == []
    finally:
        context.close()


def test_a_file_that_is_no_record_is_told_in_the_pages_language_and_clears_the_last(
    server: str, browser: Browser, tmp_path: Path
) -> None:
    """A file that is not JSON, picked after a record: the browser's own parse error (in
    English, on the German page too) was shown, and the last record's "step 0 of 29"
    stayed under it."""
    record = tmp_path / "schattendieb.json"
    finished_record(record)
    other = tmp_path / "notes.txt"
    other.write_text("hello, this is not a record")
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="de-DE")
    try:
        page, errors = replaying(context, server, record)
        page.set_input_files("#file", str(other))
        expect(page.locator("#game")).to_contain_text("Diese Datei ist keine Partie")
        assert "Unexpected token" not in page.locator("#game").inner_text()
        for gone in ("#step", "#actions", "#log"):  # (nothing of the record before it)
            expect(page.locator(gone)).to_be_empty()
        expect(page.locator("#bar")).to_be_hidden()
        expect(page.locator("#title")).not_to_contain_text("schattendieb.json")
        page.set_input_files("#file", str(record))  # (a record after it replays again)
        expect(page.locator("#step")).not_to_be_empty()
        assert errors == []
    finally:
        context.close()


def test_home_and_end_go_to_the_games_start_and_end(
    browser: Browser, server: str, tmp_path: Path
) -> None:
    """As a media player's keys: End shows the last step, Home the first (the buttons say
    so, in the page's language)."""
    path = tmp_path / "game.json"
    steps = len(finished_record(path)["actions"])
    for lang, locale in LOCALES.items():
        context = browser.new_context(locale=locale)
        try:
            page, errors = replaying(context, server, path)
            slider = page.locator("#slider")
            total = int(slider.get_attribute("max") or 0)
            assert total >= steps // 2  # (a step for each change seen)
            page.locator("#game").click()  # (the keys are the page's, not a field's)
            page.keyboard.press("End")
            expect(slider).to_have_value(str(total))
            page.keyboard.press("Home")
            expect(slider).to_have_value("0")
            page.keyboard.press("ArrowRight")
            expect(slider).to_have_value("1")
            shown = {"en": ("first (Home)", "last (End)"), "de": ("Anfang (Pos1)", "Ende (Ende)")}
            assert page.locator("#first").get_attribute("title") == shown[lang][0]
            assert page.locator("#last").get_attribute("title") == shown[lang][1]
            assert errors == []
        finally:
            context.close()
