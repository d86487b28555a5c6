"""Thieves! (Richard de Rijk): cards, rules, spec and heuristic bot."""

from thievery.bots.base import register_bot
from thievery.core.registry import register
from thievery.games.thieves.bots import HeuristicBot
from thievery.games.thieves.rules import Move, Play, Remove, Thieves
from thievery.games.thieves.spec import ThievesSpec

SPEC = register(ThievesSpec())
Thieves.spec = SPEC
register_bot("heuristic", HeuristicBot, game=SPEC.name)

__all__ = ["SPEC", "HeuristicBot", "Move", "Play", "Remove", "Thieves", "ThievesSpec"]
