"""The `thievery` command: play, replay, verify, simulate, ladder, serve, games, rules."""

from thievery.cli import (  # noqa: F401
    games_cmd,
    ladder,
    play,
    replay_cmd,
    serve,
    simulate,
    verify,
)
from thievery.cli.app import app


def main() -> None:
    """Entry point of the `thievery` console script."""
    app()


__all__ = ["app", "main"]
