"""Every named Location and every Power tile, each a sequence of small decisions."""

from __future__ import annotations

import json

from thievery.core import Event, Rng
from thievery.games.thieves_den.cards import TREASURES
from thievery.games.thieves_den.rules import ThievesDen

from .helpers import SPEC, act, arrange, held, legal, new, of
from .test_setup_scouting import HANDS3

POWERS = ["renown", "windfall", "recruits"]


# ------------------------------------------------------------------ named Locations


def give(state: ThievesDen, seat: int, treasures: dict[str, int]) -> None:
    """Move treasures from the supply to a seat's board (a scouting-time setup)."""
    for name, k in treasures.items():
        t = TREASURES.index(name)
        state.supply[t] -= k
        state.treasure[seat][t] += k


def reveal_first(state: ThievesDen) -> list[Event]:
    """Every seat picks the first card of its hand."""
    events: list[Event] = []
    for seat in (0, 1, 2):
        events += act(state, seat, "pick", card=state.view(seat)["hand"][0])
    return events


def test_witch_hut_destroys_a_chosen_opponents_chosen_treasure() -> None:
    hands = [list(h) for h in HANDS3]
    hands[0][0] = "witch-hut-a"
    state = new(3, hands=hands)
    give(state, 1, {"tome": 1})
    give(state, 2, {"jewel": 1, "fossil": 2})
    supply = state.supply[:]
    reveal_first(state)  # the Witch Hut is an Instant: it acts when revealed
    assert state.to_act == (0,)
    assert legal(state, 0) == [{"type": "opponent", "seat": 1}, {"type": "opponent", "seat": 2}]
    act(state, 0, "opponent", seat=2)
    assert sorted(a["treasure"] for a in legal(state, 0)) == ["fossil", "jewel"]
    events = act(state, 0, "treasure", treasure="jewel")
    assert of(events, "destroy") == [{"seat": 0, "from": 2, "what": "jewel"}]
    assert held(state, 2) == {"fossil": 2} and state.supply[1] == supply[1] + 1
    assert state.view(None)["seats"][0]["collected"] == ["witch-hut-a"]
    assert list(state.to_act) == [0, 1, 2]  # the next picks


def test_laborium_pays_one_treasure_then_takes_up_to_two() -> None:
    state = arrange(new(3), up={0: ["laborium-a"]}, treasures={0: {"tome": 1, "fossil": 1}})
    act(state, 0, "steal", card="laborium-a")
    assert "pay" in state.view(0)["decision"]
    act(state, 0, "treasure", treasure="fossil")
    assert {"type": "skip"} in legal(state, 0)  # "up to"
    act(state, 0, "treasure", treasure="jewel")
    act(state, 0, "skip")
    assert held(state, 0) == {"tome": 1, "jewel": 1}
    assert state.to_act == (1,)


def test_laborium_needs_a_treasure_to_pay() -> None:
    state = arrange(new(3), up={1: ["laborium-a"]})
    assert {"type": "steal", "card": "laborium-a"} not in legal(state, 0)


def test_guild_takes_a_thief_from_an_opponent() -> None:
    hands = [list(h) for h in HANDS3]
    hands[0][0] = "guild-a"
    state = new(3, hands=hands)
    events = reveal_first(state)
    act(state, 0, "opponent", seat=2)
    assert state.thieves == [4, 3, 2]
    assert of(events, "instant") == [{"seat": 0, "card": "guild-a"}]


def test_custom_house_takes_a_treasure_from_an_opponent() -> None:
    state = arrange(
        new(3), up={2: ["custom-house-a"]}, treasures={1: {"potion": 2}, 2: {"tome": 1}}
    )
    act(state, 0, "steal", card="custom-house-a")
    act(state, 0, "opponent", seat=2)  # the owner can be targeted too
    assert held(state, 0) == {"tome": 1} and held(state, 2) == {"jewel": 1}  # its bonus


def test_market_and_potion_shop() -> None:
    state = arrange(new(3), up={1: ["market-a", "potion-shop-a"]})
    act(state, 0, "steal", card="potion-shop-a")
    assert held(state, 0) == {"potion": 3} and held(state, 1) == {"potion": 1}
    act(state, 1, "steal", card="market-a")
    assert held(state, 1) == {"potion": 1, "jewel": 2} and state.thieves[1] == 2


# ------------------------------------------------------------------ Power tiles


def test_power_recall_takes_a_thief_and_puts_the_card_on_the_deck() -> None:
    state = arrange(
        new(3),
        powers=["recall", *POWERS[1:]],
        up={1: ["market-a"], 2: ["bank-a"]},
        treasures={0: {"tome": 1}, 1: {"tome": 1}},
        thieves={1: 4},
    )
    act(state, 0, "steal", card="market-a")
    act(state, 1, "steal", card="bank-a")
    act(state, 2, "pass")
    events = act(state, 0, "power", tile="recall", pay="tome")
    # Seat 2 has passed: its Bank cannot be targeted, so Market is the only choice.
    assert of(events, "recall") == [{"seat": 0, "card": "market-a", "owner": 1}]
    assert state.thieves[0] == 2 + 1
    view = state.view(1)
    assert view["location_deck_top"] == ["market-a"]
    assert view["seats"][1]["locations"] == []
    # A determinized state keeps the known card on top.
    sample = SPEC.determinize(json.loads(json.dumps(view)), Rng(1))
    assert sample.view(1) == view
    assert sample.loc_deck[-1] == state.cs.loc_index["market-a"]  # type: ignore[attr-defined]


def test_power_scout_ahead_draws_a_location_and_may_use_it() -> None:
    state = arrange(new(3), powers=["scout-ahead", *POWERS[1:]], treasures={0: {"tome": 1}})
    state.loc_deck.remove(state.cs.loc_index["bank-a"])
    state.loc_deck.append(state.cs.loc_index["bank-a"])
    act(state, 0, "power", tile="scout-ahead", pay="tome")
    assert state.view(None)["seats"][0]["locations"] == [{"card": "bank-a", "thieves": 0}]
    assert legal(state, 0) == [{"type": "steal", "card": "bank-a"}, {"type": "skip"}]
    act(state, 0, "steal", card="bank-a")
    assert held(state, 0) == {"jewel": 2}


def test_power_double_up_adds_a_thief_to_an_occupied_spot() -> None:
    state = arrange(
        new(3),
        powers=["double-up", *POWERS[1:]],
        up={1: ["market-a", "bank-a"]},
        treasures={0: {"tome": 1}},
    )
    act(state, 0, "steal", card="market-a")
    act(state, 1, "pass")
    act(state, 2, "pass")
    events = act(state, 0, "power", tile="double-up", pay="tome")
    assert of(events, "gain")[0] == {"seat": 0, "what": "thief", "count": 1}
    # The only occupied spot: the compulsory Steal happens there without a question.
    assert of(events, "steal") == [{"seat": 0, "card": "market-a", "owner": 1}]
    assert state.thieves[0] == 2  # 2 + 1 from the supply - 1 placed
    assert held(state, 0) == {"jewel": 4}
    assert state.on_loc[state.cs.loc_index["market-a"]] == 2


def test_power_double_up_fences_at_an_opponents_fence_without_taking_it() -> None:
    state = arrange(
        new(3),
        powers=["double-up", *POWERS[1:]],
        fence_row=["noble-countess-a"],
        treasures={0: {"tome": 1, "jewel": 2}, 1: {"jewel": 2}},
        current=1,
    )
    act(state, 1, "fence", card="noble-countess-a")
    act(state, 2, "pass")
    events = act(state, 0, "power", tile="double-up", pay="tome")
    # The only occupied spot with a sale seat 0 can make: it happens by itself.
    assert of(events, "fence")[0]["card"] == "noble-countess-a"
    assert state.prestige[0] == 7
    seats = state.view(None)["seats"]
    assert seats[1]["fences"] == [{"card": "noble-countess-a", "uses": 2}]
    assert seats[0]["fences"] == []


def test_power_hire_out_pays_two_thieves_for_two_treasures() -> None:
    state = arrange(new(3), powers=["hire-out", *POWERS[1:]], treasures={0: {"tome": 1}})
    act(state, 0, "power", tile="hire-out", pay="tome")
    act(state, 0, "treasure", treasure="jewel")
    act(state, 0, "treasure", treasure="jewel")
    assert state.thieves[0] == 1 and held(state, 0) == {"jewel": 2}
    thin = arrange(
        new(3), powers=["hire-out", *POWERS[1:]], treasures={0: {"tome": 1}}, thieves={0: 1}
    )
    assert not [a for a in legal(thin, 0) if a.get("tile") == "hire-out"]


def test_power_busy_night_gives_two_actions() -> None:
    state = arrange(
        new(3),
        powers=["busy-night", *POWERS[1:]],
        up={1: ["market-a", "bank-a"]},
        treasures={0: {"tome": 1}},
    )
    act(state, 0, "power", tile="busy-night", pay="tome")
    act(state, 0, "steal", card="market-a")
    assert state.to_act == (0,)
    act(state, 0, "steal", card="bank-a")
    assert held(state, 0) == {"jewel": 4} and state.to_act == (1,)


def test_power_sleight_moves_a_thief_uses_the_card_and_keeps_the_thief() -> None:
    state = arrange(
        new(3),
        powers=["sleight", *POWERS[1:]],
        up={1: ["market-a"], 2: ["bank-a", "library-a"]},
        treasures={0: {"tome": 1}},
    )
    act(state, 0, "steal", card="market-a")
    act(state, 1, "pass")
    act(state, 2, "pass")
    thieves = state.thieves[0]
    act(state, 0, "power", tile="sleight", pay="tome")
    # Only seat 1 (passed) owns a card with a thief: nothing to move.
    assert state.to_act == (0,) and state.thieves[0] == thieves
    state2 = arrange(
        new(3),
        powers=["sleight", *POWERS[1:]],
        up={1: ["market-a"], 2: ["bank-a", "library-a"]},
        treasures={0: {"tome": 1}},
        current=1,
    )
    act(state2, 1, "steal", card="market-a")  # seat 1 at its own Market
    act(state2, 2, "burgle", treasure="tome")
    act(state2, 0, "power", tile="sleight", pay="tome")
    # The Market holds the only thief: it is the source without a question.
    assert state2.view(0)["decision"] == "choose a Location to move the Thief from market-a to"
    assert {a["card"] for a in legal(state2, 0)} == {"bank-a", "library-a"}
    act(state2, 0, "location", card="library-a")
    assert held(state2, 0) == {"tome": 3}
    assert state2.thieves[0] == 4  # 3 + the moved thief
    assert held(state2, 2)["tome"] == 2  # seat 2's Owner Bonus (+ its burgle)
    assert state2.on_loc[state2.cs.loc_index["library-a"]] == 0


def test_power_new_buyers_replaces_three_fences_then_an_action() -> None:
    state = arrange(new(3), powers=["new-buyers", *POWERS[1:]], treasures={0: {"tome": 1}})
    row = [state.cs.fence_id[f] for f in state.fence_row]
    drawn = [state.cs.fence_id[f] for f in state.fence_deck[-3:]][::-1]
    act(state, 0, "power", tile="new-buyers", pay="tome")
    for card in row[:3]:
        assert {"type": "return_fence", "card": card} in legal(state, 0)
        act(state, 0, "return_fence", card=card)
    assert [state.cs.fence_id[f] for f in state.fence_deck[:3]] == row[:3][::-1]
    assert [state.cs.fence_id[f] for f in state.fence_row] == drawn + row[3:]
    if state.to_act == (0,):
        act(state, 0, "skip")
    assert state.to_act == (1,)


def test_power_switcheroo_swaps_locations_with_their_thieves() -> None:
    state = arrange(
        new(3),
        powers=["switcheroo", *POWERS[1:]],
        up={0: ["tavern-a"], 1: ["market-a"], 2: ["bank-a"]},
        treasures={0: {"tome": 1}},
    )
    act(state, 0, "steal", card="bank-a")
    act(state, 1, "pass")
    act(state, 2, "steal", card="tavern-a")
    state.up[0].append(state.cs.loc_index["crypt-a"])
    state.loc_deck.remove(state.cs.loc_index["crypt-a"])
    state.loc_owner[state.cs.loc_index["crypt-a"]] = 0
    act(state, 0, "power", tile="switcheroo", pay="tome")
    assert {a["card"] for a in legal(state, 0)} == {"tavern-a", "crypt-a"}
    events = act(state, 0, "location", card="tavern-a")
    # Seat 1 passed, so seat 2's Bank is the only card to swap for: no question.
    assert of(events, "swap") == [{"seat": 0, "mine": "tavern-a", "theirs": "bank-a", "with": 2}]
    seats = state.view(None)["seats"]
    assert seats[0]["locations"] == [
        {"card": "bank-a", "thieves": 1},
        {"card": "crypt-a", "thieves": 0},
    ]
    assert seats[2]["locations"] == [{"card": "tavern-a", "thieves": 1}]


def test_power_renown_windfall_and_recruits() -> None:
    state = arrange(new(3), powers=POWERS, treasures={0: {"tome": 3}}, thieves={0: 4})
    act(state, 0, "power", tile="renown", pay="tome")
    act(state, 1, "pass")
    act(state, 2, "pass")
    act(state, 0, "power", tile="windfall", pay="tome")
    act(state, 0, "treasure", treasure="potion")
    act(state, 0, "power", tile="recruits", pay="tome")
    assert state.prestige[0] == 3 and held(state, 0) == {"potion": 1}
    assert state.thieves[0] == 6  # 4 + 3, two over the limit back to the supply


def test_power_inside_job_gives_you_the_owner_bonus() -> None:
    state = arrange(
        new(3), powers=["inside-job", *POWERS[1:]], up={1: ["market-a"]}, treasures={0: {"tome": 1}}
    )
    events = act(state, 0, "power", tile="inside-job", pay="tome")
    # The compulsory Steal has one possible Location: it happens by itself.
    assert of(events, "steal") == [{"seat": 0, "card": "market-a", "owner": 1}]
    assert held(state, 0) == {"jewel": 2} and state.thieves[0] == 4  # 3 - 1 + 2
    assert state.thieves[1] == 3  # the owner gets nothing
