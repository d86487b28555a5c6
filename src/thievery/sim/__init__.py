"""Simulations: many games between bots, on local processes, with win-rate statistics."""

from thievery.sim.runner import GameOutcome, Standing, play_game, simulate, standings, wilson

__all__ = ["GameOutcome", "Standing", "play_game", "simulate", "standings", "wilson"]
