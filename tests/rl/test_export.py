"""``thievery simulate ... --export FILE.parquet``: every decision of every game, replayed
exactly as the run played it."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tests.rl.helpers import GAMES, PLAYERS
from thievery.cli import app
from thievery.rl.export import ALL_COLUMNS, COLUMNS, SEED_COLUMN, export_parquet
from thievery.rl.match import spaces
from thievery.sim import simulate


def test_the_cli_exports_every_decision_of_the_run(tmp_path: Path) -> None:
    out = tmp_path / "decisions.parquet"
    summary = tmp_path / "summary.json"
    result = CliRunner().invoke(
        app,
        [
            "simulate", "thieves", "--games", "6", "--bots", "heuristic,random,random",
            "--seed", "2", "--export", str(out), "--json", str(summary),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    table = pq.read_table(out)
    assert tuple(table.column_names) == COLUMNS
    rows = table.to_pylist()
    assert sorted({r["game_index"] for r in rows}) == list(range(6))
    assert f"Exported {len(rows)} decisions of 6 games" in result.output.replace("\n", " ")


def test_the_seeds_are_exported_only_when_asked_for(tmp_path: Path) -> None:
    """A seed rebuilds every hidden card, so by default no row carries it."""
    quiet, loud = tmp_path / "quiet.parquet", tmp_path / "loud.parquet"
    base = ["simulate", "thieves", "--games", "2", "--bots", "random,random,random"]
    assert CliRunner().invoke(app, [*base, "--export", str(quiet)]).exit_code == 0
    assert SEED_COLUMN not in pq.read_table(quiet).column_names
    result = CliRunner().invoke(app, [*base, "--export", str(loud), "--export-seeds"])
    assert result.exit_code == 0, result.output
    table = pq.read_table(loud)
    assert tuple(table.column_names) == ALL_COLUMNS
    assert len(set(table.column(SEED_COLUMN).to_pylist())) == 2


@pytest.mark.parametrize("game", GAMES)
def test_rows_replay_the_simulated_games(game: str, tmp_path: Path) -> None:
    n = PLAYERS[game]
    bots = ["heuristic"] + ["random"] * (n - 1)
    outcomes = list(simulate(game, bots, 2, seed=5))
    path = tmp_path / "d.parquet"
    count = export_parquet(path, game, [(o.index, o.seating, o.seed) for o in outcomes])
    rows = pq.read_table(path).to_pylist()
    assert len(rows) == count == sum(o.decisions for o in outcomes)
    codec, layout = spaces(game, n)
    for o in outcomes:
        mine = [r for r in rows if r["game_index"] == o.index]
        assert [r["decision"] for r in mine] == list(range(len(mine)))
        assert all(tuple(r["winners"]) == o.winners for r in mine)
        assert all(r["bot"] == o.seating[r["seat"]] for r in mine)
    for r in rows[:: max(1, len(rows) // 25)]:
        assert r["action_index"] in r["legal_indices"]
        assert codec.to_json(r["action_index"]) == json.loads(r["action"])
        view = json.loads(r["view"])
        assert view["seat"] == r["seat"]
        assert layout.encode(view, r["seat"]).shape == (layout.size,)
        assert (r["now_ms"] is not None) == (game == "schatz-rabatz")
