"""Components as small integers, and the geometry of dropping a treasure into a chest.

Treasures are numbered shape-major (``shape * 5 + colour``); boards and ship cards by
their order in ``data.py``. A chest is a grid seen from the side, columns ``0..width-1``
and rows counted from the bottom; the rim is at row ``depth``. A treasure falls straight
down, so where it rests depends only on the chest's skyline (the height of each column).

>>> resting_row([0, 2, 0], ORIENTATIONS[SHAPE_INDEX["pearls"]][0], 0)
2
>>> resting_row([2, 0, 2], ORIENTATIONS[SHAPE_INDEX["goblet"]][0], 0)
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from thievery.games.schatz_rabatz.data import (
    COLOURS,
    JACK_BOARDS,
    SHAPES,
    SHIP_COPIES,
    SHIP_PARTS,
)

Cell = tuple[int, int]

SHAPE_NAMES: tuple[str, ...] = tuple(name for name, _ in SHAPES)
SHAPE_INDEX = {name: i for i, name in enumerate(SHAPE_NAMES)}
N_COLOURS = len(COLOURS)

TREASURE_ID: tuple[str, ...] = tuple(f"{s}-{c}" for s in SHAPE_NAMES for c in COLOURS)
TREASURE_INDEX = {tid: i for i, tid in enumerate(TREASURE_ID)}
N_TREASURES = len(TREASURE_ID)
SHAPE_OF: tuple[int, ...] = tuple(t // N_COLOURS for t in range(N_TREASURES))

BOARD_ID: tuple[str, ...] = tuple(name for name, _ in JACK_BOARDS)
BOARD_INDEX = {bid: i for i, bid in enumerate(BOARD_ID)}
N_BOARDS = len(BOARD_ID)
BOARD_CLAIMS: tuple[frozenset[int], ...] = tuple(
    frozenset(TREASURE_INDEX[t] for t in claims) for _, claims in JACK_BOARDS
)

CARD_ID: tuple[str, ...] = tuple(
    f"{part}-{copy}" for part in SHIP_PARTS for copy in range(1, SHIP_COPIES + 1)
)
CARD_INDEX = {cid: i for i, cid in enumerate(CARD_ID)}
PART_OF: tuple[int, ...] = tuple(i // SHIP_COPIES for i in range(len(CARD_ID)))
N_CARDS = len(CARD_ID)


def shape_name(treasure: str) -> str:
    """The shape of a treasure id: ``shape_name("crown-red") == "crown"``."""
    return SHAPE_NAMES[SHAPE_OF[TREASURE_INDEX[treasure]]]


@dataclass(frozen=True, slots=True)
class Orientation:
    """One shape turned one way: its cells (normalised to start at 0, 0) and profile."""

    cells: tuple[Cell, ...]
    width: int
    height: int
    bottoms: tuple[int, ...]  # per column of the shape, its lowest cell's row
    tops: tuple[int, ...]  # per column of the shape, one above its highest cell


def rotate(cells: Iterable[Cell], quarter_turns: int) -> tuple[Cell, ...]:
    """Cells turned clockwise ``quarter_turns`` times, moved to start at (0, 0), sorted.

    >>> rotate([(0, 0), (1, 0), (0, 1)], 1)
    ((0, 0), (0, 1), (1, 1))
    """
    out = list(cells)
    for _ in range(quarter_turns % 4):
        out = [(y, -x) for x, y in out]
    min_x = min(x for x, _ in out)
    min_y = min(y for _, y in out)
    return tuple(sorted((x - min_x, y - min_y) for x, y in out))


def orientation(cells: tuple[Cell, ...]) -> Orientation:
    """The profile of a normalised set of cells."""
    width = max(x for x, _ in cells) + 1
    height = max(y for _, y in cells) + 1
    bottoms = tuple(min(y for x, y in cells if x == col) for col in range(width))
    tops = tuple(max(y for x, y in cells if x == col) + 1 for col in range(width))
    return Orientation(cells, width, height, bottoms, tops)


# ORIENTATIONS[shape][rotation]; CANONICAL[shape][rotation] is the lowest rotation that
# looks the same (a circle turned twice is a circle: the same placement, rotation 0).
ORIENTATIONS: tuple[tuple[Orientation, ...], ...] = tuple(
    tuple(orientation(rotate(cells, r)) for r in range(4)) for _, cells in SHAPES
)
CANONICAL: tuple[tuple[int, ...], ...] = tuple(
    tuple(next(q for q in range(4) if os[q].cells == os[r].cells) for r in range(4))
    for os in ORIENTATIONS
)
# The distinct rotations of each shape, lowest first.
DISTINCT: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(set(canon))) for canon in CANONICAL)
SIZE: tuple[int, ...] = tuple(len(cells) for _, cells in SHAPES)


def resting_row(heights: Sequence[int], o: Orientation, column: int) -> int:
    """The row of the shape's lowest row once dropped with its left edge at ``column``."""
    bottoms = o.bottoms  # (a plain loop: a generator is a call on Python 3.11)
    row = heights[column] - bottoms[0]
    for i in range(1, o.width):
        r = heights[column + i] - bottoms[i]
        if r > row:
            row = r
    return row


def settle(heights: list[int], o: Orientation, column: int, row: int) -> None:
    """Raise the skyline where a shape came to rest (in place)."""
    for i in range(o.width):
        top = row + o.tops[i]
        if top > heights[column + i]:
            heights[column + i] = top


def cells_at(o: Orientation, column: int, row: int) -> list[Cell]:
    """The chest cells a shape covers when its box's bottom-left corner is (column, row)."""
    return [(column + x, row + y) for x, y in o.cells]


def skyline(width: int, cells: Iterable[Cell]) -> list[int]:
    """Each column's height (one above its highest filled cell)."""
    heights = [0] * width
    for x, y in cells:
        if y + 1 > heights[x]:
            heights[x] = y + 1
    return heights


# The highest a shape's column starts above the shape's bottom (an overhang's height).
MAX_BOTTOM = max(b for os in ORIENTATIONS for o in os for b in o.bottoms)


def room_masks(heights: Sequence[int], depth: int) -> tuple[int, ...]:
    """Bit ``c`` of mask ``k`` is set if column ``c`` is lower than ``depth + k``: a shape
    column starting ``k`` above the shape's bottom can come down there with the shape's
    bottom still inside the chest. Legality depends only on these masks."""
    return tuple(
        sum(1 << c for c, h in enumerate(heights) if h < depth + k) for k in range(MAX_BOTTOM + 1)
    )


def placements_of_masks(width: int, masks: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Per shape, every distinct (rotation, column) whose drop rests with a cell inside,
    from a chest's :func:`room_masks`."""
    out: list[list[tuple[int, int]]] = []
    for shape, rotations in enumerate(DISTINCT):
        legal: list[tuple[int, int]] = []
        for r in rotations:
            o = ORIENTATIONS[shape][r]
            columns = width - o.width + 1
            if columns <= 0:
                continue
            fits = (1 << columns) - 1
            for i, b in enumerate(o.bottoms):
                fits &= masks[b] >> i
            c = 0
            while fits:
                if fits & 1:
                    legal.append((r, c))
                fits >>= 1
                c += 1
        out.append(legal)
    return out


def placements(heights: Sequence[int], depth: int) -> list[list[tuple[int, int]]]:
    """Per shape, every distinct (rotation, column) whose drop rests with a cell inside.

    A treasure whose lowest cell would rest at or above the rim would lie wholly on top
    of the chest: that drop is not allowed (it could not stay there).

    >>> placements([5, 0, 5], 5)[SHAPE_INDEX["circle"]]
    [(0, 1)]
    """
    return placements_of_masks(len(heights), room_masks(heights, depth))
