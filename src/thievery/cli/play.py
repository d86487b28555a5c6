"""`thievery play GAME`: a full game in the terminal against bots, or hot-seat.

Human seats come first (Seat 1 to Seat ``--humans``), bots fill the rest. With several
humans the terminal is passed round: the screen is cleared and the next hand stays hidden
until its player presses Enter. The screens name the seats as the web pages do: counted
from 1, bots by level ("Seat 1", "Seat 3 (Casual)"); each human reads their own seat as
"you". A saved record keeps the names a server table gives by default ("Seat 0", "Seat 2
(heuristic)": by index and engine), which both faces show that way again.
"""

from __future__ import annotations

import bisect
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import typer
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markup import escape
from rich.panel import Panel
from rich.rule import Rule
from rich.segment import Segment
from rich.text import Text

from thievery.bots import Bot, make_bot
from thievery.bots.realtime import clock_rng, play_simulated
from thievery.cli import menu
from thievery.cli.app import app
from thievery.cli.common import check_writable, fail, load_game, parse_options, refuse
from thievery.cli.render import (
    describe,
    lang_option,
    legend_of,
    renderer,
    seat_labels,
    with_names,
)
from thievery.cli.usage import ThieveryCommand
from thievery.core.errors import ThieveryError
from thievery.core.i18n import Translator, listed, result_name, use_language
from thievery.core.protocol import (
    JSON,
    ClockedState,
    Event,
    GameSpec,
    State,
    default_seat_name,
    seat_name,
)
from thievery.core.record import GameRecord
from thievery.core.registry import plugin

_ = Translator(__package__)
LOG_LINES = 14  # the most log lines a screen shows
MIN_LOG = 2  # the fewest, however full the screen (in the full layout)
MENU_LINES = 10  # longer menus are chosen in steps
COMPACT = "compact"  # the key of a view that asks a game's board for its compact layout
TIGHT = "tight"  # with COMPACT: asks for it in the fewest lines it can (see Layout)
SCREEN_HEIGHT = 40  # the screen's height when the console is not a terminal
WIPE_SCROLLBACK = "\x1b[3J"  # xterm's "erase saved lines"


class Quit(Exception):
    """The human asked to leave."""


@app.command(cls=ThieveryCommand)
def play(
    game: str = typer.Argument(..., help="the game, e.g. schattendieb"),
    players: int = typer.Option(4, "--players", "-p", help="number of seats"),
    humans: int = typer.Option(
        1,
        "--humans",
        help="how many seats are people: Seat 1 to Seat N, counted from 1 as the screens "
        "count them (hot-seat if more than 1); bots fill the rest",
    ),
    bot: str = typer.Option("heuristic", "--bot", help="bot for every other seat"),
    bots: str | None = typer.Option(None, help="comma-separated bot per non-human seat"),
    seed: int | None = typer.Option(None, help="seed (default: random)"),
    first: int | None = typer.Option(
        None,
        "--first",
        help="the seat that plays first, counted from 1 as the screens count them (Seat 1 "
        "to Seat N), in the games with a first player (Thieves!, Thieves Den); default: "
        "drawn with the seed. It sets the game option first_player, which counts from 0 as "
        "game records do: --first 2 is --option first_player=1",
    ),
    option: list[str] = typer.Option(
        [],
        "--option",
        "-o",
        help="game option NAME=VALUE, as a game record holds it: a seat in an option is "
        "counted from 0 (first_player=0 is Seat 1; --first counts from 1)",
    ),
    cards: Path | None = typer.Option(
        None, "--cards", help="a card set file, for games with one (Thieves Den)"
    ),
    save: Path | None = typer.Option(None, help="save the game record to this file"),
    lang: str = lang_option(),
) -> None:
    """Play a game in the terminal."""
    with use_language(lang):
        _play(game, players, humans, bot, bots, seed, option, cards, save, first)


FIRST = "first_player"  # the engine's option: a seat index, counted from 0 as records do


def first_player_option(
    spec: GameSpec, players: int, options: dict[str, Any], first: int | None
) -> dict[str, Any]:
    """``options`` with ``--first`` (a seat counted from 1, as the screens count them) as
    the game's ``first_player`` (counted from 0); a ``first_player`` given as an option
    that names no seat is refused in words that say how it counts, and which seat on the
    screen each end of its range is."""
    if not any(o.name == FIRST for o in spec.options):
        if first is not None:
            fail(_("{title} has no first player: --first is not for it", title=spec.title))
        return options
    if first is not None:
        if FIRST in options:
            fail(_("--first and --option first_player both name the first player: give one"))
        if not 1 <= first <= players:
            fail(
                _(
                    "--first is a seat from 1 to {n} (Seat 1 to {last}), not {value}",
                    n=players,
                    last=_("Seat {n}", n=players),
                    value=first,
                )
            )
        return {**options, FIRST: first - 1}
    value = options.get(FIRST)
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players
    ):
        fail(
            _(
                "--option first_player counts seats from 0, as game records do: 0 (Seat 1 "
                "on the screen) to {high} ({last}), not {value}; or use --first, which "
                "counts from 1 as the screens do (--first 1 to --first {n})",
                high=players - 1,
                last=_("Seat {n}", n=players),
                value=json.dumps(value),
                n=players,
            )
        )
    return options


def _play(
    game: str,
    players: int,
    humans: int,
    bot: str,
    bots: str | None,
    seed: int | None,
    option: list[str],
    cards: Path | None,
    save: Path | None,
    first: int | None = None,
) -> None:
    import secrets

    spec = load_game(game)
    if save is not None:
        check_writable(save, "--save")
    if not spec.min_players <= players <= spec.max_players:
        fail(
            _(
                "{title} needs {low} to {high} players, not {n}",
                title=spec.title,
                low=spec.min_players,
                high=spec.max_players,
                n=players,
            )
        )
    if not 0 <= humans <= players:
        fail(_("--humans must be between 0 and {n}", n=players))
    names = bots.split(",") if bots else [bot] * (players - humans)
    if len(names) != players - humans:
        fail(_("--bots needs {n} names, one per non-human seat", n=players - humans))
    bot_of = {humans + i: n.strip() for i, n in enumerate(names)}
    seed = secrets.randbelow(2**31) if seed is None else seed
    options = first_player_option(spec, players, parse_options(option, cards), first)
    try:
        # Files the options name (a card set) are read in now: the record then holds
        # their content and replays on any machine, whatever happens to the files.
        state = spec.new(players, seed, plugin(spec.name).inline_options(options))
        seats: dict[int, Bot] = {s: make_bot(n, spec.name, s, seed) for s, n in bot_of.items()}
    except ThieveryError as e:
        refuse(e)
    record_names = [default_seat_name(s, bot_of.get(s)) for s in range(players)]
    seat_names = seat_labels(players, record_names)
    console = Console()
    live = renderer(spec.name).live
    if live is not None and humans > 1:
        fail(_("{title} is played live: at most one human per terminal", title=spec.title))
    if isinstance(state, ClockedState) and (live is None or not stdin_is_terminal()):
        # real time, and no live screen (or no terminal to show it and read keys from)
        if humans and live is None:
            fail(
                _(
                    "{title} is played in real time and has no live terminal screen: "
                    "play it in the browser (thievery serve)",
                    title=spec.title,
                )
            )
        if humans:  # (refused before a record is saved: it would hold no move)
            fail(
                _(
                    "{title} is played live and needs a terminal to read your keys from: "
                    "the input is not a terminal (bots alone play without one: --humans 0)",
                    title=spec.title,
                )
            )
        play_simulated(state, seats, clock_rng(seed))  # bots only: on simulated time
    elif live is not None:  # a real-time game: one human at most, on the live screen
        try:
            live(state, 0 if humans else None, seats, console, seed=seed, names=seat_names)
        except (EOFError, KeyboardInterrupt):
            console.print("\n[bold]" + _("Left the game.") + "[/]")
        except ValueError as e:
            refuse(e)
        finally:
            if save is not None:
                save_record(GameRecord.of(state, record_names), save, console, replay=False)
        return
    session = Session(console, spec, state, seats, humans, seat_names)
    try:
        session.run()
    except (Quit, EOFError, KeyboardInterrupt):
        console.print("\n[bold]" + _("Left the game.") + "[/]")
    finally:
        if save is not None:
            save_record(GameRecord.of(state, record_names), save, console)


def stdin_is_terminal() -> bool:
    """Whether the input is a terminal (a live screen reads its keys from one)."""
    return sys.stdin.isatty()


def save_record(record: GameRecord, path: Path, console: Console, replay: bool = True) -> None:
    """Write the game's record; if that fails after all (the disk filled up, the folder
    went), into a new file in the system's temporary folder, and say where: a game is
    never lost for want of a place to keep it."""
    try:
        record.save(path)
    except OSError as e:
        with tempfile.NamedTemporaryFile(
            "w", prefix="thievery-", suffix=".json", delete=False
        ) as spare:
            path_was, path = path, Path(spare.name)
        record.save(path)
        console.print(
            _("Could not write {file} ({error}).", file=path_was, error=e.strerror or e),
            markup=False,
            soft_wrap=True,
        )
    if replay:
        console.print(
            _("Game record saved to {file} (replay: thievery replay {file})", file=path),
            markup=False,
            soft_wrap=True,
        )
    else:
        console.print(_("Game record saved to {file}", file=path), markup=False, soft_wrap=True)


class Drawn:
    """A renderable drawn already (as lines, at the console's width): measured and then
    printed from one rendering, not two (a board is the slowest part of a screen)."""

    def __init__(self, lines: list[list[Segment]]) -> None:
        self.lines = lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        new_line = Segment.line()
        for line in self.lines:
            yield from line
            yield new_line


def most(low: int, high: int, fits: Callable[[int], bool]) -> int:
    """The largest ``n`` in ``low`` < n <= ``high`` that ``fits``, else ``low`` (``high`` if
    it is not above ``low``). ``fits`` must hold for every ``n`` below one it holds for
    (more lines take at least as many rows): found in a few tries, not one per ``n``
    (each is a render of the screen)."""
    if high <= low or fits(high):
        return high
    # (how many of low+1 .. high-1 fit: they fit up to some n, then none does)
    return low + bisect.bisect_left(range(low + 1, high), True, key=lambda n: not fits(n))


def balanced(total: int, most_fit: int) -> int:
    """How many of ``total`` choices the first page shows when at most ``most_fit`` fit on
    one: the pages share them evenly, so that the last does not hold one choice alone
    (``9`` in pages of up to 8 is 5 and 4, not 8 and 1).

    >>> balanced(9, 8), balanced(16, 8), balanced(17, 8), balanced(5, 1)
    (5, 8, 6, 1)
    """
    pages = -(-total // most_fit)
    return -(-total // pages)


@dataclass(frozen=True)
class Layout:
    """How a screen is laid out: the game's board ``compact`` or full (and the log and
    the standings under a rule or in a box); the fewest lines of the ``log`` it shows; the
    fewest choices a ``page`` of the menu must show (if it has them) for the layout to
    do, else the next is tried. ``tight``: every line counts (the last resort): the
    board in its fewest lines (its view with ``TIGHT`` set too: a game without that
    draws its compact board), the menu's heading in the prompt if it fits there ("Seat
    2 · Steal at a Location · choose 0-2 …"), and "more choices" and "back" on one line."""

    compact: bool
    log: int
    page: int
    tight: bool = False


FULL = Layout(compact=False, log=MIN_LOG, page=3)
# the layouts a screen tries, in turn: the last does whatever fits
LAYOUTS = (
    FULL,
    Layout(compact=True, log=1, page=1),
    Layout(compact=True, log=0, page=1),
    Layout(compact=True, log=0, page=1, tight=True),
)


class Session:
    """One terminal game: bots move at once, humans are asked through menus; the screens
    name seats by ``names`` (none: by number, counted from 1).

    Every human turn is one screen that fits the terminal (the log gets the lines the
    table and the menu leave, at least ``MIN_LOG``); menus longer than ``MENU_LINES`` are
    chosen in steps (:mod:`thievery.cli.menu`). When the full layout leaves the menu no
    room for three choices (the final screen: for its standings), the screen takes the
    compact one (see ``LAYOUTS``), and keeps it at that size of the terminal: the game's
    board in its compact form (its view with ``COMPACT`` set: a game without one draws
    its board as ever), the log (one line at least; none, if nothing else makes room for
    a choice) and the standings under a rule instead of in a box; if even that leaves no
    room for a choice (five seats of Thieves Den late in the game, a choice of three
    lines), the tight layout: an 80×24 terminal holds every game's screen whole. ``?``
    shows the game's legend. At a hot-seat handover the screen and the scrollback are
    wiped, so the next player cannot scroll up to the last hand.
    """

    def __init__(
        self,
        console: Console,
        spec: GameSpec,
        state: State,
        bots: dict[int, Bot],
        humans: int,
        names: Sequence[str] | None = None,
    ) -> None:
        self.console, self.spec, self.state, self.bots = console, spec, state, bots
        self.humans = humans
        self.names = list(names) if names is not None else seat_labels(state.players, None)
        self.logs: dict[int | None, list[str]] = {s: [] for s in [None, *range(state.players)]}
        self.render = renderer(spec.name)
        self.last_human: int | None = None
        self.compact_at: set[tuple[int, int]] = set()  # sizes the full layout did not fit

    def record(self, events: list[Event]) -> None:
        for seat, log in self.logs.items():
            log.extend(
                describe(self.spec, e, seat, self.names) for e in events if e.is_visible_to(seat)
            )
            del log[:-LOG_LINES]

    def run(self) -> None:
        state = self.state
        while state.to_act:
            bot_seats = [s for s in state.to_act if s in self.bots]
            if bot_seats:
                seat = bot_seats[0]
                action = self.bots[seat].act(state.view(seat), state.legal_actions(seat))
                self.record(state.apply(seat, action))
                continue
            self.human_turn(state.to_act[0])
        self.show(None if self.humans != 1 else 0, final=True)

    def name(self, seat: int) -> str:
        return seat_name(seat, None, self.names)

    def seat(self, seat: int) -> str:
        """The seat's name in a prompt (never "you": it asks the seat's player)."""
        return self.names[seat]

    def board(self, view: JSON, compact: bool = False, tight: bool = False) -> Any:
        """The game's board for ``view``, naming the seats as the screen does; ``compact``:
        in the game's compact layout, for a small terminal (``tight``: in its fewest
        lines)."""
        named = with_names(view, self.names)
        if not compact:
            return self.render.table(named)
        return self.render.table({**named, COMPACT: True, **({TIGHT: True} if tight else {})})

    def drawn_board(self, view: JSON, layout: Layout, boards: dict[Layout, Drawn]) -> Drawn:
        """The board for ``view`` in ``layout``, kept in ``boards`` (by how it is drawn:
        the layouts that draw it alike share it)."""
        key = replace(layout, log=0, page=0)
        if key not in boards:
            boards[key] = self.drawn(self.board(view, layout.compact, layout.tight))
        return boards[key]

    def size(self) -> tuple[int, int]:
        """The screen's width and height."""
        return self.console.width, self.screen_height()

    def layouts(self) -> tuple[Layout, ...]:
        """The layouts a screen tries, in turn: once the full one did not fit a screen of
        this size, the compact ones only (the layout does not jump from turn to turn)."""
        return LAYOUTS[1:] if self.size() in self.compact_at else LAYOUTS

    def screen_height(self) -> int:
        return self.console.height if self.console.is_terminal else SCREEN_HEIGHT

    def lines_of(self, renderable: Any) -> int:
        """How many lines ``renderable`` takes at the console's width."""
        return len(self.drawn(renderable).lines)

    def drawn(self, renderable: Any) -> Drawn:
        """``renderable`` drawn at the console's width."""
        options = self.console.options.update_width(self.console.width)
        return Drawn(self.console.render_lines(renderable, options, pad=False))

    def fits(self, renderable: Any, room: int) -> bool:
        """Whether ``renderable`` takes at most ``room`` lines."""
        return self.lines_of(renderable) <= room

    def wipe(self) -> None:
        """Clear the screen and the terminal's scrollback (a hot-seat handover)."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write(WIPE_SCROLLBACK)
            self.console.file.flush()

    def show(
        self,
        seat: int | None,
        final: bool = False,
        menu_lines: int = 0,
        board: Drawn | None = None,
        layout: Layout = FULL,
    ) -> None:
        """The table as ``seat`` sees it (``board``, if drawn already) and the log, in the
        lines ``menu_lines`` leave (the final screen: and the standings), in ``layout``
        (the final screen: the first of ``LAYOUTS`` that fits)."""
        end: Drawn | None = None
        if final:
            view = self.state.view(seat)
            boards: dict[Layout, Drawn] = {}
            for layout in self.layouts():
                board = self.drawn_board(view, layout, boards)
                end = self.drawn(self.standings(layout.compact))
                log_rows = self.lines_of(self.log_panel(seat, layout.log, final, layout))
                if len(board.lines) + log_rows + len(end.lines) < self.screen_height():
                    break
                self.compact_at.add(self.size())
            assert end is not None
            menu_lines += len(end.lines)
        if board is None:
            board = self.drawn(self.board(self.state.view(seat), layout.compact, layout.tight))
        room = self.screen_height() - len(board.lines) - menu_lines - 1
        lines = self.logs[seat]

        def panel(count: int) -> RenderableType:
            return self.log_panel(seat, count, final, layout)

        # the newest lines that fit (a long line wraps), at least the layout's fewest
        count = most(layout.log, min(LOG_LINES, len(lines)), lambda n: self.fits(panel(n), room))
        self.console.print(Group(board, panel(count)))
        if end is not None:
            self.console.print(end)

    def standings(self, compact: bool = False) -> RenderableType:
        """The final standings: every seat's score and the winners."""
        result = self.state.result() or {}
        winners = listed([result_name(self.name(w)) for w in result.get("winners", [])])
        scores = ", ".join(  # (whose each score is: "Seat 1 45, Ada 42")
            f"{result_name(self.name(s))} {v}" for s, v in enumerate(result.get("scores", []))
        )
        text = Text(_("Scores: {scores}\nWinner: {winners}", scores=scores, winners=winners))
        return framed(text, _("Final standings"), "green", compact)

    def log_panel(
        self, seat: int | None, count: int, final: bool = False, layout: Layout = FULL
    ) -> RenderableType:
        """The log's panel with the ``count`` newest lines ``seat`` may see (in the compact
        ``layout``: under a rule, not in a box; none at all for no line in a layout that
        may go without the log)."""
        if not count and not layout.log:
            return Group()
        title = _("What happened") + (
            "" if final or not self.render.legend else _(" (? for a legend)")
        )
        lines = self.logs[seat]
        text = Text("\n".join(lines[len(lines) - count :]) or "—")
        return framed(text, title, "dim", layout.compact)

    def human_turn(self, seat: int) -> None:
        if self.humans > 1 and seat != self.last_human:
            self.wipe()
            self.hand_over(seat)
            self.wipe()
        self.last_human = seat
        view = self.state.view(seat)
        legal = self.state.legal_actions(seat)
        group = self.render.group or type_group
        named = with_names(view, self.names)  # (menus name the seats as the screen does)
        root = menu.build(
            [(self.render.action(a.to_json(), named), group(a.to_json(), named)) for a in legal],
            MENU_LINES,
        )
        path: list[tuple[menu.Node, int]] = [(root, 0)]  # headings opened, pages turned
        boards: dict[Layout, Drawn] = {}  # (the board as drawn in each layout: it stays)
        while True:
            node, first = path[-1]
            back = len(path) > 1
            left = node.entries()[first:]
            for layout in self.layouts():
                board = self.drawn_board(view, layout, boards)
                # (the menu gets what the board, the log's fewest newest lines and the
                # prompt leave, as many rows as they wrap to)
                log_rows = self.lines_of(self.log_panel(seat, layout.log, layout=layout))
                # (tight: the heading in the prompt, if that keeps the prompt on a line)
                fold = (
                    layout.tight
                    and self.prompt_rows(self.prompt(seat, len(left) + 1, back, path, fold=True))
                    == 1
                )
                asked = self.prompt(seat, len(left) + 1, back, path, fold)
                room = self.screen_height() - len(board.lines) - log_rows
                room -= self.prompt_rows(asked)
                entries, more, lines = self.page(
                    seat, room, path, left, back, heading=not fold, tight=layout.tight
                )
                if self.fits(lines, room) and len(entries) >= min(layout.page, len(left)):
                    break  # (else the next layout: more of the menu on the screen)
                self.compact_at.add(self.size())
            count = len(entries) + int(more)
            asked = self.prompt(seat, count, back, path, fold)
            menu_rows = self.lines_of(lines) + self.prompt_rows(asked) - 1  # (show: -1 too)
            self.show(seat, menu_lines=menu_rows, board=board, layout=layout)
            self.console.print(lines)
            choice = self.ask(seat, count, back, asked)
            if choice == 0:
                path.pop()
            elif choice > len(entries):
                path.append((node, first + len(entries)))
            elif (entry := entries[choice - 1]).node is not None:
                path.append((entry.node, 0))
            else:
                assert entry.index is not None
                self.record(self.state.apply(seat, legal[entry.index]))
                return

    def hand_over(self, seat: int) -> None:
        """Wait for the next player to take the terminal: Enter shows their screen, ``q``
        leaves the game (it never shows the next hand); anything else is asked again."""
        prompt = _(
            "[bold]Pass the terminal to {who}[/] and press Enter (q quits) ",
            who=self.seat(seat),
        )
        while True:
            answer = self.console.input(prompt).strip()
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit
            if not answer:
                return
            self.console.print(_("Press Enter to go on, or q to quit."))

    def opened(self, path: list[tuple[menu.Node, int]]) -> str:
        """The menu's headings opened (``Steal at a Location``), if any."""
        titles = [node.title for node, _ in path[1:] if node.title]
        return " › ".join(dict.fromkeys(titles))

    def heading(self, seat: int, path: list[tuple[menu.Node, int]]) -> Text:
        """The menu's heading: whose turn, and the headings opened."""
        heading = Text(_("{seat} — your turn", seat=self.seat(seat)), style="bold")
        opened = self.opened(path)
        return heading.append(f": {opened}") if opened else heading

    def prompt(
        self,
        seat: int,
        count: int,
        back: bool,
        path: list[tuple[menu.Node, int]],
        fold: bool = False,
    ) -> str:
        """What the prompt asks for a choice of 1 (0 with ``back``) to ``count``, as
        markup; ``fold``: after the menu's heading (which then has no line of its own:
        the tight layout's)."""
        low = 0 if back else 1
        if not fold:
            return _(
                "{seat}, choose {low}-{count} (? legend, q quit): ",
                seat=self.seat(seat),
                low=low,
                count=count,
            )
        opened = self.opened(path)
        return escape(
            _(
                "{seat} · {opened} · choose {low}-{count} (? legend, q quit): ",
                seat=self.seat(seat),
                opened=opened,
                low=low,
                count=count,
            )
            if opened
            else _(
                "{seat} — your turn · choose {low}-{count} (? legend, q quit): ",
                seat=self.seat(seat),
                low=low,
                count=count,
            )
        )

    def prompt_rows(self, prompt: str) -> int:
        """The rows ``prompt`` takes, with the answer's first character after it."""
        return 1 + cell_len(Text.from_markup(prompt).plain) // max(1, self.console.width)

    def page(
        self,
        seat: int,
        room: int,
        path: list[tuple[menu.Node, int]],
        entries: list[menu.Entry],
        back: bool,
        heading: bool = True,
        tight: bool = False,
    ) -> tuple[list[menu.Entry], bool, Text]:
        """The menu's lines for one screen: its ``heading`` (unless the prompt says it),
        as many ``entries`` as fit in ``room`` lines (at least one), then "more" if some
        are left; ``tight``: "more" and "back" on one line."""

        def draw(count: int, more: bool) -> Text:
            lines = [self.heading(seat, path)] if heading else []
            for i, entry in enumerate(entries[:count], 1):
                lines.append(Text(f"  {i:>2} ", style="bold cyan").append(entry.label))
            ends = []
            if more:
                ends.append(Text(f"  {count + 1:>2} ", style="bold cyan"))
                ends[-1].append(_("more choices ({n} on the next page)", n=len(entries) - count))
            if back:
                ends.append(Text("   0 ", style="bold cyan").append(_("back")))
            lines += [Text("  ").join(ends)] if tight and ends else ends
            return Text("\n").join(lines)

        count = len(entries)
        lines = draw(count, False)
        if count > 1 and not self.fits(lines, room):
            most_fit = most(1, count - 1, lambda n: self.fits(draw(n, True), room))
            count = balanced(len(entries), most_fit)
            lines = draw(count, True)
        return entries[:count], count < len(entries), lines

    def ask(self, seat: int, count: int, back: bool, prompt: str | None = None) -> int:
        """A number from the menu (0: back), after any number of ``?`` for the legend;
        asked with ``prompt`` (markup: by default "Seat 2, choose 1-5 …")."""
        low = 0 if back else 1
        if prompt is None:
            prompt = self.prompt(seat, count, back, [])
        while True:
            answer = self.console.input(prompt).strip()
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit
            if answer == "?":
                legend = legend_of(self.spec.name, self.render) or _(
                    "This game's screen has no symbols to explain."
                )
                self.console.print(Panel(Text(legend), title=_("Legend"), border_style="dim"))
                continue
            if answer.isascii() and answer.isdigit() and low <= int(answer) <= count:
                return int(answer)
            self.console.print(
                "[red]"
                + _("Please type a number from {low} to {count}.", low=low, count=count)
                + "[/]"
            )


def framed(text: Text, title: str, style: str, compact: bool = False) -> RenderableType:
    """``text`` in a box under ``title``; ``compact``: under a rule of ``title`` (a line
    fewer, and the box's four columns, on a small terminal)."""
    if compact:
        return Group(Rule(title, style=style), text)
    return Panel(text, title=title, border_style=style)


def type_group(action: JSON, view: JSON) -> tuple[str, ...]:
    """The default menu heading of an action: its type (``steal``, ``move`` …)."""
    kind = action.get("type")
    return (_(str(kind).replace("_", " ").capitalize()),) if isinstance(kind, str) else ()
