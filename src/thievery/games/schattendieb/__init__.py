"""Der Schattendieb (Amigo 2001, Jürgen Grunau): cards, rules, spec and heuristic bot."""

from functools import partial

from thievery.bots.base import register_bot
from thievery.bots.ismcts import PairedRootSearch
from thievery.core.registry import register
from thievery.games.schattendieb.bots import HeuristicBot
from thievery.games.schattendieb.model import level_one_action
from thievery.games.schattendieb.rules import Add, Done, Play, Schattendieb, Steal
from thievery.games.schattendieb.spec import SchattendiebSpec

SPEC = register(SchattendiebSpec())
Schattendieb.spec = SPEC
register_bot("heuristic", HeuristicBot, game=SPEC.name)
# The search levels compare the root's moves on paired samples (common random numbers):
# measured, the deeper tree of ISMCTSBot was no stronger than the heuristic here
# (docs/ladder-schattendieb.md).
register_bot("ismcts", partial(PairedRootSearch, iterations=400, name="ismcts"), game=SPEC.name)
register_bot(
    "ismcts-strong",
    partial(PairedRootSearch, iterations=2000, name="ismcts-strong", policy=level_one_action),
    game=SPEC.name,
)

__all__ = ["SPEC", "Add", "Done", "Play", "Schattendieb", "SchattendiebSpec", "Steal"]
