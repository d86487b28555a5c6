"""Der Schattendieb (Amigo 2001, Jürgen Grunau): cards, rules, spec and heuristic bot."""

from thievery.bots.base import register_bot
from thievery.core.registry import register
from thievery.games.schattendieb.bots import HeuristicBot
from thievery.games.schattendieb.rules import Add, Done, Play, Schattendieb, Steal
from thievery.games.schattendieb.spec import SchattendiebSpec

SPEC = register(SchattendiebSpec())
Schattendieb.spec = SPEC
register_bot("heuristic", HeuristicBot, game=SPEC.name)

__all__ = ["SPEC", "Add", "Done", "Play", "Schattendieb", "SchattendiebSpec", "Steal"]
