"""Schatz-Rabatz's components as data: treasure shapes, colours, Jack-boards, ship cards.

**Unverified — ours** (RULES.md). The rulebook names the goblet, sword, crown, small
hexagon and circle but gives no geometry; the ring, pearls and gold bar, every polyomino
below, and the contents of the nine Jack-boards are our own design. The boards are built
so that each shows one treasure of every shape (8 of the 40), every treasure appears on
one or two boards, and no two boards are alike. The chest's size (``CHEST_WIDTH`` ×
``CHEST_DEPTH`` cells, "about 6 wide × 5 deep") is unverified too: the defaults of the
``width`` and ``depth`` options.
"""

from __future__ import annotations

CHEST_WIDTH, CHEST_DEPTH = 6, 5  # unverified: the rulebook's picture, not a measurement

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple")

# Each shape in rotation 0 as (x, y) cells seen from the side; y grows upward.
SHAPES: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = (
    ("circle", ((0, 0),)),  # 1 cell
    ("hexagon", ((0, 0), (1, 0))),  # 2 in a row
    ("ring", ((0, 0), (1, 0), (0, 1))),  # an L of 3
    ("pearls", ((0, 0), (1, 0), (2, 0))),  # 3 in a row
    ("goblet", ((1, 0), (0, 1), (1, 1), (2, 1))),  # a T of 4: the cup on its stem
    ("sword", ((0, 0), (1, 0), (2, 0), (3, 0))),  # 4 in a row
    ("goldbar", ((0, 0), (1, 0), (0, 1), (1, 1))),  # 2 x 2
    ("crown", ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1))),  # a U of 5
)

# The nine Jack-boards: the treasures (``<shape>-<colour>``) each one claims.
JACK_BOARDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "jack-1",
        (
            "circle-red",
            "hexagon-green",
            "ring-purple",
            "pearls-blue",
            "goblet-yellow",
            "sword-red",
            "goldbar-green",
            "crown-purple",
        ),
    ),
    (
        "jack-2",
        (
            "circle-blue",
            "hexagon-yellow",
            "ring-red",
            "pearls-green",
            "goblet-purple",
            "sword-blue",
            "goldbar-yellow",
            "crown-red",
        ),
    ),
    (
        "jack-3",
        (
            "circle-green",
            "hexagon-purple",
            "ring-blue",
            "pearls-yellow",
            "goblet-red",
            "sword-green",
            "goldbar-purple",
            "crown-blue",
        ),
    ),
    (
        "jack-4",
        (
            "circle-yellow",
            "hexagon-red",
            "ring-green",
            "pearls-purple",
            "goblet-blue",
            "sword-yellow",
            "goldbar-red",
            "crown-green",
        ),
    ),
    (
        "jack-5",
        (
            "circle-purple",
            "hexagon-blue",
            "ring-yellow",
            "pearls-red",
            "goblet-green",
            "sword-purple",
            "goldbar-blue",
            "crown-yellow",
        ),
    ),
    (
        "jack-6",
        (
            "circle-red",
            "hexagon-yellow",
            "ring-blue",
            "pearls-purple",
            "goblet-green",
            "sword-red",
            "goldbar-yellow",
            "crown-blue",
        ),
    ),
    (
        "jack-7",
        (
            "circle-blue",
            "hexagon-purple",
            "ring-green",
            "pearls-red",
            "goblet-yellow",
            "sword-blue",
            "goldbar-purple",
            "crown-green",
        ),
    ),
    (
        "jack-8",
        (
            "circle-green",
            "hexagon-red",
            "ring-yellow",
            "pearls-blue",
            "goblet-purple",
            "sword-green",
            "goldbar-red",
            "crown-yellow",
        ),
    ),
    (
        "jack-9",
        (
            "circle-yellow",
            "hexagon-blue",
            "ring-purple",
            "pearls-green",
            "goblet-red",
            "sword-yellow",
            "goldbar-blue",
            "crown-purple",
        ),
    ),
)

# Pirate ship cards: four parts, four copies of each (ids ``bow-1`` ... ``stern-4``).
SHIP_PARTS: tuple[str, ...] = ("bow", "middle-a", "middle-b", "stern")
SHIP_COPIES = 4
SHORT_SHIP: tuple[str, ...] = ("bow", "middle-a", "stern")  # the short game's ship
