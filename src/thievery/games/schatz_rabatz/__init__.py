"""Schatz-Rabatz (Noris-Spiele 2015, Karin Hetling): the real-time packing game.

Components (``data.py``), geometry (``pieces.py``), rules (``rules.py``), spec
(``spec.py``), the packing bot (``bots.py``) (bots on simulated time: ``thievery.sim.realtime``).
"""

from functools import partial

from thievery.bots.base import register_bot
from thievery.bots.ismcts import ISMCTSBot
from thievery.core.protocol import CLOCK
from thievery.core.registry import register
from thievery.games.schatz_rabatz.bots import BOTS, SPEEDS, PackingBot
from thievery.games.schatz_rabatz.rules import (
    Close,
    Drop,
    Ready,
    SchatzRabatz,
    Tick,
)
from thievery.games.schatz_rabatz.spec import SchatzRabatzSpec

SPEC = register(SchatzRabatzSpec())
SchatzRabatz.spec = SPEC
for _name, _factory in BOTS.items():
    register_bot(_name, _factory, game=SPEC.name)
# The search bots at the heuristic's (adult) speed: on simulated time a ladder then
# compares decisions, not reflexes.
register_bot(
    "ismcts",
    partial(ISMCTSBot, iterations=400, name="ismcts", action_ms=SPEEDS["adult"]),
    game=SPEC.name,
)
register_bot(
    "ismcts-strong",
    partial(ISMCTSBot, iterations=2000, name="ismcts-strong", action_ms=SPEEDS["adult"]),
    game=SPEC.name,
)

__all__ = [
    "CLOCK",
    "SPEC",
    "Close",
    "Drop",
    "PackingBot",
    "Ready",
    "SchatzRabatz",
    "SchatzRabatzSpec",
    "Tick",
]
