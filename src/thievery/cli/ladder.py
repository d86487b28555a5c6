"""`thievery ladder GAME`: every bot level against the one below, written as Markdown."""

from __future__ import annotations

import shlex
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from thievery.cli.app import app
from thievery.cli.common import check_writable, load_game, parse_options, refuse
from thievery.cli.usage import ThieveryCommand
from thievery.core.errors import ThieveryError
from thievery.core.registry import plugin
from thievery.sim.ladder import LEVELS, climb, markdown


@app.command(cls=ThieveryCommand)
def ladder(
    game: str = typer.Argument(..., help="the game, e.g. schattendieb"),
    players: int = typer.Option(4, "--players", "-p"),
    games: int = typer.Option(200, "--games", "-n", help="games per rung"),
    seed: int = typer.Option(1),
    workers: int = typer.Option(2, help="local worker processes"),
    levels: str = typer.Option(",".join(LEVELS), help="comma-separated levels, lowest first"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option NAME=VALUE"),
    output: Path | None = typer.Option(None, "--out", help="write the Markdown report here"),
    duplicate: bool = typer.Option(
        False,
        "--duplicate",
        help="play every deal once with the level in each seat (GAMES a multiple of the "
        "players), with intervals over the deals",
    ),
) -> None:
    """Play the bot ladder of a game and report each rung with its 95% interval."""
    spec = load_game(game)
    names = [n.strip() for n in levels.split(",")]
    if output is not None:
        check_writable(output, "--out")
    rungs_total = (len(names) - 1) * games
    console = Console()
    try:
        with Progress(
            "{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task(f"{spec.title} ladder", total=rungs_total)
            # (a card file read once, here: every rung's games are of one set)
            recorded = plugin(spec.name).inline_options(parse_options(option))
            rungs = climb(
                spec.name,
                players,
                games,
                seed,
                names,
                workers,
                recorded,
                on_game=lambda _: progress.advance(task),
                duplicate=duplicate,
            )
    except ThieveryError as e:
        refuse(e)
    # (quoted as a shell reads it: an option's value may hold spaces, a card file's path)
    command = shlex.join(
        ["thievery", "ladder", game, "--players", str(players), "--games", str(games)]
        + ["--seed", str(seed), "--levels", ",".join(names)]
        + [part for o in option for part in ("-o", o)]
        + (["--duplicate"] if duplicate else [])
    )
    text = markdown(spec.name, spec.title, rungs, seed, command, recorded)
    console.print(text)
    if output is not None:
        output.write_text(text)
