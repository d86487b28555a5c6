"""A balance report says which components its games had, not only the rules version.

Thieves Den's default card set changed in balance passes with no new rules version, so
a report's ``version`` did not pin its cards. Reports (``summary.json``, the page, the
``--json`` summary, the console) and exports record ``components`` beside the version:
per data set that can change without a version, a short digest of the content played
(the default set's or the one ``--cards`` gave). The other games' data (Der
Schattendieb's and Schatz-Rabatz's ``components.toml``, Thieves!'s deck) likewise.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import thievery
from tests.games.thieves_den.helpers import write_custom_set
from thievery.cli import app
from thievery.core.protocol import DIGEST_CHARS, content_digest
from thievery.games.thieves_den.cards import DEFAULT_PATH, card_set_content, inline_card_set
from thievery.sim import report
from thievery.sim.report import summarise, write_report
from thievery.sim.runner import GameOutcome

DEN = thievery.game("thieves-den")


def test_every_game_names_the_data_it_plays_with_by_short_digests() -> None:
    for name in thievery.game_names():
        digests = thievery.game(name).component_digests()
        assert digests, name  # (each of the four has data that could change)
        for digest in digests.values():
            assert len(digest) == DIGEST_CHARS and int(digest, 16) >= 0
    assert set(DEN.component_digests()) == {"cards"}


def test_the_card_sets_digest_is_its_content_however_it_is_given(tmp_path: Path) -> None:
    """The default set, the same file by its path and its content inline: one digest.
    Comments and layout are not content; any card's change is."""
    default = DEN.component_digests()["cards"]
    assert DEN.component_digests({"cards": None}) == {"cards": default}
    assert DEN.component_digests({"cards": str(DEFAULT_PATH)}) == {"cards": default}
    assert DEN.component_digests({"cards": inline_card_set(DEFAULT_PATH)}) == {"cards": default}
    reflowed = tmp_path / "same.toml"
    reflowed.write_text("# the same set, another comment\n\n" + DEFAULT_PATH.read_text())
    assert DEN.component_digests({"cards": str(reflowed)}) == {"cards": default}
    custom = write_custom_set(tmp_path)
    assert DEN.component_digests({"cards": str(custom)})["cards"] != default


def test_the_digest_changes_when_any_one_card_changes() -> None:
    content = card_set_content()
    base = content_digest(content)
    assert DEN.component_digests()["cards"] == base
    seen = {base}
    for kind in ("locations", "fences", "schemes", "powers"):
        for field in ("prestige", "copies", "two_player_copies", "name"):
            card = next((c for c in content[kind] if field in c), None)
            if card is None:
                continue
            changed = json.loads(json.dumps(content))
            one = next(c for c in changed[kind] if c["id"] == card["id"])
            one[field] = one[field] + 1 if isinstance(one[field], int) else one[field] + "!"
            digest = DEN.component_digests({"cards": changed})["cards"]
            assert digest not in seen, (kind, field)
            seen.add(digest)
    assert len(seen) >= 9  # (the default and 8 changes, each another digest)


def test_the_digests_are_the_same_in_another_process() -> None:
    """Nothing of one run in them (no hash seed, no object ids, no paths)."""
    code = (
        "import json, thievery; print(json.dumps({g: thievery.game(g).component_digests() "
        "for g in thievery.game_names()}))"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed, "PYTHONPATH": str(Path(thievery.__file__).parents[1])},
        ).stdout
        for seed in ("1", "2")
    ]
    mine = {g: thievery.game(g).component_digests() for g in thievery.game_names()}
    assert json.loads(runs[0]) == json.loads(runs[1]) == mine


@pytest.mark.parametrize(
    ("module", "name", "key"),
    [
        ("thievery.games.schattendieb.spec", "CLOSE_VALUES", "components"),
        ("thievery.games.schatz_rabatz.spec", "JACK_BOARDS", "components"),
        ("thievery.games.thieves.spec", "KIND", "deck"),
    ],
)
def test_the_other_games_digests_follow_their_data(
    module: str, name: str, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Der Schattendieb's and Schatz-Rabatz's components.toml (read when the game is
    loaded) and Thieves!'s deck: a changed entry, another digest."""
    spec_module = sys.modules[module]
    game = {"schattendieb": "schattendieb", "schatz_rabatz": "schatz-rabatz"}.get(
        module.split(".")[2], "thieves"
    )
    before = thievery.game(game).component_digests()[key]
    data: Any = getattr(spec_module, name)
    changed = list(data)
    changed[0], changed[-1] = changed[-1], changed[0]  # (the order is part of the deal)
    monkeypatch.setattr(spec_module, name, type(data)(changed))
    assert thievery.game(game).component_digests()[key] != before


def test_the_summary_and_the_page_name_the_card_set_beside_the_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(report, "_png", lambda fig: "")
    outcomes = [GameOutcome(i, i, ("a", "b"), (9.0, 1.0), (0,), 30) for i in range(3)]
    default = DEN.component_digests()["cards"]
    summary = summarise("thieves-den", outcomes, 0, ["a", "b"])
    assert summary["version"] == DEN.version and summary["components"] == {"cards": default}
    custom = inline_card_set(write_custom_set(tmp_path))
    other = summarise("thieves-den", outcomes, 0, ["a", "b"], options={"cards": custom})
    assert other["components"] == {"cards": content_digest(custom)} != summary["components"]
    for made, digest in ((summary, default), (other, content_digest(custom))):
        folder = tmp_path / digest
        page = write_report(made, folder).read_text()
        assert f"Rules version {DEN.version}; cards {digest}." in page
        assert f"(rules version {DEN.version}; cards {digest})" in page
        stored = json.loads((folder / "summary.json").read_text())
        assert stored["components"] == {"cards": digest}


def test_simulate_records_the_card_set_in_its_json_report_and_output(tmp_path: Path) -> None:
    """With the default set and with a card file: each run's own digest, everywhere."""
    custom = write_custom_set(tmp_path)
    default = DEN.component_digests()["cards"]
    mine = DEN.component_digests({"cards": str(custom)})["cards"]
    assert mine != default
    for cards, digest in (([], default), (["--cards", str(custom)], mine)):
        out, rep = tmp_path / f"{digest}.json", tmp_path / f"rep-{digest}"
        args = ["simulate", "thieves-den", "--games", "2", "--bots", "heuristic,random"]
        args += ["--seed", "5", *cards, "--json", str(out), "--report", str(rep)]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        assert f"Rules version {DEN.version}; cards {digest}." in result.output
        summary = json.loads(out.read_text())
        assert summary["version"] == DEN.version
        assert summary["components"] == {"cards": digest}
        assert json.loads((rep / "summary.json").read_text())["components"] == {"cards": digest}
        assert f"cards {digest}" in (rep / "index.html").read_text()
