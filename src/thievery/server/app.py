"""The FastAPI application: the API, the table websocket, the pages and their files.

``create_app(db_url)`` builds one; ``thievery serve`` runs it on uvicorn. Stored tables
are loaded when first used (lazy restore); on stop it stores what is queued.

Every refusal, from any route (unknown paths and methods too) and any websocket frame, is
``{"type": "error", "code": …, "message": …}`` (a frame also carries the request's
``id``). The API docs at ``/docs`` are one page made here from the OpenAPI schema (no
script, nothing from a CDN); the schema itself is ``/openapi.json``.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

import thievery
from thievery.bots.levels import LEVELS, level_words
from thievery.core.errors import ThieveryError
from thievery.core.i18n import use_language
from thievery.core.registry import plugin
from thievery.server.api import CreatedTable, CreateTable, make_router
from thievery.server.errors import ServerError, from_game_error
from thievery.server.hub import Hub
from thievery.server.limits import CapReached, Caps, RateLimited
from thievery.server.sockets import Limits, TableSockets, table_of
from thievery.server.storage import Storage

MAX_BODY = 4 << 20  # bytes in a request body (a long game record fits)
GZIP_FROM = 2000  # bytes of an answer from which it is compressed (for clients that take gzip)
WEB = Path(__file__).resolve().parent.parent / "web"
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
API_POLICY = "default-src 'none'; frame-ancestors 'none'"
log = logging.getLogger("thievery.server")


def revalidated(body: bytes, media: str, request: Request) -> Response:
    """A file made or read here, with an ETag so browsers revalidate instead of
    downloading it again (304 when theirs is current)."""
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers={"ETag": etag})
    return Response(body, media_type=f"{media}; charset=utf-8", headers={"ETag": etag})


def levels_script() -> bytes:
    """The module ``/static/js/levels.js``: the bots' level words (``LEVELS``: engine name
    -> English) and their German (``GERMAN``: English -> German), made from
    :mod:`thievery.bots.levels`, their one source."""
    with use_language("de"):
        german = {english: level_words(bot) for bot, english in LEVELS.items()}
    return (
        "// The bots' level words, made by the server from thievery.bots.levels.\n"
        f"export const LEVELS = {json.dumps(dict(LEVELS), ensure_ascii=False)};\n"
        f"export const GERMAN = {json.dumps(german, ensure_ascii=False)};\n"
    ).encode()


class ThieveryApp(FastAPI):
    """FastAPI, with the tables' websockets (``/api/tables/{id}/ws``) served straight from
    the ASGI scope, ahead of everything HTTP requests go through (FastAPI's and Starlette's
    own layers, compression, exception handlers, routing and dependencies): a connection
    lives as long as its player stays, and every layer it passed through would keep its
    frame, scope copy and exit stacks alive as long (measured with tracemalloc: about 7 KB
    a connection for the routing and middleware inside FastAPI's stack, 1.6 KB more for
    FastAPI's and Starlette's own outer layers). Anything else goes to FastAPI as usual.
    On uvicorn (``thievery serve``) the tables' websockets do not reach the app at all:
    :mod:`~thievery.server.wire` serves them on the connection itself; this path serves
    them on any other ASGI server and in tests' clients."""

    sockets: TableSockets | None = None  # (set once the routes are made)
    quick: QuickCreate | None = None  # (likewise)

    def openapi(self) -> dict[str, Any]:
        """FastAPI's schema, less the 422 it adds by itself (its ``HTTPValidationError``) to
        a route whose parameters cannot fail validation: a refused request's answer is
        always an ``Error``, and the routes that can give a 422 say so themselves."""
        schema = super().openapi()  # (made once and kept by FastAPI; this part is idempotent)
        for methods in schema.get("paths", {}).values():
            for operation in methods.values():
                answer = operation.get("responses", {}).get("422", {})
                if "HTTPValidationError" in str(answer.get("content")):
                    del operation["responses"]["422"]
        for name in ("HTTPValidationError", "ValidationError"):
            schema.get("components", {}).get("schemas", {}).pop(name, None)
        return schema

    def build_middleware_stack(self) -> ASGIApp:
        """Starlette's stack inside :class:`PageHeaders`: outside its
        ``ServerErrorMiddleware`` too, so an answer of a failed request (500) has the
        headers every other answer has."""
        return PageHeaders(super().build_middleware_stack())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket" or kind == "http":
            path: str = scope["path"]
            root: str = scope.get("root_path", "")
            if root and path.startswith(root):  # mounted under a prefix (as Starlette does)
                path = path[len(root) :]
            sockets = self.sockets
            if kind == "websocket" and sockets is not None:
                table_id = table_of(path)
                if table_id is not None:
                    await sockets.asgi(WebSocket(scope, receive, send), table_id)
                    return
            elif path == "/api/tables" and scope["method"] == "POST" and self.quick is not None:
                await self.quick(scope, receive, send)
                return
            elif kind == "http" and scope["method"] == "HEAD":
                # HEAD is GET without the body (FastAPI's routes take GET only): uptime
                # checks and `curl -I` get the headers a GET would, Content-Length too.
                await super().__call__({**scope, "method": "GET"}, receive, _headers_only(send))
                return
        await super().__call__(scope, receive, send)


def _headers_only(send: Send) -> Send:
    """``send``, every body it is given left out (the answer to a HEAD request)."""

    async def headers_only(message: Message) -> None:
        if message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    return headers_only


Create = Callable[[CreateTable, Request], Awaitable[CreatedTable]]


class QuickCreate:
    """``POST /api/tables`` ahead of FastAPI's layers (its busiest request: a player makes
    a table before every game; in the bgio workload FastAPI's and Starlette's layers took
    two thirds of its time). The same code makes the table
    (:func:`~thievery.server.api.make_router`'s ``create``), and the answer is FastAPI's:
    the same JSON, status, :class:`PageHeaders`' headers, compressed as
    :class:`GZipMiddleware` would, errors as the app's handlers write them. A request that
    is not plain (not ``application/json`` with a length within :data:`MAX_BODY`, or not
    a valid table) goes through FastAPI's stack with its body as read here, and is
    answered there. (OpenTelemetry, when configured, does not see the plain ones.)"""

    def __init__(self, create: Create, app: ASGIApp) -> None:
        self.create = create
        self.app = app  # FastAPI's stack

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope["headers"])
        length = headers.get(b"content-length", b"")
        media = headers.get(b"content-type", b"").split(b";", 1)[0].strip().lower()
        read: list[Message] = []
        if (
            media == b"application/json"
            and length.isdigit()
            and int(length) <= MAX_BODY
            and len(headers) == len(scope["headers"])  # (a header twice: FastAPI's reading)
        ):
            body = await _body(receive, read)
            parsed = _table_request(body) if body is not None else None
            if parsed is not None:
                await self._answer(parsed, scope, receive, send, headers)
                return
        await self.app(scope, _replayed(read, receive), send)

    async def _answer(
        self,
        body: CreateTable,
        scope: Scope,
        receive: Receive,
        send: Send,
        headers: dict[bytes, bytes],
    ) -> None:
        response: Response
        try:
            made = await self.create(body, Request(scope, receive))
            response = Response(made.model_dump_json(), 201, media_type="application/json")
        except ServerError as e:
            response = _error(e)
        except ThieveryError as e:
            response = _error(from_game_error(e))
        except Exception:
            log.exception("POST /api/tables failed")
            response = _internal()
        response.raw_headers.extend(security_headers("/api/tables"))
        if len(response.body) >= GZIP_FROM:  # (compressed or not, as it decides: its Vary)
            await GZipMiddleware(response, minimum_size=GZIP_FROM)(scope, receive, send)
        else:
            await response(scope, receive, send)


async def _body(receive: Receive, read: list[Message]) -> bytes | None:
    """A request's body (each message kept in ``read``); ``None`` if the client left or
    sent more than :data:`MAX_BODY`."""
    size, parts = 0, []
    while True:
        message = await receive()
        read.append(message)
        if message["type"] != "http.request":
            return None
        part: bytes = message.get("body", b"")
        size += len(part)
        if size > MAX_BODY:
            return None
        parts.append(part)
        if not message.get("more_body", False):
            return b"".join(parts)


def _table_request(body: bytes) -> CreateTable | None:
    """A new table's request as FastAPI would take it (JSON, then the model validated in
    Python mode); ``None`` if it is not one (FastAPI says why). A number of 19 digits or
    more is left to FastAPI too: ``json.loads`` reads any integer, orjson past 64 bits
    a float, which would be refused with another message or taken where it is not."""
    if _LONG_NUMBER.search(body):
        return None
    try:
        return CreateTable.model_validate(orjson.loads(body))
    except (orjson.JSONDecodeError, ValidationError):
        return None


_LONG_NUMBER = re.compile(rb"\d{19}")


def _replayed(read: list[Message], receive: Receive) -> Receive:
    """``receive`` with the messages already read from it first."""
    waiting = list(read)

    async def replay() -> Message:
        return waiting.pop(0) if waiting else await receive()

    return replay


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """What :class:`PageHeaders` adds to an answer for ``path``."""
    # Tokens ride in invite URLs: no page sends its address on as a referrer.
    extra: list[tuple[bytes, bytes]] = [
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
    ]
    if path.startswith(("/api", "/openapi")):
        extra.append((b"content-security-policy", API_POLICY.encode()))
    else:
        extra.append((b"cache-control", b"no-cache"))
        extra.append((b"content-security-policy", PAGE_POLICY.encode()))
    return extra


class PageHeaders:
    """Security and caching headers (pages get a strict content policy) and a cap on the
    size of request bodies. Plain ASGI: cheap."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        too_large = ServerError("request/too_large", f"a request has at most {MAX_BODY} bytes", 413)
        length = dict(scope.get("headers", [])).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > MAX_BODY:
            await JSONResponse(too_large.to_json(), status_code=413)(scope, receive, send)
            return
        # The cap holds for the bytes actually read too (a chunked body has no length).
        state = {"read": 0, "started": False, "refused": False}

        async def capped_receive() -> Message:
            if state["refused"]:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                state["read"] += len(message.get("body", b""))
                if state["read"] > MAX_BODY:
                    state["refused"] = True
                    if not state["started"]:
                        await JSONResponse(too_large.to_json(), status_code=413)(
                            scope, _disconnected, send
                        )
                    return {"type": "http.disconnect"}
            return message

        extra = security_headers(path)

        async def send_with_headers(message: Message) -> None:
            if state["refused"]:
                return  # the 413 went out; the app's own answer is dropped
            if message["type"] == "http.response.start":
                state["started"] = True
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers.extend((k, v) for k, v in extra if k not in present)
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, capped_receive, send_with_headers)
        except Exception:
            if not state["refused"]:
                raise  # a failure of its own; a refused body's aftermath is not one


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def _methods_of(request: Request) -> list[str]:
    """Every method some route takes at the request's path: each asked of the routes as
    the router asks them (FastAPI's included routers answer for their own routes)."""
    routes = request.app.routes
    taken = {
        method
        for method in _METHODS
        if any(r.matches({**request.scope, "method": method})[0] == Match.FULL for r in routes)
    }
    if "GET" in taken:
        taken.add("HEAD")  # (answered as GET without the body: ThieveryApp)
    return [method for method in _METHODS if method in taken]


async def _disconnected() -> Message:
    return {"type": "http.disconnect"}


def _error(e: ServerError) -> JSONResponse:
    headers = (
        {"Retry-After": str(max(1, round(e.retry_after)))}
        if isinstance(e, RateLimited | CapReached)
        else None
    )
    return JSONResponse(e.to_json(), status_code=e.status, headers=headers)


def _internal() -> JSONResponse:
    return _error(ServerError("server/internal", "the server failed on this request", 500))


def docs_page(schema: dict[str, object]) -> str:
    """The API docs: every route of the OpenAPI schema with its summary and description,
    as one HTML page (no script, nothing fetched)."""
    esc = html.escape
    info = schema.get("info") or {}
    assert isinstance(info, dict)
    rows = []
    paths = schema.get("paths") or {}
    assert isinstance(paths, dict)
    for path, methods in paths.items():
        for method, op in methods.items():
            params = ", ".join(f"{p.get('name')} ({p.get('in')})" for p in op.get("parameters", []))
            rows.append(
                f"<section><h2><code>{esc(method.upper())} {esc(path)}</code></h2>"
                f"<p><b>{esc(str(op.get('summary', '')))}</b></p>"
                f"<pre>{esc(str(op.get('description', '')))}</pre>"
                + (f"<p>parameters: {esc(params)}</p>" if params else "")
                + "</section>"
            )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{esc(str(info.get('title', 'API')))} API</title>"
        "<style>body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;"
        "padding:0 1rem}pre{white-space:pre-wrap}section{border-top:1px solid #ccc}</style>"
        "</head><body>"
        f"<h1>{esc(str(info.get('title', '')))} API {esc(str(info.get('version', '')))}</h1>"
        f"<p>{esc(str(info.get('description', '')))}</p>"
        "<p>The machine-readable schema: <a href='/openapi.json'>/openapi.json</a>. Errors "
        'are <code>{"type": "error", "code": …, "message": …}</code>.</p>'
        + "".join(rows)
        + "</body></html>"
    )


# A browser's address that no page has: a page that says so (API clients get JSON).
NOT_FOUND_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Page not found — Thievery</title><link rel="stylesheet" href="/static/css/thievery.css">
</head><body><main class="card-panel" style="max-width: 32rem; margin: 3rem auto">
<h1>Page not found</h1><p lang="de">Seite nicht gefunden</p>
<p><a href="/">Back to the lobby</a> · <a href="/" lang="de">Zur Lobby</a></p>
</main></body></html>
"""


def _wants_a_page(request: Request) -> bool:
    """Whether a request is a browser's for a page (not the API's, nor a file's)."""
    path = request.url.path
    return (
        request.method in ("GET", "HEAD")
        and not path.startswith(("/api/", "/static/"))
        and "text/html" in request.headers.get("accept", "")
    )


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float = 0.6,
    bot_threads: bool = True,
    bot_processes: int = 0,
    limits: Limits | None = None,
    files_dir: str | Path | None = None,
    caps: Caps | None = None,
    public_url: str | None = None,
    lease_seconds: float = 6.0,
) -> FastAPI:
    """The server for one database (``None``: ``$THIEVERY_DATABASE_URL`` or ``thievery.db``).

    ``bot_delay`` is how long bots wait before moving, so people can follow (tests use 0).
    ``bot_processes``: processes search bots think in (:mod:`thievery.server.botpool`);
    0: in threads of this process.
    ``files_dir``: the folder whose files options that name files (a Thieves Den card
    set) may name, by file name; without it such options are refused.
    ``caps``: the limits (:class:`~thievery.server.limits.Caps`); ``public_url``: the
    address invite links use (else the address the request came to).
    ``lease_seconds``: on PostgreSQL, how long after this process stops beating (a kill
    -9, a lost network) another process may take its tables over.
    Raises :class:`~thievery.server.storage.StorageError` if the database cannot be
    written (read-only, full).
    """
    caps = caps or Caps()
    storage = Storage(db_url, lock_seconds=caps.storage_seconds)
    hub = Hub(
        storage,
        bot_delay=bot_delay,
        bot_threads=bot_threads,
        bot_processes=bot_processes,
        files_dir=Path(files_dir) if files_dir is not None else None,
        caps=caps,
        public_url=public_url,
        lease_seconds=lease_seconds,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.close()

    app = ThieveryApp(
        title="Thievery",
        version=thievery.__version__,
        description="Play Thievery's games together: tables, seats, invite tokens, live "
        "play over websockets (`/api/tables/{id}/ws`), game records and replays.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.hub = hub
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_FROM)

    @app.exception_handler(ServerError)
    async def server_error(request: Request, e: ServerError) -> JSONResponse:
        return _error(e)

    @app.exception_handler(ThieveryError)
    async def game_error(request: Request, e: ThieveryError) -> JSONResponse:
        return _error(from_game_error(e))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        first = e.errors()[0] if e.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        message = f"{where}: {first.get('msg', 'invalid request')}"
        return _error(ServerError("request/invalid", message[:200], 422))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException) -> Response:
        if e.status_code == 404 and _wants_a_page(request):
            return HTMLResponse(NOT_FOUND_PAGE, status_code=404)
        words = {404: "no such page or route", 405: "that method is not allowed here"}
        message = words.get(e.status_code, str(e.detail)[:200])
        response = _error(ServerError(f"http/{e.status_code}", message, e.status_code))
        for key, value in (e.headers or {}).items():
            response.headers[key] = value
        if e.status_code == 405:  # (Starlette names the first route's methods of the path)
            response.headers["Allow"] = ", ".join(_methods_of(request))
        return response

    @app.exception_handler(Exception)
    async def crashed(request: Request, e: Exception) -> JSONResponse:
        log.exception("%s %s failed", request.method, request.url.path)
        return _internal()

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(docs_page(app.openapi()))

    router, sockets, create = make_router(hub, limits or Limits())
    app.include_router(router)
    app.sockets = sockets
    app.quick = QuickCreate(create, partial(FastAPI.__call__, app))

    @app.api_route("/static/games/{game}/{file}", methods=["GET", "HEAD"], include_in_schema=False)
    def game_file(game: str, file: str, request: Request) -> Response:
        """A game's browser files, read from its own package (importlib.resources), with
        an ETag so browsers revalidate instead of downloading them again."""
        try:
            found = plugin(game).web_file(file)
        except ThieveryError:
            found = None
        if found is None:
            raise ServerError("static/not_found", f"no file {file!r} for game {game!r}", 404)
        media = "text/javascript" if file.endswith(".js") else "text/css"
        return revalidated(found.read_bytes(), media, request)

    levels = levels_script()

    @app.api_route("/static/js/levels.js", methods=["GET", "HEAD"], include_in_schema=False)
    def levels_file(request: Request) -> Response:
        """The bots' level words for the pages, from :mod:`thievery.bots.levels` (the
        terminal's words too), so a bot seat reads the same on both."""
        return revalidated(levels, "text/javascript", request)

    app.mount("/static", StaticFiles(directory=WEB), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(WEB / name, media_type="text/html")

    @app.get("/", include_in_schema=False)
    def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/replay", include_in_schema=False)
    @app.get("/replay/{table_id}", include_in_schema=False)
    def replay_page(table_id: str | None = None) -> FileResponse:
        return page("replay.html")

    return app
