"""The game protocol shared by every Thievery game: specs, states, actions, events, records."""

from thievery.core.errors import (
    IllegalAction,
    InvalidOption,
    InvalidRecord,
    MalformedAction,
    ThieveryError,
    UnknownGame,
)
from thievery.core.protocol import Action, Event, GameSpec, Option, State
from thievery.core.record import GameRecord, replay
from thievery.core.registry import game, games, register
from thievery.core.rng import Rng

__all__ = [
    "Action",
    "Event",
    "GameRecord",
    "GameSpec",
    "IllegalAction",
    "InvalidOption",
    "InvalidRecord",
    "MalformedAction",
    "Option",
    "Rng",
    "State",
    "ThieveryError",
    "UnknownGame",
    "game",
    "games",
    "register",
    "replay",
]
