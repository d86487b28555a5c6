"""Schatz-Rabatz's components as data: 40 treasures, nine Jack-boards, 16 ship cards."""

from __future__ import annotations

from collections import Counter

from thievery.games.schatz_rabatz.data import COLOURS, JACK_BOARDS, SHAPES, SHIP_PARTS
from thievery.games.schatz_rabatz.pieces import CARD_ID, TREASURE_ID

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
