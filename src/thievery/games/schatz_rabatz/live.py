"""Schatz-Rabatz live in the terminal: keys to pick, rotate, move, drop and close, against
bots on the wall clock, with the hourglass counting down.

Keys: ``↑``/``↓`` (or ``w``/``s``) pick a treasure from the pool, ``r`` rotates it,
``←``/``→`` (or ``a``/``d``) choose the column, ``Enter`` or ``Space`` drops it, ``c``
closes the lid, ``y`` (or ``Enter``) says ready after the scoring, ``q`` quits. A ghost
``░`` shows where the treasure would come to rest. A hand needs time between two drops
(the ``hand_ms`` option): while it is busy the pick line says how long, and a drop is
refused with the rules' reason. A terminal too small for the full frame (80×24, say)
gets a compact one (:class:`Fitted`): a live screen cannot scroll.

:class:`LiveGame` holds the logic and no terminal I/O (tests drive it with keys and a
fake clock); :func:`run` is the loop over injected keys, clock and display, and
:func:`play_live` runs it on a real terminal (Unix: raw keys through ``termios``).
"""

from __future__ import annotations

import os
import re
import select
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.live import Live
from rich.panel import Panel
from rich.segment import Segment
from rich.text import Text

from thievery.bots.realtime import THINK_SECONDS, BotClock, TimedBot
from thievery.core.errors import ThieveryError
from thievery.core.i18n import Translator, localized
from thievery.core.protocol import Event, renumber_seats, seat_number
from thievery.core.rng import Rng
from thievery.games.schatz_rabatz.data import column_number
from thievery.games.schatz_rabatz.pieces import (
    ORIENTATIONS,
    SHAPE_OF,
    TREASURE_INDEX,
    cells_at,
    resting_row,
)
from thievery.games.schatz_rabatz.render import (
    LEGEND,
    ColourAware,
    pool_text,
    seconds,
    table,
    treasure_words,
)
from thievery.games.schatz_rabatz.rules import SchatzRabatz

JSON = dict[str, Any]
LOG_LINES = 6
# A treasure's id in the rules' words (``crown-purple``): the screen says it in words.
TREASURE_IN_WORDS = re.compile("|".join(sorted(TREASURE_INDEX, key=len, reverse=True)))
_ = Translator(__package__)
HELP = "↑↓ treasure  r rotate  ←→ column  ⏎/space drop  c close lid  y ready  ? legend  q quit"
SHORT_HELP = "↑↓ treasure r rotate ←→ column ⏎ drop c close y ready ? legend q quit"  # (80 wide)
ALIASES = {
    "w": "up",
    "s": "down",
    "a": "left",
    "d": "right",
    " ": "enter",
    "\r": "enter",
    "\n": "enter",
}


def wait_ms(ms: int) -> int:
    """A wait as a player is told it, in whole tenths of a second rounded up: a hand busy
    for 30 ms more is "ready in 0.1 s", not "0.0 s".

    >>> wait_ms(30), wait_ms(100), wait_ms(101), wait_ms(0)
    (100, 100, 200, 0)
    """
    return -(-ms // 100) * 100


class LiveGame:
    """One human seat (or none: watch the bots) in a live match: keys in, frames out.
    The log names seats by ``names`` (none: "Seat N", counted from 1). The clock is live,
    so a search bot thinks at most ``think_seconds`` an action (its deadline, see
    :mod:`thievery.bots.realtime`): the screen and the human wait while it thinks."""

    def __init__(
        self,
        state: SchatzRabatz,
        human: int | None,
        bots: Mapping[int, TimedBot],
        rng: Rng,
        names: Sequence[str] | None = None,
        think_seconds: float | None = THINK_SECONDS,
    ) -> None:
        self.state = state
        self.human = human
        # (without names, "Seat 2": counted from 1 as on the board, not by index)
        self.names = names or [_("Seat {n}", n=seat_number(s)) for s in range(state.players)]
        self.clock = BotClock(bots, rng, think_seconds)
        self.selected: str | None = None
        self.rotation = 0
        self.column = 0
        self.message = ""
        self.log: list[str] = []
        self.legend = False  # ``?`` shows the legend in place of the log
        self.compact_at: set[tuple[int, int]] = set()  # terminal sizes too small for all
        self._pick(0)

    # ------------------------------------------------------------ time and events

    def tick(self, now_ms: int) -> list[Event]:
        """Let the bots act and the clock run up to ``now_ms``."""
        events = self.clock.run_until(self.state, max(now_ms, self.state.now_ms))
        self._record(events)
        if self.selected is not None and self.selected not in self.state.view(None)["pool"]:
            self._pick(0)
        return events

    def _record(self, events: list[Event]) -> None:
        seat = self.human
        spec = self.state.spec
        describe = localized(__package__, "describe") or spec.describe  # the player's language
        lines = [describe(e, seat, self.names) for e in events if e.is_visible_to(seat)]
        self.log = (self.log + lines)[-LOG_LINES:]

    # ------------------------------------------------------------ keys

    def key(self, key: str) -> bool:
        """Handle one key; ``False`` means quit."""
        key = ALIASES.get(key, key)
        if key == "q":
            return False
        if key == "?":
            self.legend = not self.legend
            return True
        if self.human is None or self.state.is_over:
            return True
        phase = self.state.view(None)["phase"]
        if key in ("up", "down"):
            self._pick(-1 if key == "up" else 1)
        elif key == "r":
            self.rotation = (self.rotation + 1) % 4
            self._clamp()
        elif key in ("left", "right"):
            self.column += -1 if key == "left" else 1
            self._clamp()
        elif key == "c" and phase == "packing":
            self._act({"type": "close"})
        elif key == "y" or (key == "enter" and phase == "scored"):
            self._act({"type": "ready"})
        elif key == "enter" and phase == "packing":
            if self.selected is None:
                self.message = _("the pool is empty: close your lid (c)")
            else:
                self._act(
                    {
                        "type": "drop",
                        "treasure": self.selected,
                        "rotation": self.rotation,
                        "column": self.column,
                    }
                )
        return True

    def _act(self, action: JSON) -> None:
        assert self.human is not None
        try:
            events = self.state.apply(self.human, action)
        except ThieveryError as e:
            view = self.state.view(self.human)
            ready = view["hand_ready_ms"]
            if action["type"] == "drop" and ready is not None and ready > view["now_ms"]:
                # (the rules' reason counts milliseconds for API users; a player is told
                # plainly how long to wait)
                wait = seconds(wait_ms(ready - view["now_ms"]))
                self.message = _("Your hand is not ready yet: wait {time}", time=wait)
                return
            lost = action["type"] == "drop" and "gone" in str(e)
            # the rules' reason, in the language, its seats counted from 1 as on the screen
            why = renumber_seats(str(e))
            words = localized(__package__, "refusal")
            why = why if words is None else str(words(why))
            # (and the treasures in words: "the purple crown", not "crown-purple")
            why = TREASURE_IN_WORDS.sub(lambda m: treasure_words(m[0]), why)
            self.message = (_("Too slow! ") if lost else "") + why
            if lost:
                self._pick(0)
            return
        self.message = ""
        self._record(events)
        if action["type"] == "drop":
            self._pick(0)

    def _pick(self, step: int) -> None:
        """Select the next (``step``) treasure still in the pool, or keep the current."""
        pool = self.state.view(None)["pool"]
        if not pool:
            self.selected = None
            return
        if self.selected in pool:
            i = pool.index(self.selected)
        else:  # gone: the next one in pool order
            after = TREASURE_INDEX[self.selected] if self.selected is not None else -1
            later = [t for t in pool if TREASURE_INDEX[t] > after]
            i = pool.index(later[0]) if later else 0
            step = 0
        self.selected = pool[(i + step) % len(pool)]
        self._clamp()

    def _clamp(self) -> None:
        if self.selected is None:
            return
        o = ORIENTATIONS[SHAPE_OF[TREASURE_INDEX[self.selected]]][self.rotation]
        self.column = max(0, min(self.column, self.state.width - o.width))

    # ------------------------------------------------------------ drawing

    def ghost(self) -> list[tuple[int, int]]:
        """Where the selected treasure would rest in the human's chest (empty if none)."""
        if self.human is None or self.selected is None or not self.state.is_open[self.human]:
            return []
        o = ORIENTATIONS[SHAPE_OF[TREASURE_INDEX[self.selected]]][self.rotation]
        heights = self.state.heights[self.human]
        row = resting_row(heights, o, self.column)
        return cells_at(o, self.column, row) if row < self.state.depth else []

    def render(self) -> RenderableType:
        """The whole frame: the table with the ghost, the selection, messages and keys
        (the treasures' colours marked with letters on a console without colour). On a
        terminal too small for it (a live screen cannot scroll), the compact frame: see
        :class:`Fitted`."""
        return Fitted(self)

    def frame(self, compact: bool = False) -> RenderableType:
        """The frame with the log's panel, or ``compact``: without frames and without the
        log (:class:`Fitted` gives it the lines left)."""
        return ColourAware(lambda: self._frame(compact))

    def _frame(self, compact: bool) -> RenderableType:
        view = self.state.view(self.human)
        view = {**view, "seat_names": list(self.names)}  # (the winners named as in the log)
        legend = localized(__package__, "LEGEND") or LEGEND
        if compact and self.legend:  # (the legend in place of the table, unframed)
            title = Text(_("Legend (? to close)"), style="bold")
            parts: list[RenderableType] = [title, Text(legend)]
        else:
            parts = [table(view, self.ghost(), compact=compact)]
        if self.human is not None and not self.state.is_over:
            line = Text(_("Your pick: "), style="bold")
            if self.selected is not None:
                line.append(treasure_words(self.selected), style="bold")
                line.append(
                    _(
                        ", turned {n}, column {column}   ",
                        n=self.rotation,
                        column=column_number(self.column),
                    )
                )
                line.append_text(pool_text([self.selected], words=not compact))
            else:
                line.append(_("nothing left in the pool"))
            ready = view["hand_ready_ms"]
            if ready is not None:
                wait = seconds(wait_ms(ready - view["now_ms"]))
                line.append(_("   hand busy: ready in {time}", time=wait))
            parts.append(line)
            if self.message:
                parts.append(Text(self.message, style="bold red"))
            parts.append(Text(_(SHORT_HELP if compact else HELP), style="dim"))
        if compact:
            return Group(*parts)
        if self.legend:
            parts.append(Panel(Text(legend), title=_("Legend (? to close)")))
        else:
            parts.append(Panel(Text("\n".join(self.log) or "—"), title=_("What happened")))
        return Group(*parts)


class Fitted:
    """A live game's frame drawn to fit the terminal's height (a live screen cannot
    scroll: what does not fit is cut off). The full frame if it fits; else (80×24, say)
    the compact one, whose log shows the newest lines the rest of the screen leaves room
    for (at least one). Once the full frame did not fit a terminal's size, the compact
    one is kept at that size, so that the layout does not jump between frames."""

    def __init__(self, game: LiveGame) -> None:
        self.game = game

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        height = options.height or console.height
        free = options.update(height=None)  # (measured whole, not cut to the height)
        size = (options.max_width, height)
        if size not in self.game.compact_at:
            lines = console.render_lines(self.game.frame(), free, pad=False)
            if len(lines) <= height:
                yield from _lines(lines)
                return
            self.game.compact_at.add(size)
        lines = console.render_lines(self.game.frame(compact=True), free, pad=False)
        room = max(1, height - len(lines))
        log: list[list[Segment]] = []
        for entry in reversed([] if self.game.legend else self.game.log or ["—"]):
            rows = console.render_lines(Text(entry, style="dim"), free, pad=False)
            if log and len(log) + len(rows) > room:
                break
            log = rows + log
        yield from _lines(lines + log[-room:])


def _lines(lines: list[list[Segment]]) -> Iterator[Segment]:
    new_line = Segment.line()
    for line in lines:
        yield from line
        yield new_line


def run(
    game: LiveGame,
    keys: Callable[[float], str | None],
    clock: Callable[[], float],
    display: Callable[[RenderableType], None],
    fps: float = 20.0,
) -> None:
    """The live loop: move the game to the clock, read a key (waiting at most a frame),
    redraw; until the match ends (then one more key) or ``q``."""
    start = clock() - game.state.now_ms / 1000
    while True:
        game.tick(int((clock() - start) * 1000))
        display(game.render())
        if game.state.is_over:
            keys(3600.0)
            return
        key = keys(1 / fps)
        if key is not None and not game.key(key):
            return


@contextmanager
def terminal_keys() -> Iterator[Callable[[float], str | None]]:
    """Raw, unechoed keys from the terminal while the block runs (Unix only)."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    arrows = {"A": "up", "B": "down", "C": "right", "D": "left"}

    def read(timeout: float) -> str | None:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return None
        ch = os.read(fd, 1).decode(errors="ignore")
        if ch == "\x1b":
            more, _, _ = select.select([fd], [], [], 0.01)
            seq = os.read(fd, 2).decode(errors="ignore") if more else ""
            return arrows.get(seq[1:2], "escape") if seq.startswith("[") else "escape"
        if ch == "\x03":
            return "q"
        return ch.lower()

    try:
        tty.setcbreak(fd)
        yield read
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def play_live(
    state: SchatzRabatz,
    human: int | None,
    bots: Mapping[int, TimedBot],
    console: Console | None = None,
    seed: int = 0,
    names: Sequence[str] | None = None,
) -> None:
    """Play (or with ``human=None`` watch) a live match in this terminal until it ends or
    the human presses ``q``. Every other seat needs a bot in ``bots``; the log names
    seats by ``names``."""
    missing = [s for s in range(state.players) if s != human and s not in bots]
    if missing:
        raise ValueError(f"seats {missing} have neither a human nor a bot")
    if not sys.stdin.isatty():
        raise ValueError("live play needs a terminal (stdin is not a TTY)")
    console = console or Console()
    game = LiveGame(state, human, bots, Rng(seed), names)
    with (
        terminal_keys() as keys,
        Live(game.render(), console=console, auto_refresh=False, screen=True) as live,
    ):

        def display(frame: RenderableType) -> None:
            live.update(frame, refresh=True)

        run(game, keys, time.monotonic, display)
    console.print(game.render())
