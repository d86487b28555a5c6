"""Der Schattendieb's unverified numbers live in a data file that says so, and a broken
file is refused with an error naming it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from thievery.games.schattendieb import cards
from thievery.games.schattendieb.cards import DATA, read_close_values

from ..files import loaded_with, refusal


def test_the_close_safe_cards_come_from_the_data_file_which_says_they_are_unverified() -> None:
    assert "UNVERIFIED" in DATA.read_text(encoding="utf-8")
    assert read_close_values(DATA) == cards.CLOSE_VALUES
    close = [cards.CARD_ID[i] for i, c in enumerate(cards.CATEGORY) if c == cards.CLOSE]
    # RULES.md's reading: 4-11 twice, 12-15 once, 20 cards in all
    assert close == [f"close-{v}{c}" for v in range(4, 12) for c in "ab"] + [
        f"close-{v}a" for v in range(12, 16)
    ]
    assert sorted(cards.VALUE[cards.CARD_INDEX[c]] for c in close) == sorted(
        [*range(4, 12), *range(4, 16)]
    )


def test_another_count_in_the_file_gives_those_cards_lettered_in_order(tmp_path: Path) -> None:
    path = tmp_path / "components.toml"
    values = [*range(4, 16), 4, 4, 4, 5, 6, 7, 8, 15]
    path.write_text(f"[close_safe]\nvalues = {values}\n", encoding="utf-8")
    read = read_close_values(path)
    assert [v for v, _ in read] == values
    assert read[:2] == [(4, "a"), (5, "a")] and read[12:15] == [(4, "b"), (4, "c"), (4, "d")]
    assert read[-1] == (15, "b")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[close_safe]\nvalues = [4, 5, 6]\n", "3 values, not 20"),
        (f"[close_safe]\nvalues = {[*range(4, 16), *[16] * 8]}\n", "16 is not one"),
        (f"[close_safe]\nvalues = {[*range(4, 16), *[3] * 8]}\n", "3 is not one"),
        (f"[close_safe]\nvalues = {[*range(4, 15), *[4] * 9]}\n", "no card of value 15"),
        (f"[close_safe]\nvalues = {[*range(4, 16), *['8'] * 8]}\n", "'8' is not one"),
        (f"[close_safe]\nvalues = {[*range(4, 16), *[8.0] * 8]}\n", "8.0 is not one"),
        (f"[close_safe]\nvalues = {[*range(4, 16), *['true'] * 8]}\n".replace("'", ""), "True"),
        ("[close_safe]\nvalues = 20\n", "not a list: 20"),
        ("[close]\nvalues = []\n", "cannot read its [close_safe] values"),
        ("[close_safe\n", "cannot read its [close_safe] values"),  # not TOML
    ],
)
def test_a_broken_file_is_refused_naming_it(tmp_path: Path, text: str, reason: str) -> None:
    assert reason in refusal(read_close_values, tmp_path / "components.toml", text)


def test_a_file_not_in_utf_8_is_refused_naming_it_and_one_with_a_bom_is_read(
    tmp_path: Path,
) -> None:
    path = tmp_path / "components.toml"
    path.write_bytes(b"\xff" + DATA.read_bytes())
    with pytest.raises(ValueError, match=re.escape(str(path))):
        read_close_values(path)
    path.write_bytes(b"\xef\xbb\xbf" + DATA.read_bytes())
    assert read_close_values(path) == read_close_values(DATA)


def test_the_game_deals_the_close_safe_cards_the_file_gives() -> None:
    """Another count in the file reaches the game's deck (not a copy of it in code)."""
    values = [*range(4, 16), 4, 4, 4, 5, 6, 7, 8, 15]
    ids = loaded_with(
        "schattendieb",
        f"[close_safe]\nvalues = {values}\n",
        "thievery.games.schattendieb.cards",
        "[m.CARD_ID[i] for i, c in enumerate(m.CATEGORY) if c == m.CLOSE]",
    )
    assert len(ids) == 20 and ids[:2] == ["close-4a", "close-5a"] and ids[-1] == "close-15b"
    assert ids[12:15] == ["close-4b", "close-4c", "close-4d"]


def test_a_missing_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(ValueError, match=re.escape(str(path))):
        read_close_values(path)


def test_the_terminal_reads_a_third_copys_value(tmp_path: Path) -> None:
    """A file with three copies of one value gives close-4c: the terminal read values by
    stripping the letters a and b, so it named the card "Close Safe 4c" and crashed on
    playing it (int("4c"))."""
    from thievery.cli.render import renderer
    from thievery.games.schattendieb.render import card_name, card_text, safe_total

    path = tmp_path / "components.toml"
    values = [*range(4, 16), 4, 4, 4, 5, 6, 7, 8, 15]
    path.write_text(f"[close_safe]\nvalues = {values}\n", encoding="utf-8")
    ids = [f"close-{v}{c}" for v, c in read_close_values(path)]
    assert "close-4d" in ids
    assert card_name("close-4d") == "Close Safe 4" and card_text("close-4d").plain == "⊠4"
    assert safe_total(["close-4d", "ring-3a"]) == 7
    view = {"seat": 0, "safes": [["ring-3a", "ring-5b"], []], "front": [[], []]}
    said = renderer("schattendieb").action({"type": "play", "card": "close-4d"}, view)
    assert said == "Play Close Safe 4 (closes: 2 cards in your safe)"


def test_one_card_in_the_safe_is_said_in_the_singular_in_both_languages() -> None:
    from thievery.cli.render import renderer
    from thievery.core.i18n import use_language

    view = {"seat": 0, "safes": [["ring-3a"], []], "front": [[], []]}
    action = {"type": "play", "card": "close-4a"}
    said = renderer("schattendieb").action(action, view)
    assert said == "Play Close Safe 4 (closes: 1 card in your safe)"
    with use_language("de"):
        gesagt = renderer("schattendieb").action(action, view)
    assert gesagt == "Tresor zu 4 ausspielen (schließt: 1 Karte in deinem Tresor)"


def test_a_failed_close_says_the_card_is_discarded_not_sie() -> None:
    """("Sie wird abgeworfen" read as the formal "you"; "Tresor" is masculine anyway.)"""
    from thievery.core.protocol import Event
    from thievery.games.schattendieb.lang_de import describe

    event = Event("close_failed", {"seat": 1, "card": "close-9a"})
    from thievery.core.i18n import use_language

    names = ["Ada", "Bo", "Cy"]
    with use_language("de"):
        told = describe(event, 0, names), describe(event, 1, names)
    assert told == (
        "Bo konnte mit Tresor zu 9 nicht schließen: die Karte wird abgeworfen",
        "Du konntest mit Tresor zu 9 nicht schließen: die Karte wird abgeworfen",
    )
