"""`thievery games`: list the games with their players, options and bots."""

from rich.console import Console
from rich.table import Table

import thievery
from thievery.bots import bot_names
from thievery.cli.app import app


@app.command("games")
def list_games() -> None:
    """List every game, its player range, options and bots."""
    table = Table(title="Thievery games")
    for col in ("name", "title", "players", "options", "bots"):
        table.add_column(col)
    for name in thievery.game_names():
        spec = thievery.game(name)
        opts = ", ".join(f"{o['name']}={o['default']}" for o in spec.info()["options"])
        table.add_row(
            name,
            spec.title,
            f"{spec.min_players}-{spec.max_players}",
            opts,
            ", ".join(bot_names(name)),
        )
    Console().print(table)
