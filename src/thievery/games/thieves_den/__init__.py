"""Thieves Den (Daily Magic Games, Alice Davis): card sets, rules, spec and bots."""

from functools import partial

from thievery.bots.base import register_bot
from thievery.core.registry import register
from thievery.games.thieves_den.bots import HeuristicBot
from thievery.games.thieves_den.rules import ThievesDen
from thievery.games.thieves_den.search import MemoryBot
from thievery.games.thieves_den.spec import ThievesDenSpec

SPEC = register(ThievesDenSpec())
ThievesDen.spec = SPEC
register_bot("heuristic", HeuristicBot, game=SPEC.name)
# The search levels remember the hands they passed in Scouting (search.MemoryBot). Their
# rollouts play whole rounds, so they cost more per iteration than the generic default.
register_bot("ismcts", partial(MemoryBot, iterations=60, name="ismcts"), game=SPEC.name)
register_bot(
    "ismcts-strong", partial(MemoryBot, iterations=480, name="ismcts-strong"), game=SPEC.name
)

__all__ = ["SPEC", "ThievesDen", "ThievesDenSpec"]
