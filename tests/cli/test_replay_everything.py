"""``thievery replay --everything``: every seat's action, said as its actor chose it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from thievery.cli import app

runner = CliRunner()


@pytest.mark.parametrize("game", ["schattendieb", "thieves", "thieves-den"])
def test_replay_everything_says_each_action_as_its_actor_chose_it(
    game: str, tmp_path: Path
) -> None:
    """``replay --everything`` described every seat's action in the spectator's view: a
    Der Schattendieb record crashed on the first "done" (TypeError: the spectator has no
    jewellery kind to add). Each action now reads as its actor's menu said it."""
    record = tmp_path / "game.json"
    args = ["play", game, "--humans", "0", "--seed", "5", "-p", "3", "--save", str(record)]
    assert runner.invoke(app, args).exit_code == 0
    result = runner.invoke(app, ["replay", str(record), "--no-step", "--everything"])
    assert result.exit_code == 0, result.output
    assert "Result:" in result.output, result.output
    if game == "schattendieb":
        said = re.findall(
            r"^Seat \d \(Casual\): (Nothing to add \(you hold no \w+\)|Done adding)$",
            result.output,
            re.M,
        )
        assert said, result.output
