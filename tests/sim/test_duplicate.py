"""Duplicate runs: every deal played once per seat rotation, intervals over the deals."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from thievery.cli import app
from thievery.core.errors import InvalidOption
from thievery.sim.report import summarise
from thievery.sim.runner import (
    GameOutcome,
    block_interval,
    derive_seed,
    jobs,
    standings,
    t_quantile,
    wilson,
)

runner = CliRunner()


def test_a_duplicate_run_plays_each_seed_once_per_rotation() -> None:
    bots = ["heuristic", "random", "random"]
    work = jobs("thieves", bots, 9, seed=5, duplicate=True)
    for block in range(3):
        games = work[3 * block : 3 * block + 3]
        assert {g[2] for g in games} == {derive_seed(5, block)}
        assert [g[1].index("heuristic") for g in games] == [0, 2, 1]
        assert [g[4] for g in games] == [3 * block, 3 * block + 1, 3 * block + 2]
    plain = jobs("thieves", bots, 9, seed=5)
    assert len({g[2] for g in plain}) == 9
    assert [g[1] for g in plain] == [g[1] for g in work]


def test_a_duplicate_run_needs_whole_blocks() -> None:
    with pytest.raises(InvalidOption, match="multiple of 3"):
        jobs("thieves", ["heuristic", "random", "random"], 10, seed=1, duplicate=True)
    result = runner.invoke(
        app,
        ["simulate", "thieves", "--games", "10", "--bots", "heuristic,random,random",
         "--duplicate"],
    )  # fmt: skip
    assert result.exit_code == 2 and "multiple of 3" in result.output


def test_t_quantile_matches_the_table() -> None:
    # Student's t, 97.5% quantiles (standard tables).
    for df, exact in [(5, 2.5706), (10, 2.2281), (30, 2.0423), (120, 1.9799)]:
        assert t_quantile(df) == pytest.approx(exact, rel=3e-3)


def test_block_interval_is_a_t_interval_over_the_blocks() -> None:
    values = [0.0, 1 / 3, 2 / 3, 1 / 3, 1 / 3, 0.0, 1.0, 1 / 3, 2 / 3, 1 / 3]
    mean = sum(values) / 10
    sd = (sum((v - mean) ** 2 for v in values) / 9) ** 0.5
    low, high = block_interval(values)
    assert low == pytest.approx(mean - 2.2622 * sd / 10**0.5, abs=1e-3)
    assert high == pytest.approx(mean + 2.2622 * sd / 10**0.5, abs=1e-3)
    assert block_interval([0.25] * 7) == (0.25, 0.25)
    assert block_interval([0.5]) == (0.0, 1.0)  # one block says nothing of the spread


def _outcome(
    index: int, seed: int, seating: tuple[str, ...], winners: tuple[int, ...]
) -> GameOutcome:
    scores = tuple(1.0 if s in winners else 0.0 for s in range(len(seating)))
    return GameOutcome(index, seed, seating, scores, winners, 10)


def _rotations(bots: list[str]) -> list[tuple[str, ...]]:
    return [tuple(bots[r:] + bots[:r]) for r in range(len(bots))]


def test_standings_take_the_interval_over_deals_grouped_by_seed() -> None:
    # 30 deals; in each, "up" wins exactly one of its three games (whichever seat).
    # Over the deals its win rate never moves from 1/3: the block interval is a point,
    # where Wilson (which takes the 90 games as independent) is about 19 points wide.
    outcomes = []
    rng = random.Random(1)
    for deal in range(30):
        lucky = rng.randrange(3)  # the game of the block "up" wins
        for r, seating in enumerate(_rotations(["up", "down", "down"])):
            seat_up = seating.index("up")
            winner = seat_up if r == lucky else (seat_up + 1) % 3
            outcomes.append(_outcome(3 * deal + r, 1000 + deal, seating, (winner,)))
    rng.shuffle(outcomes)  # Ray hands outcomes back in any order
    dup = {s.bot: s for s in standings(outcomes, duplicate=True)}["up"]
    plain = {s.bot: s for s in standings(outcomes)}["up"]
    assert dup.win_rate == pytest.approx(1 / 3) and plain.win_rate == pytest.approx(1 / 3)
    assert (dup.low, dup.high) == pytest.approx((1 / 3, 1 / 3))
    assert (plain.low, plain.high) == pytest.approx(wilson(30, 90))
    assert plain.high - plain.low > 0.18
    assert dup.design_effect == pytest.approx(0.0) and plain.design_effect is None


def test_the_design_effect_compares_deals_with_independent_games() -> None:
    # "up" wins half its 72 games either way. Deals that always split 1-2 or 2-1 vary
    # less than three independent games would (effect about 1/3); deals won or lost
    # whole vary three times as much (about 3). Per game: variance 18/71 (72 games).
    def run(pattern: list[list[int]]) -> float | None:
        outcomes = []
        for deal, games in enumerate(pattern):
            for r, seating in enumerate(_rotations(["up", "down", "down"])):
                seat_up = seating.index("up")
                winner = seat_up if games[r] else (seat_up + 1) % 3
                outcomes.append(_outcome(3 * deal + r, deal, seating, (winner,)))
        return {s.bot: s for s in standings(outcomes, duplicate=True)}["up"].design_effect

    mixed = [[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1]] * 4
    whole = [[1, 1, 1], [0, 0, 0]] * 12
    per_game = 18 / 71
    assert run(mixed) == pytest.approx((24 * (1 / 6) ** 2 / 23) / (per_game / 3))
    assert run(whole) == pytest.approx((24 * (1 / 2) ** 2 / 23) / (per_game / 3))
    assert run(whole) == pytest.approx(71 / 23)


def test_a_duplicate_report_takes_seat_intervals_over_deals() -> None:
    # Seat 0 wins every game of even deals and none of odd ones: per deal 1 or 0.
    outcomes = []
    for deal in range(20):
        for r, seating in enumerate(_rotations(["a", "b", "b"])):
            winner = 0 if deal % 2 == 0 else 1
            outcomes.append(_outcome(3 * deal + r, 50 + deal, seating, (winner,)))
    summary = summarise("thieves", outcomes, 0, ["a", "b", "b"], duplicate=True)
    seat0 = summary["by_seat"][0]
    assert seat0["win_rate"] == pytest.approx(0.5)
    assert (seat0["low"], seat0["high"]) == pytest.approx(block_interval([1.0, 0.0] * 10))
    assert summary["duplicate"] is True and "blocks" in summary["interval"]
    # "a" wins 1/3 of each even deal's games and 1/3 of each odd deal's: a point.
    a = {r["bot"]: r for r in summary["by_bot"]}["a"]
    assert (a["low"], a["high"]) == pytest.approx((1 / 3, 1 / 3))


def test_simulate_and_ladder_play_duplicate_runs(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["simulate", "schattendieb", "--games", "9", "--bots", "heuristic,random,random",
         "--seed", "3", "--duplicate", "--report", str(tmp_path / "rep")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Duplicate deals" in result.output
    summary = json.loads((tmp_path / "rep" / "summary.json").read_text())
    seeds = [o["seed"] for o in summary["outcomes"]]
    assert seeds == [derive_seed(3, b) for b in range(3) for _ in range(3)]
    assert all(isinstance(r["design_effect"], float) for r in summary["by_bot"])
    assert (
        "every deal is played once per seat rotation"
        in (tmp_path / "rep" / "index.html").read_text()
    )
    # Any game of the report replays from its seed and seating.
    from thievery.sim import play_game

    last = summary["outcomes"][-1]
    assert list(play_game("schattendieb", last["seating"], last["seed"]).scores) == last["scores"]

    out = tmp_path / "ladder.md"
    result = runner.invoke(
        app,
        ["ladder", "schattendieb", "--players", "3", "--games", "6", "--levels",
         "random,heuristic", "--workers", "1", "--duplicate", "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "t interval over the deals" in text and "| heuristic | random | 6 |" in text
    assert "--levels random,heuristic --duplicate" in text


def test_a_duplicate_run_on_a_local_ray_instance_matches_a_local_run(tmp_path: Path) -> None:
    args = ["simulate", "schattendieb", "--games", "6", "--bots", "heuristic,random,random",
            "--seed", "2", "--duplicate"]  # fmt: skip
    local, on_ray = tmp_path / "local.json", tmp_path / "ray.json"
    assert runner.invoke(app, [*args, "--json", str(local)]).exit_code == 0
    result = runner.invoke(app, [*args, "--ray", "local", "--json", str(on_ray)])
    assert result.exit_code == 0, result.output
    assert json.loads(local.read_text()) == json.loads(on_ray.read_text())
