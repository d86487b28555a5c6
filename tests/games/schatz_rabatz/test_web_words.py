"""The browser renderer's words for Schatz-Rabatz's ship parts, shapes and colours
(``web/game.js``) are the engine's (``data.part_words``) and their German the terminal's
(``lang_de``): the page keeps its own copy (it draws without asking the server), and this
keeps the copies from drifting apart."""

from __future__ import annotations

import re
from pathlib import Path

import thievery.games.schatz_rabatz as schatz_rabatz
from thievery.games.schatz_rabatz import lang_de
from thievery.games.schatz_rabatz.data import SHIP_PARTS, part_words

GAME_JS = Path(schatz_rabatz.__file__).parent / "web" / "game.js"
PAIR = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:\s*"((?:[^"\\]|\\.)*)"')


def js_object(source: str, start: str, end: str) -> dict[str, str]:
    """The string pairs of the object literal between ``start`` and ``end`` in ``source``
    (keys quoted or bare)."""
    at = source.index(start) + len(start)
    body = source[at : source.index(end, at)]
    quoted = dict(PAIR.findall(body))
    bare = dict(re.findall(r'(?<![\w"-])([A-Za-z]\w*)\s*:\s*"([^"]*)"', body))
    return {**bare, **quoted}


def test_the_pages_ship_part_words_are_the_engines() -> None:
    source = GAME_JS.read_text(encoding="utf-8")
    words = js_object(source, "const PART_WORDS = {", "};")
    assert set(words) == set(SHIP_PARTS)
    assert {part: words[part] for part in SHIP_PARTS} == {p: part_words(p) for p in SHIP_PARTS}


def test_the_pages_german_treasure_and_part_words_are_the_terminals() -> None:
    source = GAME_JS.read_text(encoding="utf-8")
    german = js_object(source, "addGerman({", "});")
    expected = {**lang_de.SHAPES, **lang_de.COLOURS, **lang_de.PARTS}
    expected.pop("goldbar")  # (the terminal's spelling of an id; the page says "gold bar")
    assert {k: german.get(k) for k in expected} == expected
    for part in SHIP_PARTS:  # every part the page names has its German
        assert part_words(part) in german
