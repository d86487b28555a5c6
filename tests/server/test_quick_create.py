"""``POST /api/tables`` is served ahead of FastAPI's layers (thievery.server.app.QuickCreate)
when it is plain, and by FastAPI's stack when not: either way the answer is the one the
route gives. Each request here goes both ways, on one app (the header ``x-test-route``
sends it straight to FastAPI's stack), and the answers are compared."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.types import Receive, Scope, Send

from tests.server.conftest import FAST, LIFTED, exchange, stored_running
from thievery.server import create_app
from thievery.server.app import GZIP_FROM, MAX_BODY, ThieveryApp

TABLE = {"game": "schattendieb", "seats": [{"kind": "human"}] * 3, "options": {}}
VARYING = {"date", "content-length"}  # (and the tokens and ids in the body)


class Both:
    """The app; a request with ``x-test-route: full`` goes to FastAPI's stack itself.
    Which way each request went is kept in ``went``: "app", then "stack" if the app's
    quick path handed it to FastAPI's stack; "full" for the ones sent there directly."""

    def __init__(self, app: ThieveryApp) -> None:
        self.app = app
        self.went: list[str] = []
        assert app.quick is not None
        stack = app.quick.app

        async def handed_on(scope: Scope, receive: Receive, send: Send) -> None:
            self.went.append("stack")
            await stack(scope, receive, send)

        app.quick.app = handed_on

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        full = scope["type"] == "http" and (b"x-test-route", b"full") in scope["headers"]
        if scope["type"] == "http" and scope["path"] == "/api/tables":
            self.went.append("full" if full else "app")
        if full:
            await FastAPI.__call__(self.app, scope, receive, send)
        else:
            await self.app(scope, receive, send)


@pytest.fixture
def both(sqlite_url: str) -> Iterator[tuple[TestClient, Both]]:
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=LIFTED)
    routed = Both(app)
    with TestClient(routed) as c:
        yield c, routed


def answers(client: TestClient, **request: Any) -> tuple[Any, Any]:
    """The same request made through the app and straight through FastAPI's stack."""
    quick = client.post("/api/tables", **request)
    headers = {**request.pop("headers", {}), "x-test-route": "full"}
    full = client.post("/api/tables", headers=headers, **request)
    return quick, full


def same_headers(quick: Any, full: Any) -> None:
    def kept(response: Any) -> dict[str, str]:
        return {k: v for k, v in response.headers.items() if k not in VARYING}

    assert kept(quick) == kept(full)


def shape(value: Any) -> Any:
    """A value with its secrets and ids blanked (they differ between two tables)."""
    if isinstance(value, dict):
        return {
            k: shape(v)
            for k, v in value.items()
            if k not in ("id", "token", "invite", "created_at")
        }
    if isinstance(value, list):
        return [shape(v) for v in value]
    if isinstance(value, str) and ("#token=" in value or len(value) >= 16):
        return "…"
    return value


def test_a_plain_new_table_is_answered_ahead_of_fastapi_as_fastapi_would(
    both: tuple[TestClient, Both],
) -> None:
    client, routed = both
    quick, full = answers(client, json=TABLE)
    assert routed.went == ["app", "full"]
    assert quick.status_code == full.status_code == 201
    same_headers(quick, full)
    assert quick.headers["content-security-policy"] == "default-src 'none'; frame-ancestors 'none'"
    assert quick.headers["x-frame-options"] == "DENY"
    assert shape(quick.json()) == shape(full.json())
    made = quick.json()
    assert [s["seat"] for s in made["seats"]] == [0, 1, 2] and made["host_token"]
    assert made["seats"][0]["invite"].endswith(
        f"/table/{made['table']['id']}#token=" + made["seats"][0]["token"]
    )
    # The table is there and playable with the quick answer's tokens (an invite, exchanged).
    key = exchange(client, made["table"]["id"], made["seats"][1]["token"])
    state = client.get(
        f"/api/tables/{made['table']['id']}/state", headers={"Authorization": f"Bearer {key}"}
    )
    assert state.status_code == 200 and state.json()["seat"] == 1


@pytest.mark.parametrize(
    "request_",
    [
        {"content": b"{not json", "headers": {"content-type": "application/json"}},
        {
            "content": b'{"game": "schattendieb", "seats": NaN}',
            "headers": {"content-type": "application/json"},
        },
        {"json": {"game": "schattendieb", "seats": []}},
        {"json": {**TABLE, "seed": -1}},
        {"json": [TABLE]},
        {
            "content": b"game=schattendieb",
            "headers": {"content-type": "application/x-www-form-urlencoded"},
        },
        {"content": b"", "headers": {"content-type": "application/json"}},
    ],
    ids=["broken JSON", "NaN", "no seats", "negative seed", "a list", "a form", "empty"],
)
def test_what_is_not_a_plain_new_table_goes_through_fastapi(
    both: tuple[TestClient, Both], request_: dict[str, Any]
) -> None:
    client, routed = both
    quick, full = answers(client, **request_)
    assert routed.went == ["app", "stack", "full"]
    assert quick.status_code == full.status_code == 422
    same_headers(quick, full)
    assert quick.json() == full.json() and quick.json()["code"] == "request/invalid"


def test_a_refusal_after_the_request_was_read_is_the_routes(
    both: tuple[TestClient, Both],
) -> None:
    """A valid request the table-making refuses (an unknown game, too many bots): the
    same error both ways."""
    client, _ = both
    for body in (
        {**TABLE, "game": "chess"},
        {**TABLE, "seats": [{"kind": "bot", "bot": "nonsense"}, {"kind": "human"}]},
    ):
        quick, full = answers(client, json=body)
        assert quick.status_code == full.status_code and quick.status_code >= 400
        same_headers(quick, full)
        assert quick.json() == full.json()


def test_a_body_past_the_cap_is_refused_before_anything_is_made(
    both: tuple[TestClient, Both],
) -> None:
    client, _ = both
    big = b'{"game": "schattendieb", "pad": "' + b"x" * MAX_BODY + b'"}'
    quick, full = answers(client, content=big, headers={"content-type": "application/json"})
    assert quick.status_code == full.status_code == 413
    assert quick.json() == full.json() and quick.json()["code"] == "request/too_large"


def test_a_rate_limited_client_is_told_so_and_counted_once(sqlite_url: str) -> None:
    """Rate limits count the quick path's tables as the route's: two a minute is two."""
    caps = replace(LIFTED, tables_per_minute=0.01, tables_burst=2)
    with TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST, caps=caps)) as client:
        codes = [client.post("/api/tables", json=TABLE).status_code for _ in range(3)]
        refused = client.post("/api/tables", json=TABLE)
    assert codes == [201, 201, 429]
    assert refused.json()["code"] == "rate/limited" and "retry-after" in refused.headers
    assert refused.headers["x-content-type-options"] == "nosniff"


def test_a_large_answer_is_compressed_for_a_client_that_takes_gzip(
    both: tuple[TestClient, Both],
) -> None:
    """Six seats with long names: an answer past GZIP_FROM, compressed both ways."""
    client, _ = both
    seats = [{"kind": "human", "name": f"P{i} " + "x" * 36} for i in range(6)]
    body = {**TABLE, "seats": seats}
    plain = client.post("/api/tables", json=body, headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and len(plain.content) >= GZIP_FROM
    quick, full = answers(client, json=body, headers={"accept-encoding": "gzip"})
    assert quick.status_code == full.status_code == 201
    assert quick.headers["content-encoding"] == full.headers["content-encoding"] == "gzip"
    same_headers(quick, full)
    assert shape(quick.json()) == shape(full.json()) == shape(plain.json())


def test_a_large_answer_to_a_client_without_gzip_has_the_stacks_headers(
    both: tuple[TestClient, Both],
) -> None:
    """Not compressed, but said to depend on what the client takes (``Vary``), both ways:
    a cache must not hand it to a client that takes gzip, nor the other way round."""
    client, _ = both
    seats = [{"kind": "human", "name": f"P{i} " + "x" * 36} for i in range(6)]
    quick, full = answers(
        client, json={**TABLE, "seats": seats}, headers={"accept-encoding": "identity"}
    )
    assert quick.status_code == full.status_code == 201
    assert "content-encoding" not in quick.headers and len(quick.content) >= GZIP_FROM
    assert quick.headers["vary"] == "Accept-Encoding"
    same_headers(quick, full)


def test_a_header_given_twice_is_read_as_fastapi_reads_it(
    both: tuple[TestClient, Both],
) -> None:
    """Two ``Content-Type`` headers: FastAPI reads the first (here not JSON: refused);
    the quick path took the last and made a table FastAPI would have refused."""
    client, routed = both
    body = b'{"game": "schattendieb", "seats": [{"kind": "human"}, {"kind": "human"}]}'
    headers = [("content-type", "text/plain"), ("content-type", "application/json")]
    quick = client.post("/api/tables", content=body, headers=headers)
    full = client.post("/api/tables", content=body, headers=[*headers, ("x-test-route", "full")])
    assert routed.went == ["app", "stack", "full"]
    assert quick.status_code == full.status_code == 422
    assert quick.json() == full.json()
    assert stored_running(client) == []  # (nothing made either way)


@pytest.mark.parametrize("number", ["18446744073709551616", "-9223372036854775809"])
def test_an_integer_past_64_bits_is_refused_as_fastapi_refuses_it(
    both: tuple[TestClient, Both], number: str
) -> None:
    """orjson reads it as a float (its refusal named a number the client never sent):
    such a request is FastAPI's to read."""
    client, routed = both
    seats = '[{"kind": "human"}]'
    body = f'{{"game": "schattendieb", "seats": {seats}, "options": {{"games": {number}}}}}'
    quick, full = answers(
        client, content=body.encode(), headers={"content-type": "application/json"}
    )
    assert routed.went == ["app", "stack", "full"]
    assert quick.status_code == full.status_code == 400
    assert quick.json() == full.json()
    assert "e+" not in quick.json()["message"]


def test_a_failure_is_answered_with_the_headers_every_answer_has(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A request that fails inside the server (500), on the quick path and on FastAPI's
    (whose 500 came from Starlette's outermost layer, past the security headers)."""
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=LIFTED)
    with TestClient(Both(app), raise_server_exceptions=False) as client:

        def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("the disk caught fire")

        monkeypatch.setattr(app.state.hub.writer, "submit", broken)
        quick, full = answers(client, json=TABLE)
    assert quick.status_code == full.status_code == 500
    assert quick.json() == full.json() and quick.json()["code"] == "server/internal"
    same_headers(quick, full)
    assert full.headers["x-content-type-options"] == "nosniff"
    assert full.headers["content-security-policy"] == quick.headers["content-security-policy"]
