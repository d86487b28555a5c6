"""Schatz-Rabatz (Noris-Spiele 2015, Karin Hetling): the real-time packing game.

Components (``data.py``), geometry (``pieces.py``), rules (``rules.py``), spec
(``spec.py``), the packing bot (``bots.py``), the search over placements (``search.py``)
(bots on simulated time: ``thievery.sim.realtime``).
"""

from functools import partial

from thievery.bots.base import register_bot
from thievery.core.protocol import CLOCK
from thievery.core.registry import register
from thievery.games.schatz_rabatz.bots import BOTS, PackingBot
from thievery.games.schatz_rabatz.rules import (
    Close,
    Drop,
    Ready,
    SchatzRabatz,
    Tick,
)
from thievery.games.schatz_rabatz.search import PlacementSearchBot
from thievery.games.schatz_rabatz.spec import SchatzRabatzSpec

SPEC = register(SchatzRabatzSpec())
SchatzRabatz.spec = SPEC
for _name, _factory in BOTS.items():
    register_bot(_name, _factory, game=SPEC.name)
# The search bots (a search over placements, ``search.py``) at the heuristic's (adult)
# speed: on simulated time a ladder then compares decisions, not reflexes. ``ismcts``
# compares the packer's drop and 4 others over 8 determinizations (each scored with its
# sampled Jack-board); ``ismcts-strong`` compares 8 others over 48 sampled timings, each
# scored against every Jack-board the seat cannot rule out.
register_bot(
    "ismcts", partial(PlacementSearchBot, samples=8, candidates=4, name="ismcts"), game=SPEC.name
)
register_bot(
    "ismcts-strong",
    partial(PlacementSearchBot, samples=48, candidates=8, every_board=True, name="ismcts-strong"),
    game=SPEC.name,
)

__all__ = [
    "CLOCK",
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
