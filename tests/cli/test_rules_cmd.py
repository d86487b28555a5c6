"""`thievery rules GAME` shows the rules page shipped in the game's package."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import thievery
from thievery.cli import app

runner = CliRunner()


@pytest.mark.parametrize("name", ["schattendieb", "schatz-rabatz", "thieves", "thieves-den"])
def test_rules_prints_the_games_own_page(name: str) -> None:
    result = runner.invoke(app, ["rules", name, "--raw"])
    assert result.exit_code == 0, result.output
    assert result.output == thievery.plugin(name).rules_text()
    assert result.output.startswith(f"# {thievery.game(name).title}: rules decisions")


def test_rules_renders_markdown_and_refuses_an_unknown_game() -> None:
    shown = runner.invoke(app, ["rules", "thieves"])
    assert shown.exit_code == 0 and "raid_ties" in shown.output and "# " not in shown.output
    unknown = runner.invoke(app, ["rules", "chess"])
    assert unknown.exit_code == 2 and "there is no game 'chess'" in unknown.output


def test_an_unknown_games_rules_are_refused_in_german_with_lang_de() -> None:
    unknown = runner.invoke(app, ["rules", "chess", "--lang", "de"])
    assert unknown.exit_code == 2 and "Fehler: Dieses Spiel gibt es nicht" in unknown.output
    assert "error:" not in unknown.output
