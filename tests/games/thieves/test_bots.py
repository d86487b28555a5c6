"""Thieves!'s heuristic bot: sensible choices in arranged situations, and it beats random."""

from __future__ import annotations

from tests.games.thieves.helpers import new, play
from thievery.bots import make_bot
from thievery.core import Action, Rng
from thievery.games.thieves import GAME, SPEC, HeuristicBot
from thievery.games.thieves.rules import Thieves


def choose(state: Thieves, seat: int, card: str | None = None) -> Action:
    """The bot's choice, among all legal actions or only those playing ``card``."""
    legal = state.legal_actions(seat)
    if card is not None:
        legal = [a for a in legal if getattr(a, "card", None) == card]
    return HeuristicBot("thieves", seat, Rng(0)).act(state.view(seat), legal)


def rich_rival() -> Thieves:
    """Seat 1 hides two 3s; 2 police cars are in play; seat 0 (the bot) is to play."""
    state = new(
        [
            ["police-2a", "money-0a", "horseshoe"],
            ["money-3a", "money-3b", "money-2a"],
            ["police-1a", "police-1b", "money-0b"],
        ],
        ["money-1a", "money-1b", "money-0c", "money-1c", "money-1d", "money-1e", "money-1f"],
        first=1,
    )
    play(state, "money-3a", 1)
    play(state, "police-1a")
    play(state, "money-0c", 2)
    play(state, "money-3b", 1)
    play(state, "police-1b")
    assert state.current == 0 and state.view(0)["cars"] == 2
    return state


def test_calls_the_police_when_the_leader_is_rich() -> None:
    state = rich_rival()
    assert choose(state, 0).to_json() == {"type": "play", "card": "police-2a"}


def test_dumps_zeros_on_the_leader_and_keeps_the_horseshoe() -> None:
    state = rich_rival()
    assert choose(state, 0, "money-0a").to_json()["to"] == 1
    assert choose(state, 0, "horseshoe").to_json()["to"] == 0


def test_blocks_a_raid_aimed_at_itself() -> None:
    state = new(
        [
            ["money-3a", "money-3b", "roadblock-a"],
            ["police-1a", "money-1a", "money-0a"],
            ["police-1b", "police-1c", "money-0b"],
        ],
        ["money-2a", "money-1b", "money-1c", "police-1d", "money-1e", "money-1f", "money-0c"],
    )
    play(state, "money-3a", 0)
    play(state, "police-1a")
    play(state, "police-1b")
    play(state, "money-3b", 0)
    play(state, "money-0a", 1)
    play(state, "police-1c")
    assert state.current == 0 and state.view(0)["cars"] == 3
    assert choose(state, 0).to_json() == {"type": "play", "card": "roadblock-a"}


def test_thief_takes_from_the_leader() -> None:
    state = new(
        [
            ["thief-a", "money-0a", "money-0b"],
            ["money-3a", "money-1a", "money-0c"],
            ["money-1b", "money-1c", "police-1a"],
        ],
        ["money-1d", "money-1e", "money-1f", "money-1g", "money-2a"],
        first=1,
    )
    play(state, "money-3a", 2)  # face up in front of seat 2, the leader
    play(state, "money-1b", 2)
    play(state, "thief-a")
    move = choose(state, 0).to_json()
    assert move == {"type": "move", "from": 2, "slot": 0, "to": 0}


def test_heuristic_beats_random() -> None:
    wins = 0.0
    games = 60
    for g in range(games):
        state = SPEC.new(4, 1000 + g)
        me = g % 4
        bots = [make_bot("heuristic" if s == me else "random", "thieves", s, g) for s in range(4)]
        while state.to_act:
            seat = state.to_act[0]
            action = bots[seat].act(state.view(seat), state.legal_actions(seat))
            state.apply(seat, action)
        result = state.result()
        assert result is not None
        if me in result["winners"]:
            wins += 1 / len(result["winners"])
    assert wins / games > 0.4  # an equal share would be 0.25


def test_evaluate_for_search_bots() -> None:
    state = rich_rival()  # seat 1 hides 6, seat 2 shows a 0
    rewards = GAME.hooks.evaluate(state)
    assert abs(sum(rewards) - 1) < 1e-9
    assert rewards[1] > rewards[0] and rewards[1] > rewards[2]
    finished = new(
        [
            ["money-3a", "money-3b", "money-0a"],
            ["money-0b", "money-0c", "police-1a"],
            ["police-1b", "police-1c", "money-1a"],
        ],
        ["money-1b", *(f"getaway-{c}" for c in "abcdefg")],
    )
    play(finished, "money-3a", 0)
    assert finished.is_over
    assert GAME.hooks.evaluate(finished) == [1.0, 0.0, 0.0]


def test_ismcts_plays_thieves() -> None:
    state = rich_rival()
    bot = make_bot("ismcts", "thieves", 0, 1)
    action = bot.act(state.view(0), state.legal_actions(0))
    assert action in state.legal_actions(0)
