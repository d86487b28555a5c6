"""A fifth game is one folder plus one entry-point line.

The example game ``examples/pickpocket`` is installed as a distribution of its own, by
pip, into a temporary folder: never into the project's venv, which keeps its four games.
Processes that find that folder on ``PYTHONPATH`` then see a fifth game by its entry point
alone, and every face plays it: ``thievery games``, ``rules``, ``simulate``, ``play``
(bots only, and one scripted human), ``replay`` and ``ladder``; the server's JSON API
(a table with bot seats played to the end over HTTP) and its static files; the browser
(its own renderer, clicked through a game); and the conformance suite,
``thievery.testing.check_game``, with the distribution's own tests.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

import thievery
from thievery.testing import install_plugin

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "pickpocket"
THIEVERY = str(Path(sys.executable).parent / "thievery")
DISTRIBUTION = "thievery-pickpocket"
CHROMIUM = "/usr/bin/chromium"  # Debian's, as in tests/browser
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example installed by pip into a folder of its own (``--target``), built from a
    copy so that the build leaves nothing in the repository."""
    return install_plugin(EXAMPLE, tmp_path_factory.mktemp("pickpocket") / "site", 180)


def environment(site: Path) -> dict[str, str]:
    """The environment of a process that has the example installed (and wide output)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(site), env.get("PYTHONPATH")) if p)
    env["COLUMNS"] = "200"  # rich tables are not cut off
    return env


def run(site: Path, command: str, *more: str, stdin: str | None = None) -> str:
    """Run ``thievery COMMAND MORE...`` (the command's words split at spaces) with the
    example installed; its stdout (it must succeed)."""
    args = [*command.split(), *more]
    done = subprocess.run(
        [THIEVERY, *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        env=environment(site),
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, f"thievery {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_example_installs_as_its_own_distribution(site: Path) -> None:
    (info,) = site.glob("thievery_pickpocket-*.dist-info")
    points = (info / "entry_points.txt").read_text()
    assert "[thievery.games]" in points and "pickpocket = pickpocket:GAME" in points
    for data in ("RULES.md", "py.typed", "web/game.js", "web/game.css"):
        assert (site / "pickpocket" / data).is_file(), data  # package data was installed
    # Not in the project's venv: this process (no PYTHONPATH) sees the four games only.
    assert "pickpocket" not in thievery.game_names()
    assert DISTRIBUTION not in {d.metadata["Name"] for d in metadata.distributions()}


def test_the_cli_finds_and_plays_it(site: Path, tmp_path: Path) -> None:
    listing = run(site, "games")
    for name in ("pickpocket", "schattendieb", "thieves", "thieves-den", "schatz-rabatz"):
        assert name in listing
    row = next(line for line in listing.splitlines() if "pickpocket" in line)
    assert "Pickpocket" in row and "2-3" in row and "rounds=6" in row and "heuristic" in row
    assert run(site, "rules pickpocket --raw").startswith("# Pickpocket")

    summary = tmp_path / "sim.json"
    simulate = "simulate pickpocket --games 20 --bots heuristic,random --seed 1 --json"
    out = run(site, simulate, str(summary))
    assert "Pickpocket: 20 games, 2 players" in out
    data = json.loads(summary.read_text())
    assert data["game"] == "pickpocket" and data["games"] == 20
    wins = {s["bot"]: s["wins"] for s in data["standings"]}
    assert sum(wins.values()) == 20  # every game has a winner (ties share it)
    assert wins["heuristic"] > wins["random"]  # 85% over 400 games; seeded, so fixed

    record = tmp_path / "bots.json"
    play = "play pickpocket --players 3 --humans 0 --bot heuristic --seed 4 --save"
    out = run(site, play, str(record))
    assert "Final standings" in out and "Game over" in out
    game = json.loads(record.read_text())
    assert game["game"] == "pickpocket" and game["players"] == 3
    assert len(game["actions"]) == 6 * 3  # six rounds of three turns
    assert sorted(game["result"]) == ["scores", "winners"] and game["result"]["winners"]
    assert "Game over" in run(site, "replay --seat 1 --no-step", str(record))

    record = tmp_path / "human.json"
    play = "play pickpocket --players 2 --humans 1 --bot random --seed 9 --save"
    out = run(site, play, str(record), stdin="1\n" * 40)
    assert out.count("Seat 1, choose 1-") == 6  # the human's six turns, each answered "1"
    assert "Your hand" in out and "Final standings" in out
    # its screen counts seats from 1 as the prompts and the log do: the human (seat 0) is
    # "1 (you)", the pocket to pick is Seat 2's
    assert "1 (you)" in out and "0 (you)" not in out
    assert "Pick Seat 2's pocket" in out and "Pick seat 1's pocket" not in out
    game = json.loads(record.read_text())
    assert len(game["actions"]) == 6 * 2 and game["result"] is not None
    human = [a["action"] for a in game["actions"] if a["seat"] == 0]
    assert len(human) == 6 and all(a["type"] in ("bank", "pick", "pass") for a in human)

    report = tmp_path / "ladder.md"
    ladder = "ladder pickpocket --players 2 --games 20 --levels random,heuristic --workers 1"
    run(site, f"{ladder} --out", str(report))
    text = report.read_text()
    assert text.startswith("# Bot ladder: Pickpocket") and "| heuristic | random | 20 |" in text


def free_port() -> int:
    """A port the OS says is free now on the loopback address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``thievery serve`` on the loopback address with a fresh SQLite file."""

    def __init__(self, site: Path, folder: Path) -> None:
        self.port = free_port()
        serve = f"serve --host 127.0.0.1 --port {self.port} --bot-delay 0 --db"
        self.log = (folder / "server.log").open("w")
        self.process = subprocess.Popen(
            [THIEVERY, *serve.split(), f"sqlite:///{folder / 'thievery.db'}"],
            env=environment(site),
            cwd=folder,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                self.request("GET", "/api/games")
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise AssertionError((folder / "server.log").read_text()) from None
                time.sleep(0.1)

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any, str]:
        """(status, parsed JSON or text, content type) of one request."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, raw, kind = response.status, response.read(), response.headers
        except urllib.error.HTTPError as e:
            status, raw, kind = e.code, e.read(), e.headers
        content = kind.get("Content-Type", "")
        return status, json.loads(raw) if "json" in content else raw.decode(), content

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


# A table's seats: a human (seat 0, played by the test) and two bots.
SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture
def server(site: Path, tmp_path: Path) -> Iterator[Server]:
    running = Server(site, tmp_path)
    try:
        yield running
    finally:
        running.stop()


def test_the_server_serves_and_plays_it(server: Server) -> None:
    status, games, _ = server.request("GET", "/api/games")
    assert status == 200
    game = {g["name"]: g for g in games}["pickpocket"]
    assert (game["title"], game["min_players"], game["max_players"]) == ("Pickpocket", 2, 3)
    assert [o["name"] for o in game["options"]] == ["rounds", "hand"]
    assert {"heuristic", "random", "ismcts"} <= set(game["bots"])

    status, script, kind = server.request("GET", "/static/games/pickpocket/game.js")
    assert status == 200 and kind.startswith("text/javascript")
    assert script == (EXAMPLE / "src/pickpocket/web/game.js").read_text()
    status, style, kind = server.request("GET", "/static/games/pickpocket/game.css")
    assert status == 200 and kind.startswith("text/css") and ".pp-card" in style
    assert server.request("GET", "/static/games/pickpocket/other.js")[0] == 404

    body = {
        "game": "pickpocket",
        "seats": SEATS,
        "options": {"rounds": 4},
        "seed": 7,
        "scenario": True,
    }
    status, made, _ = server.request("POST", "/api/tables", body)
    assert status == 201, made
    table, invite = made["table"]["id"], made["seats"][0]["token"]
    status, exchanged, _ = server.request("POST", f"/api/tables/{table}/exchange", token=invite)
    assert status == 200 and exchanged["seat"] == 0, exchanged
    token = exchanged["key"]  # (the seat's key: an invite grants nothing but its exchange)

    status, refused, _ = server.request(
        "POST", f"/api/tables/{table}/actions", {"action": {"type": "steal"}}, token
    )
    assert status == 400 and refused["code"] == "action/malformed"
    deadline, acted = time.monotonic() + 20, 0
    while True:
        status, state, _ = server.request("GET", f"/api/tables/{table}/state", token=token)
        assert status == 200 and state["seat"] == 0
        if state["result"] is not None:
            break
        assert time.monotonic() < deadline, "the table did not finish"
        if state["legal"]:
            action = state["legal"][-1]  # the last: a pick when a pocket has cards
            status, answer, _ = server.request(
                "POST",
                f"/api/tables/{table}/actions",
                {"action": action, "version": state["version"]},
                token,
            )
            assert status in (200, 409), answer  # 409: stale, a bot moved first
            acted += status == 200
        else:
            time.sleep(0.02)
    assert acted == 4  # one turn a round for the human seat
    result = state["result"]
    assert len(result["scores"]) == 3 and result["winners"]
    view = state["view"]
    assert view["game"] == "pickpocket" and view["rounds"] == 4
    assert all(slot["card"] for vault in view["vaults"] for slot in vault)  # all shown

    status, record, _ = server.request("GET", f"/api/tables/{table}/record")
    assert status == 200 and record["game"] == "pickpocket"
    assert len(record["actions"]) == 4 * 3 and record["result"] == result
    assert sum(a["seat"] == 0 for a in record["actions"]) == 4


@pytest.mark.browser
def test_the_browser_draws_it_and_sends_the_actions_clicked(server: Server) -> None:
    """The table page loads the game's own game.js from its package; clicking an element
    the renderer marked with data-action plays that action."""
    from playwright.sync_api import sync_playwright

    body = {"game": "pickpocket", "seats": SEATS, "seed": 11, "scenario": True}
    status, made, _ = server.request("POST", "/api/tables", body)
    assert status == 201, made
    table = made["table"]["id"]
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(made["seats"][0]["invite"])
            page.wait_for_selector(".pp-hand .pp-card.legal", timeout=15_000)
            assert page.locator(".pp-seat").count() == 3
            assert page.locator(".pp-hand .pp-card").count() == 3
            page.locator(".pp-hand .pp-card.legal").last.click()  # bank the best card
            # Banked: in my vault, face down, which only I see.
            page.wait_for_selector(".pp-seat.me .pp-vault .pp-card.down", timeout=15_000)
            ready = (
                "() => document.querySelector('[data-action]') || "
                "document.querySelector('.pp-prompt')?.textContent.includes('Game over')"
            )
            for _ in range(10):
                page.wait_for_function(ready, timeout=15_000)
                if "Game over" in page.inner_text(".pp-prompt"):
                    break
                page.locator("[data-action]").first.click()
            assert "Game over" in page.inner_text(".pp-prompt")
        finally:
            browser.close()
    assert errors == []
    status, record, _ = server.request("GET", f"/api/tables/{table}/record")
    assert status == 200 and record["result"] is not None
    assert sum(a["seat"] == 0 for a in record["actions"]) == 6  # every one a click


def test_it_passes_the_conformance_suite_and_its_own_tests(site: Path) -> None:
    code = (
        "import pickpocket\n"
        "from thievery.testing import check_game\n"
        "check_game('pickpocket')\n"  # found by its entry point, like any game
        "print('conformant', pickpocket.__file__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=environment(site),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["conformant", str(site / "pickpocket" / "__init__.py")]
    # The distribution's own tests (conformance, golden playthrough, rules) and its
    # modules' doctests, run on the installed package from the copy it was built from
    # (nothing is written in the repository).
    runner = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [*runner, "--doctest-modules", "tests", str(site / "pickpocket")],
        capture_output=True,
        text=True,
        env=environment(site),
        cwd=site.with_name(site.name + "-source"),  # (install_plugin builds from there)
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout.splitlines()[-1]
    passed = re.search(r"(\d+) passed", summary)
    assert passed and int(passed.group(1)) >= 7, summary  # its tests and doctests ran
    assert "failed" not in summary and "skipped" not in summary and "error" not in summary
