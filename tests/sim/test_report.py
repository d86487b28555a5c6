"""The simulation report's page counts seats from 1, as every screen does, and says so;
its ``summary.json`` keeps the records' 0-based seat indices."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from thievery.core.registry import game as get_game
from thievery.sim import report
from thievery.sim.report import summarise, write_report
from thievery.sim.runner import GameOutcome


def test_the_report_page_counts_seats_from_1_and_its_data_from_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Three games of three seats: seat index 0 wins two, seat index 2 one.
    outcomes = [
        GameOutcome(i, 10 + i, ("a", "b", "c"), (5.0, 1.0, w), (0,) if w < 5 else (2,), 30)
        for i, w in enumerate((2.0, 3.0, 9.0))
    ]
    summary = summarise("thieves", outcomes, 0, ["a", "b", "c"])
    axes: list[tuple[str, list[str]]] = []

    def png(fig: Any) -> str:
        ax = fig.axes[0]
        fig.canvas.draw()  # (tick labels are set when drawn)
        axes.append((ax.get_xlabel(), [t.get_text() for t in ax.get_xticklabels()]))
        return ""

    monkeypatch.setattr(report, "_png", png)
    page = write_report(summary, tmp_path / "rep").read_text()
    assert ("seat (counted from 1)", ["1", "2", "3"]) in axes  # were "seat": 0, 1, 2
    assert "Seats are counted from 1: seat 1 is the first seat of each game's seating" in page
    assert "seat 1's advantage +33.3%" in page  # (2 wins of 3, an equal share 1 of 3)
    data = json.loads((tmp_path / "rep" / "summary.json").read_text())
    assert [s["seat"] for s in data["by_seat"]] == [0, 1, 2]  # the data formats keep 0
    assert [o["winners"] for o in data["outcomes"]] == [[0], [0], [2]]


def test_wilson_holds_its_rate_and_reaches_0_and_1_exactly() -> None:
    """At all or no wins the floating-point bounds missed 1 (0.9999999999999999) and 0 by
    an ulp: the report's error bars came out negative and matplotlib refused the plot."""
    from thievery.sim.runner import wilson

    for n in range(1, 2001):
        for wins in (0, n, n / 2, 1, n - 1):
            low, high = wilson(wins, n)
            assert 0.0 <= low <= wins / n <= high <= 1.0, (wins, n)
        assert wilson(n, n)[1] == 1.0 and wilson(0, n)[0] == 0.0
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)


def test_a_report_of_a_bot_that_won_every_game_is_drawn(tmp_path: Path) -> None:
    """matplotlib refused the bars (negative by an ulp); the report was left half written."""
    outcomes = [GameOutcome(i, i, ("a", "b", "c"), (9.0, 1.0, 1.0), (0,), 30) for i in range(6)]
    summary = summarise("thieves", outcomes, 0, ["a", "b", "c"])
    page = write_report(summary, tmp_path / "rep")
    assert page.exists() and (tmp_path / "rep" / "summary.json").exists()
    assert "data:image/png;base64," in page.read_text()


def test_a_report_that_fails_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(summary: object) -> list[tuple[str, str]]:
        raise ValueError("no plots")

    monkeypatch.setattr(report, "_plots", broken)
    outcomes = [GameOutcome(0, 0, ("a", "b", "c"), (9.0, 1.0, 1.0), (0,), 30)]
    with pytest.raises(ValueError, match="no plots"):
        write_report(summarise("thieves", outcomes, 0, ["a", "b", "c"]), tmp_path / "rep")
    assert not (tmp_path / "rep").exists()


def test_the_first_players_advantage_is_the_first_movers_not_seat_1s() -> None:
    """Thieves! and Thieves Den draw the first player from the deal, so seat 1's advantage
    said nothing of going first: the report also counts the seat that moved first."""
    from thievery.sim.runner import simulate

    outcomes = list(simulate("thieves", ["random"] * 3, 30, seed=4))
    firsts = {o.first for o in outcomes}
    assert len(firsts) > 1  # (drawn from the deal: not always seat index 0)
    summary = summarise("thieves", outcomes, 4, ["random"] * 3)
    first = summary["first_player"]
    wins = sum(1 / len(o.winners) for o in outcomes if o.first in o.winners)
    assert first["games"] == 30 and first["wins"] == pytest.approx(wins)
    assert first["advantage"] == pytest.approx(wins / 30 - 1 / 3)
    assert first["low"] <= first["win_rate"] <= first["high"]
    assert [o["first"] for o in summary["outcomes"]] == [o.first for o in outcomes]
    spec = get_game("thieves")
    for o in outcomes:  # the seat that made the game's first decision
        assert o.first == spec.new(3, o.seed).to_act[0]


def test_thieves_dens_first_player_is_the_direction_tiles_holder() -> None:
    """Everyone picks at once in Scouting (seat index 0 listed first): the first player is
    the one the deal gives the Direction tile, who starts the thieving."""
    from thievery.sim.runner import simulate

    outcomes = list(simulate("thieves-den", ["random"] * 3, 12, seed=2))
    spec = get_game("thieves-den")
    holders = [spec.new(3, o.seed).holder for o in outcomes]  # type: ignore[attr-defined]
    assert [o.first for o in outcomes] == holders
    assert len(set(holders)) > 1  # (drawn from the deal: not always seat index 0)


@pytest.mark.parametrize("game", ["schattendieb", "schatz-rabatz"])
def test_a_game_whose_seats_all_decide_first_at_once_has_no_first_player(
    game: str, tmp_path: Path
) -> None:
    """Der Schattendieb's seats all lay a sealed card at once, Schatz-Rabatz's all pack
    at once on the clock: the seat recorded first was the list's order (always seat index
    0) or the bots' reflexes (never the slower heuristic, so "the first player" never won
    and the report read -33%), not a first player. The report says there is none."""
    from thievery.sim.runner import simulate

    bots = ["heuristic", "random", "random"]
    outcomes = list(simulate(game, bots, 6, seed=5))
    assert all(len(get_game(game).new(3, o.seed).to_act) == 3 for o in outcomes)
    assert [o.first for o in outcomes] == [None] * 6
    summary = summarise(game, outcomes, 5, bots)
    assert summary["first_player"]["games"] == 0
    assert summary["first_player"]["win_rate"] is None
    assert summary["first_player"]["advantage"] is None
    assert [o["first"] for o in summary["outcomes"]] == [None] * 6
    page = write_report(summary, tmp_path / "rep").read_text()
    assert "no first player" in page and "first player's advantage" not in page


def test_shared_wins_add_up_exactly() -> None:
    """69 three-way ties give each bot 23 wins, not 22.999999999999993 (thirds summed
    as floats drifted, and the JSON showed it)."""
    from thievery.sim.runner import GameOutcome, standings

    seating = ("a", "b", "c")
    ties = [GameOutcome(i, i, seating, (1.0, 1.0, 1.0), (0, 1, 2), 10) for i in range(69)]
    rows = standings(ties)
    assert sorted(s.wins for s in rows) == [23, 23, 23]
    assert all(s.win_rate == 1 / 3 for s in rows)
