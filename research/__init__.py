"""Research tools kept out of the runtime: fitting the play models, search diagnostics and
the Thieves Den balance report. They need the extra ``thievery[research]`` (numpy,
matplotlib) and run from the repository root, e.g. ``python -m research.search_regret``
or ``python -m research.fit_thieves_model``."""
