"""Schatz-Rabatz's components as data: treasure shapes, colours, Jack-boards, ship cards.

**Unverified — ours** (RULES.md). The rulebook names the goblet, sword, crown, small
hexagon and circle but gives no geometry; the ring, pearls and gold bar, every polyomino,
and the contents of the nine Jack-boards are our own design, and so is the chest's size
("about 6 wide × 5 deep": the defaults of the ``width`` and ``depth`` options). They are
kept as data in ``data/components.toml``, which says so, and read here when the game is
loaded (:func:`read_components`, which refuses a file that does not hold them, naming it).
The boards are built so that each shows one treasure of every shape (8 of the 40), every
treasure appears on one or two boards, and no two boards are alike.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data" / "components.toml"

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple")
# The shapes' names: the rulebook's goblet, sword, crown, small hexagon and circle, and our
# ring, pearls and gold bar. Renderers draw and name them by these (their letters, icons
# and words in both languages), so the data file gives their cells and order, not new ones.
SHAPE_NAMES = ("circle", "hexagon", "ring", "pearls", "goblet", "sword", "goldbar", "crown")
SHAPE_SPAN = 4  # a shape's cells lie within 4 x 4 (x and y from 0 to 3): the sword's length
N_BOARDS = 9
MIN_WIDTH, MAX_WIDTH = 3, 12  # the width option's bounds (12: the interned drops' columns)
MIN_DEPTH, MAX_DEPTH = 2, 12  # the depth option's

Cells = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Components:
    """What ``data/components.toml`` holds: the chest's size, the shapes in rotation 0 as
    (x, y) cells seen from the side (y grows upward) in the treasures' order, and each
    Jack-board's treasures (``<shape>-<colour>``)."""

    width: int
    depth: int
    shapes: tuple[tuple[str, Cells], ...]
    jack_boards: tuple[tuple[str, tuple[str, ...]], ...]


def _whole(value: object, low: int, high: int) -> int | None:
    """``value`` if it is a whole number from ``low`` to ``high``, else ``None``."""
    return value if type(value) is int and low <= value <= high else None


def _joined(cells: Cells) -> bool:
    """Whether cells touch edge to edge as one piece."""
    todo, seen = [cells[0]], {cells[0]}
    while todo:
        x, y = todo.pop()
        for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if near in cells and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(cells)


def _shape(name: str, raw: Any) -> Cells:
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"shape {name!r}: a list of [x, y] cells")
    pairs = (isinstance(c, list) and len(c) == 2 for c in raw)
    if not all(pairs) or any(_whole(v, 0, SHAPE_SPAN - 1) is None for c in raw for v in c):
        raise ValueError(
            f"shape {name!r}: each cell is [x, y], whole numbers from 0 to {SHAPE_SPAN - 1}, "
            f"not {raw!r:.120}"
        )
    cells: Cells = tuple((c[0], c[1]) for c in raw)
    if len(set(cells)) != len(cells):
        raise ValueError(f"shape {name!r}: a cell is listed twice")
    if min(x for x, _ in cells) != 0 or min(y for _, y in cells) != 0:
        raise ValueError(f"shape {name!r}: its cells start at x = 0 and y = 0")
    if not _joined(cells):
        raise ValueError(f"shape {name!r}: its cells are not joined edge to edge")
    return cells


def _components(raw: dict[str, Any]) -> Components:
    chest, shapes, boards = raw.get("chest"), raw.get("shapes"), raw.get("jack_boards")
    if not isinstance(chest, dict) or not isinstance(shapes, dict) or not isinstance(boards, dict):
        raise ValueError("it needs the tables [chest], [shapes] and [jack_boards]")
    width = _whole(chest.get("width"), MIN_WIDTH, MAX_WIDTH)
    depth = _whole(chest.get("depth"), MIN_DEPTH, MAX_DEPTH)
    if width is None or depth is None:
        raise ValueError(
            f"[chest] width is a whole number from {MIN_WIDTH} to {MAX_WIDTH} and depth "
            f"from {MIN_DEPTH} to {MAX_DEPTH}, not {chest.get('width')!r} and "
            f"{chest.get('depth')!r}"
        )
    if sorted(shapes) != sorted(SHAPE_NAMES):
        raise ValueError(
            f"[shapes] gives the cells of {', '.join(SHAPE_NAMES)} (in any order), not of "
            f"{', '.join(map(str, shapes))}"
        )
    treasures = {f"{shape}-{colour}" for shape in shapes for colour in COLOURS}
    if len(boards) != N_BOARDS:
        raise ValueError(f"[jack_boards] has {N_BOARDS} boards, not {len(boards)}")
    for name, claims in boards.items():
        if (
            not isinstance(claims, list)
            or not claims
            or not all(isinstance(c, str) and c in treasures for c in claims)
        ):
            raise ValueError(
                f"Jack-board {name!r}: a list of treasures (<shape>-<colour>, the colours "
                f"{', '.join(COLOURS)}), not {claims!r:.200}"
            )
        if len(set(claims)) != len(claims):
            raise ValueError(f"Jack-board {name!r}: a treasure is listed twice")
    return Components(
        width=width,
        depth=depth,
        shapes=tuple((name, _shape(name, cells)) for name, cells in shapes.items()),
        jack_boards=tuple((name, tuple(claims)) for name, claims in boards.items()),
    )


def read_components(path: Path = DATA) -> Components:
    """The components in ``path``; ``ValueError`` naming the file if it does not hold them."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8-sig"))
        return _components(raw)
    except (OSError, ValueError) as e:  # (a TOMLDecodeError and a UnicodeDecodeError are)
        raise ValueError(f"{path}: {e}") from None


_COMPONENTS = read_components()
CHEST_WIDTH, CHEST_DEPTH = _COMPONENTS.width, _COMPONENTS.depth  # unverified
SHAPES: tuple[tuple[str, Cells], ...] = _COMPONENTS.shapes  # unverified geometry
JACK_BOARDS: tuple[tuple[str, tuple[str, ...]], ...] = _COMPONENTS.jack_boards  # ours

# A shape's name in English words, where it is not its id (renderers translate these).
SHAPE_WORDS = {"goldbar": "gold bar"}


def treasure_words(treasure: str) -> str:
    """A treasure in English words: ``purple circle``, ``red gold bar``."""
    shape, _, colour = treasure.partition("-")
    return f"{colour} {SHAPE_WORDS.get(shape, shape)}"


def column_number(column: int) -> int:
    """The number players read for a chest column: columns count from 1 in every word (the
    log, menus, the pick line), as the panel beside the web's chest counts them; actions
    and engine data keep the 0-based column.

    >>> column_number(0)
    1
    """
    return column + 1


def row_number(row: int) -> int:
    """The number players read for a chest row: rows count from 1 at the bottom (the
    chest's floor) upward, and the words say so ("row 1 from the bottom"); events and
    engine data keep the 0-based row.

    >>> row_number(0)
    1
    """
    return row + 1


def board_number(board: str) -> str:
    """A Jack-board's id as players name it, by its number: ``jack-5`` -> ``5`` (the id
    itself if it has no number: a board of another set).

    >>> board_number("jack-5"), board_number("pirates")
    ('5', 'pirates')
    """
    return board.removeprefix("jack-")


def part_of(card: str) -> str:
    """A ship part card's part: ``bow-2`` -> ``bow``, ``middle-a-1`` -> ``middle-a``."""
    return card.rpartition("-")[0] if card[-1:].isdigit() else card


# A ship part's name in English words, where it is not its id (renderers translate these).
PART_WORDS = {"middle-a": "middle A", "middle-b": "middle B"}


def part_words(card: str) -> str:
    """A ship part card (or part) in English words, without the copy's number: ``bow-2``
    -> ``bow``, ``middle-a-1`` -> ``middle A`` (the four copies of a part are alike).

    >>> part_words("middle-a-1"), part_words("stern")
    ('middle A', 'stern')
    """
    part = part_of(card)
    return PART_WORDS.get(part, part)


# Pirate ship cards: four parts, four copies of each (ids ``bow-1`` ... ``stern-4``).
SHIP_PARTS: tuple[str, ...] = ("bow", "middle-a", "middle-b", "stern")
SHIP_COPIES = 4
SHORT_SHIP: tuple[str, ...] = ("bow", "middle-a", "stern")  # the short game's ship
