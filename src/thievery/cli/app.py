"""The typer application every `thievery` subcommand registers on."""

import typer

from thievery.cli.usage import ThieveryGroup

app = typer.Typer(
    name="thievery",
    help="Thievery: four thief-themed tabletop games — play, serve, simulate, replay.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
    cls=ThieveryGroup,  # (Typer's own words in the command line's language)
)
