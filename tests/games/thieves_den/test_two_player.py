"""The 2-player game: the 2-player card set and the neutral face-up Locations."""

from __future__ import annotations

from thievery.core import Event
from thievery.games.thieves_den.rules import THIEVE, ThievesDen

from .helpers import act, arrange, held, new, of, pass_all

HANDS2 = [
    ["market-a", "tavern-a", "crypt-a", "bank-a"],
    ["library-a", "shrine-a", "abbey-a", "harbour-a"],
]


def scout(state: ThievesDen, picks: list[list[str]]) -> list[Event]:
    events: list[Event] = []
    for k in range(3):
        for seat in (0, 1):
            events += act(state, seat, "pick", card=picks[seat][k])
    return events


def test_two_players_use_only_the_two_player_cards() -> None:
    state = new(2)
    cs = state.cs
    cards = state.loc_deck + [c for h in state.hands for c in h]
    assert sorted(cards) == sorted(cs.loc_two) and len(cards) == 30
    fences = state.fence_deck + state.fence_row
    assert sorted(fences) == sorted(cs.fence_two) and len(fences) == 21
    assert state.supply == [5] * 5 and state.supply_thieves == 6


def test_the_unchosen_cards_become_neutral_locations() -> None:
    state = new(2, hands=HANDS2)
    # Seat 0 keeps market, then picks from seat 1's passed hand, and so on.
    events = scout(
        state, [["market-a", "shrine-a", "crypt-a"], ["library-a", "tavern-a", "harbour-a"]]
    )
    assert state.phase == THIEVE
    assert of(events, "neutral") == [{"cards": ["abbey-a", "bank-a"]}]
    view = state.view(0)
    assert view["neutral"] == [
        {"card": "abbey-a", "thieves": 0},
        {"card": "bank-a", "thieves": 0},
    ]
    # Anyone may steal there, with no Owner Bonus.
    events = act(state, 0, "steal", card="bank-a")
    assert of(events, "bonus") == [] and held(state, 0) == {"jewel": 2}
    assert state.thieves == [2, 3]
    # Cleanup: their thieves go to the supply and the cards under the deck.
    supply = state.supply_thieves
    pass_all(state)
    assert state.round == 2 and state.neutral == []
    assert state.supply_thieves == supply + 1
    deck = [state.cs.loc_id[c] for c in state.loc_deck]
    assert "bank-a" in deck and "abbey-a" in deck


def test_an_unchosen_instant_goes_under_the_deck_instead() -> None:
    hands = [list(h) for h in HANDS2]
    hands[1][3] = "palace-gates-a"
    state = new(2, hands=hands)
    scout(state, [["market-a", "shrine-a", "crypt-a"], ["library-a", "tavern-a", "abbey-a"]])
    assert [state.cs.loc_id[c] for c in state.neutral] == ["bank-a"]
    assert state.cs.loc_id[state.loc_deck[0]] == "palace-gates-a"


def test_neutral_thieves_return_to_the_supply_at_cleanup() -> None:
    state = arrange(new(2), neutral=["bank-a"], thieves={0: 3, 1: 3})
    act(state, 0, "steal", card="bank-a")
    supply = state.supply_thieves
    pass_all(state)
    assert state.round == 2
    assert state.supply_thieves == supply + 1  # the neutral thief came back
    assert state.thieves[0] == 2
