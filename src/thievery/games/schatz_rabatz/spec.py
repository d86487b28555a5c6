"""Schatz-Rabatz's spec: options, action parsing, the determinizer and events in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from thievery.core.errors import MalformedAction
from thievery.core.protocol import (
    Action,
    Event,
    GameSpec,
    Option,
    State,
    parse_fields,
    parse_tick,
    seat_name,
)
from thievery.core.rng import Rng
from thievery.games.schatz_rabatz.data import SHIP_PARTS
from thievery.games.schatz_rabatz.pieces import (
    BOARD_ID,
    BOARD_INDEX,
    CANONICAL,
    CARD_ID,
    CARD_INDEX,
    N_BOARDS,
    N_CARDS,
    N_TREASURES,
    PART_OF,
    SHAPE_OF,
    TREASURE_INDEX,
)
from thievery.games.schatz_rabatz.rules import (
    CLOSE,
    DROPS,
    MAX_WIDTH,
    PHASE_NAMES,
    READY,
    Drop,
    SchatzRabatz,
    check_setup,
)


class SchatzRabatzSpec(GameSpec):
    """Schatz-Rabatz (Noris-Spiele 2015, Karin Hetling), 2 to 4 players, real time."""

    name: ClassVar[str] = "schatz-rabatz"
    title: ClassVar[str] = "Schatz-Rabatz"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]] = (
        Option("hourglass_seconds", 30, "how long the hourglass runs", minimum=1, maximum=600),
        Option("width", 6, "chest width in cells (unverified)", minimum=3, maximum=MAX_WIDTH),
        Option(
            "depth", 5, "chest depth in cells, up to the rim (unverified)", minimum=2, maximum=12
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
        the bottom and only the never-turned ones are shuffled.
        """
        n = view["players"]
        s = object.__new__(SchatzRabatz)
        s.players, s.seed = n, 0
        s.options = {**self.defaults(), **view["options"]}
        s.rng = Rng(rng.next64())
        s.width, s.depth = view["width"], view["depth"]
        s.hourglass_ms = view["hourglass"]["length_ms"]
        s.needs = tuple(SHIP_PARTS.index(p) for p in view["ship_parts"])
        s.now_ms, s.round_no = view["now_ms"], view["round"]
        s.phase = PHASE_NAMES.index(view["phase"])
        pool = {TREASURE_INDEX[t] for t in view["pool"]}
        s.in_pool = [t in pool for t in range(N_TREASURES)]
        s.chests = [
            [(TREASURE_INDEX[p["id"]], p["rotation"], p["column"], p["row"]) for p in chest]
            for chest in (c["treasures"] for c in view["chests"])
        ]
        s.heights = [list(c["heights"]) for c in view["chests"]]
        s.out = [[TREASURE_INDEX[t] for t in x] for x in view["out"]]
        s.jack = [[TREASURE_INDEX[t] for t in x] for x in view["jack"]]
        s.is_open = [c["open"] for c in view["chests"]]
        s.closed_ms = [c["closed_ms"] if c["closed_ms"] is not None else -1 for c in view["chests"]]
        glass = view["hourglass"]
        s.started_ms = glass["started_ms"] if glass["started_ms"] is not None else -1
        s.ends_ms = glass["ends_ms"] if glass["ends_ms"] is not None else -1
        s.board = BOARD_INDEX[view["board"]["id"]] if view["board"] is not None else -1
        s.turned = [BOARD_INDEX[b] for b in view["boards_turned"]]
        seen = list(dict.fromkeys(s.turned))
        unseen = [b for b in range(N_BOARDS) if b not in seen]
        rng.shuffle(unseen)
        first = seen + unseen  # the stack's order when the match began
        pops = len(s.turned)
        size = N_BOARDS - (1 if s.board >= 0 else 0)
        s.stack = [first[(pops + i) % N_BOARDS] for i in range(size)]
        if size != view["stack_size"]:
            raise ValueError("the view's Jack-board counts do not add up")
        s.ships = [[CARD_INDEX[c] for c in x] for x in view["ships"]]
        s.supply = [CARD_INDEX[c] for c in view["supply"]]
        s.box = [c for c in range(N_CARDS) if PART_OF[c] not in s.needs]
        s.ready = list(view["ready"])
        s.last_round = view["last_round"]
        s._to_act = tuple(view["to_act"])
        s._history = None
        s._silent = None
        return s

    # ------------------------------------------------------------ words

    def describe(
        self, event: Event, seat: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        d = event.data

        def who(t: int, capital: bool = False) -> str:
            return seat_name(t, seat, names, capital=capital)

        def when(ms: int) -> str:
            return f"{ms / 1000:.1f} s"

        t = event.type
        if t == "round":
            glass = (
                f"the hourglass runs to {when(d['ends_ms'])}"
                if d["ends_ms"] is not None
                else ("the hourglass waits for the first lid")
            )
            return f"Round {d['round']} starts at {when(d['at_ms'])}: {glass}"
        if t == "board":
            return f"Jack-board {d['board']} is turned: it claims {', '.join(d['claims'])}"
        if t == "drop":
            return (
                f"{who(d['seat'], True)} packed {d['treasure']} "
                f"(turned {d['rotation']}, column {d['column']}, row {d['row']})"
            )
        if t == "close":
            removed = d["removed"]
            extra = f"; taken out above the rim: {', '.join(removed)}" if removed else ""
            return f"{who(d['seat'], True)} closed the lid at {when(d['at_ms'])}{extra}"
        if t == "hourglass":
            return f"The hourglass is turned: it runs out at {when(d['ends_ms'])}"
        if t == "time_up":
            return f"The hourglass ran out at {when(d['at_ms'])}: every lid is closed"
        if t == "scored":
            counts = ", ".join(f"{who(s)} {c}" for s, c in enumerate(d["counts"]))
            parts = ", ".join(f"{who(s)} takes {p}" for s, p in enumerate(d["parts"]) if p)
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
