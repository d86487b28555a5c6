"""The games' generators: SplitMix64 for every seed below 2**64, exactly as ever (every
record and golden file replays), and a keyed one for a server's secret deals."""

from __future__ import annotations

import copy
import pickle
from collections import Counter

import pytest

from thievery.core.record import deal_seed
from thievery.core.rng import KEYED, KeyedRng, Rng, make_rng


@pytest.mark.parametrize("seed", [0, 1, 7, 2**53 - 1, 2**64 - 1, -5])
def test_a_seed_below_keyed_gives_splitmix_as_before(seed: int) -> None:
    made, plain = make_rng(seed), Rng(seed)
    assert type(made) is Rng
    assert [made.next64() for _ in range(20)] == [plain.next64() for _ in range(20)]


def test_splitmix_outputs_are_the_ones_records_were_dealt_with() -> None:
    """Pinned (the first is SplitMix64's published first output for seed 0): a change here
    would deal every stored game and record differently."""
    assert Rng(0).next64() == 0xE220A8397B1DCDAF
    rng = Rng(7)
    assert [rng.below(1000) for _ in range(5)] == [389, 16, 900, 582, 452]


def test_a_keyed_generator_goes_on_identically_in_a_copy_a_pickle_and_a_deep_copy() -> None:
    rng = make_rng(KEYED * 99 + 5)
    assert isinstance(rng, KeyedRng)
    for _ in range(13):  # (mid-block: the copies make the kept block again)
        rng.next64()
    copies = [rng.copy(), pickle.loads(pickle.dumps(rng)), copy.deepcopy(rng)]
    expected = [rng.next64() for _ in range(40)]
    for other in copies:
        assert isinstance(other, KeyedRng)
        assert [other.next64() for _ in range(40)] == expected


def test_seeds_that_differ_in_their_low_bits_give_unrelated_keyed_generators() -> None:
    """A bot's seed is the table's times 1,000,003 plus its seat: the seats' generators
    share no key and no stream (a key is a hash of the whole seed)."""
    seed = KEYED * 123_456_789
    streams = [[make_rng(seed * 1_000_003 + seat).next64() for _ in range(64)] for seat in range(4)]
    keys = {make_rng(seed * 1_000_003 + seat).state >> 64 for seat in range(4)}
    assert len(keys) == 4
    for a in range(4):
        for b in range(a + 1, 4):
            assert not set(streams[a]) & set(streams[b])


def test_a_keyed_generator_draws_evenly_and_shuffles_to_a_permutation() -> None:
    rng = make_rng(KEYED + 2026)
    counts = Counter(rng.below(10) for _ in range(20_000))
    assert set(counts) == set(range(10))
    assert all(1_800 <= c <= 2_200 for c in counts.values()), counts  # (±10 %, 7 sigma)
    deck = list(range(105))
    rng.shuffle(deck)
    assert sorted(deck) == list(range(105)) and deck != list(range(105))
    firsts: Counter[int] = Counter()
    for _ in range(5_000):
        cards = list(range(5))
        rng.shuffle(cards)
        firsts[cards[0]] += 1
    assert all(800 <= c <= 1_200 for c in firsts.values()), firsts
    assert 0.0 <= rng.random() < 1.0 and rng.choice("abc") in "abc"
    assert isinstance(rng.spawn(), KeyedRng)
    with pytest.raises(ValueError):
        rng.below(0)


def test_keyed_outputs_and_deal_seeds_are_pinned() -> None:
    """A change to the keyed generator or to ``deal_seed`` (byte order, a hash's person,
    the shuffle) would re-deal every stored running table (its actions would no longer
    apply) and every finished record would stop replaying: pinned."""
    rng = make_rng(KEYED * 12345)
    assert [rng.next64() for _ in range(3)] == [
        0x51A3BF6D617933A0,
        0xC6B3A1551860763C,
        0x6CFFB9B889A61BAE,
    ]
    seed = deal_seed(7, "00" * 32)
    assert seed == 0x501F3FDDF85B95CC4EFAEA472D010134897B4E52082D0229DDE9EAA03EF653B7
    keyed = list(range(10))
    make_rng(seed).shuffle(keyed)
    assert keyed == [4, 6, 0, 3, 1, 9, 5, 8, 7, 2]
    plain = list(range(10))
    Rng(7).shuffle(plain)  # (SplitMix's shuffle: every game dealt before, and every local one)
    assert plain == [2, 6, 8, 1, 5, 4, 0, 7, 9, 3]
