"""Finding games: the entry-point group ``thievery.games``, loaded one game at a time.

Every installed distribution may declare games (``my-game = "my_package:GAME"``, where
``GAME`` is a :class:`~thievery.core.plugin.GamePlugin`); Thievery's four are declared in
its own ``pyproject.toml``. :func:`plugin` loads only the entry point it is asked for, so
nothing here imports a game until a game is wanted. :func:`register` adds a plug-in in
this process only (tests, notebooks).
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

from thievery.core.errors import UnknownGame
from thievery.core.plugin import GamePlugin
from thievery.core.protocol import GameSpec

GROUP = "thievery.games"

_LOADED: dict[str, GamePlugin] = {}


def _entry_points() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def register(plugin: GamePlugin) -> GamePlugin:
    """Make a game known in this process (installed games need no call: entry points)."""
    if not isinstance(plugin, GamePlugin):
        raise TypeError(f"a game is registered by its GamePlugin, not {plugin!r}")
    _LOADED[plugin.spec.name] = plugin
    return plugin


def plugin(name: str) -> GamePlugin:
    """The plug-in of a game by name, loading its entry point if need be."""
    found = _LOADED.get(name)
    if found is not None:
        return found
    points = _entry_points()
    point = points.get(name) if isinstance(name, str) else None
    if point is None:
        known = sorted(set(points) | set(_LOADED))
        raise UnknownGame(f"there is no game {name!r} (games: {', '.join(known)})")
    loaded = point.load()
    if not isinstance(loaded, GamePlugin):
        raise UnknownGame(f"the entry point {point.value} of game {name!r} is no GamePlugin")
    if loaded.spec.name != name:
        raise UnknownGame(
            f"the entry point {name!r} names a game called {loaded.spec.name!r}; "
            "the two names must agree"
        )
    _LOADED[name] = loaded
    return loaded


def game(name: str) -> GameSpec:
    """The spec of a game by name, e.g. ``game("schattendieb")``."""
    return plugin(name).spec


def game_names() -> list[str]:
    """The names of every installed or registered game (loads none of them)."""
    return sorted(set(_entry_points()) | set(_LOADED))
