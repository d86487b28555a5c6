"""Der Schattendieb's step 4 (rules version 2): only jewellery may be added, and every seat
whose jewellery is still in front is asked, so that nothing a seat sees (views, legal
actions, events, the determinizer's samples) tells it who holds a card of their kind.
Records of rules version 1 still replay as they were played."""

from __future__ import annotations

import json
from typing import Any

import pytest

from thievery.core import Action, Event, GameRecord, IllegalAction, InvalidRecord, Rng
from thievery.core import replay as replay_record
from thievery.games.schattendieb import render
from thievery.games.schattendieb.cards import CARD_INDEX, KIND, KINDS
from thievery.games.schattendieb.rules import ADD, Schattendieb

from .helpers import SPEC, arrange, new, of

PILE = [
    "brooch-9b",
    "brooch-10b",
    "ring-9b",
    "ring-10b",
    "watch-9b",
    "watch-10b",
    "cufflink-9b",
    "cufflink-10b",
    "close-12a",
    "close-13a",
]


def deal(seat2_card: str, **options: Any) -> Schattendieb:
    """Three seats; seat 2 reveals Watch 3 and its one other card varies; same pile."""
    state = new(
        [
            ["brooch-5a", "brooch-1a", "brooch-2a", "watch-9a"],
            ["ring-7a", "ring-8a", "thief-ring", "cufflink-2b"],
            ["watch-3a", seat2_card, "cufflink-4b", "cufflink-5b"],
        ],
        **options,
    )
    arrange(state, pile=PILE)
    return state


def reveal(state: Schattendieb) -> list[Event]:
    events: list[Event] = []
    for seat, card in ((0, "brooch-5a"), (1, "ring-7a"), (2, "watch-3a")):
        events += state.apply(seat, {"type": "play", "card": card})
    return events


def test_a_thief_of_the_kind_is_no_jewellery_and_cannot_be_added() -> None:
    state = deal("cufflink-6b")
    reveal(state)
    assert state.phase == ADD
    # Seat 1's Ring 7 is in front; it holds Ring 8 and the Ring Thief: only the ring.
    assert [a.to_json() for a in state.legal_actions(1)] == [
        {"type": "add", "card": "ring-8a"},
        {"type": "done"},
    ]
    add_thief = SPEC.parse_action({"type": "add", "card": "thief-ring"})
    assert not state.is_legal(1, add_thief)
    before = json.dumps([state.view(s) for s in (0, 1, 2, None)])
    with pytest.raises(IllegalAction, match="a Thief is no jewellery: seat 1 can only add ring"):
        state.apply(1, add_thief)
    assert json.dumps([state.view(s) for s in (0, 1, 2, None)]) == before  # nothing changed
    for seat in (2, 1, 0):
        state.apply(seat, {"type": "done"})
    assert CARD_INDEX["thief-ring"] in state.hands[1]
    assert state.view(None)["safes"][1] == ["ring-7a"]


def test_every_seat_with_jewellery_in_front_is_asked_even_with_nothing_to_add() -> None:
    state = deal("cufflink-6b")  # seat 2 holds no watch
    events = reveal(state)
    assert state.phase == ADD and state.to_act == (0, 1, 2)
    assert of(events, "adding") == [{"seats": [0, 1, 2]}]
    adding = next(e for e in events if e.type == "adding")
    assert SPEC.describe(adding, 1) == "May add jewellery of their kind: seat 0, you, seat 2"
    assert state.view(0)["add_asked"] == [True, True, True]
    assert [a.to_json() for a in state.legal_actions(2)] == [{"type": "done"}]
    with pytest.raises(IllegalAction, match="only add watch cards"):
        state.apply(2, {"type": "add", "card": "cufflink-4b"})
    events = state.apply(2, {"type": "done"})
    assert of(events, "done") == [{"seat": 2}] and state.to_act == (0, 1)
    state.apply(0, {"type": "add", "card": "brooch-1a"})
    state.apply(0, {"type": "done"})
    events = state.apply(1, {"type": "done"})
    assert of(events, "add") == [{"cards": {0: ["brooch-1a"]}}]
    assert state.view(None)["safes"] == [["brooch-5a", "brooch-1a"], ["ring-7a"], ["watch-3a"]]


def _trace(state: Schattendieb, observer: int | None) -> list[Any]:
    """The round from step 1 to its end as ``observer`` sees it: after every action its
    view, its legal actions and the events it is told of."""
    script: list[tuple[int, dict[str, Any]]] = [
        (0, {"type": "play", "card": "brooch-5a"}),
        (1, {"type": "play", "card": "ring-7a"}),
        (2, {"type": "play", "card": "watch-3a"}),
        (2, {"type": "done"}),  # seat 2 adds nothing, whatever it holds
        (0, {"type": "add", "card": "brooch-1a"}),
        (1, {"type": "done"}),
        (0, {"type": "done"}),
    ]
    seen: list[Any] = []
    for seat, action in script:
        events = state.apply(seat, action)
        told = [e.to_json() for e in events if e.audience is None or e.audience == observer]
        legal: list[Action] = state.legal_actions(observer) if observer is not None else []
        seen.append((state.view(observer), [a.to_json() for a in legal], told))
    return seen


@pytest.mark.parametrize("observer", [0, 1, None])
def test_nothing_shows_whether_another_seat_holds_a_card_of_its_kind(
    observer: int | None,
) -> None:
    """Three deals that differ only in one of seat 2's hidden cards: a Watch (it could
    add), another card, or the Watch Thief (of its kind, but no jewellery). Every other
    seat and a spectator see exactly the same round."""
    traces = [_trace(deal(card), observer) for card in ("watch-4b", "cufflink-6b", "thief-watch")]
    assert traces[0] == traces[1] == traces[2]


def test_the_determinizer_infers_nothing_from_the_asking() -> None:
    state = deal("watch-4b")
    reveal(state)
    state.apply(1, {"type": "done"})
    view = state.view(0)
    assert view["to_act"] == [0, 2]
    holds: dict[int, set[bool]] = {1: set(), 2: set()}
    rng = Rng(3)
    for _ in range(300):
        sample = SPEC.determinize(view, rng)
        assert isinstance(sample, Schattendieb)
        assert sample.view(0) == view
        for t in (1, 2):
            kind = KINDS.index(view["add_kinds"][t])
            holds[t].add(any(KIND[c] == kind for c in sample.hands[t]))
    # Seat 2 is still asked and seat 1 has answered: either may or may not hold its kind.
    assert holds == {1: {True, False}, 2: {True, False}}


# ---------------------------------------------------------------- records of version 1


def _v1_record(version: int) -> GameRecord:
    """A round as rules version 1 played it: seat 2 (no watch in hand) was not asked,
    and seat 1 added its Ring Thief."""
    hands = [
        ["brooch-5a", "brooch-1a", "brooch-2a", "watch-9a"],
        ["ring-7a", "ring-8a", "thief-ring", "cufflink-2b"],
        ["watch-3a", "cufflink-6b", "cufflink-4b", "cufflink-5b"],
    ]
    actions = [
        (0, {"type": "play", "card": "brooch-5a"}),
        (1, {"type": "play", "card": "ring-7a"}),
        (2, {"type": "play", "card": "watch-3a"}),
        (1, {"type": "add", "card": "thief-ring"}),
        (1, {"type": "done"}),
        (0, {"type": "done"}),
    ]
    return GameRecord("schattendieb", version, 3, 5, {"games": 1, "hands": hands}, actions)


def test_a_record_of_rules_version_1_replays_as_it_was_played() -> None:
    assert SPEC.version == 2
    assert SPEC.record_options(1, {"games": 1}) == {"games": 1, "v1_add_step": True}
    assert SPEC.record_options(2, {"games": 1}) == {"games": 1}
    state = replay_record(_v1_record(1))
    assert isinstance(state, Schattendieb)
    assert state.round_no == 2 and state.phase != ADD
    assert state.view(None)["safes"][1] == ["ring-7a", "thief-ring"]
    # Made again, the record says version 2 and keeps the old reading in its options.
    again = GameRecord.of(state)
    assert again.version == 2 and again.options["v1_add_step"] is True
    assert replay_record(again).view(None) == state.view(None)
    # Read as version 2, the same actions are refused: seat 1 may not add its thief.
    with pytest.raises(InvalidRecord, match=r"action 3 .* a Thief is no jewellery"):
        replay_record(_v1_record(2))


# ---------------------------------------------------------------- the terminal


def test_the_terminal_offers_a_seat_with_nothing_to_add_one_clear_choice() -> None:
    state = deal("cufflink-6b")
    reveal(state)
    nothing = state.view(2)
    assert [render.action(a.to_json(), nothing) for a in state.legal_actions(2)] == [
        "Nothing to add (you hold no Watch)"
    ]
    something = state.view(1)
    assert [render.action(a.to_json(), something) for a in state.legal_actions(1)] == [
        "Add Ring 8",
        "Done adding",
    ]
