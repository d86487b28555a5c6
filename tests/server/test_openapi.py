"""The OpenAPI document is true: every answer of a played game matches the schema its
route documents, and fuzzed requests get only the statuses their route documents."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from pydantic import BaseModel, TypeAdapter
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.server.conftest import FAST, LIFTED, create_table, exchange, settle
from thievery.server import create_app
from thievery.server.api import EVERY_ROUTE
from thievery.server.schemas import (
    EventWords,
    GameInfo,
    OpenTable,
    RecordJSON,
    Replay,
    StateFrame,
    TableList,
    TableSummary,
)
from thievery.server.storage import Storage, TableRecord


def valid(schema: Any, data: Any) -> Any:
    """``data`` read as ``schema``, strictly (a 0 is no false; its models forbid keys they
    do not name)."""
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        return schema.model_validate(data, strict=True)
    return TypeAdapter(schema).validate_python(data, strict=True)


def documented(client: TestClient, method: str, path: str) -> Any:
    """The schema a route documents for its success, as the OpenAPI document gives it."""
    operation = client.get("/openapi.json").json()["paths"][path][method]
    ok = next(v for k, v in operation["responses"].items() if k.startswith("2"))
    return ok["content"]["application/json"]["schema"]


def play_out(client: TestClient, table_id: str, key: str, seat: int) -> list[dict[str, Any]]:
    """Act for ``seat`` (its first legal action) until the game is over; each answer."""
    answers = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        settle(client, table_id)
        state = client.get(
            f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {key}"}
        ).json()
        if state["summary"]["over"]:
            return answers
        if seat not in state["to_act"] or not state["legal"]:
            time.sleep(0.01)
            continue
        response = client.post(
            f"/api/tables/{table_id}/actions",
            json={"action": state["legal"][0], "version": state["version"]},
            headers={"Authorization": f"Bearer {key}"},
        )
        if response.status_code == 409 and response.json()["code"] == "action/stale":
            continue  # a bot's move landed in between
        assert response.status_code == 200, response.text
        answers.append(response.json())
    raise AssertionError("the game did not end")


DOCUMENTED = {  # route -> the schema its success answer is documented as
    ("get", "/api/games"): "GameInfo",
    ("get", "/api/tables/open"): "OpenTable",
    ("get", "/api/tables"): "TableList",
    ("get", "/api/tables/{table_id}"): "TableSummary",
    ("get", "/api/tables/{table_id}/state"): "StateFrame",
    ("post", "/api/tables/{table_id}/seats/{seat}/bot"): "TableSummary",
    ("post", "/api/tables/{table_id}/again"): "TableSummary",
    ("post", "/api/tables/{table_id}/close"): "TableSummary",
    ("get", "/api/tables/{table_id}/record"): "RecordJSON",
    ("get", "/api/tables/{table_id}/replay"): "Replay",
    ("post", "/api/replay"): "Replay",
}


def test_each_route_documents_the_schema_its_answers_are_checked_against(
    client: TestClient,
) -> None:
    for (method, path), name in DOCUMENTED.items():
        schema = documented(client, method, path)
        ref = schema.get("$ref") or schema["items"]["$ref"]
        assert ref == f"#/components/schemas/{name}", (method, path)


def test_every_answer_of_a_played_game_is_the_schema_its_route_documents(
    client: TestClient,
) -> None:
    games = client.get("/api/games").json()
    assert valid(list[GameInfo], games)

    # A listed table: one seat of ours, one a stranger claims, one bot's.
    made = create_table(client, ["human", "human", "bot:heuristic"], listed=True)
    tid, host = made["table"]["id"], made["host_token"]
    assert valid(TableSummary, made["table"])
    listed = client.get("/api/tables/open").json()
    assert [t.id for t in valid(list[OpenTable], listed)] == [tid]
    claimed = client.post(f"/api/tables/{tid}/seats/1/claim", json={"name": "Bo"}).json()
    key = exchange(client, tid, made["seats"][0]["token"])
    auth = {"Authorization": f"Bearer {key}"}

    summary = client.get(f"/api/tables/{tid}").json()
    assert valid(TableSummary, summary).seats[1].name == "Bo"
    assert valid(StateFrame, client.get(f"/api/tables/{tid}/state", headers=auth).json())
    spectator = valid(StateFrame, client.get(f"/api/tables/{tid}/state").json())
    assert spectator.seat is None and spectator.legal == []
    handed = client.post(
        f"/api/tables/{tid}/seats/1/bot",
        json={"bot": "heuristic"},
        headers={"Authorization": f"Bearer {claimed['token']}"},
    ).json()
    assert valid(TableSummary, handed).seats[1].bot == "heuristic"
    assert valid(TableList, client.get("/api/tables").json()).live[0].id == tid

    answers = play_out(client, tid, key, 0)
    assert answers, "seat 0 never acted"
    events = [e for a in answers for e in a["events"]]
    assert events and valid(list[EventWords], events)

    record = client.get(f"/api/tables/{tid}/record").json()
    assert valid(RecordJSON, record).actions
    for perspective in ("0", "spectator", "all"):
        replay = client.get(f"/api/tables/{tid}/replay", params={"perspective": perspective})
        assert valid(Replay, replay.json()).steps, perspective
    posted = client.post("/api/replay", json=record, params={"perspective": "all"})
    assert valid(Replay, posted.json()).steps[-1].views is not None
    nameless = {k: v for k, v in record.items() if k != "names"}
    assert valid(Replay, client.post("/api/replay", json=nameless).json()).names is None

    again = client.post(f"/api/tables/{tid}/again", headers=auth).json()
    assert valid(TableSummary, again).prev_id == tid
    closed = client.post(
        f"/api/tables/{again['id']}/close", headers={"Authorization": f"Bearer {host}"}
    )
    assert valid(TableSummary, closed.json()).closed

    # Finished tables come from storage: their own schema, in the same list as live ones.
    tables = valid(TableList, client.get("/api/tables", params={"finished": 5}).json())
    assert {t.id for t in tables.finished} >= {tid, again["id"]}

    scenario = create_table(client, ["human", "bot:random", "bot:random"], scenario=True, seed=7)
    assert valid(TableSummary, scenario["table"]).scenario_seed == 7


def test_a_table_of_a_game_no_longer_installed_is_listed_by_its_name(tmp_path: Path) -> None:
    """A stored table whose game was uninstalled does not break the tables' list."""
    url = f"sqlite:///{tmp_path / 'thievery.db'}"
    storage = Storage(url)
    with storage.engine.begin() as conn:
        Storage.insert_table(
            conn,
            TableRecord(
                id="gone1",
                game="no-such-game",
                game_version=1,
                players=2,
                seed=5,
                options={},
                seats=[{"kind": "human", "name": "Ann", "bot": None, "token_hash": "ab"}] * 2,
                host_hash="cd",
                turn_seconds=None,
                timeout_bot="heuristic",
                created_at=1.0,
            ),
        )
        Storage.finish_table(conn, "gone1", result=None, actions=0)
    storage.close()
    with TestClient(create_app(url, bot_delay=0, limits=FAST, caps=LIFTED)) as client:
        answer = client.get("/api/tables", params={"finished": 5, "mine": "gone1"})
        assert answer.status_code == 200, answer.text
        (gone,) = valid(TableList, answer.json()).finished
        assert (gone.id, gone.game, gone.title) == ("gone1", "no-such-game", "no-such-game")


def fuzz(client: TestClient, operation: Any, kind: dict[str, Any], seen: set[int]) -> None:
    """One route fuzzed one way (``kind``: the strategy's arguments); each status seen."""

    @given(case=operation.as_strategy(**kind))
    @settings(
        max_examples=30,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def check(case: Any) -> None:
        kwargs = case.as_transport_kwargs(base_url="http://testserver")
        kwargs.pop("cookies", None)
        if isinstance(kwargs.get("data"), str | bytes):  # (requests' name; httpx's:)
            kwargs["content"] = kwargs.pop("data")
        response = client.request(**kwargs)
        seen.add(response.status_code)
        case.validate_response(response, excluded_checks=[positive_data_acceptance])

    try:
        check()
    except Unsatisfiable:  # (a route with nothing to break: no request breaks its schema)
        assert kind.get("generation_mode") is GenerationMode.NEGATIVE


def test_fuzzed_requests_get_only_documented_answers(client: TestClient) -> None:
    """Schemathesis sends requests made from the schema, and requests that break it, to
    every route; the routes of a table get random table ids and a real table's: no server
    error, every status and body as the route documents, and requests the schema forbids
    refused. (A request the schema allows may still be refused: an unknown table, an
    illegal action; so its check that they are all accepted is off.)"""
    made = create_table(client, ["human", "bot:random", "bot:random"])
    real = {"table_id": made["table"]["id"]}
    schema = schemathesis.openapi.from_dict(client.get("/openapi.json").json())
    failures: list[str] = []
    seen: dict[str, set[int]] = {}
    for found in schema.get_all_operations():
        operation = found.ok()
        name = f"{operation.method.upper()} {operation.path}"
        kinds: list[dict[str, Any]] = [{"generation_mode": mode} for mode in GenerationMode]
        if "{table_id}" in operation.path:
            kinds.append({"path_parameters": real})
        for kind in kinds:
            try:
                fuzz(client, operation, kind, seen.setdefault(name, set()))
            except Exception as e:  # (one line per failing route and way, all of them)
                failures.append(f"{name} {kind}: {e}")
    assert not failures, "\n\n".join(failures)
    # What the fuzzing reached: refusals of each kind, and a real table's answers.
    every = set().union(*seen.values())
    assert {200, 400, 403, 404, 409, 422} <= every, seen
    assert 200 in seen["GET /api/tables/{table_id}"], seen


@pytest.mark.parametrize("status", EVERY_ROUTE)
def test_what_any_route_may_answer_is_documented_on_every_route(
    client: TestClient, status: int
) -> None:
    schema = client.get("/openapi.json").json()
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if path.startswith("/api"):
                assert str(status) in operation["responses"], (method, path)
