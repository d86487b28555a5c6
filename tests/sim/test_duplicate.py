"""Duplicate runs: every deal played once per seat rotation, intervals over the deals."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from thievery.cli import app
from thievery.core.errors import InvalidOption
from thievery.sim.ray_runner import simulate_ray
from thievery.sim.report import summarise, write_report
from thievery.sim.runner import (
    GameOutcome,
    block_interval,
    derive_seed,
    jobs,
    simulate,
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
    result = runner.invoke(
        app,
        ["ladder", "thieves", "--players", "3", "--games", "10", "--levels",
         "random,heuristic", "--duplicate"],
    )  # fmt: skip
    assert result.exit_code == 2 and "multiple of 3" in result.output


def test_t_quantile_matches_the_table() -> None:
    # Student's t, 97.5% quantiles (standard tables).
    for df, exact in [(1, 12.706), (2, 4.303), (3, 3.182), (4, 2.776), (5, 2.5706)]:
        assert t_quantile(df) == pytest.approx(exact, rel=3e-3)
    for df, exact in [(9, 2.2622), (10, 2.2281), (30, 2.0423), (120, 1.9799)]:
        assert t_quantile(df) == pytest.approx(exact, rel=3e-3)


def test_block_interval_is_a_t_interval_over_the_blocks() -> None:
    values = [0.0, 1 / 3, 2 / 3, 1 / 3, 1 / 3, 0.0, 1.0, 1 / 3, 2 / 3, 1 / 3]
    mean = sum(values) / 10
    sd = (sum((v - mean) ** 2 for v in values) / 9) ** 0.5
    low, high = block_interval(values)
    assert low == pytest.approx(mean - 2.2622 * sd / 10**0.5, abs=1e-3)
    assert high == pytest.approx(mean + 2.2622 * sd / 10**0.5, abs=1e-3)
    # Too few blocks give no interval; blocks that all agree fall back to Wilson with each
    # block as one game (they show no spread only for being few), never to a point.
    assert block_interval(values[:9]) == (0.0, 1.0)
    assert block_interval([0.5]) == (0.0, 1.0)
    assert block_interval([0.25] * 12) == pytest.approx(wilson(3, 12))


def _outcome(
    index: int, seed: int, seating: tuple[str, ...], winners: tuple[int, ...]
) -> GameOutcome:
    scores = tuple(1.0 if s in winners else 0.0 for s in range(len(seating)))
    return GameOutcome(index, seed, seating, scores, winners, 10)


def _rotations(bots: list[str]) -> list[tuple[str, ...]]:
    return [tuple(bots[r:] + bots[:r]) for r in range(len(bots))]


def test_standings_take_the_interval_over_deals_grouped_by_seed() -> None:
    # 30 deals; "up" wins one of its three games in 26 of them (whichever seat), none
    # in 2 and two in 2. Over the deals its win rate hardly moves from 1/3: the interval
    # over deals is about 9 points wide, where Wilson's (which takes the 90 games as
    # independent) is about 19.
    outcomes = []
    rng = random.Random(1)
    wins_in_deal = [1] * 26 + [0, 0, 2, 2]
    for deal, wins in enumerate(wins_in_deal):
        lucky = set(rng.sample(range(3), wins))  # the games of the deal "up" wins
        for r, seating in enumerate(_rotations(["up", "down", "down"])):
            seat_up = seating.index("up")
            winner = seat_up if r in lucky else (seat_up + 1) % 3
            outcomes.append(_outcome(3 * deal + r, 1000 + deal, seating, (winner,)))
    rng.shuffle(outcomes)  # Ray hands outcomes back in any order
    dup = {s.bot: s for s in standings(outcomes, duplicate=True)}["up"]
    plain = {s.bot: s for s in standings(outcomes)}["up"]
    assert dup.win_rate == pytest.approx(1 / 3) and plain.win_rate == pytest.approx(1 / 3)
    half = t_quantile(29) * (4 * (1 / 3) ** 2 / 29) ** 0.5 / 30**0.5
    assert (dup.low, dup.high) == pytest.approx((1 / 3 - half, 1 / 3 + half))
    assert (plain.low, plain.high) == pytest.approx(wilson(30, 90))
    assert dup.high - dup.low < 0.1 and plain.high - plain.low > 0.18
    # Deals' variance 4 (1/3)^2 / 29 against a game's, 20/89 (30 wins of 90), over 3.
    assert dup.design_effect == pytest.approx((4 / 9 / 29) / (20 / 89 / 3))
    assert plain.design_effect is None


def test_the_design_effect_compares_deals_with_independent_games() -> None:
    # "up" wins half its 72 games either way. Deals that always split 1-2 or 2-1 vary
    # less than three independent games would (effect about 1/3); deals won or lost
    # whole vary three times as much (about 3). Per game: variance 18/71 (72 games).
    def run(pattern: list[list[int]], bot: str = "up") -> float | None:
        outcomes = []
        for deal, games in enumerate(pattern):
            for r, seating in enumerate(_rotations(["up", "down", "down"])):
                seat_up = seating.index("up")
                winner = seat_up if games[r] else (seat_up + 1) % 3
                outcomes.append(_outcome(3 * deal + r, deal, seating, (winner,)))
        return {s.bot: s for s in standings(outcomes, duplicate=True)}[bot].design_effect

    mixed = [[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1]] * 4
    whole = [[1, 1, 1], [0, 0, 0]] * 12
    per_game = 18 / 71
    assert run(mixed) == pytest.approx((24 * (1 / 6) ** 2 / 23) / (per_game / 3))
    assert run(whole) == pytest.approx((24 * (1 / 2) ** 2 / 23) / (per_game / 3))
    assert run(whole) == pytest.approx(71 / 23)
    # "down" holds two seats a game and wins whatever "up" does not: the same information,
    # so the same effect (the game, not the seat, is the unit).
    assert run(mixed, "down") == pytest.approx(run(mixed))
    assert run(whole, "down") == pytest.approx(run(whole))


def test_a_duplicate_report_takes_seat_intervals_over_deals(tmp_path: Path) -> None:
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
    # "a" wins 1/3 of every deal's games: no spread, so Wilson with a deal as a game.
    a = {r["bot"]: r for r in summary["by_bot"]}["a"]
    assert (a["low"], a["high"]) == pytest.approx(wilson(20 / 3, 20))
    page = write_report(summary, tmp_path / "rep").read_text()
    assert "<th>design effect</th>" in page and "every deal is played once" in page


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
    # One game a Ray task: the outcomes come back in any order, the run is the same.
    bots = ["heuristic", "random", "random"]
    mine = list(simulate("schattendieb", bots, 30, 4, None, 1, duplicate=True))
    theirs = list(simulate_ray("schattendieb", bots, 30, 4, None, batch=1, duplicate=True))
    assert sorted(theirs, key=lambda o: o.index) == mine
    assert standings(theirs, duplicate=True) == standings(mine, duplicate=True)
