"""Thieves Den (Daily Magic Games, Alice Davis), one plug-in package: card sets
(``cards.py``, ``data/``), actions (``actions.py``), the effect steps (``effects.py``),
rules (``rules.py``), the view and its inverse, the determinizer (``view.py``), where
everything lies (``reading.py``), spec (``spec.py``), the heuristic bot (``bots.py``),
search hooks and search bot (``search.py``), terminal renderer (``render.py``), browser
renderer (``web/``) and rules page.

The entry point ``thieves-den = "thievery.games.thieves_den:GAME"`` finds :data:`GAME`.
"""

from functools import partial

from thievery.core.plugin import GamePlugin
from thievery.games.thieves_den.bots import HeuristicBot
from thievery.games.thieves_den.cards import CardSetFiles
from thievery.games.thieves_den.rules import ThievesDen
from thievery.games.thieves_den.search import MemoryBot, ThievesDenSearch
from thievery.games.thieves_den.spec import ThievesDenSpec

SPEC = ThievesDenSpec()
ThievesDen.spec = SPEC

GAME = GamePlugin(
    spec=SPEC,
    package=__name__,
    bots={
        "heuristic": HeuristicBot,
        # The search levels remember the hands they passed in Scouting (MemoryBot). Their
        # rollouts play whole rounds, so they cost more per iteration than the default.
        "ismcts": partial(MemoryBot, iterations=60, name="ismcts"),
        "ismcts-strong": partial(MemoryBot, iterations=480, name="ismcts-strong"),
    },
    search=ThievesDenSearch(SPEC),
    renderer=f"{__name__}.render:RENDERER",
    web="web",
    rules="RULES.md",
    # The options (a card set, maybe inline) and the catalogue never change in a game.
    static_view=("options", "catalogue"),
    files=CardSetFiles(),
)

__all__ = ["GAME", "SPEC", "ThievesDen", "ThievesDenSpec"]
