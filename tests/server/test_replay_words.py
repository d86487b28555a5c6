"""A replay's words for one seat tell it only what that seat may know: no event meant for
another seat, and no card another seat holds hidden from it, neither in an event's fields
nor in its words (the replay page shows those words as they come, and words them in
German from the same fields)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

import pytest

import thievery
from thievery.core import GameRecord, Rng
from thievery.games.schattendieb.render import card_name as schattendieb_card
from thievery.games.thieves.cards import CARD_INDEX as THIEVES_INDEX
from thievery.games.thieves.render import card_name as thieves_card
from thievery.server.replay import replay_steps

NAMES = ["Ada", "Bob", "Cy", "Di"]
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "schattendieb": (4, {"games": 1}),
    "thieves": (3, {}),
    "thieves-den": (3, {}),
}


def played(game: str, seed: int) -> GameRecord:
    """A whole game between random players, its seats named."""
    players, options = GAMES[game]
    state = thievery.game(game).new(players, seed, options)
    rng = Rng(seed)
    while state.to_act:
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return GameRecord.of(state, NAMES[:players])


def cards_in(value: Any) -> set[str]:
    """Every card-like id in a JSON value ("ring-4a", "police-1b", "market-a",
    "village-shadow"): strings with a hyphen and no space, keys too."""
    if isinstance(value, str):
        return {value} if "-" in value and " " not in value else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(k) | cards_in(v) for k, v in value.items()))
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value))
    return set()


Moment = dict[int, tuple[set[str], set[str]]]


def cards_at_each_moment(record: GameRecord) -> list[Moment]:
    """For each moment (0: the deal, n: after the n-th action), each seat's cards in sight
    (its view's) and hidden ones: those another seat's view shows and its own does not."""
    everything = replay_steps(record, "all")
    static = set(everything["static"])
    moments: list[Moment] = []
    for step in everything["steps"]:
        assert step["n"] == len(moments)  # (everything shown: every action is a step)
        seen = [
            cards_in({k: v for k, v in view.items() if k not in static}) for view in step["views"]
        ]
        others = [set().union(*(seen[:s] + seen[s + 1 :])) for s in range(len(seen))]
        moments.append({s: (seen[s], others[s] - seen[s]) for s in range(len(seen))})
    return moments


def card_words(game: str, record: GameRecord) -> Callable[[str], str | None]:
    """A card id's English name as the game's words write it (None: one it never names)."""
    if game == "schattendieb":
        return schattendieb_card
    if game == "thieves":
        return lambda card: thieves_card(THIEVES_INDEX[card]) if card in THIEVES_INDEX else None
    catalogue = record.start().view(None)["catalogue"]
    names = {
        **{k: v["name"] for k, v in catalogue["locations"].items()},
        **{k: v["name"] for k, v in catalogue["fences"].items()},
    }
    return lambda card: names.get(re.sub(r"-[a-j]$", "", card))


def leaks(
    steps: Iterable[dict[str, Any]],
    seat: int,
    moments: list[Moment],
    words: Callable[[str], str | None],
) -> list[tuple[int, str]]:
    """Where a replay's steps tell ``seat`` another seat's hidden card: (action, what)."""
    found = []
    for step in steps:
        in_sight, secret = moments[step["n"]][seat]
        for event in step["events"]:
            fields = cards_in({k: v for k, v in event.items() if k != "text"})
            found += [(step["n"], card) for card in sorted(fields & secret)]
            # The words: a hidden card's name, once the names of the cards in sight are
            # left out (another copy of the same card may be in the open).
            text = event["text"]
            for name in sorted(
                set(filter(None, map(words, in_sight | fields - secret))), key=len, reverse=True
            ):
                text = text.replace(name, "")
            for name in set(filter(None, map(words, secret))):
                if re.search(rf"\b{re.escape(name)}\b", text):
                    found.append((step["n"], f"{name!r} in {event['text']!r}"))
    return found


@pytest.mark.parametrize("game", list(GAMES))
def test_a_seats_replay_words_name_no_card_hidden_from_it(game: str) -> None:
    record = played(game, 3)
    moments = cards_at_each_moment(record)
    words = card_words(game, record)
    assert sum(len(m[s][1]) for m in moments for s in m) > 0  # secrets there were
    for seat in range(record.players):
        replay = replay_steps(record, seat)
        for step in replay["steps"]:
            assert all(e["audience"] in (None, seat) for e in step["events"]), step["events"]
        assert leaks(replay["steps"], seat, moments, words) == []
    # The check finds leaks where there are some, in the fields and in the words:
    # everything's events, as if seat 0's.
    everything = replay_steps(record, "all")["steps"]
    found = leaks(everything, 0, moments, words)
    assert {" in " in what for _, what in found} == {True, False}, found
