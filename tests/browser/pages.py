"""What the browser tests watch on a page: its JavaScript errors, the moves it sends."""

import json
from typing import Any

from playwright.sync_api import Page


def watch_errors(page: Page) -> list[str]:
    """Collect the page's JavaScript errors (from now on)."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def moves_sent(page: Page) -> list[dict[str, Any]]:
    """The frames the page's sockets send, as it sends them (collected from now on)."""
    sent: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        ws.on("framesent", lambda text: sent.append(json.loads(text)))

    page.on("websocket", on_socket)
    return sent
