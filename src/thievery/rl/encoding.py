"""Fixed-size tensors from one seat's view, and a fixed discrete action space.

Everything here reads a seat's **view** (the JSON a seat may see), never a state: an
:class:`ObservationLayout` is a list of :class:`Field` s, each writing a fixed number of
numbers from the view into a ``float32`` vector. Seats are always written relative to the
viewer (``(seat - me) % players``: 0 is the viewer, 1 the next seat, ...), so one policy
can play every seat.

An :class:`ActionCodec` numbers a game's actions once per game and player count:
``index -> action`` and ``action -> index``, with a last index ``WAIT`` ("do nothing
now"), legal only on a real-time game's clock and, in the Parallel API, for a seat that
is not to act.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from thievery.core.protocol import JSON, Action

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
# A field's writer: (view, viewer's seat, players, vector, offset) -> None
Writer = Callable[[Mapping[str, Any], int, int, Vector, int], None]

WAIT_JSON: JSON = {"type": "wait"}


@dataclass(frozen=True)
class Field:
    """A named block of ``size`` numbers of the observation vector."""

    name: str
    size: int
    write: Writer
    doc: str


class ObservationLayout:
    """The observation vector of one game and player count: its fields in order."""

    def __init__(self, fields: Sequence[Field]) -> None:
        self.fields = tuple(fields)
        offsets = []
        at = 0
        for f in self.fields:
            offsets.append(at)
            at += f.size
        self.offsets = tuple(offsets)
        self.size = at
        self._plan = tuple(zip(self.fields, self.offsets, strict=True))

    def encode(self, view: Mapping[str, Any], seat: int) -> Vector:
        """The vector of ``seat``'s view (``view`` must be ``state.view(seat)``)."""
        out = np.zeros(self.size, dtype=np.float32)
        n = int(view["players"])
        for f, at in self._plan:
            f.write(view, seat, n, out, at)
        return out

    def describe(self) -> list[JSON]:
        """The layout as rows ``{"name", "offset", "size", "doc"}`` (for docs and users)."""
        return [
            {"name": f.name, "offset": at, "size": f.size, "doc": f.doc} for f, at in self._plan
        ]


class ActionCodec:
    """A fixed discrete action space: ``actions[i]`` is action ``i``; index
    ``len(actions)`` is ``WAIT``."""

    def __init__(self, actions: Iterable[Action]) -> None:
        self.actions: tuple[Action, ...] = tuple(actions)
        self.index: dict[Action, int] = {}
        for i, a in enumerate(self.actions):
            if a in self.index:
                raise ValueError(f"action {a.to_json()} is listed twice")
            self.index[a] = i
        self.wait = len(self.actions)
        self.size = self.wait + 1

    def mask(self, legal: Iterable[Action], *, wait: bool = False) -> Mask:
        """1 for every legal action's index (and ``WAIT`` if ``wait``), else 0."""
        out = np.zeros(self.size, dtype=np.int8)
        index = self.index
        for a in legal:
            out[index[a]] = 1
        if wait:
            out[self.wait] = 1
        return out

    def action(self, i: int) -> Action | None:
        """The action of index ``i`` (``None``: ``WAIT``)."""
        if not 0 <= i < self.size:
            raise ValueError(f"action index {i} is outside 0..{self.size - 1}")
        return None if i == self.wait else self.actions[i]

    def to_json(self, i: int) -> JSON:
        """The JSON form of action ``i`` (``{"type": "wait"}`` for ``WAIT``)."""
        a = self.action(i)
        return dict(WAIT_JSON) if a is None else a.to_json()

    def table(self) -> list[JSON]:
        """Every index's action as JSON, in index order (the documented mapping)."""
        return [self.to_json(i) for i in range(self.size)]


# ---------------------------------------------------------------- field builders


def _get(view: Mapping[str, Any], path: str) -> Any:
    """``view["a"]["b"]`` for ``"a.b"``; ``None`` where a step is missing or ``None``."""
    node: Any = view
    for key in path.split("."):
        if node is None:
            return None
        node = node.get(key)
    return node


def vocabulary(ids: Iterable[str]) -> dict[str, int]:
    """Ids to positions."""
    return {x: i for i, x in enumerate(ids)}


def number(path: str, scale: float = 1.0, doc: str = "") -> Field:
    """One number (``None``: 0; ``True``: 1), divided by ``scale``."""

    def write(v: Mapping[str, Any], me: int, n: int, out: Vector, at: int) -> None:
        x = _get(v, path)
        if x is not None:
            out[at] = float(x) / scale

    return Field(path, 1, write, doc or f"{path} / {scale:g}")


def one_hot(path: str, choices: Sequence[Any], doc: str = "") -> Field:
    """One position per choice; the value's is 1 (none for ``None`` or an unknown value)."""
    where = {c: i for i, c in enumerate(choices)}

    def write(v: Mapping[str, Any], me: int, n: int, out: Vector, at: int) -> None:
        i = where.get(_get(v, path), -1)
        if i >= 0:
            out[at + i] = 1.0

    return Field(path, len(choices), write, doc or f"{path}: one of {list(choices)}")


def bag(path: str, vocab: Mapping[str, int], doc: str = "") -> Field:
    """Counts of the ids in a list (or a single id) over a vocabulary."""

    def write(v: Mapping[str, Any], me: int, n: int, out: Vector, at: int) -> None:
        x = _get(v, path)
        if x is None:
            return
        if isinstance(x, str):
            out[at + vocab[x]] += 1.0
            return
        for item in x:
            if item is not None:
                out[at + vocab[item]] += 1.0

    return Field(path, len(vocab), write, doc or f"{path}: count per id ({len(vocab)} ids)")


def seat(path: str, players: int, doc: str = "") -> Field:
    """A seat number as one-hot over relative seats (0: the viewer)."""

    def write(v: Mapping[str, Any], me: int, n: int, out: Vector, at: int) -> None:
        x = _get(v, path)
        if isinstance(x, int):
            out[at + (x - me) % n] = 1.0

    return Field(path, players, write, doc or f"{path}: relative seat, one-hot")


def seats(path: str, players: int, doc: str = "") -> Field:
    """A list of seat numbers as multi-hot over relative seats."""

    def write(v: Mapping[str, Any], me: int, n: int, out: Vector, at: int) -> None:
        for x in _get(v, path) or ():
            out[at + (x - me) % n] = 1.0

    return Field(path, players, write, doc or f"{path}: relative seats, multi-hot")


def per_seat(path: str, players: int, scale: float = 1.0, doc: str = "") -> Field:
    """A list with one number (or flag) per seat, in relative seat order."""

    def write(v: Mapping[str, Any], me: int, n: int, out: Vector, at: int) -> None:
        xs = _get(v, path)
        if not xs:
            return
        for s in range(n):
            x = xs[(me + s) % n]
            if x is not None:
                out[at + s] = float(x) / scale

    return Field(path, players, write, doc or f"{path}: per relative seat, / {scale:g}")


def per_seat_bag(path: str, players: int, vocab: Mapping[str, int], doc: str = "") -> Field:
    """A list with one id-list (or one id) per seat: counts per id, in relative seat order."""
    k = len(vocab)

    def write(v: Mapping[str, Any], me: int, n: int, out: Vector, at: int) -> None:
        xs = _get(v, path)
        if not xs:
            return
        for s in range(n):
            x = xs[(me + s) % n]
            if x is None:
                continue
            base = at + s * k
            if isinstance(x, str):
                out[base + vocab[x]] += 1.0
                continue
            for item in x:
                if item is not None:
                    out[base + vocab[item]] += 1.0

    return Field(
        path, players * k, write, doc or f"{path}: per relative seat, count per id ({k} ids)"
    )


def per_seat_one_hot(path: str, players: int, choices: Sequence[Any], doc: str = "") -> Field:
    """A list with one value per seat, each one-hot over ``choices``."""
    where = {c: i for i, c in enumerate(choices)}
    k = len(choices)

    def write(v: Mapping[str, Any], me: int, n: int, out: Vector, at: int) -> None:
        xs = _get(v, path)
        if not xs:
            return
        for s in range(n):
            i = where.get(xs[(me + s) % n], -1)
            if i >= 0:
                out[at + s * k + i] = 1.0

    return Field(
        path, players * k, write, doc or f"{path}: per relative seat, one of {list(choices)}"
    )


def custom(name: str, size: int, write: Writer, doc: str) -> Field:
    """A field with its own writer."""
    return Field(name, size, write, doc)
