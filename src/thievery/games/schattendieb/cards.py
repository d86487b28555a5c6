"""Der Schattendieb's 105 draw-pile cards as small integers, with their ids and
properties: 0-79 jewellery (kind-major, value, copy), 80-99 Close Safe cards, 100-104
thieves; ids ``ring-6b``, ``close-12a``, ``thief-shadow``.

**Unverified** (RULES.md): the Close Safe cards' values. The rulebook gives 20 cards
valued 4 to 15 but not how many of each; ``CLOSE_VALUES`` is our reading (4-11 twice,
12-15 once), kept here as data."""

KINDS = ("brooch", "ring", "watch", "cufflink")
JEWEL, CLOSE, THIEF = 0, 1, 2
ANY_KIND = -1  # the shadow thief's "kind"

# Close Safe values 4-11 twice (a, b), 12-15 once (a) -- RULES.md, unverified.
CLOSE_VALUES = [(v, c) for v in range(4, 12) for c in "ab"] + [(v, "a") for v in range(12, 16)]
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
