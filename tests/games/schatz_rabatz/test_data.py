"""Schatz-Rabatz's components as data: 40 treasures, nine Jack-boards, 16 ship cards."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from thievery.games.schatz_rabatz.data import (
    CHEST_DEPTH,
    CHEST_WIDTH,
    COLOURS,
    DATA,
    JACK_BOARDS,
    SHAPES,
    SHIP_PARTS,
    read_components,
)
from thievery.games.schatz_rabatz.pieces import CARD_ID, TREASURE_ID

from ..files import loaded_with, refusal
from .helpers import new


def test_jack_boards_each_claim_one_of_every_shape_and_cover_every_treasure() -> None:
    assert len(JACK_BOARDS) == 9
    seen: Counter[str] = Counter()
    for _, claims in JACK_BOARDS:
        assert len(claims) == len(set(claims)) == 8  # a real bite out of a chest
        assert sorted(t.split("-")[0] for t in claims) == sorted(s for s, _ in SHAPES)
        assert set(claims) <= set(TREASURE_ID)
        seen.update(claims)
    assert set(seen) == set(TREASURE_ID)
    assert set(seen.values()) == {1, 2}  # every treasure on one or two boards
    assert len({frozenset(c) for _, c in JACK_BOARDS}) == 9  # no two boards alike


def test_sixteen_ship_cards_four_of_each_part() -> None:
    assert len(CARD_ID) == 16
    assert Counter(c.rsplit("-", 1)[0] for c in CARD_ID) == dict.fromkeys(SHIP_PARTS, 4)
    places = new().locations()
    assert sorted(places["supply"]) == sorted(CARD_ID) and places["box"] == []


def test_treasure_ids_are_shape_and_colour() -> None:
    assert len(TREASURE_ID) == 40 == len(SHAPES) * len(COLOURS)
    assert TREASURE_ID[:3] == ("circle-red", "circle-blue", "circle-green")
    assert "goldbar-purple" in TREASURE_ID and "crown-yellow" in TREASURE_ID


def test_the_unverified_components_come_from_the_data_file_which_says_so() -> None:
    assert "UNVERIFIED" in DATA.read_text(encoding="utf-8")
    read = read_components(DATA)
    assert (read.width, read.depth) == (CHEST_WIDTH, CHEST_DEPTH) == (6, 5)
    assert read.shapes == SHAPES and read.jack_boards == JACK_BOARDS
    assert [name for name, _ in SHAPES][:2] == ["circle", "hexagon"]  # the treasures' order


def _with(replace: tuple[str, str] | None = None, add: str = "") -> str:
    """The shipped file's text with one piece replaced (which must be there)."""
    text = DATA.read_text(encoding="utf-8")
    if replace is not None:
        assert replace[0] in text
        text = text.replace(replace[0], replace[1], 1)
    return text + add


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (_with(("width = 6", "width = 13")), "not 13 and 5"),  # wider than the option allows
        (_with(("depth = 5", "depth = 1")), "not 6 and 1"),
        (_with(("width = 6", 'width = "6"')), "not '6' and 5"),
        (_with(("width = 6", "width = true")), "not True and 5"),
        (_with(("circle = [[0, 0]]", "circle = [[0, 0], [2, 0]]")), "not joined edge to edge"),
        (_with(("circle = [[0, 0]]", "circle = [[0, 0], [0, 0]]")), "a cell is listed twice"),
        (_with(("circle = [[0, 0]]", "circle = [[1, 1]]")), "start at x = 0 and y = 0"),
        (_with(("circle = [[0, 0]]", "circle = []")), "a list of [x, y] cells"),
        (_with(("circle = [[0, 0]]", "circle = [[0, 0, 0]]")), "not [[0, 0, 0]]"),
        (_with(("circle = [[0, 0]]", "circle = [[0, 0], [0, 4]]")), "from 0 to 3"),  # too tall
        (_with(("circle = [[0, 0]]", "coin = [[0, 0]]")), "not of coin, hexagon"),
        (
            _with(("\n[jack_boards]\n", "\nstar = [[0, 0]]\n\n[jack_boards]\n")),
            "goldbar, crown, star",  # a ninth
        ),
        (
            _with(('"circle-red", "hexagon-green"', '"circle-pink", "hexagon-green"')),
            "not ['circle-pink'",
        ),
        (
            _with(('"circle-red", "hexagon-green"', '["circle-red"], "hexagon-green"')),
            "not [['circle-red']",
        ),
        (
            _with(('"circle-red", "hexagon-green"', '"circle-red", "circle-red"')),
            "'jack-1': a treasure is listed twice",
        ),
        (_with(add='jack-10 = ["circle-red"]\n'), "has 9 boards, not 10"),
        (_with(("\n[chest]\n", "\n[box]\n")), "it needs the tables [chest]"),
        (_with(add="[shapes\n"), "line"),  # not TOML: the parser's words, and where
    ],
)
def test_a_broken_components_file_is_refused_naming_it(
    tmp_path: Path, text: str, reason: str
) -> None:
    assert reason in refusal(read_components, tmp_path / "components.toml", text)


def test_a_file_not_in_utf_8_is_refused_naming_it_and_one_with_a_bom_is_read(
    tmp_path: Path,
) -> None:
    path = tmp_path / "components.toml"
    path.write_bytes(b"\xff" + _with().encode())
    with pytest.raises(ValueError, match=re.escape(str(path))):
        read_components(path)
    path.write_bytes(b"\xef\xbb\xbf" + _with().encode())
    assert read_components(path) == read_components(DATA)


def test_the_game_takes_its_shapes_chest_and_boards_from_the_file() -> None:
    """Another file's numbers reach the game, not a copy of them in code: a chest 7 wide
    and 4 deep, the hexagon before the circle, the sword standing up, a board changed."""
    text = _with(("width = 6", "width = 7"))
    text = text.replace("depth = 5", "depth = 4")
    text = text.replace(
        "circle = [[0, 0]]\nhexagon = [[0, 0], [1, 0]]",
        "hexagon = [[0, 0], [1, 0]]\ncircle = [[0, 0]]",
    )
    text = text.replace("sword = [[0, 0], [1, 0], [2, 0], [3, 0]]", "sword = [[0, 0], [0, 1]]")
    text = text.replace('"circle-red", "hexagon-green"', '"circle-blue", "hexagon-green"')
    seen = loaded_with(
        "schatz_rabatz",
        text,
        "thievery.games.schatz_rabatz.spec",
        "[{o.name: o.default for o in m.SchatzRabatzSpec.options}, "
        "list(__import__('thievery.games.schatz_rabatz.pieces', fromlist=['_']).TREASURE_ID[:2]), "
        "__import__('thievery.games.schatz_rabatz.view', fromlist=['_']).SHAPES_JSON['sword'], "
        "list(__import__('thievery.games.schatz_rabatz.data', fromlist=['_']).JACK_BOARDS[0][1])]",
    )
    options, first, sword, board = seen
    assert (options["width"], options["depth"]) == (7, 4)
    assert first == ["hexagon-red", "hexagon-blue"]
    assert sword == [[0, 0], [0, 1]]
    assert board[:2] == ["circle-blue", "hexagon-green"]


def test_the_shipped_text_read_from_elsewhere_is_the_same(tmp_path: Path) -> None:
    """(The cases above start from it: each is refused for its one change only.)"""
    path = tmp_path / "components.toml"
    path.write_text(_with(), encoding="utf-8")
    assert read_components(path) == read_components(DATA)
