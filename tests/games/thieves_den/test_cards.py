"""The card-set file: the default unofficial set, and broken files refused precisely."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from thievery.core import InvalidOption
from thievery.games.thieves_den.cards import (
    DEFAULT_PATH,
    FENCE_TYPES,
    LOCATION_TYPES,
    CardFileError,
    inline_card_set,
    load_card_set,
    parse_card_file,
)

from .helpers import SPEC, act, arrange, held, new

TEXT = DEFAULT_PATH.read_text()


def test_the_default_set_is_unofficial_and_has_the_rulebook_counts() -> None:
    cs = load_card_set()
    assert cs.unofficial and "UNOFFICIAL" in TEXT
    assert len(cs.loc_id) == 60 and len(cs.loc_two) == 30
    assert len(cs.fence_id) == 42 and len(cs.fence_two) == 21
    assert len(cs.scheme_id) == 10 and len(cs.power_id) == 12
    for t in range(len(LOCATION_TYPES)):
        assert sum(1 for c in cs.loc_two if cs.loc_type[c] == t) == 6
    for t in range(len(FENCE_TYPES)):
        assert sum(1 for f in cs.fence_two if cs.fence_type[f] == t) == 3
    pairs = {frozenset(p) for p in cs.scheme_types}
    assert len(pairs) == 10  # one Scheme per pair of types
    assert cs.witch[0] == 4  # the Tome
    assert cs.majority == (3, 3, 4, 4, 4, 5, 5)


def test_the_named_cards_are_as_the_rulebook_describes() -> None:
    cs = load_card_set()
    names = {cs.loc_name[c] for c in range(len(cs.loc_id))}
    assert {"Witch Hut", "Laborium", "Guild", "Custom House", "Market", "Potion Shop"} <= names
    market = cs.loc_index["market-a"]
    assert cs.loc_text[market] == "Take 2 Jewels"
    assert cs.loc_bonus_text[market] == "Take 2 Thieves"
    assert cs.loc_text[cs.loc_index["potion-shop-a"]] == "Take 3 Potions"
    noble = cs.fence_index["noble-countess-a"]
    assert FENCE_TYPES[cs.fence_type[noble]] == "noble"
    assert cs.fence_desire[noble] == (0, 2, 0, 0, 0) and cs.fence_prestige[noble] == 7


def broken(old: str, new: str) -> str:
    assert old in TEXT, old
    return TEXT.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'ability = [{ op = "gain", what = "jewel", count = 2 }]',
            'ability = [{ op = "gain", what = "jewel", count = 0 }]',
            r"location 'market' \(locations\[0\]\), field 'ability\.0\.count'.*greater than",
        ),
        (
            'ability = [{ op = "gain", what = "potion", count = 3 }]',
            'ability = [{ op = "steal_everything" }]',
            r"location 'potion-shop' \(locations\[1\]\), field 'ability\.0'.*steal_everything",
        ),
        (
            'desires = ["jewel", "jewel"]\nprestige = 7',
            'desires = ["jewel", "gold"]\nprestige = 7',
            r"fence 'noble-countess' \(fences\[0\]\), field 'desires\.1'",
        ),
        (
            'id = "village-shadow"\ntypes = ["village", "shadow"]',
            'id = "village-shadow"\ntypes = ["village", "village"]',
            r"scheme 'village-shadow' \(schemes\[0\]\), field '\(the card\)'.*two different",
        ),
        (
            'name = "Renown"\nability = [{ op = "prestige", count = 3 }]',
            'name = "Renown"\nability = [{ op = "prestige", count = 3 }, { op = "pay", '
            'what = "any", count = 1 }]',
            r"power 'renown' .*'pay' effects must come first",
        ),
        (
            'id = "tavern"\nname = "Tavern"\ntype = "village"',
            'id = "tavern"\nname = "Tavern"\ntype = "swamp"',
            r"location 'tavern' \(locations\[3\]\), field 'type'",
        ),
        (
            'id = "crypt"',
            'id = "market"',
            r"location id 'market' is already used",
        ),
        ("\nversion = 1\n", "\nversion = 2\n", r"field 'version'"),
        (
            'ability = [{ op = "gain", what = "jewel", count = 2 }]',
            'ability = [{ op = "move_thief" }]',
            r"location 'market' .*cannot move a Thief \(a Power's can\)",
        ),
        (
            'timing = "action"\ncopies = 2\ntwo_player_copies = 1\nability = [{ op = "gain", '
            'what = "jewel", count = 2 }]',
            'timing = "action"\ncopies = 2\ntwo_player_copies = 1\nability = [{ op = "gain", '
            'what = "jewel", count = 2, colour = "red" }]',
            r"location 'market'.*field 'ability\.0\.colour'.*not permitted",
        ),
    ],
)
def test_a_broken_file_names_the_file_the_card_and_the_field(
    old: str, new: str, message: str
) -> None:
    with pytest.raises(CardFileError, match=r"^my-cards\.toml: .*" + message):
        parse_card_file(broken(old, new), "my-cards.toml")


def test_broken_toml_and_missing_files_are_refused() -> None:
    with pytest.raises(CardFileError, match=r"bad\.toml: not valid TOML"):
        parse_card_file("format = [", "bad.toml")
    with pytest.raises(InvalidOption, match=r"no-such\.toml: cannot read the card file"):
        SPEC.new(3, 0, {"cards": "no-such.toml"})
    with pytest.raises(InvalidOption, match="option 'cards' is a card file path or an inline"):
        SPEC.new(3, 0, {"cards": 7})


def test_a_card_file_that_is_not_text_is_refused_naming_it(tmp_path: Path) -> None:
    noise = tmp_path / "noise.toml"
    noise.write_bytes(bytes(range(256)))
    with pytest.raises(InvalidOption, match=r"noise\.toml: not a card file: not UTF-8 text"):
        SPEC.new(3, 0, {"cards": str(noise)})
    with pytest.raises(CardFileError, match=r"noise\.toml: not a card file: not UTF-8 text"):
        inline_card_set(noise)


def test_the_cards_option_loads_another_set(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        broken(
            'ability = [{ op = "gain", what = "jewel", count = 2 }]',
            'ability = [{ op = "gain", what = "jewel", count = 3 }]',
        ).replace('name = "Thievery unofficial set"', 'name = "My table"')
    )
    state = new(3, cards=str(path))
    assert state.view(0)["card_set"] == "My table"
    assert state.view(0)["options"]["cards"] == str(path)
    arrange(state, up={1: ["market-a"]})
    act(state, 0, "steal", card="market-a")
    assert held(state, 0) == {"jewel": 3}
    bad = tmp_path / "bad.toml"
    bad.write_text(broken("prestige = 7", 'prestige = "seven"'))
    with pytest.raises(InvalidOption, match=r"bad\.toml: fence 'noble-countess'.*'prestige'"):
        SPEC.new(3, 0, {"cards": str(bad)})


@pytest.mark.parametrize("cards", [None, "file", "inline"])
def test_a_new_game_loads_its_card_set_once(
    cards: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``new`` checks the setup and starts the game with the one card set it loaded (a
    file's load resolves its path and reads its time; an inline set is digested)."""
    from thievery.games.thieves_den import rules

    option: object = None
    if cards == "file":
        option = str(tmp_path / "cards.toml")
        (tmp_path / "cards.toml").write_text(TEXT)
    elif cards == "inline":
        option = inline_card_set(DEFAULT_PATH)
    loads: list[object] = []

    def counted(arg: object = None) -> object:
        loads.append(arg)
        return load_card_set(arg)  # type: ignore[arg-type]

    monkeypatch.setattr(rules, "load_card_set", counted)
    state = SPEC.new(4, 7, {} if option is None else {"cards": option})
    assert loads == [option]
    assert state.cs is load_card_set(option)  # type: ignore[arg-type]
    assert state.view(0) == SPEC.new(4, 7, {} if option is None else {"cards": option}).view(0)


def test_a_card_file_is_loaded_again_when_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file's set is kept while the file stays as it was (found by one stat), loaded
    again once it changes, and a relative path is the file in the current folder."""
    path = tmp_path / "cards.toml"
    path.write_text(TEXT)
    first = load_card_set(str(path))
    assert load_card_set(str(path)) is first
    renamed = TEXT.replace('name = "', 'name = "Renamed ', 1)
    assert renamed != TEXT
    path.write_text(renamed)
    os.utime(path, ns=(1, 1))  # another time, whatever the clock's resolution
    again = load_card_set(str(path))
    assert again is not first and again.name.startswith("Renamed ")
    assert load_card_set(str(path)) is again
    other = tmp_path / "other"
    other.mkdir()
    (other / "cards.toml").write_text(TEXT)
    monkeypatch.chdir(tmp_path)
    assert load_card_set("cards.toml") is again
    monkeypatch.chdir(other)
    assert load_card_set("cards.toml").name == first.name != again.name
    with pytest.raises(CardFileError, match="is a folder"):
        load_card_set(str(tmp_path))
