"""Schatz-Rabatz (Noris-Spiele 2015, Karin Hetling): the real-time packing game.

Components (``data.py``), geometry (``pieces.py``), rules (``rules.py``), spec
(``spec.py``), the packing bot (``bots.py``) (bots on simulated time: ``thievery.sim.realtime``).
"""

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
from thievery.games.schatz_rabatz.spec import SchatzRabatzSpec

SPEC = register(SchatzRabatzSpec())
SchatzRabatz.spec = SPEC
for _name, _factory in BOTS.items():
    register_bot(_name, _factory, game=SPEC.name)

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
