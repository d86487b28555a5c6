"""Seats: who sits where (a human reached by a token, or a bot), their names and tokens.

A token is never stored, only its hash, and is checked in constant time. Names must tell
seats apart in a log that says "you" to each reader about their own seat.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from thievery.bots.base import bot_names, make_bot
from thievery.core.protocol import JSON, NAME_LIMIT, default_seat_name
from thievery.server.errors import ServerError

HUMAN, BOT = "human", "bot"
RESERVED_NAMES = ("you", "your")  # the log's words for the reader's own seat


def clean_name(raw: object) -> str:
    r"""A seat's name as shown: Unicode NFKC, without control, format (zero-width, bidi)
    or other invisible characters, spaces collapsed, at most ``NAME_LIMIT`` characters.
    Names are cleaned before the clash rules, so look-alikes cannot pass as different.

    >>> clean_name("  Ann\u200b \u202eBob\x00 ")
    'Ann Bob'
    >>> clean_name("ＹＯＵ")
    'YOU'
    """
    text = unicodedata.normalize("NFKC", str(raw or ""))
    kept = "".join(c for c in text if unicodedata.category(c)[0] not in "C")
    return re.sub(r"\s+", " ", kept).strip()[:NAME_LIMIT].strip()


def hash_token(token: str) -> str:
    """The stored form of a token (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh, unguessable seat or host token."""
    return secrets.token_urlsafe(24)


def is_token_of(digest: str, token: str | None) -> bool:
    """Whether ``token`` is the one stored as ``digest`` (no token never is)."""
    return bool(token) and hmac.compare_digest(digest, hash_token(token or ""))


def check_names(names: Sequence[str]) -> None:
    """Refuse seat names a log could not tell apart: two the same (ignoring case) or the
    words the log uses for the reader ("you")."""
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        key = clean_name(name).casefold()
        if key in RESERVED_NAMES:
            raise ServerError(
                "seat/name",
                f"seat {seat} cannot be named {name!r}: logs say "
                "'you' to each player about their own seat",
            )
        if key in seen:
            raise ServerError(
                "seat/name",
                f"seats {seen[key]} and {seat} are both named {name!r}; "
                "give each seat its own name",
            )
        seen[key] = seat


def timeout_bot_for(game: str) -> str:
    """The bot that moves for a human seat whose turn timer ran out (and a bot seat's
    bot when the request names none)."""
    names = bot_names(game)
    return "heuristic" if "heuristic" in names else "random"


@dataclass
class Seat:
    """One seat: a human (reached through a token) or a bot; a human seat may be botted."""

    kind: str
    name: str
    bot: str | None = None  # who plays it now: a bot seat's bot, or a human seat's stand-in
    token_hash: str | None = None

    def stored(self) -> JSON:
        """The stored form (with the token hash)."""
        return {
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "token_hash": self.token_hash,
        }

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> Seat:
        """From the stored form."""
        return cls(str(data["kind"]), str(data["name"]), data.get("bot"), data.get("token_hash"))


def seat_of(seats: Sequence[Seat], token: str | None) -> int | None:
    """The seat a token acts for, or ``None``."""
    if not token:
        return None
    digest = hash_token(token)
    for i, seat in enumerate(seats):
        if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
            return i
    return None


def make_seat(
    game: str, seat: int, spec: Mapping[str, Any], seed: int, known_hash: str | None = None
) -> tuple[Seat, str | None]:
    """A seat from its request (``kind``, ``bot``, ``name``) and a new token for a human.

    With ``known_hash`` the human keeps an existing token (play again).
    """
    kind = spec.get("kind", HUMAN)
    bot = spec.get("bot")
    name = clean_name(spec.get("name"))
    if kind == BOT:
        bot = bot or timeout_bot_for(game)
        make_bot(bot, game, seat, seed)  # refuses unknown bots
        return Seat(BOT, name or default_seat_name(seat, bot), bot), None
    if kind != HUMAN:
        raise ServerError("seat/kind", f"a seat is 'human' or 'bot', not {kind!r}")
    if bot is not None:
        make_bot(bot, game, seat, seed)
    token = None if known_hash else new_token()
    digest = known_hash or hash_token(token or "")
    return Seat(HUMAN, name or default_seat_name(seat), bot, digest), token
