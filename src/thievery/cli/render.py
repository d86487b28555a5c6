"""Terminal renderers: each game's own (its plug-in's ``renderer``, imported on demand so
``rich`` stays off the rules' import path), or a plain one for a game without; and the
words the terminal shows in the player's language (``--lang``, else the environment's):
a game's events, legend and seat names, from the game's ``lang_<code>`` module when it
has one (see :mod:`thievery.core.i18n`), else in English."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import typer
from rich.pretty import Pretty

from thievery.bots.levels import level_words
from thievery.core.i18n import LANGUAGES, Translator, check_language, language_from_env, localized
from thievery.core.plugin import TerminalRenderer
from thievery.core.protocol import (
    DEFAULT_SEAT_NAME,
    Event,
    GameSpec,
    default_seat_name,
    seat_number,
)
from thievery.core.registry import plugin

JSON = dict[str, Any]
_ = Translator(__package__)


def _plain_action(action: JSON, view: JSON) -> str:
    return json.dumps(action)


PLAIN = TerminalRenderer(table=lambda view: Pretty(view), action=_plain_action)


def renderer(game: str) -> TerminalRenderer:
    """The terminal renderer of ``game``, else a plain one."""
    return plugin(game).terminal() or PLAIN


def with_names(view: JSON, names: Sequence[str]) -> JSON:
    """``view`` with the names the screen gives the seats (as ``seat_names``): a game's
    board then names the seats in its words about the result as the rest of the screen
    does ("winner: Seat 3 (Casual)"), not by number alone."""
    return {**view, "seat_names": list(names)}


def describe(spec: GameSpec, event: Event, seat: int | None, names: Sequence[str] | None) -> str:
    """``event`` in words for ``seat``, in the current language: the game's translation
    of its events if it has one, else the spec's English."""
    words = localized(plugin(spec.name).package, "describe")
    if words is None:
        return spec.describe(event, seat, names)
    return str(words(event, seat, names))


def legend_of(game: str, render: TerminalRenderer) -> str:
    """The legend of ``game``'s screen in the current language (the renderer's English
    legend when the game has no translation of it)."""
    return str(localized(plugin(game).package, "LEGEND") or render.legend)


def seat_label(seat: int, name: str | None = None) -> str:
    """A seat's name as the terminal shows it, as the web pages do: a default name (none,
    or :func:`~thievery.core.protocol.default_seat_name`'s ``Seat 2 (heuristic)``) counted
    from 1 with the bot's level, in the current language (``Seat 3 (Casual)``, ``Platz 3
    (Amateur)``); a name someone gave, as given.

    >>> seat_label(2, "Seat 2 (heuristic)"), seat_label(0), seat_label(1, "Ann")
    ('Seat 3 (Casual)', 'Seat 1', 'Ann')
    """
    found = DEFAULT_SEAT_NAME.fullmatch(default_seat_name(seat) if name is None else name)
    if found is None or int(found[1]) != seat:
        return str(name)
    shown = _("Seat {n}", n=seat_number(seat))
    return f"{shown} ({level_words(found[2])})" if found[2] else shown


def seat_labels(players: int, names: Sequence[str] | None) -> list[str]:
    """Every seat's name as the terminal shows it (:func:`seat_label`), from a record's or
    a table's ``names`` (none: each seat by its number)."""
    return [seat_label(s, names[s] if names and s < len(names) else None) for s in range(players)]


def _check_lang(value: str | None) -> str:
    if value is None:
        return language_from_env()
    try:
        return check_language(value)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None


def lang_option() -> Any:
    """The ``--lang`` option: ``de`` or ``en``; by default the environment's language
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``de_*`` is German, anything else English)."""
    return typer.Option(
        None,
        "--lang",
        help=f"language of the screens ({'|'.join(LANGUAGES)}; default: from LANG/LC_ALL)",
        callback=_check_lang,
    )
