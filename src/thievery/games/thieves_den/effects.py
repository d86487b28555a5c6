"""Thieves Den's effect vocabulary: ability lists compiled to small integer steps.

An ability (a Location's, an owner bonus or a Power tile) is a list of effects in the
card file. Each compiles to one step ``(op, a, b, c)`` of small ints; the engine pushes
steps, with the acting seat, on its continuation stack and interprets them one by one
(``rules.py``), stopping whenever a step needs a decision with more than one choice.

Ops and their fields:

======================  =====================================================
``GAIN``                a: treasure 0-4 or ``THIEF``; b: count
``WILD``                b: count left; c: 1 if the seat may stop ("up to")
``PRESTIGE``            b: amount
``TAKE``                a: opponent (-1 until chosen); b: ``TREASURE``/``THIEF``
``DESTROY``             a: opponent (-1 until chosen)
``PAY``                 a: treasure 0-4, ``ANY`` or ``THIEF``; b: count
``DRAW_LOCATION``       b: count
``ACTION``              a: mask (1 steal, 2 fence); b: flags (1 occupied, 2 bonus,
                        4 compulsory)
``RECALL``              (no fields)
``MOVE``                a: source Location card (-1 until chosen)
``REFRESH``             b: Fences still to return; c: how many returned
``SWAP``                a: own Location card (-1 until chosen)
======================  =====================================================

Engine-only ops (never in files): ``LIMIT`` (a seat above 8 treasures returns one at a
time), ``UNPLACE`` (the moved thief comes back to its mover's board).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

TREASURE_NAMES = ("tome", "jewel", "artifact", "fossil", "potion")

GAIN, WILD, PRESTIGE, TAKE, DESTROY, PAY, DRAW_LOCATION, ACTION = range(8)
RECALL, MOVE, REFRESH, SWAP, LIMIT, UNPLACE = range(8, 14)
OP_NAMES = (
    "gain",
    "wild",
    "prestige",
    "take",
    "destroy",
    "pay",
    "draw_location",
    "action",
    "recall_thief",
    "move_thief",
    "refresh_fences",
    "swap_location",
    "limit",
    "unplace",
)
# Ops whose step may ask for a decision.
DECISION_OPS = frozenset({WILD, TAKE, DESTROY, PAY, ACTION, RECALL, MOVE, REFRESH, SWAP, LIMIT})

THIEF = 5  # GAIN / PAY / TAKE target: a thief token
ANY = 6  # PAY: any treasure
TREASURE = 7  # TAKE: a treasure
STEAL_BIT, FENCE_BIT = 1, 2
OCCUPIED_BIT, SELF_BONUS_BIT, COMPULSORY_BIT = 1, 2, 4

Step = tuple[int, int, int, int]


def compile_effect(effect: Any) -> Step:
    """One validated effect model (see ``cards.py``) as a step ``(op, a, b, c)``."""
    op = effect.op
    if op == "gain":
        if effect.what == "wild":
            return (WILD, 0, effect.count, int(effect.up_to))
        target = THIEF if effect.what == "thief" else TREASURE_NAMES.index(effect.what)
        return (GAIN, target, effect.count, 0)
    if op == "prestige":
        return (PRESTIGE, 0, effect.count, 0)
    if op == "take":
        return (TAKE, -1, THIEF if effect.what == "thief" else TREASURE, 0)
    if op == "destroy":
        return (DESTROY, -1, 0, 0)
    if op == "pay":
        what = {"thief": THIEF, "any": ANY}.get(effect.what)
        return (PAY, TREASURE_NAMES.index(effect.what) if what is None else what, effect.count, 0)
    if op == "draw_location":
        return (DRAW_LOCATION, 0, effect.count, 0)
    if op == "action":
        mask = (STEAL_BIT if "steal" in effect.choices else 0) | (
            FENCE_BIT if "fence" in effect.choices else 0
        )
        flags = (
            (OCCUPIED_BIT if effect.occupied else 0)
            | (SELF_BONUS_BIT if effect.owner_bonus_to_self else 0)
            | (COMPULSORY_BIT if effect.compulsory else 0)
        )
        return (ACTION, mask, flags, 0)
    if op == "recall_thief":
        return (RECALL, 0, 0, 0)
    if op == "move_thief":
        return (MOVE, -1, 0, 0)
    if op == "refresh_fences":
        return (REFRESH, 0, effect.count, 0)
    if op == "swap_location":
        return (SWAP, -1, 0, 0)
    raise ValueError(f"unknown effect op {op!r}")


def compile_ability(effects: Sequence[Any]) -> tuple[Step, ...]:
    """A whole ability as steps, in order."""
    return tuple(compile_effect(e) for e in effects)


def cost_of(effects: Sequence[Any]) -> tuple[int, ...]:
    """What an ability's leading ``pay`` effects cost: 5 treasure counts, any, thieves."""
    cost = [0] * 7
    for e in effects:
        if e.op != "pay":
            break
        if e.what == "any":
            cost[5] += e.count
        elif e.what == "thief":
            cost[6] += e.count
        else:
            cost[TREASURE_NAMES.index(e.what)] += e.count
    return tuple(cost)


def _plural(n: int, word: str, tail: str = "") -> str:
    if n == 1:
        return f"1 {word}{tail}"
    plural = {"Thief": "Thieves", "thief": "thieves"}.get(word, word + "s")
    return f"{n} {plural}{tail}"


def describe_effect(effect: Any) -> str:
    """One effect in words: ``take 2 Jewels``, ``pay 1 Thief``."""
    op = effect.op
    if op == "gain":
        if effect.what == "wild":
            return (
                "take "
                + ("up to " if effect.up_to else "")
                + (_plural(effect.count, "treasure", " of your choice"))
            )
        return "take " + _plural(effect.count, effect.what.capitalize())
    if op == "prestige":
        return f"gain {effect.count} Prestige"
    if op == "take":
        return f"take a {effect.what} from an opponent"
    if op == "destroy":
        return "destroy an opponent's treasure"
    if op == "pay":
        if effect.what == "any":
            return "pay " + _plural(effect.count, "treasure", " of your choice")
        return "pay " + _plural(effect.count, effect.what.capitalize())
    if op == "draw_location":
        return "draw " + _plural(effect.count, "Location") + " face up"
    if op == "action":
        kinds = " or ".join(c.capitalize() for c in effect.choices)
        extra = " on an occupied spot" if effect.occupied else ""
        extra += ", taking the Owner Bonus yourself" if effect.owner_bonus_to_self else ""
        return f"{kinds}{extra}" if effect.compulsory else f"you may {kinds}{extra}"
    if op == "recall_thief":
        return "take a Thief off a Location, which goes on top of the deck"
    if op == "move_thief":
        return "move a Thief to another Location, use it, keep the Thief"
    if op == "refresh_fences":
        return f"replace {effect.count} Fences of the row"
    if op == "swap_location":
        return "swap a Location with an opponent"
    return str(op)


def describe_ability(effects: Sequence[Any]) -> str:
    """An ability in words, e.g. ``Pay 1 Thief: 3 treasures of your choice``."""
    if not effects:
        return "nothing"
    pays = [describe_effect(e) for e in effects if e.op == "pay"]
    rest = ", then ".join(describe_effect(e) for e in effects if e.op != "pay")
    text = ", ".join(pays) + (": " + rest if pays and rest else "") if pays else rest
    return text[:1].upper() + text[1:]
