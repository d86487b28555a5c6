"""`thievery replay FILE`: step through a saved game record, as one seat saw it. Seats go
by the record's names if it has them (records from `play --save` and the server do), shown
as the web's replay shows them: default names counted from 1 with the bot's level
("Seat 3 (Casual)"); ``--seat`` counts from 1 too."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.rule import Rule

from thievery.cli.app import app
from thievery.cli.common import fail, refuse
from thievery.cli.render import describe, lang_option, renderer, seat_labels, with_names
from thievery.cli.usage import ThieveryCommand
from thievery.core.errors import ComponentsChanged, ThieveryError
from thievery.core.i18n import Translator, listed, result_name, use_language
from thievery.core.protocol import CLOCK, JSON, State
from thievery.core.record import GameRecord
from thievery.core.registry import game as get_game

_ = Translator(__package__)


@app.command(cls=ThieveryCommand)
def replay(
    file: Path = typer.Argument(..., help="a game record (JSON) saved by play or the server"),
    seat: int | None = typer.Option(
        None,
        help="see the game as this seat, counted from 1 as the screens count them: 1 is "
        "Seat 1, the first (default: a spectator)",
    ),
    step: bool | None = typer.Option(
        None, "--step/--no-step", help="wait for Enter after each action (default: on a TTY)"
    ),
    everything: bool = typer.Option(
        False, "--everything", help="show every action and private event (the record has them)"
    ),
    lang: str = lang_option(),
) -> None:
    """Replay a game record action by action."""
    with use_language(lang):
        _replay(file, seat, step, everything)


def _replay(file: Path, number: int | None, step: bool | None, everything: bool) -> None:
    console = Console()
    try:
        record = GameRecord.load(file)
        spec = get_game(record.game)
        start = record.start()
    except ComponentsChanged as e:
        fail(components_words(e))
    except (ThieveryError, OSError) as e:
        refuse(e)
    if number is not None and not 1 <= number <= record.players:
        fail(_("--seat must be between 1 and {n}", n=record.players))
    seat = None if number is None else number - 1  # (the seat's index)
    interactive = sys.stdin.isatty() if step is None else step
    render = renderer(spec.name)
    state = start
    names = seat_labels(record.players, record.names)
    console.print(render.table(with_names(start.view(seat), names)))
    # Each action is described in the state it was taken in, as the menus described it to
    # its actor (in the actor's view: with --everything, another seat's action read in the
    # spectator's view could not be said, and Der Schattendieb's "done" crashed): the
    # state record.steps gives is the one after it, so before the next.
    actors = range(record.players) if everything else ()

    def views_of(state: State) -> dict[int | None, JSON]:
        return {seat: state.view(seat), **{s: state.view(s) for s in actors}}

    before = views_of(start)
    try:
        for i, (state, actor, action, events) in enumerate(record.steps(), 1):
            who = _("the clock") if actor == CLOCK else names[actor]
            console.print(Rule(f"{i}/{len(record.actions)}: {escape(who)}"))
            if everything or actor == seat:
                label = render.action(action, with_names(before.get(actor, before[seat]), names))
                actor_name = _("The clock") if actor == CLOCK else names[actor]
                console.print(f"{actor_name}: {label}", markup=False)
            for event in events:
                if everything or event.is_visible_to(seat):
                    console.print("  " + describe(spec, event, seat, names), markup=False)
            if interactive:
                console.print(render.table(with_names(state.view(seat), names)))
                if console.input(_("Enter: next, q: quit ")).strip().lower() == "q":
                    return
            before = views_of(state)
        console.print(render.table(with_names(state.view(seat), names)))
    except ThieveryError as e:
        refuse(e)
    except EOFError:
        return
    result = state.result()
    console.print(result_words(result, names), markup=False, soft_wrap=True)
    if record.result is not None and record.result != result:
        # (what the actions give is shown; a record that says otherwise was changed)
        fail(
            _(
                "The record says the result was {said}, but its actions give {result}: "
                "it was changed after the game (thievery verify checks a record)",
                said=record.result,
                result=result,
            )
        )


def components_words(error: ComponentsChanged) -> str:
    """Why a record played with other components than this install has is not replayed,
    each component named with both digests."""
    changes = "; ".join(
        _(
            "{name}: the record's {recorded}, this install's {current}",
            name=name,
            recorded=recorded,
            current=current or _("none"),
        )
        for name, recorded, current in error.changes
    )
    return _(
        "The record was played with other {title} components than this install has "
        "({changes}): replayed here it would not be the game played; replay it with the "
        "Thievery version that made it",
        title=error.title,
        changes=changes,
    )


def result_words(result: Any, names: list[str]) -> str:
    """A game's result as words: each seat's score and the winners (or that it is not over),
    the seats by ``names`` (as the replay shows them)."""
    if not isinstance(result, dict):
        return _("The game is not over: the record ends before its end.")
    seats = range(len(names))
    scores, won = result.get("scores", []), result.get("winners", [])
    if not (
        isinstance(scores, list)
        and len(scores) <= len(names)
        and isinstance(won, list)
        and all(isinstance(w, int) and not isinstance(w, bool) and w in seats for w in won)
    ):  # (a record's, edited: told as it is, not worded)
        return json.dumps(result, sort_keys=True)
    scores = ", ".join(
        f"{result_name(names[i])} {score}" for i, score in enumerate(result.get("scores", []))
    )
    winners = listed([result_name(names[w]) for w in result.get("winners", [])])
    return _("Result: {scores}; won by {winners}", scores=scores, winners=winners)
