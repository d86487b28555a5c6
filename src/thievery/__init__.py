"""Thievery: four thief-themed tabletop games as exact, fast rules engines.

>>> import thievery
>>> spec = thievery.game("schattendieb")
>>> state = spec.new(4, seed=1)
>>> state.to_act
(0, 1, 2, 3)
"""

from thievery.core import (
    Action,
    Event,
    GameRecord,
    GameSpec,
    IllegalAction,
    InvalidOption,
    MalformedAction,
    State,
    ThieveryError,
    game,
    games,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Event",
    "GameRecord",
    "GameSpec",
    "IllegalAction",
    "InvalidOption",
    "MalformedAction",
    "State",
    "ThieveryError",
    "game",
    "games",
    "replay",
]
