"""Thieves Den (Daily Magic Games, Alice Davis): card sets, rules, spec and heuristic bot."""

from thievery.bots.base import register_bot
from thievery.core.registry import register
from thievery.games.thieves_den.bots import HeuristicBot
from thievery.games.thieves_den.rules import ThievesDen
from thievery.games.thieves_den.spec import ThievesDenSpec

SPEC = register(ThievesDenSpec())
ThievesDen.spec = SPEC
register_bot("heuristic", HeuristicBot, game=SPEC.name)

__all__ = ["SPEC", "ThievesDen", "ThievesDenSpec"]
