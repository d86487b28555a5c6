"""The conformance suite and golden playthroughs as a library, for any Thievery game.

An outside game checks every promise of the protocol with one call, in its own tests or
anywhere (plain ``AssertionError`` on the first broken promise; no test framework
needed)::

    from thievery.testing import check_game
    check_game(MyPlugin)              # or a registered name, or a GameSpec

Each check is also a function of its own (``check_random_playouts``,
``check_determinism``, ...), and :func:`playthrough` / :func:`check_golden` keep a
game's golden playthrough: a seeded game's views and legal actions per seat, as text.
:func:`install_plugin` installs a plug-in distribution into a folder of its own (a fifth
game for other processes, the project's venv untouched).
This package imports no game: it reaches games only through the public protocol.
"""

from thievery.testing._support import MAX_STEPS, GameLike, player_counts, spec_of
from thievery.testing.conformance import (
    check_clone_independence,
    check_components,
    check_determinism,
    check_event_names,
    check_game,
    check_json_round_trips,
    check_keyed_deals,
    check_non_interference,
    check_random_playouts,
    check_record_replay,
    check_refusals,
    check_spec,
    random_playout,
)
from thievery.testing.golden import check_golden, golden_diff, playthrough
from thievery.testing.install import install_plugin
from thievery.testing.legality import ActionShapes, check_is_legal_matches_legal_actions

__all__ = [
    "MAX_STEPS",
    "ActionShapes",
    "GameLike",
    "check_clone_independence",
    "check_components",
    "check_determinism",
    "check_event_names",
    "check_game",
    "check_golden",
    "check_is_legal_matches_legal_actions",
    "check_json_round_trips",
    "check_keyed_deals",
    "check_non_interference",
    "check_random_playouts",
    "check_record_replay",
    "check_refusals",
    "check_spec",
    "golden_diff",
    "install_plugin",
    "player_counts",
    "playthrough",
    "random_playout",
    "spec_of",
]
