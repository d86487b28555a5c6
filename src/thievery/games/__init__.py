"""The built-in games; importing this package registers them."""

from thievery.games import schattendieb, schatz_rabatz, thieves, thieves_den  # noqa: F401
