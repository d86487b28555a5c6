"""Live play over websockets: joining, acting, error frames, and what each connection sees."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import FAST, LIFTED, Player, create_table, settle
from thievery.core.record import GameRecord
from thievery.games.schattendieb.cards import CARD_ID, CARD_INDEX
from thievery.server import Limits, create_app
from thievery.server.live import LiveTable
from thievery.server.storage import ActionRow


def ws_url(table_id: str) -> str:
    return f"/api/tables/{table_id}/ws"


def test_join_as_seat_or_spectator_and_act(client: TestClient) -> None:
    made = create_table(client, ["human", "human", "bot:heuristic"])
    tid = made["table"]["id"]
    t0, t1 = made["seats"][0]["token"], made["seats"][1]["token"]
    with (
        client.websocket_connect(ws_url(tid)) as w0,
        client.websocket_connect(ws_url(tid)) as w1,
        client.websocket_connect(ws_url(tid)) as ws,
    ):
        p0, p1, spectator = Player(w0, t0), Player(w1, t1), Player(ws, None)
        assert p0.latest["seat"] == 0 and len(p0.latest["view"]["hand"]) == 4
        assert p1.latest["seat"] == 1
        assert spectator.latest["seat"] is None and spectator.latest["legal"] == []
        assert p0.latest["summary"]["seats"][2]["bot"] == "heuristic"
        card = p0.latest["legal"][0]["card"]
        ack = p0.act(p0.latest["legal"][0])
        assert ack["type"] == "ack" and ack["version"] == p0.latest["version"]
        mine = [f for f in p0.frames if f["type"] == "update"][-1]
        assert mine["view"]["my_choice"] == card and mine["legal"] == []
        assert mine["events"][0]["text"] == "You chose a card"
        p1.sync()
        spectator.sync()
        for other in (p1, spectator):
            assert other.latest["view"]["chosen"][0] is True
            assert card not in "".join(other.texts)
            assert any(
                e.get("text") == "Seat 0 chose a card"
                for f in other.frames
                for e in f.get("events", [])
            )
        # A spectator cannot act.
        assert spectator.act({"type": "done"}, None)["code"] == "seat/spectator"


def test_live_events_name_the_seats(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "Alice"}, {"kind": "bot", "bot": "heuristic"}]
    seats.append({"kind": "bot", "bot": "random", "name": "<b>Robo</b>"})
    made = client.post("/api/tables", json={"game": "schattendieb", "seats": seats}).json()
    tid, token = made["table"]["id"], made["seats"][0]["token"]
    settle(client, tid)

    def words(player: Player) -> list[str]:
        """The texts of every event the player was sent: its welcome log and updates."""
        frames = player.frames
        return [e["text"] for f in frames for e in (*f.get("log", []), *f.get("events", []))]

    with (
        client.websocket_connect(ws_url(tid)) as w0,
        client.websocket_connect(ws_url(tid)) as ws,
    ):
        alice, spectator = Player(w0, token), Player(ws, None)
        alice.act(alice.latest["legal"][0])
        for player, me in ((alice, "You"), (spectator, "Alice")):
            while not any(w.startswith("Revealed — ") for w in words(player)):
                player.receive()  # until every seat has chosen
            for name in (me, "Seat 1 (heuristic)", "<b>Robo</b>"):
                assert f"{name} chose a card" in words(player), (name, words(player))


def test_bad_frames_get_error_frames_and_change_nothing(client: TestClient) -> None:
    made = create_table(client, ["human", "human", "bot:random"])
    tid = made["table"]["id"]
    t0 = made["seats"][0]["token"]
    with client.websocket_connect(ws_url(tid)) as w0:
        with client.websocket_connect(ws_url(tid)) as anon:
            anon.send_json({"type": "act", "action": {"type": "done"}})
            assert anon.receive_json()["code"] == "join/first"
            anon.send_json({"type": "join", "token": "guess"})
            assert anon.receive_json()["code"] == "auth/token"
            anon.send_json({"type": "join", "token": 12})
            assert anon.receive_json()["code"] == "auth/token"
            anon.send_json({"type": "act", "action": {"type": "done"}})
            assert anon.receive_json()["code"] == "join/first"  # a wrong token acts for nobody
        # The bot chooses at once, but its action is stored by the writer thread: wait
        # for it, so the version below is the one seat 0 keeps.
        for _ in range(500):
            if 2 not in client.get(f"/api/tables/{tid}").json()["to_act"]:
                break
            time.sleep(0.01)
        p = Player(w0, t0)
        version = p.latest["version"]
        hand = p.latest["view"]["hand"]
        codes = {
            "frame/malformed": [
                "{not json",
                "[1, 2]",
                "null",
                "[" * 2000 + "]" * 2000,
                # Strict JSON: no NaN, no integer past 64 bits.
                '{"type": "act", "action": {"type": "done"}, "version": NaN}',
                '{"type": "act", "action": {"type": "done"}, "version": ' + "9" * 40 + "}",
            ],
            "frame/too_large": [json.dumps({"type": "ping", "pad": "x" * 5000})],
            "frame/unknown": [{"type": "dance"}, {"no": "type"}],
            "action/malformed": [
                {"type": "act", "action": {"type": "fly"}, "version": version},
                {"type": "act", "action": "play", "version": version},
                {"type": "act", "action": {"type": "play", "card": {"x": 1}}, "version": version},
                {"type": "act", "action": {"type": "play", "card": "ring-6b", "x": 1}},
                {"type": "act", "version": version},
            ],
            "action/illegal": [
                {"type": "act", "action": {"type": "steal", "card": hand[0]}, "version": version},
                {
                    "type": "act",
                    "action": {
                        "type": "play",
                        "card": next(c for c in CARD_INDEX if c not in hand),
                    },
                    "version": version,
                },
            ],
            # Stale: a version from before the seat's choices were what they are (here,
            # none), or one it never saw. (An older version with the same choices counts:
            # test_api's test_an_action_is_stale_only_if_the_seats_choices_changed.)
            "action/stale": [
                {"type": "act", "action": {"type": "play", "card": hand[0]}, "version": v}
                for v in (-1, 10**6)
            ],
        }
        for code, frames in codes.items():
            for frame in frames:
                error = p.error(frame)
                assert error["code"] == code, (frame, error)
                assert error["message"]
        p.ws.send_bytes(b"\x00\x01")
        assert p.read_until(lambda f: f["type"] == "error")["code"] == "frame/malformed"
        # The connection, the table and the game are intact: the same seat still acts.
        p.sync()
        assert p.latest["version"] == version
        assert p.latest["view"]["hand"] == hand
        assert p.act({"type": "play", "card": hand[0]})["type"] == "ack"


def test_rate_limit_per_connection(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, limits=Limits(rate=20, burst=40))
    with TestClient(app) as client:
        made = create_table(client, ["human", "bot:random", "bot:random"])
        with client.websocket_connect(ws_url(made["table"]["id"])) as w:
            w.send_json({"type": "join", "token": made["seats"][0]["token"]})
            assert w.receive_json()["type"] == "welcome"
            for i in range(60):
                w.send_json({"type": "ping", "id": i})
            answers = []
            while len(answers) < 60:
                frame = w.receive_json()
                if frame["type"] in ("pong", "error"):
                    answers.append(frame)
            limited = [a for a in answers if a["type"] == "error"]
            assert limited and all(a["code"] == "rate/limited" for a in limited)
            assert sum(a["type"] == "pong" for a in answers) >= 30
            time.sleep(0.3)  # the bucket refills: the connection is still there
            w.send_json({"type": "ping", "id": "after"})
            while (frame := w.receive_json())["type"] != "pong":
                pass
            assert frame["id"] == "after"


def test_unknown_table_socket(client: TestClient) -> None:
    with client.websocket_connect(ws_url("nope")) as w:
        assert w.receive_json()["code"] == "table/unknown"


def test_reconnect_resumes_the_seat(client: TestClient) -> None:
    made = create_table(client, ["human", "human", "human"])
    tid = made["table"]["id"]
    token = made["seats"][0]["token"]
    with client.websocket_connect(ws_url(tid)) as w:
        p = Player(w, token)
        assert p.act(p.latest["legal"][0])["type"] == "ack"
        p.sync()
        before = p.latest
    assert client.get(f"/api/tables/{tid}").json()["seats"][0]["connected"] == 0
    assert p.token != token  # the invite was exchanged for the seat's own key
    with client.websocket_connect(ws_url(tid)) as w:
        again = Player(w, p.token)
        assert again.latest["view"] == before["view"]
        assert again.latest["version"] == before["version"]
        assert again.latest["view"]["my_choice"] is not None
        assert [e["text"] for e in again.latest["log"]] == ["You chose a card"]


def hidden_from(table: LiveTable, audience: int | None) -> set[str]:
    """Every card id the audience may not know now: other hands, sealed cards, the pile."""
    places = table.state.locations()
    hidden: set[str] = set()
    for name, cards in places.items():
        seat_places = ("hand", "choice", "adds")
        if name in ("pile", "burned") or any(
            name == f"{p}{s}"
            for p in seat_places
            for s in range(table.state.players)
            if s != audience
        ):
            hidden.update(CARD_ID[c] for c in cards)
    return hidden


def strings(value: Any) -> set[str]:
    """Every string inside a JSON value (keys too)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(k) | strings(v) for k, v in value.items())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def test_two_seats_never_see_each_others_hands(client: TestClient) -> None:
    """A whole game over websockets; every frame is checked afterwards.

    The record is replayed the way the server counts versions: each frame a connection got
    with version v must name no card hidden from it at any moment its version was v. (One
    game: within a game no card goes from a hand to the open and back into a hand.)
    """
    made = create_table(
        client, ["human", "human", "bot:heuristic"], {"games": 1}, seed=11, scenario=True
    )
    tid = made["table"]["id"]
    rng = random.Random(5)
    with (
        client.websocket_connect(ws_url(tid)) as w0,
        client.websocket_connect(ws_url(tid)) as w1,
        client.websocket_connect(ws_url(tid)) as ws,
    ):
        players = [Player(w0, made["seats"][0]["token"]), Player(w1, made["seats"][1]["token"])]
        spectator = Player(ws, None)
        for _ in range(3000):
            for p in players:
                p.sync()
            if players[0].latest["result"] is not None:
                break
            movers = [p for p in players if p.latest["legal"]]
            if not movers:
                time.sleep(0.002)  # the bot is thinking
                continue
            for p in movers:
                reply = p.act(rng.choice(p.latest["legal"]))
                assert reply["type"] == "ack" or reply["code"] == "action/stale", reply
        spectator.sync()
        assert players[0].latest["result"] is not None
    record = GameRecord.from_json(client.get(f"/api/tables/{tid}/record").json())

    # Replay, noting for every audience which cards were hidden at each of its versions.
    seats = [{"kind": "human", "name": f"S{i}"} for i in range(3)]
    fake_record: Any = type("Stored", (), {"id": tid, "seats": seats})()
    spec_table = LiveTable(None, fake_record, record.start())  # type: ignore[arg-type]
    hidden: dict[Any, dict[int, set[str]]] = {a: {} for a in (0, 1, None)}

    def note() -> None:
        for a in hidden:
            hidden[a].setdefault(spec_table.seq[a], set()).update(hidden_from(spec_table, a))

    note()
    for n, (seat, action) in enumerate(record.actions):
        spec_table.replay_row(ActionRow(n, seat, action, 0.0, "human"))
        note()

    checked = 0
    for audience, player in ((0, players[0]), (1, players[1]), (None, spectator)):
        for frame in player.frames:
            if frame["type"] not in ("welcome", "update"):
                assert not strings(frame) & set(CARD_INDEX), frame
                continue
            events = frame.get("events", []) + frame.get("log", [])
            assert all(e["audience"] in (None, audience) for e in events)
            leaked = strings(frame) & hidden[audience][frame["version"]]
            assert not leaked, (audience, frame["type"], frame["version"], leaked)
            checked += 1
    assert checked > 15
    # And each seat did see its own hand in its frames.
    assert set(players[0].frames[0]["view"]["hand"]) <= strings(players[0].frames[0])


def test_hand_my_seat_to_a_bot_over_the_socket_and_play_again(client: TestClient) -> None:
    made = create_table(client, ["human", "bot:random", "bot:random"])
    tid = made["table"]["id"]
    with client.websocket_connect(ws_url(tid)) as w, client.websocket_connect(ws_url(tid)) as s:
        me, spectator = Player(w, made["seats"][0]["token"]), Player(s, None)
        assert me.send({"type": "bot", "bot": "nobody"})["code"] == "options/invalid"
        assert spectator.send({"type": "bot", "bot": "random"})["code"] == "seat/spectator"
        w.send_json({"type": "bot", "bot": "random"})
        seats = me.read_until(lambda f: f["type"] == "seats" and f["seats"][0]["bot"])
        assert seats["seats"][0]["bot"] == "random" and seats["seats"][0]["connected"] == 1
        # The bot plays the whole game for me; then everyone is told of the next table.
        me.read_until(lambda f: f["type"] == "update" and f["result"] is not None)
        r = client.post(
            f"/api/tables/{tid}/again",
            headers={"Authorization": f"Bearer {me.token}"},
        )
        nxt = r.json()["id"]
        for p in (me, spectator):
            assert p.read_until(lambda f: f["type"] == "next")["next"] == nxt
    # At the next table the seat is still handed to the bot, and its key still works (the
    # invite it was exchanged for does not).
    with client.websocket_connect(ws_url(nxt)) as w:
        w.send_json({"type": "join", "token": made["seats"][0]["token"]})
        assert w.receive_json()["code"] == "auth/invite_used"
    with client.websocket_connect(ws_url(nxt)) as w:
        again = Player(w, me.token)
        assert again.latest["seat"] == 0
        assert again.latest["summary"]["seats"][0]["bot"] == "random"


def test_table_websockets_under_a_path_prefix(sqlite_url: str) -> None:
    """Behind a proxy that serves the app under a prefix (``--root-path /game``, a
    ``Mount``), the path the server is given still starts with the prefix: the table's
    websocket answers there as it does without one."""
    app = create_app(sqlite_url, bot_delay=0, limits=FAST, caps=LIFTED)
    with TestClient(app, root_path="/game") as client:
        tid = create_table(client, ["human", "bot:random", "bot:random"])["table"]["id"]
        for path in (f"/game{ws_url(tid)}", ws_url(tid)):
            with client.websocket_connect(path) as ws:
                ws.send_json({"type": "join"})
                assert ws.receive_json()["type"] == "welcome"


def test_table_sockets_skip_every_layer_http_requests_go_through(
    client: TestClient, monkeypatch: Any
) -> None:
    """A table's websocket lives as long as its player stays, and each layer it passed
    through would keep its frame alive as long: they are served before FastAPI's and
    Starlette's own layers (and so before any middleware); other websockets and HTTP
    requests go through them as usual."""
    from starlette.applications import Starlette

    seen: list[str] = []
    real = Starlette.__call__

    async def spy(self: Any, scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["type"])
        await real(self, scope, receive, send)

    monkeypatch.setattr(Starlette, "__call__", spy)
    tid = create_table(client, ["human", "bot:random", "bot:random"])["table"]["id"]
    made = len(seen)
    assert made >= 1 and set(seen) == {"http"}
    with client.websocket_connect(ws_url(tid)) as ws:
        assert Player(ws, None).latest["type"] == "welcome"
    assert len(seen) == made  # not through Starlette's stack
    assert client.get(f"/api/tables/{tid}").status_code == 200
    assert seen[made:] == ["http"]


def _play_until_spectator(
    players: list[Player], rng: random.Random, actions: int
) -> list[dict[str, Any]]:
    """``actions`` random actions by whichever seats may act; the acks."""
    acks = []
    while len(acks) < actions:
        for p in players:
            p.sync()
        mover = next(p for p in players if p.latest["legal"])
        acks.append(mover.act(rng.choice(mover.latest["legal"])))
    return acks


def test_a_spectator_who_comes_later_is_told_every_change_it_can_see(
    client: TestClient, monkeypatch: Any
) -> None:
    """A table of people only, nobody watching: an action whose events spectators see
    does not build what a spectator sees. A spectator who comes then is told of every
    later change it can see, its versions one by one, and ends seeing what a spectator
    who comes at the end sees."""
    encoded: list[Any] = []  # the audiences whose snapshot was encoded in this action
    actions: list[tuple[bool, bool]] = []  # (spectators see its events, theirs encoded)
    encode, adopt = LiveTable._encoded, LiveTable._adopt

    def noting(table: LiveTable, audience: Any) -> tuple[bytes, bytes]:
        encoded.append(audience)
        return encode(table, audience)

    def adopting(table: LiveTable, new: Any, actor: int, events: list[Any]) -> Any:
        encoded.clear()
        changed = adopt(table, new, actor, events)
        actions.append((any(e.is_visible_to(None) for e in events), None in encoded))
        return changed

    monkeypatch.setattr(LiveTable, "_encoded", noting)
    monkeypatch.setattr(LiveTable, "_adopt", adopting)
    made = create_table(client, ["human", "human", "human"], seed=3, scenario=True)
    tid = made["table"]["id"]
    rng = random.Random(2)
    with (
        client.websocket_connect(ws_url(tid)) as w0,
        client.websocket_connect(ws_url(tid)) as w1,
        client.websocket_connect(ws_url(tid)) as w2,
    ):
        players = [Player(w, s["token"]) for w, s in zip((w0, w1, w2), made["seats"], strict=True)]
        acks = _play_until_spectator(players, rng, 8)
        assert all(a["type"] == "ack" for a in acks), acks
        assert len(actions) == 8
        assert any(seen for seen, _ in actions)
        # nobody watching: seen or not, no spectators' view for what they are told anyway
        assert not any(built for seen, built in actions if seen), actions
        with client.websocket_connect(ws_url(tid)) as ws:
            late = Player(ws, None)
            joined_at = late.latest["version"]
            actions.clear()
            acks = _play_until_spectator(players, rng, 6)
            assert all(a["type"] == "ack" for a in acks), acks
            late.sync()
            assert all(built for _, built in actions), actions  # watched now
            updates = [f for f in late.frames if f["type"] == "update"]
            changes = sum(1 for seen, _ in actions if seen)  # (at least: views may change too)
            assert len(updates) >= changes > 0
            assert [u["version"] for u in updates] == list(
                range(joined_at + 1, joined_at + 1 + len(updates))
            )
            with client.websocket_connect(ws_url(tid)) as wn:
                now = Player(wn, None)
                for key in ("view", "legal", "to_act", "result"):
                    assert late.latest[key] == now.latest[key], key
                assert now.latest["version"] == late.latest["version"]
