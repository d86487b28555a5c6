"""Schatz-Rabatz's spec: its name, players and options, and the words around the rules:
parsing actions, determinizing a view (delegated to ``view.py``) and events in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from thievery.core.errors import MalformedAction
from thievery.core.protocol import (
    JSON,
    Action,
    Event,
    GameSpec,
    Option,
    State,
    content_digest,
    parse_fields,
    parse_tick,
    seat_name,
)
from thievery.core.rng import Rng
from thievery.games.schatz_rabatz.actions import CLOSE, DROPS, MAX_WIDTH, READY, Drop
from thievery.games.schatz_rabatz.data import (
    CHEST_DEPTH,
    CHEST_WIDTH,
    JACK_BOARDS,
    MAX_DEPTH,
    MIN_DEPTH,
    MIN_WIDTH,
    SHAPES,
    board_number,
    column_number,
    part_words,
    row_number,
    treasure_words,
)
from thievery.games.schatz_rabatz.pieces import (
    BOARD_ID,
    CANONICAL,
    CARD_ID,
    SHAPE_OF,
    TREASURE_INDEX,
)
from thievery.games.schatz_rabatz.rules import SchatzRabatz, check_setup
from thievery.games.schatz_rabatz.view import Determinizer


class SchatzRabatzSpec(GameSpec):
    """Schatz-Rabatz (Noris-Spiele 2015, Karin Hetling), 2 to 4 players, real time."""

    name: ClassVar[str] = "schatz-rabatz"
    title: ClassVar[str] = "Schatz-Rabatz"
    # Version 2: hands have a speed (``hand_ms``). A version-1 record replays with
    # ``hand_ms`` 0 (``record_options``).
    version: ClassVar[int] = 2
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]] = (
        Option("hourglass_seconds", 30, "how long the hourglass runs", minimum=1, maximum=600),
        Option(
            "hand_ms",
            800,
            "hand speed: the least time (ms) between two drops of one seat (0: none)",
            minimum=0,
            maximum=10_000,
        ),
        Option(
            "width",
            CHEST_WIDTH,
            "chest width in cells (unverified)",
            minimum=MIN_WIDTH,
            maximum=MAX_WIDTH,
        ),
        Option(
            "depth",
            CHEST_DEPTH,
            "chest depth in cells, up to the rim (unverified)",
            minimum=MIN_DEPTH,
            maximum=MAX_DEPTH,
        ),
        Option(
            "little_pirates",
            False,
            "Little Pirates: the hourglass starts when the first player closes",
        ),
        Option("big_pirates", False, "Big Pirates: the Jack-board is turned before packing"),
        Option("short_game", False, "short game: one middle part, a ship of 3 cards"),
        Option("boards", None, "stacked Jack-boards: every board id, top first", secret=True),
    )

    def new(
        self, players: int, seed: int = 0, options: Mapping[str, Any] | None = None
    ) -> SchatzRabatz:
        resolved = self.check_new(players, seed, options)
        check_setup(resolved)
        return SchatzRabatz.start(players, seed, resolved)

    def component_digests(self, options: Mapping[str, Any] | None = None) -> dict[str, str]:
        """``data/components.toml`` as read: the chest's size (the width and depth
        options' defaults), the shapes' cells in the treasures' order and the Jack-boards
        (ours, unverified), which may change without a rules version."""
        data = {
            "chest": {"width": CHEST_WIDTH, "depth": CHEST_DEPTH},
            "shapes": SHAPES,
            "jack_boards": JACK_BOARDS,
        }
        return {"components": content_digest(data)}

    def record_options(self, version: int, options: Mapping[str, Any]) -> JSON:
        """Version 1 (before hands had a speed) replays with ``hand_ms`` 0: every drop
        as fast as it came, exactly as it was played."""
        if version == 1:
            return {**options, "hand_ms": 0}
        return super().record_options(version, options)

    def parse_action(self, data: Mapping[str, Any]) -> Action:
        """An action from JSON. A drop's rotation is normalised: turning a shape into a
        position that looks the same is the same drop (a circle has only rotation 0)."""
        kind = data.get("type")
        if kind == "close":
            parse_fields(data, [], kind="close")
            return CLOSE
        if kind == "ready":
            parse_fields(data, [], kind="ready")
            return READY
        if kind == "tick":
            return parse_tick(data)
        if kind != "drop":
            raise MalformedAction(
                f"unknown action type {kind!r} (types: drop, close, ready; tick for the clock)"
            )
        treasure, rotation, column = parse_fields(
            data, ["treasure", "rotation", "column"], kind="drop"
        )
        t = TREASURE_INDEX.get(treasure, -1) if isinstance(treasure, str) else -1
        if t < 0:
            raise MalformedAction(f"there is no treasure {treasure!r}")
        if isinstance(rotation, bool) or not isinstance(rotation, int) or not 0 <= rotation <= 3:
            raise MalformedAction(f"a rotation is 0 to 3 quarter turns, not {rotation!r}")
        if isinstance(column, bool) or not isinstance(column, int) or column < 0:
            raise MalformedAction(f"a column is a whole number >= 0, not {column!r}")
        r = CANONICAL[SHAPE_OF[t]][rotation]
        if column < MAX_WIDTH:
            return DROPS[t][r * MAX_WIDTH + column]
        return Drop(treasure, r, column)

    # ------------------------------------------------------------ determinizer

    def determinize(self, view: Mapping[str, Any], rng: Rng) -> State:
        """Rebuild a full state from a view; the face-down Jack-boards are re-sampled.

        Everything else is public. The stack is a queue: each round's board comes off the
        top and goes back under it, so the boards already seen keep their known order at
        the bottom and only the never-turned ones are shuffled. See ``view.Determinizer``.
        """
        return Determinizer(self, view).sample(rng, last=True)

    # ------------------------------------------------------------ words

    def describe(
        self, event: Event, seat: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        d = event.data

        def who(t: int, capital: bool = False) -> str:
            return seat_name(t, seat, names, capital=capital)

        def when(ms: int) -> str:
            return f"{ms / 1000:.1f} s"

        def listed(treasures: Sequence[str]) -> str:
            return ", ".join(treasure_words(x) for x in treasures)

        t = event.type
        if t == "round":
            glass = (
                f"the hourglass runs to {when(d['ends_ms'])}"
                if d["ends_ms"] is not None
                else ("the hourglass waits for the first lid")
            )
            return f"Round {d['round']} starts at {when(d['at_ms'])}: {glass}"
        if t == "board":
            board = board_number(d["board"])
            return f"Jack-board {board} is turned: it claims {listed(d['claims'])}"
        if t == "drop":
            return (
                f"{who(d['seat'], True)} packed the {treasure_words(d['treasure'])} "
                f"(turned {d['rotation']}, column {column_number(d['column'])}, "
                f"row {row_number(d['row'])} from the bottom)"
            )
        if t == "close":
            removed = d["removed"]
            extra = f"; taken out above the rim: {listed(removed)}" if removed else ""
            return f"{who(d['seat'], True)} closed the lid at {when(d['at_ms'])}{extra}"
        if t == "hourglass":
            return f"The hourglass is turned: it runs out at {when(d['ends_ms'])}"
        if t == "time_up":
            return f"The hourglass ran out at {when(d['at_ms'])}: every lid is closed"
        if t == "scored":
            counts = ", ".join(f"{who(s)} {c}" for s, c in enumerate(d["counts"]))
            parts = ", ".join(
                f"{who(s)} {'take' if s == seat else 'takes'} the {part_words(p)}"
                for s, p in enumerate(d["parts"])
                if p
            )
            return f"Round {d['round']} counted — {counts}. " + (parts or "No ship parts left")
        if t == "ready":
            verb = "are" if d["seat"] == seat else "is"
            return f"{who(d['seat'], True)} {verb} ready"
        if t == "game_over":
            winners = " and ".join(who(s) for s in d["winners"])
            return f"A ship is complete! Winner: {winners}"
        return f"{t}: {d}"


def board_ids() -> list[str]:
    """Every Jack-board id, in data order."""
    return list(BOARD_ID)


__all__ = ["CARD_ID", "SchatzRabatzSpec", "board_ids"]
