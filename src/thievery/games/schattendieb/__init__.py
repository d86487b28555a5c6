"""Der Schattendieb (Amigo 2001, Jürgen Grunau), one plug-in package: cards, rules, view,
spec, bots, search hooks, terminal renderer, browser renderer and rules page.

The entry point ``schattendieb = "thievery.games.schattendieb:GAME"`` finds :data:`GAME`.
"""

from functools import partial

from thievery.bots.ismcts import PairedRootSearch
from thievery.core.plugin import GamePlugin
from thievery.games.schattendieb.bots import HeuristicBot
from thievery.games.schattendieb.model import level_one_action
from thievery.games.schattendieb.rules import Add, Done, Play, Schattendieb, Steal
from thievery.games.schattendieb.search import SchattendiebSearch
from thievery.games.schattendieb.spec import SchattendiebSpec

SPEC = SchattendiebSpec()
Schattendieb.spec = SPEC

GAME = GamePlugin(
    spec=SPEC,
    package=__name__,
    bots={
        "heuristic": HeuristicBot,
        # The search levels compare the root's moves on paired samples (common random
        # numbers): measured, the deeper tree of ISMCTSBot was no stronger than the
        # heuristic here (docs/ladder-schattendieb.md).
        "ismcts": partial(PairedRootSearch, iterations=400, name="ismcts"),
        "ismcts-strong": partial(
            PairedRootSearch, iterations=2000, name="ismcts-strong", policy=level_one_action
        ),
    },
    search=SchattendiebSearch(SPEC),
    renderer=f"{__name__}.render:RENDERER",
    web="web",
    rules="RULES.md",
)

__all__ = ["GAME", "SPEC", "Add", "Done", "Play", "Schattendieb", "SchattendiebSpec", "Steal"]
