"""Thievery: four thief-themed tabletop games as exact, fast rules engines.

>>> import thievery
>>> spec = thievery.game("schattendieb")
>>> state = spec.new(4, seed=1)
>>> state.to_act
(0, 1, 2, 3)
"""

# Load the built-in games first: importing the subpackage ``thievery.games`` sets that
# attribute on this package, and the function ``games`` below must be bound after it.
from thievery import games as _builtin_games  # noqa: F401  (registers the games)
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
    replay,
)
from thievery.core.registry import games

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
