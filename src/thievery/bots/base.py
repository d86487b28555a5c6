"""The bot protocol, the random bot, and bots by name: a game's own (its plug-in's
``bots``) first, then the generic ones that play any game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from thievery.core.errors import InvalidOption
from thievery.core.plugin import Bot, BotFactory
from thievery.core.protocol import Action
from thievery.core.registry import plugin
from thievery.core.rng import KEYED, Rng, make_rng

JSON = dict[str, Any]

# Bots that play any game, by name; filled below and by thievery.bots (the generic search).
GENERIC: dict[str, BotFactory] = {}


class RandomBot:
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, game: str, seat: int, rng: Rng) -> None:
        self.seat = seat
        self.rng = rng

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        return self.rng.choice(legal)


def bot_names(game: str) -> list[str]:
    """The bots that can play ``game``."""
    return sorted(set(GENERIC) | set(plugin(game).bots))


def bot_factory(name: str, game: str) -> BotFactory:
    """The factory of bot ``name`` for ``game``: the game's own, else a generic one."""
    factory = plugin(game).bots.get(name) or GENERIC.get(name)
    if factory is None:
        raise InvalidOption(
            f"there is no bot {name!r} for {game} (bots: {', '.join(bot_names(game))})"
        )
    return factory


def make_bot(name: str, game: str, seat: int, seed: int) -> Bot:
    """A bot by name for one seat, with its own generator seeded from ``seed``."""
    mixed = seed * 1_000_003 + seat
    # (a keyed table's bots draw from keyed generators, one per seat; below, as ever)
    return bot_factory(name, game)(game, seat, make_rng(mixed) if seed >= KEYED else Rng(mixed))


GENERIC["random"] = RandomBot

__all__ = ["GENERIC", "Bot", "BotFactory", "RandomBot", "bot_factory", "bot_names", "make_bot"]
