"""The server's own errors, each with a stable ``code`` and an HTTP status.

Game errors (:class:`thievery.core.errors.ThieveryError`) keep their own codes; this module
adds what only a server can get wrong: unknown tables, tokens, stale versions, frames.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from thievery.core.errors import ThieveryError

MESSAGE_LIMIT = 400  # characters in an error message
_LONG_RUN = re.compile(r"\S{61,}")


def shorten(message: str) -> str:
    """A message that echoes at most a short prefix of any input: every run of more
    than 60 characters without a space is cut to its first 40, and the whole to
    ``MESSAGE_LIMIT``."""
    short = _LONG_RUN.sub(lambda m: m.group(0)[:40] + "…", message)
    return short if len(short) <= MESSAGE_LIMIT else short[: MESSAGE_LIMIT - 1] + "…"


# HTTP status for each game error code.
GAME_STATUS = {
    "action/malformed": 400,
    "action/illegal": 409,
    "options/invalid": 400,
    "game/unknown": 404,
    "record/invalid": 400,
}


class ServerError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        message = shorten(message)
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_json(self) -> dict[str, str]:
        """The error frame / response body."""
        return {"type": "error", "code": self.code, "message": self.message}


def unknown_table(table_id: str) -> ServerError:
    """There is no such table."""
    return ServerError("table/unknown", f"there is no table {table_id!r}", 404)


def bad_token() -> ServerError:
    """The token is not a seat's (or host's) token at this table."""
    return ServerError("auth/token", "this token is not valid for this table", 403)


def invite_not_key(table_id: str) -> ServerError:
    """A seat's invite used as its token: an invite grants nothing but its exchange."""
    return ServerError(
        "auth/invite",
        "this token is a seat's invite, not its key: exchange it for the seat's key first "
        f"(POST /api/tables/{table_id}/exchange with the invite, or open the invite link)",
        403,
    )


def invite_used() -> ServerError:
    """An invite whose seat's player joined with it already (and got a key of their own)."""
    return ServerError(
        "auth/invite_used",
        "this invite link was used already: its player joined with it and has a key of "
        "their own (on that browser, 'Copy my seat link' gives a link to it)",
        403,
    )


def key_revoked(seat: int) -> ServerError:
    """A seat's key or invite made worthless: the host made a new invite for the seat."""
    return ServerError(
        "auth/revoked",
        f"the table's host made a new invite link for seat {seat}: this link to it no longer "
        "works (ask the host for the new one)",
        403,
    )


def not_host() -> ServerError:
    """Something only the table's host may do (its maker's browser holds the host token)."""
    return ServerError(
        "auth/host", "only the table's host (the browser that made it) may do this", 403
    )


def stale(version: int, current: int) -> ServerError:
    """The action was made against an older state (or one the seat never had)."""
    if 0 <= version <= current:
        why = f"the table has moved on (you sent version {version}, it is now {current})"
    else:
        why = f"this seat never had version {version} (it counts from 0 and is now {current})"
    return ServerError("action/stale", f"{why}; look again and choose", 409)


def from_game_error(error: ThieveryError) -> ServerError:
    """A game error as a server error with the same code."""
    return ServerError(error.code, str(error), GAME_STATUS.get(error.code, 400))


def int_arg(args: Mapping[str, Any], name: str) -> int | None:
    """A forwarded call's whole number ``name`` (``None`` if it has none); else refused
    (``frame/malformed``): processes check each other's calls as a client's."""
    value = args.get(name)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise ServerError("frame/malformed", f"a forwarded call's {name} is a whole number")
    return value


def str_arg(args: Mapping[str, Any], name: str) -> str:
    """A forwarded call's text ``name``; else refused (``frame/malformed``)."""
    value = args.get(name)
    if not isinstance(value, str):
        raise ServerError("frame/malformed", f"a forwarded call has a {name}")
    return value
