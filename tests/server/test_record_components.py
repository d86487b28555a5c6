"""A server table keeps the components it was made with (its game's
``component_digests``: Thieves Den's default card set, say), its record names them, and a
stored table whose components are not this server's (the default set changed in an
upgrade) is set aside, not restored and played on with other cards. An uploaded record of
other components is refused."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text, update

import thievery
from tests.server.conftest import FAST
from thievery.server import create_app
from thievery.server.storage import Storage, tables_t

HUMANS = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
BOTS = [{"kind": "bot", "bot": "random"} for _ in range(3)]
OTHER = "0123456789ab"


def cards() -> str:
    """The digest of this install's default Thieves Den card set."""
    return thievery.game("thieves-den").component_digests({})["cards"]


def new_table(client: TestClient, seats: list[dict[str, Any]]) -> str:
    made = client.post("/api/tables", json={"game": "thieves-den", "seats": seats})
    assert made.status_code == 201, made.text
    table_id: str = made.json()["table"]["id"]
    return table_id


def finished_record(client: TestClient, table_id: str) -> dict[str, Any]:
    deadline = time.time() + 60
    while not client.get(f"/api/tables/{table_id}").json()["over"]:
        assert time.time() < deadline, "the bots did not finish"
        time.sleep(0.02)
    answer = client.get(f"/api/tables/{table_id}/record?download=true")
    assert answer.status_code == 200, answer.text
    record: dict[str, Any] = answer.json()
    return record


def stored(db_url: str, table_id: str) -> tuple[Any, int]:
    """A table's stored components and its number of stored actions."""
    engine = create_engine(db_url)
    with engine.connect() as conn:
        components = conn.execute(
            text("SELECT components FROM thievery_tables WHERE id = :id"), {"id": table_id}
        ).scalar()
        actions = conn.execute(
            text("SELECT COUNT(*) FROM thievery_actions WHERE table_id = :id"), {"id": table_id}
        ).scalar()
    engine.dispose()
    if isinstance(components, str):  # (SQLite hands JSON back as text)
        components = json.loads(components)
    return components, int(actions or 0)


def test_a_tables_record_names_its_components_and_an_altered_one_is_refused(
    db_url: str,
) -> None:
    with TestClient(create_app(db_url, bot_delay=0, limits=FAST)) as client:
        table_id = new_table(client, BOTS)
        record = finished_record(client, table_id)
        assert record["components"] == {"cards": cards()}
        assert stored(db_url, table_id)[0] == {"cards": cards()}
        # Uploaded: the same components as this server's replay; other ones are refused,
        # the component and both digests named.
        replayed = client.post("/api/replay", json=record)
        assert replayed.status_code == 200, replayed.text
        altered = {**record, "components": {"cards": OTHER}}
        refused = client.post("/api/replay", json=altered)
        assert refused.status_code == 400 and refused.json()["code"] == "record/invalid"
        message = refused.json()["message"]
        assert "other Thieves Den components than this install has" in message
        assert f"cards: the record's {OTHER}, this install's {cards()}" in message


def test_a_stored_table_of_other_components_is_set_aside_not_restored(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A running table made with cards this server no longer has (its stored digest is
    not this install's): it would be dealt and played on with other cards. It is set
    aside (quarantined) with the reason, and nothing of it is changed; the others play."""
    with TestClient(create_app(db_url, bot_delay=0, limits=FAST)) as client:
        changed = new_table(client, HUMANS)
        good = new_table(client, HUMANS)
    storage = Storage(db_url)
    with storage.engine.begin() as conn:
        conn.execute(
            update(tables_t).where(tables_t.c.id == changed).values(components={"cards": OTHER})
        )
    storage.close()
    before = stored(db_url, changed)
    caplog.set_level(logging.ERROR, "thievery.server")
    with TestClient(create_app(db_url, bot_delay=0, limits=FAST)) as client:
        for path in ("", "/state", "/record", "/replay"):
            r = client.get(f"/api/tables/{changed}{path}")
            assert r.status_code == 503 and r.json()["code"] == "table/quarantined", r.text
            message = r.json()["message"]
            assert "its Thieves Den components changed since it was made" in message
            assert f"cards: then {OTHER}, now {cards()}" in message
        assert any(changed in m and f"then {OTHER}, now {cards()}" in m for m in caplog.messages)
        assert client.get(f"/api/tables/{good}/state").status_code == 200
    assert stored(db_url, changed) == before  # (not played on, not rewritten)


def test_a_finished_table_is_not_shown_with_other_cards_after_an_upgrade(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The install's default set changed (its digest with it) after the table finished:
    the table is not shown replayed with the new cards, and its record is given as it was
    stored, the same as before the upgrade, for the version that made it to replay (it was
    refused as the table was: a game nobody could download any more)."""
    with TestClient(create_app(db_url, bot_delay=0, limits=FAST)) as client:
        table_id = new_table(client, BOTS)
        before = finished_record(client, table_id)
    then = cards()
    spec = type(thievery.game("thieves-den"))
    monkeypatch.setattr(spec, "component_digests", lambda self, options=None: {"cards": OTHER})
    with TestClient(create_app(db_url, bot_delay=0, limits=FAST)) as client:
        r = client.get(f"/api/tables/{table_id}/replay?perspective=0")
        assert r.status_code == 503 and r.json()["code"] == "table/quarantined", r.text
        assert f"cards: then {then}, now {OTHER}" in r.json()["message"]
        r = client.get(f"/api/tables/{table_id}/record?download=true")
        assert r.status_code == 200, r.text
        assert r.json() == before and r.json()["components"] == {"cards": then}
        assert f"thieves-den-{table_id}.json" in r.headers["content-disposition"]
        refused = client.post("/api/replay", json=r.json())  # (here: other cards)
        assert refused.status_code == 400 and refused.json()["code"] == "record/invalid"


def test_a_table_stored_before_tables_kept_components_loads_as_before(db_url: str) -> None:
    """A database of an older version (no components column): the column is added, and
    its tables load and play on as before; their records name no components (not known)."""
    with TestClient(create_app(db_url, bot_delay=0, limits=FAST)) as client:
        running = new_table(client, HUMANS)
        done = new_table(client, BOTS)
        finished_record(client, done)
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("ALTER TABLE thievery_tables DROP COLUMN components"))
    engine.dispose()
    with TestClient(create_app(db_url, bot_delay=0, limits=FAST)) as client:
        assert stored(db_url, running)[0] is None
        assert client.get(f"/api/tables/{running}/state").status_code == 200
        record = client.get(f"/api/tables/{done}/record").json()
        assert "components" not in record and record["actions"]
        assert client.get(f"/api/tables/{done}/replay").status_code == 200
