"""The FastAPI application: the API, the table websocket, the pages and their files.

``create_app(db_url)`` builds one; ``thievery serve`` runs it on uvicorn. On start it
restores every unfinished table from storage; on stop it stores what is queued.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import thievery
from thievery.core.errors import ThieveryError
from thievery.core.registry import plugin
from thievery.server.api import make_router
from thievery.server.errors import ServerError, from_game_error
from thievery.server.hub import Hub
from thievery.server.sockets import Limits
from thievery.server.storage import Storage

MAX_BODY = 4 << 20  # bytes in a request body (a long game record fits)
WEB = Path(__file__).resolve().parent.parent / "web"
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


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

        extra: list[tuple[bytes, bytes]] = [(b"x-content-type-options", b"nosniff")]
        if not path.startswith(("/api", "/docs", "/openapi", "/redoc")):
            extra.append((b"cache-control", b"no-cache"))
            extra.append((b"content-security-policy", PAGE_POLICY.encode()))

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


async def _disconnected() -> Message:
    return {"type": "http.disconnect"}


def _error(e: ServerError) -> JSONResponse:
    return JSONResponse(e.to_json(), status_code=e.status)


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float = 0.6,
    bot_threads: bool = True,
    limits: Limits | None = None,
    files_dir: str | Path | None = None,
) -> FastAPI:
    """The server for one database (``None``: ``$THIEVERY_DATABASE_URL`` or ``thievery.db``).

    ``bot_delay`` is how long bots wait before moving, so people can follow (tests use 0).
    ``files_dir``: the folder whose files options that name files (a Thieves Den card
    set) may name, by file name; without it such options are refused.
    """
    storage = Storage(db_url)
    hub = Hub(
        storage,
        bot_delay=bot_delay,
        bot_threads=bot_threads,
        files_dir=Path(files_dir) if files_dir is not None else None,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.close()

    app = FastAPI(
        title="Thievery",
        version=thievery.__version__,
        description="Play Thievery's games together: tables, seats, invite tokens, live "
        "play over websockets (`/api/tables/{id}/ws`), game records and replays.",
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.add_middleware(GZipMiddleware, minimum_size=2000)

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
        return _error(ServerError("request/invalid", message, 422))

    app.add_middleware(PageHeaders)
    app.include_router(make_router(hub, limits or Limits()))

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
        body = found.read_bytes()
        etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers={"ETag": etag})
        media = "text/javascript" if file.endswith(".js") else "text/css"
        return Response(body, media_type=f"{media}; charset=utf-8", headers={"ETag": etag})

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
