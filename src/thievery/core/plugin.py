"""A game plug-in: one descriptor that carries everything Thievery needs about a game.

A game is one Python package. It exposes one :class:`GamePlugin` and declares it under
the entry-point group ``thievery.games`` (``pyproject.toml``)::

    [project.entry-points."thievery.games"]
    my-game = "my_package:GAME"

The rest of Thievery finds it there (:mod:`thievery.core.registry`) and loads only the
games it is asked for. Each face takes from the descriptor what it needs: the rules
(``spec``), the bots by name (``bots``), the search hooks (``search``), the terminal
renderer (``renderer``, imported on demand so that ``rich`` stays off the rules' import
path), the browser renderer (``web``: a folder of the package with ``game.js`` and
``game.css``), the rules decisions (``rules``: a Markdown page in the package), the
views' static keys (``static_view``) and the policy for options that name files
(``files``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Protocol

from thievery.core.errors import InvalidOption
from thievery.core.protocol import JSON, Action, GameSpec
from thievery.core.rng import Rng
from thievery.core.search import SearchHooks


class Bot(Protocol):
    """A player: from its seat's view and legal actions, one action.

    A search bot that can answer early with what it has found so far may have a
    ``deadline`` attribute (a ``time.perf_counter()`` time; ``math.inf``: none), which the
    server sets before each turn-based decision: so that how long it thinks never shows
    in when it answers (see :mod:`thievery.server.driver`).
    """

    name: str

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        """Choose one of ``legal``."""
        ...


BotFactory = Callable[[str, int, Rng], Bot]  # (game name, seat, rng) -> bot


@dataclass(frozen=True)
class TerminalRenderer:
    """How one game looks in the terminal (its module imports ``rich``; loaded on demand).

    ``table`` turns a seat's (or the spectator's) view into a rich renderable; ``action``
    turns (an action's JSON, the view) into a menu line. A real-time game gives ``live``:
    (state, the human seat or None, bots by seat, console, seed, names) -> None, played
    live instead of turn-by-turn menus. ``legend`` explains the screen's symbols (shown
    at the start and on ``?``). ``group`` files an action under a path of menu headings
    (``("Move a card from seat 2", "Ring (slot 1)")``; ``()``: at the top), so a long
    menu is chosen in steps; without it, long menus are grouped by action type.
    """

    table: Callable[[JSON], Any]
    action: Callable[[JSON, JSON], str]
    live: Callable[..., None] | None = None
    legend: str = ""
    group: Callable[[JSON, JSON], tuple[str, ...]] | None = None


class FileOptions:
    """The policy for options that name a file on this machine (``Option(local=True)``).

    A string value is a path, which a server must never take from the network; an object
    is the file's content inline, accepted anywhere. Games with such options subclass
    this: ``inline`` reads the files in (so a game and its record read no file and replay
    on any machine), ``listing`` shortens bulky inline values for table listings.
    """

    def inline(self, options: Mapping[str, Any], folder: Path | None = None) -> JSON:
        """``options`` with every file a local option names read in. A relative path is
        read from ``folder`` (default: the working directory)."""
        return dict(options)

    def listing(self, public: Mapping[str, Any]) -> JSON:
        """The public options as table summaries and listings show them."""
        return dict(public)


NO_FILES = FileOptions()


@dataclass(frozen=True)
class GamePlugin:
    """Everything about one game, found by the entry point ``thievery.games``."""

    spec: GameSpec
    package: str  # the game's package: its web assets and rules page are read from it
    bots: Mapping[str, BotFactory] = field(default_factory=dict)  # the game's own bots
    search: SearchHooks | None = None  # None: the defaults (the determinizer alone)
    renderer: str | None = None  # "module:attribute" of a TerminalRenderer
    web: str | None = None  # a folder of the package holding game.js (and game.css)
    rules: str | None = None  # the rules decisions, a Markdown file of the package
    # View keys whose values never change during a game (options, a card catalogue): a
    # server sends them once per connection and leaves them out of later frames.
    static_view: tuple[str, ...] = ()
    files: FileOptions = NO_FILES

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def hooks(self) -> SearchHooks:
        """The search hooks (the game's, or the defaults)."""
        return self.search if self.search is not None else SearchHooks(self.spec)

    def terminal(self) -> TerminalRenderer | None:
        """The terminal renderer, imported now (``None``: the game has none)."""
        if self.renderer is None:
            return None
        module, _, attribute = self.renderer.partition(":")
        found = getattr(importlib.import_module(module), attribute)
        if not isinstance(found, TerminalRenderer):
            raise TypeError(f"{self.renderer} is not a TerminalRenderer")
        return found

    def resource(self, *parts: str) -> Traversable:
        """A file or folder of the game's package."""
        node = files(self.package)
        for part in parts:
            node = node / part
        return node

    def web_file(self, name: str) -> Traversable | None:
        """One of the game's browser files (``game.js``, ``game.css``), if it has it."""
        if self.web is None or name not in ("game.js", "game.css"):
            return None
        node = self.resource(self.web, name)
        return node if node.is_file() else None

    def rules_text(self, lang: str = "en") -> str | None:
        """The game's rules decisions (Markdown), if it has a page: in ``lang`` when the
        package has that translation beside it (``RULES.de.md`` next to ``RULES.md``),
        else the page itself."""
        if self.rules is None:
            return None
        page = self.resource(self.rules)
        stem, dot, ext = self.rules.rpartition(".")
        if lang != "en" and lang.isalpha() and dot:
            translated = self.resource(f"{stem}.{lang.lower()}.{ext}")
            if translated.is_file():
                return translated.read_text(encoding="utf-8")
        return page.read_text(encoding="utf-8") if page.is_file() else None

    # ------------------------------------------------------------ options from files

    def check_remote_options(self, options: Mapping[str, Any] | None) -> None:
        """Refuse options that read this machine (file paths) when they come over the
        network: a server must not open files a stranger names. A local option's content
        given inline (an object, not a path) reads nothing and is accepted."""
        for o in self.spec.options:
            if o.local and isinstance((options or {}).get(o.name), str):
                raise InvalidOption(
                    f"option {o.name!r} names a file on the server's machine and is not "
                    "accepted over the network"
                )

    def inline_options(self, options: Mapping[str, Any], folder: Path | None = None) -> JSON:
        """``options`` with every file a local option names read in (see FileOptions)."""
        return self.files.inline(options, folder)

    def listing_options(self, options: Mapping[str, Any]) -> JSON:
        """The public options as listings show them (bulky inline values shortened)."""
        return self.files.listing(self.spec.public_options(options))
