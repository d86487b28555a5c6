"""bench/server_load.py still runs both workloads end to end: a real `thievery serve` on a
free loopback port, its scripted seats playing over websockets (a few tables, seconds)."""

from __future__ import annotations

import json
import math
import platform
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.conftest import fresh_postgres

BENCH = Path(__file__).resolve().parents[2] / "bench" / "server_load.py"


def run_bench(*args: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, str(BENCH), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize(
    ("workload", "game"),
    [("bgio", "schattendieb"), ("bgio", "facedown"), ("think", "schattendieb")],
)
def test_the_load_benchmark_plays_and_measures(workload: str, game: str) -> None:
    """Both workloads; the bgio one also with boardgame.io's own game (bench/facedown,
    installed for the run into a folder of its own)."""
    args = ["--workload", workload, "--tables", "3", "--seconds", "2", "--warmup", "1"]
    args += ["--think-ms", "100", "--humans", "2"] if workload == "think" else ["--game", game]
    result = run_bench(*args)
    assert result["workload"] == workload and result["game"] == game
    assert result["errors"] == {}
    assert isinstance(result["actions_per_s"], float) and result["actions_per_s"] > 5
    # the scripted seats' own actions were acknowledged, and timed
    assert isinstance(result["scripted_actions_per_s"], float)
    assert result["scripted_actions_per_s"] > 1
    p50, p99 = result["p50_ms"], result["p99_ms"]
    assert isinstance(p50, float) and isinstance(p99, float)
    assert math.isfinite(p99) and 0 < p50 <= p99
    assert isinstance(result["clients_cpu_percent"], float)
    assert isinstance(result["server_cpu_ms_per_action"], float)
    # the server ran on this interpreter (the default of --server-python), named with it
    assert result["server_python"] == f"{platform.python_version()} ({sys.executable})"
    if workload == "bgio":
        # finished tables were replaced, and memory was read after setup
        replaced = result["tables_finished_and_replaced"]
        assert isinstance(replaced, int) and replaced > 0
        assert result["memory_per_table_kb_setup"] is not None
    else:  # one process: every live table its own, the warm-up's among them
        assert result["live_tables"] == 3 and result["live_tables_by_process"] == [4]


def test_the_load_benchmark_spreads_tables_over_two_workers() -> None:
    """With ``--workers 2`` each table is made over a connection of its own, as many
    hosts would make them, and the workers share them (one kept-alive connection gave
    every table to one worker)."""
    url = fresh_postgres()
    args = ["--tables", "40", "--seconds", "1", "--warmup", "1", "--think-ms", "100"]
    result = run_bench(*args, "--humans", "1", "--db", url, "--workers", "2")
    assert result["workers"] == 2 and result["errors"] == {} and result["live_tables"] == 40
    spread = result["live_tables_by_process"]
    assert isinstance(spread, list) and len(spread) == 2 and sum(spread) == 41
    # 40 tables, each to either worker at even odds (and the warm-up's): each worker has 8
    # or more but for a chance of 1 in 20,000.
    assert min(spread) >= 8, spread


def test_the_load_benchmark_refuses_a_game_for_the_think_workload() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--workload", "think", "--game", "facedown"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "--game is for --workload bgio" in done.stderr


def test_the_table_path_benchmark_measures_actions() -> None:
    """bench/table_path.py: tables acting in this process, no sockets (a few actions)."""
    script = BENCH.with_name("table_path.py")
    args = ["--game", "schattendieb", "--tables", "3", "--actions", "60", "--repeat", "2"]
    out = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["bench"] == "table_path" and result["game"] == "schattendieb"
    assert len(result["runs"]) == 2 and all(0 < r < 1e6 for r in result["runs"])
    median = statistics.median(result["runs"])  # (of the runs, each rounded to 0.1)
    assert result["us_per_action"] == pytest.approx(median, abs=0.15)
