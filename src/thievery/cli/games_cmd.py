"""`thievery games`: list the games with their players, options and bots; `thievery rules
GAME`: the game's rules decisions (its rules page, from its own package)."""

import json

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

import thievery
from thievery.bots import bot_names
from thievery.cli.app import app
from thievery.cli.common import fail, refuse
from thievery.cli.render import lang_option
from thievery.cli.usage import ThieveryCommand
from thievery.core.errors import ThieveryError
from thievery.core.i18n import Translator, use_language

_ = Translator(__package__)


@app.command("games", cls=ThieveryCommand)
def list_games(lang: str = lang_option()) -> None:
    """List every game, its player range, options and bots."""
    with use_language(lang):
        _list_games()


def _list_games() -> None:
    table = Table(title=_("Thievery games"))
    for col in ("name", "title", "players", "options", "bots"):
        table.add_column(_(col))
    broken: list[str] = []
    for name in thievery.game_names():
        try:
            spec = thievery.game(name)
        except ThieveryError as e:  # one broken plug-in does not hide the others
            broken.append(str(e))
            continue
        # (each default as -o NAME=VALUE takes it: true, false, null, numbers, words)
        opts = ", ".join(f"{o['name']}={typed(o['default'])}" for o in spec.info()["options"])
        table.add_row(
            name,
            spec.title,
            f"{spec.min_players}-{spec.max_players}",
            opts,
            ", ".join(bot_names(name)),
        )
    console = Console()
    console.print(table)
    for problem in broken:
        console.print(f"[red]{_('not loaded:')}[/] {escape(problem)}")


def typed(value: object) -> str:
    """An option's value as ``-o NAME=VALUE`` reads it back (as JSON, a word as itself)."""
    return value if isinstance(value, str) else json.dumps(value)


@app.command("rules", cls=ThieveryCommand)
def rules(
    game: str = typer.Argument(..., help="the game's name (see `thievery games`)"),
    raw: bool = typer.Option(False, "--raw", help="print the Markdown as it is"),
    lang: str = lang_option(),
) -> None:
    """Show a game's rules decisions: what Thievery does where the rulebook is silent
    (in German with --lang de where the game has a German page)."""
    with use_language(lang):  # (a refusal in the language asked for)
        try:
            text = thievery.plugin(game).rules_text(lang)
        except ThieveryError as e:
            refuse(e)
        if text is None:
            fail(_("{game} has no rules page", game=game))
    if raw:
        typer.echo(text, nl=False)
    else:
        Console().print(Markdown(text))
