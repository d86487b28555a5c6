"""`thievery verify RECORD`: check a finished server table's record: that its deal (seed)
is the one the table committed to when it was made, that it was played with the
components this install has (its ``components``), and that the actions replay to the
record's result."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from thievery.cli.app import app
from thievery.cli.common import fail
from thievery.cli.render import seat_labels
from thievery.cli.replay_cmd import result_words
from thievery.cli.usage import ThieveryCommand
from thievery.core.errors import ComponentsChanged, ThieveryError
from thievery.core.record import GameRecord, replay


@app.command(cls=ThieveryCommand)
def verify(
    file: Path = typer.Argument(..., help="a finished table's record (JSON)"),
    commitment: str | None = typer.Option(
        None, help="the commitment the table showed when it was made (to compare with)"
    ),
) -> None:
    """Verify a record: the deal matches its commitment and the game replays exactly."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        fail(f"{file}: {e}")
    try:
        record = GameRecord.from_json(data)  # refuses a commitment its seed and salt miss
    except ThieveryError as e:
        typer.secho(f"NOT VERIFIED: {e}", fg=typer.colors.RED, err=True)
        raise typer.Exit(1) from None
    problems: list[str] = []
    computed = record.commitment
    if computed is None:
        problems.append(
            "the record holds no salt, so its deal cannot be checked (a server table's record "
            "has one; a game played with thievery play has none)"
        )
    else:
        typer.echo(f"deal commitment   {computed}")
        if commitment is not None and commitment.strip().lower() != computed:
            problems.append(
                f"the table showed {commitment}, but the record's deal and setup give {computed}"
            )
    # What the record says the table was (the commitment of a table made since
    # 2026-12-05 covers these too; compare them with the table all the same).
    # (as replay shows them: seats counted from 1, a bot seat by its level)
    labels = seat_labels(record.players, record.names)
    typer.echo(
        f"table             {record.game}, rules version {record.version}, "
        f"{record.players} players" + (f": {', '.join(labels)}" if record.names else "")
    )
    shown = json.dumps(record.options, sort_keys=True)
    typer.echo(f"options           {shown if len(shown) <= 200 else shown[:197] + '...'}")
    if record.scenario:
        typer.echo("scenario table    the creator chose this deal (shown to every seat)")
    if record.components is None:
        typer.echo("components        not named (a record made before records named them)")
    else:
        named = ", ".join(f"{name} {digest}" for name, digest in record.components.items())
        typer.echo(f"components        {named or 'none'}")
    try:
        state = replay(record, check=False)  # (its result compared below, told so)
    except ComponentsChanged as e:  # (replayed with other cards: another game, not this)
        problems.append(str(e))
    except ThieveryError as e:
        problems.append(f"the actions do not replay: {e}")
    else:
        result = state.result()
        # (the result in words, its seats as above: "Result: Seat 1 2, Seat 2 12, …")
        words = result_words(result, labels)
        typer.echo(f"replay            {len(record.actions)} actions. {words}")
        if result != record.result:  # (a closed table's: no result, and none replayed)
            said = "no result" if record.result is None else result_words(record.result, labels)
            if said == words:  # (a difference words do not show: told as JSON)
                words = json.dumps(result, sort_keys=True)
                said = json.dumps(record.result, sort_keys=True)
            problems.append(f"the replay ends so ({words}), but the record says: {said}")
    if problems:
        for problem in problems:
            typer.secho(f"NOT VERIFIED: {problem}", fg=typer.colors.RED, err=True)
        raise typer.Exit(1)
    if commitment is None:
        # The salt is in the file: alone, it shows only that the file agrees with itself.
        typer.secho(
            "consistent: the record agrees with its own commitment and replays to its "
            "result. To verify the deal, compare the commitment with the one the table "
            "showed when it was made: --commitment HEX",
            fg=typer.colors.YELLOW,
        )
        return
    typer.secho("verified", fg=typer.colors.GREEN)
