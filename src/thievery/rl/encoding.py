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
# A field's writer: (view, viewer's seat, players, sink, offset) -> None; it appends each
# nonzero number's position (offset + i) to ``sink.at`` and the number to ``sink.value``
# (a position given twice adds up).
Writer = Callable[[Mapping[str, Any], int, int, "Sink", int], None]


class Sink:
    """Where writers put the nonzero numbers of one observation."""

    __slots__ = ("at", "value")

    def __init__(self) -> None:
        self.at: list[int] = []
        self.value: list[float] = []


WAIT_JSON: JSON = {"type": "wait"}


@dataclass(frozen=True)
class Field:
    """A named block of ``size`` numbers of the observation vector.

    ``write`` fills it. A builder's field also has ``code``: the same writer as Python
    statements (``{at}``: the offset, ``{g}``: the value at ``path``, ``{k}``: the prefix
    of its ``consts``), which the layout inlines into one encoding function; a test keeps
    the two the same."""

    name: str
    size: int
    write: Writer
    doc: str
    code: str = ""
    path: str = ""
    consts: tuple[tuple[str, Any], ...] = ()


Encoder = Callable[[Mapping[str, Any], int, int, Sink], None]


def _compile(plan: Sequence[tuple[Field, int]]) -> Encoder:
    """One function writing every field of ``plan`` in order: the fields' ``code``
    inlined (no call, no closure per field), the others' ``write`` called."""
    lines = ["def encode(v, me, n, out):", "    A = out.at.append", "    V = out.value.append"]
    names: dict[str, Any] = {}
    for j, (f, at) in enumerate(plan):
        k = f"f{j}_"
        if not f.code:
            names[k + "write"] = f.write
            lines.append(f"    {k}write(v, me, n, out, {at})")
            continue
        keys = f.path.split(".")
        if len(keys) == 1:
            g = f"v.get({keys[0]!r})"
        else:
            names[k + "get"] = _getter(f.path)
            g = f"{k}get(v)"
        for name, value in f.consts:
            names[k + name] = value
        body = f.code.format(at=at, k=k, g=g)
        lines += ["    " + line for line in body.strip("\n").splitlines()]
    exec("\n".join(lines), names)  # our own fixed source: no input goes into it
    encode: Encoder = names["encode"]
    return encode


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
        self._encode = _compile(self._plan)

    def encode(self, view: Mapping[str, Any], seat: int) -> Vector:
        """The vector of ``seat``'s view (``view`` must be ``state.view(seat)``)."""
        sink = Sink()
        self._encode(view, seat, int(view["players"]), sink)
        return self._vector(sink)

    def encode_by_fields(self, view: Mapping[str, Any], seat: int) -> Vector:
        """:meth:`encode` by calling each field's ``write`` in turn (the reference)."""
        sink = Sink()
        n = int(view["players"])
        for f, at in self._plan:
            f.write(view, seat, n, sink, at)
        return self._vector(sink)

    def _vector(self, sink: Sink) -> Vector:
        ats = sink.at
        if len(set(ats)) == len(ats):  # every position once: set them
            out = np.zeros(self.size, dtype=np.float32)
            out[ats] = sink.value
            return out
        summed = np.bincount(ats, weights=sink.value, minlength=self.size)
        return summed.astype(np.float32)

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
        # The engines hand out interned action values: most lookups go by identity (the
        # codec keeps every listed value alive, so an id found here is that very value),
        # which spares hashing a dataclass per legal action.
        self._by_id: dict[int, int] = {id(a): i for i, a in enumerate(self.actions)}
        self.wait = len(self.actions)
        self.size = self.wait + 1

    def indices(self, legal: Iterable[Action]) -> list[int]:
        """The index of each action of ``legal``, in its order."""
        if not isinstance(legal, (list, tuple)):  # (a tuple of types: no union made per call)
            legal = list(legal)
        try:
            return list(map(self._by_id.__getitem__, map(id, legal)))
        except KeyError:  # an equal value that is not the interned one
            by_id, index = self._by_id, self.index
            return [i if (i := by_id.get(id(a))) is not None else index[a] for a in legal]

    def fill(self, flags: bytearray, legal: Iterable[Action]) -> None:
        """Set ``flags[i] = 1`` for the index ``i`` of each action of ``legal`` (what
        :meth:`indices` gives, without a list in between)."""
        by_id = self._by_id
        for a in legal:
            i = by_id.get(id(a))
            flags[i if i is not None else self.index[a]] = 1

    def mask(self, legal: Iterable[Action], *, wait: bool = False) -> Mask:
        """1 for every legal action's index (and ``WAIT`` if ``wait``), else 0."""
        out = np.zeros(self.size, dtype=np.int8)
        out[self.indices(legal)] = 1
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


def _getter(path: str) -> Callable[[Mapping[str, Any]], Any]:
    """A reader of ``view["a"]["b"]`` for ``"a.b"`` (``None`` where a step is missing)."""
    keys = path.split(".")
    if len(keys) == 1:
        key = keys[0]
        return lambda view: view.get(key)

    def get(view: Mapping[str, Any]) -> Any:
        node: Any = view
        for key in keys:
            if node is None:
                return None
            node = node.get(key)
        return node

    return get


def put(out: Sink, at: int, x: float) -> None:
    """Put number ``x`` at position ``at`` (nothing for 0)."""
    if x:
        out.at.append(at)
        out.value.append(x)


def vocabulary(ids: Iterable[str]) -> dict[str, int]:
    """Ids to positions."""
    return {x: i for i, x in enumerate(ids)}


def number(path: str, scale: float = 1.0, doc: str = "") -> Field:
    """One number (``None``: 0; ``True``: 1), divided by ``scale``."""
    get = _getter(path)

    def write(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        x = get(v)
        if x:
            out.at.append(at)
            out.value.append(float(x) / scale)

    code = """
x = {g}
if x:
    A({at})
    V(float(x) / {k}scale)
"""
    return Field(path, 1, write, doc or f"{path} / {scale:g}", code, path, (("scale", scale),))


def one_hot(path: str, choices: Sequence[Any], doc: str = "") -> Field:
    """One position per choice; the value's is 1 (none for ``None`` or an unknown value)."""
    get = _getter(path)
    where = {c: i for i, c in enumerate(choices)}

    def write(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        i = where.get(get(v), -1)
        if i >= 0:
            out.at.append(at + i)
            out.value.append(1.0)

    code = """
i = {k}where.get({g}, -1)
if i >= 0:
    A({at} + i)
    V(1.0)
"""
    return Field(
        path,
        len(choices),
        write,
        doc or f"{path}: one of {list(choices)}",
        code,
        path,
        (("where", where),),
    )


def _count(out: Sink, base: int, vocab: Mapping[str, int], x: Any) -> None:
    """Count an id, or each id of a list, at ``base`` + its position."""
    if x is None:
        return
    if isinstance(x, str):
        out.at.append(base + vocab[x])
        out.value.append(1.0)
        return
    for item in x:
        if item is not None:
            out.at.append(base + vocab[item])
            out.value.append(1.0)


def bag(path: str, vocab: Mapping[str, int], doc: str = "") -> Field:
    """Counts of the ids in a list (or a single id) over a vocabulary."""
    get = _getter(path)

    def write(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        _count(out, at, vocab, get(v))

    code = """
x = {g}
if x is not None:
    if isinstance(x, str):
        A({at} + {k}vocab[x])
        V(1.0)
    else:
        for item in x:
            if item is not None:
                A({at} + {k}vocab[item])
                V(1.0)
"""
    return Field(
        path,
        len(vocab),
        write,
        doc or f"{path}: count per id ({len(vocab)} ids)",
        code,
        path,
        (("vocab", vocab),),
    )


def seat(path: str, players: int, doc: str = "") -> Field:
    """A seat number as one-hot over relative seats (0: the viewer)."""
    get = _getter(path)

    def write(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        x = get(v)
        if isinstance(x, int):
            out.at.append(at + (x - me) % n)
            out.value.append(1.0)

    code = """
x = {g}
if isinstance(x, int):
    A({at} + (x - me) % n)
    V(1.0)
"""
    return Field(path, players, write, doc or f"{path}: relative seat, one-hot", code, path)


def seats(path: str, players: int, doc: str = "") -> Field:
    """A list of seat numbers as multi-hot over relative seats."""
    get = _getter(path)

    def write(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        for x in get(v) or ():
            out.at.append(at + (x - me) % n)
            out.value.append(1.0)

    code = """
for x in {g} or ():
    A({at} + (x - me) % n)
    V(1.0)
"""
    return Field(path, players, write, doc or f"{path}: relative seats, multi-hot", code, path)


def per_seat(path: str, players: int, scale: float = 1.0, doc: str = "") -> Field:
    """A list with one number (or flag) per seat, in relative seat order."""
    get = _getter(path)

    def write(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        xs = get(v)
        if not xs:
            return
        for s in range(n):
            x = xs[(me + s) % n]
            if x:
                out.at.append(at + s)
                out.value.append(float(x) / scale)

    code = """
xs = {g}
if xs:
    for s in range(n):
        x = xs[(me + s) % n]
        if x:
            A({at} + s)
            V(float(x) / {k}scale)
"""
    return Field(
        path,
        players,
        write,
        doc or f"{path}: per relative seat, / {scale:g}",
        code,
        path,
        (("scale", scale),),
    )


def per_seat_bag(path: str, players: int, vocab: Mapping[str, int], doc: str = "") -> Field:
    """A list with one id-list (or one id) per seat: counts per id, in relative seat order."""
    get = _getter(path)
    k = len(vocab)

    def write(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        xs = get(v)
        if not xs:
            return
        for s in range(n):
            _count(out, at + s * k, vocab, xs[(me + s) % n])

    code = """
xs = {g}
if xs:
    for s in range(n):
        x = xs[(me + s) % n]
        if x is not None:
            o = {at} + s * {k}size
            if isinstance(x, str):
                A(o + {k}vocab[x])
                V(1.0)
            else:
                for item in x:
                    if item is not None:
                        A(o + {k}vocab[item])
                        V(1.0)
"""
    return Field(
        path,
        players * k,
        write,
        doc or f"{path}: per relative seat, count per id ({k} ids)",
        code,
        path,
        (("vocab", vocab), ("size", k)),
    )


def per_seat_one_hot(path: str, players: int, choices: Sequence[Any], doc: str = "") -> Field:
    """A list with one value per seat, each one-hot over ``choices``."""
    get = _getter(path)
    where = {c: i for i, c in enumerate(choices)}
    k = len(choices)

    def write(v: Mapping[str, Any], me: int, n: int, out: Sink, at: int) -> None:
        xs = get(v)
        if not xs:
            return
        for s in range(n):
            i = where.get(xs[(me + s) % n], -1)
            if i >= 0:
                out.at.append(at + s * k + i)
                out.value.append(1.0)

    code = """
xs = {g}
if xs:
    for s in range(n):
        i = {k}where.get(xs[(me + s) % n], -1)
        if i >= 0:
            A({at} + s * {k}size + i)
            V(1.0)
"""
    return Field(
        path,
        players * k,
        write,
        doc or f"{path}: per relative seat, one of {list(choices)}",
        code,
        path,
        (("where", where), ("size", k)),
    )


def custom(name: str, size: int, write: Writer, doc: str) -> Field:
    """A field with its own writer."""
    return Field(name, size, write, doc)
