"""Cleanup in its seven steps, the Direction tile, and the end: majorities, Schemes, ties."""

from __future__ import annotations

import pytest

from thievery.games.thieves_den.rules import GIVE, OVER

from .helpers import act, arrange, legal, new, of, pass_all


def test_cleanup_returns_every_token_and_collects_the_cards() -> None:
    state = arrange(
        new(3, first=0),
        up={0: ["market-a", "bank-a"]},
        fence_row=["noble-countess-a"],
        powers=["renown", "windfall", "recruits"],
        treasures={1: {"jewel": 2, "tome": 3}, 2: {"potion": 2}},
        thieves={0: 5, 1: 4, 2: 3},
    )
    tops = [p[-1] for p in state.power_stacks]
    act(state, 0, "pass")
    act(state, 1, "steal", card="market-a")  # seat 0 goes to 6 thieves (5 + 2, one back)
    act(state, 2, "steal", card="bank-a")
    act(state, 1, "fence", card="noble-countess-a")
    act(state, 2, "witch", treasure="potion")
    act(state, 1, "power", tile="renown", pay="tome")
    act(state, 2, "burgle", treasure="fossil")
    act(state, 1, "recruit", first="tome", second="jewel")
    act(state, 2, "pass")
    assert state.thieves[0] == 6
    events = act(state, 1, "pass")
    assert of(events, "cleanup") == [{"round": 1}]
    # 1. Thieves on Locations go to the owner, not above 6; the cards are collected.
    assert state.thieves[0] == 6
    assert state.view(None)["seats"][0]["collected"] == ["market-a", "bank-a"]
    # 2. The Fence keeps nothing; 3. Power tiles; 4.-6. Witch, Burgle, Recruit.
    assert state.view(None)["seats"][1]["fences_collected"] == ["noble-countess-a"]
    assert state.power_gone == tops and all(len(p) == 2 for p in state.power_stacks)
    assert state.power_paid == [-1, -1, -1] and state.witch == [0] * 5
    assert state.burgle == 0 and state.recruit == [0] * 5 and state.fence_uses == [0] * 42
    for t in range(5):
        assert state.supply[t] + sum(state.treasure[s][t] for s in range(3)) == 7
    assert state.supply_thieves + sum(state.thieves) == 18


def test_the_direction_tile_goes_to_the_fewest_prestige_and_flips() -> None:
    state = arrange(new(3, first=0), prestige={0: 5, 1: 2, 2: 9})
    pass_all(state)
    view = state.view(None)
    assert view["holder"] == 1 and view["direction"] == "counterclockwise"
    assert view["round"] == 2


def test_a_prestige_tie_goes_to_the_fewest_tokens() -> None:
    state = arrange(
        new(3, first=0),
        prestige={0: 5, 1: 2, 2: 2},
        treasures={1: {"tome": 1}},
    )
    pass_all(state)
    assert state.view(None)["holder"] == 2


def test_a_full_tie_lets_the_holder_choose() -> None:
    state = arrange(new(4, first=3), prestige={0: 1, 1: 1, 2: 4, 3: 6})
    pass_all(state)
    assert state.phase == GIVE and state.to_act == (3,)
    assert legal(state, 3) == [{"type": "give", "seat": 0}, {"type": "give", "seat": 1}]
    act(state, 3, "give", seat=1)
    view = state.view(None)
    assert view["holder"] == 1 and view["round"] == 2 and view["phase"] == "scouting"


def last_round(state: object) -> None:
    state.round = 3  # type: ignore[attr-defined]


def test_the_end_scores_majorities_without_ties_and_schemes() -> None:
    state = arrange(
        new(3, schemes=["village-shadow", "ruins-holy", "holy-city"]),
        collected={
            0: ["market-a", "tavern-a", "witch-hut-a", "guild-a", "black-market-a"],
            1: ["crypt-a", "monastery-a", "shrine-a", "bank-a"],
            2: ["library-a"],
        },
        fences_collected={
            0: ["noble-countess-a", "noble-baron-a", "agent-scribe-a"],
            1: ["noble-duke-a", "agent-spy-a"],
            2: ["peddler-hawker-a"],
        },
        prestige={0: 10, 1: 10, 2: 10},
    )
    last_round(state)
    events = pass_all(state)
    assert state.phase == OVER and state.to_act == ()
    final = of(events, "final")[0]
    # Noble: seat 0 has 2, seat 1 has 1 → 3. Agent: 1 each → nobody. Peddler: seat 2 → 5.
    assert final["majorities"]["noble"] == 0 and final["majorities"]["agent"] is None
    assert final["majorities"]["peddler"] == 2
    # Schemes: seat 0 village 2 / shadow 3 → 2 sets; seat 1 ruins 1 / holy 2 → 1 set;
    # seat 2 holy 0 → none.
    assert [x["sets"] for x in final["schemes"]] == [2, 1, 0]
    assert state.prestige == [10 + 3 + 10, 10 + 5, 10 + 5]
    assert state.result() == {"scores": [23, 15, 15], "winners": [0]}
    assert all(x["scheme"] for x in state.view(1)["seats"])  # revealed at the end


def test_a_prestige_tie_at_the_end_goes_to_the_most_tokens_else_shared() -> None:
    state = arrange(new(3), prestige={0: 20, 1: 20, 2: 3}, treasures={1: {"tome": 1}})
    last_round(state)
    pass_all(state)
    assert state.result() == {"scores": [20, 20, 3], "winners": [1]}
    shared = arrange(new(3), prestige={0: 20, 1: 20, 2: 3})
    last_round(shared)
    pass_all(shared)
    assert shared.result() == {"scores": [20, 20, 3], "winners": [0, 1]}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_whole_game_is_three_rounds(players: int) -> None:
    state = new(players)
    rounds = set()
    while state.to_act:
        rounds.add(state.round)
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[-1])  # pass / the last choice
    assert rounds == {1, 2, 3} and state.result() is not None
