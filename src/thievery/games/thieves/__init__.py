"""Thieves! (Richard de Rijk): cards, rules, spec and heuristic bot."""

from functools import partial

from thievery.bots.base import register_bot
from thievery.core.registry import register
from thievery.games.thieves.bots import HeuristicBot
from thievery.games.thieves.rules import Move, Play, Remove, Thieves
from thievery.games.thieves.search import RacingSearch, RolloutSearch
from thievery.games.thieves.spec import ThievesSpec

SPEC = register(ThievesSpec())
Thieves.spec = SPEC
register_bot("heuristic", HeuristicBot, game=SPEC.name)
# Search with a tree of the root decision, rollouts to the end by the heuristic's rules
# (level 1: the best reply to heuristic play). 100 rollouts put it between the heuristic
# and the strong level (docs/ladder-thieves.md: at 1,000 it was as strong as that level).
register_bot("ismcts", partial(RolloutSearch, iterations=100, name="ismcts"), game=SPEC.name)
# Paired comparisons of the root's moves on shared samples and luck, with racing.
register_bot(
    "ismcts-strong", partial(RacingSearch, iterations=1200, name="ismcts-strong"), game=SPEC.name
)

__all__ = ["SPEC", "HeuristicBot", "Move", "Play", "Remove", "Thieves", "ThievesSpec"]
