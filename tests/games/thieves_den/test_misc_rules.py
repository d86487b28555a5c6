"""Remaining rules: round-2 turn order, stacked-setup validation, an empty Location deck,
and the spectator's view keeping every secret."""

from __future__ import annotations

import json

import pytest

from thievery.core import InvalidOption

from .helpers import SPEC, act, arrange, new, of, pass_all


def test_round_two_thieving_goes_counterclockwise_from_the_new_holder() -> None:
    state = arrange(new(4, first=0), prestige={0: 9, 1: 8, 2: 1, 3: 7}, thieves={2: 6})
    pass_all(state)
    assert state.holder == 2 and state.direction == -1
    while state.phase == 0:  # scouting: everyone keeps the first card of the hand
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    order = []
    for _ in range(4):
        seat = state.to_act[0]
        order.append(seat)
        act(state, seat, "pass")
    assert order == [2, 1, 0, 3]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"location_deck": ["market-a", "market-a"]}, "listed twice"),
        ({"location_deck": ["no-such-card"]}, "there is no 'no-such-card'"),
        ({"fence_deck": "noble-countess-a"}, "must be a list of ids"),
        ({"schemes": ["village-shadow"]}, "one Scheme per seat"),
        ({"power_tiles": ["renown"] * 2}, "listed twice"),
        ({"first_player": True}, "first_player"),
    ],
)
def test_stacked_setups_are_validated(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOption, match=message):
        SPEC.new(3, 0, options)


def test_two_player_games_refuse_cards_of_the_bigger_set() -> None:
    with pytest.raises(InvalidOption, match="there is no 'market-b'"):
        SPEC.new(2, 0, {"location_deck": ["market-b"]})


def test_drawing_from_an_empty_location_deck_does_nothing() -> None:
    state = arrange(
        new(3), powers=["scout-ahead", "renown", "windfall"], treasures={0: {"tome": 1}}
    )
    state.collected[1].extend(state.loc_deck)  # everything is collected already
    state.loc_deck.clear()
    events = act(state, 0, "power", tile="scout-ahead", pay="tome")
    assert of(events, "no_effect")[0] == {"seat": 0, "effect": "draw_location"}
    assert state.view(None)["seats"][0]["locations"] == []


def test_the_spectator_sees_no_scheme_hand_pick_or_deck_order() -> None:
    state = new(4, seed=3)
    act(state, 2, "pick", card=state.view(2)["hand"][1])
    view = state.view(None)
    text = json.dumps(view)
    assert view["hand"] == [] and view["my_pick"] is None
    assert all(x["scheme"] is None for x in view["seats"])
    for seat in range(4):
        for card in state.view(seat)["hand"]:
            assert card not in text
    assert view["location_deck_top"] == [] and "rng" not in text
