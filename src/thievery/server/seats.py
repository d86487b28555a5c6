"""Seats: who sits where (a human reached by a token, or a bot), their names and tokens.

A human seat of a new table has an *invite* (the token in its invite link, which whoever
made the table holds too) and, once exchanged, a *key* of its own. An invite grants
nothing but its exchange: the first join with it over the table's websocket, or
``POST /api/tables/{id}/exchange``, gives the seat a fresh key that only that caller
gets, and from then on the invite is worth nothing. Only a key acts for its seat
(:func:`seat_of`): a waiting invite reads no hand and plays no move, so the table's maker
can neither read an invited friend's hand before they arrive nor go on reading it after.
One exception, never unseen: for a player who lost their link, the host may give a seat
nobody is connected at a new invite (:meth:`Seat.reinvite`). Its key and old invite are
worthless from then on; every seat list marks the seat (``reinvited``), everyone connected
is told, and whoever comes back with the old key or invite is told why (``auth/revoked``).
A host who exchanged that new invite themself could read the seat's hand: the player and
the table would know. Tables made before invites have keys only, as before. A token is
never stored, only its hash, and is checked in constant time. Names must tell seats apart
in a log that says "you" to each reader about their own seat.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from thievery.bots.base import bot_names, make_bot
from thievery.core.protocol import JSON, NAME_LIMIT, default_seat_name
from thievery.server.errors import ServerError

HUMAN, BOT = "human", "bot"
# A seat's worthless key and invite remembered, to say why they fail: the last new
# invite's (the seats go whole in every PostgreSQL notification, under 8,000 bytes).
REVOKED_KEPT = 2
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
    if not raw:  # (most seats: no name asked for)
        return ""
    text = unicodedata.normalize("NFKC", str(raw))
    kept = "".join(c for c in text if unicodedata.category(c)[0] not in "C")
    return _SPACES.sub(" ", kept).strip()[:NAME_LIMIT].strip()


_SPACES = re.compile(r"\s+")


def hash_token(token: str) -> str:
    """The stored form of a token (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


# A seat's key a client made (an invite's exchange, a lobby claim): as new_token makes
# them (24 random bytes, base64url: 32 characters), or longer.
CLIENT_KEY = r"^[A-Za-z0-9_-]{32,64}$"


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


# A seat's key and invite hashes, its new invites and their revoked hashes (Seat.hashes).
Known = tuple[str | None, str | None, int, tuple[str, ...]]


@dataclass
class Seat:
    """One seat: a human (reached through a token) or a bot; a human seat may be botted."""

    kind: str
    name: str
    bot: str | None = None  # who plays it now: a bot seat's bot, or a human seat's stand-in
    token_hash: str | None = None  # its key (None: its invite not exchanged yet)
    invite_hash: str | None = None  # its invite (None: a claimed seat, an older table)
    reinvited: int = 0  # new invites the host made for it (everyone at the table sees it)
    # The hashes of the key and invite its last new invite made worthless: whoever comes
    # back with one is told why it no longer works.
    revoked: tuple[str, ...] = ()

    def stored(self) -> JSON:
        """The stored form (with the token hashes)."""
        stored: JSON = {
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "token_hash": self.token_hash,
            "invite_hash": self.invite_hash,
        }
        if self.reinvited:
            stored |= {"reinvited": self.reinvited, "revoked": list(self.revoked)}
        return stored

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> Seat:
        """From the stored form."""
        return cls(
            str(data["kind"]),
            str(data["name"]),
            data.get("bot"),
            data.get("token_hash"),
            data.get("invite_hash"),
            int(data.get("reinvited", 0)),
            tuple(data.get("revoked", ())),
        )

    def reinvite(self, invite_hash: str) -> None:
        """The host's new invite: the seat waits for it, its key and old invite worthless."""
        gone = tuple(h for h in (self.token_hash, self.invite_hash) if h)
        self.revoked = (*self.revoked, *gone)[-REVOKED_KEPT:]
        self.token_hash, self.invite_hash = None, invite_hash
        self.reinvited += 1

    @property
    def invited(self) -> bool:
        """Whether its invite waits to be exchanged (the seat has no key yet)."""
        return self.token_hash is None and self.invite_hash is not None

    def hashes(self) -> Known:
        """Its key's and its invite's hashes, and its new invites' marks (the next table
        keeps them: play again; a key its new invite replaced is still told why)."""
        return self.token_hash, self.invite_hash, self.reinvited, self.revoked


def _first(seats: Sequence[Seat], digest: str, held: Callable[[Seat], str | None]) -> int | None:
    """The first seat whose ``held`` hash is ``digest`` (compared in constant time)."""
    for i, seat in enumerate(seats):
        mine = held(seat)
        if mine and hmac.compare_digest(mine, digest):
            return i
    return None


def seat_of(seats: Sequence[Seat], token: str | None) -> int | None:
    """The seat whose key ``token`` is, or ``None`` (an invite, waiting or used, is no
    seat's key: it acts for nobody)."""
    return _first(seats, hash_token(token), lambda s: s.token_hash) if token else None


def invite_of(seats: Sequence[Seat], token: str | None) -> int | None:
    """The seat whose invite ``token`` is, exchanged or not, or ``None``."""
    return _first(seats, hash_token(token), lambda s: s.invite_hash) if token else None


def revoked_seat(seats: Sequence[Seat], token: str | None) -> int | None:
    """The seat whose key or invite ``token`` was until the host made it a new invite."""
    if not token:
        return None
    digest = hash_token(token)
    for i, seat in enumerate(seats):
        if any(hmac.compare_digest(h, digest) for h in seat.revoked):
            return i
    return None


def waiting_seat(seats: Sequence[Seat], token: str | None) -> int | None:
    """The seat whose invite, not exchanged yet, ``token`` is, or ``None``."""
    return waiting_invite(seats, hash_token(token)) if token else None


def waiting_invite(seats: Sequence[Seat], invite_hash: str) -> int | None:
    """The seat whose invite, not exchanged yet, has this hash, or ``None``."""
    return _first(seats, invite_hash, lambda s: s.invite_hash if s.invited else None)


def holds_key(seat: Seat, key_hash: str) -> bool:
    """Whether ``seat``'s key has this hash (compared in constant time)."""
    return seat.token_hash is not None and hmac.compare_digest(seat.token_hash, key_hash)


def exchanged_for(seats: Sequence[Seat], invite_hash: str, key_hash: str) -> int | None:
    """The seat whose invite has this hash and was exchanged for the key with this hash
    (an exchange already made: only the process that made the key knows it), or ``None``."""
    seat = _first(seats, invite_hash, lambda s: s.invite_hash)
    return seat if seat is not None and holds_key(seats[seat], key_hash) else None


def make_seat(
    game: str,
    seat: int,
    spec: Mapping[str, Any],
    seed: int,
    known: Known | None = None,
) -> tuple[Seat, str | None]:
    """A seat from its request (``kind``, ``bot``, ``name``) and, for a human, a new
    invite (to be exchanged for the seat's key).

    With ``known`` (a seat's :meth:`Seat.hashes`) the human keeps their key and invite,
    and the seat its new invites' marks (play again); no token is made.
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
    if known is not None and any(known[:2]):
        return Seat(HUMAN, name or default_seat_name(seat), bot, *known), None
    invite = new_token()
    return Seat(HUMAN, name or default_seat_name(seat), bot, None, hash_token(invite)), invite
