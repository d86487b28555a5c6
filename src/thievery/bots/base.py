"""The bot protocol, the random bot, and the registry of bots by (game, name)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from thievery.core.errors import InvalidOption
from thievery.core.protocol import Action
from thievery.core.registry import game as get_game
from thievery.core.rng import Rng

JSON = dict[str, Any]


class Bot(Protocol):
    """A player: from its seat's view and legal actions, one action."""

    name: str

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        """Choose one of ``legal``."""
        ...


BotFactory = Callable[[str, int, Rng], Bot]  # (game name, seat, rng) -> bot

_BOTS: dict[tuple[str, str], BotFactory] = {}
ANY_GAME = "*"


class RandomBot:
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, game: str, seat: int, rng: Rng) -> None:
        self.seat = seat
        self.rng = rng

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        return self.rng.choice(legal)


def register_bot(name: str, factory: BotFactory, game: str = ANY_GAME) -> None:
    """Register a bot for one game (or every game with ``game="*"``)."""
    _BOTS[(game, name)] = factory


def bot_names(game: str) -> list[str]:
    """The bots that can play ``game``."""
    get_game(game)  # load the games (they register their bots)
    return sorted({n for g, n in _BOTS if g in (game, ANY_GAME)})


def make_bot(name: str, game: str, seat: int, seed: int) -> Bot:
    """A bot by name for one seat, with its own generator seeded from ``seed``."""
    get_game(game)
    factory = _BOTS.get((game, name)) or _BOTS.get((ANY_GAME, name))
    if factory is None:
        raise InvalidOption(
            f"there is no bot {name!r} for {game} (bots: {', '.join(bot_names(game))})"
        )
    return factory(game, seat, Rng(seed * 1_000_003 + seat))


register_bot("random", RandomBot)
