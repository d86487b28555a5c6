"""Scenario helpers for Thieves Den: stacked deals and arranged thieving-phase tables."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import thievery
from thievery.core import Event
from thievery.games.thieves_den.cards import DEFAULT_PATH, TREASURES
from thievery.games.thieves_den.rules import THIEVE, ThievesDen

GAME = thievery.plugin("thieves-den")
SPEC = GAME.spec


def interleave(hands: list[list[str]], first: int = 0, direction: int = 1) -> list[str]:
    """The Location deck top (top first) that deals ``hands[s]`` to each seat, dealing one
    card at a time round the table from ``first`` in ``direction``."""
    n = len(hands)
    order = [(first + i * direction) % n for i in range(n)]
    out = []
    for k in range(max(len(h) for h in hands)):
        for s in order:
            if k < len(hands[s]):
                out.append(hands[s][k])
    return out


def new(
    players: int = 3,
    *,
    hands: list[list[str]] | None = None,
    first: int = 0,
    seed: int = 1,
    **options: Any,
) -> ThievesDen:
    """A new game with seat ``first`` holding the Direction tile and, if given, stacked
    starting hands (4 Location ids per seat)."""
    opts: dict[str, Any] = {"first_player": first, **options}
    if hands is not None:
        opts["location_deck"] = interleave(hands, first)
    state = SPEC.new(players, seed, opts)
    assert isinstance(state, ThievesDen)
    return state


def components(state: ThievesDen) -> Counter[Any]:
    """Every component of the game, wherever it is."""
    return Counter(c for place in state.locations().values() for c in place)


def arrange(
    state: ThievesDen,
    *,
    up: dict[int, list[str]] | None = None,
    neutral: list[str] | None = None,
    collected: dict[int, list[str]] | None = None,
    treasures: dict[int, dict[str, int]] | None = None,
    thieves: dict[int, int] | None = None,
    prestige: dict[int, int] | None = None,
    fence_row: list[str] | None = None,
    fences_collected: dict[int, list[str]] | None = None,
    powers: list[str] | None = None,
    current: int = 0,
) -> ThievesDen:
    """Turn a fresh game into a thieving-phase table: the hands go back into the deck,
    the named cards and tokens are taken from where they are (so every component stays
    accounted for), and seat ``current`` is to act."""
    cs = state.cs
    before = components(state)
    for s in range(state.players):
        state.loc_deck.extend(state.hands[s])
        state.hands[s] = []

    def take_loc(card: str) -> int:
        c = cs.loc_index[card]
        state.loc_deck.remove(c)
        return c

    for seat, ids in (up or {}).items():
        for card in ids:
            c = take_loc(card)
            state.up[seat].append(c)
            state.loc_owner[c] = seat
    for card in neutral or []:
        c = take_loc(card)
        state.neutral.append(c)
        state.loc_owner[c] = -1
    for seat, ids in (collected or {}).items():
        state.collected[seat].extend(take_loc(c) for c in ids)
    if fence_row is not None:
        state.fence_deck.extend(f for f in state.fence_row if f >= 0)
        state.fence_row = []
        for card in fence_row:
            f = cs.fence_index[card]
            state.fence_deck.remove(f)
            state.fence_row.append(f)
        state.fence_row += [-1] * (6 - len(state.fence_row))
    for seat, ids in (fences_collected or {}).items():
        for card in ids:
            f = cs.fence_index[card]
            (state.fence_deck if f in state.fence_deck else state.fence_row).remove(f)
            state.fences_collected[seat].append(f)
        if -1 in state.fence_row or len(state.fence_row) < 6:
            state.fence_row = [f for f in state.fence_row if f >= 0]
            while len(state.fence_row) < 6:
                state.fence_row.append(state.fence_deck.pop())
    for i, tile in enumerate(powers or []):
        p = cs.power_index[tile]
        places = [*state.power_stacks, state.power_box]
        where = next(pl for pl in places if p in pl)
        top = state.power_stacks[i][-1]
        where[where.index(p)] = top
        state.power_stacks[i][-1] = p
    for seat, counts in (treasures or {}).items():
        for name, k in counts.items():
            t = TREASURES.index(name)
            state.supply[t] -= k - state.treasure[seat][t]
            state.treasure[seat][t] = k
            assert state.supply[t] >= 0, f"not enough {name} in the supply"
    for seat, k in (thieves or {}).items():
        state.supply_thieves -= k - state.thieves[seat]
        state.thieves[seat] = k
        assert state.supply_thieves >= 0
    for seat, k in (prestige or {}).items():
        state.prestige[seat] = k
    state.pick = [-1] * state.players
    state.pick_no = 3
    state.known_top = 0
    state.phase = THIEVE
    state._start_turn(current)
    assert components(state) == before
    return state


def act(state: ThievesDen, seat: int, kind: str, /, **fields: Any) -> list[Event]:
    """Apply ``seat``'s action given by its JSON fields."""
    return state.apply(seat, {"type": kind, **fields})


def of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    """The data of every event of one type."""
    return [e.data for e in events if e.type == kind]


def held(state: ThievesDen, seat: int) -> dict[str, int]:
    """A seat's treasures, without the zeros."""
    return {t: k for t, k in zip(TREASURES, state.treasure[seat], strict=True) if k}


def legal(state: ThievesDen, seat: int) -> list[dict[str, Any]]:
    """A seat's legal actions as JSON."""
    return [a.to_json() for a in state.legal_actions(seat)]


def pass_all(state: ThievesDen) -> list[Event]:
    """Every seat still in passes, in turn order, until the round's thieving ends."""
    events: list[Event] = []
    r = state.round
    while state.round == r and state.phase == THIEVE and state.to_act:
        seat = state.to_act[0]
        if state.queue:
            events += state.apply(seat, state.legal_actions(seat)[-1])
        else:
            events += act(state, seat, "pass")
    return events


# The custom card set the tests use: the default one renamed, with a Market of its own
# ("Night Bazaar", 3 Jewels) and a Power tile of its own ("Fame", 5 Prestige).
CUSTOM_SET = "Night Market set"
CUSTOM_CHANGES = (
    ('name = "Thievery unofficial set"', f'name = "{CUSTOM_SET}"'),
    ('name = "Market"', 'name = "Night Bazaar"'),
    (
        'ability = [{ op = "gain", what = "jewel", count = 2 }]',
        'ability = [{ op = "gain", what = "jewel", count = 3 }]',
    ),
    (
        'name = "Renown"\nability = [{ op = "prestige", count = 3 }]',
        'name = "Fame"\nability = [{ op = "prestige", count = 5 }]',
    ),
)


def write_custom_set(folder: Path, name: str = "mine.toml") -> Path:
    """Write the tests' custom card set into ``folder``; its path."""
    text = DEFAULT_PATH.read_text()
    for old, new in CUSTOM_CHANGES:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = folder / name
    path.write_text(text)
    return path
