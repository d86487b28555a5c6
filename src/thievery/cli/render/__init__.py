"""Terminal renderers, one per game: a view as a rich renderable, an action as words.

A game's renderer module registers itself with :func:`register_renderer`; games without
one fall back to a plain rendering of the view.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType
from rich.pretty import Pretty

JSON = dict[str, Any]


@dataclass(frozen=True)
class Renderer:
    """How one game looks in the terminal."""

    table: Callable[[JSON], RenderableType]  # a seat's (or the spectator's) view
    action: Callable[[JSON, JSON], str]  # (action JSON, view) -> a menu line
    # Real-time games: play live in the terminal, (state, human seat or None, bots by
    # seat, console, seed, names) -> None, instead of turn-by-turn menus.
    live: Callable[..., None] | None = None


def _plain_action(action: JSON, view: JSON) -> str:
    return json.dumps(action)


PLAIN = Renderer(table=lambda view: Pretty(view), action=_plain_action)
_RENDERERS: dict[str, Renderer] = {}


def register_renderer(game: str, renderer: Renderer) -> None:
    """Register the terminal renderer of ``game``."""
    _RENDERERS[game] = renderer


def renderer(game: str) -> Renderer:
    """The renderer of ``game`` (module ``thievery.cli.render.<game>``), else a plain one."""
    if game not in _RENDERERS:
        try:
            importlib.import_module(f"thievery.cli.render.{game.replace('-', '_')}")
        except ModuleNotFoundError:
            return PLAIN
    return _RENDERERS.get(game, PLAIN)
