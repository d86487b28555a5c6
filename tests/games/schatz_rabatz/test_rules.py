"""Schatz-Rabatz scenarios: closing and the rim, the race for a treasure, the hourglass,
Little and Big Pirates, the scoring, ship parts, ties and the end (rulebook + RULES.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from thievery.core import (
    Event,
    GameRecord,
    IllegalAction,
    InvalidOption,
    MalformedAction,
    Rng,
    replay,
)
from thievery.core.protocol import CLOCK, Tick
from thievery.games.schatz_rabatz import lang_de
from thievery.games.schatz_rabatz.pieces import BOARD_CLAIMS, TREASURE_INDEX
from thievery.games.schatz_rabatz.rules import OVER, PACKING, SCORED

from .helpers import (
    SPEC,
    all_ready,
    drop,
    finish_round,
    kinds,
    new,
    of_type,
    seeded,
    snapshot,
    wait_hand,
)

CLOSE = {"type": "close"}
READY = {"type": "ready"}


def test_closing_takes_out_every_treasure_above_the_rim() -> None:
    state = new()
    drop(state, 0, "sword-blue", 1, 0)  # on end: rows 0-3
    assert drop(state, 0, "pearls-green", 1, 0) == 4  # rows 4-6: above the rim (5)
    drop(state, 0, "circle-green", 0, 1)
    drop(state, 0, "sword-yellow", 1, 2)
    assert drop(state, 0, "circle-yellow", 0, 2) == 4  # its top is the rim: it stays
    assert state.now_ms == 3200  # five drops: the hand waited 800 ms before each later one
    events = state.apply(0, CLOSE)
    assert of_type(events, "close") == [{"seat": 0, "at_ms": 3200, "removed": ["pearls-green"]}]
    view = state.view(None)
    assert view["out"][0] == ["pearls-green"]
    assert [p["id"] for p in view["chests"][0]["treasures"]] == [
        "sword-blue",
        "circle-green",
        "sword-yellow",
        "circle-yellow",
    ]
    assert view["chests"][0]["heights"] == [4, 1, 5, 0, 0, 0]
    assert not view["chests"][0]["open"] and view["chests"][0]["closed_ms"] == 3200
    assert state.to_act == (1,)
    with pytest.raises(IllegalAction, match="seat 0's chest is closed"):
        state.apply(0, {"type": "drop", "treasure": "circle-blue", "rotation": 0, "column": 3})
    events = state.apply(1, CLOSE)
    (scored,) = of_type(events, "scored")
    assert scored["counts"] == [4, 0] and scored["out"] == [["pearls-green"], []]
    assert scored["parts"] == ["bow-1", None]


def test_a_drop_wholly_above_the_rim_is_refused() -> None:
    state = new(depth=2)
    drop(state, 0, "hexagon-red", 1, 0)  # on end: rows 0-1, up to the rim
    wait_hand(state, 0)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="wholly above the rim"):
        state.apply(0, {"type": "drop", "treasure": "circle-red", "rotation": 0, "column": 0})
    assert snapshot(state) == before
    assert not any(
        a.column == 0 and a.type == "drop"  # type: ignore[attr-defined]
        for a in state.legal_actions(0)
        if a.type == "drop" and a.rotation == 0 and a.treasure.startswith("circle")  # type: ignore[attr-defined]
    )


def test_the_race_for_one_treasure() -> None:
    """Both seats go for the last crown: the first action applied wins, the other is told
    clearly and nothing changes for it."""
    state = new()
    want = {"type": "drop", "treasure": "crown-red", "rotation": 0, "column": 0}
    assert SPEC.parse_action(want) in state.legal_actions(1)
    state.apply(0, want)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="crown-red is gone: seat 0 took it"):
        state.apply(1, want)
    assert snapshot(state) == before
    assert "crown-red" not in state.view(1)["pool"]
    assert all(getattr(a, "treasure", "") != "crown-red" for a in state.legal_actions(1))
    drop(state, 1, "crown-blue", 0, 0)  # the loser packs another
    # Taken out when closing, it is still gone for everyone this round.
    state.apply(0, CLOSE)
    wait_hand(state, 1)
    with pytest.raises(IllegalAction, match="gone: seat 0 took it"):
        state.apply(1, want)


def test_the_hourglass_closes_every_chest_when_it_runs_out() -> None:
    state = new(3)
    drop(state, 0, "sword-blue", 1, 0)
    drop(state, 0, "sword-green", 1, 0)  # sticks out
    state.advance(10_000)
    drop(state, 1, "circle-blue", 0, 0)
    state.apply(2, CLOSE)  # seat 2 closes early, at 10 s
    assert state.advance(29_999) == []
    assert state.to_act == (0, 1) and state.now_ms == 29_999
    events = state.advance(31_500)
    assert kinds(events)[:4] == ["time_up", "close", "close", "board"]
    assert of_type(events, "time_up") == [{"at_ms": 30_000}]
    assert [c["seat"] for c in of_type(events, "close")] == [0, 1]
    assert of_type(events, "close")[0]["removed"] == ["sword-green"]
    view = state.view(None)
    assert [c["closed_ms"] for c in view["chests"]] == [30_000, 30_000, 10_000]
    assert state.now_ms == 31_500 and view["phase"] == "scored"
    assert list(state.to_act) == [0, 1, 2]
    assert view["last_round"]["counts"] == [1, 1, 0]
    with pytest.raises(IllegalAction, match="round 1 is over"):
        state.apply(0, {"type": "drop", "treasure": "circle-red", "rotation": 0, "column": 0})


def test_a_view_changed_by_its_caller_changes_nothing_of_the_game() -> None:
    """The last round's tally in a view was the state's own: a caller that changed it
    changed what every later view, clone and record showed."""
    state = new(3)
    drop(state, 0, "sword-blue", 1, 0)
    drop(state, 1, "circle-blue", 0, 0)
    state.advance(31_500)
    before = json.loads(json.dumps(state.view(None)))  # (a copy: the view may share)
    assert before["last_round"]["counts"] == [1, 1, 0]
    mine = state.view(0)
    mine["last_round"]["counts"][0] = 99
    mine["last_round"]["counted"][0].append("crown-red")
    mine["last_round"]["round"] = 7
    assert state.view(None) == before and state.clone().view(None) == before


def test_time_moves_only_forward_and_only_by_the_clock() -> None:
    state = new()
    state.advance(5_000)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="backwards"):
        state.advance(4_999)
    with pytest.raises(IllegalAction, match="only the clock moves time"):
        state.apply(0, {"type": "tick", "now_ms": 9_000})
    with pytest.raises(IllegalAction, match="only moves time"):
        state.apply(CLOCK, CLOSE)
    with pytest.raises(MalformedAction):
        state.apply(CLOCK, {"type": "tick", "now_ms": "soon"})
    with pytest.raises(MalformedAction):
        state.advance(1.5)  # type: ignore[arg-type]
    assert snapshot(state) == before
    assert state.apply(CLOCK, {"type": "tick", "now_ms": 6_000}) == []
    assert state.now_ms == 6_000


def test_ticks_are_recorded_and_replay_exactly() -> None:
    state = new(2, hourglass_seconds=5)
    state.advance(1_000)
    state.advance(2_000)  # the silent tick at 1 s is replaced
    assert state.history() == [(CLOCK, Tick(2_000))]
    drop(state, 0, "goldbar-blue", 0, 0)
    state.advance(3_000)
    events = state.advance(7_000)  # the hourglass ran out at 5 s: this tick is kept
    assert "time_up" in kinds(events)
    state.advance(8_000)
    assert [a.to_json() for s, a in state.history() if s == CLOCK] == [
        {"type": "tick", "now_ms": 2_000},
        {"type": "tick", "now_ms": 7_000},
        {"type": "tick", "now_ms": 8_000},
    ]
    all_ready(state)
    record = GameRecord.from_json(json.loads(json.dumps(GameRecord.of(state).to_json())))
    assert {"seat": -1, "action": {"type": "tick", "now_ms": 7_000}} in (
        record.to_json()["actions"]
    )
    again = replay(record)
    assert again.view(0) == state.view(0) and again.locations() == state.locations()
    assert again.now_ms == 8_000  # type: ignore[attr-defined]


def test_the_basic_board_is_turned_after_packing() -> None:
    state = new()
    view = state.view(0)
    assert view["board"] is None and view["stack_size"] == 9 and view["boards_turned"] == []
    drop(state, 0, "circle-red", 0, 0)  # jack-1 claims it
    drop(state, 0, "circle-blue", 0, 1)
    drop(state, 1, "pearls-blue", 0, 0)  # claimed too
    state.apply(0, CLOSE)
    events = state.apply(1, CLOSE)
    (board,) = of_type(events, "board")
    assert board["board"] == "jack-1" and "circle-red" in board["claims"]
    (scored,) = of_type(events, "scored")
    assert scored["jack"] == [["circle-red"], ["pearls-blue"]]
    assert scored["counted"] == [["circle-blue"], []]
    assert scored["counts"] == [1, 0] and scored["best"] == [0]
    assert state.locations()["jack0"] == ["circle-red"]
    chest = state.view(None)["chests"][0]
    assert chest["heights"] == [0, 1, 0, 0, 0, 0]  # the skyline without Jack's circle
    # Everyone ready: the treasures go back, the board goes under the stack.
    state.apply(0, READY)
    with pytest.raises(IllegalAction, match="seat 0 is ready already"):
        state.apply(0, READY)
    events = state.apply(1, READY)
    # (at 800 ms: seat 0's second drop waited for its hand)
    assert of_type(events, "round") == [{"round": 2, "at_ms": 800, "ends_ms": 30_800}]
    places = state.locations()
    assert len(places["pool"]) == 40 and places["board"] == []
    assert places["stack"][-1] == "jack-1" and places["stack"][0] == "jack-2"
    assert state.view(1)["boards_turned"] == ["jack-1"]


def test_big_pirates_turn_the_board_before_packing() -> None:
    state = new(big_pirates=True)
    view = state.view(1)
    assert view["board"]["id"] == "jack-1" and view["stack_size"] == 8
    assert "crown-purple" in view["board"]["claims"]
    drop(state, 0, "crown-purple", 0, 0)
    drop(state, 1, "crown-green", 0, 0)
    state.apply(0, CLOSE)
    (scored,) = of_type(state.apply(1, CLOSE), "scored")
    assert scored["counts"] == [0, 1] and scored["jack"] == [["crown-purple"], []]
    events = all_ready(state)
    assert of_type(events, "board")[0]["board"] == "jack-2"
    assert state.locations()["stack"][-1] == "jack-1"
    assert state.view(0)["board"]["id"] == "jack-2"


def test_little_pirates_start_the_hourglass_with_the_first_lid() -> None:
    state = new(3, little_pirates=True)
    assert state.view(0)["hourglass"]["ends_ms"] is None
    assert state.advance(100_000) == []  # no hourglass: nothing runs out
    drop(state, 1, "circle-red", 0, 0)
    events = state.apply(0, CLOSE)
    assert of_type(events, "hourglass") == [{"at_ms": 100_000, "ends_ms": 130_000}]
    assert state.to_act == (1, 2)
    state.advance(120_000)
    drop(state, 1, "circle-blue", 0, 1)  # the others still pack
    events = state.advance(130_000)
    assert [c["seat"] for c in of_type(events, "close")] == [1, 2]
    assert state.phase == SCORED
    # Next round: the hourglass waits again; if every lid closes first, counting is at once.
    all_ready(state)
    assert state.view(0)["hourglass"] == {
        "length_ms": 30_000,
        "started_ms": None,
        "ends_ms": None,
    }
    finish_round(state)
    assert state.phase == SCORED and state.round_no == 2


def test_the_top_counts_tie_and_each_takes_a_part_in_order() -> None:
    state = new(3)
    drop(state, 0, "circle-blue", 0, 0)
    drop(state, 1, "circle-green", 0, 0)
    (scored,) = of_type(finish_round(state), "scored")
    assert scored["best"] == [0, 1] and scored["parts"] == ["bow-1", "bow-2", None]
    all_ready(state)
    (scored,) = of_type(finish_round(state), "scored")  # nobody packed: all tie at 0
    assert scored["counts"] == [0, 0, 0]
    assert scored["parts"] == ["middle-a-1", "middle-a-2", "bow-3"]
    ships = [["bow-1", "middle-a-1"], ["bow-2", "middle-a-2"], ["bow-3"]]
    assert state.view(None)["ships"] == ships


def test_the_first_complete_ship_wins() -> None:
    state = new(2)
    for round_no in range(1, 5):
        assert state.phase == PACKING
        drop(state, 0, "circle-purple", 0, 0)  # no board of rounds 1-4 claims it
        events = finish_round(state)
        if round_no < 4:
            assert "game_over" not in kinds(events)
            all_ready(state)
    assert of_type(events, "game_over") == [{"scores": [4, 0], "winners": [0]}]
    assert state.phase == OVER and state.to_act == ()
    assert state.view(None)["ships"][0] == ["bow-1", "middle-a-1", "middle-b-1", "stern-1"]
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply(0, READY)
    assert state.advance(99_000) == [] and state.now_ms < 99_000  # the clock has stopped


def test_ships_completed_together_share_the_win() -> None:
    state = new(3)
    for _ in range(4):
        drop(state, 0, "circle-purple", 0, 0)  # no board of rounds 1-4 claims it
        drop(state, 2, "hexagon-blue", 0, 0)
        finish_round(state)
        if state.phase != OVER:
            all_ready(state)
    assert state.result() == {"scores": [4, 0, 4], "winners": [0, 2]}


def test_the_short_game_needs_three_parts() -> None:
    state = new(2, short_game=True)
    assert state.view(0)["ship_parts"] == ["bow", "middle-a", "stern"]
    assert state.locations()["box"] == [f"middle-b-{i}" for i in range(1, 5)]
    for _ in range(3):
        drop(state, 1, "circle-purple", 0, 0)
        finish_round(state)
        if state.phase != OVER:
            all_ready(state)
    assert state.result() == {"scores": [0, 3], "winners": [1]}


def test_refusals_say_why_and_change_nothing() -> None:
    state = new()
    before = snapshot(state)
    cases: list[tuple[dict[str, Any], str]] = [
        (READY, "still being packed"),
        ({"type": "drop", "treasure": "crown-red", "rotation": 0, "column": 4}, "0 to 3"),
    ]
    for action, reason in cases:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(0, action)
    for bad in (
        {"type": "drop", "treasure": "crown-pink", "rotation": 0, "column": 0},
        {"type": "drop", "treasure": "crown-red", "rotation": 4, "column": 0},
        {"type": "drop", "treasure": "crown-red", "rotation": 0, "column": -1},
        {"type": "drop", "treasure": "crown-red", "rotation": True, "column": 0},
        {"type": "drop", "treasure": "crown-red", "rotation": 0},
        {"type": "close", "now": 1},
        {"type": "jump"},
    ):
        with pytest.raises(MalformedAction):
            state.apply(0, bad)
    assert snapshot(state) == before


def test_stacked_boards_must_be_a_true_order() -> None:
    with pytest.raises(InvalidOption, match="exactly once"):
        SPEC.new(2, 0, {"boards": ["jack-1"] * 9})
    with pytest.raises(InvalidOption, match="no Jack-board 'jack-10'"):
        SPEC.new(2, 0, {"boards": ["jack-10"]})
    with pytest.raises(InvalidOption, match="list of Jack-board ids"):
        SPEC.new(2, 0, {"boards": "jack-1"})
    backwards = [f"jack-{i}" for i in range(9, 0, -1)]
    assert "boards" not in SPEC.new(2, 0, {"boards": backwards}).view(0)["options"]


def test_options_shape_the_chest_and_the_hourglass() -> None:
    state = SPEC.new(2, 1, {"width": 4, "depth": 3, "hourglass_seconds": 10})
    view = state.view(0)
    assert (view["width"], view["depth"]) == (4, 3)
    assert view["chests"][0]["heights"] == [0, 0, 0, 0]
    assert view["hourglass"] == {"length_ms": 10_000, "started_ms": 0, "ends_ms": 10_000}
    assert max(a.column for a in state.legal_actions(0) if a.type == "drop") == 3  # type: ignore[attr-defined]
    with pytest.raises(InvalidOption):
        SPEC.new(2, 1, {"width": 2})


def test_once_every_board_was_seen_the_stack_holds_no_secret() -> None:
    """Boards go back under the stack in order: after eight rounds a determinized state
    is the true one; before, only the never-turned boards are re-sampled."""
    state = seeded(4, 77)
    rng = Rng(5)
    for round_no in range(1, 11):
        samples = [SPEC.determinize(state.view(0), rng) for _ in range(4)]
        same = [s.locations() == state.locations() for s in samples]
        if round_no >= 9:  # eight boards seen: the ninth is known too
            assert all(same)
        elif round_no <= 7:
            assert not all(same)
        winner = round_no % 4
        claims = BOARD_CLAIMS[state.stack[0]]
        safe = next(t for t in ("circle-red", "circle-blue") if TREASURE_INDEX[t] not in claims)
        drop(state, winner, safe, 0, 0)
        finish_round(state)
        assert state.phase == SCORED
        all_ready(state)
    assert state.view(0)["boards_turned"][9] == state.view(0)["boards_turned"][0]


def test_event_words_name_the_seats_given_their_names() -> None:
    names = ["Ann", "Bo", "cy"]
    ready = Event("ready", {"seat": 1})
    assert SPEC.describe(ready, 0) == "Seat 1 is ready"
    assert SPEC.describe(ready, 0, names) == "Bo is ready"
    assert SPEC.describe(ready, 1, names) == "You are ready"
    scored = Event("scored", {"round": 1, "counts": [4, 3, 3], "parts": ["bow", None, None]})
    assert SPEC.describe(scored, 1) == (
        "Round 1 counted — seat 0 4, you 3, seat 2 3. seat 0 takes the bow"
    )
    assert SPEC.describe(scored, 1, names) == (
        "Round 1 counted — Ann 4, you 3, cy 3. Ann takes the bow"
    )
    over = Event("game_over", {"scores": [2, 4, 1], "winners": [1, 2]})
    assert SPEC.describe(over, None, names) == "A ship is complete! Winner: Bo and cy"


def test_a_round_where_nobody_counts_is_a_tie_of_everyone_at_0() -> None:
    """RULES.md: nobody counts a treasure (nothing packed, or all of it taken out at the
    lid or claimed by Jack): everyone ties at 0 and each takes a ship part."""
    state = new(3, depth=2)
    drop(state, 0, "circle-red", 0, 0)  # jack-1 claims it
    drop(state, 1, "pearls-green", 1, 0)  # on end, rows 0-2: above the rim of 2
    (scored,) = of_type(finish_round(state), "scored")  # seat 2 packed nothing
    assert scored["jack"] == [["circle-red"], [], []]
    assert scored["out"] == [[], ["pearls-green"], []]
    assert scored["counts"] == [0, 0, 0] and scored["best"] == [0, 1, 2]
    assert scored["parts"] == ["bow-1", "bow-2", "bow-3"]
    assert state.view(None)["ships"] == [["bow-1"], ["bow-2"], ["bow-3"]]


def test_treasures_taken_out_at_the_lid_stay_out_until_the_round_ends() -> None:
    """RULES.md: a treasure taken out when a lid closes does not go back to the pool for
    the others this round; when the round ends every treasure goes back to the middle."""
    state = new()
    drop(state, 0, "sword-blue", 1, 0)  # on end: rows 0-3
    drop(state, 0, "pearls-green", 1, 0)  # rows 4-6: above the rim
    (closed,) = of_type(state.apply(0, CLOSE), "close")
    assert closed["removed"] == ["pearls-green"]
    assert "pearls-green" not in state.view(1)["pool"]
    assert state.locations()["out0"] == ["pearls-green"]
    assert not any(getattr(a, "treasure", "") == "pearls-green" for a in state.legal_actions(1))
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="pearls-green is gone: seat 0 took it"):
        state.apply(1, {"type": "drop", "treasure": "pearls-green", "rotation": 0, "column": 0})
    assert snapshot(state) == before
    state.advance(10_000)
    assert "pearls-green" not in state.view(1)["pool"]  # still out later in the round
    state.apply(1, CLOSE)
    assert state.locations()["out0"] == ["pearls-green"]  # scored: still out
    all_ready(state)
    assert "pearls-green" in state.view(1)["pool"] and state.locations()["out0"] == []
    drop(state, 1, "pearls-green", 0, 0)


def test_a_drops_words_count_columns_and_rows_from_1_in_both_languages() -> None:
    """The panel beside the chest counts columns from 1; the log does too, and counts rows
    from 1 at the bottom, saying so (the event's data keeps the 0-based column and row)."""
    drop = Event(
        "drop", {"seat": 0, "treasure": "goldbar-red", "rotation": 1, "column": 0, "row": 2}
    )
    names = ["Ann", "Bo"]
    assert SPEC.describe(drop, 1, names) == (
        "Ann packed the red gold bar (turned 1, column 1, row 3 from the bottom)"
    )
    assert lang_de.describe(drop, 1, names) == (
        "Ann hat Goldbarren (rot) gepackt (Drehung 1, Spalte 1, Reihe 3 von unten)"
    )
    assert (drop.to_json()["column"], drop.to_json()["row"]) == (0, 2)
    floor = Event(
        "drop", {"seat": 1, "treasure": "crown-blue", "rotation": 0, "column": 3, "row": 0}
    )
    assert SPEC.describe(floor, 1, names) == (
        "You packed the blue crown (turned 0, column 4, row 1 from the bottom)"
    )
    assert lang_de.describe(floor, 1, names) == (
        "Du hast Krone (blau) gepackt (Drehung 0, Spalte 4, Reihe 1 von unten)"
    )


def test_event_words_name_treasures_in_words_not_ids() -> None:
    drop = Event(
        "drop", {"seat": 0, "treasure": "goldbar-red", "rotation": 1, "column": 2, "row": 0}
    )
    assert SPEC.describe(drop, 1) == (
        "Seat 0 packed the red gold bar (turned 1, column 3, row 1 from the bottom)"
    )
    close = Event("close", {"seat": 1, "at_ms": 12000, "removed": ["crown-blue", "circle-purple"]})
    assert SPEC.describe(close, 1) == (
        "You closed the lid at 12.0 s; taken out above the rim: blue crown, purple circle"
    )
    scored = Event("scored", {"round": 2, "counts": [1, 2], "parts": [None, "middle-a-3"]})
    assert SPEC.describe(scored, 0).endswith("seat 1 takes the middle A")
    assert SPEC.describe(scored, 1).endswith("you take the middle A")  # (not "you takes")
    assert lang_de.describe(scored, 0).endswith("Platz 1 nimmt das Mittelteil A")  # one source
    board = Event("board", {"board": "jack-1", "claims": ["sword-red", "pearls-green"]})
    assert SPEC.describe(board, None) == "Jack-board 1 is turned: it claims red sword, green pearls"
