"""Thieves!: the inferring determinizer (face-down loot drawn by how players keep money)."""

from __future__ import annotations

from collections import Counter
from itertools import product

from tests.games.thieves.helpers import SPEC, new, play
from thievery.core import Rng
from thievery.games.thieves.cards import CARD_MASK, FINAL_VALUE, KIND, MONEY, RAID_VALUE
from thievery.games.thieves.rules import Thieves
from thievery.games.thieves.view import KEEP, Determinizer, inferring_sampler

Kind = tuple[int, int]


def kind(card: int) -> Kind:
    return FINAL_VALUE[card], RAID_VALUE[card]


def two_hidden_slots() -> Thieves:
    """Seats 1 and 2 have each kept one money card face down; seat 0 is to play."""
    state = new(
        [
            ["police-1a", "money-0a", "money-1a"],
            ["money-3a", "money-1b", "police-1b"],
            ["money-2a", "money-1c", "roadblock-a"],
        ],
        ["money-1d", "money-1e", "money-1f", "alarm-a"],
    )
    play(state, "police-1a")
    play(state, "money-3a", 1)
    play(state, "money-2a", 2)
    assert state.current == 0
    return state


def test_hidden_slots_follow_the_product_of_the_keep_weights() -> None:
    state = two_hidden_slots()
    view = state.view(0)
    d = Determinizer(SPEC, view, KEEP)
    assert d.hidden_slots == [(1, 0), (2, 0)]
    unseen = Counter(kind(c) for c in d.pool if KIND[c] == MONEY)
    weight = {kind(c): KEEP[c] for c in d.pool if KIND[c] == MONEY}
    # The exact law of the first slot's kind: pairs of cards, chance ∝ their weights.
    exact: Counter[Kind] = Counter()
    for a, b in product(unseen, repeat=2):
        pairs = unseen[a] * (unseen[b] - (a == b))
        exact[a] += pairs * weight[a] * weight[b]
    total = sum(exact.values())
    rng = Rng(3)
    n = 40_000
    drawn: Counter[Kind] = Counter()
    for _ in range(n):
        sample = d.sample(rng)
        drawn[kind(sample.loot[1][0] & CARD_MASK)] += 1
    for k in unseen:
        assert abs(drawn[k] / n - exact[k] / total) < 0.012, (k, drawn[k] / n, exact[k] / total)
    # And not the uniform law: a 0 is far rarer under a kept slot than among unseen money.
    assert drawn[(0, 0)] / n < 0.2 * unseen[(0, 0)] / sum(unseen.values())


def test_inferred_samples_are_consistent_with_the_view() -> None:
    state = two_hidden_slots()
    view = state.view(0)
    sample = inferring_sampler(SPEC)(view)
    rng = Rng(5)
    for _ in range(50):
        s = sample(rng)
        assert s.view(0) == view
        assert s.legal_actions(0) == state.legal_actions(0)
        assert KIND[s.loot[1][0] & CARD_MASK] == MONEY
        while s.to_act:  # the sample plays on under the protocol
            seat = s.to_act[0]
            s.apply(seat, rng.choice(s.legal_actions(seat)))


def test_inference_reads_the_view_alone() -> None:
    """Two true states behind one view: the same draws from the same seed."""
    rng = Rng(7)
    state = SPEC.new(3, 12)
    checked = 0
    while state.to_act:
        seat = state.to_act[0]
        view = state.view(seat)
        other = SPEC.determinize(view, rng)
        assert other.view(seat) == view
        first = inferring_sampler(SPEC)(view)
        second = inferring_sampler(SPEC)(other.view(seat))
        a, b = Rng(9), Rng(9)
        for _ in range(3):
            x, y = first(a), second(b)
            assert (x.hands, x.loot, x.deck) == (y.hands, y.loot, y.deck)
        checked += 1
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 10
