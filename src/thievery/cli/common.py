"""Helpers shared by the subcommands: option parsing and error display."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, NoReturn

import typer

from thievery.core.errors import ThieveryError, error_code
from thievery.core.i18n import ENGLISH, Translator, current_language
from thievery.core.protocol import GameSpec
from thievery.core.registry import game as get_game

_ = Translator(__package__)


def parse_options(pairs: list[str] | None, cards: Path | None = None) -> dict[str, Any]:
    """``["games=1", "all_close_rule=would_succeed"]`` -> a dict (values read as JSON
    when they parse, else kept as strings); ``--cards FILE`` is the option ``cards``."""
    options: dict[str, Any] = {} if cards is None else {"cards": str(cards)}
    for pair in pairs or []:
        if "=" not in pair:
            raise typer.BadParameter(_("an option is NAME=VALUE, not {pair}", pair=repr(pair)))
        name, raw = pair.split("=", 1)
        try:
            options[name.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            options[name.strip()] = raw
    return options


def check_writable(path: Path, option: str) -> None:
    """Refuse a file an ``option`` names that could not be written, before the work that
    would fill it rather than after."""
    folder = path.parent
    if path.is_dir():
        fail(_("{option}: {file} is a folder, not a file", option=option, file=path))
    if not folder.is_dir():
        fail(_("{option}: there is no folder {folder}", option=option, folder=folder))
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        fail(_("{option}: {file} cannot be written", option=option, file=path))


def check_folder_writable(path: Path, option: str) -> None:
    """Refuse a folder an ``option`` names that could not be made or written into, before
    the work that would fill it rather than after."""
    if path.exists() and not path.is_dir():
        fail(_("{option}: {file} is a file, not a folder", option=option, file=path))
    existing = path
    while not existing.exists():  # (the folder is made, with its parents, if need be)
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        fail(_("{option}: {file} cannot be written", option=option, file=path))


def load_game(name: str) -> GameSpec:
    """The spec of ``name`` or a clean exit with the error."""
    try:
        return get_game(name)
    except ThieveryError as e:
        refuse(e)


# What kind of refusal an error is, by its code, said first in a language other than
# English: the engine words its refusals in English, and they follow in brackets.
KINDS = {
    "game/unknown": "no such game",
    "options/invalid": "not allowed",
    "record/invalid": "not a game record that replays",
    "action/malformed": "not an action",
    "action/illegal": "not a legal action now",
}


def refuse(error: Exception) -> NoReturn:
    """Exit with an engine's (or the system's) refusal: in English its own words; in
    another language its kind in that language first, its words in brackets."""
    message = str(error)
    if current_language() != ENGLISH:
        kind = KINDS.get(error_code(error), "refused")
        message = _("{kind} ({words})", kind=_(kind), words=message)
    fail(message)


def fail(message: str) -> NoReturn:
    """Print an error and exit with status 2."""
    typer.secho(_("error: {message}", message=message), fg=typer.colors.RED, err=True)
    raise typer.Exit(2)
