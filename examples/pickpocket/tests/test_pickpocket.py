"""Pickpocket's own tests: Thievery's conformance suite, a golden playthrough, and one
scenario per rule. Run them with the game installed (``pytest`` in this folder); the
playthrough is written again with ``THIEVERY_REGOLD=1`` when the rules change on purpose.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from thievery.core.errors import IllegalAction, MalformedAction
from thievery.testing import check_game, check_golden

from pickpocket import GAME, SPEC, Pick, Pickpocket
from pickpocket.actions import PASS
from pickpocket.cards import CARD_INDEX, VALUE

GOLDEN = Path(__file__).resolve().parent / "golden" / "pickpocket.txt"


def test_it_keeps_every_promise_of_the_protocol() -> None:
    check_game(GAME)


def test_the_golden_playthrough_is_unchanged() -> None:
    check_golden(GOLDEN, GAME, 2, 1)


def test_a_banked_card_is_seen_by_its_owner_only_and_the_owner_draws() -> None:
    state = SPEC.new(3, seed=2)
    seat = state.to_act[0]
    bank = state.legal_actions(seat)[0]
    assert bank.type == "bank"
    events = state.apply(seat, bank)
    assert [(e.type, e.audience) for e in events] == [("bank", None), ("drew", seat)]
    assert state.view(seat)["vaults"][seat] == [{"card": bank.to_json()["card"], "face_up": False}]
    for other in [None, *(s for s in range(3) if s != seat)]:
        assert state.view(other)["vaults"][seat] == [{"card": None, "face_up": False}]
    assert state.view(None)["hand_sizes"][seat] == 3  # one banked, one drawn


def test_a_picked_card_goes_face_up_into_the_thiefs_vault() -> None:
    state = SPEC.new(2, seed=5)
    thief = state.to_act[0]
    victim = 1 - thief
    before = state.view(victim)["hand"]
    event, drew = state.apply(thief, Pick(victim))
    assert drew.type == "drew" and drew.audience == thief
    card = event.data["card"]
    assert event.type == "pick" and event.audience is None and card in before
    for reader in (None, 0, 1):
        view = state.view(reader)
        assert view["vaults"][thief] == [{"card": card, "face_up": True}]
    assert sorted(state.view(victim)["hand"] + [card]) == sorted(before)
    sizes = state.view(None)["hand_sizes"]
    assert (sizes[thief], sizes[victim]) == (4, 2)  # the thief drew, the victim lost one


def test_refusals_say_why() -> None:
    state = SPEC.new(2, seed=1)
    seat = state.to_act[0]
    hand = state.view(seat)["hand"]
    with pytest.raises(IllegalAction, match="your own pocket"):
        state.apply(seat, {"type": "pick", "target": seat})
    missing = next(c for c in CARD_INDEX if c not in hand)
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.apply(seat, {"type": "bank", "card": missing})
    with pytest.raises(IllegalAction, match="pass only when"):
        state.apply(seat, PASS)
    with pytest.raises(MalformedAction, match="seat number"):
        state.apply(seat, {"type": "pick", "target": "left"})
    with pytest.raises(MalformedAction, match="no card"):
        state.apply(seat, {"type": "bank", "card": "purse-10"})
    assert state.history() == []


def test_a_pass_only_when_no_hand_holds_a_card_and_the_game_ends_on_time() -> None:
    state = SPEC.new(2, seed=1, options={"rounds": 12, "hand": 1})  # 24 turns, 18 cards
    passes = 0
    while state.to_act:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        assert (PASS in legal) == (legal == [PASS])
        passes += legal == [PASS]
        state.apply(seat, legal[0])
    assert len(state.history()) == 24 and passes == 24 - 18  # every card vaulted first
    result = state.result()
    assert result is not None and sum(result["scores"]) == sum(VALUE)


def test_the_highest_vault_wins_and_ties_share() -> None:
    state: Pickpocket = SPEC.new(2, seed=3, options={"rounds": 1})
    while state.to_act:
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    state.vaults = [[CARD_INDEX["purse-5"]], [CARD_INDEX["watch-5"]]]  # a custom ending
    assert state.result() == {"scores": [5, 5], "winners": [0, 1]}
    state.vaults = [[CARD_INDEX["purse-5"]], [CARD_INDEX["watch-5"], CARD_INDEX["purse-1"]]]
    assert state.result() == {"scores": [5, 6], "winners": [1]}
