"""The table chat over the websocket: who may write, what a line may hold, the rate per
seat, what everyone at the table is sent, and the last lines a joining connection gets."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from tests.server.conftest import FAST, LIFTED, Player, create_table
from thievery.server import Limits, create_app
from thievery.server import chat as chat_module
from thievery.server.chat import KEEP, LINE_LIMIT, Chat, clean_line, line_frame
from thievery.server.errors import ServerError


def ws_url(table_id: str) -> str:
    return f"/api/tables/{table_id}/ws"


def chats(player: Player) -> list[dict[str, Any]]:
    """The chat frames a player was sent (after reading all it was sent so far)."""
    player.sync()
    return [f for f in player.frames if f["type"] == "chat"]


def chat_log(player: Player) -> list[dict[str, Any]]:
    """The lines of the chat_log frame the player got when it joined."""
    logs = [f for f in player.frames if f["type"] == "chat_log"]
    if not logs:
        player.read_until(lambda f: f["type"] == "chat_log")
        logs = [f for f in player.frames if f["type"] == "chat_log"]
    lines: list[dict[str, Any]] = logs[-1]["lines"]
    return lines


@contextmanager
def two_and_a_spectator(client: TestClient) -> Iterator[tuple[Player, Player, Player]]:
    """Seats 0 and 1 of a new table (seat 2 a bot) and a spectator, each connected."""
    made = create_table(client, ["human", "human", "bot:heuristic"])
    tid = made["table"]["id"]
    with ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(ws_url(tid))) for _ in range(3)]
        tokens = [made["seats"][0]["token"], made["seats"][1]["token"], None]
        first, second, spectator = (Player(w, t) for w, t in zip(sockets, tokens, strict=True))
        yield first, second, spectator


def test_seated_players_chat_and_everyone_at_the_table_reads(client: TestClient) -> None:
    with two_and_a_spectator(client) as (p0, p1, spectator):
        assert chat_log(p0) == [] and chat_log(spectator) == []
        answer = p0.send({"type": "chat", "text": "  good luck, all!  "})
        assert answer["type"] == "ack"
        for reader in (p0, p1, spectator):
            [line] = chats(reader)
            assert line["seat"] == 0 and line["text"] == "good luck, all!"
            assert line["name"] == "Seat 0" and isinstance(line["at"], float)
        assert p1.send({"type": "chat", "text": "<img src=x onerror=alert(1)>"})["type"] == "ack"
        # The server keeps the text as sent (pages escape it); it is never an event.
        assert chats(spectator)[-1]["text"] == "<img src=x onerror=alert(1)>"
        # A spectator reads only.
        refused = spectator.send({"type": "chat", "text": "hi"})
        assert refused["code"] == "chat/spectator"
        assert len(chats(p0)) == 2


def test_a_joining_connection_gets_the_last_lines(client: TestClient) -> None:
    made = create_table(client, ["human", "human", "bot:heuristic"])
    tid, t0 = made["table"]["id"], made["seats"][0]["token"]
    with client.websocket_connect(ws_url(tid)) as w0:
        p0 = Player(w0, t0)
        for n in range(3):
            assert p0.send({"type": "chat", "text": f"line {n}"})["type"] == "ack"
    with client.websocket_connect(ws_url(tid)) as ws:
        late = Player(ws, None)
        lines = chat_log(late)
        assert [line["text"] for line in lines] == ["line 0", "line 1", "line 2"]
        # The chat log comes after the welcome.
        kinds = [f["type"] for f in late.frames]
        assert kinds.index("welcome") < kinds.index("chat_log")


@pytest.fixture
def limited(sqlite_url: str, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """The app with a seat allowed ``request.param`` chat lines at once, then one every
    1,000 s (no line back within a test, however slow the machine)."""
    limits = Limits(rate=FAST.rate, burst=FAST.burst, chat_rate=0.001, chat_burst=request.param)
    with TestClient(create_app(sqlite_url, bot_delay=0, limits=limits, caps=LIFTED)) as client:
        yield client


@pytest.mark.parametrize("limited", [100], indirect=True)
def test_the_log_keeps_the_last_lines_only(limited: TestClient) -> None:
    made = create_table(limited, ["human", "bot:heuristic", "bot:heuristic"])
    tid, t0 = made["table"]["id"], made["seats"][0]["token"]
    with limited.websocket_connect(ws_url(tid)) as w0:
        p0 = Player(w0, t0)
        for n in range(KEEP + 7):
            assert p0.send({"type": "chat", "text": f"n{n}"})["type"] == "ack"
    with limited.websocket_connect(ws_url(tid)) as ws:
        lines = chat_log(Player(ws, None))
    assert [line["text"] for line in lines] == [f"n{n}" for n in range(7, KEEP + 7)]


@pytest.mark.parametrize("limited", [5], indirect=True)  # the server's own burst
def test_a_seat_is_rate_limited_over_all_its_connections(limited: TestClient) -> None:
    made = create_table(limited, ["human", "human", "bot:heuristic"])
    tid = made["table"]["id"]
    t0, t1 = made["seats"][0]["token"], made["seats"][1]["token"]
    burst = 5
    with (
        limited.websocket_connect(ws_url(tid)) as a,
        limited.websocket_connect(ws_url(tid)) as b,
        limited.websocket_connect(ws_url(tid)) as c,
    ):
        first = Player(a, t0)
        second, other = Player(b, first.token), Player(c, t1)  # (the seat's key, 2nd socket)
        answers = [
            (first if n % 2 else second).send({"type": "chat", "text": f"{n}"})
            for n in range(burst)
        ]
        assert all(x["type"] == "ack" for x in answers)
        refused = first.send({"type": "chat", "text": "one more"})
        assert refused["code"] == "rate/limited" and "try again" in refused["message"]
        assert second.send({"type": "chat", "text": "and more"})["code"] == "rate/limited"
        # Another seat has its own rate; the refused lines reached nobody.
        assert other.send({"type": "chat", "text": "me too"})["type"] == "ack"
        texts = [line["text"] for line in chats(other)]
        assert texts == [*map(str, range(burst)), "me too"]


BAD = [
    ({"type": "chat"}, "chat/malformed"),
    ({"type": "chat", "text": 12}, "chat/malformed"),
    ({"type": "chat", "text": ["hi"]}, "chat/malformed"),
    ({"type": "chat", "text": "   \t  "}, "chat/empty"),
    ({"type": "chat", "text": "x" * (LINE_LIMIT + 1)}, "chat/too_long"),
    ({"type": "chat", "text": "two\nlines"}, "chat/control"),
    ({"type": "chat", "text": "bell\x07"}, "chat/control"),
    ({"type": "chat", "text": "evil\u202etxt.exe"}, "chat/control"),
    ({"type": "chat", "text": "zero\u200bwidth"}, "chat/control"),
    ({"type": "chat", "text": "line\u2028separator"}, "chat/control"),
    ({"type": "chat", "text": "para\u2029separator"}, "chat/control"),
    ({"type": "chat", "text": "hidden \U000e0041\U000e0042 tags"}, "chat/control"),
    ({"type": "chat", "text": "\U0001f3f4\U000e0067 no cancel tag"}, "chat/control"),
]


def test_bad_lines_get_a_clear_error_and_change_nothing(client: TestClient) -> None:
    made = create_table(client, ["human", "bot:heuristic", "bot:heuristic"])
    with client.websocket_connect(ws_url(made["table"]["id"])) as fresh:
        fresh.send_json({"type": "chat", "text": "before joining"})
        assert fresh.receive_json()["code"] == "join/first"
    with two_and_a_spectator(client) as (p0, p1, _):
        for frame, code in BAD:
            answer = p0.send(frame)
            assert answer["type"] == "error" and answer["code"] == code, (frame, answer)
            assert answer["message"]
        # Nothing was said, and bad lines did not use up the seat's rate.
        assert chats(p1) == []
        for n in range(int(FAST.chat_burst)):
            assert p0.send({"type": "chat", "text": f"ok {n}"})["type"] == "ack"
    # Exactly the limit is fine, and emoji with joiners pass.
    assert clean_line("y" * LINE_LIMIT) == "y" * LINE_LIMIT
    assert clean_line(" 👩\u200d👩\u200d👧 gg ") == "👩\u200d👩\u200d👧 gg"
    scotland = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in "gbsct") + "\U000e007f"
    assert clean_line(f"go {scotland}!") == f"go {scotland}!"  # a flag's tags are seen


def test_clean_line_codes() -> None:
    for raw, code in [(None, "chat/malformed"), ("", "chat/empty"), ("a\x00b", "chat/control")]:
        with pytest.raises(ServerError) as caught:
            clean_line(raw)
        assert caught.value.code == code


def test_chat_after_the_game_and_at_a_finished_table(client: TestClient) -> None:
    """Players may still say 'good game' once it is over; a seat played by a bot is still
    its person's to chat from."""
    made = create_table(client, ["human", "bot:heuristic", "bot:heuristic"])
    tid, t0 = made["table"]["id"], made["seats"][0]["token"]
    with client.websocket_connect(ws_url(tid)) as w0:
        p0 = Player(w0, t0)
        p0.ws.send_json({"type": "bot", "bot": "heuristic"})
        while not p0.latest.get("result"):
            p0.receive()
        assert p0.send({"type": "chat", "text": "gg"})["type"] == "ack"
        assert chats(p0)[-1]["text"] == "gg"


def test_the_chat_survives_a_restart(sqlite_url: str) -> None:
    """Lines are stored: a server started again on the same database sends them to a
    joining connection, and numbers new lines on from them."""
    first = TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST, caps=LIFTED))
    with first:
        made = create_table(first, ["human", "human", "bot:heuristic"])
        tid, t0 = made["table"]["id"], made["seats"][0]["token"]
        with first.websocket_connect(ws_url(tid)) as w0:
            p0 = Player(w0, t0)
            for text in ("hello", "gl hf"):
                assert p0.send({"type": "chat", "text": text})["type"] == "ack"
            said = chats(p0)
    again = TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST, caps=LIFTED))
    with again, again.websocket_connect(ws_url(tid)) as w1:
        p1 = Player(w1, made["seats"][1]["token"])
        assert chat_log(p1) == said
        assert [(line["n"], line["seat"], line["text"]) for line in said] == [
            (0, 0, "hello"),
            (1, 0, "gl hf"),
        ]
        assert p1.send({"type": "chat", "text": "back"})["type"] == "ack"
        assert [(line["n"], line["seat"]) for line in chats(p1)] == [(2, 1)]


def test_a_new_tables_joins_read_no_chat_from_storage(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table made here has no lines: its joins get an empty log without a read (one a
    join cost a thread's round trip); a line said there is still kept and sent."""
    reads: list[str] = []
    stored = chat_module._stored

    def counted(engine: Any, table_id: str) -> Any:
        reads.append(table_id)
        return stored(engine, table_id)

    monkeypatch.setattr(chat_module, "_stored", counted)
    with two_and_a_spectator(client) as (p0, p1, spectator):
        assert chat_log(p0) == chat_log(p1) == chat_log(spectator) == []
        assert p0.send({"type": "chat", "text": "hi"})["type"] == "ack"
        assert [line["text"] for line in chats(p1)] == ["hi"]
    assert reads == []


def test_a_follower_joining_while_lines_come_misses_none_and_gets_none_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At a follower process a joining connection's log is read from storage; lines
    announced meanwhile (stored before the read, or after it) are in its log once each,
    in order, and the connections already there get them as they come."""
    sent: list[dict[str, Any]] = []
    table = SimpleNamespace(id="T1", hub=SimpleNamespace(storage=SimpleNamespace(engine=None)))
    table.broadcast_json = sent.append
    chat = Chat()
    stored = [line_frame(n, 0, "Ada", f"line {n}", 1.0) for n in range(3)]
    late = [line_frame(n, 1, "Bo", f"line {n}", 2.0) for n in (2, 3, 4)]

    def read(engine: Any, table_id: str) -> tuple[list[dict[str, Any]], int]:
        assert table_id == "T1"
        for line in late:  # heard while the rows are read: line 2 is in them already
            chat._heard(table, {"k": "chat", "line": line})  # type: ignore[arg-type]
        return [dict(line) for line in stored], 3

    monkeypatch.setattr(chat_module, "_stored", read)
    lines = asyncio.run(chat._read(table))  # type: ignore[arg-type]
    assert [line["n"] for line in lines] == [0, 1, 2, 3, 4]
    assert lines[2] == stored[2] and lines[3:] == late[1:]
    assert sent == late  # the connections already there
    assert chat._reading == {}  # nothing heard is kept once read


def test_a_storage_failure_refuses_the_line_and_the_join_goes_on(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Storage that fails: a line is refused with storage/failed and reaches nobody; a
    connection still joins (without the chat's past); once storage works all is back."""
    made = create_table(client, ["human", "human", "bot:heuristic"])
    tid, t0, t1 = made["table"]["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    for forget in client.app.state.hub.on_forget:  # (its chat read from storage, as after
        forget(tid)  # a restart: a table made here has nothing to read)

    def broken(*args: Any) -> Any:
        raise OperationalError("SELECT", {}, Exception("the database is gone"))

    with monkeypatch.context() as patched:
        patched.setattr(chat_module, "_stored", broken)
        patched.setattr(chat_module, "_store", broken)
        with (
            client.websocket_connect(ws_url(tid)) as w0,
            client.websocket_connect(ws_url(tid)) as w1,
        ):
            p0, p1 = Player(w0, t0), Player(w1, t1)
            t0 = p0.token  # (the seat's key from now on)
            p0.sync()
            assert "chat_log" not in [f["type"] for f in p0.frames]
            refused = p0.send({"type": "chat", "text": "anyone?"})
            assert refused["code"] == "storage/failed" and "OperationalError" in refused["message"]
            assert chats(p1) == []
    with client.websocket_connect(ws_url(tid)) as w0:
        p0 = Player(w0, t0)
        assert chat_log(p0) == []
        assert p0.send({"type": "chat", "text": "back"})["type"] == "ack"
        assert [(line["n"], line["text"]) for line in chats(p0)] == [(0, "back")]
