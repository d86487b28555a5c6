"""Thieves!: what each seat may know, and the determinizer that re-samples the rest."""

from __future__ import annotations

import json

import pytest

from tests.games.thieves.helpers import SPEC, new, play
from thievery.core import Rng
from thievery.games.thieves.cards import CARD_ID, CARD_MASK, EXPOSED
from thievery.games.thieves.rules import Thieves


def card_id(card: int) -> str:
    return CARD_ID[card]


def secrets_of(state: Thieves, seat: int) -> set[str]:
    """Ids ``seat`` may not know now: other hands, the deck, unseen face-down loot and a
    Double Loot card another player holds."""
    hidden = {CARD_ID[c] for c in state.deck}
    for t in range(state.players):
        if t != seat:
            hidden.update(CARD_ID[c] for c in state.hands[t])
            if not state.is_over:
                hidden.update(CARD_ID[e & CARD_MASK] for e in state.loot[t] if e < EXPOSED)
    if state.drawn >= 0 and state.current != seat:
        hidden.add(CARD_ID[state.drawn])
    return hidden


def check_views(state: Thieves) -> None:
    for seat in range(state.players):
        view = state.view(seat)
        text = json.dumps({k: v for k, v in view.items() if k != "last_raid"})
        leaked = [c for c in secrets_of(state, seat) if f'"{c}"' in text]
        assert not leaked, f"seat {seat} sees {leaked}"
    spectator = json.dumps({k: v for k, v in state.view(None).items() if k != "last_raid"})
    hands = {CARD_ID[c] for h in state.hands for c in h}
    assert not [c for c in hands if f'"{c}"' in spectator]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_views_never_show_hands_deck_or_unseen_face_down_loot(players: int) -> None:
    rng = Rng(players)
    for seed in range(4):
        state = SPEC.new(players, seed)
        assert isinstance(state, Thieves)
        while state.to_act:
            check_views(state)
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        check_views(state)


def raided() -> Thieves:
    """Seat 1's face-down 1 survived a raid (everyone saw it); seat 2 then hides a 2."""
    state = new(
        [
            ["money-3a", "police-1a", "money-0a"],
            ["money-1a", "police-1b", "money-0b"],
            ["police-2a", "money-2a", "money-1b"],
        ],
        ["money-1c", "money-1d", "money-1e", "money-1f", "money-1g", "money-1h"],
    )
    play(state, "money-3a", 0)
    play(state, "money-1a", 1)
    play(state, "police-2a")
    play(state, "police-1a")
    play(state, "police-1b")
    play(state, "money-2a", 2)
    return state


def test_raid_exposed_loot_stays_known_and_fresh_loot_stays_hidden() -> None:
    state = raided()
    view = state.view(0)
    assert view["loot"][1] == [{"card": "money-1a", "face_up": False}]
    assert view["loot"][2] == [{"card": None, "face_up": False}]
    assert view["exposed"] == [[], [0], []]
    assert state.view(2)["loot"][2] == [{"card": "money-2a", "face_up": False}]


def test_determinize_keeps_what_a_seat_knows_and_resamples_the_rest() -> None:
    state = raided()
    rng = Rng(1)
    hidden_loot = set()
    other_hands = set()
    for _ in range(30):
        sample = SPEC.determinize(json.loads(json.dumps(state.view(0))), rng)
        assert isinstance(sample, Thieves)
        assert sample.view(0) == state.view(0)
        assert sample.legal_actions(0) == state.legal_actions(0)
        assert sample.loot[1][0] == state.loot[1][0]  # exposed in the raid: kept
        hidden_loot.add(sample.loot[2][0] & CARD_MASK)
        other_hands.add(tuple(sample.hands[1]))
        # The sample plays on under the protocol.
        while sample.to_act:
            seat = sample.to_act[0]
            sample.apply(seat, rng.choice(sample.legal_actions(seat)))
    assert len(hidden_loot) > 3 and len(other_hands) > 3


def test_determinize_mid_double_loot_for_another_seat() -> None:
    state = new(
        [
            ["double-loot-a", "money-0a", "money-0b"],
            ["money-0c", "police-1h", "police-1g"],
            ["money-1a", "police-1f", "money-1b"],
        ],
        ["money-3e", "getaway-a", "police-1a", "money-2a", "money-1c"],
    )
    play(state, "double-loot-a")
    rng = Rng(2)
    drawn = set()
    for _ in range(20):
        sample = SPEC.determinize(state.view(1), rng)
        assert isinstance(sample, Thieves)
        assert sample.view(1) == state.view(1)
        drawn.add(sample.drawn)
        assert sample.view(0)["pending"] == "double_loot"
        assert sample.legal_actions(0)  # the current player can go on
    assert len(drawn) > 3
    sample = SPEC.determinize(state.view(0), rng)
    assert sample.legal_actions(0) == state.legal_actions(0)


def test_determinize_needs_a_seat() -> None:
    with pytest.raises(ValueError, match="spectator"):
        SPEC.determinize(SPEC.new(3, 0).view(None), Rng(0))


def test_after_an_alarm_everyone_knows_the_hands_hold_no_police() -> None:
    state = new(
        [
            ["money-1a", "police-2a", "police-2b"],
            ["money-3a", "alarm-a", "police-1a"],
            ["money-2a", "police-1b", "police-1c"],
        ],
        ["money-0a", "money-0b", "money-0c", "police-1e", "money-1h", "money-1g", "money-1f"],
        first=1,
    )
    assert state.view(0)["police_free"] == [0, 0, 0]
    play(state, "money-3a", 1)
    play(state, "money-2a", 2)
    play(state, "money-1a", 0)
    play(state, "alarm-a")
    # Seat 2 has drawn 3 cards for its turn since the Alarm.
    assert state.view(0)["police_free"] == [1, 1, 1]
    # The deck was shuffled in the raids: seat 2 plays whatever it drew that is not police,
    # maybe its one known police-free card.
    hand = state.view(2)["hand"]
    card = next(c for c in hand if not c.startswith("police"))
    play(state, card, 2) if card.startswith(("money", "diamond", "horseshoe")) else play(
        state, card
    )
    while state.view(2)["pending"]:  # a Roadblock, Thief or Double Loot: any follow-up
        state.apply(state.current, state.legal_actions(state.current)[0])
    assert state.view(0)["police_free"][:2] == [1, 1]
    assert state.view(0)["police_free"][2] == 0
    rng = Rng(4)
    for _ in range(40):
        sample = SPEC.determinize(state.view(2), rng)
        assert isinstance(sample, Thieves)
        assert sample.view(2) == state.view(2)
        for t in (0, 1):
            clean = [c for c in sample.hands[t] if not card_id(c).startswith("police")]
            assert len(clean) >= state.view(2)["police_free"][t] == 1


def test_a_hidden_double_loot_card_is_always_money() -> None:
    state = new(
        [
            ["double-loot-a", "money-0a", "money-0b"],
            ["money-0c", "police-1h", "police-1g"],
            ["money-1a", "police-1f", "money-1b"],
        ],
        ["money-3e", "money-2a", "money-1c"],
    )
    play(state, "double-loot-a")
    rng = Rng(5)
    for _ in range(40):
        sample = SPEC.determinize(state.view(2), rng)
        assert isinstance(sample, Thieves)
        assert card_id(sample.drawn).startswith(("money", "diamond", "horseshoe"))


def test_a_view_shares_nothing_with_the_state() -> None:
    state = raided()
    view = state.view(1)
    before = state.view(1)
    view["last_raid"]["loot"][0].append("money-3e")
    view["last_raid"]["busted"].append(2)
    view["hand"].append("x")
    view["loot"][1][0]["card"] = "y"
    view["police_free"][0] = 9
    assert state.view(1) == before
