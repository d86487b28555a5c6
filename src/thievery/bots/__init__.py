"""Bots: players that see only their seat's view and legal actions. Looked up by name."""

from functools import partial

from thievery.bots.base import Bot, RandomBot, bot_names, make_bot, register_bot
from thievery.bots.ismcts import ISMCTSBot

register_bot("ismcts", partial(ISMCTSBot, iterations=400, name="ismcts"))
register_bot("ismcts-strong", partial(ISMCTSBot, iterations=2000, name="ismcts-strong"))

__all__ = ["Bot", "ISMCTSBot", "RandomBot", "bot_names", "make_bot", "register_bot"]
