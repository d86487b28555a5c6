"""Pickpocket, an example Thievery game as a plug-in package of its own: cards, actions,
rules (the State), view (the determinizer), spec, a heuristic bot, search hooks, a
terminal renderer, a browser renderer (``web/``) and a rules page (``RULES.md``).

Thievery finds :data:`GAME` through the entry point declared in this distribution's
``pyproject.toml``: ``pickpocket = "pickpocket:GAME"`` in the group ``thievery.games``.
"""

from thievery.core.plugin import GamePlugin

from pickpocket.actions import Bank, Pass, Pick
from pickpocket.bots import HeuristicBot
from pickpocket.rules import Pickpocket
from pickpocket.search import PickpocketSearch
from pickpocket.spec import PickpocketSpec

SPEC = PickpocketSpec()
Pickpocket.spec = SPEC  # states find their spec (options, parsing) through the class

GAME = GamePlugin(
    spec=SPEC,
    package=__name__,  # web/ and RULES.md are read from this package
    bots={"heuristic": HeuristicBot},  # plus the generic random, ismcts, ismcts-strong
    search=PickpocketSearch(SPEC),
    renderer=f"{__name__}.render:RENDERER",  # imported only when a terminal needs it
    web="web",  # web/game.js and web/game.css, served at /static/games/pickpocket/
    rules="RULES.md",
    static_view=("options",),  # never changes in a game: a server sends it once
    # files=NO_FILES (the default): no option names a file
)

__all__ = ["GAME", "SPEC", "Bank", "HeuristicBot", "Pass", "Pick", "Pickpocket", "PickpocketSpec"]
