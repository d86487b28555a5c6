"""Every seats list says whose invite still waits (``invited``): the lobby page shows its
host the invite links it made until their seats are taken."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import FAST, LIFTED, create_table, listing
from thievery.server import create_app


def invited(seats: list[dict[str, object]]) -> list[object]:
    return [s["invited"] for s in seats]


def test_a_seat_is_invited_until_someone_takes_it(sqlite_url: str) -> None:
    """In the table's summary, its seats frame and the listing (from memory, and from
    storage after a restart): a human seat's invite waits until it is exchanged; a bot
    seat waits for nobody; the host's new invite makes the seat wait for that one."""
    with TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST, caps=LIFTED)) as client:
        made = create_table(client, ["human", "human", "bot:heuristic"])
        tid, host = made["table"]["id"], made["host_token"]
        assert invited(client.get(f"/api/tables/{tid}").json()["seats"]) == [True, True, False]
        exchanged = client.post(
            f"/api/tables/{tid}/exchange",
            headers={"Authorization": f"Bearer {made['seats'][1]['token']}"},
        )
        assert exchanged.status_code == 200, exchanged.text
        assert invited(client.get(f"/api/tables/{tid}").json()["seats"]) == [True, False, False]
        (live,) = [t for t in listing(client, tid)["live"] if t["id"] == tid]
        assert invited(live["seats"]) == [True, False, False]
        with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            ws.send_json({"type": "join"})
            while (frame := ws.receive_json())["type"] != "seats":
                pass
            assert invited(frame["seats"]) == [True, False, False]
        again = client.post(
            f"/api/tables/{tid}/seats/1/invite", headers={"Authorization": f"Bearer {host}"}
        )
        assert again.status_code == 200, again.text
        assert invited(client.get(f"/api/tables/{tid}").json()["seats"]) == [True, True, False]
    # Restarted: listed from storage (not loaded), as stored.
    with TestClient(create_app(sqlite_url, bot_delay=0, limits=FAST, caps=LIFTED)) as client:
        (stored,) = [t for t in listing(client, tid)["live"] if t["id"] == tid]
        assert stored["loaded"] is False
        assert invited(stored["seats"]) == [True, True, False]
