"""Issue 17, start-up and the smaller points: a malformed stored table is set aside, not
the server stopped; read-only storage is said at start; one JSON error shape everywhere;
security headers; API docs without a CDN; invite links at the public address."""

from __future__ import annotations

import logging
import os
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import FAST, Player, create_table, listing
from thievery.server import create_app
from thievery.server.storage import Storage, StorageError


def test_a_malformed_table_row_is_quarantined(
    sqlite_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """One bad row used to stop the server at start (every unfinished table was read)."""
    with TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST)) as client:
        good = create_table(client, ["human", "human", "human"])
        bad = create_table(client, ["human", "human", "human"])["table"]["id"]
    with sqlite3.connect(tmp_path / "thievery.db") as conn:
        conn.execute("UPDATE thievery_tables SET options = '{not json' WHERE id = ?", (bad,))
    caplog.set_level(logging.ERROR, "thievery.server")
    with TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST)) as client:
        listed = [t["id"] for t in listing(client, good["table"]["id"], bad)["live"]]
        assert listed == [good["table"]["id"]]
        r = client.get(f"/api/tables/{bad}")
        assert r.status_code == 503 and r.json()["code"] == "table/quarantined"
        assert any(bad in m and "set aside" in m for m in caplog.messages)
        with client.websocket_connect(f"/api/tables/{good['table']['id']}/ws") as ws:
            player = Player(ws, good["seats"][0]["token"])
            assert player.act(player.latest["legal"][0])["type"] == "ack"


def test_read_only_storage_is_said_at_start(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    Storage(f"sqlite:///{path}").close()
    with pytest.raises(StorageError, match="read-only"):
        Storage(f"sqlite:///file:{path}?mode=ro&uri=true")
    with pytest.raises(StorageError, match="read-only"):
        create_app(f"sqlite:///file:{path}?mode=ro&uri=true")


def test_a_database_folder_that_cannot_hold_it_is_said_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(Each was "cannot be used ((sqlite3.OperationalError) unable to open database
    file)", which named neither the folder nor what was wrong with it.)"""
    missing = tmp_path / "no" / "such"
    with pytest.raises(StorageError, match=re.escape(f"a folder that does not exist ({missing})")):
        Storage(f"sqlite:///{missing / 'x.db'}")
    (tmp_path / "file").write_text("")
    with pytest.raises(StorageError, match="which is not a folder"):
        Storage(f"sqlite:///{tmp_path / 'file' / 'x.db'}")
    shut = tmp_path / "shut"
    shut.mkdir()
    real_connect = sqlite3.dbapi2.connect

    def refused(name: str, *args: Any, **kwargs: Any) -> Any:
        if str(name).startswith(str(shut)):  # (as for a user that cannot write there)
            raise sqlite3.OperationalError("unable to open database file")
        return real_connect(name, *args, **kwargs)

    monkeypatch.setattr(os, "access", lambda path, mode: not str(path).startswith(str(shut)))
    monkeypatch.setattr(sqlite3.dbapi2, "connect", refused)
    with pytest.raises(StorageError, match="a folder this user cannot write in"):
        Storage(f"sqlite:///{shut / 'x.db'}")


def test_a_nearly_full_disk_is_said_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from thievery.server import storage

    def full(path: str) -> Any:
        return shutil._ntuple_diskusage(10 << 30, 10 << 30, 1 << 20)  # type: ignore[attr-defined]

    monkeypatch.setattr(storage.shutil, "disk_usage", full)
    with pytest.raises(StorageError, match="free"):
        Storage(f"sqlite:///{tmp_path / 'full.db'}")


def test_every_refusal_has_one_json_shape(client: TestClient) -> None:
    for method, path, status in (
        ("GET", "/api/nowhere", 404),
        ("DELETE", "/api/tables", 405),
        ("GET", "/api/tables/abc", 404),
        ("GET", "/api/tables/abc/replay?perspective=" + "x" * 5000, 404),
    ):
        r = client.request(method, path)
        assert r.status_code == status, (path, r.text)
        body = r.json()
        assert set(body) == {"type", "code", "message"} and body["type"] == "error", body
    made = create_table(client, ["human", "human", "human"], {"games": 1})
    tid = made["table"]["id"]
    # Messages echo at most a short prefix of what was sent.
    long = "y" * 5000
    for r in (
        client.post("/api/tables", json={"game": long, "seats": [{"kind": "human"}]}),
        client.post(
            f"/api/tables/{tid}/actions",
            json={"action": {"type": long}},
            headers={"Authorization": f"Bearer {made['seats'][0]['token']}"},
        ),
    ):
        assert r.json()["type"] == "error" and len(r.json()["message"]) < 400, r.text[:300]
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_json({"type": long[:3000], "id": 7})
        frame = ws.receive_json()
        assert frame["type"] == "error" and frame["id"] == 7 and len(frame["message"]) < 200


def test_security_headers_and_docs_without_a_cdn(client: TestClient) -> None:
    for path in ("/", "/api/games", "/docs", "/api/nowhere"):
        r = client.get(path)
        assert r.headers["referrer-policy"] == "no-referrer", path
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], path
    policy = client.get("/").headers["content-security-policy"]
    assert "connect-src 'self';" in policy and "ws:" not in policy
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/api/tables/{table_id}/close" in docs.text
    assert not re.search(r"<script|https?://(?!127)", docs.text), "docs load nothing from afar"
    assert client.get("/redoc").status_code == 404


def test_invite_links_use_the_public_url(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, public_url="https://games.example.org/")
    with TestClient(app) as client:
        made = create_table(client, ["human", "human", "human"])
        invite = made["seats"][0]["invite"]
        assert invite.startswith(f"https://games.example.org/table/{made['table']['id']}#token=")
