"""Bots: players that see only their seat's view and legal actions. Looked up by name: a
game's own bots (its plug-in's ``bots``), then the generic ones here, which play any game
and name none: ``random`` and the search levels ``ismcts`` / ``ismcts-strong``."""

from functools import partial

from thievery.bots.base import GENERIC, Bot, RandomBot, bot_factory, bot_names, make_bot
from thievery.bots.ismcts import ISMCTSBot

GENERIC["ismcts"] = partial(ISMCTSBot, iterations=400, name="ismcts")
GENERIC["ismcts-strong"] = partial(ISMCTSBot, iterations=2000, name="ismcts-strong")

__all__ = ["Bot", "ISMCTSBot", "RandomBot", "bot_factory", "bot_names", "make_bot"]
