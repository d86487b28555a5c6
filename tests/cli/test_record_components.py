"""`thievery play --save` names the components a game was played with, and `thievery
replay` and `thievery verify` refuse a record played with other components than this
install has (naming the component and both digests), in English and German."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import thievery
from thievery.cli import app

runner = CliRunner()
OLD_RECORD = Path(__file__).parent.parent / "records" / "thieves-den.json"
OTHER = "0123456789ab"


def saved_game(tmp_path: Path) -> tuple[Path, str]:
    """A Thieves Den game on the default cards played by bots and saved; its file and the
    default set's digest."""
    record = tmp_path / "game.json"
    args = ["play", "thieves-den", "-p", "3", "--humans", "0", "--seed", "4", "--save"]
    result = runner.invoke(app, [*args, str(record)])
    assert result.exit_code == 0, result.output
    return record, thievery.game("thieves-den").component_digests({})["cards"]


def test_play_saves_the_components_and_replay_and_verify_take_the_same_ones(
    tmp_path: Path,
) -> None:
    record, cards = saved_game(tmp_path)
    assert json.loads(record.read_text())["components"] == {"cards": cards}
    replayed = runner.invoke(app, ["replay", str(record), "--no-step"])
    assert replayed.exit_code == 0, replayed.output
    verified = runner.invoke(app, ["verify", str(record)])
    assert f"components        cards {cards}" in verified.output
    # (a game played with thievery play has no salt: not verified for that, and only that)
    assert verified.exit_code == 1 and "holds no salt" in verified.output
    assert "components than this install has" not in verified.output


def test_replay_refuses_a_record_of_other_components_naming_them(tmp_path: Path) -> None:
    record, cards = saved_game(tmp_path)
    data = json.loads(record.read_text())
    record.write_text(json.dumps({**data, "components": {"cards": OTHER}}))
    refused = runner.invoke(app, ["replay", str(record), "--no-step", "--lang", "en"])
    assert refused.exit_code == 2
    words = " ".join(refused.output.split())
    assert "The record was played with other Thieves Den components than this install has" in words
    assert f"(cards: the record's {OTHER}, this install's {cards})" in words
    assert "replay it with the Thievery version that made it" in words
    assert "Result" not in words and "1/" not in words  # nothing was replayed
    german = runner.invoke(app, ["replay", str(record), "--no-step", "--lang", "de"])
    assert german.exit_code == 2
    words = " ".join(german.output.split())
    assert "mit anderem Spielmaterial von Thieves Den gespielt" in words
    assert f"(cards: im Spielprotokoll {OTHER}, hier {cards})" in words


def test_verify_refuses_a_record_of_other_components_naming_them(tmp_path: Path) -> None:
    record, cards = saved_game(tmp_path)
    data = json.loads(record.read_text())
    record.write_text(json.dumps({**data, "components": {"cards": OTHER}}))
    refused = runner.invoke(app, ["verify", str(record)])
    assert refused.exit_code == 1
    words = " ".join(refused.output.split())
    assert f"components cards {OTHER}" in words
    assert (
        "NOT VERIFIED: the record was played with other Thieves Den components than this "
        f"install has (cards: the record's {OTHER}, this install's {cards})"
    ) in words
    assert "the actions do not replay" not in words
    assert "replay            " not in refused.output  # (not replayed with other cards)


def test_a_record_without_components_replays_and_verify_says_they_are_not_named() -> None:
    assert "components" not in json.loads(OLD_RECORD.read_text())
    replayed = runner.invoke(app, ["replay", str(OLD_RECORD), "--no-step"])
    assert replayed.exit_code == 0, replayed.output
    verified = runner.invoke(app, ["verify", str(OLD_RECORD)])
    assert "components        not named" in verified.output
    assert "replay            " in verified.output  # (replayed all the same)
