"""Thievery: thief-themed tabletop games as exact, fast rules engines.

Games are plug-ins found by the entry-point group ``thievery.games``; importing this
package loads none of them.

>>> import thievery
>>> "schattendieb" in thievery.game_names()
True
>>> spec = thievery.game("schattendieb")
>>> state = spec.new(4, seed=1)
>>> state.to_act
(0, 1, 2, 3)
"""

from thievery.core import (
    Action,
    ClockedState,
    Event,
    GamePlugin,
    GameRecord,
    GameSpec,
    IllegalAction,
    InvalidOption,
    MalformedAction,
    State,
    ThieveryError,
    game,
    game_names,
    plugin,
    register,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "Action",
    "ClockedState",
    "Event",
    "GamePlugin",
    "GameRecord",
    "GameSpec",
    "IllegalAction",
    "InvalidOption",
    "MalformedAction",
    "State",
    "ThieveryError",
    "game",
    "game_names",
    "plugin",
    "register",
    "replay",
]
