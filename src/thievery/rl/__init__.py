"""Research interfaces (the extra ``thievery[rl]``): PettingZoo (:mod:`thievery.rl.pettingzoo`),
Gymnasium (:mod:`thievery.rl.gymnasium`, ids ``thievery/<Game>-v0``) and OpenSpiel
(:mod:`thievery.rl.openspiel`) for every game, over one fixed action space and one
observation layout per game and player count (docs/rl.md).

>>> from thievery.rl import action_table
>>> action_table("schattendieb", 4)[-2:]
[{'type': 'done'}, {'type': 'wait'}]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from thievery.core.protocol import JSON
from thievery.rl.encoding import WAIT_JSON, ActionCodec, ObservationLayout
from thievery.rl.match import STEP_MS, Match, spaces


def action_table(game: str, players: int, options: Mapping[str, Any] | None = None) -> list[JSON]:
    """Every action index of ``game`` at ``players`` as the action's JSON, in index order
    (the last is ``{"type": "wait"}``)."""
    return spaces(game, players, options)[0].table()


def observation_layout(
    game: str, players: int, options: Mapping[str, Any] | None = None
) -> list[JSON]:
    """The observation vector's fields: ``{"name", "offset", "size", "doc"}`` each."""
    return spaces(game, players, options)[1].describe()


__all__ = [
    "STEP_MS",
    "WAIT_JSON",
    "ActionCodec",
    "Match",
    "ObservationLayout",
    "action_table",
    "observation_layout",
    "spaces",
]
