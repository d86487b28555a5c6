"""The Thieving phase: turn order, passing, the six actions, owner bonuses and limits."""

from __future__ import annotations

import pytest

from thievery.core import IllegalAction

from .helpers import act, arrange, held, legal, new, of


def test_turns_go_round_in_the_direction_and_passed_players_are_skipped() -> None:
    state = arrange(new(3, first=1), thieves={0: 6, 1: 3, 2: 3}, current=1)
    act(state, 1, "burgle", treasure="tome")
    assert state.to_act == (2,)
    act(state, 2, "pass")
    act(state, 0, "burgle", treasure="tome")
    assert state.to_act == (1,)  # seat 2 has passed
    act(state, 1, "pass")
    assert state.to_act == (0,)
    act(state, 0, "burgle", treasure="jewel")
    assert state.to_act == (0,)  # alone: one action at a time until passing
    with pytest.raises(IllegalAction):
        act(state, 1, "pass")
    act(state, 0, "pass")
    assert state.round == 2  # everyone passed: cleanup and a new round


def test_steal_places_a_thief_uses_the_ability_and_pays_the_owner_bonus() -> None:
    # The rulebook's example: Kira steals at David's Market.
    state = arrange(new(3), up={1: ["market-a"]})
    events = act(state, 0, "steal", card="market-a")
    assert of(events, "steal") == [{"seat": 0, "card": "market-a", "owner": 1}]
    assert held(state, 0) == {"jewel": 2}
    assert state.thieves[0] == 2 and state.thieves[1] == 5  # 3 + the Owner Bonus of 2
    assert state.view(None)["seats"][1]["locations"] == [{"card": "market-a", "thieves": 1}]
    # The spot is taken now.
    assert {"type": "steal", "card": "market-a"} not in legal(state, 1)


def test_stealing_at_your_own_location_gives_no_owner_bonus() -> None:
    state = arrange(new(3), up={0: ["market-a"]})
    act(state, 0, "steal", card="market-a")
    assert held(state, 0) == {"jewel": 2} and state.thieves[0] == 2
    assert of(state.apply(1, {"type": "pass"}), "bonus") == []


def test_no_thief_no_steal_or_fence() -> None:
    state = arrange(
        new(3),
        up={1: ["market-a"]},
        thieves={0: 0},
        treasures={0: {"jewel": 2}},
        fence_row=["noble-countess-a"],
    )
    kinds = {a["type"] for a in legal(state, 0)}
    assert "steal" not in kinds and "fence" not in kinds and "burgle" not in kinds
    assert {"witch", "recruit", "power", "pass"} <= kinds


def test_fence_pays_its_desires_for_its_prestige_and_the_row_refills() -> None:
    # The rulebook's example: a Noble Fence for 2 Jewels gives 7 Prestige.
    state = arrange(new(3), fence_row=["noble-countess-a"], treasures={0: {"jewel": 3}})
    deck_top = state.fence_deck[-1]
    events = act(state, 0, "fence", card="noble-countess-a")
    assert of(events, "fence")[0]["prestige"] == 7
    assert state.prestige[0] == 7 and held(state, 0) == {"jewel": 1} and state.thieves[0] == 2
    seat = state.view(None)["seats"][0]
    assert seat["fences"] == [{"card": "noble-countess-a", "uses": 1}]
    assert state.fence_row[0] == deck_top  # refilled from the deck


def test_fence_needs_every_desired_treasure() -> None:
    state = arrange(new(3), fence_row=["noble-countess-a"], treasures={0: {"jewel": 1}})
    assert {"type": "fence", "card": "noble-countess-a"} not in legal(state, 0)
    with pytest.raises(IllegalAction):
        act(state, 0, "fence", card="noble-countess-a")


def test_the_witch_pays_per_type_once_a_round() -> None:
    state = arrange(new(3), treasures={0: {"tome": 2}, 1: {"tome": 1}})
    act(state, 0, "witch", treasure="tome")
    assert state.prestige[0] == 4 and held(state, 0) == {"tome": 1}
    assert {"type": "witch", "treasure": "tome"} not in legal(state, 1)
    with pytest.raises(IllegalAction):
        act(state, 1, "witch", treasure="tome")


def test_burgle_and_recruit_can_be_repeated() -> None:
    state = arrange(new(2), thieves={0: 6, 1: 0}, treasures={0: {"potion": 4}})
    for _ in range(2):
        act(state, 0, "burgle", treasure="fossil")
        act(state, 1, "pass") if state.to_act == (1,) else None
    assert state.thieves[0] == 2 and state.burgle == 4 and held(state, 0)["fossil"] == 2
    act(state, 0, "recruit", first="fossil", second="potion")
    act(state, 0, "recruit", first="potion", second="potion")
    assert state.thieves[0] == 4 and sum(state.recruit) == 4
    assert {"type": "recruit", "first": "tome", "second": "tome"} not in legal(state, 0)


def test_a_power_tile_takes_one_treasure_and_is_used_once_a_round() -> None:
    state = arrange(
        new(3),
        powers=["renown", "windfall", "recruits"],
        treasures={0: {"tome": 1}, 1: {"tome": 1}},
    )
    act(state, 0, "power", tile="renown", pay="tome")
    assert state.prestige[0] == 3 and held(state, 0) == {}
    assert state.view(None)["powers"][0]["paid"] == "tome"
    assert not [a for a in legal(state, 1) if a.get("tile") == "renown"]


def test_limited_supply_gives_what_there_is() -> None:
    # The rulebook's example: the Potion Shop with 2 Potions left.
    state = arrange(new(3), up={0: ["potion-shop-a"]}, treasures={1: {"potion": 5}})
    assert state.supply[4] == 2
    events = act(state, 0, "steal", card="potion-shop-a")
    assert held(state, 0) == {"potion": 2} and state.supply[4] == 0
    assert of(events, "gain") == [{"seat": 0, "what": "potion", "count": 2}]


def test_over_eight_treasures_the_owner_chooses_what_to_return() -> None:
    # The rulebook's example: Alice gets an Owner Bonus with 8 treasures already.
    state = arrange(new(3), up={1: ["potion-shop-a"]}, treasures={1: {"tome": 4, "jewel": 4}})
    act(state, 0, "steal", card="potion-shop-a")
    assert state.to_act == (1,)  # the owner decides, though it is seat 0's turn
    assert "more than 8" in state.view(1)["decision"]
    assert sorted(a["treasure"] for a in legal(state, 1)) == ["jewel", "potion", "tome"]
    act(state, 1, "treasure", treasure="jewel")  # keep the potion: a swap
    assert held(state, 1) == {"tome": 4, "jewel": 3, "potion": 1}
    assert state.to_act == (1,)  # then it is simply seat 1's turn


def test_over_six_thieves_the_extras_go_back() -> None:
    state = arrange(new(3), up={1: ["market-a"]}, thieves={1: 5})
    supply = state.supply_thieves
    act(state, 0, "steal", card="market-a")
    assert state.thieves[1] == 6 and state.supply_thieves == supply - 1


def test_passed_players_cannot_be_targeted_but_keep_owner_bonuses() -> None:
    state = arrange(
        new(3),
        up={1: ["custom-house-a"], 2: ["market-a"]},
        treasures={1: {"tome": 2}, 2: {"jewel": 2}},
        current=2,
    )
    act(state, 2, "pass")
    act(state, 0, "steal", card="market-a")  # seat 2's location is still usable
    assert state.thieves[2] == 5  # and seat 2 gets the bonus
    act(state, 1, "burgle", treasure="tome")
    events = act(state, 0, "steal", card="custom-house-a")
    # Only seat 1 can be robbed (seat 2 passed), and the choice makes itself.
    assert of(events, "take") == [{"seat": 0, "from": 1, "what": "tome"}]


def test_sleight_of_hand_moves_no_thief_off_a_passed_players_card_but_may_move_one_on() -> None:
    """The rules pages said a passed player's Locations "are not targets of Sleight of
    Hand"; the engine lets a Thief be moved onto one (a Steal there is not targeting its
    owner) and never off one. The pages now say so; this keeps the engine to them."""
    state = arrange(
        new(3),
        powers=["sleight", "windfall", "recruits"],
        up={0: ["market-a"], 2: ["bank-a", "library-a"]},
        treasures={0: {"tome": 2}},
        current=0,
    )
    act(state, 0, "steal", card="market-a")  # a Thief on seat 0's own Market
    act(state, 1, "pass")
    act(state, 2, "steal", card="bank-a")  # a Thief on seat 2's own Bank
    act(state, 0, "power", tile="windfall", pay="tome")
    act(state, 0, "treasure", treasure="jewel")  # (Windfall's own choice)
    act(state, 2, "pass")
    assert state.passed[2] and state.to_act == (0,)
    events = act(state, 0, "power", tile="sleight", pay="tome")
    # The one Thief it may move is on the Market (the Bank's owner has passed), and the one
    # card it may go to is the passed player's Library: each choice makes itself.
    assert of(events, "move") == [{"seat": 0, "from": "market-a", "to": "library-a"}]
    assert {"seat": 2, "card": "library-a"} in of(events, "bonus")


def test_a_power_tile_whose_ability_costs_what_you_lack_cannot_be_used() -> None:
    """Hire Out begins "Return 2 Thief tokens": with one Thief it is not offered (the
    pages said a Power tile can always be used)."""
    for thieves, offered in ((1, {"renown", "windfall"}), (2, {"hire-out", "renown", "windfall"})):
        state = arrange(
            new(3),
            powers=["hire-out", "renown", "windfall"],
            treasures={0: {"tome": 1}},
            thieves={0: thieves},
        )
        assert {a["tile"] for a in legal(state, 0) if a["type"] == "power"} == offered, thieves


def test_a_location_whose_cost_cannot_be_paid_cannot_be_used() -> None:
    state = arrange(new(3), up={1: ["abbey-a", "courthouse-a"]}, treasures={0: {"tome": 1}})
    steals = {a["card"] for a in legal(state, 0) if a["type"] == "steal"}
    assert steals == {"abbey-a"}
