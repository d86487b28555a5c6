"""Face Down, boardgame.io's load-test game, as a Thievery game plug-in (benchmarks only).

Thievery finds :data:`GAME` through the entry point ``facedown = "facedown:GAME"`` in the
group ``thievery.games`` (this distribution's ``pyproject.toml``).
"""

from thievery.core.plugin import GamePlugin

from facedown.game import SPEC, FaceDown, FaceDownSpec, Play, parse_action

GAME = GamePlugin(spec=SPEC, package=__name__, rules="RULES.md")

__all__ = ["GAME", "SPEC", "FaceDown", "FaceDownSpec", "Play", "parse_action"]
