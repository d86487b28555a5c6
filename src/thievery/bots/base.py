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
    if seed >= KEYED:
        return bot_factory(name, game)(game, seat, make_rng(mixed))
    return bot_factory(name, game)(game, seat, Rng(off_the_deal(mixed, seed)))


_MASK = (1 << 64) - 1
_WEYL = 0x9E3779B97F4A7C15  # SplitMix64's step (core.rng): Rng(s) draws mix(s + k * _WEYL)
_WEYL_INVERSE = pow(_WEYL, -1, 1 << 64)
_APART = 1 << 40  # draws between a bot's stream and the deal's, at the least


def off_the_deal(mixed: int, seed: int) -> int:
    """A local bot's seed ``mixed``, unless ``Rng(mixed)`` would draw the numbers that
    dealt the game (``Rng(seed)``: SplitMix64 streams are one sequence, entered at
    different places), or numbers near them: then it is moved on until it lies far
    from them. As ever for every seed but a rare few: seed 0's first seat drew exactly
    the deal's numbers (its generator was ``Rng(0)``, the deal's own).

    >>> off_the_deal(5 * 1_000_003 + 2, 5) == 5 * 1_000_003 + 2
    True
    >>> off_the_deal(0, 0) != 0
    True
    """
    while True:
        lag = ((mixed - seed) * _WEYL_INVERSE) & _MASK  # how far Rng(mixed) runs ahead
        if _APART <= lag <= _MASK + 1 - _APART:
            return mixed
        mixed = Rng(mixed).next64()


GENERIC["random"] = RandomBot

__all__ = ["GENERIC", "Bot", "BotFactory", "RandomBot", "bot_factory", "bot_names", "make_bot"]
