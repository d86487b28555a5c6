"""Thieves! (Richard de Rijk): cards, rules, spec and heuristic bot."""

from functools import partial

from thievery.bots.base import register_bot
from thievery.core.registry import register
from thievery.games.thieves.bots import HeuristicBot
from thievery.games.thieves.model import level_one_action
from thievery.games.thieves.rules import Move, Play, Remove, Thieves
from thievery.games.thieves.search import RolloutSearch
from thievery.games.thieves.spec import ThievesSpec

SPEC = register(ThievesSpec())
Thieves.spec = SPEC
register_bot("heuristic", HeuristicBot, game=SPEC.name)
# Search with a tree of the root decision, rollouts to the end by the heuristic's rules
# (level 1: the best reply to heuristic play).
register_bot("ismcts", partial(RolloutSearch, iterations=1000, name="ismcts"), game=SPEC.name)
# Level 2: the same search, every seat's rollouts by a fitted model of how ismcts plays.
register_bot(
    "ismcts-strong",
    partial(RolloutSearch, iterations=1200, name="ismcts-strong", policy=level_one_action),
    game=SPEC.name,
)

__all__ = ["SPEC", "HeuristicBot", "Move", "Play", "Remove", "Thieves", "ThievesSpec"]
