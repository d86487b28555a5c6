"""The game protocol shared by every Thievery game: specs, states, actions, events, records,
and the plug-in descriptor by which games are found. It imports no game and no bot."""

from thievery.core.errors import (
    ComponentsChanged,
    IllegalAction,
    InvalidOption,
    InvalidRecord,
    MalformedAction,
    ThieveryError,
    UnknownGame,
)
from thievery.core.plugin import Bot, BotFactory, FileOptions, GamePlugin, TerminalRenderer
from thievery.core.protocol import (
    CLOCK,
    Action,
    ClockedState,
    Event,
    GameSpec,
    Option,
    State,
    Tick,
)
from thievery.core.record import GameRecord, replay
from thievery.core.registry import game, game_names, plugin, register
from thievery.core.rng import KeyedRng, Rng, make_rng
from thievery.core.search import SearchHooks

__all__ = [
    "CLOCK",
    "Action",
    "Bot",
    "BotFactory",
    "ClockedState",
    "ComponentsChanged",
    "Event",
    "FileOptions",
    "GamePlugin",
    "GameRecord",
    "GameSpec",
    "IllegalAction",
    "InvalidOption",
    "InvalidRecord",
    "KeyedRng",
    "MalformedAction",
    "Option",
    "Rng",
    "SearchHooks",
    "State",
    "TerminalRenderer",
    "ThieveryError",
    "Tick",
    "UnknownGame",
    "game",
    "game_names",
    "make_rng",
    "plugin",
    "register",
    "replay",
]
