"""Thieves Den in the terminal: the board, every player's board, your Scheme and hand, and
menu lines that say what each action will do."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from thievery.core.plugin import TerminalRenderer
from thievery.games.thieves_den.cards import (
    FENCE_TYPES,
    LOCATION_TYPES,
    TREASURES,
    CardSet,
    load_card_set,
)

JSON = dict[str, Any]
SYMBOL = {"tome": "📖", "jewel": "💎", "artifact": "🏺", "fossil": "🦴", "potion": "🧪"}
LETTER = {"tome": "T", "jewel": "J", "artifact": "A", "fossil": "F", "potion": "P"}
COLOUR = {
    "tome": "blue",
    "jewel": "magenta",
    "artifact": "yellow",
    "fossil": "white",
    "potion": "green",
}
TYPE_COLOUR = {
    "village": "green",
    "shadow": "magenta",
    "ruins": "yellow",
    "holy": "cyan",
    "city": "red",
}


def cards_of(view: JSON) -> CardSet:
    """The card set a view's game uses."""
    return load_card_set(view["options"].get("cards"))


def treasure_text(counts: dict[str, int]) -> Text:
    """Treasure counts as coloured letters: ``J2 T1``."""
    out = Text()
    for t in TREASURES:
        if counts.get(t):
            if out:
                out.append(" ")
            out.append(f"{LETTER[t]}{counts[t]}", style=COLOUR[t])
    return out or Text("—", style="dim")


def desires_text(cs: CardSet, f: int) -> str:
    """A Fence's desires: ``2 jewel + 1 tome``."""
    desire = cs.fence_desire[f]
    return " + ".join(f"{desire[t]} {TREASURES[t]}" for t in range(5) if desire[t])


def fence_text(cs: CardSet, card: str) -> Text:
    """A Fence in short: ``Inventor (Tinkerer) T A F P → 11★``, its desires as treasure
    letters."""
    f = cs.fence_index[card]
    desire = cs.fence_desire[f]
    out = Text(f"{cs.fence_name[f]} ({FENCE_TYPES[cs.fence_type[f]].capitalize()}) ")
    for t in range(5):
        for _ in range(desire[t]):
            out.append(LETTER[TREASURES[t]], style=COLOUR[TREASURES[t]]).append(" ")
    out.append(f"→ {cs.fence_prestige[f]}★")
    return out


def location_text(cs: CardSet, card: str, thieves: int | None = None) -> Text:
    """A Location card's name in its type's colour, with thieves on it."""
    c = cs.loc_index[card]
    kind = LOCATION_TYPES[cs.loc_type[c]]
    out = Text(cs.loc_name[c], style=TYPE_COLOUR[kind])
    if thieves:
        out.append(" " + "☻" * thieves, style="bold red")
    return out


def describe_location(cs: CardSet, card: str) -> str:
    """Name, type and what it does."""
    c = cs.loc_index[card]
    kind = LOCATION_TYPES[cs.loc_type[c]].capitalize()
    timing = "instant" if cs.loc_instant[c] else f"owner bonus: {cs.loc_bonus_text[c]}"
    return f"{cs.loc_name[c]} ({kind}) — {cs.loc_text[c]} [{timing}]"


def describe_fence(cs: CardSet, card: str) -> str:
    """Name, type, desires and Prestige."""
    f = cs.fence_index[card]
    kind = FENCE_TYPES[cs.fence_type[f]].capitalize()
    return f"{cs.fence_name[f]} ({kind}): {desires_text(cs, f)} → {cs.fence_prestige[f]} Prestige"


def _board(cs: CardSet, view: JSON) -> RenderableType:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    fences = Table.grid(padding=(0, 3))
    row = [fence_text(cs, c) if c else Text("(empty slot)", style="dim") for c in view["fence_row"]]
    for i in range(0, len(row), 2):
        fences.add_row(*row[i : i + 2])
    grid.add_row("Fences", fences)
    powers = Text()
    for i, p in enumerate(view["powers"]):
        if i:
            powers.append("\n")
        if p["tile"] is None:
            powers.append("(no tile)", style="dim")
            continue
        k = cs.power_index[p["tile"]]
        powers.append(f"{cs.power_name[k]}: {cs.power_text[k]}")
        if p["paid"]:
            powers.append(f"  [used: {p['paid']}]", style="dim")
    grid.add_row("Power tiles", powers)
    witch = Text()
    for t in TREASURES:
        taken = view["witch"][t]
        witch.append(
            f"{LETTER[t]}→{cs.witch[TREASURES.index(t)]} ",
            style="dim strike" if taken else COLOUR[t],
        )
    grid.add_row("Witch", witch)
    grid.add_row(
        "Burgle / Recruit",
        Text(f"{view['burgle']} thieves / ").append_text(treasure_text(view["recruit"])),
    )
    supply = treasure_text(view["supply"]["treasures"])
    supply.append(f"  thieves {view['supply']['thieves']}")
    supply.append(f"   decks: Locations {view['location_deck']}, Fences {view['fence_deck']}")
    grid.add_row("Supply", supply)
    if view["neutral"]:
        neutral = Text(", ").join(
            location_text(cs, x["card"], x["thieves"]) for x in view["neutral"]
        )
        grid.add_row("Neutral", neutral)
    return grid


def _players(cs: CardSet, view: JSON) -> RenderableType:
    me = view["seat"]
    grid = Table(expand=True, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for col in ("seat", "★", "treasures", "thieves", "Locations (this round)", "collected"):
        grid.add_column(col, overflow="fold", ratio=3 if col.startswith("Loc") else None)
    for s, x in enumerate(view["seats"]):
        name = f"{s}" + (" (you)" if s == me else "") + (" ◆" if s == view["holder"] else "")
        if x["passed"]:
            name += " passed"
        elif s in view["to_act"]:
            name += " …"
        locations = Text(", ").join(
            location_text(cs, y["card"], y["thieves"]) for y in x["locations"]
        )
        if x["fences"]:
            locations.append(
                "  fences: " + ", ".join(_fence_name(cs, y["card"]) for y in x["fences"])
            )
        counts = [0] * len(LOCATION_TYPES)
        for c in x["collected"]:
            counts[cs.loc_type[cs.loc_index[c]]] += 1
        kinds = [0] * len(FENCE_TYPES)
        for f in x["fences_collected"]:
            kinds[cs.fence_type[cs.fence_index[f]]] += 1
        collected = " ".join(f"{LOCATION_TYPES[k][:3]}{n}" for k, n in enumerate(counts) if n)
        fences = " ".join(f"{FENCE_TYPES[k][:3]}{n}" for k, n in enumerate(kinds) if n)
        grid.add_row(
            Text(name, style="bold" if s == me else ""),
            str(x["prestige"]),
            treasure_text(x["treasures"]),
            str(x["thieves"]),
            locations,
            f"{collected or '—'} | {fences or '—'}",
        )
    return grid


def _fence_name(cs: CardSet, card: str) -> str:
    return cs.fence_name[cs.fence_index[card]]


def _mine(cs: CardSet, view: JSON) -> RenderableType:
    me = view["seats"][view["seat"]]
    lines = Text()
    if me["scheme"]:
        k = cs.scheme_index[me["scheme"]]
        a, b = (LOCATION_TYPES[t] for t in cs.scheme_types[k])
        counts = [0] * len(LOCATION_TYPES)
        for c in me["collected"] + [y["card"] for y in me["locations"]]:
            counts[cs.loc_type[cs.loc_index[c]]] += 1
        sets = min(counts[cs.scheme_types[k][0]], counts[cs.scheme_types[k][1]])
        lines.append(
            f"Scheme: {a} + {b}, {cs.scheme_prestige[k]} Prestige per set "
            f"(you have {sets} set{'s' if sets != 1 else ''} so far)\n",
            style="bold",
        )
    if view["hand"]:
        lines.append("Hand:\n")
        for c in view["hand"]:
            lines.append("  • " + describe_location(cs, c) + "\n")
    if view["my_pick"]:
        lines.append("You keep: " + describe_location(cs, view["my_pick"]) + "\n")
    lines.append(f"Now: {view['decision']}", style="italic")
    return Group(Rule("You", style="bold"), lines)


def table(view: JSON) -> RenderableType:
    """A seat's (or the spectator's) view of the table."""
    cs = cards_of(view)
    label = " (UNOFFICIAL cards)" if view["unofficial"] else ""
    head = (
        f"round {view['round']} of 3 · {view['phase']} · {view['direction']} · "
        f"{view['card_set']}{label}"
    )
    parts: list[RenderableType] = [_board(cs, view), _players(cs, view)]
    if view["seat"] is not None:
        parts.append(_mine(cs, view))
    if view["result"]:
        final = view["final"] or {}
        schemes = "; ".join(
            f"seat {s}: {x['scheme']} ×{x['sets']} (+{x['prestige']})"
            for s, x in enumerate(final.get("schemes", []))
        )
        major = ", ".join(
            f"{k} → seat {w}" for k, w in final.get("majorities", {}).items() if w is not None
        )
        winners = ", ".join(f"seat {w}" for w in view["result"]["winners"])
        parts.append(
            Text(
                f"Game over — winner: {winners}\nMajorities: {major or 'none'}\nSchemes: {schemes}",
                style="bold green",
            )
        )
    return Panel(Group(*parts), title=f"Thieves Den — {head}")


def a(word: str) -> str:
    """``word`` with its indefinite article: ``a tome``, ``an artifact``."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _bonus(cs: CardSet, c: int) -> str:
    text = cs.loc_bonus_text[c]
    return text.removeprefix("Take ").replace(", then take ", " and ")


def _owner(view: JSON, card: str) -> int | None:
    for s, x in enumerate(view["seats"]):
        if any(y["card"] == card for y in x["locations"]):
            return s
    return None


def action(action: JSON, view: JSON) -> str:
    """One menu line: what choosing ``action`` will do."""
    cs = cards_of(view)
    kind = action["type"]
    me = view["seat"]
    top = view["stack"][-1] if view["stack"] else None
    if kind == "pick":
        return "Keep " + describe_location(cs, action["card"])
    if kind == "steal":
        c = cs.loc_index[action["card"]]
        owner = _owner(view, action["card"])
        where = "neutral " if owner is None else ("your " if owner == me else f"seat {owner}'s ")
        bonus = ""
        if owner is not None and owner != me and cs.loc_bonus[c]:
            bonus = f" (seat {owner} gets {_bonus(cs, c)})"
        if top and top[0] == "action" and top[3] & 2:
            bonus = f" (you get the Owner Bonus: {_bonus(cs, c)})"
        return f"Steal at {where}{cs.loc_name[c]}: {cs.loc_text[c]}{bonus}"
    if kind == "fence":
        return "Sell to " + describe_fence(cs, action["card"])
    if kind == "power":
        k = cs.power_index[action["tile"]]
        return f"Power tile {cs.power_name[k]}, paying {a(action['pay'])}: {cs.power_text[k]}"
    if kind == "witch":
        t = action["treasure"]
        return f"Deliver {a(t)} to the Witch: +{cs.witch[TREASURES.index(t)]} Prestige"
    if kind == "burgle":
        return f"Burgle: 2 of your Thieves → 1 {action['treasure']}"
    if kind == "recruit":
        return f"Recruit: {a(action['first'])} and {a(action['second'])} → 1 Thief"
    if kind == "pass":
        return "Pass (no more actions this round; nobody can target you)"
    if kind == "skip":
        return "Skip (do nothing more here)"
    if kind == "give":
        return f"Give the Direction tile to seat {action['seat']}"
    if kind == "opponent":
        x = view["seats"][action["seat"]]
        held = sum(x["treasures"].values())
        return (
            f"Target seat {action['seat']} ({x['prestige']} Prestige, {held} treasures, "
            f"{x['thieves']} thieves)"
        )
    if kind == "return_fence":
        return "Return " + describe_fence(cs, action["card"]) + " to the deck"
    if kind == "treasure":
        return _treasure_line(action["treasure"], top)
    if kind == "location":
        return _location_line(cs, view, action["card"], top)
    return str(action)


def _treasure_line(t: str, top: list[Any] | None) -> str:
    op = top[0] if top else ""
    if op == "limit":
        return f"Return {a(t)} to the supply (you are over 8 treasures)"
    if op == "pay":
        return f"Pay {a(t)}"
    if op == "destroy":
        return f"Destroy seat {top[2]}'s {t}" if top else t
    if op == "take":
        return f"Take seat {top[2]}'s {t}" if top else t
    return f"Take {a(t)} from the supply"


def _location_line(cs: CardSet, view: JSON, card: str, top: list[Any] | None) -> str:
    c = cs.loc_index[card]
    owner = _owner(view, card)
    whose = "neutral" if owner is None else f"seat {owner}'s"
    if owner is not None and owner == view["seat"]:
        whose = "your"
    op = top[0] if top else ""
    if op == "recall_thief":
        return f"Take a Thief off {whose} {cs.loc_name[c]} (the card goes on top of the deck)"
    if op == "move_thief":
        if top is not None and top[2] < 0:
            return f"Move the Thief from {whose} {cs.loc_name[c]}"
        return f"Move it to {whose} {cs.loc_name[c]}: {cs.loc_text[c]}"
    if op == "swap_location":
        if top is not None and top[2] < 0:
            return f"Give away your {cs.loc_name[c]}"
        return f"Take {whose} {cs.loc_name[c]} in exchange"
    return describe_location(cs, card)


def group(action: JSON, view: JSON) -> tuple[str, ...]:
    """Menu headings for the thieving phase's long menus: one per kind of action, Power
    tiles by tile."""
    kind = action["type"]
    if kind == "power":
        cs = cards_of(view)
        return (f"Use the Power tile {cs.power_name[cs.power_index[action['tile']]]}",)
    return {
        "steal": ("Steal at a Location",),
        "fence": ("Sell to a Fence",),
        "witch": ("Deliver a treasure to the Witch",),
        "burgle": ("Burgle (2 Thieves for a treasure)",),
        "recruit": ("Recruit (2 treasures for a Thief)",),
        "treasure": ("Choose a treasure",),
        "location": ("Choose a Location",),
    }.get(kind, ())


LEGEND = """\
T J A F P   treasures: Tome, Jewel, Artifact, Fossil, Potion (J2: two Jewels)
★           Prestige; a Fence "T A F P → 11★" wants those treasures and gives 11 Prestige
☻           a Thief on a Location card (its Action Spots)
◆ …         the seat holding the Direction tile; a seat still to act
Witch T→4   delivering a Tome to the Witch gives 4 Prestige (struck through: taken)
collected   Locations kept, by type (vil village, sha shadow, rui ruins, hol holy, cit
            city) | Fences sold to, by type"""

RENDERER = TerminalRenderer(table=table, action=action, legend=LEGEND, group=group)
