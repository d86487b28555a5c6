"""Der Schattendieb in the terminal (imports ``rich``): the table, every safe, your hand,
and menu lines."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from thievery.core.i18n import Translator, listed, result_seat, screen_seat
from thievery.core.plugin import TerminalRenderer
from thievery.core.protocol import seat_number

JSON = dict[str, Any]
_ = Translator(__package__)
COLOURS = {
    "brooch": "magenta",
    "ring": "yellow",
    "watch": "cyan",
    "cufflink": "green",
    "close": "bold white on blue",
    "thief": "bold white on red",
}
SYMBOLS = {"brooch": "✿", "ring": "○", "watch": "◷", "cufflink": "◆"}


def _number(rest: str) -> str:
    """A card id's value: ``6`` of ``6a``, ``4`` of ``4c`` (the copies' letters run a, b,
    c, … as far as a components file gives copies of one value)."""
    return rest.rstrip("abcdefghijklmnopqrstuvwxyz")


def card_text(card: str) -> Text:
    """A card as coloured text: ``○6`` for Ring 6, ``⊠12`` for Close Safe 12, ``☠shadow``."""
    kind, rest = card.split("-", 1)
    if kind in SYMBOLS:
        return Text(f"{SYMBOLS[kind]}{_number(rest)}", style=COLOURS[kind])
    if kind == "close":
        return Text(f"⊠{_number(rest)}", style=COLOURS[kind])
    return Text(f"☠{_(rest)}", style=COLOURS[kind])


KIND_NAMES = {"brooch": "Brooch", "ring": "Ring", "watch": "Watch", "cufflink": "Cufflink"}
THIEF_NAMES = {
    "shadow": "Shadow Thief",
    "brooch": "Brooch Thief",
    "ring": "Ring Thief",
    "watch": "Watch Thief",
    "cufflink": "Cufflink Thief",
}
PHASES = {"play": "play", "steal": "steal", "add": "add", "over": "over"}


def kind_name(kind: str) -> str:
    """A jewellery kind in the current language: ``Ring``, ``Brosche``."""
    return _(KIND_NAMES[kind]) if kind in KIND_NAMES else kind.capitalize()


def card_name(card: str) -> str:
    """A card in words in the current language: ``Ring 6``, ``Close Safe 12`` (``Tresor
    zu 12``), ``Shadow Thief`` (``Schattendieb``)."""
    kind, rest = card.split("-", 1)
    if kind == "thief":
        return _(THIEF_NAMES[rest])
    value = _number(rest)
    if kind == "close":
        return _("Close Safe {n}", n=value)
    return f"{kind_name(kind)} {value}"


def cards_text(cards: list[str]) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c))
    return out


def safe_total(cards: list[str]) -> int:
    return sum(int(_number(c.split("-")[1])) for c in cards)


def table(view: JSON) -> RenderableType:
    """A seat's (or the spectator's) view of the table; with ``compact`` set in the view
    (a small terminal: 80×24 holds seven seats' board, the log and a menu), in fewer
    lines: under a rule, not in a box, the seats' table without lines and the hand on
    one line."""
    me = view["seat"]
    n = view["players"]
    compact = bool(view.get("compact"))
    grid = Table(
        expand=True, show_lines=False, box=None if compact else box.HEAVY_HEAD, pad_edge=not compact
    )
    for col in ("seat", "status", "hand", "this round", "safe", "n/sum", "match"):
        grid.add_column(
            _(col),
            ratio=4 if col == "safe" else None,
            overflow="fold",
            no_wrap=col not in ("safe", "this round"),
        )
    for s in range(n):
        closed = view["closed"][s]
        status = (
            Text(_("closed") + " ", style="bold blue").append_text(card_text(closed))
            if closed
            else Text(_("open"))
        )
        if view["phase"] == "play":
            now = Text(_("chose ✓") if view["chosen"][s] else ("…" if s in view["to_act"] else ""))
            if s == me and view["my_choice"]:
                now = Text(_("you: ")).append_text(card_text(view["my_choice"]))
        else:
            revealed = view["revealed"][s]
            now = card_text(revealed) if revealed else Text("")
            if view["front"][s]:
                now.append(" → ").append_text(cards_text(view["front"][s]))
            if view["phase"] == "add" and s in view["to_act"]:
                now.append(_(" adding…"), style="italic")
        name = Text(
            f"{seat_number(s)}"
            + (_(" (you)") if s == me else "")
            + (_(" D") if s == view["dealer"] else ""),
            style="bold" if s == me else "",
        )
        safe = view["safes"][s]
        grid.add_row(
            name,
            status,
            str(view["hand_sizes"][s]),
            now,
            cards_text(safe),
            f"{len(safe)}/{safe_total(safe)}",
            str(view["scores"][s]),
        )
    words = {
        "game": view["game_no"],
        "games": view["games"],
        "round": view["round"],
        "phase": _(PHASES.get(view["phase"]) or str(view["phase"])),
        "pile": view["pile_size"],
        "discard": view["discard_size"],
    }
    head = _(
        "Game {game} of {games} · round {round} · step: {phase} · draw pile {pile} · "
        "discard {discard}",
        **words,
    )
    short = _(
        "Game {game}/{games} · round {round} · {phase} · pile {pile} · discard {discard}", **words
    )
    parts: list[RenderableType] = [grid]
    if me is not None:
        hand = cards_text(view["hand"]) if view["hand"] else Text(_("(empty)"))
        if view["my_adds"]:
            hand.append(_("   adding: ")).append_text(cards_text(view["my_adds"]))
        if compact:
            parts.append(Text(_("Your hand") + ": ", style="bold").append_text(hand))
        else:
            parts.append(Panel(hand, title=_("Your hand"), border_style="bold"))
    if view["result"]:
        winners = listed([result_seat(view, w) for w in view["result"]["winners"]])
        parts.append(Text(_("Match over — winner: {who}", who=winners), style="bold green"))
    titles = [f"Der Schattendieb — {head}", f"Der Schattendieb — {short}", short]
    return FittedTitle(Group(*parts), titles, compact)


class FittedTitle:
    """The board's panel under the first of ``titles`` that fits its top line whole (an
    80-column terminal cut "… · draw pile 64 · dis"), else under the last; ``compact``:
    under a rule of that title, not in a box."""

    def __init__(self, body: RenderableType, titles: Sequence[str], compact: bool = False) -> None:
        self.body, self.titles, self.compact = body, titles, compact

    def __rich_console__(
        self, console: Console, options: ConsoleOptions
    ) -> Iterator[RenderableType]:
        room = options.max_width - 6  # (the corners, a rule and a space each side)
        title = next((t for t in self.titles if cell_len(t) <= room), self.titles[-1])
        if self.compact:
            yield Rule(title, style="bold")
            yield self.body
        else:
            yield Panel(self.body, title=title)


def action(action: JSON, view: JSON) -> str:
    kind = action["type"]
    if kind == "done":
        return _("Done adding") if can_add(view) else _nothing_to_add(view)
    card = card_name(action["card"])
    if kind == "steal":
        owner = next((s for s, f in enumerate(view["front"]) if action["card"] in f), None)
        if owner is None:
            return _("Steal {card}", card=card)
        return _("Steal {card} from {who}", card=card, who=screen_seat(view, owner))
    if kind == "add":
        return _("Add {card}", card=card)
    if action["card"].startswith("close-"):
        n = len(view["safes"][view["seat"]])
        value = int(_number(action["card"].split("-")[1]))
        works = 1 <= n <= value
        if works and n == 1:  # (it cannot fail to close one card: 1 <= n <= value)
            return _("Play {card} (closes: 1 card in your safe)", card=card)
        return _(
            "Play {card} (closes: {n} cards in your safe)"
            if works
            else "Play {card} (cannot close: {n} cards in your safe)",
            card=card,
            n=n,
        )
    return _("Play {card}", card=card)


def can_add(view: JSON) -> bool:
    """Whether the viewing seat holds jewellery of the kind it may add in step 4."""
    seat = view["seat"]
    kind = view["add_kinds"][seat] if seat is not None else None
    return any(c.split("-", 1)[0] == kind for c in view["hand"])


def _nothing_to_add(view: JSON) -> str:
    """Step 4's one choice for a seat that holds no jewellery of its kind."""
    kind = view["add_kinds"][view["seat"]]
    return _("Nothing to add (you hold no {kind})", kind=kind_name(str(kind)))


LEGEND = """\
✿6 ○6 ◷6 ◆6   jewellery: Brooch, Ring, Watch, Cufflink, with its value
⊠12            a Close Safe card: it closes your safe if the safe holds 1 to 12 cards
☠shadow        a Thief card (the Shadow Thief or a specialist thief)
(you) D        your own seat; the dealer
status         open, or closed with the Close Safe card that closed it
this round     chose ✓: the seat has chosen its card this round, … it is still choosing;
               then the revealed card → the jewellery in front of the seat
n/sum          how many cards are in the safe, and their total value
match          the scores of the games played so far"""

RENDERER = TerminalRenderer(table=table, action=action, legend=LEGEND)
