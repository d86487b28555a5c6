"""`thievery serve` for hosting: invite links at --public-url, limits from options, and
storage it cannot write refused at start with a clear message."""

from __future__ import annotations

import asyncio
import errno
import fcntl
import json
import math
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import typer
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from thievery.bots.realtime import THINK_SECONDS
from thievery.cli import app
from thievery.cli.serve import bad_public_url, hold_sqlite_file, shown_url
from thievery.core.registry import game as get_game
from thievery.server.live import LiveTable
from thievery.server.storage import ENV_URL, Storage, StorageError, TableRecord, database_url

THIEVERY = str(Path(sys.executable).parent / "thievery")


def test_public_url_and_limits_from_the_command_line(tmp_path: Path) -> None:
    command = [THIEVERY, "serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'h.db'}"]
    command += ["--public-url", "https://games.example.org", "--tables-per-client", "1"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
        assert found, first
        port = int(found.group(1))
        assert "https://games.example.org/" in server.stdout.readline()
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        body = json.dumps({"game": "schattendieb", "seats": [{"kind": "human"}] * 3}).encode()

        def create() -> tuple[int, dict[str, object]]:
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/tables",
                data=body,
                headers={"Content-Type": "application/json"},
            )
            try:
                with opener.open(request, timeout=5) as r:
                    return r.status, json.loads(r.read())
            except urllib.error.HTTPError as e:
                return e.code, json.loads(e.read())

        for _ in range(100):  # the socket is bound; the app starts up behind it
            try:
                status, made = create()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server never answered")
        assert status == 201
        seats = made["seats"]
        assert isinstance(seats, list)
        assert seats[0]["invite"].startswith("https://games.example.org/table/")
        status, refused = create()
        assert status == 429 and refused["code"] == "limit/unfinished_tables_per_client"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_storage_it_cannot_write_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    Storage(f"sqlite:///{path}").close()
    url = f"sqlite:///file:{path}?mode=ro&uri=true"
    result = subprocess.run(
        [THIEVERY, "serve", "--port", "0", "--db", url], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "read-only" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--expire-days", "-1"], "--expire-days is a number of at least 0"),
        (["--header-timeout", "0"], "--header-timeout is a number above 0"),
        (["--limit-concurrency", "0"], "--limit-concurrency is a number above 0"),
        (["--bots-per-table", "-1"], "--bots-per-table is a number of at least 0"),
        (["--tables-per-minute", "nan"], "--tables-per-minute is a number above 0, not nan"),
        (["--live-tables", "0"], "--live-tables is a number above 0"),
        (["--bot-delay", "-1"], "--bot-delay is a number of at least 0"),
        (["--lease-seconds", "inf"], "--lease-seconds is a number above 0, not inf"),
        (["--bot-processes", "-1"], "--bot-processes is a number of at least 0"),
        (["--log-level", "bogus"], "--log-level is one of critical"),
        (["--files-dir", "/nonexistent"], "--files-dir /nonexistent is not a folder"),
        (["--db", "garbage"], "(a file: sqlite:///garbage)"),
        (["--db", "mysql://u@h/d"], "SQLite (sqlite:///FILE) or PostgreSQL"),
        (["--port", "70000"], "65535"),
    ],
)
def test_a_bad_option_is_refused_in_one_line_before_anything_starts(
    args: list[str], words: str, tmp_path: Path
) -> None:
    """(Each of these used to start, and then close every table (--expire-days 0), drop
    requests (--header-timeout 0), refuse them all (--limit-concurrency 0), fail every
    card file with a 500, or end in a traceback.)"""
    db = ["--db", f"sqlite:///{tmp_path / 'x.db'}"] if "--db" not in args else []
    result = CliRunner().invoke(app, ["serve", "--port", "0", *db, *args])
    assert result.exit_code == 2, result.output
    assert words in " ".join(result.output.split()) and "Traceback" not in result.output
    assert not (tmp_path / "x.db").exists()  # refused before the database was made


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("games.example.org", "--public-url starts with http://"),
        ("http://", "--public-url names a host"),
        ("https://games.example.org ", "--public-url names a host"),
        ("https://x.org:99999", "--public-url has a port of 0 to 65535"),
        ("https://x.org/thievery", "--public-url is the address of the site's root"),
        ("https://x.org/?a=1", "--public-url is the address of the site's root"),
        ("https://x.org#top", "--public-url is the address of the site's root"),
    ],
)
def test_a_public_url_invite_links_cannot_be_made_of_is_refused(
    url: str, words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(Each but the first started, its invite links "http:/table/…",
    "https://x.org/thievery/table/…" (the pages ask for /api/… at the root),
    "https://x.org/?a=1/table/…" and so on.)"""

    def started(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr("thievery.server.workers.run_app", started)
    db = f"sqlite:///{tmp_path / 'x.db'}"
    result = CliRunner().invoke(app, ["serve", "--port", "0", "--db", db, "--public-url", url])
    assert result.exit_code == 2, result.output
    assert words in " ".join(result.output.split()) and "Traceback" not in result.output
    assert not (tmp_path / "x.db").exists()


def test_public_urls_as_hosts_write_them_are_taken() -> None:
    for url in (
        "https://games.example.org",
        "https://games.example.org/",
        "http://192.168.1.20:8000",
        "http://[fd00::5]:8000/",
        "HTTPS://Games.Example.org",
    ):
        assert bad_public_url(url) is None, url


def test_database_urls_as_hosts_write_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_URL, raising=False)
    assert database_url("postgres://u:p@h:5432/d") == "postgresql+psycopg://u:p@h:5432/d"
    assert database_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    assert database_url("postgresql+psycopg://u@h/d") == "postgresql+psycopg://u@h/d"
    with pytest.raises(StorageError, match="asyncpg"):
        database_url("postgresql+asyncpg://u@h/d")
    assert shown_url("sqlite:///thievery.db") == f"sqlite:///{Path('thievery.db').resolve()}"
    assert shown_url("sqlite:////abs/x.db") == "sqlite:////abs/x.db"


def test_the_database_file_is_locked_only_where_that_keeps_off_sqlites_locks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database file's own lock (for hard links) is ``flock``: on Linux it never meets
    SQLite's ``fcntl`` locks; on macOS and the BSDs it would block them, so there only the
    lock file is held. A file system that refuses it (NFS can) is not taken for a server."""
    url = f"sqlite:///{tmp_path / 'p.db'}"

    def held_names() -> list[str]:
        held = hold_sqlite_file(url)
        try:
            return [Path(file.name).name for file in held]
        finally:
            for file in held:
                file.close()

    assert held_names() == ["p.db.server-lock", "p.db"]
    monkeypatch.setattr(sys, "platform", "darwin")
    assert held_names() == ["p.db.server-lock"]
    monkeypatch.setattr(sys, "platform", "linux")
    flock = fcntl.flock

    def refused(file: object, how: int) -> None:
        if str(getattr(file, "name", "")).endswith("p.db"):
            raise OSError(errno.ENOLCK, "no locks available")
        flock(file, how)  # type: ignore[arg-type]

    monkeypatch.setattr(fcntl, "flock", refused)
    assert held_names() == ["p.db.server-lock"]


def test_the_lock_knows_a_file_by_each_url_sqlalchemy_opens_it_by(tmp_path: Path) -> None:
    """(An SQLite URI, sqlite:///file:PATH?uri=true, took no lock, so a second server ran
    on a file a first one served; %20 in a path, a space to SQLAlchemy, was locked by the
    name with %20 in it, beside an empty file of that name.)"""
    path = tmp_path / "my db.db"
    urls = [f"sqlite:///{path}", f"sqlite:///file:{tmp_path / 'my%20db.db'}?uri=true"]
    urls += [f"sqlite:///{tmp_path / 'my%20db.db'}", f"sqlite:///file:{path}?mode=rw&uri=true"]
    for first in urls:
        held = hold_sqlite_file(first)
        try:
            assert held, first
            for second in urls:
                with pytest.raises(typer.Exit):
                    hold_sqlite_file(second)
        finally:
            for file in held:
                file.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my db.db", "my db.db.server-lock"]
    for memory in ("sqlite://", "sqlite:///:memory:", "sqlite:///file:m?mode=memory&uri=true"):
        assert hold_sqlite_file(memory) == []
    uri = f"sqlite:///file:{path}?uri=true"
    assert shown_url(uri) == uri
    resolved = Path("rel.db").resolve()
    assert shown_url("sqlite:///file:rel.db?uri=true") == f"sqlite:///file:{resolved}?uri=true"
    assert shown_url("sqlite:///rel.db?timeout=5") == f"sqlite:///{resolved}?timeout=5"


def test_a_serve_that_fails_lets_its_sqlite_file_go(tmp_path: Path) -> None:
    """A serve that stops with an error (here: its port is taken) lets its locks go, so the
    same process may serve the file again; it was then refused as another server."""
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    try:
        port = str(busy.getsockname()[1])
        command = ["serve", "--port", port, "--db", f"sqlite:///{tmp_path / 'again.db'}"]
        for _ in range(2):
            result = CliRunner().invoke(app, command)
            assert result.exit_code == 2, result.output
            assert "cannot listen on" in result.output, result.output
    finally:
        busy.close()


def test_a_second_server_on_the_same_sqlite_file_is_refused(tmp_path: Path) -> None:
    """(It ran, with other tables in its memory, its writes refused.) The lock dies with its
    holder, kill -9 too: a server started after that runs."""
    command = [THIEVERY, "serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'one.db'}"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}

    def start() -> subprocess.Popen[str]:
        server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
        assert server.stdout is not None and "Thievery is at" in server.stdout.readline()
        return server

    first = start()
    try:
        second = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert second.returncode == 2
        assert f"another thievery serve (process {first.pid}) uses" in second.stderr
        # The same file by a symbolic link (or a path by another way) is the same file.
        (tmp_path / "link.db").symlink_to(tmp_path / "one.db")
        (tmp_path / "sub").mkdir()
        for other in (tmp_path / "link.db", tmp_path / "sub" / ".." / "one.db"):
            linked = [*command[:-1], f"sqlite:///{other}"]
            second = subprocess.run(linked, capture_output=True, text=True, timeout=60)
            assert second.returncode == 2, second.stdout
            assert f"another thievery serve (process {first.pid}) uses" in second.stderr
        # A hard link is the same file by another name (with a lock file of its own beside
        # it): refused too. (SQLite would keep a second write-ahead log for it.)
        os.link(tmp_path / "one.db", tmp_path / "sub" / "hard.db")
        hard = [*command[:-1], f"sqlite:///{tmp_path / 'sub' / 'hard.db'}"]
        second = subprocess.run(hard, capture_output=True, text=True, timeout=60)
        assert second.returncode == 2, second.stdout
        assert "another thievery serve (on the same file by another name: a hard link)" in (
            " ".join(second.stderr.split())
        )
    finally:
        first.kill()
        first.wait(10)
    third = start()
    third.terminate()
    third.wait(10)


def served_app(args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The app ``thievery serve ARGS`` would run (made, not run: no port is served)."""
    made: list[Any] = []

    def run_app(application: Any, *rest: object) -> None:
        made.append(application)

    monkeypatch.setattr("thievery.server.workers.run_app", run_app)
    db = ["--db", f"sqlite:///{tmp_path / 'think.db'}", "--bot-processes", "0"]
    result = CliRunner().invoke(app, ["serve", "--port", "0", *db, *args])
    assert result.exit_code == 0, result.output
    assert len(made) == 1
    return made[0]


def test_bot_think_seconds_is_the_deadline_of_the_servers_real_time_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--bot-think-seconds`` reaches the caps of the server's hub, and a search bot at a
    real-time table (Schatz-Rabatz) is asked with a deadline that far away (it was 0.1 s
    whatever the host wanted: code only); without it, the 0.1 s it always was."""
    assert served_app([], tmp_path, monkeypatch).state.hub.caps.realtime_think_seconds == (
        THINK_SECONDS
    )
    served = served_app(["--bot-think-seconds", "0.35"], tmp_path, monkeypatch)
    hub = served.state.hub
    assert hub.caps.realtime_think_seconds == 0.35
    spec = get_game("schatz-rabatz")
    state = spec.new(2, 7, spec.resolve_options({}))
    seats = [{"kind": "bot", "name": n, "bot": "ismcts-strong"} for n in "AB"]
    record = TableRecord("t", spec.name, spec.version, 2, 7, {}, seats, host_hash="")
    with TestClient(served):  # (the hub started and closed as the server does)
        table = LiveTable(hub, record, state)  # (kept: its driver holds it weakly)
        driver = table.driver
        asked: list[float] = []  # (how far away the deadline was when the bot was asked)
        played: list[object] = []
        move = state.legal_actions(0)[0]

        async def decide(seat: int, by: str, until: float = math.inf) -> object:
            asked.append(until - time.perf_counter())
            return move

        async def act(seat: int, by: str, version: int, action: object) -> None:
            played.append(action)

        driver._decide = decide  # type: ignore[method-assign]
        driver._act = act  # type: ignore[method-assign]
        asyncio.run(driver._bot_move(0, "bot"))
    assert played == [move]
    assert len(asked) == 1 and 0.25 < asked[0] <= 0.35, asked


@pytest.mark.parametrize(
    ("value", "english", "german"),
    [
        ("0", "seconds above 0 and at most 10, not 0", "Sekunden über 0 und höchstens 10, nicht 0"),
        ("-0.5", "above 0 and at most 10, not -0.5", "über 0 und höchstens 10, nicht -0.5"),
        ("nan", "above 0 and at most 10, not nan", "über 0 und höchstens 10, nicht nan"),
        ("inf", "above 0 and at most 10, not inf", "über 0 und höchstens 10, nicht inf"),
        ("10.5", "above 0 and at most 10, not 10.5", "über 0 und höchstens 10, nicht 10.5"),
        (
            "soon",
            "Input should be a valid number, unable to parse string as a number",
            "'soon' ist keine Zahl",
        ),
    ],
)
def test_a_bad_bot_think_seconds_is_refused_in_english_and_german_and_nothing_starts(
    value: str, english: str, german: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deadline of no time, a negative one, NaN, none at all (inf) or one past the
    bound is refused before the server starts, in the command line's language."""

    def started(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr("thievery.server.workers.run_app", started)
    args = ["serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'x.db'}"]
    args += ["--bot-think-seconds", value]
    wide = {"COLUMNS": "200", "LC_ALL": "", "LC_MESSAGES": ""}
    for lang, words, prefix in [
        ("en_GB.UTF-8", english, "Invalid value for '--bot-think-seconds': "),
        ("de_DE.UTF-8", german, "Ungültiger Wert für '--bot-think-seconds': "),
    ]:
        result = CliRunner().invoke(app, args, env={**wide, "LANG": lang})
        assert result.exit_code == 2, result.output
        said = " ".join(line.strip("│ ") for line in result.output.splitlines() if "│" in line)
        assert said.startswith(prefix) and said.endswith(words), result.output
    assert not (tmp_path / "x.db").exists()  # refused before the database was made
