"""bench/server_load.py still runs both workloads end to end: a real `thievery serve` on a
free loopback port, its scripted seats playing over websockets (a few tables, seconds)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.parametrize("workload", ["bgio", "think"])
def test_the_load_benchmark_plays_and_measures(workload: str) -> None:
    extra = ["--think-ms", "100", "--humans", "2"] if workload == "think" else []
    result = run_bench(
        "--workload", workload, "--tables", "3", "--seconds", "2", "--warmup", "1", *extra
    )
    assert result["workload"] == workload
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
    if workload == "bgio":
        # finished tables were replaced, and memory was read after setup
        assert isinstance(result["tables_finished_and_replaced"], int)
        assert result["memory_per_table_kb_setup"] is not None
