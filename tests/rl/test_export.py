"""``thievery simulate ... --export FILE.parquet``: every decision of every game, replayed
exactly as the run played it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tests.rl.helpers import GAMES, PLAYERS
from thievery.cli import app
from thievery.core.protocol import content_digest
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
        # Pairwise: the i-th index is the i-th legal action's (they were sorted apart).
        legal = [json.loads(a) for a in r["legal"]]
        assert [codec.to_json(i) for i in r["legal_indices"]] == legal
        assert codec.to_json(r["action_index"]) == json.loads(r["action"])
        view = json.loads(r["view"])
        assert view["seat"] == r["seat"]
        assert layout.encode(view, r["seat"]).shape == (layout.size,)
        assert (r["now_ms"] is not None) == (game == "schatz-rabatz")


def test_a_card_file_is_read_once_for_the_games_the_summary_and_the_export(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI recorded the card set read in, but played every game and the export from
    the file's path: a file edited during the run gave games (and rows) of another set.
    The export names its game and options in its metadata, so its rows decode alone."""
    from thievery.games.thieves_den.cards import DEFAULT_PATH, inline_card_set
    from thievery.sim import runner

    path = tmp_path / "mine.toml"
    text = DEFAULT_PATH.read_text()
    path.write_text(text)
    edited = re.sub(r"prestige = (\d+)", lambda m: f"prestige = {int(m[1]) % 7 + 1}", text)
    assert edited != text
    play = runner.run_job
    played = [0]

    def edit_after_the_first(job: object, history: bool = False) -> object:
        played[0] += 1  # (the file changes mid-run)
        if played[0] == 2:
            path.write_text(edited)
        return play(job, history)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "run_job", edit_after_the_first)
    out, summary = tmp_path / "d.parquet", tmp_path / "s.json"
    result = CliRunner().invoke(
        app,
        [
            "simulate", "thieves-den", "--games", "4", "--bots", "heuristic,random,random",
            "--seed", "3", "--cards", str(path), "--export", str(out), "--json", str(summary),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert played[0] == 4
    recorded = json.loads(summary.read_text())["options"]
    path.write_text(text)
    assert recorded == {"cards": inline_card_set(path, source=str(path))}
    # Every game as played is the recorded set's: replayed from the summary's options.
    again = list(simulate("thieves-den", ["heuristic", "random", "random"], 4, 3, recorded))
    stored = json.loads(summary.read_text())
    assert stored["standings"]
    table = pq.read_table(out)
    rows = table.to_pylist()
    for o in again:
        mine = [r for r in rows if r["game_index"] == o.index]
        assert len(mine) == o.decisions
        assert all(tuple(r["scores"]) == o.scores for r in mine)
    meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
    assert meta["thievery.game"] == "thieves-den"
    assert json.loads(meta["thievery.options"]) == recorded
    # The set played, by its digest (the file was edited after the run began: not its).
    played_set = {"cards": content_digest(recorded["cards"])}
    assert json.loads(meta["thievery.components"]) == stored["components"] == played_set
    codec, _ = spaces("thieves-den", 3, json.loads(meta["thievery.options"]))
    assert all(codec.to_json(r["action_index"]) == json.loads(r["action"]) for r in rows)


@pytest.mark.parametrize("game", GAMES)
def test_a_runs_outcomes_with_their_actions_export_without_playing_the_bots_again(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The export played every game again with its bots (a run's cost again, on one core,
    with search bots): a run's outcomes now carry their actions, and the rows are the
    same without a bot made."""
    from thievery.rl import export

    n = PLAYERS[game]
    bots = ["heuristic"] + ["random"] * (n - 1)
    outcomes = list(simulate(game, bots, 2, seed=5, history=True))
    assert all(o.history for o in outcomes)
    by_bots, by_history = tmp_path / "bots.parquet", tmp_path / "history.parquet"
    export_parquet(by_bots, game, [(o.index, o.seating, o.seed) for o in outcomes])

    def no_bot(*args: object) -> object:
        raise AssertionError("a bot was made for an export of kept actions")

    monkeypatch.setattr(export, "make_bot", no_bot)
    export_parquet(by_history, game, outcomes)
    assert pq.read_table(by_history).to_pylist() == pq.read_table(by_bots).to_pylist()
    assert all(o.history is None for o in simulate(game, bots, 2, seed=5))  # (if asked)


# The columns a row takes from the game's end: the learner's labels, by design.
RESULT_COLUMNS = {"scores", "winners", "reward"}


@pytest.mark.parametrize("game", GAMES)
def test_a_row_holds_only_what_its_seat_may_know(game: str, tmp_path: Path) -> None:
    """Non-interference: every column of a decision's row but the game's result is the
    same for any state the deciding seat cannot tell from the true one. The true state at
    each decision is rebuilt here from the game's record; everything the seat cannot see
    is re-sampled (the game's determinizer) and the row made of the sample must match the
    exported one, while the samples do differ in what the seat cannot see."""
    from thievery.core.protocol import CLOCK
    from thievery.core.registry import plugin
    from thievery.core.rng import Rng

    n = PLAYERS[game]
    spec = plugin(game).spec
    outcomes = list(simulate(game, ["heuristic"] + ["random"] * (n - 1), 1, 9, history=True))
    path = tmp_path / "d.parquet"
    export_parquet(path, game, outcomes)
    exported = pq.read_table(path).to_pylist()
    codec, _ = spaces(game, n)

    def as_row(state: Any, seat: int) -> dict[str, Any]:
        legal = state.legal_actions(seat)
        return {
            "view": json.dumps(state.view(seat), separators=(",", ":")),
            "legal": [json.dumps(a.to_json(), separators=(",", ":")) for a in legal],
            "legal_indices": [codec.index[a] for a in legal],
            "now_ms": getattr(state, "now_ms", None) if game == "schatz-rabatz" else None,
        }

    def unseen(state: Any, seat: int) -> str:  # the others' views, where every card lies
        others = [state.view(s) for s in range(n) if s != seat]
        return json.dumps([others, state.locations()], sort_keys=True, default=str)

    state = spec.new(n, outcomes[0].seed)
    decisions: list[tuple[int, Any]] = []
    assert outcomes[0].history is not None
    checked = differed = 0
    for seat, action in outcomes[0].history:
        if seat == CLOCK:
            state.apply(seat, action)
            continue
        row = exported[len(decisions)]
        assert row["seat"] == seat
        if len(decisions) % 3 == 0:
            hidden = unseen(state, seat)
            for k in range(2):
                sample = spec.determinize(state.view(seat), Rng(len(decisions) * 2 + k))
                mine = {c: v for c, v in row.items() if c in as_row(sample, seat)}
                assert as_row(sample, seat) == mine, (game, len(decisions))
                differed += unseen(sample, seat) != hidden
                checked += 1
        assert set(row) - RESULT_COLUMNS - set(as_row(state, seat)) == {
            "game", "game_index", "players", "decision", "seat", "bot", "action", "action_index"
        }  # fmt: skip
        decisions.append((seat, action))
        state.apply(seat, action)
    assert len(decisions) == len(exported) and checked > 5
    assert differed > 0, f"{game}: the samples never differed in what the seat cannot see"
