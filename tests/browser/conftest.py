"""Browser test fixtures: a live server on 127.0.0.1 and a Chromium through Playwright.

The browser is Playwright's own if it is installed (``playwright install chromium``), else
the system's Chromium or Chrome. Without one the browser tests are skipped with one line on
how to get one — or fail with it where THIEVERY_REQUIRE_BROWSER=1 (CI, which installs
Debian's Chromium).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import uvicorn
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

from thievery.server import Caps, create_app
from thievery.server.run import bind, server_config

SYSTEM_BROWSERS = (
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "chrome",
)
HOW_TO_GET_ONE = (
    "no Chromium for the browser tests: `apt install chromium` (Debian/Ubuntu) or "
    "`.venv/bin/playwright install chromium`"
)
ARGS = [
    "--lang=en-GB",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
OUTPUT = Path(__file__).resolve().parents[2] / "test-output"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a free loopback port (uvicorn in a thread, configured as ``thievery
    serve`` configures it: the tables' websockets on the connection itself), bots moving
    at once."""
    with live_server(tmp_path_factory.mktemp("browser") / "thievery.db") as url:
        yield url


@contextlib.contextmanager
def live_server(db: Path) -> Iterator[str]:
    """:func:`server`'s app on the SQLite file ``db`` (which may hold tables already)."""
    app = create_app(f"sqlite:///{db}", bot_delay=0, caps=Caps.lifted())  # one address
    listener = bind("127.0.0.1", 0)
    port = listener.getsockname()[1]
    instance = uvicorn.Server(server_config(app, listener))
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not instance.started:
        if time.time() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    instance.should_exit = True
    thread.join(10)
    listener.close()


def playwright_chromium() -> str | None:
    """Playwright's own Chromium, if it has been installed."""
    try:
        with sync_playwright() as p:
            path = p.chromium.executable_path
    except Exception:  # no driver, or no browser for this platform
        return None
    return path if path and Path(path).exists() else None


def find_browser() -> tuple[str, str | None] | None:
    """The browser to use: ("playwright", None), ("system", path), or None."""
    if playwright_chromium():
        return ("playwright", None)
    for name in SYSTEM_BROWSERS:
        path = shutil.which(name)
        if path:
            return ("system", path)
    return None


FOUND = find_browser()


def pytest_report_header() -> str:
    """One line saying which browser the browser tests use (or how to get one)."""
    if FOUND is None:
        return HOW_TO_GET_ONE
    return f"browser tests: {FOUND[1] or 'the Chromium Playwright installed'}"


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Playwright's Chromium, else the system's Chromium or Chrome (never downloaded here)."""
    if FOUND is None:
        if os.environ.get("THIEVERY_REQUIRE_BROWSER") == "1":
            pytest.fail(HOW_TO_GET_ONE, pytrace=False)
        pytest.skip(HOW_TO_GET_ONE)
    browser = playwright.chromium.launch(executable_path=FOUND[1], args=ARGS)
    yield browser
    browser.close()


@pytest.fixture
def output() -> Path:
    """Where screenshots go (gitignored)."""
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT


def finished_by_bots(
    server: str, game: str, options: dict[str, Any], bot: str, players: int
) -> str:
    """A table of ``game`` that ``players`` bots without names (``bot``) played to the end:
    its id (a page opens it with ``/table/<id>?watch``)."""
    seats = [{"kind": "bot", "bot": bot}] * players
    made = httpx2.post(
        f"{server}/api/tables", json={"game": game, "options": options, "seats": seats}
    )
    assert made.status_code == 201, made.text
    table_id: str = made.json()["table"]["id"]
    deadline = time.time() + 60
    while not httpx2.get(f"{server}/api/tables/{table_id}").json().get("over"):
        assert time.time() < deadline, f"the bots' {game} table did not finish"
        time.sleep(0.2)
    return table_id


EXCHANGED: set[str] = set()  # the keys exchange() got (links made of them are keys' links)


def exchange(invite: str) -> str:
    """The seat's own key for an invite link (``POST /api/tables/{id}/exchange``, as a
    program playing over HTTP does): an invite grants nothing but its exchange
    (thievery.server.seats), so the tests act over HTTP with keys. The invite works no
    more: a page opens the seat with :func:`key_link`."""
    base, rest = invite.split("/table/")
    table_id, token = rest.split("#token=")
    response = httpx2.post(
        f"{base}/api/tables/{table_id}/exchange", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 200, response.text
    key: str = response.json()["key"]
    EXCHANGED.add(key)
    return key


def key_link(invite: str, key: str) -> str:
    """The seat's link with its key in place of its invite."""
    return invite.split("#token=")[0] + "#token=" + key


class SeatLinks:
    """A table's human seats, moved through the HTTP API: each seat's link and token, its
    invite at first. :meth:`key` exchanges it over HTTP unless a page opened the seat
    first (the test then sets ``tokens[seat]`` to the key the page got: :func:`seat_key`)."""

    def __init__(self, seats: list[dict[str, Any]]) -> None:
        self.invites: list[str] = [s["invite"] for s in seats]
        self.tokens = [i.split("#token=")[1] for i in self.invites]
        self.invited = list(self.tokens)  # (each seat's invite)

    def key(self, seat: int) -> str:
        """The seat's key, its invite exchanged over HTTP if no page has opened the seat
        yet (its link holds the key then)."""
        if self.tokens[seat] == self.invited[seat]:  # (still its invite)
            self.tokens[seat] = exchange(self.invites[seat])
            self.invites[seat] = key_link(self.invites[seat], self.tokens[seat])
        return self.tokens[seat]


def seat_key(page: Page, invite: str) -> str:
    """The seat's own key a page got when it joined with ``invite`` (an invite link or its
    token): the table exchanges an invite at its first join (thievery.server.seats), and
    the page keeps the key in its local storage; the invite works no more. (A link that
    holds a key :func:`exchange` got is the key's own.)"""
    table_id = invite.split("/table/")[-1].split("#")[0] if "/table/" in invite else None
    token = invite.split("#token=")[-1]
    if token in EXCHANGED:
        return token
    found = page.wait_for_function(
        """([id, invite]) => {
            const all = JSON.parse(localStorage.getItem("thievery.tokens") || "{}");
            const ids = id ? [id] : Object.keys(all);
            for (const k of ids) {
                const t = (all[k] || {}).token;
                if (t && t !== invite) return t;
            }
            return false;
        }""",
        arg=[table_id, token],
    )
    key: str = found.json_value()
    return key
