"""The registry of games, by name."""

from thievery.core.errors import UnknownGame
from thievery.core.protocol import GameSpec

_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Register a game spec under its name."""
    _GAMES[spec.name] = spec
    return spec


def _load_builtin() -> None:
    import thievery.games  # noqa: F401  (registers the built-in games)


def game(name: str) -> GameSpec:
    """The spec of a game by name, e.g. ``game("schattendieb")``."""
    _load_builtin()
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownGame(
            f"there is no game {name!r} (games: {', '.join(sorted(_GAMES))})"
        ) from None


def games() -> list[str]:
    """The names of every registered game."""
    _load_builtin()
    return sorted(_GAMES)
