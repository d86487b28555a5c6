"""``python -m thievery``: the ``thievery`` command."""

from thievery.cli import main

main()
