"""A smoke run of the learning example (examples/rl/learn_dqn.py): a few hundred steps of
OpenSpiel's DQN on Thieves!, its evaluation and its JSON line."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).parents[2] / "examples" / "rl" / "learn_dqn.py"


def test_the_learning_example_runs_a_few_hundred_steps(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = importlib.util.spec_from_file_location("learn_dqn", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    plot = tmp_path / "curve.png"
    args = ["--episodes", "30", "--eval-every", "15", "--eval-games", "3"]
    args += ["--final-games", "3", "--plot", str(plot)]
    monkeypatch.setattr(sys, "argv", ["learn_dqn.py", *args])
    module.main()
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [c["episode"] for c in out["curve"]] == [0, 15, 30]
    for key in ("vs_random", "vs_heuristic"):  # (intervals of 3 games stay within 0..1)
        assert 0.0 <= out[key]["low"] <= out[key]["share"] <= out[key]["high"] <= 1.0
    assert module.interval([1.0, 1.0, 1.0])["high"] == 1.0
    assert module.interval([0.0, 0.0, 0.0])["high"] > 0.0  # (none won: not a 0-0 interval)
    assert plot.stat().st_size > 1000
