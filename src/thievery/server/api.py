"""The JSON HTTP API: games, tables, seats, actions, records and replays.

Everything the pages do goes through here (or the table websocket), so other clients can
be written against it; FastAPI documents it at ``/docs``. A seat's key (or the host's
token) travels in the ``Authorization: Bearer …`` header. A new table's seats have invites,
not keys: ``POST /api/tables/{id}/exchange`` with an invite answers its seat's key (as
does the first websocket join with it); any other use of an invite is refused with
``auth/invite`` (:mod:`~thievery.server.seats`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, NamedTuple

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field

from thievery.bots.base import bot_names
from thievery.core.protocol import NAME_LIMIT
from thievery.core.record import GameRecord
from thievery.core.registry import playable, plugin
from thievery.server.audience import describe_all
from thievery.server.chat import Chat
from thievery.server.errors import ServerError, not_host
from thievery.server.hub import Hub
from thievery.server.limits import client_key
from thievery.server.lobby import Lobby, game_title
from thievery.server.replay import parse_perspective, record_from_json
from thievery.server.schemas import (
    EventWords,
    GameInfo,
    OpenTable,
    RecordJSON,
    Replay,
    StateFrame,
    TableList,
    TableSummary,
    ref,
)
from thievery.server.seats import CLIENT_KEY, Seat
from thievery.server.sockets import Limits, TableSockets
from thievery.server.storage import TableRecord

JSON = dict[str, Any]
MINE = 100  # tables a request may name to have listed though unlisted (GET /api/tables)

bearer = HTTPBearer(
    auto_error=False,
    description="a seat's key (not its invite: exchange that first), or the table's host token",
)


def credentials_of(
    request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
) -> HTTPAuthorizationCredentials | None:
    """The request's token (``Authorization: Bearer …``), or ``None`` if it sends none. A
    token sent anywhere else (another scheme, the address) is refused, not ignored: the
    caller would be answered as a spectator without knowing why."""
    if credentials is None and (
        "authorization" in request.headers or "token" in request.query_params
    ):
        raise ServerError(
            "auth/token",
            "a token goes in the Authorization header, as 'Authorization: Bearer TOKEN' "
            "(not in the address, nor with another scheme)",
            403,
        )
    return credentials


Token = Annotated[HTTPAuthorizationCredentials | None, Depends(credentials_of)]


class SeatSpec(BaseModel):
    """Who sits in a seat: a human (gets an invite token) or a named bot."""

    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(None, description="the bot's name (bot seats)", max_length=64)
    name: str | None = Field(None, description="a name to show", max_length=NAME_LIMIT)


class CreateTable(BaseModel):
    """A new table: the game, its seats in order, options and an optional turn timer."""

    game: str = Field(examples=["schattendieb"], max_length=64)
    seats: list[SeatSpec] = Field(min_length=1, max_length=16)
    options: dict[str, Any] = Field(default_factory=dict)
    # (strict: "5" is not a seed, nor "yes" a yes; a program sending them has a bug)
    seed: int | None = Field(
        None,
        ge=0,
        lt=2**53,
        strict=True,
        description="scenario tables only (default: the server's CSPRNG)",
    )
    scenario: bool = Field(
        False,
        strict=True,
        description="the creator chooses the deal (seed, stacked options); every seat, "
        "spectator, listing and record shows the table as a scenario, its deal in the open",
    )
    turn_seconds: float | None = Field(
        None, strict=True, description="on timeout a bot moves for the seat; default: no timer"
    )
    timeout_bot: str | None = Field(None, max_length=64)
    listed: bool = Field(
        False,
        strict=True,
        description="list the table in the lobby (GET /api/tables/open): strangers may "
        "take its human seats but the first (the creator's) until they are used; "
        "default: private, its seats reached only through their invite links",
    )


class SeatToken(BaseModel):
    """A human seat's secret token and its link: a new table's seat's invite (to be
    exchanged for the seat's key), or a claimed seat's key."""

    seat: int
    name: str
    token: str
    invite: str


class NewInvite(SeatToken):
    """A host's new invite for a seat, with the seat's count of them (this one included)
    as every seats list will say it: a page keeping the link knows a list from before it."""

    reinvited: int


class SeatKey(BaseModel):
    """An exchanged invite's seat and the seat's own key (its token from now on)."""

    seat: int
    key: str


class CreatedTable(BaseModel):
    """The new table, the human seats' tokens and the host's token (shown once)."""

    table: Annotated[JSON, ref(TableSummary)]  # (its summary, not validated again)
    seats: list[SeatToken]
    host_token: str
    listed: bool = Field(False, description="whether the lobby lists it (free seats to take)")


class ActRequest(BaseModel):
    """An action in its JSON form, and the version the seat last saw (refused as stale if
    the seat's legal actions changed since, or it acted since)."""

    action: Any = Field(examples=[{"type": "play", "card": "ring-6b"}])
    version: int | None = Field(
        None, strict=True, description="the seat's version; omit to skip the check"
    )


class ActResponse(BaseModel):
    """The seat's new version and the events it may see."""

    version: int
    events: list[Annotated[JSON, ref(EventWords)]]


class ExchangeRequest(BaseModel):
    """An invite's exchange: the seat's key if the client makes it."""

    key: str | None = Field(
        None,
        pattern=CLIENT_KEY,
        description="the seat's key, made by the client: 32 to 64 URL-safe characters, "
        "at least 24 random bytes (base64url). The exchange asked again with the same "
        "invite and key after its answer was lost is answered as made (once the key is "
        "stored), so the key is never lost; without one, the server makes the key",
    )


class ClaimRequest(BaseModel):
    """Taking a free seat of a listed table: the name to show for it (default: the seat's),
    and the seat's key if the client makes it."""

    name: str | None = Field(None, description="a name to show", max_length=NAME_LIMIT)
    key: str | None = Field(
        None,
        pattern=CLIENT_KEY,
        description="the seat's key, made by the client: 32 to 64 URL-safe characters, "
        "at least 24 random bytes (base64url). A claim asked again with the same key after "
        "its answer was lost or unsure (503, a network failure) is answered as made if it "
        "was made, so the key is never lost; without one, the server makes the key",
    )


class BotRequest(BaseModel):
    """Hand a seat to a bot by name, or ``null`` to give it back to its human."""

    bot: str | None = Field(None, max_length=64)


class Error(BaseModel):
    """Every refused request: a stable code and a message."""

    type: Literal["error"] = "error"
    code: str
    message: str


EVERY_ROUTE = (405, 413, 500)  # another method on its path; a request past the size cap; a failure


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """A route's error answers for its documentation: ``codes`` and what any route may
    answer (:data:`EVERY_ROUTE`), each an :class:`Error`. (Past the server's connection
    cap uvicorn itself answers 503, in plain text, before any route.)"""
    return {code: {"model": Error} for code in sorted({*codes, *EVERY_ROUTE})}


def text_errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """:func:`errors` for a route whose own answer is not JSON (FastAPI would document
    its errors in the route's media type): the error's schema under application/json, as
    it is sent."""
    return {
        code: {
            "description": "Error",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
        for code in errors(*codes)
    }


def answers(model: Any, *codes: int) -> dict[int | str, dict[str, Any]]:
    """A route's documented answers: ``model`` (a schema of :mod:`~thievery.server.schemas`,
    for a route that answers plain JSON) and its errors."""
    return {200: {"model": model, "description": "Successful Response"}, **errors(*codes)}


class MarkdownResponse(PlainTextResponse):
    """Markdown text."""

    media_type = "text/markdown"


def _record_body(body: bytes) -> GameRecord:
    """An uploaded record from its JSON body; 422 if it is no JSON object."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise ServerError("request/invalid", "the body is a game record (JSON)", 422) from None
    if not isinstance(data, dict):
        raise ServerError("request/invalid", "the body is a game record (a JSON object)", 422)
    return record_from_json(data)


def client_of(request: Request) -> str:
    """Who is asking, for rate limits and caps: the client's address (behind a reverse
    proxy, uvicorn takes it from ``X-Forwarded-For`` when the proxy is trusted). An IPv6
    client counts by its /64 (:func:`client_key`), as over websockets."""
    return client_key(request.client.host if request.client else "?")


def _token(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    return credentials.credentials if credentials is not None else None


def stored_summary(record: TableRecord) -> JSON:
    """A table from storage (finished, or not loaded yet), for listings (a game no longer
    installed listed by its name)."""
    return {
        "id": record.id,
        "game": record.game,
        "title": game_title(record.game),
        "players": record.players,
        "seats": [
            {
                "seat": i,
                "kind": s["kind"],
                "name": s["name"],
                "bot": s.get("bot"),
                "invited": Seat.from_stored(s).invited,
            }
            for i, s in enumerate(record.seats)
        ],
        "over": record.finished,
        "loaded": False,
        "result": record.result,
        # (stored only once a game ends: unknown for a running table not in memory)
        "actions": record.actions if record.finished else None,
        "created_at": record.created_at,
        "finished_at": record.finished_at,
        "next_id": record.next_id,
    }


class Routes(NamedTuple):
    """The API's routes and what :class:`~thievery.server.app.ThieveryApp` serves ahead
    of them: the tables' websockets, and a new table's request."""

    router: APIRouter
    sockets: TableSockets
    create: Callable[[CreateTable, Request], Awaitable[CreatedTable]]


def make_router(hub: Hub, limits: Limits) -> Routes:
    """The API's routes, bound to one hub, and what serves the tables' websockets
    (``/api/tables/{id}/ws``: see :class:`~thievery.server.app.ThieveryApp`)."""
    router = APIRouter(prefix="/api")
    chat = Chat(limits.chat_rate, limits.chat_burst, rooms=hub.caps.live_tables, hub=hub)
    lobby = Lobby(hub)

    def invites(request: Request, table_id: str) -> Callable[[str], str]:
        """A table's invite links for its seats' tokens."""
        base = hub.public_url or str(request.base_url).rstrip("/")  # (made once a request)
        return lambda token: f"{base}/table/{table_id}#token={token}"

    @router.get("/games", tags=["games"], response_model=None, responses=answers(list[GameInfo]))
    def list_games() -> list[JSON]:
        """Every game: its spec (players, options) and the bots that can play it."""
        return [{**g.spec.info(), "bots": bot_names(g.name)} for g in playable()]

    @router.get(
        "/games/{name}/rules",
        tags=["games"],
        response_class=MarkdownResponse,
        responses=text_errors(404),
    )
    def game_rules(name: str, lang: str = "en") -> PlainTextResponse:
        """A game's rules decisions (Markdown), from the game's own package; ``lang=de``
        for its German page where the game has one (else the English one)."""
        text = plugin(name).rules_text(lang[:8])
        if text is None:
            raise ServerError("game/no_rules", f"{name} has no rules page", 404)
        return PlainTextResponse(text, media_type="text/markdown; charset=utf-8")

    async def create(body: CreateTable, request: Request) -> CreatedTable:
        client = client_of(request)
        hub.check_create(client, [s.model_dump() for s in body.seats], body.options)
        await hub.check_made(client)
        table, tokens, host = await hub.create(
            body.game,
            [s.model_dump() for s in body.seats],
            body.options,
            seed=body.seed,
            scenario=body.scenario,
            turn_seconds=body.turn_seconds,
            timeout_bot=body.timeout_bot,
            client=client,
            listed=body.listed,
        )
        invite = invites(request, table.id)
        seats = [
            SeatToken(seat=i, name=table.seats[i].name, token=t, invite=invite(t))
            for i, t in enumerate(tokens)
            if t is not None
        ]
        listed = await lobby.list_table(table, body.listed)
        return CreatedTable(
            table=table.summary(), seats=seats, host_token=host or "", listed=listed
        )

    @router.post(
        "/tables", tags=["tables"], status_code=201, responses=errors(400, 404, 422, 429, 503)
    )
    async def create_table(body: CreateTable, request: Request) -> CreatedTable:
        """Create a table; returns an invite token for every human seat, and a host token.

        An invite is not the seat's key: it grants nothing but its exchange for the key
        (``POST /api/tables/{id}/exchange``, or the first websocket join with it), which
        only its player should do; used as a seat's token it is refused (``auth/invite``).

        Capped per client (a rate, and unfinished tables at once), per server (live
        tables), per table (bot seats) and in the options' size: 429 or 413 past them.
        (On the server, a plain request is served ahead of FastAPI's layers, by the same
        code: :class:`~thievery.server.app.QuickCreate`.)"""
        return await create(body, request)

    @router.get(
        "/tables/open",
        tags=["tables"],
        response_model=None,
        responses=answers(list[OpenTable], 422, 429),
    )
    async def open_tables(request: Request, limit: int = Query(50, ge=1, le=200)) -> list[JSON]:
        """Tables waiting for players: those their host listed, with a free human seat
        (newest first): game, seats (``free`` marks the ones to take), age. Finished and
        full tables are not listed."""
        hub.read_limit.check(client_of(request))
        return await lobby.open_tables(limit)

    @router.post(
        "/tables/{table_id}/seats/{seat}/claim",
        tags=["tables"],
        responses=errors(400, 403, 404, 409, 422, 429, 503),
    )
    async def claim_seat(
        table_id: str, seat: int, request: Request, body: ClaimRequest | None = None
    ) -> SeatToken:
        """Take a free seat of a listed table: a fresh token for it (keep it: it is the
        seat's only key; the seat's old invite link stops working), optionally with a
        name. Only listed tables, only free human seats; one claim wins a seat. Counts
        against the client's rate of new tables."""
        hub.create_limit.check(client_of(request), "new tables and seat claims")
        table = await hub.get(table_id)
        name, key = (body.name, body.key) if body else (None, None)
        token = await lobby.claim(table, seat, name, key)
        return SeatToken(
            seat=seat,
            name=table.seats[seat].name,
            token=token,
            invite=invites(request, table.id)(token),
        )

    @router.get(
        "/tables", tags=["tables"], response_model=None, responses=answers(TableList, 422, 429)
    )
    async def list_tables(
        request: Request,
        finished: int = Query(20, ge=0, le=200),
        mine: str = Query(
            "",
            max_length=MINE * 33,
            description=f"table ids, comma-separated (at most {MINE}): unlisted tables "
            "listed for this request too (a browser's own tables, by the ids it holds)",
        ),
    ) -> JSON:
        """Listed tables (their creators listed them): running ones, to watch or rejoin
        (the newest 200, stored ones not loaded yet among them), and the most recently
        finished ones. An unlisted table is reached by its links only: it is listed for a
        request that names it in ``mine``. ``next``: of the tables named in ``mine``, those
        played again, each with its next table's id (however long ago they finished)."""
        hub.read_limit.check(client_of(request))
        own = [i for i in mine.split(",") if 0 < len(i) <= 32][:MINE]
        named = set(own)
        shown = (t for t in hub.live() if t.record.listed or t.id in named)
        live = sorted(shown, key=lambda t: -t.record.created_at)[:200]
        stored = await asyncio.to_thread(hub.storage.listing, False, 200, own)
        known = {t.id for t in hub.tables.values()}
        waiting = [r for r in stored if r.id not in known and r.id not in hub.quarantined]
        done = await asyncio.to_thread(hub.storage.listing, True, finished, own) if finished else []
        followed = await asyncio.to_thread(hub.storage.followed, own)
        return {
            "live": [t.summary() for t in live] + [stored_summary(r) for r in waiting],
            "finished": [stored_summary(r) for r in done],
            "next": followed,
        }

    @router.get(
        "/tables/{table_id}",
        tags=["tables"],
        response_model=None,
        responses=answers(TableSummary, 404, 429, 503),
    )
    async def get_table(table_id: str, request: Request) -> JSON:
        """One table: game, seats (who is connected), who is to act, the result."""
        hub.read_limit.check(client_of(request))
        if hub.cluster is not None and table_id not in hub.tables and len(table_id) <= 32:
            # (run by another process: asked there, not copied here; see read_at_owner)
            reply = await hub.cluster.read_at_owner(table_id, "summary")
            if reply is not None:
                summary: JSON = reply["summary"]
                return summary
        return (await hub.get(table_id)).summary()

    @router.get(
        "/tables/{table_id}/state",
        tags=["play"],
        response_model=None,
        responses=answers(StateFrame, 403, 404, 429, 503),
    )
    async def get_state(table_id: str, credentials: Token, request: Request) -> JSON:
        """Everything the token's seat may know now (no token: the spectator's), with the log."""
        hub.read_limit.check(client_of(request))
        table = await hub.get(table_id)
        token = _token(credentials)
        seat = table.seat_of(token)
        if token and seat is None:
            raise table.refusal(token)
        if seat is not None:
            lobby.seat_used(table, seat)
        return table.welcome(seat)

    @router.post(
        "/tables/{table_id}/exchange", tags=["play"], responses=errors(400, 403, 404, 422, 429, 503)
    )
    async def exchange_invite(
        table_id: str,
        credentials: Token,
        request: Request,
        body: ExchangeRequest | None = None,
    ) -> SeatKey:
        """Exchange a seat's invite (the Bearer token: the ``token`` of ``POST /api/tables``,
        the one in the invite link) for the seat's own key, the seat's token from then on
        (keep it: it is shown once). An invite grants nothing else: used as a seat's token
        anywhere it is refused (``auth/invite``), and once exchanged (here, or by the first
        websocket join with it) it is worth nothing (a second exchange: ``auth/invite_used``;
        an invite the host's new invite for its seat replaced: ``auth/revoked``; not an
        invite of this table: ``auth/token``). The key is stored before it is answered; an
        exchange counts against the client's rate of actions. The client may make the key
        (``{"key": …}``): asked again with the same invite and key (its answer lost), the
        exchange is answered as made."""
        hub.action_limit.check(client_of(request))
        table = await hub.get(table_id)
        made = body.key if body else None
        seat, key = await table.exchange_invite(_token(credentials), made)
        lobby.seat_used(table, seat)
        return SeatKey(seat=seat, key=key)

    @router.post(
        "/tables/{table_id}/actions",
        tags=["play"],
        responses=errors(400, 403, 404, 409, 422, 429, 503),
    )
    async def act(
        table_id: str, body: ActRequest, credentials: Token, request: Request
    ) -> ActResponse:
        """Act for the token's seat (its key). Malformed, illegal and stale actions change
        nothing."""
        hub.action_limit.check(client_of(request))
        table, seat = await hub.authorize(table_id, _token(credentials))
        lobby.seat_used(table, seat)
        keyed = table.seats[seat].reinvited  # (a new invite meanwhile: the key is worthless)
        version, events = await table.act(seat, body.action, body.version, keyed=keyed)
        return ActResponse(
            version=version, events=describe_all(table.spec, events, seat, table.names)
        )

    @router.post(
        "/tables/{table_id}/seats/{seat}/bot",
        tags=["play"],
        response_model=None,
        responses=answers(TableSummary, 400, 403, 404, 409, 422, 429, 503),
    )
    async def hand_to_bot(
        table_id: str, seat: int, body: BotRequest, credentials: Token, request: Request
    ) -> JSON:
        """Hand a human seat to a bot, or take it back (the seat's own token or the
        host's). The host hands a seat to a bot only while nobody is connected at it (a
        player who left): a player at the table decides for their own seat (409
        ``seat/present``), or the host could make a bot move for them. Rate-limited as
        actions are (each is stored and told to everyone at the table)."""
        hub.action_limit.check(client_of(request))
        table = await hub.get(table_id)
        token = _token(credentials)
        own = table.seat_of(token) == seat
        if not own and not table.is_host(token):
            raise table.refusal(token)
        keyed = table.seats[seat].reinvited if own else None  # (see act)
        await table.set_bot(seat, body.bot, absent=not own, keyed=keyed)
        return table.summary()

    @router.post(
        "/tables/{table_id}/seats/{seat}/invite",
        tags=["tables"],
        responses=errors(403, 404, 409, 422, 429, 503),
    )
    async def new_invite(
        table_id: str, seat: int, credentials: Token, request: Request
    ) -> NewInvite:
        """A new invite link for a human seat (the host's token only), for a player who
        lost theirs or their seat's key (a cleared browser, another device). The seat
        waits for the new invite, as a new table's seat does: its old invite link and its
        key stop working at once. Only while nobody is connected at the seat (409
        ``seat/present``: a player there would be locked out of their own seat), and not
        once the game is over. Stored before it is answered. Never unseen: the seat's
        ``reinvited`` count goes up in every seats list, everyone connected gets a
        ``reinvited`` frame, and the old key or invite is refused with ``auth/revoked``."""
        hub.action_limit.check(client_of(request))
        table = await hub.get(table_id)
        if not table.is_host(_token(credentials)):
            raise not_host()
        invite = await table.new_invite(seat)
        return NewInvite(
            seat=seat,
            name=table.seats[seat].name,
            token=invite,
            invite=invites(request, table.id)(invite),
            reinvited=table.seats[seat].reinvited,
        )

    @router.post(
        "/tables/{table_id}/again",
        tags=["tables"],
        response_model=None,
        responses=answers(TableSummary, 400, 403, 404, 409, 429, 503),
    )
    async def play_again(table_id: str, credentials: Token, request: Request) -> JSON:
        """Play again: a new table with the same seats; everyone keeps their token. It
        counts against the caller's table caps like a new table."""
        table = await hub.get(table_id)
        token = _token(credentials)
        if table.seat_of(token) is None and not table.is_host(token):
            raise table.refusal(token)
        return (await hub.again(table, client_of(request))).summary()

    @router.post(
        "/tables/{table_id}/close",
        tags=["tables"],
        response_model=None,
        responses=answers(TableSummary, 403, 404, 409, 429, 503),
    )
    async def close_table(table_id: str, credentials: Token, request: Request) -> JSON:
        """Close a running table for good (the host's token only): its bots stop, every
        connection gets a ``closed`` frame, and it is stored as finished without a result."""
        hub.action_limit.check(client_of(request))
        table = await hub.get(table_id)
        if not table.is_host(_token(credentials)):
            raise not_host()  # (as for a new invite: only the host may)
        await hub.close_table(table)
        return table.summary()

    @router.get(
        "/tables/{table_id}/record",
        tags=["records"],
        response_model=None,
        responses=answers(RecordJSON, 404, 409, 422, 429, 503),
    )
    async def get_record(table_id: str, request: Request, download: bool = False) -> JSONResponse:
        """The game record of a finished table (replays with ``thievery replay FILE``)."""
        hub.read_limit.check(client_of(request))
        try:
            record = hub.record(await hub.get(table_id))
        except ServerError as e:
            # (a finished table set aside as its components changed: as it was stored)
            if e.code != "table/quarantined" or table_id not in hub.other_components:
                raise
            record = await hub.stored_record(table_id)
        headers = (
            {"Content-Disposition": f'attachment; filename="{record.game}-{table_id}.json"'}
            if download
            else {}
        )
        return JSONResponse(record.to_json(), headers=headers)

    def replay_response(body: tuple[bytes, bytes], request: Request) -> Response:
        raw, packed = body
        if "gzip" in request.headers.get("accept-encoding", "") and len(raw) > 2000:
            return Response(
                packed,
                media_type="application/json",
                headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"},
            )
        return Response(raw, media_type="application/json")

    PAGE = Query(0, ge=0, le=1_000_000, description="the first step to send (pages)")
    LIMIT = Query(None, ge=1, le=5000, description="how many steps (default: all)")

    @router.get(
        "/tables/{table_id}/replay",
        tags=["records"],
        response_model=None,
        responses=answers(Replay, 400, 404, 409, 413, 422, 429, 503),
    )
    async def get_replay(
        table_id: str,
        request: Request,
        perspective: str | None = Query(None, description="a seat, 'spectator' or 'all'"),
        start: int = PAGE,
        limit: int | None = LIMIT,
    ) -> Response:
        """A finished table step by step, as one seat saw it (or everything).

        Worked out off the event loop within a time budget, at most ``replay_bytes`` of
        JSON (past it: 413, ask for pages with ``start`` and ``limit``), cached."""
        table = await hub.get(table_id)
        record = hub.record(table)
        seen = parse_perspective(perspective, record.players)
        key = ("table", table.id)
        if (*key, seen, start, limit) not in hub.replayer.cache:
            hub.replay_limit.check(client_of(request))
        body = await hub.replayer.steps(record, seen, key=key, start=start, limit=limit)
        return replay_response(body, request)

    @router.post(
        "/replay",
        tags=["records"],
        response_model=None,
        responses=answers(Replay, 400, 413, 422, 429, 503),
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {"schema": {"type": "object", "title": "a game record"}}
                },
            }
        },
    )
    async def post_replay(
        request: Request,
        perspective: str | None = Query(None, description="a seat, 'spectator' or 'all'"),
        start: int = PAGE,
        limit: int | None = LIMIT,
    ) -> Response:
        """Any game record step by step, as one seat saw it (or everything); bounded
        like a table's replay. The rate limit is checked before the body is read, and
        the record is parsed in a worker thread."""
        hub.replay_limit.check(client_of(request))
        parsed = await asyncio.to_thread(_record_body, await request.body())
        seen = parse_perspective(perspective, parsed.players)
        body = await hub.replayer.steps(parsed, seen, start=start, limit=limit)
        return replay_response(body, request)

    return Routes(router, TableSockets(hub, limits, chat, lobby), create)
