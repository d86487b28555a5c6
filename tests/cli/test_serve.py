"""`thievery serve --port 0` listens on a free port and prints the URL it really serves."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def test_serve_on_port_zero_prints_the_port_it_listens_on(tmp_path: Path) -> None:
    command = [str(Path(sys.executable).parent / "thievery"), "serve", "--port", "0"]
    command += ["--db", f"sqlite:///{tmp_path / 'serve.db'}"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line
        port = int(found.group(1))
        assert port != 0
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        for _ in range(100):  # the socket is bound; the app starts up behind it
            try:
                with opener.open(f"http://127.0.0.1:{port}/api/games", timeout=5) as r:
                    games = json.loads(r.read())
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server never answered")
        assert "schattendieb" in {g["name"] for g in games}
    finally:
        server.terminate()
        server.wait(timeout=10)
