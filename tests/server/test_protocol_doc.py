"""docs/protocol.md names every frame the table's websocket sends and takes."""

from __future__ import annotations

import re
from pathlib import Path

import thievery.server

SERVER = Path(thievery.server.__file__).parent
DOC = SERVER.parents[2] / "docs" / "protocol.md"
# Not frames: a JSON schema's, an ASGI scope's, and actions' types.
NOT_FRAMES = {"object", "websocket", "play", "tick"}


def test_every_frame_type_the_server_knows_is_in_the_protocol_doc() -> None:
    source = "".join(p.read_text() for p in SERVER.rglob("*.py"))
    types = set(re.findall(r'"type": "([a-z_]+)"', source)) - NOT_FRAMES
    types |= set(re.findall(r'state_frame(?:_text)?\("([a-z_]+)"', source))  # welcome, update
    assert {"welcome", "update", "ack", "error", "join", "act", "closed"} <= types
    doc = DOC.read_text()
    section = doc[doc.index("## The table's websocket") :]
    missing = sorted(t for t in types if f"`{t}`" not in section and f'"{t}"' not in section)
    assert not missing, f"frames not in docs/protocol.md: {missing}"
