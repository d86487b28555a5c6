"""Scenario tests for every rule of Thieves!, each from a stacked setup."""

from __future__ import annotations

import pytest

from tests.games.thieves.helpers import (
    SPEC,
    double_loot_draws_the_thief,
    kinds,
    loot_ids,
    new,
    of_type,
    play,
)
from thievery.core import Event, Rng
from thievery.games.thieves.cards import CARD_INDEX, GETAWAY, KIND
from thievery.games.thieves.rules import Thieves

FILL = ["money-0a", "money-0b", "money-0c", "police-1h", "police-1g", "police-1f"]


# ------------------------------------------------------------------ setup and turns


def test_setup_deals_three_without_getaways_and_first_player_draws_to_four() -> None:
    for seed in range(20):
        state = SPEC.new(4, seed)
        first = state.view(None)["current"]
        for seat in range(4):
            hand = state.hands[seat]  # type: ignore[attr-defined]
            if seat != first:
                assert len(hand) == 3
            else:
                assert len(hand) == 4
            assert all(KIND[c] != GETAWAY for c in hand)
        placed = len(state.view(None)["getaways"])
        assert state.view(None)["deck_size"] == 52 - 13 - placed


def test_first_player_is_drawn_with_the_seed_unless_given() -> None:
    drawn = {SPEC.new(3, seed).view(None)["current"] for seed in range(30)}
    assert drawn == {0, 1, 2}
    assert SPEC.new(3, 4).view(None) == SPEC.new(3, 4).view(None)
    assert SPEC.new(5, 9, {"first_player": 3}).view(None)["current"] == 3


def test_draw_up_to_four_places_getaways_and_draws_again() -> None:
    state = new(
        [["money-1a", "money-1b", "money-1c"], ["money-2a", *FILL[:2]], FILL[2:5]],
        ["getaway-c", "getaway-a", "money-3a", "money-3b"],
    )
    view = state.view(0)
    assert view["getaways"] == ["getaway-c", "getaway-a"]
    assert view["hand"] == ["money-1a", "money-1b", "money-1c", "money-3a"]
    events = play(state, "money-1a", 0)
    # Seat 1 draws one card at the start of its turn.
    assert of_type(events, "turn") == [{"seat": 1, "turn": 2, "drew": 1}]
    assert [e.data for e in events if e.type == "drew"] == [{"cards": ["money-3b"]}]
    assert [e.audience for e in events if e.type == "drew"] == [1]
    assert state.view(1)["hand"] == ["money-2a", "money-0a", "money-0b", "money-3b"]
    assert state.view(1)["deck_size"] == 52 - 9 - 2 - 2


def test_a_getaway_drawn_at_the_start_of_a_turn_is_placed_and_replaced() -> None:
    state = new(
        [["money-1a", "money-1b", "money-1c"], ["money-2a", *FILL[:2]], FILL[2:5]],
        ["money-3a", "getaway-b", "getaway-e", "money-3b"],
    )
    events = play(state, "money-1a", 0)
    assert kinds(events) == ["loot", "turn", "getaway", "getaway", "drew"]
    assert of_type(events, "turn") == [{"seat": 1, "turn": 2, "drew": 1}]
    assert [g["placed"] for g in of_type(events, "getaway")] == [1, 2]
    assert state.view(1)["hand"][-1] == "money-3b"
    assert state.view(0)["getaways"] == ["getaway-b", "getaway-e"]


def test_turns_go_clockwise_from_the_first_player() -> None:
    state = new([FILL[:3], FILL[3:6], ["money-1a", "money-1b", "money-1c"]], [], first=2)
    seen = []
    for _ in range(4):
        seen.append(state.current)
        action = state.legal_actions(state.current)[0]
        state.apply(state.current, action)
    assert seen == [2, 0, 1, 2]


def test_money_face_down_to_oneself_and_face_up_to_another() -> None:
    state = new([["money-3a", "money-2a", "money-0a"], FILL[1:4], [*FILL[4:6], "money-1a"]], [])
    events = play(state, "money-3a", 0)
    assert of_type(events, "loot") == [{"seat": 0, "to": 0, "card": None}]
    assert loot_ids(state, 0, viewer=0) == ["money-3a"]
    assert loot_ids(state, 0, viewer=1) == [None]
    assert loot_ids(state, 0, viewer=None) == [None]
    assert state.view(2)["loot"][0] == [{"card": None, "face_up": False}]
    play(state, "money-0b", 0)  # seat 1 puts a 0 face up in front of seat 0
    assert state.view(2)["loot"][0][1] == {"card": "money-0b", "face_up": True}
    assert loot_ids(state, 0, viewer=1) == [None, "money-0b"]


def test_every_card_in_hand_is_playable() -> None:
    state = new([["police-1a", "alarm-a", "money-1a"], FILL[:3], FILL[3:]], ["thief-a"])
    legal = [a.to_json() for a in state.legal_actions(0)]
    assert {"type": "play", "card": "police-1a"} in legal
    assert {"type": "play", "card": "alarm-a"} in legal
    assert {"type": "play", "card": "thief-a"} in legal
    assert [a for a in legal if a["card"] == "money-1a"] == [
        {"type": "play", "card": "money-1a", "to": t} for t in range(3)
    ]
    assert len(legal) == 6


# ------------------------------------------------------------------ police and raids


def raid_table(raid_ties: str = "all_busted") -> Thieves:
    """Seat 0 holds the Diamond Ring, seat 1 a 3, seat 2 the Horseshoe; then 1 + 1 + 2 cars."""
    state = new(
        [
            ["diamond-ring", "police-1a", "money-0a"],
            ["money-3a", "police-1b", "money-0b"],
            ["horseshoe", "police-2a", "money-0c"],
        ],
        ["money-1a", "money-1b", "money-1c", "money-1d", "money-1e", "money-1f", "money-1g"],
        raid_ties=raid_ties,
    )
    play(state, "diamond-ring", 0)
    play(state, "money-3a", 1)
    play(state, "horseshoe", 2)
    return state


def test_raid_at_exactly_four_cars_not_before() -> None:
    state = new(
        [
            ["money-3a", "police-1a", "money-0a"],
            ["money-1a", "police-1b", "money-0b"],
            ["police-2a", "money-0c", "money-1b"],
        ],
        ["money-1c", "money-1d", "money-1e", "money-1f", "money-1g", "money-1h"],
    )
    play(state, "money-3a", 0)
    play(state, "money-1a", 1)
    events = play(state, "police-2a")
    assert state.view(None)["cars"] == 2
    events = play(state, "police-1a")
    assert state.view(None)["cars"] == 3 and "raid" not in kinds(events)
    assert state.view(None)["last_raid"] is None
    events = play(state, "police-1b")
    (raid,) = of_type(events, "raid")
    assert raid["values"] == [3, 1, 0] and raid["busted"] == [0]
    assert raid["loot"] == [["money-3a"], ["money-1a"], []]
    view = state.view(2)
    assert view["police"] == [] and view["cars"] == 0
    assert view["last_raid"] == raid
    assert view["loot"][0] == []
    # The survivor lies face down again, but everyone saw it.
    assert view["loot"][1] == [{"card": "money-1a", "face_up": False}]
    assert view["exposed"] == [[], [0], []]
    deck = {state.deck[i] for i in range(len(state.deck))}
    for cid in ("money-3a", "police-1a", "police-1b", "police-2a"):
        assert CARD_INDEX[cid] in deck


def test_a_two_car_card_onto_three_raids_too() -> None:
    state = new(
        [
            ["police-1a", "police-2a", "money-0a"],
            ["police-1b", "money-1b", "money-0b"],
            ["police-1c", "money-1c", "money-0c"],
        ],
        FILL[3:],
    )
    play(state, "police-1a")
    play(state, "police-1b")
    events = play(state, "police-1c")
    assert "raid" not in kinds(events) and state.view(None)["cars"] == 3
    events = play(state, "police-2a")
    assert of_type(events, "police")[0]["cars"] == 5
    assert len(of_type(events, "raid")) == 1
    # Nobody has loot: nobody is busted, the police still go back into the deck.
    assert of_type(events, "raid")[0]["busted"] == []
    assert state.view(None)["cars"] == 0


def test_raid_values_ring_three_horseshoe_one_and_ties_all_busted() -> None:
    state = raid_table()
    play(state, "police-1a")
    play(state, "police-1b")
    events = play(state, "police-2a")
    (raid,) = of_type(events, "raid")
    assert raid["values"] == [3, 3, 1]
    assert raid["busted"] == [0, 1]
    assert state.view(None)["loot"] == [[], [], [{"card": "horseshoe", "face_up": False}]]
    assert state.view(None)["exposed"] == [[], [], [0]]


def test_raid_ties_none_busted_option() -> None:
    state = raid_table(raid_ties="none_busted")
    play(state, "police-1a")
    play(state, "police-1b")
    events = play(state, "police-2a")
    (raid,) = of_type(events, "raid")
    assert raid["values"] == [3, 3, 1] and raid["busted"] == []
    view = state.view(None)
    assert [len(row) for row in view["loot"]] == [1, 1, 1]
    assert view["police"] == [] and view["cars"] == 0
    assert set(state.locations()["deck"]) >= {CARD_INDEX["police-1a"], CARD_INDEX["police-2a"]}


def test_none_busted_still_busts_a_single_richest() -> None:
    state = new(
        [["money-3a", "police-2a", "money-0a"], ["money-1a", "police-2b", "money-0b"], FILL[3:]],
        ["money-1c", "money-1d", "money-1e", "money-1f", "money-1g"],
        raid_ties="none_busted",
    )
    play(state, "money-3a", 0)
    play(state, "money-1a", 1)
    play(state, "police-1f")
    play(state, "police-2a")
    events = play(state, "police-2b")
    assert of_type(events, "raid")[0]["busted"] == [0]


# ------------------------------------------------------------------ action cards


def test_roadblock_lets_its_player_pick_the_police_card() -> None:
    state = new(
        [
            ["police-2a", "roadblock-a", "money-0a"],
            ["police-1a", "money-1a", "money-1b"],
            ["money-0b", "money-0c", "money-2g"],
        ],
        ["money-1c", "money-1d", "money-1e", "money-1f", "money-1g"],
    )
    play(state, "police-2a")
    play(state, "police-1a")
    play(state, "money-0b", 2)
    events = play(state, "roadblock-a")
    view = state.view(1)
    assert view["pending"] == "remove" and view["phase"] == "remove"
    assert view["resolving"] == "roadblock-a" and view["to_act"] == [0]
    assert [a.to_json() for a in state.legal_actions(0)] == [
        {"type": "remove", "card": "police-2a"},
        {"type": "remove", "card": "police-1a"},
    ]
    assert state.legal_actions(1) == []
    events = state.apply(0, {"type": "remove", "card": "police-2a"})
    assert of_type(events, "remove")[0]["cars"] == 1
    view = state.view(None)
    assert view["police"] == ["police-1a"] and view["cars"] == 1
    assert view["discard"] == ["police-2a", "roadblock-a"]
    assert view["current"] == 1 and view["pending"] is None and view["resolving"] is None


def test_roadblock_with_one_police_card_removes_it_by_itself() -> None:
    hands = [
        ["police-2a", "roadblock-a", "money-0a"],
        ["money-0b", "money-0c", "money-1a"],
        ["police-1h", "police-1g", "money-1b"],
    ]
    top = ["money-1c", "money-1d", "money-1e", "money-1f"]
    state = new(hands, top)
    play(state, "police-2a")
    play(state, "money-0b", 1)
    play(state, "money-1b", 2)
    events = play(state, "roadblock-a")
    assert of_type(events, "remove")[0]["card"] == "police-2a"
    assert state.view(None)["discard"] == ["police-2a", "roadblock-a"]
    assert state.view(None)["cars"] == 0 and state.view(None)["current"] == 1
    # With two police cards in play, the player chooses.
    state = new(hands, top)
    play(state, "police-2a")
    play(state, "money-0b", 1)
    play(state, "police-1h")
    events = play(state, "roadblock-a")
    assert "remove" not in kinds(events) and state.view(None)["pending"] == "remove"


def test_roadblock_without_police_is_simply_discarded() -> None:
    state = new(
        [
            ["roadblock-a", "money-0a", "money-0b"],
            FILL[2:5],
            ["money-1a", *FILL[5:], "money-1b"],
        ],
        [],
    )
    events = play(state, "roadblock-a")
    assert "remove" not in kinds(events)
    assert state.view(None)["discard"] == ["roadblock-a"]
    assert state.view(None)["current"] == 1


def test_alarm_places_everyones_police_clockwise_with_two_raids() -> None:
    state = new(
        [
            ["money-1a", "police-2a", "police-2b"],
            ["money-3a", "alarm-a", "police-1a"],
            ["money-2a", "police-1b", "police-1c"],
        ],
        ["money-0a", "money-0b", "money-0c", "police-1e", "money-1h"],
        first=1,
    )
    play(state, "money-3a", 1)
    play(state, "money-2a", 2)
    play(state, "money-1a", 0)
    assert state.view(1)["hand"] == ["alarm-a", "police-1a", "money-0a", "police-1e"]
    events = play(state, "alarm-a")
    police = of_type(events, "police")
    assert [p["seat"] for p in police] == [1, 1, 2, 2, 0, 0]
    assert [p["card"] for p in police] == [
        "police-1a",
        "police-1e",
        "police-1b",
        "police-1c",
        "police-2a",
        "police-2b",
    ]
    raids = of_type(events, "raid")
    assert len(raids) == 2
    assert raids[0]["values"] == [1, 3, 2] and raids[0]["busted"] == [1]
    assert raids[1]["values"] == [1, 0, 2] and raids[1]["busted"] == [2]
    view = state.view(None)
    assert view["hand_sizes"] == [1, 1, 4]  # seat 2 has drawn for its turn
    assert view["cars"] == 0 and view["police"] == []
    assert view["discard"] == ["alarm-a"]
    assert view["last_raid"] == raids[1]
    assert view["current"] == 2


def test_alarm_places_a_hands_one_car_police_before_its_two_car_police() -> None:
    """RULES.md: within one hand the 1-car cards go first, then the 2-car cards, whatever
    the hand's order; nobody chooses. Here that decides when the raid comes: 1 + 1 + 1 + 2
    raids on the last card (all three back in the deck); 2 first would raid on the second
    and leave the third in play."""
    state = new(
        [
            ["police-2a", "alarm-a", "police-1a"],
            ["police-1c", "money-0a", "money-0b"],
            ["money-1a", "money-1b", "money-1c"],
        ],
        ["money-2a", "money-0c", "money-1d", "police-1b", "money-2b", "money-2c"],
    )
    play(state, "money-2a", 0)
    play(state, "police-1c")
    play(state, "money-1a", 2)
    assert state.view(0)["hand"] == ["police-2a", "alarm-a", "police-1a", "police-1b"]
    assert state.cars == 1
    events = play(state, "alarm-a")
    police = of_type(events, "police")
    assert [(p["seat"], p["card"], p["cars"]) for p in police] == [
        (0, "police-1a", 2),
        (0, "police-1b", 3),
        (0, "police-2a", 5),
    ]
    raids = of_type(events, "raid")
    assert len(raids) == 1 and raids[0]["cars"] == 5
    assert raids[0]["police"] == ["police-1c", "police-1a", "police-1b", "police-2a"]
    assert kinds(events).index("raid") > max(i for i, e in enumerate(events) if e.type == "police")
    assert state.view(None)["cars"] == 0 and state.view(None)["police"] == []
    assert state.view(None)["hand_sizes"][0] == 0  # the Alarm and three police cards: all out


def test_thief_moves_a_face_down_card_picked_blind_and_it_lies_face_up() -> None:
    state = new(
        [["thief-a", "money-0a", "money-0b"], ["money-3a", *FILL[2:4]], ["police-1a", *FILL[4:6]]],
        ["money-1a", "money-1b", "money-1c", "money-1d"],
        first=1,
    )
    play(state, "money-3a", 1)
    play(state, "police-1a")
    events = play(state, "thief-a")
    view = state.view(0)
    assert view["pending"] == "move" and view["discard"] == ["thief-a"]
    assert view["loot"][1] == [{"card": None, "face_up": False}]
    assert [a.to_json() for a in state.legal_actions(0)] == [
        {"type": "move", "from": 1, "slot": 0, "to": 0},
        {"type": "move", "from": 1, "slot": 0, "to": 2},
        {"type": "pass"},
    ]
    events = state.apply(0, {"type": "move", "from": 1, "slot": 0, "to": 0})
    assert of_type(events, "move") == [
        {"seat": 0, "from": 1, "slot": 0, "to": 0, "card": "money-3a"}
    ]
    for viewer in (None, 0, 1, 2):
        assert state.view(viewer)["loot"][0] == [{"card": "money-3a", "face_up": True}]
        assert state.view(viewer)["loot"][1] == []
    assert state.view(None)["current"] == 1


def test_thief_can_move_between_two_other_players() -> None:
    state = new(
        [["thief-a", "money-0a", "money-0b"], ["money-3a", *FILL[2:4]], ["money-2a", *FILL[4:6]]],
        ["money-1a", "money-1b", "money-1c", "money-1d"],
        first=1,
    )
    play(state, "money-3a", 1)
    play(state, "money-2a", 2)
    play(state, "thief-a")
    assert len(state.legal_actions(0)) == 5  # 2 cards x 2 destinations, and pass
    state.apply(0, {"type": "move", "from": 2, "slot": 0, "to": 1})
    assert loot_ids(state, 1, viewer=2) == [None, "money-2a"]
    assert state.view(1)["loot"][1] == [
        {"card": "money-3a", "face_up": False},
        {"card": "money-2a", "face_up": True},
    ]


def test_thief_without_loot_does_nothing() -> None:
    state = new(
        [["thief-a", "money-0a", "money-0b"], FILL[2:5], [*FILL[5:], "money-1a", "money-1b"]], []
    )
    events = play(state, "thief-a")
    assert "move" not in kinds(events)
    assert state.view(None)["current"] == 1 and state.view(None)["discard"] == ["thief-a"]


def test_double_loot_draws_a_getaway_and_a_police_card() -> None:
    state = new(
        [
            ["double-loot-a", "money-0a", "money-0b"],
            FILL[2:5],
            ["money-1a", *FILL[5:], "money-1b"],
        ],
        ["money-3e", "getaway-a", "police-1a", "money-2a", "money-1c"],
    )
    events = play(state, "double-loot-a")
    assert kinds(events) == [
        "action",
        "getaway",
        "double_draw",
        "drew",
        "police",
        "double_draw",
        "drew",
    ]
    view = state.view(0)
    assert view["getaways"] == ["getaway-a"]
    assert view["police"] == ["police-1a"] and view["cars"] == 1
    assert view["pending"] == "double_loot" and view["drawn"] == "money-2a"
    assert view["double_loot_draws"] == 0
    assert state.view(1)["drawn"] is None and state.view(1)["pending"] == "double_loot"
    assert [a.to_json() for a in state.legal_actions(0)] == [
        {"type": "play", "card": "money-2a", "to": t} for t in range(3)
    ]
    with pytest.raises(Exception, match="Double Loot"):
        play(state, "money-0a", 0)
    play(state, "money-2a", 0)
    assert loot_ids(state, 0, viewer=0) == ["money-2a"]
    assert state.view(None)["current"] == 1
    assert state.view(0)["hand"] == ["money-0a", "money-0b", "money-3e"]


def test_double_loot_chains() -> None:
    state = new(
        [
            ["double-loot-a", "money-0a", "money-0b"],
            FILL[2:5],
            ["money-1a", *FILL[5:], "money-1b"],
        ],
        ["money-3e", "double-loot-b", "money-2a", "money-2b", "money-2c", "money-1c"],
    )
    play(state, "double-loot-a")
    assert state.view(0)["drawn"] == "money-2a" and state.view(0)["double_loot_draws"] == 2
    for card, draws in (("money-2a", 1), ("money-2b", 0)):
        play(state, card, 0)
        assert state.view(0)["double_loot_draws"] == draws
    play(state, "money-2c", 1)
    assert loot_ids(state, 0, viewer=0) == ["money-2a", "money-2b"]
    assert loot_ids(state, 1, viewer=0) == ["money-2c"]
    assert state.view(None)["discard"] == ["double-loot-a", "double-loot-b"]
    assert state.view(None)["current"] == 1


def test_double_loot_roadblock_then_a_choice() -> None:
    state = new(
        [
            ["double-loot-a", "police-1a", "money-0a"],
            ["police-2a", "money-0b", "money-0c"],
            ["money-3a", "money-3b", "money-3c"],
        ],
        ["money-3e", "money-1a", "money-1b", "money-1c", "roadblock-a", "money-2a"],
    )
    play(state, "police-1a")
    play(state, "police-2a")
    play(state, "money-3a", 2)
    events = play(state, "double-loot-a")
    assert of_type(events, "action") == [
        {"seat": 0, "card": "double-loot-a"},
        {"seat": 0, "card": "roadblock-a"},
    ]
    assert state.view(0)["pending"] == "remove"
    state.apply(0, {"type": "remove", "card": "police-2a"})
    assert state.view(0)["pending"] == "double_loot" and state.view(0)["drawn"] == "money-2a"
    play(state, "money-2a", 2)
    assert state.view(None)["current"] == 1
    assert state.view(None)["discard"] == ["double-loot-a", "police-2a", "roadblock-a"]


def test_game_ends_at_the_seventh_getaway_mid_double_loot() -> None:
    six = [f"getaway-{c}" for c in "abcdef"]
    state = new(
        [
            ["double-loot-a", "money-3a", "money-0b"],
            FILL[2:5],
            ["money-1a", *FILL[5:], "money-1b"],
        ],
        [*six, "money-0a", "getaway-g", "money-2a"],
    )
    assert len(state.view(None)["getaways"]) == 6
    assert state.view(0)["hand"] == ["double-loot-a", "money-3a", "money-0b", "money-0a"]
    events = play(state, "double-loot-a")
    assert kinds(events)[-2:] == ["getaway", "game_over"]
    assert of_type(events, "getaway")[-1] == {"seat": 0, "card": "getaway-g", "placed": 7}
    view = state.view(1)
    assert view["phase"] == "over" and view["to_act"] == [] and view["pending"] is None
    assert len(view["getaways"]) == 7 and view["drawn"] is None
    assert state.deck[-1] == CARD_INDEX["money-2a"]  # the second draw never happened
    assert state.result() == {"scores": [0, 0, 0], "winners": [0, 1, 2]}
    assert state.legal_actions(0) == []
    with pytest.raises(Exception, match="over"):
        play(state, "money-3a", 0)


def test_game_ends_at_the_seventh_getaway_in_a_draw_and_ring_and_horseshoe_values() -> None:
    seven = [f"getaway-{c}" for c in "abcdefg"]
    state = new(
        [
            ["diamond-ring", "money-1a", "money-0a"],
            ["horseshoe", "money-0b", "police-1a"],
            ["money-3a", "money-0c", "police-1b"],
        ],
        ["police-1c", "police-1d", "police-1e", "police-1f", *seven, "money-2a"],
    )
    play(state, "diamond-ring", 0)
    play(state, "horseshoe", 1)
    play(state, "money-3a", 2)
    events = play(state, "money-1a", 0)
    assert kinds(events)[-9:] == ["turn", *["getaway"] * 7, "game_over"]
    assert of_type(events, "turn")[-1]["drew"] == 0
    (over,) = of_type(events, "game_over")
    assert over["scores"] == [2, 3, 3] and over["winners"] == [1, 2]
    assert over["loot"] == [["diamond-ring", "money-1a"], ["horseshoe"], ["money-3a"]]
    assert state.result() == {"scores": [2, 3, 3], "winners": [1, 2]}
    # At the end everyone counts their loot: every card is shown.
    assert loot_ids(state, 0, viewer=1) == ["diamond-ring", "money-1a"]
    assert state.view(1)["hand_sizes"][1] == 3  # seat 1 was mid-draw


def test_single_winner() -> None:
    seven = [f"getaway-{c}" for c in "abcdefg"]
    state = new(
        [["money-3a", "money-3b", "money-0a"], FILL[1:4], [*FILL[4:], "money-1a"]],
        [*seven],
    )
    assert state.is_over  # the first draw placed all seven
    assert state.result() == {"scores": [0, 0, 0], "winners": [0, 1, 2]}
    state = new(
        [["money-3a", "money-3b", "money-0a"], FILL[1:4], [*FILL[4:], "money-1a"]],
        ["money-1b", *seven],
    )
    play(state, "money-3a", 0)
    assert state.result() == {"scores": [3, 0, 0], "winners": [0]}


def test_double_loot_drawing_a_thief_asks_then_draws_again() -> None:
    state, events = double_loot_draws_the_thief()
    assert of_type(events, "action")[-1] == {"seat": 0, "card": "thief-b"}
    assert state.view(0)["pending"] == "move" and state.view(0)["double_loot_draws"] == 1
    state.apply(0, {"type": "move", "from": 1, "slot": 0, "to": 0})
    assert state.view(0)["pending"] == "double_loot" and state.view(0)["drawn"] == "money-2a"
    play(state, "money-2a", 0)
    assert loot_ids(state, 0, viewer=1) == ["money-3a", None]
    assert state.view(None)["current"] == 1


# ------------------------------------------------------------------ words


def test_event_words_name_the_seats_given_their_names() -> None:
    names = ["Ann", "Bo", "cy"]
    move = Event("move", {"seat": 1, "from": 0, "slot": 0, "to": 2, "card": "money-3e"})
    assert SPEC.describe(move, 1) == "You moved Money 3 from seat 0 to seat 2"
    assert SPEC.describe(move, 1, names) == "You moved Money 3 from Ann to cy"
    assert SPEC.describe(move, None, names) == "Bo moved Money 3 from Ann to cy"
    turn = Event("turn", {"seat": 2, "turn": 2, "drew": 1})
    assert SPEC.describe(turn, 0) == "Turn 2: seat 2's turn (drew 1 card)"
    assert SPEC.describe(turn, 0, names) == "Turn 2: cy's turn (drew 1 card)"
    assert SPEC.describe(turn, 2, names) == "Turn 2: your turn (drew 1 card)"
    raid = Event("raid", {"seat": 2, "cars": 4, "police": [], "values": [2, 5, 0], "busted": [1]})
    assert SPEC.describe(raid, 0, names) == (
        "Police raid: 4 cars in play (4 or more). Loot in a raid: you 2, Bo 5, cy 0. "
        "Busted: Bo, with the richest loot (5); it goes into the deck"
    )


def test_police_cars_are_counted_in_words() -> None:
    """(It read "1 car(s) in play".)"""
    police = Event("police", {"seat": 1, "card": "police-1a", "cars": 1})
    assert SPEC.describe(police, 0).endswith(": 1 car in play")
    police = Event("police", {"seat": 1, "card": "police-2a", "cars": 3})
    assert SPEC.describe(police, 0).endswith(": 3 cars in play")
    removed = Event("remove", {"seat": 0, "card": "police-1a", "cars": 0})
    assert SPEC.describe(removed, 0).endswith("Roadblock: 0 cars in play")


def test_a_raid_says_why_it_came_and_why_the_busted_are_busted() -> None:
    def raid(values: list[int], busted: list[int], cars: int = 5) -> str:
        event = Event(
            "raid", {"seat": 0, "cars": cars, "police": [], "values": values, "busted": busted}
        )
        return SPEC.describe(event, 0)

    assert raid([7, 7, 1], [0, 1]).endswith(
        "Busted: you and seat 1, all with the richest loot (7); their loot goes into the deck"
    )
    assert raid([7, 7, 1], []).endswith(
        "Nobody is busted: you and seat 1 tie for the richest loot (7)"
    )
    assert raid([0, 0, 0], []).endswith("Nobody is busted: there is no loot worth anything")
    assert raid([0, 3, 0], [1]).startswith("Police raid: 5 cars in play (4 or more).")
    # and from a real game: the words match what the raid did
    state = SPEC.new(3, 4, {})
    rng = Rng(2)
    raids = []
    while state.to_act and len(raids) < 3:
        seat = state.to_act[0]
        events = state.apply(seat, rng.choice(state.legal_actions(seat)))
        raids += [e for e in events if e.type == "raid"]
    assert raids
    for e in raids:
        words = SPEC.describe(e, None)
        assert (
            ("Busted: " in words) == bool(e.data["busted"])
        ) and f"{e.data['cars']} cars" in words
