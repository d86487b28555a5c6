"""Terminal renderers: each game's own (its plug-in's ``renderer``, imported on demand so
``rich`` stays off the rules' import path), or a plain one for a game without."""

from __future__ import annotations

import json
from typing import Any

from rich.pretty import Pretty

from thievery.core.plugin import TerminalRenderer
from thievery.core.registry import plugin

JSON = dict[str, Any]


def _plain_action(action: JSON, view: JSON) -> str:
    return json.dumps(action)


PLAIN = TerminalRenderer(table=lambda view: Pretty(view), action=_plain_action)


def renderer(game: str) -> TerminalRenderer:
    """The terminal renderer of ``game``, else a plain one."""
    return plugin(game).terminal() or PLAIN
