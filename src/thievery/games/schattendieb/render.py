"""Der Schattendieb in the terminal (imports ``rich``): the table, every safe, your hand,
and menu lines."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from thievery.core.plugin import TerminalRenderer
from thievery.games.schattendieb.cards import CARD_INDEX, describe_card

JSON = dict[str, Any]
COLOURS = {
    "brooch": "magenta",
    "ring": "yellow",
    "watch": "cyan",
    "cufflink": "green",
    "close": "bold white on blue",
    "thief": "bold white on red",
}
SYMBOLS = {"brooch": "✿", "ring": "○", "watch": "◷", "cufflink": "◆"}


def card_text(card: str) -> Text:
    """A card as coloured text: ``○6`` for Ring 6, ``⊠12`` for Close Safe 12, ``☠shadow``."""
    kind, rest = card.split("-", 1)
    if kind in SYMBOLS:
        value = rest.rstrip("ab")
        return Text(f"{SYMBOLS[kind]}{value}", style=COLOURS[kind])
    if kind == "close":
        return Text(f"⊠{rest.rstrip('ab')}", style=COLOURS[kind])
    return Text(f"☠{rest}", style=COLOURS[kind])


def cards_text(cards: list[str]) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c))
    return out


def safe_total(cards: list[str]) -> int:
    return sum(int(c.split("-")[1].rstrip("ab")) for c in cards)


def table(view: JSON) -> RenderableType:
    me = view["seat"]
    n = view["players"]
    grid = Table(expand=True, show_lines=False)
    for col in ("seat", "status", "hand", "this round", "safe", "n/sum", "match"):
        grid.add_column(
            col,
            ratio=4 if col == "safe" else None,
            overflow="fold",
            no_wrap=col not in ("safe", "this round"),
        )
    for s in range(n):
        closed = view["closed"][s]
        status = (
            Text("closed ", style="bold blue").append_text(card_text(closed))
            if closed
            else Text("open")
        )
        if view["phase"] == "play":
            now = Text("chose ✓" if view["chosen"][s] else ("…" if s in view["to_act"] else ""))
            if s == me and view["my_choice"]:
                now = Text("you: ").append_text(card_text(view["my_choice"]))
        else:
            revealed = view["revealed"][s]
            now = card_text(revealed) if revealed else Text("")
            if view["front"][s]:
                now.append(" → ").append_text(cards_text(view["front"][s]))
            if view["phase"] == "add" and s in view["to_act"]:
                now.append(" adding…", style="italic")
        name = Text(
            f"{s}" + (" (you)" if s == me else "") + (" D" if s == view["dealer"] else ""),
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
    head = (
        f"Game {view['game_no']} of {view['games']} · round {view['round']} · "
        f"step: {view['phase']} · draw pile {view['pile_size']} · "
        f"discard {view['discard_size']}"
    )
    parts: list[RenderableType] = [grid]
    if me is not None:
        hand = cards_text(view["hand"]) if view["hand"] else Text("(empty)")
        if view["my_adds"]:
            hand.append("   adding: ").append_text(cards_text(view["my_adds"]))
        parts.append(Panel(hand, title="Your hand", border_style="bold"))
    if view["result"]:
        winners = ", ".join(f"seat {w}" for w in view["result"]["winners"])
        parts.append(Text(f"Match over — winner: {winners}", style="bold green"))
    return Panel(Group(*parts), title=f"Der Schattendieb — {head}")


def action(action: JSON, view: JSON) -> str:
    kind = action["type"]
    if kind == "done":
        return "Done adding" if can_add(view) else _nothing_to_add(view)
    card = describe_card(CARD_INDEX[action["card"]])
    if kind == "steal":
        owner = next((s for s, f in enumerate(view["front"]) if action["card"] in f), None)
        return f"Steal {card}" + (f" from seat {owner}" if owner is not None else "")
    if kind == "add":
        return f"Add {card}"
    if card.startswith("Close Safe"):
        n = len(view["safes"][view["seat"]])
        value = int(card.split()[-1])
        works = 1 <= n <= value
        return f"Play {card} ({'closes' if works else 'cannot close'}: {n} cards in your safe)"
    return f"Play {card}"


def can_add(view: JSON) -> bool:
    """Whether the viewing seat holds jewellery of the kind it may add in step 4."""
    seat = view["seat"]
    kind = view["add_kinds"][seat] if seat is not None else None
    return any(c.split("-", 1)[0] == kind for c in view["hand"])


def _nothing_to_add(view: JSON) -> str:
    """Step 4's one choice for a seat that holds no jewellery of its kind."""
    kind = view["add_kinds"][view["seat"]]
    return f"Nothing to add (you hold no {str(kind).capitalize()})"


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
