"""Der Schattendieb's 105 draw-pile cards as small integers, with their ids and
properties: 0-79 jewellery (kind-major, value, copy), 80-99 Close Safe cards, 100-104
thieves; ids ``ring-6b``, ``close-12a``, ``thief-shadow``.

**Unverified** (RULES.md): the Close Safe cards' values. The rulebook gives 20 cards
valued 4 to 15 but not how many of each; our reading (4-11 twice, 12-15 once) is kept as
data, in ``data/components.toml``, which says so, and read into ``CLOSE_VALUES`` here."""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

DATA = Path(__file__).parent / "data" / "components.toml"
CLOSE_CARDS, CLOSE_LOW, CLOSE_HIGH = 20, 4, 15  # the rulebook's: 20 cards valued 4 to 15


def _wrong_close_values(values: object) -> str | None:
    """What is wrong with a data file's Close Safe values, if anything."""
    if not isinstance(values, list):
        return f"not a list: {values!r:.80}"
    if len(values) != CLOSE_CARDS:
        return f"{len(values)} values, not {CLOSE_CARDS}"
    for value in values:
        if type(value) is not int or not CLOSE_LOW <= value <= CLOSE_HIGH:
            return f"{value!r:.40} is not one"
    missing = sorted(set(range(CLOSE_LOW, CLOSE_HIGH + 1)) - set(values))
    return f"no card of value {', '.join(map(str, missing))}" if missing else None


def read_close_values(path: Path = DATA) -> list[tuple[int, str]]:
    """The Close Safe cards as (value, copy letter), in the order of ``path``'s
    ``[close_safe] values``; ``ValueError`` naming the file if they are not the rulebook's
    20 cards valued 4 to 15."""
    try:
        values = tomllib.loads(path.read_text(encoding="utf-8-sig"))["close_safe"]["values"]
    except (OSError, ValueError, KeyError, TypeError) as e:  # (a TOMLDecodeError is one)
        raise ValueError(f"{path}: cannot read its [close_safe] values ({e})") from None
    wrong = _wrong_close_values(values)
    if wrong:
        raise ValueError(
            f"{path}: [close_safe] values are the {CLOSE_CARDS} cards' values, whole numbers "
            f"from {CLOSE_LOW} to {CLOSE_HIGH}, each of them at least once: {wrong}"
        )
    copies: Counter[int] = Counter()
    cards = []
    for value in values:
        cards.append((value, "abcdefghijklmnopqrst"[copies[value]]))
        copies[value] += 1
    return cards


KINDS = ("brooch", "ring", "watch", "cufflink")
JEWEL, CLOSE, THIEF = 0, 1, 2
ANY_KIND = -1  # the shadow thief's "kind"

# Close Safe values and copies: 4-11 twice (a, b), 12-15 once (a) -- RULES.md, unverified.
CLOSE_VALUES = read_close_values()
THIEF_NAMES = ("shadow", "brooch", "ring", "watch", "cufflink")

CARD_ID: list[str] = []
CATEGORY: list[int] = []
KIND: list[int] = []  # jewellery kind, a thief's target kind (ANY_KIND for shadow), else -2
JEWEL_KIND: list[int] = []  # jewellery kind; -2 for every other card (what step 4 may add)
VALUE: list[int] = []  # jewellery value, Close Safe value, 0 for thieves

for _k, _kind in enumerate(KINDS):
    for _v in range(1, 11):
        for _copy in "ab":
            CARD_ID.append(f"{_kind}-{_v}{_copy}")
            CATEGORY.append(JEWEL)
            KIND.append(_k)
            JEWEL_KIND.append(_k)
            VALUE.append(_v)
for _v, _copy in CLOSE_VALUES:
    CARD_ID.append(f"close-{_v}{_copy}")
    CATEGORY.append(CLOSE)
    KIND.append(-2)
    JEWEL_KIND.append(-2)
    VALUE.append(_v)
for _i, _name in enumerate(THIEF_NAMES):
    CARD_ID.append(f"thief-{_name}")
    CATEGORY.append(THIEF)
    KIND.append(ANY_KIND if _name == "shadow" else _i - 1)
    JEWEL_KIND.append(-2)  # a thief carries a kind but is no jewellery
    VALUE.append(0)

N_CARDS = len(CARD_ID)
CARD_INDEX = {cid: i for i, cid in enumerate(CARD_ID)}
SHADOW = CARD_INDEX["thief-shadow"]
ALL_CARDS = tuple(range(N_CARDS))

assert N_CARDS == 105


def is_jewel(card: int) -> bool:
    """Whether a card is jewellery."""
    return CATEGORY[card] == JEWEL


def describe_card(card: int) -> str:
    """A card in words: ``Ring 6``, ``Close Safe 12``, ``Shadow Thief``."""
    cat = CATEGORY[card]
    if cat == JEWEL:
        return f"{KINDS[KIND[card]].capitalize()} {VALUE[card]}"
    if cat == CLOSE:
        return f"Close Safe {VALUE[card]}"
    return f"{CARD_ID[card].split('-', 1)[1].capitalize()} Thief"
