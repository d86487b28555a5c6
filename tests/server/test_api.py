"""The JSON HTTP API: games, creating tables, acting with tokens, errors, records, replays."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient

import thievery
from tests.server.conftest import create_table, exchange, listing, seat_keys, stored_running
from thievery.bots.levels import LEVELS
from thievery.core.record import GameRecord, replay


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def state(client: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}/state", headers=auth(token) if token else {})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def play_to_end(client: TestClient, table_id: str, tokens: dict[int, str]) -> None:
    """Every human seat plays its first legal action over HTTP until the match is over."""
    for _ in range(5000):
        progressed = False
        for token in tokens.values():
            s = state(client, table_id, token)
            if s["result"] is not None:
                return
            if s["legal"]:
                r = client.post(
                    f"/api/tables/{table_id}/actions",
                    json={"action": s["legal"][0], "version": s["version"]},
                    headers=auth(token),
                )
                assert r.status_code in (200, 409), r.text  # 409: stale, a bot moved first
                progressed = True
        if not progressed:
            time.sleep(0.005)
    raise AssertionError("the game did not end")


def test_games_lists_specs_and_bots(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    sd = games["schattendieb"]
    assert sd["title"] == "Der Schattendieb"
    assert (sd["min_players"], sd["max_players"]) == (3, 7)
    assert "heuristic" in sd["bots"] and "random" in sd["bots"]
    assert all(o["name"] not in ("hands", "pile_top") for o in sd["options"])  # secret


def test_create_returns_a_token_per_human_seat(client: TestClient) -> None:
    made = create_table(client, ["human", "bot:random", "human", "bot:heuristic"])
    table = made["table"]
    assert [s["seat"] for s in made["seats"]] == [0, 2]
    tokens = [s["token"] for s in made["seats"]]
    assert len(set(tokens)) == 2 and all(len(t) >= 30 for t in tokens)
    assert made["seats"][0]["invite"].endswith(f"/table/{table['id']}#token={tokens[0]}")
    assert made["host_token"] not in tokens
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "human", "bot"]
    assert "token" not in str(client.get(f"/api/tables/{table['id']}").json()["seats"])
    assert table["id"] in [t["id"] for t in listing(client, table["id"])["live"]]


def test_create_refuses_bad_setups(client: TestClient) -> None:
    cases = [
        ({"game": "chess", "seats": [{"kind": "human"}] * 3}, 404, "game/unknown"),
        ({"game": "schattendieb", "seats": [{"kind": "human"}] * 2}, 400, "options/invalid"),
        (
            {"game": "schattendieb", "seats": [{"kind": "human"}] * 3, "options": {"games": 0}},
            400,
            "options/invalid",
        ),
        (
            {"game": "schattendieb", "seats": [{"kind": "human"}] * 3, "options": {"nope": 1}},
            400,
            "options/invalid",
        ),
        (
            {"game": "schattendieb", "seats": [{"kind": "bot", "bot": "nobody"}] * 3},
            400,
            "options/invalid",
        ),
        ({"game": "schattendieb", "seats": [{"kind": "alien"}] * 3}, 422, "request/invalid"),
        # Not coerced: a program sending these has a bug, told rather than guessed at.
        *(
            (
                {"game": "schattendieb", "seats": [{"kind": "human"}] * 3, **fields},
                422,
                "request/invalid",
            )
            for fields in (
                {"scenario": True, "seed": "5"},
                {"scenario": True, "seed": 5.0},
                {"scenario": "yes"},
                {"scenario": 1},
                {"turn_seconds": "30"},
            )
        ),
        (
            {"game": "schattendieb", "seats": [{"kind": "human"}] * 3, "turn_seconds": 0.1},
            400,
            "options/invalid",
        ),
        (  # a file path on the server's machine is never taken from the network
            {
                "game": "thieves-den",
                "seats": [{"kind": "human"}] * 3,
                "options": {"cards": "/etc/passwd"},
            },
            400,
            "options/invalid",
        ),
    ]
    for body, status, code in cases:
        response = client.post("/api/tables", json=body)
        assert response.status_code == status, (body, response.text)
        assert response.json()["code"] == code
    assert stored_running(client) == []


def test_act_over_http_legal_illegal_malformed_stale_and_wrong_token(
    client: TestClient,
) -> None:
    made = create_table(client, ["human", "human", "bot:heuristic"])
    tid = made["table"]["id"]
    t0, t1 = (
        exchange(client, tid, made["seats"][0]["token"]),
        exchange(client, tid, made["seats"][1]["token"]),
    )
    # The bot chooses at once, but its action is stored by the writer thread: wait for
    # it, so seat 0's version below is the one it acts against.
    for _ in range(500):
        if 2 not in client.get(f"/api/tables/{tid}").json()["to_act"]:
            break
        time.sleep(0.01)
    s0 = state(client, tid, t0)
    assert s0["seat"] == 0 and len(s0["view"]["hand"]) == 4
    url = f"/api/tables/{tid}/actions"
    before = client.get(f"/api/tables/{tid}").json()["actions"]

    def refused(body: Any, headers: dict[str, str], status: int, code: str) -> None:
        r = client.post(url, json=body, headers=headers)
        assert r.status_code == status, r.text
        assert r.json()["code"] == code
        assert r.json()["message"]

    s1 = state(client, tid, t1)
    foreign = s1["view"]["hand"][0]  # seat 1's card, not seat 0's
    refused({"action": {"type": "play", "card": foreign}}, auth(t0), 409, "action/illegal")
    refused({"action": {"type": "fly"}}, auth(t0), 400, "action/malformed")
    refused({"action": {"type": "play", "card": [1]}}, auth(t0), 400, "action/malformed")
    refused({"action": "play"}, auth(t0), 400, "action/malformed")
    refused({"action": s0["legal"][0], "version": s0["version"] + 3}, auth(t0), 409, "action/stale")
    for never in (s0["version"] + 3, -1):  # a version no frame said: not "moved on"
        r = client.post(url, json={"action": s0["legal"][0], "version": never}, headers=auth(t0))
        assert f"never had version {never}" in r.json()["message"], r.text
    refused(
        {"action": s0["legal"][0], "version": str(s0["version"])}, auth(t0), 422, "request/invalid"
    )
    refused({"action": s0["legal"][0]}, auth("not-a-token"), 403, "auth/token")
    refused({"action": s0["legal"][0]}, {}, 403, "auth/token")
    refused({"action": s0["legal"][0]}, auth(made["host_token"]), 403, "auth/token")
    assert client.get(f"/api/tables/{tid}").json()["actions"] == before  # nothing changed

    r = client.post(
        url, json={"action": s0["legal"][0], "version": s0["version"]}, headers=auth(t0)
    )
    assert r.status_code == 200, r.text
    assert r.json()["version"] == s0["version"] + 1
    assert [e["type"] for e in r.json()["events"]] == ["chose"]
    assert r.json()["events"][0]["text"] == "You chose a card"
    # Seat 1 learns only that seat 0 has chosen.
    s1 = state(client, tid, t1)
    assert s1["view"]["chosen"][0] is True
    assert s0["legal"][0]["card"] not in str(s1)


def test_spectator_state_has_no_hands(client: TestClient) -> None:
    made = create_table(client, ["human", "bot:random", "bot:random"])
    tid = made["table"]["id"]
    spectator = state(client, tid)
    assert spectator["seat"] is None and spectator["legal"] == []
    assert spectator["view"]["hand"] == []
    mine = state(client, tid, exchange(client, tid, made["seats"][0]["token"]))
    assert not set(mine["view"]["hand"]) & set(str(spectator).split("'"))
    r = client.get(f"/api/tables/{tid}/state", headers=auth("wrong"))
    assert r.status_code == 403 and r.json()["code"] == "auth/token"
    assert client.get("/api/tables/nope").json()["code"] == "table/unknown"


def test_a_token_sent_anywhere_but_the_bearer_header_is_refused_not_ignored(
    client: TestClient,
) -> None:
    """Not answered as a spectator (the caller would not know why it sees no hand)."""
    made = create_table(client, ["human", "bot:random", "bot:random"])
    tid = made["table"]["id"]
    key = exchange(client, tid, made["seats"][0]["token"])
    url = f"/api/tables/{tid}/state"
    before = client.get(f"/api/tables/{tid}").json()["actions"]
    for wrong in (
        client.get(url, headers={"Authorization": f"Token {key}"}),
        client.get(url, headers={"Authorization": key}),
        client.get(url, params={"token": key}),
        client.post(f"/api/tables/{tid}/actions?token={key}", json={"action": {"type": "x"}}),
    ):
        assert wrong.status_code == 403 and wrong.json()["code"] == "auth/token", wrong.text
        assert "Authorization: Bearer" in wrong.json()["message"]
    assert client.get(f"/api/tables/{tid}").json()["actions"] == before
    assert state(client, tid, key)["seat"] == 0  # where it goes, it works
    assert state(client, tid)["seat"] is None  # and no token at all is a spectator


def test_no_seat_is_handed_to_a_bot_once_the_game_is_over(client: TestClient) -> None:
    made = create_table(client, ["human", "human", "bot:random"])
    tid = made["table"]["id"]
    play_to_end(client, tid, seat_keys(client, made))
    before = client.get(f"/api/tables/{tid}").json()["seats"]
    r = client.post(
        f"/api/tables/{tid}/seats/0/bot", json={"bot": "random"}, headers=auth(made["host_token"])
    )
    assert r.status_code == 409 and r.json()["code"] == "table/over"
    assert client.get(f"/api/tables/{tid}").json()["seats"] == before  # nothing changed


def test_full_game_record_replay_and_play_again(client: TestClient) -> None:
    made = create_table(client, ["human", "bot:heuristic", "human", "bot:random"])
    tid = made["table"]["id"]
    tokens = seat_keys(client, made)
    r = client.get(f"/api/tables/{tid}/record")
    assert r.status_code == 409 and r.json()["code"] == "record/unfinished"
    assert client.get(f"/api/tables/{tid}/replay").json()["code"] == "record/unfinished"
    assert client.post(f"/api/tables/{tid}/again", headers=auth(tokens[0])).status_code == 409

    play_to_end(client, tid, tokens)
    summary = client.get(f"/api/tables/{tid}").json()
    assert summary["over"] and summary["result"]["winners"]

    r = client.get(f"/api/tables/{tid}/record?download=true")
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    record = GameRecord.from_json(r.json())
    assert len(record.actions) == summary["actions"]
    assert replay(record).result() == summary["result"]

    everything = client.get(f"/api/tables/{tid}/replay?perspective=all").json()
    assert everything["result"] == summary["result"]
    assert len(everything["steps"][0]["views"]) == 4
    seat2 = client.get(f"/api/tables/{tid}/replay?perspective=2").json()
    assert all(s["view"]["seat"] == 2 for s in seat2["steps"])
    assert all(a["seat"] == 2 for s in seat2["steps"] for a in s["actions"])
    uploaded = client.post("/api/replay?perspective=spectator", json=r.json()).json()
    assert uploaded["steps"][-1]["view"]["hand"] == []
    bad = client.post("/api/replay", json={"game": "schattendieb"})
    assert bad.status_code == 400 and bad.json()["code"] == "record/invalid"
    assert client.get(f"/api/tables/{tid}/replay?perspective=9").status_code == 400

    assert tid in [t["id"] for t in listing(client, tid)["finished"]]

    r = client.post(f"/api/tables/{tid}/again", headers=auth("wrong"))
    assert r.status_code == 403
    again = client.post(f"/api/tables/{tid}/again", headers=auth(tokens[2])).json()
    same = client.post(f"/api/tables/{tid}/again", headers=auth(tokens[0])).json()
    assert again["id"] == same["id"] != tid
    assert again["prev_id"] == tid
    assert [s["kind"] for s in again["seats"]] == ["human", "bot", "human", "bot"]
    # Everyone keeps their token at the new table.
    assert state(client, again["id"], tokens[2])["seat"] == 2
    assert client.get(f"/api/tables/{tid}").json()["next_id"] == again["id"]
    # The listing names the tables played again among those asked for by id, however many
    # tables have finished since (none listed here: finished=0), so that a browser that
    # held a seat at the first finds the next; ids not asked for, or not played again, not.
    named = client.get(f"/api/tables?finished=0&mine={tid},{again['id']},nosuch").json()
    assert named["finished"] == [] and named["next"] == {tid: again["id"]}
    assert client.get("/api/tables?finished=0").json()["next"] == {}


def texts(events: list[dict[str, Any]]) -> list[str]:
    return [e["text"] for e in events]


def test_names_a_log_could_not_tell_apart_are_refused(client: TestClient) -> None:
    before = stored_running(client)

    def create(*names: str) -> Any:
        seats = [{"kind": "human", "name": n} for n in names]
        body = {"game": "schattendieb", "seats": seats, "options": {"games": 1}}
        return client.post("/api/tables", json=body)

    for names, words in [
        (("Ann", "Bo", "ann "), "seats 0 and 2 are both named 'ann'"),
        (("Ann", "You", "Cy"), "seat 1 cannot be named 'You'"),
        (("Seat 1", "", "Cy"), "seats 0 and 1 are both named 'Seat 1'"),  # 1's default
    ]:
        r = create(*names)
        assert r.status_code == 400 and r.json()["code"] == "seat/name", r.text
        assert words in r.json()["message"]
    assert stored_running(client) == before  # nothing was made
    made = create("Ann", "Bo", "Cy")
    assert made.status_code == 201

    # A table made before the rule, whose names clash, still plays again with its names.
    tid = made.json()["table"]["id"]
    tokens = seat_keys(client, made.json())
    play_to_end(client, tid, tokens)
    old = client.app.state.hub.tables[tid]  # type: ignore[attr-defined]
    old.seats[1].name = "ANN"
    again = client.post(f"/api/tables/{tid}/again", headers=auth(tokens[0]))
    assert again.status_code == 200, again.text
    assert [s["name"] for s in again.json()["seats"]] == ["Ann", "ANN", "Cy"]


def test_the_log_the_act_response_and_the_replay_name_the_seats(client: TestClient) -> None:
    seats = [
        {"kind": "human", "name": "Alice"},
        {"kind": "human", "name": "Bo"},
        {"kind": "bot", "bot": "heuristic", "name": "Robo"},
    ]
    body = {"game": "schattendieb", "seats": seats, "options": {"games": 1}}
    body |= {"seed": 1, "scenario": True}
    made = client.post("/api/tables", json=body).json()
    tid = made["table"]["id"]
    tokens = seat_keys(client, made)
    deadline = time.time() + 10
    while "Robo chose a card" not in texts(state(client, tid)["log"]):  # the bot moves at once
        assert time.time() < deadline, "the bot did not choose"
        time.sleep(0.005)

    def act(seat: int) -> list[str]:
        s = state(client, tid, tokens[seat])
        action = {"action": s["legal"][0], "version": s["version"]}
        r = client.post(f"/api/tables/{tid}/actions", json=action, headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        return texts(r.json()["events"])

    assert act(0) == ["You chose a card"]
    reveal = act(1)[1]  # Bo is the last to choose: the cards are revealed
    assert reveal.startswith("Revealed — Alice: ") and "; you: " in reveal
    assert "; Robo: " in reveal
    assert "Alice chose a card" in texts(state(client, tid, tokens[1])["log"])
    assert texts(state(client, tid)["log"])[:3] == [
        "Robo chose a card",
        "Alice chose a card",
        "Bo chose a card",
    ]

    play_to_end(client, tid, tokens)
    record = client.get(f"/api/tables/{tid}/record").json()
    assert record["names"] == ["Alice", "Bo", "Robo"]
    replayed = client.get(f"/api/tables/{tid}/replay?perspective=all").json()
    words = texts([e for step in replayed["steps"] for e in step["events"]])
    assert replayed["names"] == ["Alice", "Bo", "Robo"]
    assert any(w.startswith("(to Bo) You ") for w in words), words
    assert not any(re.search(r"\b[Ss]eat \d", w) for w in words)
    # An uploaded record without names reads "seat N"; with names, by them.
    unnamed = {k: v for k, v in record.items() if k != "names"}
    plain = client.post("/api/replay?perspective=spectator", json=unnamed).json()
    assert plain["names"] is None
    assert "Seat 2 chose a card" in texts(plain["steps"][1]["events"])
    named = client.post("/api/replay?perspective=spectator", json=record).json()
    assert "Robo chose a card" in texts(named["steps"][1]["events"])
    too_long = {**record, "names": ["Alice", "Bo", "R" * 41]}
    r = client.post("/api/replay", json=too_long)
    assert r.status_code == 400 and r.json()["code"] == "record/invalid"
    # Names the replay's words could not tell apart, as a table refuses them.
    for names in (["Alice", "You", "Robo"], ["Alice", "alice", "Robo"]):
        r = client.post("/api/replay", json={**record, "names": names})
        assert r.status_code == 400 and r.json()["code"] == "record/invalid", r.text
        assert "names" in r.json()["message"]


def test_hand_a_seat_to_a_bot_and_take_it_back(client: TestClient) -> None:
    # (a set deal, whose game goes on past round 2: on a random one the game could end
    # there, and the seat could not be taken back from a game over: 409 table/over)
    made = create_table(client, ["human", "human", "bot:random"], seed=3, scenario=True)
    tid = made["table"]["id"]
    t0, t1 = seat_keys(client, made).values()
    url = f"/api/tables/{tid}/seats/1/bot"
    assert client.post(url, json={"bot": "random"}, headers=auth(t0)).status_code == 403
    r = client.post(url, json={"bot": "nobody"}, headers=auth(t1))
    assert r.status_code == 400 and r.json()["code"] == "options/invalid"
    r = client.post(
        f"/api/tables/{tid}/seats/2/bot", json={"bot": "random"}, headers=auth(made["host_token"])
    )
    assert r.json()["code"] == "seat/not_human"
    # The host hands seat 1 (whose player left) to a bot; the bot plays it.
    r = client.post(url, json={"bot": "heuristic"}, headers=auth(made["host_token"]))
    assert r.status_code == 200 and r.json()["seats"][1]["bot"] == "heuristic"
    s0 = state(client, tid, t0)
    client.post(f"/api/tables/{tid}/actions", json={"action": s0["legal"][0]}, headers=auth(t0))
    deadline = time.time() + 10
    while state(client, tid, t1)["view"]["round"] < 2 and time.time() < deadline:
        s0 = state(client, tid, t0)
        if s0["legal"]:
            client.post(
                f"/api/tables/{tid}/actions", json={"action": s0["legal"][0]}, headers=auth(t0)
            )
        time.sleep(0.01)
    assert state(client, tid, t1)["view"]["round"] >= 2
    # While the bot plays it, the seat's own token cannot act; taking it back allows it.
    s1 = state(client, tid, t1)
    r = client.post(url, json={"bot": None}, headers=auth(t1))
    assert r.status_code == 200 and r.json()["seats"][1]["bot"] is None
    assert s1["seat"] == 1


def test_the_host_cannot_hand_a_connected_players_seat_to_a_bot(client: TestClient) -> None:
    """A bot handed a seat moves for it: the host may do that for a player who left, not
    for one at the table (who may, for their own seat)."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, host = made["table"]["id"], made["host_token"]
    t1 = made["seats"][1]["token"]
    url = f"/api/tables/{tid}/seats/1/bot"
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_json({"type": "join", "token": t1})
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome"
        t1 = welcome["key"]  # (the seat's own key, its invite exchanged)
        before = state(client, tid, t1)
        r = client.post(url, json={"bot": "random"}, headers=auth(host))
        assert r.status_code == 409 and r.json()["code"] == "seat/present"
        after = state(client, tid, t1)
        assert after["version"] == before["version"] and after["legal"] == before["legal"]
        assert client.get(f"/api/tables/{tid}").json()["seats"][1]["bot"] is None
        r = client.post(url, json={"bot": "random"}, headers=auth(t1))  # their own choice
        assert r.status_code == 200 and r.json()["seats"][1]["bot"] == "random"
        r = client.post(url, json={"bot": None}, headers=auth(host))  # taken back: fine
        assert r.status_code == 200 and r.json()["seats"][1]["bot"] is None
    # Once the player has left, the host may hand the seat to a bot.
    r = client.post(url, json={"bot": "random"}, headers=auth(host))
    assert r.status_code == 200 and r.json()["seats"][1]["bot"] == "random"


def test_bot_seat_refuses_its_human(client: TestClient) -> None:
    made = create_table(client, ["human", "human", "bot:random"])
    tid = made["table"]["id"]
    t1 = exchange(client, tid, made["seats"][1]["token"])
    client.post(f"/api/tables/{tid}/seats/1/bot", json={"bot": "random"}, headers=auth(t1))
    # The bot moves at once; a human action for the botted seat is refused either way.
    r = client.post(
        f"/api/tables/{tid}/actions", json={"action": {"type": "done"}}, headers=auth(t1)
    )
    assert r.status_code == 409 and r.json()["code"] in ("seat/bot", "action/illegal")


def test_turn_timer_lets_a_bot_move_for_a_slow_human(sqlite_url: str) -> None:
    from thievery.server import create_app

    with TestClient(create_app(sqlite_url, bot_delay=0)) as client:
        made = create_table(client, ["human", "bot:random", "bot:random"], turn_seconds=1)
        tid = made["table"]["id"]
        token = exchange(client, tid, made["seats"][0]["token"])
        time.sleep(0.3)
        assert state(client, tid, token)["view"]["round"] == 1
        deadline = time.time() + 10
        while state(client, tid, token)["view"]["round"] == 1 and time.time() < deadline:
            time.sleep(0.05)
        view = state(client, tid, token)["view"]
        assert view["round"] >= 2 or view["phase"] != "play"


def test_pages_docs_and_static_files(client: TestClient) -> None:
    for path in ("/", "/table/abc", "/replay", "/replay/abc"):
        r = client.get(path)
        assert r.status_code == 200 and "<!doctype html>" in r.text.lower()
        assert "default-src 'self'" in r.headers["content-security-policy"]
    for path in (
        "/static/js/table.js",
        "/static/games/schattendieb/game.js",
        "/static/games/schattendieb/game.css",
        "/static/js/generic.js",
        "/static/games/thieves/game.js",
        "/static/games/thieves-den/game.js",
        "/static/games/schatz-rabatz/game.css",
        "/static/css/thievery.css",
    ):
        assert client.get(path).status_code == 200, path
    js = client.get("/static/games/thieves/game.js")
    assert js.headers["content-type"].startswith("text/javascript")
    assert "export default" in js.text  # the file from the game's own package
    css = client.get("/static/games/thieves/game.css")
    assert css.headers["content-type"].startswith("text/css") and "{" in css.text
    for missing in (
        "/static/games/chess/game.js",
        "/static/games/thieves/rules.py",
        "/static/games/thieves/..%2F__init__.py",
    ):
        assert client.get(missing).status_code == 404, missing
    assert client.get("/docs").status_code == 200
    schema = client.get("/openapi.json").json()
    assert "/api/tables/{table_id}/actions" in schema["paths"]
    assert schema["info"]["version"] == thievery.__version__


def test_every_error_is_documented_as_the_json_it_is(client: TestClient) -> None:
    """Errors are JSON on every route, those whose own answer is not (a game's rules page,
    Markdown) among them: the schema says so (it said text/plain there), and a refusal's
    media type is one the schema gives for its status."""
    schema = client.get("/openapi.json").json()
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            for status, response in operation["responses"].items():
                if status.isdigit() and int(status) >= 400:
                    assert list(response.get("content", {})) == ["application/json"], (
                        path,
                        method,
                        status,
                    )
    games = schema["paths"]["/api/games"]["get"]["responses"]
    assert {"405", "500"} <= set(games)  # (a wrong method, a failure: both JSON errors)
    wrong = client.delete("/api/games")
    assert wrong.status_code == 405 and wrong.json()["code"] == "http/405"
    rules = schema["paths"]["/api/games/{name}/rules"]["get"]["responses"]
    assert list(rules["200"]["content"]) == ["text/markdown"]
    refused = client.get("/api/games/chess/rules")
    assert refused.status_code == 404 and refused.json()["code"] == "game/unknown"
    assert refused.headers["content-type"].split(";")[0] in rules["404"]["content"]
    page = client.get("/api/games/thieves/rules")
    assert page.headers["content-type"].split(";")[0] in rules["200"]["content"]


def test_the_pages_get_the_bots_level_words_from_their_one_source(client: TestClient) -> None:
    # The terminal names bots by thievery.bots.levels; the pages' common.js imports the
    # same words from this script, made from it, in English and German.
    script = client.get("/static/js/levels.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    found = dict(re.findall(r"export const (\w+) = (\{.*\});", script.text))
    assert json.loads(found["LEVELS"]) == dict(LEVELS)
    german = json.loads(found["GERMAN"])
    assert german["Casual"] == "Amateur" and german["Beginner"] == "Anfänger"
    assert set(german) == set(LEVELS.values())
    # A seat shows its level in brackets ("Platz 2 (Packer im Erwachsenentempo)"): no level's
    # words hold brackets of their own, in either language.
    assert german["Adult-pace packer"] == "Packer im Erwachsenentempo"
    assert german["Instant packer"] == "Sofort-Packer"
    words = [*LEVELS.values(), *german.values()]
    assert not [w for w in words if "(" in w or ")" in w]
    again = client.get("/static/js/levels.js", headers={"If-None-Match": script.headers["etag"]})
    assert again.status_code == 304


def test_oversized_request_bodies_are_refused(client: TestClient) -> None:
    big = b'{"game": "schattendieb", "pad": "' + b"x" * (5 << 20) + b'"}'
    r = client.post("/api/replay", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "request/too_large"


def test_an_uploaded_record_cannot_make_the_server_open_files(client: TestClient) -> None:
    record = {
        "game": "thieves-den",
        "version": 1,
        "players": 3,
        "seed": 1,
        "options": {"cards": "/etc/passwd"},
        "actions": [],
    }
    response = client.post("/api/replay", json=record)
    assert response.status_code == 400, response.text
    assert "not accepted over the network" in response.json()["message"]


def test_a_card_set_from_the_servers_files_folder(sqlite_url: str, tmp_path: Any) -> None:
    import shutil

    from thievery.games.thieves_den.cards import DEFAULT_PATH
    from thievery.server import create_app

    files = tmp_path / "cards"
    files.mkdir()
    shutil.copy(DEFAULT_PATH, files / "mine.toml")
    (tmp_path / "secret.toml").write_text("x = 1\n")
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    with TestClient(create_app(sqlite_url, bot_delay=0, files_dir=files)) as client:
        made = client.post(
            "/api/tables",
            json={"game": "thieves-den", "seats": seats, "options": {"cards": "mine.toml"}},
        )
        assert made.status_code < 300, made.text
        for name in ("../secret.toml", "/etc/passwd", "nope.toml"):
            refused = client.post(
                "/api/tables",
                json={"game": "thieves-den", "seats": seats, "options": {"cards": name}},
            )
            assert refused.status_code == 400, (name, refused.text)
            assert "the server has no file" in refused.json()["message"]
            assert "mine.toml" in refused.json()["message"]


def test_each_games_rules_page_is_served_from_its_package(client: TestClient) -> None:
    for name in thievery.game_names():
        r = client.get(f"/api/games/{name}/rules")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/markdown")
        assert r.text == thievery.plugin(name).rules_text()
    missing = client.get("/api/games/chess/rules")
    assert missing.status_code == 404 and "chess" in missing.json()["message"]


def test_a_chunked_body_is_capped_by_the_bytes_read(client: TestClient) -> None:
    """No Content-Length (a chunked body): the cap counts what arrives, and a body over it
    is refused with 413 before the route sees it."""
    chunk = b"x" * (1 << 20)
    json_type = {"Content-Type": "application/json"}

    def body() -> Iterator[bytes]:
        yield b'{"game": "schattendieb", "pad": "'
        for _ in range(6):  # 6 MiB, over the 4 MiB cap
            yield chunk
        yield b'"}'

    before = stored_running(client)
    r = client.post("/api/tables", content=body(), headers=json_type)
    assert r.status_code == 413 and r.json()["code"] == "request/too_large"
    assert stored_running(client) == before
    small = client.post(
        "/api/replay", content=iter([b"{}"]), headers={"Content-Type": "application/json"}
    )
    assert small.status_code == 400  # a small chunked body still reaches the route


def test_game_files_carry_an_etag_and_answer_head(client: TestClient) -> None:
    first = client.get("/static/games/thieves/game.js")
    etag = first.headers["etag"]
    assert first.status_code == 200 and etag.startswith('"')
    again = client.get("/static/games/thieves/game.js", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    head = client.head("/static/games/thieves/game.css")
    assert head.status_code == 200 and head.headers["etag"]
    assert "default-src 'self'" in first.headers["content-security-policy"]


def test_seat_names_are_cleaned_before_the_clash_rules(client: TestClient) -> None:
    """NFKC, invisible and control characters removed: look-alikes do not pass as two."""
    bots = [{"kind": "bot", "bot": "random", "name": "Robo"}]

    def make(*names: str) -> Any:
        seats = [{"kind": "human", "name": n} for n in names] + bots
        return client.post("/api/tables", json={"game": "schattendieb", "seats": seats})

    clash = make("Ann", "A\u200bnn")  # a zero-width space inside
    assert clash.status_code == 400 and clash.json()["code"] == "seat/name"
    wide = make("ＹＯＵ", "Bo")  # full-width letters: "YOU" after NFKC
    assert wide.status_code == 400 and "you" in wide.json()["message"].lower()
    made = make("\u202eAnn\x00", "  Bo   Bo ")
    assert made.status_code == 201
    assert [s["name"] for s in made.json()["table"]["seats"][:2]] == ["Ann", "Bo Bo"]


def test_a_live_tables_public_summary_does_not_count_hidden_moves(client: TestClient) -> None:
    """Non-interference for the listing: an action nobody else can see (a seat adding
    jewellery in Der Schattendieb's step 4) leaves the public summary as it was."""
    made = create_table(client, ["human", "human", "human"], {"games": 1}, scenario=True, seed=3)
    tid = made["table"]["id"]
    tokens = list(seat_keys(client, made).values())
    for _ in range(400):
        states = [state(client, tid, t) for t in tokens]
        adder = next((s for s in states if any(a["type"] == "add" for a in s["legal"])), None)
        if adder is not None:
            break
        for s, token in zip(states, tokens, strict=True):
            if s["legal"]:
                client.post(
                    f"/api/tables/{tid}/actions",
                    json={"action": s["legal"][-1], "version": s["version"]},
                    headers=auth(token),
                )
                break
    assert adder is not None, "no seat could add in 400 moves"
    public = client.get(f"/api/tables/{tid}").json()
    spectator = state(client, tid)
    add = next(a for a in adder["legal"] if a["type"] == "add")
    r = client.post(
        f"/api/tables/{tid}/actions",
        json={"action": add, "version": adder["version"]},
        headers=auth(tokens[adder["seat"]]),
    )
    assert r.status_code == 200, r.text
    assert state(client, tid)["view"] == spectator["view"]  # nobody else saw it
    assert client.get(f"/api/tables/{tid}").json() == public


def test_an_action_is_stale_only_if_the_seats_choices_changed(client: TestClient) -> None:
    """In a sealed, simultaneous step another seat's choice moves every version on (its
    badge is public) but changes nobody else's choices: their actions against the version
    they saw still count. Once a seat's own choices change, its old version is stale."""
    made = create_table(client, ["human"] * 3, {"games": 1}, scenario=True, seed=5)
    tid = made["table"]["id"]
    tokens = list(seat_keys(client, made).values())
    first = [state(client, tid, t) for t in tokens]
    url = f"/api/tables/{tid}/actions"

    def act(seat: int, action: Any, version: int) -> Any:
        return client.post(
            url, json={"action": action, "version": version}, headers=auth(tokens[seat])
        )

    assert act(0, first[0]["legal"][0], first[0]["version"]).status_code == 200
    assert state(client, tid, tokens[1])["version"] > first[1]["version"]  # it moved on
    r = act(1, first[1]["legal"][0], first[1]["version"])
    assert r.status_code == 200, r.text  # seat 1's choices were the same: it counts
    assert act(2, first[2]["legal"][0], first[2]["version"]).status_code == 200
    now = state(client, tid, tokens[0])
    assert now["legal"] != first[0]["legal"]  # the round went on: new choices for seat 0
    old = act(0, now["legal"][0], first[0]["version"])
    assert old.status_code == 409 and old.json()["code"] == "action/stale"
    assert act(0, now["legal"][0], now["version"]).status_code == 200


def test_an_address_no_page_has_is_a_page_for_a_browser_and_json_for_programs(
    client: TestClient,
) -> None:
    browser = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    for path in ("/nonexistent", "/table/"):
        page = client.get(path, headers=browser)
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
        assert "Page not found" in page.text and 'href="/"' in page.text
    api = client.get("/api/nothing", headers=browser)  # the API answers in JSON
    assert api.status_code == 404 and api.json()["code"] == "http/404"
    plain = client.get("/nonexistent")  # (no Accept: a program)
    assert plain.status_code == 404 and plain.json()["code"] == "http/404"


def test_a_method_a_path_does_not_take_is_told_every_one_it_does(client: TestClient) -> None:
    """405 with ``Allow`` naming every method of the path (Starlette named the first
    route's only: ``POST`` for ``/api/tables``, whose ``GET`` lists the tables)."""
    for method in ("DELETE", "PUT", "OPTIONS"):
        refused = client.request(method, "/api/tables")
        assert refused.status_code == 405 and refused.json()["code"] == "http/405"
        assert refused.headers["allow"] == "GET, HEAD, POST"
    assert client.delete("/api/tables/abc/actions").headers["allow"] == "POST"
    # HEAD is taken wherever GET is (uptime checks, curl -I answered 405).
    assert client.head("/api/tables/abc/actions").status_code == 405


def test_head_answers_what_get_does_without_the_body(client: TestClient) -> None:
    """HEAD / and HEAD /api/games answered 405, so uptime monitors and curl -I failed."""
    for path in ("/", "/api/games", "/api/tables", "/static/js/i18n.js", "/api/nothing"):
        got, head = client.get(path), client.head(path)
        assert head.status_code == got.status_code, path
        assert head.content == b"", path
        assert head.headers.get("content-type") == got.headers.get("content-type"), path
        if "content-length" in got.headers:
            assert head.headers["content-length"] == got.headers["content-length"], path


def test_only_listed_tables_are_in_the_public_lists(client: TestClient) -> None:
    """A table its creator did not list was in everyone's "Playing now" (and its chat a
    Watch away): now it is reached by its links only, and listed for a browser that names
    it (its own tables). Finished ones too; play again keeps the choice."""

    def ids(tables: list[dict[str, Any]]) -> list[str]:
        return sorted(t["id"] for t in tables)

    private = create_table(client, ["human", "bot:random", "bot:random"])
    public = create_table(client, ["human", "bot:random", "bot:random"], listed=True)
    uid, pid = private["table"]["id"], public["table"]["id"]
    assert ids(listing(client)["live"]) == [pid]
    assert ids(listing(client, uid)["live"]) == sorted([pid, uid])
    assert client.get(f"/api/tables/{uid}").status_code == 200  # (its link still works)
    # Past the first 100 names, or names no id has, nothing more is listed; too long: 422.
    assert ids(listing(client, *[f"x{n}" for n in range(100)], uid)["live"]) == [pid]
    assert ids(listing(client, "y" * 40, uid)["live"]) == sorted([pid, uid])
    assert client.get("/api/tables?mine=" + "z," * 3400).status_code == 422
    again = {}
    for made in (private, public):
        tid = made["table"]["id"]
        key = exchange(client, tid, made["seats"][0]["token"])
        play_to_end(client, tid, {0: key})
        again[tid] = client.post(f"/api/tables/{tid}/again", headers=auth(key)).json()["id"]
    assert ids(listing(client)["finished"]) == [pid]
    assert ids(listing(client, uid)["finished"]) == sorted([pid, uid])
    assert ids(listing(client)["live"]) == [again[pid]]
    assert ids(listing(client, again[uid])["live"]) == sorted([again[pid], again[uid]])
