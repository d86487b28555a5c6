"""Finding games: the entry-point group ``thievery.games``, loaded one game at a time.

Every installed distribution may declare games (``my-game = "my_package:GAME"``, where
``GAME`` is a :class:`~thievery.core.plugin.GamePlugin`); Thievery's four are declared in
its own ``pyproject.toml``. :func:`plugin` loads only the entry point it is asked for, so
nothing here imports a game until a game is wanted. :func:`register` adds a plug-in in
this process only (tests, notebooks).
"""

from __future__ import annotations

import logging
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from thievery.core.errors import UnknownGame
from thievery.core.plugin import GamePlugin
from thievery.core.protocol import GameSpec

GROUP = "thievery.games"

log = logging.getLogger("thievery.games")
_LOADED: dict[str, GamePlugin] = {}


@cache
def _entry_points() -> dict[str, EntryPoint]:
    """The installed games' entry points by name, read once per process (a name declared
    twice is logged; the last one read wins)."""
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=GROUP):
        if point.name in found and found[point.name].value != point.value:
            log.warning(
                "game %r is declared twice (%s and %s); using %s",
                point.name,
                found[point.name].value,
                point.value,
                point.value,
            )
        found[point.name] = point
    return found


def rescan() -> None:
    """Read the installed games' entry points again (after installing one in-process)."""
    _entry_points.cache_clear()


def register(plugin: GamePlugin) -> GamePlugin:
    """Make a game known in this process (installed games need no call: entry points)."""
    if not isinstance(plugin, GamePlugin):
        raise TypeError(f"a game is registered by its GamePlugin, not {plugin!r}")
    if plugin.spec.name in _entry_points() and plugin.spec.name not in _LOADED:
        log.warning("game %r is installed; the registered one is used instead", plugin.spec.name)
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
        known = ", ".join(sorted(set(points) | set(_LOADED)))
        hint = known or "none installed; is Thievery installed (pip install -e .)?"
        raise UnknownGame(f"there is no game {name!r} (games: {hint})")
    try:
        loaded = point.load()
    except Exception as e:  # a broken plug-in is that game's problem, told plainly
        raise UnknownGame(f"game {name!r} could not be loaded from {point.value}: {e!r}") from e
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


def playable() -> list[GamePlugin]:
    """Every game that loads, for listings: a plug-in that fails to load is logged and
    left out, so one broken game does not take the others down."""
    out = []
    for name in game_names():
        try:
            out.append(plugin(name))
        except UnknownGame as e:
            log.error("%s", e)
    return out
