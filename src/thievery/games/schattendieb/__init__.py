"""Der Schattendieb (Amigo 2001, Jürgen Grunau) as one plug-in package (cards, actions,
rules, view, spec, bots, search, terminal and browser renderers, rules page), described by
:data:`GAME`, which the entry point ``schattendieb = "thievery.games.schattendieb:GAME"``
finds."""

from functools import partial

from thievery.bots.ismcts import PairedRootSearch
from thievery.core.plugin import GamePlugin
from thievery.games.schattendieb.actions import Add, Done, Play, Steal
from thievery.games.schattendieb.bots import HeuristicBot
from thievery.games.schattendieb.model import level_one_action
from thievery.games.schattendieb.rules import Schattendieb
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
