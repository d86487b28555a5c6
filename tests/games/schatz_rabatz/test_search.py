"""Schatz-Rabatz's search over placements: legal drops, the view alone, within its budget,
its rollout policy is the packer, and its match value is a share of the win."""

from __future__ import annotations

import math
import random
import time

import pytest

from thievery.bots import make_bot
from thievery.bots.realtime import BotClock, play_simulated
from thievery.core import Rng
from thievery.games.schatz_rabatz.actions import Drop
from thievery.games.schatz_rabatz.bots import SPEEDS, PackingBot
from thievery.games.schatz_rabatz.pieces import BOARD_CLAIMS, TREASURE_ID
from thievery.games.schatz_rabatz.rules import PACKING, SchatzRabatz
from thievery.games.schatz_rabatz.search import (
    PlacementSearchBot,
    Position,
    match_values,
    pack_choice,
    rollout,
    round_value,
)

from .helpers import SPEC, drop, new, seeded, wait_hand


def positions(players: int, seed: int, count: int) -> list[tuple[SchatzRabatz, int]]:
    """Packing positions met in a match of packers on simulated time: (state, seat)."""
    state = seeded(players, seed)
    bots = {s: make_bot("heuristic", SPEC.name, s, seed) for s in range(players)}
    clock = BotClock(bots, Rng(seed))
    out: list[tuple[SchatzRabatz, int]] = []
    while len(out) < count and not state.is_over:
        due = clock.next_due(state)
        assert due is not None
        if state.phase == PACKING and len(state.legal_actions(due[1])) > 1:
            out.append((state.clone(), due[1]))
        clock.step(state, *due)
    return out


def test_the_search_bots_are_registered_at_the_adult_speed_the_strong_one_larger() -> None:
    weak = make_bot("ismcts", SPEC.name, 0, 1)
    strong = make_bot("ismcts-strong", SPEC.name, 1, 1)
    assert isinstance(weak, PlacementSearchBot) and isinstance(strong, PlacementSearchBot)
    assert weak.samples is not None and strong.samples is not None
    assert strong.samples > weak.samples and strong.candidates > weak.candidates
    view = new(2).view(0)
    for bot in (weak, strong):
        assert bot.action_ms == SPEEDS["adult"]
        delays = [bot.delay_ms(view) for _ in range(50)]
        assert all(0.8 * SPEEDS["adult"] <= d <= 1.2 * SPEEDS["adult"] for d in delays)


def test_the_search_plays_whole_matches_with_legal_moves() -> None:
    """Against the packer, in every variant (``apply`` refuses an illegal action)."""
    for players, options in ((2, {}), (3, {"little_pirates": True}), (2, {"big_pirates": True})):
        state = seeded(players, 5, {"short_game": True, **options})
        bots = {0: PlacementSearchBot(SPEC.name, 0, Rng(5), samples=3, candidates=3)}
        for seat in range(1, players):
            bots[seat] = make_bot("heuristic", SPEC.name, seat, 5)  # type: ignore[assignment]
        assert play_simulated(state, bots, Rng(5)) > 0
        assert state.result() is not None


def test_two_true_states_with_the_same_view_give_the_same_decision() -> None:
    """The face-down Jack-boards re-sampled behind the same view: same seed, same drop."""
    rng = Rng(12)
    checked = 0
    for state, seat in positions(2, 12, 14)[::2]:
        view = state.view(seat)
        other = SPEC.determinize(view, rng)
        assert isinstance(other, SchatzRabatz) and other.view(seat) == view
        assert other.stack != state.stack or len(state.turned) == 9
        for every_board in (False, True):
            a = PlacementSearchBot(SPEC.name, seat, Rng(3), samples=6, every_board=every_board)
            b = PlacementSearchBot(SPEC.name, seat, Rng(3), samples=6, every_board=every_board)
            first = a.act(view, state.legal_actions(seat))
            second = b.act(other.view(seat), other.legal_actions(seat))
            assert first == second and state.is_legal(seat, first)
            checked += 1
    assert checked >= 10


@pytest.mark.realtime  # (timed: run alone, see tests/conftest.py)
def test_the_budget_is_respected() -> None:
    state, seat = positions(2, 4, 3)[2]
    view, legal = state.view(seat), state.legal_actions(seat)
    bot = PlacementSearchBot(SPEC.name, seat, Rng(1), samples=7, candidates=4)
    bot.act(view, legal)
    assert bot.last_samples == 7 and bot.last_rollouts == 7 * 5  # the packer's + 4 others
    timed = PlacementSearchBot(SPEC.name, seat, Rng(1), samples=None, budget_ms=150)
    t0 = time.perf_counter()
    timed.act(view, legal)
    assert time.perf_counter() - t0 < 0.4
    assert timed.last_samples > 2
    with pytest.raises(ValueError, match="budget"):
        PlacementSearchBot(SPEC.name, 0, Rng(1), samples=None)


@pytest.mark.realtime  # (timed: run alone, see tests/conftest.py)
def test_a_deadline_bounds_the_decision_time_whatever_the_sample_budget() -> None:
    """Where the clock is live (a server table, the terminal's live mode) the bot gets a
    ``deadline`` and answers by then (one sample past it at most: a few milliseconds,
    tens on a loaded machine; the margin here is generous) with what it found, however
    large its budget; a deadline already past gives the packer's choice at once."""
    state, seat = positions(4, 4, 6)[5]
    view, legal = state.view(seat), state.legal_actions(seat)
    bot = make_bot("ismcts-strong", SPEC.name, seat, 1)
    assert isinstance(bot, PlacementSearchBot) and bot.deadline == math.inf
    bot.samples = 10**6  # (days of search: only the deadline stops it)
    t0 = time.perf_counter()
    bot.deadline = t0 + 0.1
    assert bot.act(view, legal) in legal
    assert time.perf_counter() - t0 < 0.6
    assert 2 <= bot.last_samples < 10**6
    packer = PackingBot(SPEC.name, seat, Rng(0), speed="instant").act(view, legal)
    for _ in range(3):
        t0 = time.perf_counter()
        bot.deadline = t0 - 1
        assert bot.act(view, legal) == packer
        assert time.perf_counter() - t0 < 0.3
        assert bot.last_samples == 0


def test_the_rollout_policy_is_the_packer() -> None:
    """On every position met, ``pack_choice`` makes the packer's decision."""
    for state, seat in positions(3, 8, 40):
        view = state.view(seat)
        want = PackingBot(SPEC.name, seat, Rng(0), speed="instant").act(
            view, state.legal_actions(seat)
        )
        position = Position(view, seat)
        got = pack_choice(position.heights[seat], position.depth, position.in_pool, position)
        if got is None:
            assert want.type == "close"
        else:
            t, r, c = got
            assert want == Drop(TREASURE_ID[t], r, c)


def test_a_rollout_packs_below_the_rim_and_ends_the_round() -> None:
    state, seat = positions(2, 6, 5)[4]
    position = Position(state.view(seat), seat)
    counted = rollout(position, None, random.Random(1))  # the seat closes at once
    assert counted[seat] == position.counted[seat]
    other = 1 - seat
    assert len(counted[other]) > len(position.counted[other])
    taken = [t for kept in counted for t in kept]
    assert len(taken) == len(set(taken))  # each treasure in one chest at most
    boards = [BOARD_CLAIMS[b] for b in range(9)]
    assert 0.0 <= round_value(position, counted, boards) <= 1.0


def test_match_values_share_the_win() -> None:
    for parts in ((0, 0), (3, 1), (2, 2, 0), (0, 1, 2, 3), (4, 4, 1)):
        values = match_values(parts, 4)
        assert sum(values) == pytest.approx(1.0)
        assert all(0.0 <= v <= 1.0 for v in values)
    assert match_values((0, 0), 4) == pytest.approx((0.5, 0.5))
    assert match_values((4, 4, 1), 4) == (0.5, 0.5, 0.0)
    leader, trailer = match_values((3, 1), 4)
    assert leader > 0.8 > 0.2 > trailer


def test_in_big_pirates_the_search_leaves_the_claimed_treasures_alone() -> None:
    state = new(2, big_pirates=True)
    claims = set(state.view(0)["board"]["claims"])
    bot = PlacementSearchBot(SPEC.name, 0, Rng(2), samples=6, candidates=6)
    drop(state, 1, "circle-blue", 0, 0)
    for _ in range(8):
        wait_hand(state, 0)
        action = bot.act(state.view(0), state.legal_actions(0))
        assert action.type == "drop" and getattr(action, "treasure", None) not in claims
        state.apply(0, action)
