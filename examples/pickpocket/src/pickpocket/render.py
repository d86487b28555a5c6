"""Pickpocket in the terminal: every vault (stolen cards face up, banked ones hidden unless
they are yours), hand sizes, the deck, your hand, and a menu line for every action.

Thievery imports this module only when a terminal needs it (the descriptor names it as
``"pickpocket.render:RENDERER"``), so ``rich`` stays off the rules' import path.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from thievery.core.plugin import TerminalRenderer
from thievery.core.protocol import seat_number

from pickpocket.cards import CARD_INDEX, describe_card, value_of

JSON = dict[str, Any]


def card_text(card_id: str, face_up: bool = True) -> Text:
    """A card as coloured text: ``P7`` for a purse, ``W7`` for a watch; a card banked face
    down (that the viewer may see) in brackets."""
    label = f"{card_id[0].upper()}{value_of(card_id)}"
    text = Text(label, style="bold yellow" if card_id.startswith("purse") else "bold cyan")
    return text if face_up else Text("[").append_text(text).append("]")


def vault_text(vault: list[JSON]) -> Text:
    """A vault's slots: visible cards, ``▒`` for a banked card the viewer cannot see."""
    if not vault:
        return Text("—", style="dim")
    parts = [
        card_text(s["card"], s["face_up"]) if s["card"] else Text("▒", style="dim") for s in vault
    ]
    return Text(" ").join(parts)


def known_total(vault: list[JSON]) -> str:
    """What the viewer can count of a vault: ``12`` or ``7 +2?``."""
    total = sum(value_of(s["card"]) for s in vault if s["card"])
    hidden = sum(1 for s in vault if s["card"] is None)
    return f"{total}" + (f" +{hidden}?" if hidden else "")


def table(view: JSON) -> RenderableType:
    """The whole table as ``view`` shows it."""
    me = view["seat"]
    grid = Table(expand=True)
    for column in ("seat", "hand", "vault", "total"):
        grid.add_column(column)
    for s, vault in enumerate(view["vaults"]):
        marks = (" (you)" if s == me else "") + (" ◀" if s == view["current"] else "")
        grid.add_row(
            Text(f"{seat_number(s)}{marks}", style="bold" if s == me else ""),
            str(view["hand_sizes"][s]),
            vault_text(vault),
            known_total(vault),
        )
    parts: list[RenderableType] = [grid, Text(f"Deck: {view['deck_size']} card(s)")]
    if me is not None:
        hand = Text(" ").join(card_text(c) for c in view["hand"]) or Text("(empty)")
        parts.append(Panel(hand, title="Your hand", border_style="bold"))
    result = view["result"]
    if result:
        winners = ", ".join(f"Seat {seat_number(w)}" for w in result["winners"])
        scores = ", ".join(str(v) for v in result["scores"])
        parts.append(Text(f"Game over — vaults {scores}; winner: {winners}", style="bold green"))
    return Panel(Group(*parts), title=f"Pickpocket — round {view['round']} of {view['rounds']}")


def action(action: JSON, view: JSON) -> str:
    """One legal action as a menu line."""
    if action["type"] == "bank":
        return f"Bank {describe_card(CARD_INDEX[action['card']])} face down"
    if action["type"] == "pick":
        t = action["target"]
        return f"Pick Seat {seat_number(t)}'s pocket ({view['hand_sizes'][t]} card(s) in hand)"
    return "Pass"


RENDERER = TerminalRenderer(table=table, action=action)
