"""Thieves! in the terminal (imports ``rich``): loot rows, police and getaways, your hand,
the last raid, and menu lines for every action."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from thievery.core.plugin import TerminalRenderer
from thievery.games.thieves.cards import (
    CARD_INDEX,
    CARS,
    FINAL_VALUE,
    KIND,
    KIND_NAMES,
    MONEY,
    RAID_VALUE,
    describe_card,
)

JSON = dict[str, Any]
STYLES = {
    "money": "yellow",
    "police": "bold white on blue",
    "getaway": "bold white on green",
    "roadblock": "bold black on yellow",
    "alarm": "bold white on red",
    "thief": "bold white on magenta",
    "double-loot": "bold black on cyan",
}


def card_text(card: str) -> Text:
    """A card as coloured text: ``$2``, ``◇ring``, ``♞shoe``, ``🚓1``, ``Alarm``."""
    c = CARD_INDEX[card]
    kind = KIND_NAMES[KIND[c]]
    if card == "diamond-ring":
        label = "◇Ring"
    elif card == "horseshoe":
        label = "∩Shoe"
    elif kind == "money":
        label = f"${FINAL_VALUE[c]}"
    elif kind == "police":
        label = f"P{CARS[c]}"
    else:
        label = describe_card(c)
    return Text(label, style=STYLES[kind])


def slot_text(slot: JSON) -> Text:
    """One loot slot: the card if known, ``▒`` if face down and unknown; face-down
    cards the viewer knows are shown in brackets."""
    if slot["card"] is None:
        return Text("▒", style="dim")
    text = card_text(slot["card"])
    if not slot["face_up"]:
        return Text("[").append_text(text).append("]")
    return text


def loot_value(row: list[JSON]) -> str:
    """What the viewer can count of a loot row: ``5`` or ``≥3 +2?``."""
    known = [CARD_INDEX[s["card"]] for s in row if s["card"] is not None]
    unknown = len(row) - len(known)
    total = sum(FINAL_VALUE[c] for c in known)
    raid = sum(RAID_VALUE[c] for c in known)
    text = f"{total} (raid {raid})"
    return text + (f" +{unknown}?" if unknown else "")


def table(view: JSON) -> RenderableType:
    me = view["seat"]
    grid = Table(expand=True)
    grid.add_column("seat", no_wrap=True)
    grid.add_column("hand", no_wrap=True)
    grid.add_column("loot", ratio=4, overflow="fold")
    grid.add_column("value", no_wrap=True)
    for s, row in enumerate(view["loot"]):
        marks = (" (you)" if s == me else "") + (" ◀" if s == view["current"] else "")
        loot = Text(" ").join(slot_text(slot) for slot in row) if row else Text("—")
        grid.add_row(
            Text(f"{s}{marks}", style="bold" if s == me else ""),
            str(view["hand_sizes"][s]),
            loot,
            loot_value(row),
        )
    police = Text(" ").join(card_text(c) for c in view["police"]) or Text("none")
    status = Text(f"Police: {view['cars']} car(s) ").append_text(police)
    status.append(f"   Getaways: {len(view['getaways'])}/7")
    status.append(f"   Deck: {view['deck_size']}   Discard: {len(view['discard'])}")
    parts: list[RenderableType] = [grid, status]
    raid = view["last_raid"]
    if raid:
        values = ", ".join(f"seat {s}: {v}" for s, v in enumerate(raid["values"]))
        busted = ", ".join(f"seat {s}" for s in raid["busted"]) or "nobody"
        parts.append(Text(f"Last raid — {values}; busted: {busted}", style="red"))
    if view["pending"] == "remove":
        parts.append(Text("Roadblock: pick a police card to remove", style="bold"))
    elif view["pending"] == "move":
        parts.append(
            Text("Thief: move a loot card (▒ = face down, picked blind), or don't", style="bold")
        )
    elif view["pending"] == "double_loot":
        drawn = view["drawn"]
        parts.append(
            Text("Double Loot: play ", style="bold").append_text(card_text(drawn))
            if drawn
            else Text(f"Double Loot: seat {view['current']} plays a drawn card", style="bold")
        )
    if me is not None:
        hand = Text(" ").join(card_text(c) for c in view["hand"]) or Text("(empty)")
        parts.append(Panel(hand, title="Your hand", border_style="bold"))
    result = view["result"]
    if result:
        winners = ", ".join(f"seat {w}" for w in result["winners"])
        scores = ", ".join(str(v) for v in result["scores"])
        parts.append(Text(f"Game over — loot {scores}; winner: {winners}", style="bold green"))
    head = f"turn {view['turn']} · seat {view['current']} to play"
    return Panel(Group(*parts), title=f"Thieves! — {head}")


def action(action: JSON, view: JSON) -> str:
    kind = action["type"]
    me = view["seat"]
    if kind == "remove":
        return f"Remove {describe_card(CARD_INDEX[action['card']])} from play"
    if kind == "pass":
        return "Don't move anything (decline the Thief's move)"
    if kind == "move":
        slot = view["loot"][action["from"]][action["slot"]]
        what = describe_card(CARD_INDEX[slot["card"]]) if slot["card"] else "a face-down card"
        src = "you" if action["from"] == me else f"seat {action['from']}"
        dst = "you" if action["to"] == me else f"seat {action['to']}"
        return f"Move {what} (slot {action['slot']}) from {src} to {dst}"
    c = CARD_INDEX[action["card"]]
    name = describe_card(c)
    if KIND[c] != MONEY:
        return f"Play {name}"
    if action["to"] == me:
        return f"Keep {name} face down"
    return f"Give {name} face up to seat {action['to']}"


def group(action: JSON, view: JSON) -> tuple[str, ...]:
    """Menu headings: a money card's plays under the card, the Thief's moves under the
    seat they take from and then the card."""
    kind = action["type"]
    me = view["seat"]
    if kind == "move":
        src = "your loot" if action["from"] == me else f"seat {action['from']}'s loot"
        slot = view["loot"][action["from"]][action["slot"]]
        what = describe_card(CARD_INDEX[slot["card"]]) if slot["card"] else "a face-down card"
        return (f"Move a card from {src}", f"Move {what} (slot {action['slot']})")
    if kind == "play" and KIND[CARD_INDEX[action["card"]]] == MONEY:
        return (f"Play {describe_card(CARD_INDEX[action['card']])}",)
    if kind == "remove":
        return ("Remove a police card",)
    return ()


LEGEND = """\
$3      a money card worth 3; in a loot row [$3] is face down but known to you, ▒ face
        down and unknown (its value is counted as "+1?" in the value column)
◇Ring   Diamond Ring (worth 1 at the end, 3 in a raid); ∩Shoe Horseshoe (3 at the end, 1
        in a raid)
P1 P2   police cards with 1 or 2 cars; "Police: 3 car(s)" counts the cars in play
(you)   your own seat; ◀ the seat whose turn it is
value   what you can count of a loot row: "7 (raid 5)" its value at the end and in a
        raid, "+2?" cards you cannot see
Getaways 3/7   getaway cards played; the 7th ends the game"""

RENDERER = TerminalRenderer(table=table, action=action, legend=LEGEND, group=group)
