"""A small seeded random generator whose whole state is one integer.

The state lives inside each game state, so cloning is free and (seed, actions) replays a
game bit for bit on every Python version. :func:`make_rng` gives a game (or a bot) its
generator from its seed: SplitMix64 for a seed below 2**64 (tiny, fast, well mixed: every
seed a person picks, and every game a server dealt before 2026-12-06), else
:class:`KeyedRng`, BLAKE2b keyed by the seed (a server's secret deal).

SplitMix64 is no secret keeper: its state is its seed plus a count, and its outputs give
it away. A player who sees the cards dealt from it learns about 6.5 bits of the seed with
each card whose place in the deck they know (Der Schattendieb: 27 bits from the opening
hand, 52 by the fifth round at the median), and a seed of 53 bits falls to a search of
about 55 core-days, after which every hand and every later card is known (the README's
"Deals are fair and checkable"). A keyed generator's outputs tell nothing of its key.
"""

import hashlib
import struct
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    """Seeded generator (SplitMix64).

    >>> a, b = Rng(7), Rng(7)
    >>> [a.below(100) for _ in range(3)] == [b.below(100) for _ in range(3)]
    True
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = s = (self.state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (multiply-shift; bias below n / 2**64)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        self.state = s = (self.state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((z ^ (z >> 31)) * n) >> 64

    def random(self) -> float:
        """A uniform float in [0, 1)."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence."""
        return items[self.below(len(items))]

    def pick(self, weights: Sequence[float]) -> int:
        """An index drawn with a chance in proportion to its (non-negative) weight."""
        x = self.random() * sum(weights)
        for i, w in enumerate(weights):
            x -= w
            if x < 0:
                return i
        return len(weights) - 1

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates). Each 64-bit output gives two 32-bit draws
        (bias below n / 2**32), and the generator is inlined: search bots shuffle a lot."""
        s = self.state
        i = len(items) - 1
        while i > 0:
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            j = ((z & 0xFFFFFFFF) * (i + 1)) >> 32
            items[i], items[j] = items[j], items[i]
            i -= 1
            if i > 0:
                j = ((z >> 32) * (i + 1)) >> 32
                items[i], items[j] = items[j], items[i]
                i -= 1
        self.state = s

    def spawn(self) -> "Rng":
        """An independent generator derived from this one."""
        return Rng(self.next64())

    def copy(self) -> "Rng":
        """A generator with the same state."""
        return Rng(self.state)


KEYED = 1 << 64  # seeds from here on give a KeyedRng (see make_rng)
_WORD = struct.Struct("<Q")


def make_rng(seed: int) -> Rng:
    """The generator a game or a bot seeded with ``seed`` draws from: :class:`Rng`
    (SplitMix64) for a seed below :data:`KEYED`, exactly as ``Rng(seed)``; else a
    :class:`KeyedRng` whose key is a hash of the whole seed (so seeds that differ only in
    their low bits, as bots' ``seed * 1_000_003 + seat``, give unrelated generators). A
    game that still seeds ``Rng(seed)`` gets SplitMix64 from the seed's low 64 bits: a
    server's keyed seed (``deal_seed``) keeps those random, but only 64 bits strong.

    >>> make_rng(7).state == Rng(7).state
    True
    >>> a, b = make_rng(KEYED + 1), make_rng(KEYED + 1)
    >>> [a.below(100) for _ in range(5)] == [b.below(100) for _ in range(5)]
    True
    """
    if seed < KEYED:
        return Rng(seed)
    return KeyedRng.from_seed(seed)


class KeyedRng(Rng):
    """BLAKE2b in counter mode: output ``k`` is the ``k % 8``-th 64-bit word of
    BLAKE2b-512 of the block number ``k // 8`` under a 256-bit key. Its state is one
    integer too, ``key << 64 | k``: a copy (a game state's clone) goes on identically, and
    what it draws (a player's cards, a bot's choices) tells nothing of the key, so nothing
    of the seed it came from or of what it draws next.

    >>> r = make_rng(KEYED * 12345)
    >>> c = r.copy()
    >>> [r.next64() for _ in range(10)] == [c.next64() for _ in range(10)]
    True
    >>> deck = list(range(10)); make_rng(KEYED * 3).shuffle(deck); sorted(deck) == list(range(10))
    True
    """

    __slots__ = ("_block", "_digest")

    def __init__(self, state: int) -> None:
        self.state = state
        self._block = -1  # the block whose hash is kept (a block is 8 outputs)
        self._digest = b""  # (its 64 bytes: a tenth of the memory of its 8 words as ints)

    @classmethod
    def from_seed(cls, seed: int) -> "KeyedRng":
        """The generator keyed by a hash of ``seed`` (a whole number), at its start."""
        data = seed.to_bytes((seed.bit_length() + 8) // 8, "big", signed=True)
        digest = hashlib.blake2b(data, digest_size=32, person=b"thievery-rng").digest()
        key = int.from_bytes(digest, "big") | (1 << 255)  # (never 0: the state stays keyed)
        return cls(key << 64)

    def __reduce__(self) -> tuple[type["KeyedRng"], tuple[int]]:
        return KeyedRng, (self.state,)  # (its kept block is made again)

    def next64(self) -> int:
        """The next 64-bit output."""
        s = self.state
        k = s & _MASK
        block = k >> 3
        if block != self._block:
            key = (s >> 64).to_bytes(32, "big")
            self._digest = hashlib.blake2b(block.to_bytes(8, "little"), key=key).digest()
            self._block = block
        self.state = s - k + ((k + 1) & _MASK)
        word: int = _WORD.unpack_from(self._digest, (k & 7) << 3)[0]
        return word

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (multiply-shift; bias below n / 2**64)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        return (self.next64() * n) >> 64

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates, an output a swap)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def spawn(self) -> "Rng":
        """An independent generator derived from this one (keyed too)."""
        return KeyedRng.from_seed(KEYED | self.next64() << 64 | self.next64())

    def copy(self) -> "Rng":
        """A generator with the same state."""
        return KeyedRng(self.state)
