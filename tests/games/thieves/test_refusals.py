"""Thieves!: illegal and malformed actions are refused with the state unchanged; bad options
are refused with a clear error."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.thieves.helpers import SPEC, new, play, snapshot
from thievery.core import IllegalAction, InvalidOption, MalformedAction
from thievery.games.thieves.actions import Move, Play
from thievery.games.thieves.rules import Thieves

HANDS = [
    ["money-3a", "police-2a", "roadblock-a"],
    ["thief-a", "police-1a", "money-0a"],
    ["money-2a", "police-1b", "double-loot-a"],
]
TOP = ["money-1a", "money-1b", "money-1c", "money-1d", "money-2b", "money-2c"]


def refused(state: Thieves, seat: int, action: Any, error: type[Exception], match: str) -> None:
    before = snapshot(state)
    with pytest.raises(error, match=match):
        state.apply(seat, action)
    assert snapshot(state) == before


def test_illegal_plays_are_refused_and_change_nothing() -> None:
    state = new(HANDS, TOP)
    refused(state, 1, {"type": "play", "card": "thief-a"}, IllegalAction, "not to act")
    refused(state, 0, {"type": "play", "card": "money-2a", "to": 0}, IllegalAction, "hand")
    refused(state, 0, {"type": "play", "card": "money-3a", "to": 3}, IllegalAction, "0 to 2")
    refused(state, 0, {"type": "play", "card": "money-3a", "to": -1}, IllegalAction, "0 to 2")
    refused(state, 0, Play("money-3a"), IllegalAction, "money goes to a seat")
    refused(state, 0, Play("police-2a", 1), IllegalAction, "without 'to'")
    refused(state, 0, {"type": "remove", "card": "police-2a"}, IllegalAction, "time to play")
    refused(state, 0, {"type": "move", "from": 0, "slot": 0, "to": 1}, IllegalAction, "play")
    refused(state, 3, {"type": "play", "card": "money-3a", "to": 0}, IllegalAction, "no seat")


def test_malformed_actions_are_refused() -> None:
    state = new(HANDS, TOP)
    for bad, match in (
        ({"type": "play", "card": "money-3a"}, "needs 'to'"),
        ({"type": "play", "card": "police-2a", "to": 1}, "without 'to'"),
        ({"type": "play", "card": "money-9z", "to": 0}, "no card"),
        ({"type": "play", "to": 0}, "needs the field 'card'"),
        ({"type": "play", "card": "money-3a", "to": "0"}, "whole number"),
        ({"type": "play", "card": "money-3a", "to": True}, "whole number"),
        ({"type": "play", "card": "money-3a", "to": 0, "face": "up"}, "no field 'face'"),
        ({"type": "remove"}, "needs the field 'card'"),
        ({"type": "move", "from": 0, "to": 1}, "needs the field 'slot'"),
        ({"type": "move", "from": 0, "slot": 0, "to": 1, "x": 1}, "no field 'x'"),
        ({"type": "steal", "card": "money-3a"}, "unknown action type"),
    ):
        refused(state, 0, bad, MalformedAction, match)


def test_follow_up_refusals() -> None:
    state = new(HANDS, TOP)
    play(state, "police-2a")
    play(state, "police-1a")
    play(state, "money-2a", 2)
    play(state, "roadblock-a")
    assert state.view(None)["pending"] == "remove"
    refused(state, 0, {"type": "remove", "card": "police-1b"}, IllegalAction, "not in play")
    refused(state, 0, {"type": "play", "card": "money-3a", "to": 0}, IllegalAction, "remove")
    state.apply(0, {"type": "remove", "card": "police-1a"})
    play(state, "thief-a")
    assert state.view(None)["pending"] == "move"
    refused(state, 1, {"type": "move", "from": 2, "slot": 0, "to": 2}, IllegalAction, "different")
    refused(state, 1, {"type": "move", "from": 2, "slot": 1, "to": 1}, IllegalAction, "slot 1")
    refused(state, 1, {"type": "move", "from": 1, "slot": 0, "to": 0}, IllegalAction, "slot 0")
    refused(state, 1, Move(2, 0, 7), IllegalAction, "no seat 7")
    refused(state, 1, {"type": "move", "from": 2, "slot": 99, "to": 0}, IllegalAction, "slot 99")
    state.apply(1, {"type": "move", "from": 2, "slot": 0, "to": 1})
    assert state.view(None)["loot"][1] == [{"card": "money-2a", "face_up": True}]


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"raid_ties": "some_busted"}, "'all_busted', 'none_busted'"),
        ({"first_player": 3}, "first_player.*0 to 2"),
        ({"first_player": True}, "first_player"),
        ({"first_player": "0"}, "first_player"),
        ({"hands": [["money-1a", "money-1b", "money-1c"]]}, "one hand per seat"),
        ({"hands": "money-1a"}, "one hand per seat"),
        ({"hands": [["money-1a"], ["money-1b"], ["money-1c"]]}, "a hand has 3 cards"),
        (
            {"hands": [["money-1a", "money-1b", "getaway-a"], ["money-1c"] * 3, ["x"] * 3]},
            "getaway",
        ),
        ({"hands": [["money-1a", "money-1b", "nope"], [], []]}, "no card 'nope'"),
        (
            {
                "hands": [
                    ["money-1a", "money-1b", "money-1c"],
                    ["money-1a", "money-1d", "money-1e"],
                    ["money-2a", "money-2b", "money-2c"],
                ]
            },
            "'money-1a' is used twice",
        ),
        ({"deck_top": "money-1a"}, "deck_top' must be a list"),
        ({"deck_top": [3]}, "list of card ids"),
        ({"deck_top": ["money-1a", "money-1a"]}, "used twice"),
        ({"deck_top": ["joker"]}, "no card 'joker'"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], match: str) -> None:
    with pytest.raises(InvalidOption, match=match):
        SPEC.new(3, 0, options)


def test_deck_top_leaving_too_few_cards_to_deal() -> None:
    from thievery.games.thieves.cards import CARD_ID, GETAWAY, KIND

    everything = [c for i, c in enumerate(CARD_ID) if KIND[i] != GETAWAY]
    with pytest.raises(InvalidOption, match="too few cards"):
        SPEC.new(6, 0, {"deck_top": everything[:30]})
    assert SPEC.new(6, 0, {"deck_top": everything[:26]}).view(None)["deck_size"] > 0
    with pytest.raises(InvalidOption, match="seed"):
        SPEC.new(3, "1")  # type: ignore[arg-type]


def test_stacked_deck_top_with_getaways_and_a_shuffled_rest() -> None:
    a = SPEC.new(3, 1, {"first_player": 0, "deck_top": ["getaway-h", "money-3e"]})
    b = SPEC.new(3, 2, {"first_player": 0, "deck_top": ["getaway-h", "money-3e"]})
    for state in (a, b):
        assert state.view(0)["getaways"] == ["getaway-h"]
        assert state.view(0)["hand"][-1] == "money-3e"
    assert a.view(1)["hand"] != b.view(1)["hand"]  # the rest is shuffled with the seed
    assert "hands" not in a.view(0)["options"] and "deck_top" not in a.view(0)["options"]
    info = SPEC.info()
    assert [o["name"] for o in info["options"]] == ["raid_ties", "first_player"]


@settings(max_examples=25, deadline=None)
@given(players=st.integers(3, 6), data=st.data())
def test_a_fully_stacked_deck_is_dealt_exactly(players: int, data: st.DataObject) -> None:
    from thievery.games.thieves.cards import CARD_ID, GETAWAY, KIND

    held = data.draw(st.permutations([c for i, c in enumerate(CARD_ID) if KIND[i] != GETAWAY]))
    hands = [list(held[3 * s : 3 * s + 3]) for s in range(players)]
    rest = [*held[3 * players :], *(c for i, c in enumerate(CARD_ID) if KIND[i] == GETAWAY)]
    top = data.draw(st.permutations(rest))
    first = data.draw(st.integers(0, players - 1))
    state = SPEC.new(players, 0, {"hands": hands, "deck_top": top, "first_player": first})
    assert isinstance(state, Thieves)
    drawn = [c for c in top[: 52 - 3 * players - len(state.deck)] if not c.startswith("get")]
    for s in range(players):
        assert state.view(s)["hand"] == hands[s] + (drawn if s == first else [])
    assert [CARD_ID[c] for c in reversed(state.deck)] == top[52 - 3 * players - len(state.deck) :]
