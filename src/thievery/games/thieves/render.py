"""Thieves! in the terminal (imports ``rich``): loot rows, police and getaways, your hand,
the last raid, and menu lines for every action."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from thievery.core.i18n import Translator, listed, result_seat, screen_seat
from thievery.core.plugin import TerminalRenderer
from thievery.core.protocol import seat_number
from thievery.games.thieves.cards import (
    CARD_INDEX,
    CARS,
    FINAL_VALUE,
    KIND,
    KIND_NAMES,
    MONEY,
    POLICE,
    RAID_VALUE,
)

JSON = dict[str, Any]
_ = Translator(__package__)
STYLES = {
    "money": "yellow",
    "police": "bold white on blue",
    "getaway": "bold white on green",
    "roadblock": "bold black on yellow",
    "alarm": "bold white on red",
    "thief": "bold white on magenta",
    "double-loot": "bold black on cyan",
}


def card_name(card: int) -> str:
    """A card in words in the current language: ``Money 2`` (``Geld 2``), ``Diamond Ring``,
    ``Police (2 cars)``, ``Alarm``."""
    kind = KIND[card]
    if card == CARD_INDEX["diamond-ring"]:
        return _("Diamond Ring")
    if card == CARD_INDEX["horseshoe"]:
        return _("Horseshoe")
    if kind == MONEY:
        return _("Money {n}", n=FINAL_VALUE[card])
    if kind == POLICE:
        return _("Police (1 car)") if CARS[card] == 1 else _("Police ({n} cars)", n=CARS[card])
    return _(KIND_WORDS[KIND_NAMES[kind]])


KIND_WORDS = {
    "getaway": "Getaway car",
    "roadblock": "Roadblock",
    "alarm": "Alarm",
    "thief": "Thief",
    "double-loot": "Double Loot",
}


def card_text(card: str) -> Text:
    """A card as coloured text: ``$2``, ``◇ring``, ``♞shoe``, ``🚓1``, ``Alarm``."""
    c = CARD_INDEX[card]
    kind = KIND_NAMES[KIND[c]]
    if card == "diamond-ring":
        label = _("◇Ring")
    elif card == "horseshoe":
        label = _("∩Shoe")
    elif kind == "money":
        label = f"${FINAL_VALUE[c]}"
    elif kind == "police":
        label = f"P{CARS[c]}"
    else:
        label = card_name(c)
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
    text = _("{total} (raid {raid})", total=total, raid=raid)
    return text + (f" +{unknown}?" if unknown else "")


def table(view: JSON) -> RenderableType:
    """A seat's (or the spectator's) view of the table; with ``compact`` set in the view
    (a small terminal: 80×24 holds six seats' board, the log and a menu), in fewer lines:
    under a rule, not in a box, the seats' table without lines, the last raid's seats by
    number and the hand on one line."""
    me = view["seat"]
    compact = bool(view.get("compact"))
    grid = Table(expand=True, box=None if compact else box.HEAVY_HEAD, pad_edge=not compact)
    grid.add_column(_("seat"), no_wrap=True)
    grid.add_column(_("hand"), no_wrap=True)
    grid.add_column(_("loot"), ratio=4, overflow="fold")
    grid.add_column(_("value"), no_wrap=True)
    for s, row in enumerate(view["loot"]):
        marks = (_(" (you)") if s == me else "") + (" ◀" if s == view["current"] else "")
        loot = Text(" ").join(slot_text(slot) for slot in row) if row else Text("—")
        grid.add_row(
            Text(f"{seat_number(s)}{marks}", style="bold" if s == me else ""),
            str(view["hand_sizes"][s]),
            loot,
            loot_value(row),
        )
    if view["police"]:  # ("Police: 3 cars P1 P2"; it said "Police: 0 car(s) none")
        cars = view["cars"]
        status = Text(_("Police: 1 car ") if cars == 1 else _("Police: {n} cars ", n=cars))
        status.append_text(Text(" ").join(card_text(c) for c in view["police"]))
    else:
        status = Text(_("Police: none"))
    status.append(_("   Getaways: {n}/7", n=len(view["getaways"])))
    status.append(
        _(
            "   Deck: {deck}   Discard: {discard}",
            deck=view["deck_size"],
            discard=len(view["discard"]),
        )
    )
    parts: list[RenderableType] = [grid, status]
    raid = view["last_raid"]
    if raid:

        def seat(s: int) -> str:  # (compact: by number, as the seats' table)
            return str(seat_number(s)) if compact else screen_seat(view, s)

        values = ", ".join(_("{who}: {v}", who=seat(s), v=v) for s, v in enumerate(raid["values"]))
        busted = ", ".join(seat(s) for s in raid["busted"]) or _("nobody")
        parts.append(
            Text(_("Last raid — {values}; busted: {who}", values=values, who=busted), style="red")
        )
    if view["pending"] == "remove":
        parts.append(Text(_("Roadblock: pick a police card to remove"), style="bold"))
    elif view["pending"] == "move":
        parts.append(
            Text(_("Thief: move a loot card (▒ = face down, picked blind), or don't"), style="bold")
        )
    elif view["pending"] == "double_loot":
        drawn = view["drawn"]
        parts.append(
            Text(_("Double Loot: play "), style="bold").append_text(card_text(drawn))
            if drawn
            else Text(
                _("Double Loot: {who} plays a drawn card", who=screen_seat(view, view["current"])),
                style="bold",
            )
        )
    if me is not None:
        hand = Text(" ").join(card_text(c) for c in view["hand"]) or Text(_("(empty)"))
        if compact:
            parts.append(Text(_("Your hand") + ": ", style="bold").append_text(hand))
        else:
            parts.append(Panel(hand, title=_("Your hand"), border_style="bold"))
    result = view["result"]
    if result:
        winners = listed([result_seat(view, w) for w in result["winners"]])
        scores = ", ".join(str(v) for v in result["scores"])
        parts.append(
            Text(
                _("Game over — loot {scores}; winner: {who}", scores=scores, who=winners),
                style="bold green",
            )
        )
    if result:
        head = _("turn {turn} · game over", turn=view["turn"])
    else:
        who = screen_seat(view, view["current"])
        head = _("turn {turn} · {who} to play", turn=view["turn"], who=who)
    if compact:
        return Group(Rule(f"Thieves! — {head}", style="bold"), *parts)
    return Panel(Group(*parts), title=f"Thieves! — {head}")


def action(action: JSON, view: JSON) -> str:
    kind = action["type"]
    me = view["seat"]
    if kind == "remove":
        return _("Remove {card} from play", card=card_name(CARD_INDEX[action["card"]]))
    if kind == "pass":
        return _("Don't move anything (decline the Thief's move)")
    if kind == "move":
        what = _slot_name(view, action)
        src = _("you") if action["from"] == me else screen_seat(view, action["from"])
        dst = _("you") if action["to"] == me else screen_seat(view, action["to"])
        return _(
            "Move {what} (slot {slot}) from {src} to {dst}",
            what=what,
            slot=slot_number(action["slot"]),
            src=src,
            dst=dst,
        )
    c = CARD_INDEX[action["card"]]
    name = card_name(c)
    if KIND[c] != MONEY:
        return _("Play {card}", card=name)
    if action["to"] == view["current"]:  # (a card is played by the seat whose turn it is)
        return _("Keep {card} face down", card=name)
    return _("Give {card} face up to {who}", card=name, who=screen_seat(view, action["to"]))


def slot_number(slot: int) -> int:
    """The number players read for a loot slot: the cards of a loot row count from 1, from
    the left, as the legend says; actions keep the 0-based slot.

    >>> slot_number(0)
    1
    """
    return slot + 1


def _slot_name(view: JSON, action: JSON) -> str:
    """The loot card a Thief's move takes: its name, or "a face-down card"."""
    slot = view["loot"][action["from"]][action["slot"]]
    return card_name(CARD_INDEX[slot["card"]]) if slot["card"] else _("a face-down card")


def group(action: JSON, view: JSON) -> tuple[str, ...]:
    """Menu headings: a money card's plays under the card, the Thief's moves under the
    seat they take from and then the card."""
    kind = action["type"]
    me = view["seat"]
    if kind == "move":
        src = (
            _("your loot")
            if action["from"] == me
            else _("{who}'s loot", who=screen_seat(view, action["from"]))
        )
        what = _slot_name(view, action)
        return (
            _("Move a card from {src}", src=src),
            _("Move {what} (slot {slot})", what=what, slot=slot_number(action["slot"])),
        )
    if kind == "play" and KIND[CARD_INDEX[action["card"]]] == MONEY:
        return (_("Play {card}", card=card_name(CARD_INDEX[action["card"]])),)
    if kind == "remove":
        return (_("Remove a police card"),)
    return ()


LEGEND = """\
$3      a money card worth 3; in a loot row [$3] is face down but known to you, ▒ face
        down and unknown (its value is counted as "+1?" in the value column)
◇Ring   Diamond Ring (worth 1 at the end, 3 in a raid); ∩Shoe Horseshoe (3 at the end, 1
        in a raid)
P1 P2   police cards with 1 or 2 cars; "Police: 3 cars" counts the cars in play
(you)   your own seat; ◀ the seat whose turn it is
slot 2  in the Thief's moves: the 2nd card of a loot row, counted from the left
value   what you can count of a loot row: "7 (raid 5)" its value at the end and in a
        raid, "+2?" cards you cannot see
Getaways 3/7   getaway cards played; the 7th ends the game"""

RENDERER = TerminalRenderer(table=table, action=action, legend=LEGEND, group=group)
