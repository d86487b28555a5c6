"""Bots: players that see only their seat's view and legal actions. Looked up by name."""

from thievery.bots.base import Bot, RandomBot, bot_names, make_bot, register_bot

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot", "register_bot"]
