"""The built-in games, one package each (``schattendieb``, ``thieves``, ``thieves_den``,
``schatz_rabatz``). Importing this package loads none of them: each is found by its entry
point in the group ``thievery.games`` (see :mod:`thievery.core.registry`)."""
