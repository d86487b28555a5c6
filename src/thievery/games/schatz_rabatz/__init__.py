"""Schatz-Rabatz (Noris-Spiele 2015, Karin Hetling), the real-time packing game, one
plug-in package: components (``data.py``), geometry (``pieces.py``), actions
(``actions.py``), rules (``rules.py``, a clocked state), the view and its inverse, the
determinizer (``view.py``), spec (``spec.py``), the packing bots (``bots.py``), search
hooks and the search over placements (``search.py``), the terminal renderer and live
screen (``render.py``, ``live.py``), the browser renderer (``web/``) and the rules page.

The entry point ``schatz-rabatz = "thievery.games.schatz_rabatz:GAME"`` finds :data:`GAME`.
"""

from functools import partial

from thievery.core.plugin import GamePlugin
from thievery.core.protocol import CLOCK, Tick
from thievery.games.schatz_rabatz.actions import Close, Drop, Ready
from thievery.games.schatz_rabatz.bots import BOTS, PackingBot
from thievery.games.schatz_rabatz.rules import SchatzRabatz
from thievery.games.schatz_rabatz.search import PlacementSearchBot, SchatzRabatzSearch
from thievery.games.schatz_rabatz.spec import SchatzRabatzSpec

SPEC = SchatzRabatzSpec()
SchatzRabatz.spec = SPEC

GAME = GamePlugin(
    spec=SPEC,
    package=__name__,
    bots={
        **BOTS,
        # The search bots at the heuristic's (adult) speed: on simulated time a ladder
        # then compares decisions, not reflexes. ``ismcts`` compares the packer's drop and
        # 4 others over 8 determinizations (each scored with its sampled Jack-board);
        # ``ismcts-strong`` compares 8 others over 48 sampled timings, each scored against
        # every Jack-board the seat cannot rule out.
        "ismcts": partial(PlacementSearchBot, samples=8, candidates=4, name="ismcts"),
        "ismcts-strong": partial(
            PlacementSearchBot, samples=48, candidates=8, every_board=True, name="ismcts-strong"
        ),
    },
    search=SchatzRabatzSearch(SPEC),
    renderer=f"{__name__}.render:RENDERER",
    web="web",
    rules="RULES.md",
)

__all__ = [
    "CLOCK",
    "GAME",
    "SPEC",
    "Close",
    "Drop",
    "PackingBot",
    "PlacementSearchBot",
    "Ready",
    "SchatzRabatz",
    "SchatzRabatzSpec",
    "Tick",
]
