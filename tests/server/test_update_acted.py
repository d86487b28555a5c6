"""An update says whether it is the audience's own action (``acted``): its events cannot,
another seat's action may name this seat in them."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import Player, create_table


def test_an_update_says_whether_it_is_this_seats_own_action(client: TestClient) -> None:
    """Seat 0 has two connections (two tabs): a move from one is ``acted`` at both, and
    not at seat 1's nor the spectator's. A move of seat 1 over HTTP (it reveals every
    seat's card) is ``acted`` at seat 1's connection only."""
    made = create_table(client, ["human", "human", "bot:heuristic"])
    tid = made["table"]["id"]
    url = f"/api/tables/{tid}/ws"
    with (
        client.websocket_connect(url) as a,
        client.websocket_connect(url) as b,
        client.websocket_connect(url) as c,
        client.websocket_connect(url) as s,
    ):
        tab = Player(a, made["seats"][0]["token"])
        other_tab = Player(b, tab.token)
        ben = Player(c, made["seats"][1]["token"])
        spectator = Player(s, None)
        players = (tab, other_tab, ben, spectator)
        assert tab.act(tab.latest["legal"][0])["type"] == "ack"
        for player in players:
            player.sync()
        assert [p.latest["acted"] for p in players] == [True, True, False, False]
        assert "acted" not in tab.frames[0]  # (a welcome: nobody acted)
        seen = [(p, len(p.frames)) for p in players]
        answer = client.post(
            f"/api/tables/{tid}/actions",
            json={"action": ben.latest["legal"][0]},
            headers={"Authorization": f"Bearer {ben.token}"},
        )
        assert answer.status_code == 200, answer.text
        for player in players:
            player.sync()
        # (each one's first update since: Ben's move; the bot may move after it)
        firsts = [next(f for f in p.frames[n:] if f["type"] == "update") for p, n in seen]
        assert [f["acted"] for f in firsts] == [False, False, True, False]
