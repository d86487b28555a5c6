"""Schatz-Rabatz in the terminal: the pool, every chest seen from the side, the hourglass,
the Jack-board and the ship parts; and menu lines for actions.

Each treasure is drawn in its colour with a letter for its shape (``C`` circle, ``H``
hexagon, ``R`` ring, ``P`` pearls, ``G`` goblet, ``S`` sword, ``B`` gold bar, ``K`` crown).
On a console that shows no colour (``NO_COLOR``, rich's ``no_color``, or output that is
no colour terminal) a second letter marks the colour: ``Kr`` a red crown (``COLOUR_MARKS``,
in German ``Kr`` rot, ``Ke`` gelb …).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from typing import Any

from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from thievery.core.i18n import (
    Translator,
    current_language,
    listed,
    localized,
    result_seat,
    screen_seat,
)
from thievery.core.plugin import TerminalRenderer
from thievery.core.protocol import seat_number
from thievery.games.schatz_rabatz.data import (
    SHAPE_WORDS,
    SHAPES,
    board_number,
    column_number,
    part_words,
)

JSON = dict[str, Any]
_ = Translator(__package__)
STYLES = {
    "red": "bold red",
    "blue": "bold blue",
    "green": "bold green",
    "yellow": "bold yellow",
    "purple": "bold magenta",
}
LETTERS = {
    "circle": "C",
    "hexagon": "H",
    "ring": "R",
    "pearls": "P",
    "goblet": "G",
    "sword": "S",
    "goldbar": "B",
    "crown": "K",
}


# The letters that mark a treasure's colour where colour is not shown (see ColourAware).
COLOUR_MARKS = {"red": "r", "blue": "b", "green": "g", "yellow": "y", "purple": "p"}
_colourless: ContextVar[bool] = ContextVar("colourless", default=False)


def shows_no_colour(console: Console) -> bool:
    """Whether ``console`` draws no colour: ``NO_COLOR`` or ``no_color``, or no colour
    system (a file, a dumb terminal)."""
    return console.no_color or console.color_system is None


class ColourAware:
    """A renderable made when it is drawn, knowing whether the console shows colour: on
    one that does not, every treasure marks its colour with a letter as well."""

    def __init__(self, build: Callable[[], RenderableType]) -> None:
        self.build = build

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Any]:
        token = _colourless.set(shows_no_colour(console))
        try:
            made = self.build()
        finally:
            _colourless.reset(token)
        yield made


def treasure_text(treasure: str) -> Text:
    """A treasure as a coloured letter: ``K`` in red for ``crown-red``; ``Kr`` where no
    colour is shown (inside a :class:`ColourAware` drawn on such a console)."""
    shape, colour = treasure.split("-")
    letter = LETTERS[shape]
    if _colourless.get():
        marks = localized(__package__, "COLOUR_MARKS") or COLOUR_MARKS
        letter += str(marks[colour])
    return Text(letter, style=STYLES[colour])


def treasure_words(treasure: str) -> str:
    """A treasure in words, in the current language: ``red crown``, ``blue gold bar``
    (``Krone (rot)``)."""
    shape, colour = treasure.split("-")
    return _("{colour} {shape}", colour=_(colour), shape=_(SHAPE_WORDS.get(shape, shape)))


def seconds(ms: int) -> str:
    """Milliseconds as seconds with one decimal: ``12.3 s`` (German: ``12,3 s``)."""
    text = f"{ms / 1000:.1f} s"
    return text.replace(".", ",") if current_language() == "de" else text


def hourglass_text(view: JSON, bar_width: int = 20) -> Text:
    """The hourglass: time left (a bar of ``bar_width`` cells), waiting for the first lid,
    or the round's state."""
    glass = view["hourglass"]
    if view["phase"] == "over":
        return Text(_("the match is over"), style="bold green")
    if view["phase"] == "scored":
        waiting = [s for s, r in enumerate(view["ready"]) if not r]
        return Text(
            _("round counted — waiting for ready: ")
            + ", ".join(screen_seat(view, s) for s in waiting),
            style="bold",
        )
    if glass["ends_ms"] is None:
        return Text(_("⌛ the hourglass waits for the first lid"), style="cyan")
    left = max(0, glass["ends_ms"] - view["now_ms"])
    total = max(1, glass["length_ms"])
    bar = round(bar_width * left / total)
    style = "bold red" if left < 5000 else "bold cyan"
    return Text(_("⌛ {time} left ", time=seconds(left)), style=style).append(
        "█" * bar + "░" * (bar_width - bar), style=style
    )


def pool_text(pool: Iterable[str], highlight: str | None = None, words: bool = True) -> Text:
    """The shared pool by shape: ``circle C C C  hexagon H H …`` (without ``words``, the
    shapes' letters alone: ``C C C  H H …``)."""
    by_shape: dict[str, list[str]] = {name: [] for name, _ in SHAPES}
    for t in pool:
        by_shape[t.split("-")[0]].append(t)
    out = Text()
    for shape, items in by_shape.items():
        if not items:
            continue
        if out:
            out.append(" ")
        if words:
            out.append(_(SHAPE_WORDS.get(shape, shape)) + " ", style="dim")
        for t in items:
            piece = treasure_text(t)
            if t == highlight:
                piece.stylize("reverse")
            out.append_text(piece).append(" ")
    return out if out else Text(_("(empty)"), style="dim")


def chest_text(
    view: JSON, seat: int, ghost: Iterable[tuple[int, int]] = (), compact: bool = False
) -> Text:
    """A chest seen from the side, top row first, the rim marked, its columns numbered
    beneath as the log and the pick line count them (from 1); ``ghost`` cells (where a
    chosen treasure would rest) drawn as ``░``. ``compact``: the rim unlabelled and the
    column numbers in the bottom line (``└1─2─3─4─5─6─┘``), two lines fewer."""
    width, depth = view["width"], view["depth"]
    grid: dict[tuple[int, int], Text] = {}
    for p in view["chests"][seat]["treasures"]:
        for x, y in p["cells"]:
            grid[(x, y)] = treasure_text(p["id"])
    shadow = set(ghost)
    top = max([depth, *(y + 1 for _, y in grid), *(y + 1 for _, y in shadow)])
    out = Text()
    for y in range(top - 1, -1, -1):
        if y == depth - 1:
            rim = "" if compact else " " + _("rim")
            out.append("╾" + "──" * width + "╼" + rim + "\n", style="dim")
        out.append("│" if y < depth else " ", style="dim")
        for x in range(width):
            if (x, y) in grid:  # (a cell is two wide: "K " in colour, else "Kr")
                cell = grid[(x, y)]
                out.append_text(cell).append(" " * (2 - len(cell)))
            elif (x, y) in shadow:
                out.append("░░", style="bold white")
            else:
                out.append("· " if y < depth else "  ", style="dim")
        out.append("│\n" if y < depth else "\n", style="dim")
    if compact:
        out.append("└" + ruler(width).replace(" ", "─") + "┘", style="dim")
        return out
    out.append("└" + "──" * width + "┘\n", style="dim")
    out.append(" " + ruler(width), style="dim")
    return out


def ruler(width: int) -> str:
    """The column numbers under a chest, each under its column (two characters wide);
    on a chest of 11 columns or more every other one, so that two-digit numbers do not
    run together ("101112").

    >>> ruler(6)
    '1 2 3 4 5 6 '
    >>> ruler(10)
    '1 2 3 4 5 6 7 8 9 10'
    >>> ruler(12)
    '1   3   5   7   9   11  '
    """
    step = 1 if width <= 10 else 2
    numbers = "".join(f"{column_number(x):<{2 * step}}" for x in range(0, width, step))
    return numbers[: 2 * width]


def ship_text(view: JSON, seat: int) -> Text:
    """A seat's ship: ``ship 2/4 ▰▰▱▱`` (parts held of parts needed)."""
    have = {card.rsplit("-", 1)[0] for card in view["ships"][seat]}
    needed = view["ship_parts"]
    held = sum(1 for part in needed if part in have)
    return Text(_("ship {held}/{needed} ", held=held, needed=len(needed))).append_text(
        ship_marks(view, seat)
    )


def ship_marks(view: JSON, seat: int) -> Text:
    """A seat's ship as marks, a part held ``▰``, one still needed ``▱``: ``▰▰▱▱``."""
    have = {card.rsplit("-", 1)[0] for card in view["ships"][seat]}
    out = Text()
    for part in view["ship_parts"]:
        out.append("▰" if part in have else "▱", style="bold green" if part in have else "dim")
    return out


def chest_panel(view: JSON, seat: int, ghost: Iterable[tuple[int, int]] = ()) -> Panel:
    """One seat's chest with its state (a line of its own, so four chests fit side by
    side in 100 columns), its ship, and what came out of it."""
    chest = view["chests"][seat]
    me = view["seat"]
    parts: list[RenderableType] = [
        Text(chest_state(view, seat), style="italic"),
        chest_text(view, seat, ghost),
        ship_text(view, seat),
    ]
    count = len(chest["treasures"])
    parts.append(Text(_("1 treasure") if count == 1 else _("{n} treasures", n=count)))
    parts.extend(piles(view, seat))
    return Panel(
        Group(*parts),
        title=chest_title(view, seat),
        border_style="bold" if seat == me else "dim",
        expand=False,
    )


def chest_title(view: JSON, seat: int) -> str:
    """Whose chest: ``Seat 2``, ``Seat 1 (you)`` (by number alone: four chests share 80
    columns; the lines about the round name the seats in full, "Seat 2 (Casual)")."""
    return _("Seat {n}", n=seat_number(seat)) + (_(" (you)") if seat == view["seat"] else "")


def chest_state(view: JSON, seat: int) -> str:
    """A chest's state: open, closed (when), or after the scoring ready or counting."""
    if view["phase"] == "scored":
        return _("ready") if view["ready"][seat] else _("counting…")
    chest = view["chests"][seat]
    return _("open") if chest["open"] else _("closed at {time}", time=seconds(chest["closed_ms"]))


def piles(view: JSON, seat: int) -> list[Text]:
    """What came out of a chest: the treasures above the rim, those Jack took."""
    out = []
    for label, pile in (("above the rim", view["out"][seat]), ("Jack took", view["jack"][seat])):
        if pile:
            line = Text(f"{_(label)}: ", style="dim")
            for t in pile:
                line.append_text(treasure_text(t)).append(" ")
            out.append(line)
    return out


def compact_chest(view: JSON, seat: int, ghost: Iterable[tuple[int, int]] = ()) -> Group:
    """One seat's chest in few lines, without a frame (four fit side by side in 80
    columns): whose it is and its ship's marks, its state, the chest with the column
    numbers in its bottom line, and what came out of it."""
    title = Text(chest_title(view, seat) + " ", style="bold" if seat == view["seat"] else "")
    return Group(
        title.append_text(ship_marks(view, seat)),
        Text(chest_state(view, seat), style="italic"),
        chest_text(view, seat, ghost, compact=True),
        *piles(view, seat),
    )


def board_text(view: JSON) -> Text | None:
    """The turned Jack-board and what it claims, if one is up."""
    board = view["board"]
    if board is None:
        return None
    out = Text(_("Jack-board {board} claims: ", board=board_number(board["id"])), style="bold")
    for t in board["claims"]:
        out.append_text(treasure_text(t)).append(" ")
    return out


def last_round_text(view: JSON) -> Text | None:
    """The last scoring: counts and the ship parts taken."""
    last = view["last_round"]
    if last is None:
        return None
    counts = ", ".join(
        _("{who}: {c}", who=screen_seat(view, s), c=c) for s, c in enumerate(last["counts"])
    )
    parts = ", ".join(
        _("{who} took {the_part}", who=screen_seat(view, s), the_part=_(f"the {part_words(p)}"))
        for s, p in enumerate(last["parts"])
        if p
    )
    return Text(
        _(
            "Round {round} (Jack-board {board}) — {counts}. {parts}",
            round=last["round"],
            board=board_number(last["board"]),
            counts=counts,
            parts=parts or _("No parts."),
        )
    )


def table(
    view: JSON, ghost: Iterable[tuple[int, int]] = (), compact: bool = False
) -> RenderableType:
    """The whole table as one seat (or a spectator) sees it (its treasures' colours
    marked with letters on a console without colour); ``compact``: in as few lines as
    it can be (for a small terminal: 80×24 holds four chests, see :func:`_compact`)."""
    ghost = list(ghost)
    return ColourAware(lambda: (_compact if compact else _table)(view, ghost))


def _head(view: JSON) -> str:
    return _(
        "round {round} · {phase} · {time}",
        round=view["round"],
        phase=_(view["phase"]),
        time=seconds(view["now_ms"]),
    )


def _seats_in_order(view: JSON) -> list[int]:
    """Every seat, the viewer's first."""
    me, order = view["seat"], list(range(view["players"]))
    return order if me is None else [me, *(s for s in order if s != me)]


def _winners(view: JSON) -> list[RenderableType]:
    """The line that says who won, once a ship is complete."""
    if not view["result"]:
        return []
    winners = listed([result_seat(view, w) for w in view["result"]["winners"]])
    return [Text(_("A ship is complete — winner: {who}", who=winners), style="bold green")]


def _table(view: JSON, ghost: Iterable[tuple[int, int]]) -> RenderableType:
    me = view["seat"]
    parts: list[RenderableType] = [hourglass_text(view)]
    parts.append(Panel(pool_text(view["pool"]), title=_("pool ({n})", n=len(view["pool"]))))
    chests = [chest_panel(view, s, ghost if s == me else ()) for s in _seats_in_order(view)]
    parts.append(Columns(chests, equal=False))
    for extra in (board_text(view), last_round_text(view)):
        if extra is not None:
            parts.append(extra)
    return Panel(Group(*parts, *_winners(view)), title=f"Schatz-Rabatz — {_head(view)}")


def _compact(view: JSON, ghost: Iterable[tuple[int, int]]) -> RenderableType:
    """The table without frames: the round and the hourglass on one line, the pool in
    letters, the chests side by side (:func:`compact_chest`), the Jack-board; the last
    round's line while it is counted (the log has it too), the winner at the end."""
    me = view["seat"]
    head = Text(_head(view) + "  ", style="bold")
    parts: list[RenderableType] = [head.append_text(hourglass_text(view, bar_width=10))]
    pool = Text(_("pool ({n})", n=len(view["pool"])) + ": ", style="bold")
    parts.append(pool.append_text(pool_text(view["pool"], words=False)))
    chests = Table.grid(padding=(0, 2))
    chests.add_row(
        *(compact_chest(view, s, ghost if s == me else ()) for s in _seats_in_order(view))
    )
    parts.append(chests)
    extras = [board_text(view)]
    if view["phase"] != "packing":
        extras.append(last_round_text(view))
    parts.extend(extra for extra in extras if extra is not None)
    return Group(*parts, *_winners(view))


def action(action: JSON, view: JSON) -> str:
    """An action as a menu line."""
    kind = action["type"]
    if kind == "close":
        return _("Close the lid")
    if kind == "ready":
        return _("Ready for the next round")
    if kind == "tick":
        return _("The clock moves to {time}", time=seconds(action["now_ms"]))
    turned = _(", turned {n}", n=action["rotation"]) if action["rotation"] else ""
    return _(
        "Pack the {what}{turned} at column {column}",
        what=treasure_words(action["treasure"]),
        turned=turned,
        column=column_number(action["column"]),
    )


def _live(*args: Any, **kwargs: Any) -> None:
    from thievery.games.schatz_rabatz.live import play_live

    play_live(*args, **kwargs)


LEGEND = """\
Treasures are letters in their colour (red, blue, green, yellow, purple):
C circle  H hexagon  R ring  P pearls  G goblet  S sword  B gold bar  K crown
Without colour (NO_COLOR) a second letter names it: r red, b blue, g green, y yellow,
p purple (Kr: a red crown)
In a chest: ░ where your pick would come to rest; ╾──╼ rim marks the rim (what sticks
out above it is taken out when the lid closes). "hand busy": your next drop waits for
your hand (the hand_ms option)."""

RENDERER = TerminalRenderer(table=table, action=action, live=_live, legend=LEGEND)
