"""Schatz-Rabatz (Noris-Spiele 2015, Karin Hetling): the real-time packing game.

Components (``data.py``), geometry (``pieces.py``), rules (``rules.py``), spec
(``spec.py``), the packing bot (``bots.py``) and simulated time for bots (``realtime.py``).
"""

from thievery.core.registry import register
from thievery.games.schatz_rabatz.rules import (
    CLOCK,
    Close,
    Drop,
    Ready,
    SchatzRabatz,
    Tick,
)
from thievery.games.schatz_rabatz.spec import SchatzRabatzSpec

SPEC = register(SchatzRabatzSpec())
SchatzRabatz.spec = SPEC

__all__ = ["CLOCK", "SPEC", "Close", "Drop", "Ready", "SchatzRabatz", "SchatzRabatzSpec", "Tick"]
