"""Words in the player's language (English or German) for the faces that speak to people.

English is the source language: every face writes its words in English and asks a
:class:`Translator` for them, gettext-style. The translations of one package (a game, or
the terminal itself) are a module beside it, ``<package>/lang_<code>.py``, holding
``WORDS: Mapping[str, str]`` (English text -> translation; ``{name}`` fields stay as
they are) and, for a game, ``describe(event, seat, names) -> str`` (its events in that
language). A package without a module for a language speaks English there.

The language is the context's (:func:`use_language`), so renderers keep their signatures::

    >>> _ = Translator("thievery.games.thieves")
    >>> with use_language("de"):
    ...     _("Your hand")
    'Deine Hand'
    >>> _("Your hand")
    'Your hand'
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any

LANGUAGES = ("en", "de")
ENGLISH = "en"
_LANGUAGE: ContextVar[str] = ContextVar("thievery_language", default=ENGLISH)
_LOOKUPS: ContextVar[Lookups | None] = ContextVar("thievery_lookups", default=None)


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, by POSIX precedence (``LC_ALL``, then
    ``LC_MESSAGES``, then ``LANG``; the first one set counts): ``de`` for ``de_*``, else
    ``en``.

    >>> language_from_env({"LANG": "de_DE.UTF-8"}), language_from_env({"LANG": "fr_FR"})
    ('de', 'en')
    >>> language_from_env({"LC_ALL": "C", "LANG": "de_AT.UTF-8"})
    'en'
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            code = value.split(".")[0].split("_")[0].lower()
            return code if code in LANGUAGES else ENGLISH
    return ENGLISH


def check_language(lang: str) -> str:
    """``lang`` normalised (``"DE"`` -> ``"de"``), or :class:`ValueError` naming the
    languages there are."""
    code = lang.strip().lower()
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
    return code


def current_language() -> str:
    """The language of this context (``en`` unless :func:`use_language` says otherwise)."""
    return _LANGUAGE.get()


@contextmanager
def use_language(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the block (this thread or task only)."""
    token = _LANGUAGE.set(check_language(lang))
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


@cache
def translation(package: str, lang: str) -> ModuleType | None:
    """The module ``<package>.lang_<lang>``, if the package has one (English has none)."""
    if lang == ENGLISH:
        return None
    name = f"{package}.lang_{lang}"
    try:
        found = importlib.util.find_spec(name)
    except ModuleNotFoundError:
        return None
    return None if found is None else importlib.import_module(name)


def localized(package: str, attribute: str) -> Any:
    """``attribute`` of ``package``'s translation into the current language, or ``None``
    (English, or no such translation)."""
    module = translation(package, current_language())
    return None if module is None else getattr(module, attribute, None)


@dataclass
class Lookups:
    """What translators were asked inside :func:`recording_lookups`: every (package,
    English text) and those the current language had no words for."""

    asked: set[tuple[str, str]] = field(default_factory=set)
    missing: set[tuple[str, str]] = field(default_factory=set)


@contextmanager
def recording_lookups() -> Iterator[Lookups]:
    """Record every lookup inside the block (tests: nothing left untranslated)."""
    found = Lookups()
    token = _LOOKUPS.set(found)
    try:
        yield found
    finally:
        _LOOKUPS.reset(token)


class Translator:
    """The words of one package in the current language: ``_("Round {n}", n=2)``."""

    def __init__(self, package: str) -> None:
        self.package = package

    def __call__(self, text: str, /, **fields: Any) -> str:
        words: Mapping[str, str] = localized(self.package, "WORDS") or {}
        found = words.get(text)
        lookups = _LOOKUPS.get()
        if lookups is not None:
            lookups.asked.add((self.package, text))
            if found is None and current_language() != ENGLISH:
                lookups.missing.add((self.package, text))
        out = text if found is None else found
        return out.format(**fields) if fields else out


# A seat's default German name ("Platz 4", "Platz 3 (Locker)"): see result_name.
_GERMAN_SEAT = re.compile(r"^Platz (\d+)(?= \(|$)")


def _sitzplatz(name: str) -> str:
    return _GERMAN_SEAT.sub(r"Sitzplatz \1", name)


def result_name(name: str) -> str:
    """A seat's name in words about scores or who won. In German a seat's default name
    there reads like a ranking ("Platz 4 gewinnt": 4th place wins?): it is "Sitzplatz 4"
    (the seat, not a rank). English, and names someone gave, are left as they are.

    >>> with use_language("de"):
    ...     result_name("Platz 4"), result_name("Platz 3 (Locker)"), result_name("Ann")
    ('Sitzplatz 4', 'Sitzplatz 3 (Locker)', 'Ann')
    >>> result_name("Seat 4")
    'Seat 4'
    """
    return _sitzplatz(name) if current_language() == "de" else name


def screen_seat(view: Mapping[str, Any], seat: int) -> str:
    """A seat in a board's words, named as the rest of the terminal's screen names it: by
    the name the screen gives it (the terminal adds its names to the view as
    ``seat_names``: "Seat 3 (Casual)"), else "Seat 3" (counted from 1; German "Platz 3",
    the web's word for a seat).

    >>> screen_seat({"seat_names": ["Ann", "Seat 2 (Casual)"]}, 1), screen_seat({}, 2)
    ('Seat 2 (Casual)', 'Seat 3')
    >>> with use_language("de"):
    ...     screen_seat({}, 0)
    'Platz 1'
    """
    names = view.get("seat_names")
    if names and 0 <= seat < len(names):
        return str(names[seat])
    number = seat + 1  # (as core.protocol.seat_number: screens count seats from 1)
    return f"Platz {number}" if current_language() == "de" else f"Seat {number}"


def result_seat(view: Mapping[str, Any], seat: int) -> str:
    """A seat in a board's words about the result: :func:`screen_seat`, in German as a
    seat, not a rank (see :func:`result_name`).

    >>> result_seat({"seat_names": ["Ann", "Seat 2 (Casual)"]}, 1), result_seat({}, 2)
    ('Seat 2 (Casual)', 'Seat 3')
    >>> with use_language("de"):
    ...     result_seat({}, 0)
    'Sitzplatz 1'
    """
    return result_name(screen_seat(view, seat))


def listed(items: Sequence[str]) -> str:
    """Several names as one, in the current language, as the logs list winners: "A and B",
    "A, B and C" (German "A und B").

    >>> listed(["Ann"]), listed(["Ann", "Bo", "Cy"])
    ('Ann', 'Ann, Bo and Cy')
    >>> with use_language("de"):
    ...     listed(["Ann", "Bo"])
    'Ann und Bo'
    """
    word = " und " if current_language() == "de" else " and "
    if len(items) > 1:
        return f"{', '.join(items[:-1])}{word}{items[-1]}"
    return "".join(items)


@dataclass(frozen=True)
class GermanSeats:
    """How German event words name seats for a viewer: "du" for the viewer's own seat
    (with the verb's du-form), else the seat's name (``names``) or "Platz N".

    >>> w = GermanSeats(1, ["Ann", "Bo", "Cy"])
    >>> w.nom(1, True), w.nom(2), w.dat(1), w.v(1, "hast", "hat"), w.join(["a", "b", "c"])
    ('Du', 'Cy', 'dir', 'hast', 'a, b und c')
    """

    viewer: int | None
    names: Sequence[str] | None = None

    def me(self, seat: int) -> bool:
        """Whether ``seat`` is the viewer's."""
        return self.viewer is not None and seat == self.viewer

    def name(self, seat: int) -> str:
        """The seat's name, whoever reads it."""
        if self.names is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        return f"Platz {seat}"

    def _or_me(self, seat: int, word: str, capital: bool = False) -> str:
        if not self.me(seat):
            return self.name(seat)
        return word.capitalize() if capital else word

    def nom(self, seat: int, capital: bool = False) -> str:
        """Nominative: "du" / "Du" / "Platz 2"."""
        return self._or_me(seat, "du", capital)

    def res(self, seat: int, capital: bool = False) -> str:
        """Nominative in words about scores or who won: "du" / "Sitzplatz 2" (a default
        name would read like a rank there: :func:`result_name`)."""
        return self._or_me(seat, "du", capital) if self.me(seat) else _sitzplatz(self.name(seat))

    def dat(self, seat: int) -> str:
        """Dative: "dir" / "Platz 2"."""
        return self._or_me(seat, "dir")

    def acc(self, seat: int) -> str:
        """Accusative: "dich" / "Platz 2"."""
        return self._or_me(seat, "dich")

    def von(self, seat: int) -> str:
        """Whose, before a noun: "von dir" / "von Platz 2"."""
        return f"von {self.dat(seat)}"

    def v(self, seat: int, du: str, er: str) -> str:
        """The verb for the seat: ``v(s, "hast", "hat")``."""
        return du if self.me(seat) else er

    def does(self, seat: int, du: str, er: str, rest: str = "") -> str:
        """A sentence: "Du nimmst …" / "Platz 2 nimmt …"."""
        return f"{self.nom(seat, True)} {self.v(seat, du, er)}" + (f" {rest}" if rest else "")

    @staticmethod
    def join(items: Sequence[str]) -> str:
        """ "A, B und C"."""
        if len(items) > 1:
            return f"{', '.join(items[:-1])} und {items[-1]}"
        return "".join(items)


Describe = Callable[..., str]

__all__ = [
    "ENGLISH",
    "LANGUAGES",
    "Describe",
    "GermanSeats",
    "Lookups",
    "Translator",
    "check_language",
    "current_language",
    "language_from_env",
    "listed",
    "localized",
    "recording_lookups",
    "result_name",
    "result_seat",
    "screen_seat",
    "translation",
    "use_language",
]
