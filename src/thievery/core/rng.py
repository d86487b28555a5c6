"""A small seeded random generator whose whole state is one integer.

The state lives inside each game state, so cloning is free and (seed, actions) replays a
game bit for bit on every Python version. SplitMix64 is used: tiny, fast, well mixed.
"""

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
