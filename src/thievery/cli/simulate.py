"""`thievery simulate GAME`: many games between bots, with win rates and 95% intervals."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from thievery.cli.app import app
from thievery.cli.common import (
    check_folder_writable,
    check_writable,
    fail,
    load_game,
    parse_options,
    refuse,
)
from thievery.cli.usage import ThieveryCommand
from thievery.core.errors import ThieveryError
from thievery.core.registry import plugin
from thievery.sim import GameOutcome, simulate, standings
from thievery.sim.report import components_words


@app.command("simulate", cls=ThieveryCommand)
def simulate_cmd(
    game: str = typer.Argument(..., help="the game, e.g. schattendieb"),
    games: int = typer.Option(100, "--games", "-n", help="how many games"),
    bots: str = typer.Option(
        ..., help="comma-separated bot per seat, e.g. heuristic,random,random"
    ),
    seed: int = typer.Option(0, help="seed of the run; game i gets a derived seed"),
    workers: int = typer.Option(1, min=1, help="local worker processes"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option NAME=VALUE"),
    cards: Path | None = typer.Option(
        None, "--cards", help="a card set file, for games with one (Thieves Den)"
    ),
    output: Path | None = typer.Option(None, "--json", help="write the summary as JSON here"),
    ray: str | None = typer.Option(
        None, "--ray", help="run on a Ray cluster: an address, or 'local' to start one"
    ),
    report: Path | None = typer.Option(
        None, "--report", help="write an HTML report with plots and summary.json here"
    ),
    duplicate: bool = typer.Option(
        False,
        "--duplicate",
        help="play every deal once per seat rotation (GAMES a multiple of the seats), "
        "with intervals over the deals; the design effect says whether that paid off",
    ),
    export: Path | None = typer.Option(
        None,
        "--export",
        help="write every decision (seat, view, legal actions, action, result) to this "
        "Parquet file, for offline learning (needs thievery\\[rl]; schema: docs/rl.md)",
    ),
    export_seeds: bool = typer.Option(
        False,
        "--export-seeds",
        help="also write each game's seed (it rebuilds every hidden card: to reproduce "
        "games, never as a learner's input)",
    ),
) -> None:
    """Play GAMES games between bots (seats rotate each game) and report win rates.

    Game i has a seed derived from --seed and i (with --duplicate, from i // seats); the
    report lists every game's seed and seating, so any game can be replayed."""
    spec = load_game(game)
    names = [b.strip() for b in bots.split(",")]
    if games < 1:
        fail("--games must be at least 1")
    for path, name in ((output, "--json"), (export, "--export")):
        if path is not None:
            check_writable(path, name)
    if report is not None:
        check_folder_writable(report, "--report")
    if export is not None:
        try:  # (before the games, not after them)
            import pyarrow  # type: ignore[import-untyped, unused-ignore]  # noqa: F401
        except ImportError as e:
            fail(f"--export needs the extra thievery[rl] (pip install 'thievery[rl]'): {e}")
    console = Console()
    outcomes: list[GameOutcome] = []
    try:
        options = parse_options(option, cards)
        # What the summaries record: every option, a card file's content inline, so that
        # each game can be played again from its seed, seating and these.
        # The games are played from these too (a card file read once, here: edited
        # during the run, or absent on a cluster's machines, it changes nothing).
        recorded = plugin(spec.name).inline_options(options)
        if ray is not None:
            from thievery.sim.ray_runner import simulate_ray

            runs = simulate_ray(
                spec.name,
                names,
                games,
                seed,
                recorded,
                address=ray,
                duplicate=duplicate,
                history=export is not None,
            )
        else:
            runs = simulate(
                spec.name,
                names,
                games,
                seed,
                recorded,
                workers,
                duplicate,
                history=export is not None,  # (the export replays them, bots not asked)
            )
        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task(f"{spec.title}", total=games)
            for outcome in runs:
                outcomes.append(outcome)
                progress.advance(task)
    except ThieveryError as e:
        refuse(e)
    # The command that plays these games again (workers and Ray change no game).
    command = shlex.join(
        ["thievery", "simulate", spec.name, "--games", str(games), "--bots", ",".join(names)]
        + ["--seed", str(seed)]
        + [part for o in option for part in ("-o", o)]
        + (["--cards", str(cards)] if cards is not None else [])
        + (["--duplicate"] if duplicate else [])
    )
    rows = standings(sorted(outcomes, key=lambda o: o.index), duplicate)
    table = Table(title=f"{spec.title}: {games} games, {len(names)} players, seed {seed}")
    columns = ["bot", "seats played", "wins", "win rate", "95% CI", "mean score"]
    for col in columns + (["design effect"] if duplicate else []):
        table.add_column(col, justify="right" if col != "bot" else "left")
    for r in rows:
        effect = (
            [] if not duplicate else ["—" if r.design_effect is None else f"{r.design_effect:.2f}"]
        )
        table.add_row(
            r.bot,
            str(r.games),
            f"{r.wins:g}",
            f"{r.win_rate:.1%}",
            f"{r.low:.1%} – {r.high:.1%}",
            f"{r.mean_score:.1f}",
            *effect,
        )
    console.print(table)
    mean_len = sum(o.decisions for o in outcomes) / len(outcomes)
    # Which data the games had beside the rules version (a card set changes without one).
    components = spec.component_digests(recorded)
    console.print(
        f"Rules version {spec.version}"
        + (f"; {components_words(components)}" if components else "")
        + "."
    )
    console.print(
        f"Equal share would be {1 / len(names):.1%}. Mean decisions per game: "
        f"{mean_len:.0f}. Ties share the win."
        + (
            " Duplicate deals: 95% intervals are t intervals over the deals; the design "
            "effect is their variance against independent games' (below 1: a gain)."
            if duplicate
            else ""
        )
    )
    if output is not None:
        output.write_text(
            json.dumps(
                {
                    "game": spec.name,
                    "version": spec.version,
                    "components": components,
                    "command": command,
                    "games": games,
                    "seed": seed,
                    "bots": names,
                    "options": recorded,
                    "duplicate": duplicate,
                    "standings": [r.__dict__ for r in rows],
                },
                indent=1,
            )
        )
    if export is not None:
        try:
            from thievery.rl.export import export_parquet
        except ImportError as e:
            fail(f"--export needs the extra thievery[rl] (pip install 'thievery[rl]'): {e}")
        done = sorted(outcomes, key=lambda o: o.index)
        count = export_parquet(export, spec.name, done, recorded, seeds=export_seeds)
        console.print(f"Exported {count} decisions of {len(done)} games to {export}")
    if report is not None:
        from thievery.sim.report import summarise, write_report

        summary = summarise(spec.name, outcomes, seed, names, duplicate, recorded, command)
        console.print(f"Report: {write_report(summary, report)}")
