"""Thieves Den card sets on the server: a table whose card set comes from ``--files-dir``
holds it inline, so its record uploads to ``/api/replay`` (on this server or any other)
and replays exactly; paths never come from the network nor go to it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.games.thieves_den.helpers import CUSTOM_SET, write_custom_set
from tests.server.conftest import FAST, Player, exchange, listing, settle, stored_running
from tests.server.test_api import auth, play_to_end, state
from thievery.core.record import GameRecord, replay
from thievery.games.thieves_den.cards import DEFAULT_PATH, card_set_digest, inline_card_set
from thievery.server import create_app

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
STATIC = ["options", "catalogue"]


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """The server's files folder, holding the tests' custom card set as ``mine.toml``."""
    folder = tmp_path / "cards"
    folder.mkdir()
    write_custom_set(folder)
    return folder


@pytest.fixture
def files_client(sqlite_url: str, files: Path) -> Iterator[TestClient]:
    """The app with a files folder, bots moving at once."""
    with TestClient(create_app(sqlite_url, bot_delay=0, files_dir=files, limits=FAST)) as c:
        yield c


def new_table(client: TestClient, cards: Any, seed: int = 21) -> dict[str, Any]:
    options = {"cards": cards}
    body = {"game": "thieves-den", "seats": SEATS, "options": options, "seed": seed}
    body["scenario"] = True  # a chosen seed
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    data: dict[str, Any] = made.json()
    settle(client, data["table"]["id"])
    return data


def test_a_files_dir_set_is_held_inline_and_its_record_replays_anywhere(
    files_client: TestClient, files: Path
) -> None:
    client = files_client
    document = inline_card_set(files / "mine.toml")
    made = new_table(client, "mine.toml")
    tid = made["table"]["id"]
    token = exchange(client, tid, made["seats"][0]["token"])
    mine, watching = state(client, tid, token), state(client, tid)
    # Seats see the card set itself (its words in the catalogue), never the server's path.
    for shown in (made["table"], client.get(f"/api/tables/{tid}").json(), mine, watching):
        assert str(files) not in json.dumps(shown)
    # Table summaries and listings name the set (name and digest); views hold all of it.
    brief = {"name": document["name"], "digest": card_set_digest(document)}
    assert made["table"]["options"]["cards"] == brief
    listed = listing(client, tid)["live"]
    assert [t["options"]["cards"] for t in listed if t["id"] == tid] == [brief]
    assert len(json.dumps(listed)) < len(json.dumps(document))
    assert mine["view"]["options"]["cards"] == document
    assert mine["view"]["catalogue"] == watching["view"]["catalogue"]
    assert mine["view"]["catalogue"]["locations"]["market"]["name"] == "Night Bazaar"

    play_to_end(client, tid, {0: token})
    final = state(client, tid, token)
    record = client.get(f"/api/tables/{tid}/record?download=true").json()
    assert record["options"]["cards"] == document and str(files) not in json.dumps(record)
    (files / "mine.toml").unlink()  # nothing reads the file any more
    again = client.post(f"/api/tables/{tid}/again", headers=auth(token))
    assert again.status_code == 200, again.text
    assert again.json()["options"]["cards"] == brief
    assert state(client, again.json()["id"], token)["view"]["options"]["cards"] == document

    # Uploaded to this server: accepted, the same game step by step.
    uploaded = client.post("/api/replay?perspective=all", json=record)
    assert uploaded.status_code == 200, uploaded.text
    steps = uploaded.json()["steps"]
    assert uploaded.json()["result"] == final["result"] is not None
    assert uploaded.json() == client.get(f"/api/tables/{tid}/replay?perspective=all").json()
    # The static view keys come in the first step only.
    assert uploaded.json()["static"] == STATIC
    assert steps[0]["view"]["catalogue"]["name"] == CUSTOM_SET
    assert all(steps[0]["views"][s]["options"]["cards"] == document for s in range(3))
    later = [v for step in steps[1:] for v in [step["view"], *step["views"]]]
    assert later and not any(k in v for v in later for k in STATIC)
    # Read back from its JSON anywhere: the same game, to the last view.
    again = replay(GameRecord.from_json(json.loads(json.dumps(record))))
    assert again.result() == final["result"]
    assert again.view(0) == final["view"]

    # A record naming the server's own file by its path is still refused. (Without its
    # deal's salt: the commitment covers the options now, so the changed record would be
    # refused for that first.)
    record = {k: v for k, v in record.items() if k not in ("salt", "commitment")}
    record["options"]["cards"] = str(files / "mine.toml")
    refused = client.post("/api/replay", json=record)
    assert refused.status_code == 400, refused.text
    assert refused.json()["code"] == "options/invalid"
    assert "not accepted over the network" in refused.json()["message"]


def test_an_inline_set_over_the_network_is_checked_like_a_file(client: TestClient) -> None:
    good = inline_card_set(DEFAULT_PATH)
    good["name"] = "Sent inline"
    made = new_table(client, good)
    assert state(client, made["table"]["id"])["view"]["catalogue"]["name"] == "Sent inline"
    before = stored_running(client)

    bad = inline_card_set(DEFAULT_PATH)
    bad["fences"][0]["prestige"] = "seven"
    message = r"the inline card set: fence 'noble-countess' (fences[0]), field 'prestige'"
    body = {"game": "thieves-den", "seats": SEATS, "options": {"cards": bad}}
    refused = client.post("/api/tables", json=body)
    assert refused.status_code == 400, refused.text
    assert refused.json()["code"] == "options/invalid"
    assert refused.json()["message"].startswith(message)
    assert stored_running(client) == before  # no table was made

    record = {"game": "thieves-den", "version": 1, "players": 3, "seed": 1, "actions": []}
    refused = client.post("/api/replay", json={**record, "options": {"cards": bad}})
    assert refused.status_code == 400, refused.text
    assert refused.json()["code"] == "options/invalid"
    assert refused.json()["message"].startswith(message)
    accepted = client.post("/api/replay", json={**record, "options": {"cards": good}})
    assert accepted.status_code == 200, accepted.text


def test_update_frames_leave_out_the_static_view_keys(client: TestClient) -> None:
    made = new_table(client, None, seed=4)
    tid = made["table"]["id"]
    token = exchange(client, tid, made["seats"][0]["token"])
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        watcher = Player(ws, None)
        welcome = watcher.latest
        assert welcome["type"] == "welcome" and welcome["static"] == STATIC
        assert welcome["view"]["catalogue"]["name"] == "Thievery unofficial set"
        kept = {k: welcome["view"][k] for k in STATIC}
        mine = state(client, tid, token)
        acted = client.post(
            f"/api/tables/{tid}/actions",
            json={"action": mine["legal"][0], "version": mine["version"]},
            headers=auth(token),
        )
        assert acted.status_code == 200, acted.text
        # The bots move at once; then the table waits for seat 0 alone (seat 0 having
        # legal actions is not enough: in a simultaneous pick a bot may still move).
        settle(client, tid)
        watcher.sync()
        update, now = watcher.latest, state(client, tid)
        assert update["type"] == "update" and update["version"] == now["version"]
        assert not set(STATIC) & set(update["view"])
        assert {**update["view"], **kept} == now["view"]
        assert len(json.dumps(update)) < len(json.dumps(welcome["view"]["catalogue"]))


def test_a_file_name_with_a_nul_or_too_long_is_refused_cleanly(files_client: TestClient) -> None:
    for name in ("mine\x00.toml", "x" * 5000 + ".toml", "../" * 40 + "etc/passwd"):
        body = {"game": "thieves-den", "seats": SEATS, "options": {"cards": name}}
        r = files_client.post("/api/tables", json=body)
        assert r.status_code == 400, (name[:20], r.status_code)
        assert r.json()["code"] == "options/invalid" and len(r.json()["message"]) < 300


def test_a_card_file_that_is_not_text_is_refused_cleanly(
    files_client: TestClient, files: Path
) -> None:
    (files / "noise.toml").write_bytes(bytes(range(256)))
    body = {"game": "thieves-den", "seats": SEATS, "options": {"cards": "noise.toml"}}
    r = files_client.post("/api/tables", json=body)
    assert r.status_code == 400 and r.json()["code"] == "options/invalid", r.text
    assert "not UTF-8" in r.json()["message"] and "noise.toml" in r.json()["message"]


def test_a_link_out_of_the_files_folder_is_neither_chosen_nor_listed(
    files_client: TestClient, files: Path, tmp_path: Path
) -> None:
    """A symbolic link in the folder that points out of it is no file of the folder: a
    table cannot choose it, and the refusal's list of files does not name it (it named
    every link to a file before, offering what it then refused)."""
    outside = tmp_path / "outside.toml"
    outside.write_text((files / "mine.toml").read_text())
    (files / "escape.toml").symlink_to(outside)
    (files / "inside.toml").symlink_to(files / "mine.toml")  # (a link within: a file of it)
    for name in ("escape.toml", "nope.toml"):
        body = {"game": "thieves-den", "seats": SEATS, "options": {"cards": name}}
        r = files_client.post("/api/tables", json=body)
        assert r.status_code == 400 and r.json()["code"] == "options/invalid", r.text
        assert "(files: inside.toml, mine.toml)" in r.json()["message"], r.text
    made = new_table(files_client, "inside.toml")
    assert made["table"]["options"]["cards"]  # (held inline)
