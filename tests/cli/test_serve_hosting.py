"""`thievery serve` for hosting: invite links at --public-url, limits from options, and
storage it cannot write refused at start with a clear message."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from thievery.server.storage import Storage

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
