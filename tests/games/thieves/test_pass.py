"""The Thief's move is optional (RULES.md: the player **may** move a loot card): ``pass``
is offered exactly when a move is, declines it and changes nothing else; the bots, the
search and the model play it; records keep it; older records still replay."""

from __future__ import annotations

import json

import pytest

from tests.games.thieves.helpers import (
    SPEC,
    double_loot_draws_the_thief,
    kinds,
    loot_ids,
    new,
    of_type,
    play,
    snapshot,
)
from thievery.core import Event, GameRecord, IllegalAction, InvalidRecord, MalformedAction, Rng
from thievery.core import replay as replay_record
from thievery.games.thieves import GAME, HeuristicBot
from thievery.games.thieves.actions import PASS, Move, Pass
from thievery.games.thieves.model import level_one_action
from thievery.games.thieves.rules import Thieves
from thievery.games.thieves.search import RacingSearch, RolloutSearch, _distinct, action_class


def thief_before_a_raid() -> Thieves:
    """Three cars in play; seat 0 keeps a 3 face down, seats 1 and 2 each hold a 1 face up;
    seat 0 has just played a Thief. Taking either 1 would make seat 0 the police's target."""
    state = new(
        [
            ["police-1a", "money-3a", "thief-a"],
            ["police-1b", "money-1b", "money-0a"],
            ["police-1c", "money-1a", "money-0b"],
        ],
        ["money-0c", "money-2a", "money-2b", "money-2c", "money-2d", "money-2e", "money-2f"],
    )
    play(state, "police-1a")
    play(state, "police-1b")
    play(state, "police-1c")
    play(state, "money-3a", 0)
    play(state, "money-1b", 2)
    play(state, "money-1a", 1)
    play(state, "thief-a")
    assert state.cars == 3 and state.view(0)["pending"] == "move"
    return state


def thief_with_only_own_loot() -> Thieves:
    """Only seat 0 has loot (a 3 face down); seat 0 has just played a Thief: any move
    gives its own money to a rival."""
    state = new(
        [
            ["money-3a", "thief-a", "money-0a"],
            ["money-0b", "money-0c", "police-1b"],
            ["police-1c", "money-1a", "police-1d"],
        ],
        ["money-2a", "money-2b", "money-2c", "money-2d", "money-2e"],
    )
    play(state, "money-3a", 0)
    play(state, "police-1b")
    play(state, "police-1c")
    play(state, "thief-a")
    assert state.view(0)["pending"] == "move" and loot_ids(state, 1) == []
    return state


# ------------------------------------------------------------------ the rule


def test_pass_is_offered_exactly_when_a_move_is() -> None:
    rng = Rng(4)
    moves_seen = 0
    for seed in range(40):
        state = SPEC.new(3 + seed % 4, seed)
        assert isinstance(state, Thieves)
        while state.to_act:
            for seat in range(state.players):
                legal = state.legal_actions(seat)
                offers_move = any(type(a) is Move for a in legal)
                assert (PASS in legal) == offers_move
                assert state.is_legal(seat, PASS) == offers_move
                assert offers_move == (seat in state.to_act and state.phase == 2)  # MOVE
                if offers_move:
                    assert legal[-1] == PASS and legal.count(PASS) == 1
                    assert all(type(a) in (Move, Pass) for a in legal)
                    moves_seen += 1
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert moves_seen > 20


def test_pass_is_offered_when_double_loot_draws_the_thief() -> None:
    state, _ = double_loot_draws_the_thief()
    view = state.view(0)
    assert view["pending"] == "move" and view["double_loot_draws"] == 1
    legal = state.legal_actions(0)
    assert legal[-1].to_json() == {"type": "pass"}
    assert len(legal) == 5  # two loot cards, two destinations each, and pass


def test_pass_ends_the_thief_and_the_double_loot_goes_on() -> None:
    state, _ = double_loot_draws_the_thief()
    loot = [list(row) for row in state.loot]
    events = state.apply(0, {"type": "pass"})
    assert kinds(events) == ["pass", "double_draw", "drew"]
    assert of_type(events, "pass") == [{"seat": 0}]
    assert all(e.audience is None for e in events if e.type == "pass")
    assert state.loot == loot  # nothing moved, nothing turned face up
    view = state.view(0)
    assert view["pending"] == "double_loot" and view["drawn"] == "money-2a"
    assert view["discard"] == ["double-loot-a", "thief-b"]
    play(state, "money-2a", 0)
    assert state.view(None)["current"] == 1


def test_pass_changes_nothing_but_ends_the_thief() -> None:
    state = thief_with_only_own_loot()
    places = {k: list(v) for k, v in state.locations().items()}
    views = [state.view(s) for s in (None, 0, 1, 2)]
    rng = state.rng.state
    events = state.apply(0, {"type": "pass"})
    assert kinds(events) == ["pass", "turn", "drew"]
    # Every card lies where it lay, face down stays face down; only the turn moved on:
    # seat 1 drew the top card of the deck for its turn.
    after = {k: list(v) for k, v in state.locations().items()}
    drawn = places["deck"][-1]
    assert after["deck"] == places["deck"][:-1] and after["hand1"] == [*places["hand1"], drawn]
    for place in places.keys() - {"deck", "hand1"}:
        assert after[place] == places[place], place
    assert state.loot == [[places["loot0"][0]], [], []]  # no flags: still face down
    assert state.rng.state == rng
    for viewer, before in zip((None, 0, 1, 2), views, strict=True):
        view = state.view(viewer)
        for key in ("loot", "exposed", "police", "cars", "getaways", "discard", "last_raid"):
            assert view[key] == before[key], key
        assert view["current"] == 1 and view["pending"] is None
    assert state.history()[-1] == (0, PASS)


def test_pass_is_refused_when_no_move_is_pending() -> None:
    def refused(state: Thieves, seat: int, match: str) -> None:
        before = snapshot(state)
        with pytest.raises(IllegalAction, match=match):
            state.apply(seat, {"type": "pass"})
        assert snapshot(state) == before

    # A card to play.
    state = new(
        [["thief-a", "money-0a", "money-0b"], ["money-3a", "money-0c", "police-1h"],
         ["money-1a", "police-1g", "police-1f"]],
        ["money-1b", "money-1c", "money-1d"],
    )  # fmt: skip
    refused(state, 0, "no Thief's move to decline: now is the time to play a card")
    refused(state, 1, "not to act")
    # A Thief with no loot anywhere does nothing: nothing to decline after it either.
    play(state, "thief-a")
    assert state.view(None)["current"] == 1
    refused(state, 0, "not to act")
    # A Double Loot card to place.
    state, _ = double_loot_draws_the_thief()
    state.apply(0, PASS)
    refused(state, 0, "no Thief's move to decline: now is the time to play money-2a")
    # A Roadblock's police card to pick.
    state = new(
        [["police-1a", "roadblock-a", "money-0a"], ["police-2a", "money-0b", "money-0c"],
         ["money-3a", "money-3b", "money-3c"]],
        ["money-3e", "money-1a", "money-1b", "money-1c"],
    )  # fmt: skip
    play(state, "police-1a")
    play(state, "police-2a")
    play(state, "money-3a", 2)
    play(state, "roadblock-a")
    assert state.view(0)["pending"] == "remove"
    refused(state, 0, "no Thief's move to decline: now is the time to remove a police card")


def test_a_pass_with_fields_is_malformed() -> None:
    state = thief_with_only_own_loot()
    before = snapshot(state)
    with pytest.raises(MalformedAction, match="no field 'card'"):
        state.apply(0, {"type": "pass", "card": "thief-a"})
    assert snapshot(state) == before
    assert SPEC.parse_action({"type": "pass"}) is PASS
    assert PASS.to_json() == {"type": "pass"}


def test_pass_in_words_for_every_reader() -> None:
    event = Event("pass", {"seat": 1})
    assert SPEC.describe(event, 1) == "You declined the Thief's move: nothing moved"
    assert SPEC.describe(event, 0) == "Seat 1 declined the Thief's move: nothing moved"
    assert SPEC.describe(event, None, ["Ann", "Bo", "Cy"]) == (
        "Bo declined the Thief's move: nothing moved"
    )


# ------------------------------------------------------------------ records


def test_a_record_with_a_pass_round_trips() -> None:
    state, _ = double_loot_draws_the_thief()
    state.apply(0, PASS)
    play(state, "money-2a", 2)
    record = GameRecord.of(state)
    data = json.loads(json.dumps(record.to_json()))
    assert data["version"] == SPEC.version == 2
    assert {"seat": 0, "action": {"type": "pass"}} in data["actions"]
    again = replay_record(GameRecord.from_json(data))
    assert again.history() == state.history()
    for seat in (None, 0, 1, 2):
        assert again.view(seat) == state.view(seat)
    assert again.locations() == state.locations()


def test_records_of_version_1_replay_as_played() -> None:
    """Version 1 had no ``pass``: its records are version 2 games, played alike."""
    state, _ = double_loot_draws_the_thief()
    state.apply(0, {"type": "move", "from": 1, "slot": 0, "to": 0})
    play(state, "money-2a", 0)
    data = {**GameRecord.of(state).to_json(), "version": 1}
    again = replay_record(GameRecord.from_json(data))
    assert again.history() == state.history() and again.locations() == state.locations()
    assert SPEC.record_options(1, {"raid_ties": "none_busted"}) == {"raid_ties": "none_busted"}
    for version in (0, 3):
        with pytest.raises(InvalidRecord, match=f"version {version}; this is version 2"):
            replay_record(GameRecord.from_json({**data, "version": version}))


# ------------------------------------------------------------------ the bots


def heuristic(state: Thieves, seat: int = 0) -> object:
    return HeuristicBot("thieves", seat, Rng(0)).act(state.view(seat), state.legal_actions(seat))


def test_the_heuristic_declines_when_every_move_helps_a_rival() -> None:
    assert heuristic(thief_with_only_own_loot()) == PASS


def test_the_heuristic_declines_a_card_that_makes_it_the_raids_target() -> None:
    state = thief_before_a_raid()
    assert heuristic(state) == PASS
    # Without the raid near, taking a rival's 1 is worth it.
    calm = thief_before_a_raid()
    calm.police, calm.cars = [], 0
    action = heuristic(calm)
    assert type(action) is Move and action.to == 0  # type: ignore[attr-defined]


def test_the_heuristic_still_moves_when_a_move_helps() -> None:
    state, _ = double_loot_draws_the_thief()
    action = heuristic(state)
    assert type(action) is Move and action.to == 0  # type: ignore[attr-defined]


def test_the_rollout_policy_and_the_model_pass_as_the_heuristic_does() -> None:
    for state in (thief_before_a_raid(), thief_with_only_own_loot()):
        for seed in range(5):
            assert GAME.hooks.rollout_action(state, 0, Rng(seed)) == PASS
            assert level_one_action(state, 0, Rng(seed)) == PASS
    state, _ = double_loot_draws_the_thief()
    assert type(GAME.hooks.rollout_action(state, 0, Rng(0))) is Move
    assert type(level_one_action(state, 0, Rng(0))) is Move


def test_the_search_treats_pass_as_one_more_root_move() -> None:
    state = thief_before_a_raid()
    legal = state.legal_actions(0)
    assert action_class(state, PASS) == ("pass",)
    assert all(action_class(state, a) != ("pass",) for a in legal if a != PASS)
    assert PASS in _distinct(state, legal, None)
    view = state.view(0)
    racing = RacingSearch("thieves", 0, Rng(3), iterations=120)
    chosen = racing.act(view, legal)
    assert chosen in legal
    moves, rewards = racing.last_race
    assert moves[0] == PASS  # the guide (the heuristic) declines; pass is in the race
    assert len(rewards[0]) > 0
    rollout = RolloutSearch("thieves", 0, Rng(3), iterations=60)
    assert rollout.act(view, legal) in legal
    assert PASS in rollout.search(view).children


def test_the_search_declines_giving_its_own_money_away() -> None:
    state = thief_with_only_own_loot()
    view, legal = state.view(0), state.legal_actions(0)
    assert RolloutSearch("thieves", 0, Rng(1), iterations=100).act(view, legal) == PASS
    assert RacingSearch("thieves", 0, Rng(1), iterations=300).act(view, legal) == PASS
