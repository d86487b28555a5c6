"""Thieves Den in the terminal: the board, every player's board, your Scheme and hand, and
menu lines that say what each action will do."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
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
from thievery.core.protocol import renumber_seats, seat_number
from thievery.games.thieves_den.cards import (
    FENCE_TYPES,
    LOCATION_TYPES,
    TREASURES,
    CardSet,
    load_card_set,
)

JSON = dict[str, Any]
_ = Translator(__package__)
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


def _german() -> bool:
    return current_language() == "de"


def loc_name(cs: CardSet, c: int) -> str:
    """A Location card's name in the current language (the card file's German name)."""
    return cs.loc_name_de[c] if _german() else cs.loc_name[c]


def loc_text(cs: CardSet, c: int) -> str:
    """A Location card's ability in words, in the current language."""
    return cs.loc_text_de[c] if _german() else cs.loc_text[c]


def bonus_text(cs: CardSet, c: int) -> str:
    """A Location card's Owner Bonus in words, in the current language."""
    return cs.loc_bonus_text_de[c] if _german() else cs.loc_bonus_text[c]


def fence_name(cs: CardSet, f: int) -> str:
    """A Fence card's name in the current language."""
    return cs.fence_name_de[f] if _german() else cs.fence_name[f]


def power_name(cs: CardSet, k: int) -> str:
    """A Power tile's name in the current language."""
    return cs.power_name_de[k] if _german() else cs.power_name[k]


def power_text(cs: CardSet, k: int) -> str:
    """A Power tile's ability in words, in the current language."""
    return cs.power_text_de[k] if _german() else cs.power_text[k]


def kind_name(kind: str) -> str:
    """A Location or Fence type in words: ``Village`` (``Dorf``)."""
    return _(kind.capitalize())


_SEAT_WORDS = re.compile(r"\b(?:seat|Platz) (\d+)\b(?! \()")  # ("seat 2", German "Platz 2")


def decision_words(cs: CardSet, text: str, view: JSON | None = None) -> str:
    """The engine's words for the decision asked, in the current language: a translation
    may give patterns (``DECISIONS``: English regex -> its words, ``{0}`` the groups; a
    Location card's id in a group becomes its name). Seats are counted from 1, as the
    screens count them; given the ``view``, a seat is named as the screen names it
    ("choose a treasure of Seat 2 (Casual) to take")."""
    words = _decision_words(cs, renumber_seats(text))
    if view is None:
        return words
    return _SEAT_WORDS.sub(lambda m: screen_seat(view, int(m[1]) - 1), words)


def _decision_words(cs: CardSet, text: str) -> str:
    for pattern, words in localized(__package__, "DECISIONS") or ():
        found = re.fullmatch(pattern, text)
        if found:
            groups = [
                loc_name(cs, cs.loc_index[g]) if g in cs.loc_index else g for g in found.groups()
            ]
            return str(words).format(*groups)
    return _(text)


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
    return " + ".join(
        f"{desire[t]} {_(TREASURES[t]) if desire[t] == 1 else _(PLURALS[t])}"
        for t in range(5)
        if desire[t]
    )


PLURALS = ("tomes", "jewels", "artifacts", "fossils", "potions")


def fence_text(cs: CardSet, card: str) -> Text:
    """A Fence in short: ``Inventor (Tinkerer) T A F P → 11★``, its desires as treasure
    letters."""
    f = cs.fence_index[card]
    desire = cs.fence_desire[f]
    out = Text(f"{fence_name(cs, f)} ({kind_name(FENCE_TYPES[cs.fence_type[f]])}) ")
    for t in range(5):
        for _ in range(desire[t]):
            out.append(LETTER[TREASURES[t]], style=COLOUR[TREASURES[t]]).append(" ")
    out.append(f"→ {cs.fence_prestige[f]}★")
    return out


def short_fence_text(cs: CardSet, card: str) -> Text:
    """A Fence in fewer columns, for the compact board: ``Inventor (tin) TAFP→11★``, its
    type in three letters as the "collected" column writes it."""
    f = cs.fence_index[card]
    desire = cs.fence_desire[f]
    out = Text(f"{fence_name(cs, f)} ({_short(FENCE_TYPES[cs.fence_type[f]])}) ")
    for t in range(5):
        out.append(LETTER[TREASURES[t]] * desire[t], style=COLOUR[TREASURES[t]])
    out.append(f"→{cs.fence_prestige[f]}★")
    return out


def location_text(cs: CardSet, card: str, thieves: int | None = None) -> Text:
    """A Location card's name in its type's colour, with thieves on it."""
    c = cs.loc_index[card]
    kind = LOCATION_TYPES[cs.loc_type[c]]
    out = Text(loc_name(cs, c), style=TYPE_COLOUR[kind])
    if thieves:
        out.append(" " + "☻" * thieves, style="bold red")
    return out


def describe_location(cs: CardSet, card: str) -> str:
    """Name, type and what it does."""
    c = cs.loc_index[card]
    kind = kind_name(LOCATION_TYPES[cs.loc_type[c]])
    timing = _("instant") if cs.loc_instant[c] else _("owner bonus: {b}", b=bonus_text(cs, c))
    return f"{loc_name(cs, c)} ({kind}) — {loc_text(cs, c)} [{timing}]"


def describe_fence(cs: CardSet, card: str) -> str:
    """Name, type, desires and Prestige."""
    f = cs.fence_index[card]
    kind = kind_name(FENCE_TYPES[cs.fence_type[f]])
    return _(
        "{name} ({kind}): {desires} → {n} Prestige",
        name=fence_name(cs, f),
        kind=kind,
        desires=desires_text(cs, f),
        n=cs.fence_prestige[f],
    )


def _board(cs: CardSet, view: JSON, compact: bool = False, tight: bool = False) -> RenderableType:
    """The board: Fences, Power tiles, the Witch, the supply and any neutral Locations;
    ``compact``: each after its heading on a line (or two), not in a grid, the Fences
    in short (:func:`short_fence_text`); ``tight``: a Fence twice in the row once, as
    ``2× Duke (nob) JJAP→11★``."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    lines: list[Text] = []

    def add(heading: str, text: Text) -> None:
        if compact:
            lines.append(Text(heading + ": ", style="bold").append_text(text))
        else:
            grid.add_row(heading, text)

    if compact:
        short = [
            short_fence_text(cs, c) if c else Text(_("(empty slot)"), style="dim")
            for c in view["fence_row"]
        ]
        if tight:  # (a Fence's two copies alike: once, "2× Duke (nob) JJAP→11★")
            alike = Counter(fence.plain for fence in short)
            short = [
                Text(f"{alike[fence.plain]}× ").append_text(fence)
                if alike[fence.plain] > 1
                else fence
                for fence in {fence.plain: fence for fence in short}.values()
            ]
        add(_("Fences"), Text(" · ").join(short))
    else:
        fences = Table.grid(padding=(0, 3))
        row = [
            fence_text(cs, c) if c else Text(_("(empty slot)"), style="dim")
            for c in view["fence_row"]
        ]
        for i in range(0, len(row), 2):
            fences.add_row(*row[i : i + 2])
        grid.add_row(_("Fences"), fences)
    # (by name only: what a tile does is in the menu line that uses it; every tile's text
    # on the board took up to six lines, and the screen 100×40 has no room for them)
    powers = Text()
    tiles = view["powers"]
    if compact:  # (the tiles to use, then those used this round: "used: A, B")
        tiles = [p for p in tiles if not p["paid"]]
    for i, p in enumerate(tiles):
        if i:
            powers.append(" · ")
        if p["tile"] is None:
            powers.append(_("(no tile)"), style="dim")
            continue
        powers.append(power_name(cs, cs.power_index[p["tile"]]))
        if p["paid"]:
            powers.append(_(" [used: {what}]", what=_(p["paid"])), style="dim")
    used = [power_name(cs, cs.power_index[p["tile"]]) for p in view["powers"] if p["paid"]]
    if compact and used:
        powers.append(" · " if tiles else "")
        powers.append(_("used: {tiles}", tiles=", ".join(used)), style="dim")
    witch = Text()
    for t in TREASURES:
        taken = view["witch"][t]
        witch.append(
            f"{LETTER[t]}→{cs.witch[TREASURES.index(t)]} ",
            style="dim strike" if taken else COLOUR[t],
        )
    burgle = Text("  " + _("Burgle / Recruit") + ": ", style="bold")
    burgle.append(_("{n} thieves / ", n=view["burgle"])).append_text(treasure_text(view["recruit"]))
    if compact:  # (the tiles; the Witch, burgling and recruiting; the supply)
        add(_("Power tiles"), powers)
        add(_("Witch"), witch.append_text(burgle))
    else:
        grid.add_row(_("Power tiles"), powers)
        grid.add_row(_("Witch"), witch.append_text(burgle))
    supply = treasure_text(view["supply"]["treasures"])
    supply.append(_("  thieves {n}", n=view["supply"]["thieves"]))
    supply.append(
        _(
            "   decks: Locations {locations}, Fences {fences}",
            locations=view["location_deck"],
            fences=view["fence_deck"],
        )
    )
    add(_("Supply"), supply)
    if view["neutral"]:
        neutral = Text(", ").join(
            location_text(cs, x["card"], x["thieves"]) for x in view["neutral"]
        )
        add(_("Neutral"), neutral)
    return Group(*lines) if compact else grid


def _players(cs: CardSet, view: JSON, compact: bool = False, tight: bool = False) -> RenderableType:
    """Every seat's row; ``compact``: without the rule under the headings, without the
    Locations' column while no seat has any (the Scouting; the end), and what each seat
    collected on a line under the table, not in a column, with the Fences sold to this
    round (``collected: 1 vil2 hol1 · 3 sha1 | col1 +Duke``): the Locations have the
    width (a seat's row wrapped to three lines); ``tight`` (compact too): without the
    headings' line, Prestige and Thieves as ``31★`` and ``2☻``, a space between columns,
    not two (the Locations get the columns: fewer rows wrap)."""
    me = view["seat"]
    rows: list[tuple[RenderableType, ...]] = []
    for s, x in enumerate(view["seats"]):
        name = (
            f"{seat_number(s)}"
            + (_(" (you)") if s == me else "")
            + (" ◆" if s == view["holder"] else "")
        )
        if x["passed"]:
            name += _(" passed")
        elif s in view["to_act"]:
            name += " …"
        locations = Text(", ").join(
            location_text(cs, y["card"], y["thieves"]) for y in x["locations"]
        )
        if x["fences"] and not compact:  # (compact: on a line under the table)
            locations.append(
                _("  fences: ") + ", ".join(_fence_name(cs, y["card"]) for y in x["fences"])
            )
        counts = [0] * len(LOCATION_TYPES)
        for c in x["collected"]:
            counts[cs.loc_type[cs.loc_index[c]]] += 1
        kinds = [0] * len(FENCE_TYPES)
        for f in x["fences_collected"]:
            kinds[cs.fence_type[cs.fence_index[f]]] += 1
        collected = " ".join(f"{_short(LOCATION_TYPES[k])}{n}" for k, n in enumerate(counts) if n)
        fences = " ".join(f"{_short(FENCE_TYPES[k])}{n}" for k, n in enumerate(kinds) if n)
        rows.append(
            (
                Text(name, style="bold" if s == me else ""),
                f"{x['prestige']}★" if tight else str(x["prestige"]),
                treasure_text(x["treasures"]),
                f"{x['thieves']}☻" if tight else str(x["thieves"]),
                locations,
                f"{collected or '—'} | {fences}" if fences else collected or "—",
            )
        )
    shown = [True] * 6
    if compact:
        shown[4] = any(row[4] for row in rows)
        shown[5] = False
    grid = Table(
        expand=not compact or shown[4],
        box=None if compact else box.SIMPLE_HEAD,
        show_header=not tight,
        padding=(0, 1, 0, 0) if tight else (0, 1),
        show_edge=False,
        pad_edge=False,
    )
    for col in ("seat", "★", "treasures", "thieves"):
        grid.add_column(_(col), no_wrap=True)
    # The rest of the width is shared, most of it for the Locations (a narrow column
    # wrapped each seat's row to three or four lines); "collected" wraps if it must, so a
    # long one cannot squeeze the Locations (once to one letter a line).
    if shown[4]:
        grid.add_column(_("Locations (this round)"), overflow="fold", ratio=1, width=20)
    if shown[5]:
        grid.add_column(_("collected"), overflow="fold", max_width=24 if shown[4] else None)
    for row in rows:
        grid.add_row(*(cell for cell, show in zip(row, shown, strict=True) if show))
    if not compact:
        return grid
    parts: list[RenderableType] = [grid]
    kept = []
    for s, (row, x) in enumerate(zip(rows, view["seats"], strict=True)):
        sold = " ".join("+" + _fence_name(cs, y["card"]) for y in x["fences"])
        if row[5] != "—" or sold:
            kept.append(f"{seat_number(s)} " + " ".join(filter(None, [str(row[5]), sold])))
    if kept:
        parts.append(Text(_("collected") + ": ", style="bold").append(" · ".join(kept)))
    return Group(*parts)


def _short(kind: str) -> str:
    """A type in three letters: ``vil`` (``Dor``)."""
    return kind_name(kind)[:3].lower() if not _german() else kind_name(kind)[:3]


def _fence_name(cs: CardSet, card: str) -> str:
    return fence_name(cs, cs.fence_index[card])


def _mine(cs: CardSet, view: JSON, compact: bool = False, tight: bool = False) -> RenderableType:
    """Your Scheme, hand, kept card and the decision asked; ``compact``: not under a rule
    of its own; ``tight``: the Scheme in short ("Scheme: Ruins + City, 5★ a set, 2 so
    far"), and those that fit a line together on one (:class:`Packed`)."""
    me = view["seats"][view["seat"]]
    lines = Text()
    parts: list[Text] = []  # (tight: each apart)
    if me["scheme"] and tight:
        k = cs.scheme_index[me["scheme"]]
        a, b = (kind_name(LOCATION_TYPES[t]) for t in cs.scheme_types[k])
        parts.append(
            Text(
                _(
                    "Scheme: {a} + {b}, {n}★ a set, {sets} so far",
                    a=a,
                    b=b,
                    n=cs.scheme_prestige[k],
                    sets=_scheme_sets(cs, me),
                ),
                style="bold",
            )
        )
    elif me["scheme"]:
        k = cs.scheme_index[me["scheme"]]
        a, b = (kind_name(LOCATION_TYPES[t]) for t in cs.scheme_types[k])
        sets = _scheme_sets(cs, me)
        so_far = _("you have 1 set so far") if sets == 1 else _("you have {n} sets so far", n=sets)
        lines.append(
            _(
                "Scheme: {a} + {b}, {n} Prestige per set ({so_far})",
                a=a,
                b=b,
                n=cs.scheme_prestige[k],
                so_far=so_far,
            )
            + "\n",
            style="bold",
        )
    if view["hand"]:
        # (by name: the menu says what each card does, when you pick one)
        hand = Text(_("Hand:") + " ")
        hand.append_text(Text(", ").join(location_text(cs, c) for c in view["hand"]))
        parts.append(hand)
    if view["my_pick"]:
        parts.append(Text(_("You keep: ") + describe_location(cs, view["my_pick"])))
    now = _("Now: {what}", what=decision_words(cs, view["decision"], view))
    parts.append(Text(now, style="italic"))
    if tight:
        return Packed(parts)
    lines.append_text(Text("\n").join(parts))
    return lines if compact else Group(Rule(_("You"), style="bold"), lines)


def _scheme_sets(cs: CardSet, me: JSON) -> int:
    """How many sets of its Scheme a seat (its view's) has: collected and this round's."""
    k = cs.scheme_index[me["scheme"]]
    counts = [0] * len(LOCATION_TYPES)
    for c in me["collected"] + [y["card"] for y in me["locations"]]:
        counts[cs.loc_type[cs.loc_index[c]]] += 1
    return min(counts[cs.scheme_types[k][0]], counts[cs.scheme_types[k][1]])


class Packed:
    """``parts`` (each a line's words), those that fit a line together on one, joined by
    `` · `` (in turn: a part that fits no line alone wraps on lines of its own)."""

    def __init__(self, parts: list[Text]) -> None:
        self.parts = parts

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        line: Text | None = None
        for part in self.parts:
            if line is not None and cell_len(f"{line.plain} · {part.plain}") <= options.max_width:
                line = Text(" · ").join([line, part])
                continue
            if line is not None:
                yield line
            line = part
        if line is not None:
            yield line


def table(view: JSON) -> RenderableType:
    """A seat's (or the spectator's) view of the table; with ``compact`` set in the view
    (a small terminal: 80×24 holds five seats' board, the log and a menu), in fewer
    lines: under a rule, not in a box, the board's parts each on a line or two, the
    Fences in short, and without the card set's name (the title says whether it is
    official); with ``tight`` set too (the terminal's last resort: five seats late in
    the game), in fewer still (see :func:`_board`, :func:`_players`, :func:`_mine`)."""
    cs = cards_of(view)
    compact = bool(view.get("compact"))
    tight = compact and bool(view.get("tight"))
    # The warning first, so that a narrow terminal cuts the rest of the title, not it;
    # the card set's name goes under the board.
    label = _(" (UNOFFICIAL cards)") if view["unofficial"] else ""
    head = _(
        "round {round}/3 · {phase} · {direction}",
        round=view["round"],
        phase=_(view["phase"]),
        direction=_(view["direction"]),
    )
    # (compact, at the end: the seats and the scoring; the board's Fences, tiles and
    # supply are for decisions, and none is left)
    parts: list[RenderableType] = [_players(cs, view, compact, tight)]
    if not (compact and view["result"]):
        parts.insert(0, _board(cs, view, compact, tight))
    if view["seat"] is not None:
        parts.append(_mine(cs, view, compact, tight))
    if view["result"]:
        final = view["final"] or {}
        schemes = "; ".join(
            result_seat(view, s) + f": {_scheme(cs, x['scheme'])} ×{x['sets']} (+{x['prestige']})"
            for s, x in enumerate(final.get("schemes", []))
        )
        major = ", ".join(
            f"{kind_name(k)} → " + result_seat(view, w)
            for k, w in final.get("majorities", {}).items()
            if w is not None
        )
        winners = listed([result_seat(view, w) for w in view["result"]["winners"]])
        parts.append(
            Text(
                _(
                    "Game over — winner: {who}\nMajorities: {major}\nSchemes: {schemes}",
                    who=winners,
                    major=major or _("none"),
                    schemes=schemes,
                ),
                style="bold green",
            )
        )
    if compact:  # (the game's name goes first if the line is too short for the rest)
        titles = [f"Thieves Den{label} — {head}", f"{label.strip() or 'Thieves Den'} — {head}"]
        return Group(RuleOfFirstFit(titles), *parts)
    cards = cs.name_de if _german() else view["card_set"]
    return Panel(Group(*parts), title=f"Thieves Den{label} — {head}", subtitle=cards)


class RuleOfFirstFit:
    """A rule under the first of ``titles`` that fits the line whole, else the last."""

    def __init__(self, titles: list[str]) -> None:
        self.titles = titles

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Rule]:
        room = options.max_width - 6  # (a rule and a space each side)
        title = next((t for t in self.titles if cell_len(t) <= room), self.titles[-1])
        yield Rule(title, style="bold")


def _scheme(cs: CardSet, scheme: str) -> str:
    """A Scheme in words, as the log and your Scheme's line name it: ``Village + Shadow``
    (``Dorf + Schatten``), not its id ``village-shadow``."""
    k = cs.scheme_index.get(scheme)
    if k is None:
        return scheme
    return " + ".join(kind_name(LOCATION_TYPES[t]) for t in cs.scheme_types[k])


def a(word: str) -> str:
    """``word`` with its indefinite article, in the current language: ``a tome``, ``an
    artifact`` (``einen Folianten``, ``ein Artefakt``)."""
    return _(_a(word))


def _a(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def paying(word: str) -> str:
    """Paying with a treasure: ``paying a tome`` (``bezahlt mit einem Folianten``)."""
    return _(f"paying {_a(word)}")


def _bonus(cs: CardSet, c: int) -> str:
    if _german():
        return bonus_text(cs, c).removeprefix("Nimm ").replace(", dann nimm ", " und ")
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
    top = view["stack"][-1] if view["stack"] else None
    if kind == "pick":
        return _("Keep {card}", card=describe_location(cs, action["card"]))
    if kind == "steal":
        return _steal_line(cs, view, action["card"], top)
    if kind == "fence":
        return _("Sell to {fence}", fence=describe_fence(cs, action["card"]))
    if kind == "power":
        k = cs.power_index[action["tile"]]
        return _(
            "Power tile {tile}, {paying}: {text}",
            tile=power_name(cs, k),
            paying=paying(action["pay"]),
            text=power_text(cs, k),
        )
    if kind == "witch":
        t = action["treasure"]
        n = cs.witch[TREASURES.index(t)]
        return _("Deliver {what} to the Witch: +{n} Prestige", what=a(t), n=n)
    if kind == "burgle":
        return _("Burgle: 2 of your Thieves → 1 {what}", what=_(action["treasure"]))
    if kind == "recruit":
        first, second = a(action["first"]), a(action["second"])
        return _("Recruit: {a} and {b} → 1 Thief", a=first, b=second)
    if kind == "pass":
        return _("Pass (no more actions this round; nobody can target you)")
    if kind == "skip":
        return _("Skip (do nothing more here)")
    if kind == "give":
        return _("Give the Direction tile to {who}", who=screen_seat(view, action["seat"]))
    if kind == "opponent":
        x = view["seats"][action["seat"]]
        held, thieves = sum(x["treasures"].values()), x["thieves"]
        return _(
            "Target {who}: {prestige} Prestige, {held}, {thieves}",
            who=screen_seat(view, action["seat"]),
            prestige=x["prestige"],
            held=_("{n} treasure" if held == 1 else "{n} treasures", n=held),
            thieves=_("{n} thief" if thieves == 1 else "{n} thieves", n=thieves),
        )
    if kind == "return_fence":
        return _("Return {fence} to the deck", fence=describe_fence(cs, action["card"]))
    if kind == "treasure":
        return _treasure_line(view, action["treasure"], top)
    if kind == "location":
        return _location_line(cs, view, action["card"], top)
    return str(action)


def _steal_line(cs: CardSet, view: JSON, card: str, top: list[Any] | None) -> str:
    c = cs.loc_index[card]
    me = view["seat"]
    owner = _owner(view, card)
    bonus = ""
    if owner is not None and owner != me and cs.loc_bonus[c]:
        bonus = _(" ({who} gets {b})", who=screen_seat(view, owner), b=_bonus(cs, c))
    if top and top[0] == "action" and top[3] & 2:
        bonus = _(" (you get the Owner Bonus: {b})", b=_bonus(cs, c))
    return _(
        "Steal at {where}: {text}{bonus}",
        where=_whose(view, owner, loc_name(cs, c)),
        text=loc_text(cs, c),
        bonus=bonus,
    )


def _whose(view: JSON, owner: int | None, name: str) -> str:
    """A Location by whose it is: ``Seat 2 (Casual)'s Market``, ``your Market``, ``neutral
    Market`` (``Markt von Platz 2 (Amateur)``, ``deinem Ort Markt``, ``Markt (neutral)``)."""
    if owner is None:
        return _("neutral {card}", card=name)
    if owner == view["seat"]:
        return _("your {card}", card=name)
    return _("{who}'s {card}", who=screen_seat(view, owner), card=name)


def _treasure_line(view: JSON, t: str, top: list[Any] | None) -> str:
    op = top[0] if top else ""
    if op == "limit":
        return _("Return {what} to the supply (you are over 8 treasures)", what=a(t))
    if op == "pay":
        return _("Pay {what}", what=a(t))
    if op in ("destroy", "take") and top:
        who = screen_seat(view, top[2])
        if op == "destroy":
            return _("Destroy {who}'s {what}", who=who, what=_(t))
        return _("Take {who}'s {what}", who=who, what=_(t))
    return _("Take {what} from the supply", what=a(t))


def _location_line(cs: CardSet, view: JSON, card: str, top: list[Any] | None) -> str:
    c = cs.loc_index[card]
    where = _whose(view, _owner(view, card), loc_name(cs, c))
    op = top[0] if top else ""
    if op == "recall_thief":
        return _("Take a Thief off {where} (the card goes on top of the deck)", where=where)
    if op == "move_thief":
        if top is not None and top[2] < 0:
            return _("Move the Thief from {where}", where=where)
        return _("Move it to {where}: {text}", where=where, text=loc_text(cs, c))
    if op == "swap_location":
        if top is not None and top[2] < 0:
            return _("Give away your {card}", card=loc_name(cs, c))
        return _("Take {where} in exchange", where=where)
    return describe_location(cs, card)


def group(action: JSON, view: JSON) -> tuple[str, ...]:
    """Menu headings for the thieving phase's long menus: one per kind of action, Power
    tiles by tile."""
    kind = action["type"]
    if kind == "power":
        cs = cards_of(view)
        name = power_name(cs, cs.power_index[action["tile"]])
        return (_("Use the Power tile {tile}", tile=name),)
    heading = HEADINGS.get(kind)
    return (_(heading),) if heading else ()


HEADINGS = {
    "steal": "Steal at a Location",
    "fence": "Sell to a Fence",
    "witch": "Deliver a treasure to the Witch",
    "burgle": "Burgle (2 Thieves for a treasure)",
    "recruit": "Recruit (2 treasures for a Thief)",
    "treasure": "Choose a treasure",
    "location": "Choose a Location",
}


LEGEND = """\
T J A F P   treasures: Tome, Jewel, Artifact, Fossil, Potion (J2: two Jewels)
★           Prestige; a Fence "T A F P → 11★" wants those treasures and gives 11 Prestige
☻           a Thief on a Location card (its Action Spots)
◆ …         the seat holding the Direction tile; a seat still to act
31★ 2☻      a seat's Prestige and Thieves (its row on a tight screen: a small terminal's
            fullest, whose rows have no headings, and whose Fences say "2× Duke" for two)
Witch T→4   delivering a Tome to the Witch gives 4 Prestige (struck through: taken)
collected   Locations kept, by type (vil village, sha shadow, rui ruins, hol holy, cit
            city) | Fences sold to, by type; +Duke: sold to the Duke this round (on a
            small terminal's compact board, whose Fences say their type: Duke (nob))
Power tiles by name; what a tile does is in the menu's "Power tile" lines (your hand's
cards: in the "Keep" lines)"""

RENDERER = TerminalRenderer(table=table, action=action, legend=LEGEND, group=group)
