"""The command line's own words in the player's language: Typer's usage errors (a bad
value, a missing argument, an unknown option or command, an extra argument) and the
fixed words of its help screens ("Usage:", the panels' titles, "[default: …]").

Typer words these in English. In German the app's group and commands
(:class:`ThieveryGroup`, :class:`ThieveryCommand`) put them into German through Typer's
own hooks: a usage error is caught where the command line is parsed and run
(``make_context``/``invoke``) and raised again as the same kind of error (exit status 2)
with its words in German; the usage line through ``format_usage``'s ``prefix`` and
``collect_usage_pieces``; the help option's words through ``get_help_option``; the
panels' titles and the error box's words through :mod:`typer.rich_utils`' module-level
strings, set for the run and restored after it. An error's English words are matched
against the English templates below (:data:`ERRORS`); a bad value's words come from the
error pydantic gives (by its type, pydantic's documented error codes). Words no template
matches stay English (tests check every kind, so a Typer upgrade that rewords one fails
them rather than going English unnoticed).

The language of the command line is chosen before Click reads any option (an error can
come before ``--lang`` is read, or be in ``--lang`` itself): ``--lang CODE`` (or
``--lang=CODE``) in the arguments, the last one before ``--`` that names a language,
else the environment's (:func:`thievery.core.i18n.language_from_env`). It is only the
command line's: a command's own screens keep their language as before.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Any

from pydantic import ValidationError
from typer import rich_utils
from typer._click import Command, Context, HelpFormatter
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer.core import TyperCommand, TyperGroup, TyperOption

from thievery.core.i18n import (
    ENGLISH,
    LANGUAGES,
    Translator,
    current_language,
    language_from_env,
    use_language,
)

_ = Translator(__package__)

_CLI_LANGUAGE: ContextVar[str] = ContextVar("thievery_cli_language", default=ENGLISH)

# Typer's English words on its help screens and error box (typer.rich_utils), by name.
RICH_WORDS = {
    "ARGUMENTS_PANEL_TITLE": "Arguments",
    "OPTIONS_PANEL_TITLE": "Options",
    "COMMANDS_PANEL_TITLE": "Commands",
    "ERRORS_PANEL_TITLE": "Error",
    "DEFAULT_STRING": "[default: {}]",
    "REQUIRED_LONG_STRING": "[required]",
    "ENVVAR_STRING": "[env var: {}]",
    "DEPRECATED_STRING": "(deprecated) ",
    "ABORTED_TEXT": "Aborted.",
    "RICH_HELP": "Try [blue]'{command_path} {help_option}'[/] for help.",
}
USAGE_PREFIX = "Usage: "
# The usage line's placeholders (Click's defaults).
USAGE_PIECES = ("[OPTIONS]", "COMMAND [ARGS]...")
HELP_OPTION = "Show this message and exit."

# Typer's (Click's) usage errors, as it words them, most particular first; a {field}
# stands for any text, given to the translation as it is (``message``: translated too).
ERRORS = (
    "Invalid value for {hint}: {message}",
    "Invalid value: {message}",
    "Missing argument {hint}.",
    "Missing option {hint}.",
    "Missing parameter {hint}.",
    "No such option: {option} (Possible options: {options})",
    "No such option: {option}",
    "Option {option} requires an argument.",
    "Option {option} requires {n} arguments.",
    "Option {option} does not take a value.",
    "Argument {name} takes {n} values.",
    "Got unexpected extra argument(s) ({args})",
    "No such command {name}. Did you mean {names}?",
    "No such command {name}.",
    "Missing command.",
    "Value error, {value} is not one of {choices}.",
    "{label} {path} does not exist.",
    "{label} {path} is a file.",
    "{label} {path} is a directory.",
    "{label} {path} is not readable.",
    "{label} {path} is not writable.",
    # thievery's own refusals of a value, raised in English by a command that does not
    # speak the command line's language (--option NAME=VALUE; --lang in i18n.check_language)
    "an option is NAME=VALUE, not {pair}",
    "unknown language {lang} (languages: {languages})",
    "seconds above 0 and at most {most}, not {value}",  # (serve --bot-think-seconds)
)

# A bad value's words by the type of pydantic's error; {value} is the value given,
# {limit} the bound it broke.
VALUE_ERRORS = {
    "int_parsing": "{value} is not a whole number",
    "float_parsing": "{value} is not a number",
    "greater_than_equal": "{value} is too small (at least {limit})",
    "greater_than": "{value} is too small (more than {limit})",
    "less_than_equal": "{value} is too large (at most {limit})",
    "less_than": "{value} is too large (less than {limit})",
}
_LIMITS = ("ge", "gt", "le", "lt")


@cache
def _pattern(template: str) -> re.Pattern[str]:
    """``template`` as a pattern: its text as it is, each ``{field}`` any text."""
    parts = re.split(r"\{(\w+)\}", template)  # (text, field, text, field, …, text)
    return re.compile(
        "".join(f"(?P<{part}>.+?)" if i % 2 else re.escape(part) for i, part in enumerate(parts)),
        re.DOTALL,
    )


def _fields(template: str, text: str) -> dict[str, str] | None:
    """The fields of ``template`` in ``text``, if the template words it."""
    found = _pattern(template).fullmatch(text)
    return None if found is None else found.groupdict()


def german_words(text: str, cause: BaseException | None = None) -> str | None:
    """Typer's English ``text`` in the current language, or ``None`` if no template of
    :data:`ERRORS` matches it. ``cause``: the error behind it (pydantic's, for a bad
    value: its words come from it)."""
    for template in ERRORS:
        fields = _fields(template, text)
        if fields is None:
            continue
        if "message" in fields:
            fields["message"] = (
                _value_words(cause) or german_words(fields["message"]) or fields["message"]
            )
        return _(template, **fields)
    return None


def _value_words(cause: BaseException | None) -> str | None:
    if not isinstance(cause, ValidationError) or not cause.errors():
        return None
    error = cause.errors()[0]
    words = VALUE_ERRORS.get(error["type"])
    if words is None:
        return None
    value = error.get("input")
    bounds = error.get("ctx") or {}
    limit = next((bounds[name] for name in _LIMITS if name in bounds), "")
    shown = repr(value) if error["type"].endswith("parsing") else str(value)
    return _(words, value=shown, limit=limit)


def german_error(error: UsageError) -> UsageError:
    """``error`` in the current language: a :class:`UsageError` of the same context and
    exit status with its words translated, or ``error`` itself if they stay as they are
    (English, the help Typer shows for no arguments, words no template matches)."""
    if current_language() == ENGLISH or isinstance(error, NoArgsIsHelpError):
        return error
    words = german_words(error.format_message(), error.__cause__)
    if words is None:
        return error
    translated = UsageError(words, error.ctx)
    translated.exit_code = error.exit_code
    return translated


def cli_language(args: Sequence[str]) -> str:
    """The language of the command line ``args``: the last ``--lang CODE`` (or
    ``--lang=CODE``) naming a language, before any ``--``; else the environment's.

    >>> cli_language(["play", "x", "--lang", "de"]), cli_language(["--lang=en"])
    ('de', 'en')
    """
    found: str | None = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        value = args[i + 1] if arg == "--lang" and i + 1 < len(args) else None
        if arg.startswith("--lang="):
            value = arg.removeprefix("--lang=")
        code = None if value is None else value.strip().lower()
        if code in LANGUAGES:
            found = code
    return found or language_from_env()


@contextmanager
def _rich_words(lang: str) -> Iterator[None]:
    """Typer's help and error box words in ``lang`` for the block (in English, Typer's
    own, untouched)."""
    saved: dict[str, Any] = {}
    if lang != ENGLISH:
        with use_language(lang):
            for name, english in RICH_WORDS.items():
                if hasattr(rich_utils, name):  # (should Typer drop one: a test fails)
                    saved[name] = getattr(rich_utils, name)
                    setattr(rich_utils, name, _(english))
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(rich_utils, name, value)


@contextmanager
def _translated_errors() -> Iterator[None]:
    """A usage error in the block raised again in the command line's language (the
    block itself runs in its own: a command's screens keep theirs)."""
    try:
        yield
    except UsageError as error:
        with use_language(_CLI_LANGUAGE.get()):
            translated = german_error(error)
        if translated is error:
            raise
        raise translated from error


def _usage_pieces(pieces: list[str]) -> list[str]:
    if _CLI_LANGUAGE.get() == ENGLISH:
        return pieces
    with use_language(_CLI_LANGUAGE.get()):
        return [_(piece) if piece in USAGE_PIECES else piece for piece in pieces]


class _HelpWords(Command):
    """A command's or group's help words (usage line, help option) in the command
    line's language."""

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        return _usage_pieces(super().collect_usage_pieces(ctx))

    def format_usage(self, ctx: Context, formatter: HelpFormatter) -> None:
        with use_language(_CLI_LANGUAGE.get()):
            formatter.write_usage(
                ctx.command_path, " ".join(self.collect_usage_pieces(ctx)), _(USAGE_PREFIX)
            )

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        option = super().get_help_option(ctx)
        if option is not None:
            with use_language(_CLI_LANGUAGE.get()):
                option.help = _(HELP_OPTION)
        return option


class ThieveryCommand(_HelpWords, TyperCommand):
    """A `thievery` command: Typer's words in the command line's language."""


class ThieveryGroup(_HelpWords, TyperGroup):
    """The `thievery` command line: chooses its language (:func:`cli_language`), and its
    usage errors and help screens speak it."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        lang = cli_language(sys.argv[1:] if args is None else args)
        token = _CLI_LANGUAGE.set(lang)
        try:
            with _rich_words(lang):
                return super().main(
                    args, prog_name, complete_var, standalone_mode, windows_expand_args, **extra
                )
        finally:
            _CLI_LANGUAGE.reset(token)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: Context | None = None,
        **extra: Any,
    ) -> Context:
        with _translated_errors():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Context) -> Any:
        with _translated_errors():
            return super().invoke(ctx)
