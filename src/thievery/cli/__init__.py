"""The `thievery` command: play, serve, simulate, replay, games, bench."""

from thievery.cli import games_cmd, ladder, play, replay_cmd, serve, simulate  # noqa: F401
from thievery.cli.app import app


def main() -> None:
    """Entry point of the `thievery` console script."""
    app()


__all__ = ["app", "main"]
