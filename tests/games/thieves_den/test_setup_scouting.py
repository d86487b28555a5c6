"""Setup per player count, and Scouting: sealed simultaneous picks, passing, instants."""

from __future__ import annotations

import json

import pytest

from thievery.core import IllegalAction
from thievery.games.thieves_den.cards import TREASURES
from thievery.games.thieves_den.rules import SCOUT, THIEVE, ThievesDen

from .helpers import SPEC, act, held, new, of, pass_all

HANDS3 = [
    ["market-a", "tavern-a", "crypt-a", "bank-a"],
    ["library-a", "shrine-a", "abbey-a", "tavern-b"],
    ["harbour-a", "monastery-a", "excavation-a", "reliquary-a"],
]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_per_player_count(players: int) -> None:
    state = new(players)
    v = state.view(None)
    assert v["supply"]["treasures"] == dict.fromkeys(TREASURES, 2 * players + 1)
    assert v["supply"]["thieves"] == 3 * players
    assert all(x["thieves"] == 3 and x["prestige"] == 0 for x in v["seats"])
    assert [x["hand_size"] for x in v["seats"]] == [4] * players
    locations, fences = (30, 21) if players == 2 else (60, 42)
    assert v["location_deck"] == locations - 4 * players
    assert None not in v["fence_row"] and v["fence_deck"] == fences - 6
    assert [p["below"] for p in v["powers"]] == [2, 2, 2] and None not in v["powers"]
    assert len(state.power_box) == 3
    assert v["round"] == 1 and v["direction"] == "clockwise" and v["holder"] == 0
    schemes = [state.view(s)["seats"][s]["scheme"] for s in range(players)]
    assert len(set(schemes)) == players and None not in schemes
    for s in range(players):
        assert [x["scheme"] is not None for x in state.view(s)["seats"]] == [
            t == s for t in range(players)
        ]
    if players == 2:
        in_play = [c for place in state.locations().values() for c in place]
        cards = [c for c in in_play if c in state.cs.loc_index or c in state.cs.fence_index]
        assert all(c.endswith("-a") for c in cards)  # only the 2-player copies


def test_the_first_holder_is_drawn_with_the_seed_unless_given() -> None:
    holders = {SPEC.new(4, seed).view(None)["holder"] for seed in range(40)}
    assert holders == {0, 1, 2, 3}
    assert new(4, first=2).view(None)["holder"] == 2
    with pytest.raises(Exception, match="first_player"):
        SPEC.new(3, 0, {"first_player": 3})


def test_picks_are_simultaneous_and_sealed() -> None:
    state = new(3, hands=HANDS3)
    assert state.to_act == (0, 1, 2)
    events = act(state, 1, "pick", card="shrine-a")
    assert of(events, "picked") == [{"seat": 1}]
    assert [e.audience for e in events if e.type == "you_picked"] == [1]
    assert list(state.to_act) == [0, 2]
    assert state.view(1)["my_pick"] == "shrine-a"
    for seat in (None, 0, 2):
        view = state.view(seat)
        assert view["seats"][1]["picked"] and "shrine-a" not in json.dumps(view)
    with pytest.raises(IllegalAction):
        act(state, 1, "pick", card="abbey-a")  # seat 1 has chosen already
    with pytest.raises(IllegalAction, match="not in seat 0's hand"):
        act(state, 0, "pick", card="shrine-a")
    act(state, 0, "pick", card="market-a")
    events = act(state, 2, "pick", card="harbour-a")
    assert of(events, "reveal") == [{"cards": {0: "market-a", 1: "shrine-a", 2: "harbour-a"}}]
    assert [x["locations"] for x in state.view(None)["seats"]] == [
        [{"card": "market-a", "thieves": 0}],
        [{"card": "shrine-a", "thieves": 0}],
        [{"card": "harbour-a", "thieves": 0}],
    ]
    # Round 1 passes clockwise: seat 1 now holds what seat 0 kept back.
    assert state.view(1)["hand"] == ["tavern-a", "crypt-a", "bank-a"]
    assert state.view(0)["hand"] == ["monastery-a", "excavation-a", "reliquary-a"]


def pick_round(state: ThievesDen, choose: int = 0) -> None:
    """Every seat picks its hand's card number ``choose``; instants take their first
    choices."""
    for seat in list(state.to_act):
        hand = state.view(seat)["hand"]
        act(state, seat, "pick", card=hand[choose])
    while state.phase == SCOUT and state.view(None)["decider"] is not None:
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])


def test_three_picks_then_the_last_cards_go_under_the_deck_and_thieving_starts() -> None:
    state = new(3, hands=HANDS3, first=1)
    for _ in range(3):
        pick_round(state)
    assert [len(x["locations"]) for x in state.view(None)["seats"]] == [3, 3, 3]
    leftovers = {state.cs.loc_id[c] for c in state.loc_deck[:3]}
    assert leftovers == {"bank-a", "tavern-b", "reliquary-a"}
    assert state.phase == THIEVE and state.to_act == (1,)  # the holder starts


def test_round_two_passes_and_plays_counterclockwise() -> None:
    state = new(3, first=0)
    for _ in range(3):
        pick_round(state)
    pass_all(state)
    view = state.view(None)
    assert view["round"] == 2 and view["direction"] == "counterclockwise"
    hands = [state.view(s)["hand"] for s in range(3)]
    pick_round(state)
    # Counter-clockwise: seat s's remaining cards go to seat s - 1.
    for s in range(3):
        assert state.view((s - 1) % 3)["hand"] == hands[s][1:]


def test_an_instant_location_acts_when_revealed_and_is_collected() -> None:
    hands = [list(h) for h in HANDS3]
    hands[0][0] = "palace-gates-a"
    state = new(3, hands=hands)
    pick_round(state)
    seat0 = state.view(None)["seats"][0]
    assert seat0["prestige"] == 3 and seat0["locations"] == []
    assert seat0["collected"] == ["palace-gates-a"]


def test_instants_resolve_in_turn_order_with_their_decisions() -> None:
    hands = [list(h) for h in HANDS3]
    hands[1][0] = "village-fair-b"  # a treasure of your choice
    hands[2][0] = "village-fair-a"  # a treasure of your choice
    state = new(3, hands=hands, first=2)
    for seat in (0, 1, 2):
        act(state, seat, "pick", card=hands[seat][0])
    # The holder (seat 2) resolves first, then seat 0's turn order position, then 1.
    assert state.to_act == (2,) and state.view(2)["decision"].startswith("choose a treasure")
    act(state, 2, "treasure", treasure="potion")
    assert state.to_act == (1,)
    act(state, 1, "treasure", treasure="jewel")
    assert held(state, 2) == {"potion": 1} and held(state, 1) == {"jewel": 1}
    assert state.view(None)["seats"][1]["collected"] == ["village-fair-b"]
    assert list(state.to_act) == [0, 1, 2]  # the next picks
