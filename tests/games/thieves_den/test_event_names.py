"""Events name cards as the game's card set does (the names its screens show), in English
and German, and only the cards their audience may see."""

from __future__ import annotations

from pathlib import Path

import pytest

from thievery.core import Event, Rng
from thievery.games.thieves_den import lang_de
from thievery.games.thieves_den.cards import CardSetEvent, load_card_set

from .helpers import SPEC, act, new, write_custom_set

HANDS = [
    ["market-a", "tavern-a", "crypt-a", "bank-a"],
    ["library-a", "shrine-a", "abbey-a", "tavern-b"],
    ["harbour-a", "monastery-a", "excavation-a", "reliquary-a"],
]


@pytest.mark.parametrize(
    ("event", "english", "german"),
    [
        (
            Event("power", {"seat": 1, "tile": "sleight", "pay": "tome"}),
            "Seat 1 uses the Power tile Sleight of Hand (paying a tome)",
            "Platz 1 nutzt das Machtplättchen Fingerfertigkeit (bezahlt mit einem Folianten)",
        ),
        (
            Event("steal", {"seat": 1, "card": "smugglers-cove-a", "owner": -1}),
            "Seat 1 steals at Smugglers' Cove",
            "Platz 1 stiehlt bei Schmugglerbucht",
        ),
        (
            Event("move", {"seat": 1, "from": "pilgrims-rest-b", "to": "market-a"}),
            "Seat 1 moves a Thief from Pilgrims' Rest to Market",
            "Platz 1 versetzt einen Dieb von Pilgerrast nach Markt",
        ),
        (
            Event("fence", {"seat": 1, "card": "warlock-sage-a", "prestige": 7}),
            "Seat 1 sells to the Fence Sage for 7 Prestige",
            "Platz 1 verkauft an den Hehler Weiser für 7 Prestige",
        ),
        (
            Event("fences_drawn", {"cards": ["peddler-tinker-a", "noble-countess-b"]}),
            "New Fences: Trinket Seller, Countess",
            "Neue Hehler: Tandhändler, Gräfin",
        ),
        # a Recruit paid with two of one kind reads as two ("mit einem Folianten und
        # einem Folianten" before)
        (
            Event("recruit", {"seat": 1, "pay": ["tome", "tome"]}),
            "Seat 1 recruits a Thief with two tomes",
            "Platz 1 wirbt mit zwei Folianten einen Dieb an",
        ),
        (
            Event("recruit", {"seat": 0, "pay": ["potion", "potion"]}),
            "You recruit a Thief with two potions",
            "Du wirbst mit zwei Tränken einen Dieb an",
        ),
        (
            Event("recruit", {"seat": 2, "pay": ["artifact", "jewel"]}),
            "Seat 2 recruits a Thief with an artifact and a jewel",
            "Platz 2 wirbt mit einem Artefakt und einem Juwel einen Dieb an",
        ),
    ],
)
def test_events_name_cards_by_the_default_sets_names(
    event: Event, english: str, german: str
) -> None:
    assert SPEC.describe(event, 0) == english
    assert lang_de.describe(event, 0) == german


def custom_set(folder: Path) -> Path:
    """The tests' custom set (its Market the "Night Bazaar", Renown "Fame"), with a German
    name of its own for the Market."""
    path = write_custom_set(folder)
    text = path.read_text()
    assert 'name_de = "Markt"' in text
    path.write_text(text.replace('name_de = "Markt"', 'name_de = "Nachtbasar"', 1))
    return path


def test_a_games_events_name_cards_as_its_own_card_set_does(tmp_path: Path) -> None:
    state = new(3, hands=HANDS, cards=str(custom_set(tmp_path)))
    kept = act(state, 0, "pick", card="market-a")
    (mine,) = [e for e in kept if e.type == "you_picked"]
    assert SPEC.describe(mine, 0) == "You keep Night Bazaar"
    assert lang_de.describe(mine, 0) == "Du behältst Nachtbasar"
    # the others see that a card was picked, not which
    for seat in (1, 2):
        seen = [e for e in kept if e.is_visible_to(seat)]
        assert [SPEC.describe(e, seat) for e in seen] == ["Seat 0 picked a card"]
        assert [lang_de.describe(e, seat) for e in seen] == ["Platz 0 hat eine Karte gewählt"]
    act(state, 1, "pick", card="library-a")
    revealed = act(state, 2, "pick", card="harbour-a")
    (reveal,) = [e for e in revealed if e.type == "reveal"]
    assert "seat 0: Night Bazaar" in SPEC.describe(reveal, 1)
    assert "Platz 0: Nachtbasar" in lang_de.describe(reveal, 1)
    assert reveal == Event(*reveal) and reveal.to_json() == Event(*reveal).to_json()


def test_a_power_tile_is_named_by_the_games_card_set(tmp_path: Path) -> None:
    cs = load_card_set(str(custom_set(tmp_path)))
    used = CardSetEvent.of(Event("power", {"seat": 2, "tile": "renown", "pay": "jewel"}), cs)
    assert SPEC.describe(used, 0) == "Seat 2 uses the Power tile Fame (paying a jewel)"
    # (no German name of its own: the German words use the default set's, Ruhm)
    assert (
        lang_de.describe(used, 0)
        == "Platz 2 nutzt das Machtplättchen Ruhm (bezahlt mit einem Juwel)"
    )


def test_every_event_that_names_a_card_carries_the_games_card_set(tmp_path: Path) -> None:
    state = new(4, seed=5, cards=str(custom_set(tmp_path)))
    rng = Rng(5)
    naming: set[str] = set()
    while state.to_act:
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        state = state.clone()  # (a copy is of the same set's kind: its events name it too)
        for e in state.apply(seat, actions[rng.below(len(actions))]):
            if CARD_FIELDS & e.data.keys() and not isinstance(e.data.get("from", ""), int):
                naming.add(e.type)
                assert isinstance(e, CardSetEvent) and e.card_set is state.cs, e
    assert {"you_picked", "reveal", "steal", "fence"} <= naming


CARD_FIELDS = {"card", "cards", "tile", "mine", "theirs", "to", "from"}


def test_the_default_sets_games_keep_plain_events() -> None:
    """Nothing to carry (their words are the default set's): their apply pays nothing."""
    state = new(3, seed=2)
    assert type(state) is type(state.clone()) and not hasattr(state, "_with_cards")
    seat = state.to_act[0]
    events = state.apply(seat, state.legal_actions(seat)[0])
    assert events and all(type(e) is Event for e in events)
