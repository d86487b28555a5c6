"""Fair deals: the server chooses every ordinary table's seed, a creator's chosen deal is a
scenario table shown as such, and each table commits to its deal up front so that anyone
can check the finished record (`thievery verify`, the replay page)."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import thievery
from tests.server.conftest import exchange, listing, stored_running
from tests.server.test_api import play_to_end
from thievery.cli import app
from thievery.core.record import SALT_KEYED, GameRecord, deal_commitment, replay
from thievery.core.rng import KeyedRng
from thievery.server import create_app
from thievery.server.lobby import lobby_metadata, lobby_seats_t
from thievery.server.seats import hash_token
from thievery.server.storage import ActionRow, Storage, TableRecord, tables_t

BOTS = [{"kind": "bot", "bot": "heuristic"} for _ in range(3)]
runner = CliRunner()


def _tables(client: TestClient) -> int:
    return len(stored_running(client))


def _finished(client: TestClient, table_id: str) -> dict[str, Any]:
    deadline = time.time() + 30
    while not client.get(f"/api/tables/{table_id}").json()["over"]:
        assert time.time() < deadline, "the bots did not finish"
        time.sleep(0.02)
    record: dict[str, Any] = client.get(f"/api/tables/{table_id}/record").json()
    return record


def test_a_chosen_seed_or_a_stacked_deal_needs_a_scenario_table(client: TestClient) -> None:
    before = _tables(client)
    body = {"game": "schattendieb", "seats": BOTS, "options": {"games": 1}}
    seeded = client.post("/api/tables", json={**body, "seed": 5})
    assert seeded.status_code == 400 and seeded.json()["code"] == "table/scenario_only"
    assert "a seed" in seeded.json()["message"]
    hands = [["ring-1a", "ring-2a", "ring-3a", "ring-4a"]] + [[] for _ in range(2)]
    stacked = client.post("/api/tables", json={**body, "options": {"games": 1, "hands": hands}})
    assert stacked.status_code == 400 and "'hands'" in stacked.json()["message"]
    assert _tables(client) == before  # nothing was made


def test_an_ordinary_tables_deal_is_committed_and_its_record_verifies(
    client: TestClient, tmp_path: Path
) -> None:
    body = {"game": "schattendieb", "seats": BOTS, "options": {"games": 1}}
    made = client.post("/api/tables", json=body).json()["table"]
    assert made["scenario"] is False and "scenario_seed" not in made
    commitment = made["commitment"]
    assert isinstance(commitment, str) and len(commitment) == 64
    other = client.post("/api/tables", json=body).json()["table"]
    assert other["commitment"] != commitment  # fresh seed and salt for every table
    record = _finished(client, made["id"])
    assert record["commitment"] == commitment
    setup = {k: record[k] for k in ("version", "players", "options")}
    assert len(record["salt"]) == 64  # (its commitment covers the whole setup; it keys the deal)
    assert deal_commitment(record["game"], record["seed"], record["salt"], **setup) == commitment
    assert "scenario" not in record

    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    good = runner.invoke(app, ["verify", str(path), "--commitment", commitment])
    assert good.exit_code == 0 and "verified" in good.output and commitment in good.output
    # The seats as everywhere else on screen: counted from 1, a bot by its level.
    assert "3 players: Seat 1 (Casual), Seat 2 (Casual), Seat 3 (Casual)" in good.output
    # and so in the result (it was {'scores': [...], 'winners': [1]}: 0-based, Python's)
    scores = ", ".join(
        f"Seat {i + 1} (Casual) {n}" for i, n in enumerate(record["result"]["scores"])
    )
    assert f"Result: {scores}; won by" in good.output and "'scores'" not in good.output
    wrong = runner.invoke(app, ["verify", str(path), "--commitment", "0" * 64])
    assert wrong.exit_code == 1 and "NOT VERIFIED" in wrong.output

    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps({**record, "seed": record["seed"] + 1}))
    changed = runner.invoke(app, ["verify", str(tampered)])
    assert changed.exit_code == 1 and "does not match its seed and salt" in changed.output
    refused = client.post("/api/replay", json={**record, "seed": record["seed"] + 1})
    assert refused.status_code == 400 and "commitment" in refused.json()["message"]
    replayed = client.post("/api/replay", json=record).json()
    assert replayed["deal"] == {
        "commitment": commitment,
        "scenario": False,
        "result_matches": True,
    }
    lied = client.post("/api/replay", json={**record, "result": {"scores": [], "winners": []}})
    path.write_text(json.dumps({**record, "result": {"scores": [1, 2, 3], "winners": [2]}}))
    said = runner.invoke(app, ["verify", str(path)])
    assert said.exit_code == 1 and "the record says: Result: Seat 1 (Casual) 1, " in said.output
    assert "won by Seat 3 (Casual)" in said.output
    # A result no seat list fits is told as it is, not a traceback (it was an IndexError).
    for edited in ({"scores": [1, 2, 3], "winners": [5]}, {"scores": [0], "winners": 1}):
        path.write_text(json.dumps({**record, "result": edited}))
        said = runner.invoke(app, ["verify", str(path)])
        assert said.exit_code == 1 and isinstance(said.exception, SystemExit), said.exception
        assert f"the record says: {json.dumps(edited, sort_keys=True)}" in said.output
    # A difference the words do not show (another key) is told in JSON, both sides.
    path.write_text(json.dumps({**record, "result": {**record["result"], "tie": True}}))
    said = runner.invoke(app, ["verify", str(path)])
    assert said.exit_code == 1 and '"tie": true' in said.output
    assert lied.json()["deal"]["result_matches"] is False


def test_a_scenario_table_shows_its_deal_in_the_open(client: TestClient) -> None:
    hands = [[f"{kind}-{v}a" for v in range(1, 5)] for kind in ("ring", "watch", "brooch")]
    body = {
        "game": "schattendieb",
        "seats": [{"kind": "human", "name": "Ann"}, *BOTS[:2]],
        "options": {"games": 1, "hands": hands},
        "seed": 77,
        "scenario": True,
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    made = response.json()
    table = made["table"]
    assert table["scenario"] is True and table["scenario_seed"] == 77
    assert table["scenario_options"]["hands"] == hands  # the stacked deal, in the open
    listed = [t for t in listing(client, table["id"])["live"] if t["id"] == table["id"]]
    assert listed[0]["scenario"] is True
    play_to_end(client, table["id"], {0: exchange(client, table["id"], made["seats"][0]["token"])})
    record = client.get(f"/api/tables/{table['id']}/record").json()
    assert record["scenario"] is True and record["seed"] == 77
    assert record["commitment"] == table["commitment"]


def test_a_scenario_record_cannot_pass_for_a_fair_deal(client: TestClient, tmp_path: Path) -> None:
    """Its commitment covers that it is a scenario: a record with the mark taken off (a
    chosen seed passed off as the server's) does not match the commitment the table
    showed; and a record whose options stack the deal must say it is a scenario."""
    chosen = {"seed": 42, "scenario": True}
    body = {"game": "schattendieb", "seats": BOTS, "options": {"games": 1}, **chosen}
    made = client.post("/api/tables", json=body).json()["table"]
    commitment = made["commitment"]
    record = _finished(client, made["id"])
    assert record["commitment"] == commitment
    setup = {k: record[k] for k in ("version", "players", "options")}
    assert deal_commitment(record["game"], 42, record["salt"], True, **setup) == commitment
    assert deal_commitment(record["game"], 42, record["salt"], **setup) != commitment
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    good = runner.invoke(app, ["verify", str(path), "--commitment", commitment])
    assert good.exit_code == 0 and "scenario table" in good.output

    unmarked = {k: v for k, v in record.items() if k not in ("scenario", "commitment")}
    path.write_text(json.dumps(unmarked))
    passed_off = runner.invoke(app, ["verify", str(path), "--commitment", commitment])
    assert passed_off.exit_code == 1 and "NOT VERIFIED" in passed_off.output
    assert "scenario table    the creator" not in passed_off.output

    hands = [[f"{kind}-{v}a" for v in range(1, 5)] for kind in ("ring", "watch", "brooch")]
    stacked = {**unmarked, "options": {**record["options"], "hands": hands}}
    path.write_text(json.dumps(stacked))
    refused = runner.invoke(app, ["verify", str(path)])
    assert refused.exit_code == 1 and "stack the deal ('hands')" in refused.output
    r = client.post("/api/replay", json=stacked)
    assert r.status_code == 400 and "stack the deal" in r.json()["message"]


def test_a_database_made_before_commitments_gains_the_columns(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = sa.MetaData()
    kept = [
        sa.Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable)
        for c in tables_t.columns
        if c.name not in ("scenario", "salt", "maker", "listed")
    ]
    sa.Table(tables_t.name, old, *kept)
    engine = sa.create_engine(url)
    old.create_all(engine)
    row = {
        "id": "old1",
        "game": "thieves",
        "game_version": 1,
        "players": 3,
        "seed": 9,
        "options": {},
        "seats": [],
        "host_hash": "x" * 64,
        "timeout_bot": "random",
        "created_at": 1.0,
        "finished": False,
        "actions": 0,
    }
    lobby_metadata.create_all(engine)  # (a table listed in the lobby then: old2)
    with engine.begin() as conn:
        conn.execute(sa.insert(old.tables[tables_t.name]), row)
        conn.execute(sa.insert(old.tables[tables_t.name]), {**row, "id": "old2"})
        conn.execute(sa.insert(lobby_seats_t), {"table_id": "old2", "seat": 1})
    engine.dispose()
    storage = Storage(url)
    try:
        records = {r.id: r for r in storage.unfinished()}
        record = records["old1"]
        assert record.scenario is False and record.salt is None
        assert record.maker is None  # (a table made before makers were kept: not counted)
        # Listed in the public lists: the table the lobby listed then, not the other.
        assert (record.listed, records["old2"].listed) == (False, True)
    finally:
        storage.close()


def test_a_legacy_option_replays_old_records_only(client: TestClient) -> None:
    """Der Schattendieb's ``v1_add_step`` keeps rules version 1 for its records: it is not
    listed, not shown in views, and new tables cannot choose it."""
    listed = {g["name"]: g for g in client.get("/api/games").json()}["schattendieb"]
    assert "v1_add_step" not in {o["name"] for o in listed["options"]}
    body = {"game": "schattendieb", "seats": BOTS, "options": {"games": 1, "v1_add_step": True}}
    refused = client.post("/api/tables", json=body)
    assert refused.status_code == 400 and "older rules" in refused.json()["message"]
    seats = [{"kind": "human"}, *BOTS[:2]]
    made = client.post("/api/tables", json={**body, "seats": seats, "options": {"games": 1}})
    tid = made.json()["table"]["id"]
    token = exchange(client, tid, made.json()["seats"][0]["token"])
    view = client.get(f"/api/tables/{tid}/state", headers={"Authorization": f"Bearer {token}"})
    assert "v1_add_step" not in view.json()["view"]["options"]


def test_a_record_of_another_setup_with_the_tables_seed_and_salt_does_not_verify(
    client: TestClient, tmp_path: Path
) -> None:
    """The commitment covered game, seed and salt only: a made-up record with the real
    table's seed and salt, but four players instead of three, other options, names and
    moves, verified against the table's commitment. It covers the whole setup now."""
    body = {"game": "thieves", "seats": BOTS, "options": {}}
    made = client.post("/api/tables", json=body).json()["table"]
    commitment = made["commitment"]
    record = _finished(client, made["id"])
    path = tmp_path / "record.json"
    forged = {
        k: v for k, v in record.items() if k not in ("commitment", "actions", "result", "names")
    }
    changes = [
        {"players": 4},
        {"options": {**record["options"], "raid_ties": "none_busted"}},
        {"version": record["version"] + 1},
    ]
    for change in changes:
        path.write_text(json.dumps({**forged, **change, "actions": []}))
        told = runner.invoke(app, ["verify", str(path), "--commitment", commitment])
        assert told.exit_code == 1 and "NOT VERIFIED" in told.output, (change, told.output)
    # A record of a table made before (a salt of 32 digits: game, seed and salt only;
    # dealt from the seed alone) still verifies as it did.
    state = thievery.game("thieves").new(3, record["seed"], record["options"])
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    old = GameRecord.of(state).to_json() | {"salt": record["salt"][:32]}
    old_commitment = deal_commitment(old["game"], old["seed"], old["salt"])
    path.write_text(json.dumps({**old, "commitment": old_commitment}))
    kept = runner.invoke(app, ["verify", str(path), "--commitment", old_commitment])
    assert kept.exit_code == 0 and "verified" in kept.output, kept.output


def test_verify_without_the_tables_commitment_says_only_that_the_record_agrees_with_itself(
    client: TestClient, tmp_path: Path
) -> None:
    """Without --commitment it said "verified": a scenario record with its mark taken off
    passed as a fair deal. And a record whose result was taken off verified."""
    body = {"game": "schattendieb", "seats": BOTS, "options": {"games": 1}}
    made = client.post("/api/tables", json=body).json()["table"]
    record = _finished(client, made["id"])
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    alone = runner.invoke(app, ["verify", str(path)])
    assert alone.exit_code == 0 and "consistent" in alone.output
    assert "verified" not in alone.output.replace("To verify", "")
    assert "3 players" in alone.output and "options" in alone.output
    path.write_text(json.dumps({**record, "result": None}))
    cut = runner.invoke(app, ["verify", str(path), "--commitment", made["commitment"]])
    assert cut.exit_code == 1 and "but the record says: no result" in cut.output


def test_an_ordinary_tables_deal_is_keyed_by_its_seed_and_salt(client: TestClient) -> None:
    """What a seat sees (its cards, the bots' choices) cannot give the deal away: the game
    is not dealt from the table's seed alone (SplitMix64, whose outputs give its seed
    away, and with it every hand), but from a generator keyed by a hash of seed and salt;
    the finished record, which reveals both, replays it exactly. Bots are seeded from that
    key too."""
    body = {"game": "schattendieb", "seats": BOTS, "options": {"games": 1}}
    made = client.post("/api/tables", json=body).json()["table"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    table = hub.tables[made["id"]]
    record = GameRecord.from_json(_finished(client, made["id"]))
    bots = list(table.driver.bots.values())  # (the ones that played)
    assert len(bots) == 3
    assert all(isinstance(getattr(bot, "rng", None), KeyedRng) for bot in bots)
    assert record.salt is not None and len(record.salt) == SALT_KEYED
    keyed = record.start()
    assert isinstance(keyed.rng, KeyedRng)  # type: ignore[attr-defined]
    plain = dataclasses.replace(record, salt=None).start()  # the seed alone
    assert [keyed.view(s) for s in range(3)] != [plain.view(s) for s in range(3)]
    assert replay(record).result() == record.result  # (as the table played it)


def test_a_table_made_before_keyed_deals_is_dealt_from_its_seed_as_it_was(
    sqlite_url: str,
) -> None:
    """A table stored with an older salt (48 digits) goes on after an upgrade: dealt from
    its seed, its stored actions apply; its record replays."""
    spec = thievery.game("schattendieb")
    state = spec.new(3, 4242, {"games": 1})
    for _ in range(6):
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    old = GameRecord.of(state)
    old.salt = "ab" * 24
    row = TableRecord(
        id="oldtable",
        game=old.game,
        game_version=old.version,
        players=3,
        seed=old.seed,
        options=dict(old.options),
        seats=[
            {"kind": "human", "name": f"P{i}", "bot": None, "token_hash": None} for i in range(3)
        ],
        host_hash=hash_token("host"),
        salt=old.salt,
    )

    def write(conn: Any) -> None:
        Storage.insert_table(conn, row)
        for n, (seat, action) in enumerate(old.actions):
            Storage.append_action(conn, row.id, ActionRow(n, seat, action, time.time(), "human"))

    storage = Storage(sqlite_url)
    storage.run(write)
    storage.close()
    with TestClient(create_app(sqlite_url, bot_delay=0)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        loaded = client.portal.call(hub.get, row.id)  # type: ignore[union-attr]
        assert loaded.version == 6 and not loaded.broken and not loaded.is_over
        assert [loaded.state.view(s) for s in range(3)] == [state.view(s) for s in range(3)]
    assert replay(old).view(0) == state.view(0)
