"""The built-in games; importing this package registers them."""

from thievery.games import schattendieb  # noqa: F401
from thievery.games import schatz_rabatz  # noqa: F401
from thievery.games import thieves  # noqa: F401
from thievery.games import thieves_den  # noqa: F401
