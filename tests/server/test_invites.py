"""An invite is exchanged for the seat's own key at its player's first join: whoever made
the table (and holds every invite) cannot go on reading that seat's hand or playing for
it. Until then the invite is the seat's token (an HTTP-only client plays with it)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import Player, create_table


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def join_error(client: TestClient, tid: str, token: str) -> dict[str, Any]:
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_json({"type": "join", "token": token})
        frame: dict[str, Any] = ws.receive_json()
        return frame


def test_the_first_join_exchanges_the_invite_for_the_seats_own_key(client: TestClient) -> None:
    made = create_table(client, ["human", "human", "bot:random"])
    tid, invite = made["table"]["id"], made["seats"][1]["token"]
    # Before its player comes, the invite is the seat's token.
    before = client.get(f"/api/tables/{tid}/state", headers=auth(invite))
    assert before.status_code == 200 and before.json()["seat"] == 1
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        player = Player(ws, invite)
        key = player.token
        assert key and key != invite and player.latest["seat"] == 1
        # The table's maker, holding the invite, gets nothing more with it.
        refused = client.get(f"/api/tables/{tid}/state", headers=auth(invite))
        assert refused.status_code == 403 and refused.json()["code"] == "auth/token"
        acted = client.post(
            f"/api/tables/{tid}/actions", json={"action": {"type": "done"}}, headers=auth(invite)
        )
        assert acted.status_code == 403 and acted.json()["code"] == "auth/token"
        used = join_error(client, tid, invite)
        assert used["code"] == "auth/invite_used" and "Copy my seat link" in used["message"]
        # Nothing changed for the player; the key is the seat's token everywhere.
        mine = client.get(f"/api/tables/{tid}/state", headers=auth(key)).json()
        assert mine["seat"] == 1 and mine["version"] == player.latest["version"]
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        again = Player(ws, key)
        assert again.latest["seat"] == 1 and "key" not in again.latest  # (told once)
        assert again.token == key
    # Only that one welcome ever held the key; the other seats' welcomes never do.
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        other = Player(ws, made["seats"][0]["token"])
        assert other.token not in (key, made["seats"][0]["token"])
        assert key not in "".join(other.texts)


def test_the_key_is_stored_as_a_hash(client: TestClient) -> None:
    """The exchange is stored before the player is told (as hashes: neither token is in
    storage), so the key works and the invite does not after a restart too (the restart
    itself: test_storage)."""
    made = create_table(client, ["human", "human", "bot:random"])
    tid, invite = made["table"]["id"], made["seats"][0]["token"]
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        key = Player(ws, invite).token
    hub = client.app.state.hub  # type: ignore[attr-defined]
    record = hub.storage.table(tid)
    assert record is not None
    stored = record.seats[0]
    assert stored["token_hash"] and stored["invite_hash"] and key not in str(stored)
    assert invite not in str(stored)
    assert client.get(f"/api/tables/{tid}/state", headers=auth(key)).json()["seat"] == 0
    assert client.get(f"/api/tables/{tid}/state", headers=auth(invite)).status_code == 403
