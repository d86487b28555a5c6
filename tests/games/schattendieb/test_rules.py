"""Der Schattendieb: a scenario for every rule and end condition (rulebooks + RULES.md)."""

from __future__ import annotations

import json

import pytest

from thievery.core import Event, IllegalAction, InvalidOption
from thievery.games.schattendieb.cards import CARD_ID, CARD_INDEX
from thievery.games.schattendieb.rules import ADD, PLAY, STEAL

from .helpers import SPEC, arrange, interleave, new, of, round_of

# Hands that stay out of the way: no pair shares a value with the cards played below.
QUIET = ["cufflink-1b", "cufflink-2b", "cufflink-3b"]


def test_rulebook_thief_example() -> None:
    """The Shadow Thief takes Brooch 10 first, the Ring Thief then Ring 6, the Watch
    Thief gets nothing; all thieves go to the discard pile."""
    state = new(
        [
            ["thief-ring", "watch-1b", "watch-2b", "watch-3b"],
            ["thief-watch", "brooch-1b", "brooch-2b", "brooch-3b"],
            ["thief-shadow", "ring-1b", "ring-2b", "ring-3b"],
            ["brooch-10a", "cufflink-1b", "cufflink-2b", "cufflink-3b"],
            ["ring-6a", "cufflink-4b", "cufflink-5b", "cufflink-8b"],
        ]
    )
    state.apply(0, {"type": "play", "card": "thief-ring"})
    state.apply(1, {"type": "play", "card": "thief-watch"})
    state.apply(2, {"type": "play", "card": "thief-shadow"})
    state.apply(3, {"type": "play", "card": "brooch-10a"})
    events = state.apply(4, {"type": "play", "card": "ring-6a"})
    assert of(events, "reveal") == [
        {
            "cards": {
                0: "thief-ring",
                1: "thief-watch",
                2: "thief-shadow",
                3: "brooch-10a",
                4: "ring-6a",
            }
        }
    ]
    # The shadow thief acts first and has a real choice.
    assert state.phase == STEAL and state.to_act == (2,)
    assert [a.to_json() for a in state.legal_actions(2)] == [
        {"type": "steal", "card": "brooch-10a"},
        {"type": "steal", "card": "ring-6a"},
    ]
    events = state.apply(2, {"type": "steal", "card": "brooch-10a"})
    assert of(events, "steal") == [
        {"seat": 2, "thief": "thief-shadow", "card": "brooch-10a", "from": 3},
        {"seat": 0, "thief": "thief-ring", "card": "ring-6a", "from": 4},
        {"seat": 1, "thief": "thief-watch", "card": None, "from": None},
    ]
    view = state.view(None)
    assert view["safes"][2] == ["brooch-10a"] and view["safes"][0] == ["ring-6a"]
    assert {"thief-ring", "thief-watch", "thief-shadow"} <= set(view["discard"])
    assert view["safes"][3] == [] and view["safes"][4] == []


def test_shadow_thief_first_can_leave_a_specialist_empty_handed() -> None:
    state = new(
        [
            ["thief-ring", *QUIET],
            ["thief-shadow", "brooch-1b", "brooch-2b", "brooch-3b"],
            ["ring-6a", "watch-1b", "watch-2b", "watch-3b"],
            ["brooch-9a", "ring-1b", "ring-2b", "ring-3b"],
        ]
    )
    events = round_of(
        state,
        {0: "thief-ring", 1: "thief-shadow", 2: "ring-6a", 3: "brooch-9a"},
        steals=["ring-6a"],
    )
    assert of(events, "steal") == [
        {"seat": 1, "thief": "thief-shadow", "card": "ring-6a", "from": 2},
        {"seat": 0, "thief": "thief-ring", "card": None, "from": None},
    ]


def test_scoring_example_scores_57() -> None:
    """Brooches 3+6+8, watches 2+4+5+7, cufflinks 5+7+10 in a closed safe: 57 points."""
    hands = [
        ["brooch-3a", "brooch-6a", "brooch-8a", "watch-2a"],
        ["ring-9a", "ring-8a", "ring-7a", "close-4a"],
        ["watch-10a", "watch-9a", "watch-6a", "brooch-4a"],
    ]
    order = [0, 1, 2]  # dealer is seat 2: seat 0 draws first
    pile = (
        interleave(
            {0: ["watch-4a", "watch-5a", "watch-7a"], 1: ["cufflink-1b"], 2: ["brooch-1b"]}, order
        )
        + interleave(
            {
                0: ["cufflink-5a", "cufflink-7a", "cufflink-10a", "close-11a"],
                1: ["cufflink-2b"],
                2: ["brooch-2b"],
            },
            order,
        )
        + interleave(
            {0: ["ring-1b", "ring-2b", "ring-3b"], 1: ["cufflink-3b"], 2: ["brooch-3b"]}, order
        )
    )
    state = new(hands, pile)
    round_of(
        state, {0: "brooch-3a", 1: "ring-9a", 2: "watch-10a"}, adds={0: ["brooch-6a", "brooch-8a"]}
    )
    assert state.view(0)["hand"] == ["watch-2a", "watch-4a", "watch-5a", "watch-7a"]
    round_of(
        state,
        {0: "watch-2a", 1: "ring-8a", 2: "watch-9a"},
        adds={0: ["watch-4a", "watch-5a", "watch-7a"]},
    )
    round_of(
        state,
        {0: "cufflink-5a", 1: "ring-7a", 2: "watch-6a"},
        adds={0: ["cufflink-7a", "cufflink-10a"]},
    )
    assert len(state.view(0)["safes"][0]) == 10
    events = round_of(state, {0: "close-11a", 1: "close-4a", 2: "brooch-4a"})
    assert [e["seat"] for e in of(events, "close")] == [0, 1]
    over = of(events, "game_over")[0]
    assert over["reason"] == "one_open"
    assert over["scores"] == [57, 24, 0]  # the last open safe scores nothing
    assert state.result() == {"scores": [57, 24, 0], "winners": [0]}


def test_ties_of_any_kind_are_discarded_before_thieves() -> None:
    state = new(
        [
            ["ring-6a", *QUIET],
            ["brooch-6a", "watch-1b", "watch-2b", "watch-3b"],
            ["thief-shadow", "ring-1b", "ring-2b", "ring-3b"],
            ["watch-2a", "brooch-1b", "brooch-2b", "brooch-3b"],
        ]
    )
    events = round_of(
        state, {0: "ring-6a", 1: "brooch-6a", 2: "thief-shadow", 3: "watch-2a"}, adds={3: []}
    )
    assert of(events, "tie") == [{"cards": ["ring-6a", "brooch-6a"]}]
    # Only one untied card remains: the shadow thief takes it without being asked.
    assert of(events, "steal") == [
        {"seat": 2, "thief": "thief-shadow", "card": "watch-2a", "from": 3},
    ]
    view = state.view(None)
    assert view["discard"][:2] == ["ring-6a", "brooch-6a"]
    assert view["safes"] == [[], [], ["watch-2a"], []]


def test_specialist_thief_chooses_among_several_and_refuses_others() -> None:
    state = new(
        [
            ["thief-ring", *QUIET],
            ["ring-3a", "ring-4b", "watch-2b", "watch-3b"],
            ["ring-9a", "brooch-1b", "brooch-2b", "brooch-3b"],
        ]
    )
    for seat, card in ((0, "thief-ring"), (1, "ring-3a"), (2, "ring-9a")):
        state.apply(seat, {"type": "play", "card": card})
    assert state.phase == STEAL and state.to_act == (0,)
    with pytest.raises(IllegalAction, match="cannot take brooch-1b"):
        state.apply(0, {"type": "steal", "card": "brooch-1b"})
    with pytest.raises(IllegalAction, match="not to act"):
        state.apply(1, {"type": "steal", "card": "ring-3a"})
    with pytest.raises(IllegalAction, match="time to steal, not to play"):
        state.apply(0, {"type": "play", "card": "cufflink-1b"})
    state.apply(0, {"type": "steal", "card": "ring-9a"})
    # Seat 1's ring is still in front and it holds a ring: it is asked to add.
    assert state.phase == ADD and state.to_act == (1,)
    assert [a.to_json() for a in state.legal_actions(1)] == [
        {"type": "add", "card": "ring-4b"},
        {"type": "done"},
    ]


def test_add_step_is_sealed_and_simultaneous() -> None:
    state = new(
        [
            ["brooch-5a", "brooch-1a", "brooch-2a", "watch-9b"],
            ["ring-7a", "ring-8a", "cufflink-1b", "cufflink-2b"],
            ["watch-3a", "cufflink-3b", "cufflink-4b", "cufflink-5b"],
        ]
    )
    for seat, card in ((0, "brooch-5a"), (1, "ring-7a"), (2, "watch-3a")):
        state.apply(seat, {"type": "play", "card": card})
    assert state.phase == ADD
    # Seat 2 holds no watch, but it is asked all the same: only "done" is open to it.
    assert state.to_act == (0, 1, 2)
    assert [a.to_json() for a in state.legal_actions(2)] == [{"type": "done"}]
    private = state.apply(0, {"type": "add", "card": "brooch-1a"})
    assert [e.audience for e in private] == [0]
    for seat in (1, None):
        view = state.view(seat)
        assert "brooch-1a" not in json.dumps(view)
        assert view["hand_sizes"][0] == 3 and view["my_adds"] == []
    assert state.view(0)["my_adds"] == ["brooch-1a"]
    with pytest.raises(IllegalAction, match="only add brooch cards"):
        state.apply(0, {"type": "add", "card": "watch-9b"})
    state.apply(0, {"type": "done"})
    assert state.view(1)["add_done"] == [True, False, False]
    state.apply(2, {"type": "done"})
    state.apply(1, {"type": "add", "card": "ring-8a"})
    events = state.apply(1, {"type": "done"})
    assert of(events, "add") == [{"cards": {0: ["brooch-1a"], 1: ["ring-8a"]}}]
    view = state.view(2)
    assert view["safes"] == [["brooch-5a", "brooch-1a"], ["ring-7a", "ring-8a"], ["watch-3a"]]
    assert view["phase"] == "play"


def test_step_one_choices_stay_sealed_until_the_reveal() -> None:
    state = new(
        [
            ["ring-6a", *QUIET],
            ["ring-7a", "watch-1b", "watch-2b", "watch-3b"],
            ["ring-8a", "brooch-1b", "brooch-2b", "brooch-3b"],
        ]
    )
    events = state.apply(0, {"type": "play", "card": "ring-6a"})
    assert [e.to_json() for e in events] == [{"type": "chose", "audience": None, "seat": 0}]
    for seat in (1, 2, None):
        view = state.view(seat)
        assert "ring-6a" not in json.dumps(view)
        assert view["chosen"] == [True, False, False]
        assert view["hand_sizes"][0] == 3
    assert state.view(0)["my_choice"] == "ring-6a"
    assert state.to_act == (1, 2)
    with pytest.raises(IllegalAction, match="seat 0 is not to act"):
        state.apply(0, {"type": "play", "card": "cufflink-1b"})


def test_close_needs_a_card_in_the_safe_and_enough_value() -> None:
    state = new(
        [
            ["close-4a", *QUIET],
            ["close-5a", "watch-1b", "watch-2b", "watch-3b"],
            ["close-6a", "brooch-1b", "brooch-2b", "brooch-3b"],
            ["ring-9a", "ring-1b", "ring-2b", "ring-3b"],
        ]
    )
    arrange(
        state, safes={0: ["ring-4a", "ring-5a", "ring-6a", "ring-7a", "ring-8a"], 1: ["watch-9a"]}
    )
    pile_before = state.view(None)["pile_size"]
    events = round_of(
        state, {0: "close-4a", 1: "close-5a", 2: "close-6a", 3: "ring-9a"}, adds={3: []}
    )
    failed = {e["seat"] for e in of(events, "close_failed")}
    assert failed == {0, 2}  # 5 cards > 4; an empty safe cannot close
    assert of(events, "close") == [{"seat": 1, "card": "close-5a", "under_pile": 3}]
    view = state.view(None)
    assert view["closed"] == [None, "close-5a", None, None]
    assert {"close-4a", "close-6a"} <= set(view["discard"])
    # Seat 1's three cards went under the pile; the others drew one each from the top.
    assert view["pile_size"] == pile_before + 3 - 3
    assert state.to_act == (0, 2, 3)
    assert state.hands[1] == []


def test_closing_hand_goes_under_the_pile() -> None:
    state = new(
        [
            ["close-9a", "ring-1b", "ring-2b", "ring-3b"],
            ["watch-5a", *QUIET],
            ["brooch-7a", "watch-1b", "watch-2b", "watch-3b"],
        ]
    )
    arrange(state, safes={0: ["brooch-10a"]}, pile=["ring-9b", "ring-10b"])
    events = round_of(state, {0: "close-9a", 1: "watch-5a", 2: "brooch-7a"})
    # The open seats drew from the top; seat 0's three cards are now the whole pile.
    drew = [(e.audience, e.data["card"]) for e in events if e.type == "drew"]
    assert drew == [(1, "ring-9b"), (2, "ring-10b")]
    assert sorted(CARD_ID[c] for c in state.pile) == ["ring-1b", "ring-2b", "ring-3b"]
    assert state.to_act == (1, 2)


def test_game_ends_when_pile_is_empty_and_a_hand_is_empty_after_step_four() -> None:
    state = new(
        [
            ["brooch-3a", "brooch-4a", "brooch-5a", "brooch-6a"],
            ["close-15a", "watch-1b", "watch-2b", "watch-3b"],
            ["ring-1a", "ring-2a", "ring-3a", "ring-4a"],
        ]
    )
    arrange(
        state,
        safes={1: ["watch-9a", "watch-10a"], 2: ["ring-9a", "ring-8a"]},
        closed={2: "close-10a"},
        pile=[],
    )
    events = round_of(
        state, {0: "brooch-3a", 1: "close-15a"}, adds={0: ["brooch-4a", "brooch-5a", "brooch-6a"]}
    )
    over = of(events, "game_over")[0]
    assert over["reason"] == "no_cards"
    # Seat 1's close does not happen; open safes score 0; the closed safe scores.
    assert over["scores"] == [0, 0, 17]
    assert of(events, "close") == []


def test_empty_pile_skips_the_draw() -> None:
    state = new(
        [
            ["ring-5a", "ring-1b", "ring-2b", "ring-3b"],
            ["watch-6a", *QUIET],
            ["brooch-7a", "watch-1b", "watch-2b", "watch-3b"],
        ]
    )
    arrange(state, pile=[])
    events = round_of(state, {0: "ring-5a", 1: "watch-6a", 2: "brooch-7a"})
    assert of(events, "draw") == [] and of(events, "game_over") == []
    assert [len(h) for h in state.hands] == [3, 3, 3]


@pytest.mark.parametrize("rule", ["revealed", "would_succeed"])
def test_everyone_still_in_revealing_close_safe(rule: str) -> None:
    state = new(
        [
            ["close-4a", *QUIET],
            ["close-5a", "watch-1b", "watch-2b", "watch-3b"],
            ["close-6a", "brooch-1b", "brooch-2b", "brooch-3b"],
        ],
        all_close_rule=rule,
    )
    arrange(state, safes={0: ["ring-4a"], 1: ["ring-5a"]})  # seat 2's safe is empty
    events = round_of(state, {0: "close-4a", 1: "close-5a", 2: "close-6a"})
    over = of(events, "game_over")[0]
    if rule == "revealed":
        assert over["reason"] == "all_close" and over["scores"] == [0, 0, 0]
        assert of(events, "close") == []
    else:
        # Not all would succeed: 0 and 1 close, seat 2's fails, one safe is left open.
        assert [e["seat"] for e in of(events, "close")] == [0, 1]
        assert over["reason"] == "one_open" and over["scores"] == [4, 5, 0]


def test_all_close_with_would_succeed_when_all_succeed() -> None:
    state = new(
        [
            ["close-4a", *QUIET],
            ["close-5a", "watch-1b", "watch-2b", "watch-3b"],
            ["close-6a", "brooch-1b", "brooch-2b", "brooch-3b"],
        ],
        all_close_rule="would_succeed",
    )
    arrange(state, safes={0: ["ring-4a"], 1: ["ring-5a"], 2: ["ring-6a"]})
    events = round_of(state, {0: "close-4a", 1: "close-5a", 2: "close-6a"})
    assert of(events, "game_over")[0]["reason"] == "all_close"
    assert state.result() == {"scores": [0, 0, 0], "winners": [0, 1, 2]}


def test_draw_round_robin_from_the_seat_after_the_dealer() -> None:
    state = new(
        [
            ["ring-5a", "ring-1b", "ring-2b", "ring-3b"],
            ["watch-6a", *QUIET],
            ["brooch-7a", "watch-1b", "watch-2b", "watch-3b"],
        ]
    )
    arrange(state, pile=["ring-9b", "ring-10b", "watch-9b", "brooch-9b"])
    events = round_of(state, {0: "ring-5a", 1: "watch-6a", 2: "brooch-7a"})
    drew = [(e.audience, e.data["card"]) for e in events if e.type == "drew"]
    assert drew == [(0, "ring-9b"), (1, "ring-10b"), (2, "watch-9b")]
    assert of(events, "draw") == [{"counts": {0: 1, 1: 1, 2: 1}}]


def test_short_pile_draws_up_to_three_and_discards_the_rest() -> None:
    state = new(
        [
            ["ring-5a", "ring-6a", "ring-7a", "ring-3b"],
            ["watch-6a", *QUIET],
            ["brooch-7a", "watch-1b", "watch-2b", "watch-3b"],
        ]
    )
    arrange(state, pile=["ring-9b", "ring-10b", "watch-9b", "brooch-9b"])
    discard_before = state.view(None)["discard_size"]
    # Seat 0 adds two rings: it holds 1 card, the others 3. Bringing all to 4 needs 5.
    events = round_of(
        state, {0: "ring-5a", 1: "watch-6a", 2: "brooch-7a"}, adds={0: ["ring-6a", "ring-7a"]}
    )
    drew = [(e.audience, e.data["card"]) for e in events if e.type == "drew"]
    assert drew == [(0, "ring-9b"), (0, "ring-10b")]  # only up to 3
    assert of(events, "pile_discarded") == [{"count": 2}]
    view = state.view(None)
    assert view["pile_size"] == 0 and view["hand_sizes"] == [3, 3, 3]
    assert view["discard_size"] == discard_before + 2
    assert "watch-9b" not in view["discard"]  # face down: nobody saw them


def test_match_of_several_games_adds_scores_and_moves_the_dealer() -> None:
    from thievery.bots import make_bot

    state = SPEC.new(4, seed=12, options={"games": 3})
    bots = [make_bot("heuristic", "schattendieb", s, 12) for s in range(4)]
    dealers = [state.view(None)["dealer"]]
    while state.to_act:
        seat = state.to_act[0]
        for e in state.apply(seat, bots[seat].act(state.view(seat), state.legal_actions(seat))):
            if e.type == "new_game":
                dealers.append(e.data["dealer"])
    assert dealers == [3, 0, 1]
    view = state.view(None)
    assert len(view["game_scores"]) == 3
    totals = [sum(g[s] for g in view["game_scores"]) for s in range(4)]
    assert view["scores"] == totals
    result = state.result()
    assert result is not None and result["scores"] == totals
    assert result["winners"] == [s for s in range(4) if totals[s] == max(totals)]


def test_ties_share_the_win() -> None:
    state = new(
        [
            ["close-4a", *QUIET],
            ["close-5a", "watch-1b", "watch-2b", "watch-3b"],
            ["ring-6a", "brooch-1b", "brooch-2b", "brooch-3b"],
        ]
    )
    arrange(state, safes={0: ["ring-9a"], 1: ["watch-9a"]})
    round_of(state, {0: "close-4a", 1: "close-5a", 2: "ring-6a"})
    assert state.result() == {"scores": [9, 9, 0], "winners": [0, 1]}


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (2, {}, "Der Schattendieb needs 3 to 7 players"),
        (8, {}, "Der Schattendieb needs 3 to 7 players"),
        (3, {"games": 0}, "'games' must be at least 1"),
        (3, {"all_close_rule": "maybe"}, "must be one of 'revealed', 'would_succeed'"),
        (3, {"colour": "red"}, "no option 'colour'"),
        (3, {"hands": [["ring-1a"] * 4] * 3}, "used twice"),
        (3, {"hands": [["ring-1a", "ring-2a", "ring-3a"]] * 3}, "a hand has 4 cards"),
        (3, {"hands": [["ring-11a", "ring-2a", "ring-3a", "ring-4a"]]}, "one hand per seat"),
        (3, {"pile_top": ["ring-11a"]}, "no card 'ring-11a'"),
        (3, {"pile_top": ["close-12b"]}, "no card 'close-12b'"),
        (3, {"pile_top": "ring-1a"}, "must be a list of card ids"),
    ],
)
def test_bad_setups_are_refused_clearly(
    players: int, options: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidOption, match=message):
        SPEC.new(players, 0, options)


def test_stacked_pile_top_is_drawn_first_and_the_rest_is_shuffled_by_seed() -> None:
    hands = [
        ["ring-5a", "ring-1b", "ring-2b", "ring-3b"],
        ["watch-6a", *QUIET],
        ["brooch-7a", "watch-1b", "watch-2b", "watch-3b"],
    ]
    state = new(hands, ["close-15a", "thief-shadow", "ring-10a"])
    round_of(state, {0: "ring-5a", 1: "watch-6a", 2: "brooch-7a"})
    assert [state.view(s)["hand"][-1] for s in range(3)] == [
        "close-15a",
        "thief-shadow",
        "ring-10a",
    ]
    c = SPEC.new(3, 5, {"games": 1, "hands": hands, "pile_top": ["close-15a"]})
    d = SPEC.new(3, 6, {"games": 1, "hands": hands, "pile_top": ["close-15a"]})
    assert c.pile[-1] == d.pile[-1] == CARD_INDEX["close-15a"]
    assert c.pile != d.pile and sorted(c.pile) == sorted(d.pile)


def test_a_seat_with_no_cards_is_not_asked_and_then_the_game_ends() -> None:
    state = new(
        [
            ["brooch-3a", "brooch-4a", "brooch-5a", "brooch-6a"],
            ["watch-6a", "watch-7a", "watch-8a", "watch-10a"],
            ["ring-7a", "cufflink-1b", "cufflink-2b", "cufflink-3b"],
        ]
    )
    arrange(state, pile=["ring-9b"])
    round_of(
        state,
        {0: "brooch-3a", 1: "watch-6a", 2: "ring-7a"},
        adds={0: ["brooch-4a", "brooch-5a", "brooch-6a"], 1: ["watch-7a", "watch-8a", "watch-10a"]},
    )
    # The one card could not bring everyone to 4: seat 0 (first after the dealer) got it.
    assert state.view(None)["hand_sizes"] == [1, 0, 3]
    assert state.phase == PLAY and state.to_act == (0, 2)
    assert state.legal_actions(1) == []
    events = round_of(state, {0: "ring-9b", 2: "cufflink-1b"})
    assert of(events, "game_over")[0]["reason"] == "no_cards"


# ------------------------------------------------------------------ words


def test_event_words_name_the_seats_given_their_names() -> None:
    names = ["Ann", "Bo", "cy"]
    steal = Event("steal", {"seat": 2, "thief": "thief-ring", "card": "watch-9a", "from": 1})
    assert SPEC.describe(steal, 1) == "Seat 2 played the Ring Thief and took Watch 9 from you"
    assert SPEC.describe(steal, 1, names) == "cy played the Ring Thief and took Watch 9 from you"
    assert SPEC.describe(steal, None, names) == "cy played the Ring Thief and took Watch 9 from Bo"
    add = Event("add", {"cards": {1: ["watch-2b"], 0: ["watch-10a"]}})
    assert SPEC.describe(add, 1) == "You added Watch 2; seat 0 added Watch 10"
    assert SPEC.describe(add, None, names) == "Bo added Watch 2; Ann added Watch 10"
    new_game = Event("new_game", {"game": 2, "dealer": 0})
    assert SPEC.describe(new_game, 1) == "Game 2 begins; seat 0 deals"
    assert SPEC.describe(new_game, 1, names) == "Game 2 begins; Ann deals"
    assert SPEC.describe(new_game, 0, names) == "Game 2 begins; you deal"  # not "Ann deals"
    assert SPEC.describe(new_game, None) == "Game 2 begins; seat 0 deals"
    over = Event("match_over", {"scores": [38, 40, 40], "winners": [1, 2]})
    assert SPEC.describe(over, 1, names) == "The match is over. Winner: you and cy"


def test_the_end_of_a_game_says_why_a_safe_scores_0() -> None:
    over = Event(
        "game_over",
        {"game": 2, "reason": "one_open", "scores": [12, 0, 9], "totals": [12, 0, 9]},
    )
    assert SPEC.describe(over, 1).endswith(
        "Scores: seat 0 12, you 0, seat 2 9 — you score 0: your safe was still open"
    )
    assert SPEC.describe(over, 0).endswith("— seat 1 scores 0: the safe was still open")
    everyone = Event(
        "game_over",
        {"game": 1, "reason": "all_close", "scores": [0, 0, 0], "totals": [0, 0, 0]},
    )
    words = SPEC.describe(everyone, None)
    assert "(everyone still in wanted to close)" in words
    assert words.endswith("seat 0 and seat 1 and seat 2 score 0: the safes were still open")
    closed = Event(
        "game_over",
        {"game": 1, "reason": "no_cards", "scores": [3, 4], "totals": [3, 4]},
    )
    assert "score 0" not in SPEC.describe(closed, 0)
