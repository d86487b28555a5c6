"""Schatz-Rabatz's rules: the state of a real-time match of packing rounds (a clocked
state, time given from outside) and everything that changes it. Every seat with an open
chest may act at once: drop a treasure from the shared pool (first come, first served: the
first ``apply`` wins; a hand needs ``hand_ms`` between two drops) or close its lid. The
hourglass closes every chest when it runs out;
then the Jack-board claims its treasures, the seats with the most treasures left each take
a ship part, and everyone says ``ready`` for the next round. The first to complete a ship
wins (ties share). Components and geometry are ``data.py`` and ``pieces.py``, actions
interned values (``actions.py``); what a seat sees is ``view.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from thievery.core.errors import IllegalAction, InvalidOption, MalformedAction
from thievery.core.protocol import CLOCK, JSON, Action, ClockedState, Event, GameSpec, Tick
from thievery.core.rng import Rng, make_rng
from thievery.games.schatz_rabatz.actions import CLOSE, DROPS, MAX_WIDTH, READY, Close, Drop, Ready
from thievery.games.schatz_rabatz.data import SHIP_PARTS, SHORT_SHIP
from thievery.games.schatz_rabatz.pieces import (
    BOARD_CLAIMS,
    BOARD_ID,
    BOARD_INDEX,
    CANONICAL,
    CARD_ID,
    N_BOARDS,
    N_CARDS,
    N_TREASURES,
    ORIENTATIONS,
    PART_OF,
    SHAPE_OF,
    TREASURE_ID,
    TREASURE_INDEX,
    cells_at,
    placements_of_masks,
    resting_row,
    room_masks,
    settle,
    skyline,
)
from thievery.games.schatz_rabatz.view import view as view_of

PACKING, SCORED, OVER = 0, 1, 2  # the phases, named in views by view.PHASE_NAMES

# The legal drops of every treasure per chest shape, shared by every state: legality
# depends only on a chest's width and room masks, which recur very often.
_DROP_TABLES: dict[tuple[int, ...], list[list[Action]]] = {}
# The same tables by depth and skyline, so that a skyline seen before skips room_masks.
_BY_SKYLINE: dict[tuple[int, ...], list[list[Action]]] = {}


def _drop_table(depth: int, heights: list[int]) -> list[list[Action]]:
    """Per treasure, its legal drops (interned values) into a chest with this skyline."""
    skyline = (depth, *heights)
    table = _BY_SKYLINE.get(skyline)
    if table is None:
        if len(_BY_SKYLINE) > 50_000:
            _BY_SKYLINE.clear()
        table = _BY_SKYLINE[skyline] = _drop_table_of_masks(depth, heights)
    return table


def _drop_table_of_masks(depth: int, heights: list[int]) -> list[list[Action]]:
    """:func:`_drop_table` by the chest's room masks (one table per distinct masks)."""
    masks = room_masks(heights, depth)
    key = (len(heights), *masks)
    table = _DROP_TABLES.get(key)
    if table is None:
        if len(_DROP_TABLES) > 50_000:
            _DROP_TABLES.clear()
        slots = [
            [r * MAX_WIDTH + c for r, c in p] for p in placements_of_masks(len(heights), masks)
        ]
        table = [[DROPS[t][i] for i in slots[SHAPE_OF[t]]] for t in range(N_TREASURES)]
        _DROP_TABLES[key] = table
    return table


class SchatzRabatz(ClockedState):
    """A match of Schatz-Rabatz in progress.

    Time is an input. ``state.now_ms`` is the milliseconds since the match began and
    ``state.advance(now_ms)`` moves it (running the hourglass out if it is due); actions
    apply at the current time; nothing here reads a clock. Moving the clock is recorded in
    the history as an action of the clock pseudo-seat ``CLOCK`` (-1), ``{"type": "tick",
    "now_ms": T}``, so a game record replays exactly: ``apply(CLOCK, tick)`` is
    ``advance``. A tick that changed nothing but the clock is replaced by the next one,
    keeping records small when a server ticks often.
    """

    __slots__ = (
        "_history",
        "_silent",
        "_to_act",
        "board",
        "box",
        "chests",
        "closed_ms",
        "depth",
        "ends_ms",
        "hand_ms",
        "hand_ready",
        "heights",
        "hourglass_ms",
        "in_pool",
        "is_open",
        "jack",
        "last_round",
        "needs",
        "now_ms",
        "options",
        "out",
        "phase",
        "players",
        "ready",
        "rng",
        "round_no",
        "seed",
        "ships",
        "stack",
        "started_ms",
        "supply",
        "turned",
        "width",
    )

    spec: ClassVar[GameSpec]

    players: int
    seed: int
    options: JSON
    rng: Rng
    width: int
    depth: int
    hourglass_ms: int
    hand_ms: int  # the least time between two drops of one seat (0: no hand speed)
    needs: tuple[int, ...]  # the ship parts (indices into SHIP_PARTS) that make a ship
    now_ms: int
    round_no: int
    phase: int
    in_pool: list[bool]  # per treasure
    chests: list[list[tuple[int, int, int, int]]]  # (treasure, rotation, column, row)
    heights: list[list[int]]  # each chest's skyline
    out: list[list[int]]  # treasures taken out when closing (above the rim)
    jack: list[list[int]]  # treasures the Jack-board claimed at the scoring
    is_open: list[bool]
    closed_ms: list[int]  # -1 while open
    hand_ready: list[int]  # per seat, when its hand may drop again (its last drop + hand_ms)
    started_ms: int  # the hourglass: -1 not turned yet (Little Pirates)
    ends_ms: int
    stack: list[int]  # face-down Jack-boards, top first
    board: int  # the turned board, -1 none
    turned: list[int]  # every board turned so far, in order (public)
    ships: list[list[int]]
    supply: list[int]
    box: list[int]  # ship cards out of play (the short game's second middle part)
    ready: list[bool]
    last_round: JSON | None
    _to_act: tuple[int, ...]
    _history: tuple[Any, ...] | None
    _silent: tuple[Any, ...] | None  # the history node of a tick that changed nothing else

    # ---------------------------------------------------------------- setup

    @classmethod
    def start(cls, players: int, seed: int, options: JSON) -> SchatzRabatz:
        """A new match at time 0, its first round under way; ``options`` already checked."""
        s = object.__new__(cls)
        s.players, s.seed, s.options = players, seed, options
        s.rng = make_rng(seed)
        s.width, s.depth = options["width"], options["depth"]
        s.hourglass_ms = options["hourglass_seconds"] * 1000
        s.hand_ms = options["hand_ms"]
        parts = SHORT_SHIP if options["short_game"] else SHIP_PARTS
        s.needs = tuple(SHIP_PARTS.index(p) for p in parts)
        s.now_ms = 0
        s.round_no = 0
        s.phase = PACKING
        stacked = options.get("boards")
        if stacked is not None:
            s.stack = [BOARD_INDEX[b] for b in stacked]
        else:
            s.stack = list(range(N_BOARDS))
            s.rng.shuffle(s.stack)
        s.board = -1
        s.turned = []
        s.ships = [[] for _ in range(players)]
        s.supply = [c for c in range(N_CARDS) if PART_OF[c] in s.needs]
        s.box = [c for c in range(N_CARDS) if PART_OF[c] not in s.needs]
        s.last_round = None
        s._history = None
        s._silent = None
        s._new_round([])
        return s

    def _new_round(self, events: list[Event]) -> None:
        """Treasures back to the pool, the board under the stack, chests open, go."""
        n = self.players
        self.round_no += 1
        self.phase = PACKING
        self.in_pool = [True] * N_TREASURES
        self.chests = [[] for _ in range(n)]
        self.heights = [[0] * self.width for _ in range(n)]
        self.out = [[] for _ in range(n)]
        self.jack = [[] for _ in range(n)]
        self.is_open = [True] * n
        self.closed_ms = [-1] * n
        self.hand_ready = [self.now_ms] * n  # a round starts with every hand ready
        self.ready = [False] * n
        if self.board >= 0:
            self.stack.append(self.board)
            self.board = -1
        if self.options["big_pirates"]:
            self._turn_board(events)
        if self.options["little_pirates"]:
            self.started_ms = self.ends_ms = -1
        else:
            self.started_ms, self.ends_ms = self.now_ms, self.now_ms + self.hourglass_ms
        self._to_act = tuple(range(n))
        events.append(
            Event(
                "round",
                {
                    "round": self.round_no,
                    "at_ms": self.now_ms,
                    "ends_ms": self.ends_ms if self.ends_ms >= 0 else None,
                },
            )
        )

    def _turn_board(self, events: list[Event]) -> None:
        self.board = self.stack.pop(0)
        self.turned.append(self.board)
        claims = sorted(BOARD_CLAIMS[self.board])
        events.append(
            Event(
                "board",
                {"board": BOARD_ID[self.board], "claims": [TREASURE_ID[t] for t in claims]},
            )
        )

    def clone(self) -> SchatzRabatz:
        """An independent copy (flat lists of small ints and tuples)."""
        c = object.__new__(SchatzRabatz)
        c.players, c.seed, c.options = self.players, self.seed, self.options
        c.rng = self.rng.copy()
        c.width, c.depth, c.hourglass_ms, c.hand_ms, c.needs = (
            self.width,
            self.depth,
            self.hourglass_ms,
            self.hand_ms,
            self.needs,
        )
        c.now_ms, c.round_no, c.phase = self.now_ms, self.round_no, self.phase
        c.in_pool = self.in_pool[:]
        c.chests = [x[:] for x in self.chests]
        c.heights = [x[:] for x in self.heights]
        c.out = [x[:] for x in self.out]
        c.jack = [x[:] for x in self.jack]
        c.is_open = self.is_open[:]
        c.closed_ms = self.closed_ms[:]
        c.hand_ready = self.hand_ready[:]
        c.started_ms, c.ends_ms = self.started_ms, self.ends_ms
        c.stack = self.stack[:]
        c.board = self.board
        c.turned = self.turned[:]
        c.ships = [x[:] for x in self.ships]
        c.supply = self.supply[:]
        c.box = self.box[:]
        c.ready = self.ready[:]
        c.last_round = self.last_round  # replaced, never mutated
        c._to_act = self._to_act
        c._history = self._history
        c._silent = self._silent
        return c

    # ---------------------------------------------------------------- time

    def advance(self, now_ms: int) -> list[Event]:
        """Move the clock to ``now_ms`` (never backwards); run the hourglass out if due.

        Recorded in the history as the ``CLOCK`` seat's ``tick``. Once the match is over
        the clock stands still and this does nothing.
        """
        if isinstance(now_ms, bool) or not isinstance(now_ms, int):
            raise MalformedAction(f"the time is a whole number of milliseconds, not {now_ms!r}")
        if now_ms < self.now_ms:
            raise IllegalAction(f"time cannot run backwards (now {self.now_ms} ms, not {now_ms})")
        if self.phase == OVER or now_ms == self.now_ms:
            return []
        events: list[Event] = []
        if self.phase == PACKING and 0 <= self.ends_ms <= now_ms:
            self.now_ms = self.ends_ms
            events.append(Event("time_up", {"at_ms": self.ends_ms}))
            for seat in range(self.players):
                if self.is_open[seat]:
                    self._close(seat, events)
            self._score(events)
        self.now_ms = now_ms
        entry = (CLOCK, Tick(now_ms))
        if self._history is not None and self._history is self._silent:
            self._history = (entry, self._history[1])  # the last tick changed nothing else
        else:
            self._history = (entry, self._history)
        self._silent = None if events else self._history
        return events

    # ---------------------------------------------------------------- protocol

    @property
    def to_act(self) -> tuple[int, ...]:
        return self._to_act

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self._to_act:
            return []
        if self.phase == SCORED:
            return [READY]
        if self.now_ms < self.hand_ready[seat]:
            return [CLOSE]  # the hand is not ready: the seat may wait (or close)
        table = _drop_table(self.depth, self.heights[seat])
        acts: list[Action] = []
        in_pool = self.in_pool
        for t in range(N_TREASURES):
            if in_pool[t]:
                acts += table[t]
        acts.append(CLOSE)
        return acts

    def is_legal(self, seat: int, action: Action) -> bool:
        if seat not in self._to_act:
            return False
        kind = type(action)
        if self.phase == SCORED:
            return kind is Ready
        if kind is Close:
            return True
        if kind is not Drop or self.now_ms < self.hand_ready[seat]:
            return False
        return self._drop_problem(seat, action) is None  # type: ignore[arg-type]

    def _drop_problem(self, seat: int, action: Drop) -> str | None:
        """Why a drop by an open seat during packing is not legal, or ``None``."""
        t = TREASURE_INDEX.get(action.treasure, -1)
        if t < 0:
            return f"there is no treasure {action.treasure!r}"
        if not self.in_pool[t]:
            return f"{action.treasure} is gone: {self._holder(t)} took it"
        r, c = action.rotation, action.column
        if type(r) is not int or not 0 <= r <= 3:
            return f"the rotation is 0 to 3 quarter turns, not {r!r}"
        same = CANONICAL[SHAPE_OF[t]][r]
        if same != r:  # one drop, one name: legal_actions lists the lowest rotation only
            return (
                f"{action.treasure} turned {r} looks the same as turned {same}: "
                f"that drop is rotation {same}"
            )
        o = ORIENTATIONS[SHAPE_OF[t]][r]
        last = self.width - o.width
        if type(c) is not int or not 0 <= c <= last:
            return (
                f"{action.treasure} turned {r} is {o.width} wide: its column is 0 to {last}, "
                f"not {c!r}"
            )
        if resting_row(self.heights[seat], o, c) >= self.depth:
            return f"{action.treasure} would rest wholly above the rim of seat {seat}'s chest"
        return None

    def _hand_problem(self, seat: int) -> str:
        ready = self.hand_ready[seat]
        return (
            f"seat {seat}'s hand is not ready: a hand needs {self.hand_ms} ms between two "
            f"drops, so its next drop may come at {ready} ms (now {self.now_ms} ms, "
            f"{ready - self.now_ms} ms to wait)"
        )

    def _holder(self, t: int) -> str:
        for s in range(self.players):
            if any(p[0] == t for p in self.chests[s]) or t in self.out[s] or t in self.jack[s]:
                return f"seat {s}"
        return "someone"

    def why_illegal(self, seat: int, action: Action) -> str:
        if self.phase == OVER:
            return "the game is over"
        if type(action) is Tick:
            return "only the clock moves time (seat -1's 'tick'; a server calls advance)"
        if self.phase == SCORED:
            if type(action) is not Ready:
                return f"round {self.round_no} is over: waiting for everyone to be ready"
            return f"seat {seat} is ready already"
        if type(action) is Ready:
            return f"round {self.round_no} is still being packed"
        if not self.is_open[seat]:
            return f"seat {seat}'s chest is closed"
        if type(action) is Drop:
            if self.now_ms < self.hand_ready[seat]:
                return self._hand_problem(seat)
            return self._drop_problem(seat, action) or super().why_illegal(seat, action)
        return super().why_illegal(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = type(action)
        events: list[Event] = []
        if kind is Drop:
            t = TREASURE_INDEX[action.treasure]  # type: ignore[attr-defined]
            shape = SHAPE_OF[t]
            r = CANONICAL[shape][action.rotation]  # type: ignore[attr-defined]
            c = action.column  # type: ignore[attr-defined]
            o = ORIENTATIONS[shape][r]
            heights = self.heights[seat]
            row = resting_row(heights, o, c)
            settle(heights, o, c, row)
            self.in_pool[t] = False
            self.chests[seat].append((t, r, c, row))
            self.hand_ready[seat] = self.now_ms + self.hand_ms
            events.append(
                Event(
                    "drop",
                    {
                        "seat": seat,
                        "treasure": TREASURE_ID[t],
                        "rotation": r,
                        "column": c,
                        "row": row,
                        "at_ms": self.now_ms,
                    },
                )
            )
        elif kind is Close:
            self._close(seat, events)
            if not any(self.is_open):
                self._score(events)
        else:  # Ready
            self.ready[seat] = True
            events.append(Event("ready", {"seat": seat}))
            self._to_act = tuple(s for s in self._to_act if s != seat)
            if not self._to_act:
                self._new_round(events)
        return events

    # ---------------------------------------------------------------- the round

    def _close(self, seat: int, events: list[Event]) -> None:
        """Close a lid: every treasure with a cell above the rim is taken out."""
        depth = self.depth
        kept, removed = [], []
        for placed in self.chests[seat]:
            t, r, _, row = placed
            if row + ORIENTATIONS[SHAPE_OF[t]][r].height > depth:
                removed.append(t)
            else:
                kept.append(placed)
        self.chests[seat] = kept
        self.out[seat].extend(removed)
        if removed:
            self.heights[seat] = skyline(self.width, self._cells(kept))
        self.is_open[seat] = False
        self.closed_ms[seat] = self.now_ms
        self._to_act = tuple(s for s in self._to_act if s != seat)
        events.append(
            Event(
                "close",
                {
                    "seat": seat,
                    "at_ms": self.now_ms,
                    "removed": [TREASURE_ID[t] for t in removed],
                },
            )
        )
        if self.started_ms < 0:  # Little Pirates: the first lid turns the hourglass
            self.started_ms, self.ends_ms = self.now_ms, self.now_ms + self.hourglass_ms
            events.append(Event("hourglass", {"at_ms": self.now_ms, "ends_ms": self.ends_ms}))

    @staticmethod
    def _cells(placed: list[tuple[int, int, int, int]]) -> list[tuple[int, int]]:
        return [
            cell
            for t, r, c, row in placed
            for cell in cells_at(ORIENTATIONS[SHAPE_OF[t]][r], c, row)
        ]

    def _score(self, events: list[Event]) -> None:
        """Every chest is closed: turn the board, count, hand out ship parts, end or wait."""
        n = self.players
        if self.board < 0:
            self._turn_board(events)
        claims = BOARD_CLAIMS[self.board]
        counts = []
        for s in range(n):
            kept = [p for p in self.chests[s] if p[0] not in claims]
            self.jack[s] = [p[0] for p in self.chests[s] if p[0] in claims]
            if self.jack[s]:
                self.chests[s] = kept
                self.heights[s] = skyline(self.width, self._cells(kept))
            counts.append(len(kept))
        top = max(counts)
        best = [s for s in range(n) if counts[s] == top]
        parts: list[str | None] = [None] * n
        for s in best:
            card = self._take_part(s)
            if card >= 0:
                parts[s] = CARD_ID[card]
        self.last_round = {
            "round": self.round_no,
            "board": BOARD_ID[self.board],
            "counts": counts,
            "counted": [[TREASURE_ID[p[0]] for p in self.chests[s]] for s in range(n)],
            "jack": [[TREASURE_ID[t] for t in self.jack[s]] for s in range(n)],
            "out": [[TREASURE_ID[t] for t in self.out[s]] for s in range(n)],
            "best": best,
            "parts": parts,
        }
        events.append(Event("scored", dict(self.last_round)))
        complete = [s for s in range(n) if self.has_ship(s)]
        if complete:
            self.phase = OVER
            self._to_act = ()
            events.append(Event("game_over", self.result() or {}))
        else:
            self.phase = SCORED
            self._to_act = tuple(range(n))

    def _take_part(self, seat: int) -> int:
        """The seat takes the first ship part it still needs (bow to stern); -1 none."""
        have = set(map(PART_OF.__getitem__, self.ships[seat]))
        for part in self.needs:
            if part not in have:
                for card in self.supply:
                    if PART_OF[card] == part:
                        self.supply.remove(card)
                        self.ships[seat].append(card)
                        return card
        return -1

    def has_ship(self, seat: int) -> bool:
        """Whether a seat holds every part of its ship."""
        return set(map(PART_OF.__getitem__, self.ships[seat])).issuperset(self.needs)

    # ---------------------------------------------------------------- reading

    def result(self) -> JSON | None:
        if self.phase != OVER:
            return None
        return {
            "scores": [len(s) for s in self.ships],
            "winners": [s for s in range(self.players) if self.has_ship(s)],
        }

    def view(self, seat: int | None) -> JSON:
        """Exactly what ``seat`` may know (``None``: a spectator): see ``view.py``."""
        return view_of(self, seat)

    def locations(self) -> dict[str, list[str]]:
        """Where every treasure, board and ship card is (for invariant checks and tests)."""
        ids = TREASURE_ID
        places: dict[str, list[str]] = {
            "pool": [ids[t] for t in range(N_TREASURES) if self.in_pool[t]],
            "stack": [BOARD_ID[b] for b in self.stack],
            "board": [BOARD_ID[self.board]] if self.board >= 0 else [],
            "supply": [CARD_ID[c] for c in self.supply],
            "box": [CARD_ID[c] for c in self.box],
        }
        for s in range(self.players):
            places[f"chest{s}"] = [ids[p[0]] for p in self.chests[s]]
            places[f"out{s}"] = [ids[t] for t in self.out[s]]
            places[f"jack{s}"] = [ids[t] for t in self.jack[s]]
            places[f"ship{s}"] = [CARD_ID[c] for c in self.ships[s]]
        return places


def check_setup(options: Mapping[str, Any]) -> None:
    """Validate the stacked ``boards`` option: every Jack-board once, top first."""
    boards = options.get("boards")
    if boards is None:
        return
    if not isinstance(boards, list) or not all(isinstance(b, str) for b in boards):
        raise InvalidOption("option 'boards' must be a list of Jack-board ids")
    unknown = [b for b in boards if b not in BOARD_INDEX]
    if unknown:
        raise InvalidOption(f"option 'boards': there is no Jack-board {unknown[0]!r}")
    if sorted(boards) != sorted(BOARD_ID):
        raise InvalidOption(
            f"option 'boards' must list every Jack-board exactly once ({', '.join(BOARD_ID)})"
        )
