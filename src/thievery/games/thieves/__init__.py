"""Thieves! (Richard de Rijk) as one plug-in package (cards, actions, rules, view, spec,
bots, search, terminal and browser renderers, rules page), described by :data:`GAME`,
which the entry point ``thieves = "thievery.games.thieves:GAME"`` finds."""

from functools import partial

from thievery.core.plugin import GamePlugin
from thievery.games.thieves.actions import Move, Play, Remove
from thievery.games.thieves.bots import HeuristicBot
from thievery.games.thieves.rules import Thieves
from thievery.games.thieves.search import RacingSearch, RolloutSearch, ThievesSearch
from thievery.games.thieves.spec import ThievesSpec

SPEC = ThievesSpec()
Thieves.spec = SPEC

GAME = GamePlugin(
    spec=SPEC,
    package=__name__,
    bots={
        "heuristic": HeuristicBot,
        # Search with a tree of the root decision, rollouts to the end by the heuristic's
        # rules (level 1: the best reply to heuristic play). 100 rollouts put it between
        # the heuristic and the strong level (docs/ladder-thieves.md: at 1,000 it was as
        # strong as that level).
        "ismcts": partial(RolloutSearch, iterations=100, name="ismcts"),
        # Paired comparisons of the root's moves on shared samples and luck, with racing.
        "ismcts-strong": partial(RacingSearch, iterations=1200, name="ismcts-strong"),
    },
    search=ThievesSearch(SPEC),
    renderer=f"{__name__}.render:RENDERER",
    web="web",
    rules="RULES.md",
)

__all__ = ["GAME", "SPEC", "HeuristicBot", "Move", "Play", "Remove", "Thieves", "ThievesSpec"]
