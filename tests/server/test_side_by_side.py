"""bench/side_by_side.py's rounds and summary, with both servers' runs replaced by
recorded figures (the real runs need boardgame.io's harness and minutes: bench/, not CI)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "side_by_side.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("side_by_side", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ours_run(actions_per_s: float) -> dict[str, Any]:
    return {
        "actions_per_s": actions_per_s,
        "p50_ms": 5.0,
        "p99_ms": 10.0,
        "server_cpu_percent": 99.0,
        "server_cpu_ms_per_action": 0.2,
        "clients_cpu_percent": 55.0,
        "memory_per_table_kb_setup": 30.0,
        "memory_per_table_kb": 28.0,
        "errors": {},
    }


def theirs_run(moves_per_s: float) -> dict[str, Any]:
    return {
        "moves_per_s": moves_per_s,
        "latency_self_ms": {"p50": 12.0, "p99": 30.0},
        "server": {"cpu_pct_of_one_core_in_window": 98.0},
        "client_proc": {"cpu_pct_of_one_core_in_window": 56.0},
        "kb_per_live_match_rss": 45.0,
        "kb_per_live_match_heap": 54.0,
        "errors_total": 0,
    }


@pytest.fixture
def harness(tmp_path: Path) -> Path:
    folder = tmp_path / "bgio"
    (folder / "node_modules").mkdir(parents=True)
    (folder / "bench.js").write_text("// stands in for boardgame.io's harness\n")
    (folder / "package-lock.json").write_text("{}\n")
    return folder


def test_a_harness_without_its_packages_is_installed_in_a_copy(
    harness: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = load()
    assert bench.prepared(harness, tmp_path / "unused") == harness  # ready: used as it is
    (harness / "node_modules").rmdir()
    ran: list[tuple[list[str], Path]] = []

    def run(command: list[str], cwd: Path, **kwargs: Any) -> None:
        ran.append((command, cwd))
        (cwd / "node_modules").mkdir()

    monkeypatch.setattr(bench.subprocess, "run", run)
    (tmp_path / "work").mkdir()
    copy = bench.prepared(harness, tmp_path / "work")
    assert copy != harness and (copy / "bench.js").read_text() == (harness / "bench.js").read_text()
    assert ran == [(["npm", "ci", "--no-audit", "--no-fund"], copy)]
    assert not (harness / "node_modules").exists()  # the team's folder is left as it was


def test_rounds_alternate_their_order_and_each_ratio_is_its_rounds(
    harness: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load()
    calls: list[str] = []
    speeds = iter([1000.0, 2000.0, 1500.0, 1000.0, 3000.0, 2400.0, 900.0, 1800.0, 1200.0])

    def theirs(bgio: Path, matches: int, seconds: float) -> dict[str, Any]:
        calls.append("bgio")
        return theirs_run(next(speeds))

    def ours(tables: int, seconds: float, python: str, *extra: str) -> dict[str, Any]:
        assert python == sys.executable  # (by default, this interpreter's server)
        calls.append(extra[extra.index("--game") + 1])
        return ours_run(next(speeds))

    monkeypatch.setattr(bench, "theirs", theirs)
    monkeypatch.setattr(bench, "ours", ours)
    argv = ["side_by_side.py", "--bgio", str(harness), "--pairs", "3", "--think-runs", "0"]
    monkeypatch.setattr(sys, "argv", [*argv, "--games", "facedown,schattendieb"])
    bench.main()
    captured = capsys.readouterr()
    result = json.loads(captured.out.strip().splitlines()[-1])

    first, second = ["bgio", "facedown", "schattendieb"], ["schattendieb", "facedown", "bgio"]
    assert calls == first + second + first
    # Round 1: bgio 1000, facedown 2000, schattendieb 1500. Round 2 (reversed):
    # schattendieb 1000, facedown 3000, bgio 2400. Round 3: bgio 900, facedown 1800, ...
    assert result["games"]["facedown"]["ratio"]["runs"] == [2.0, 1.25, 2.0]
    assert result["games"]["facedown"]["ratio"]["median"] == 2.0
    assert result["games"]["schattendieb"]["ratio"]["runs"] == [1.5, round(1000 / 2400, 3), 1.333]
    assert result["boardgame.io"]["moves_per_s"]["runs"] == [1000.0, 2400.0, 900.0]
    assert "think" not in result  # --think-runs 0: no think runs, and no summary of none
    assert "boardgame.io 2400.0 moves/s; schattendieb 0.42x, facedown 1.25x" in captured.err


def test_the_think_runs_are_summarised(
    harness: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load()
    think_p99 = iter([3.0, 2.0, 4.0])
    pythons: set[str] = set()

    def ours(tables: int, seconds: float, python: str, *extra: str) -> dict[str, Any]:
        pythons.add(python)
        if "--think-ms" in extra:
            assert tables == 500
            return {**ours_run(850.0), "p99_ms": next(think_p99)}
        return ours_run(2000.0)

    monkeypatch.setattr(bench, "theirs", lambda *a: theirs_run(1000.0))
    monkeypatch.setattr(bench, "ours", ours)
    argv = ["side_by_side.py", "--bgio", str(harness), "--pairs", "1", "--games", "facedown"]
    monkeypatch.setattr(sys, "argv", [*argv, "--server-python", "/opt/fast/bin/python"])
    bench.main()
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["think"]["p99_ms"] == {"median": 3.0, "runs": [3.0, 2.0, 4.0]}
    # every run of ours (bgio and think workloads) on the interpreter asked for
    assert pythons == {"/opt/fast/bin/python"} and result["server_python"] == pythons.pop()
    assert result["games"]["facedown"]["ratio"]["median"] == 2.0
