"""Pickpocket's cards: eighteen loot cards, a purse and a watch of every value 1 to 9.

Inside the engine a card is a small int (0 to 17); its value is ``card // 2 + 1``. Its id
(``purse-7``, ``watch-7``) appears only in actions, events and views.

>>> CARD_ID[0], CARD_ID[17], VALUE[CARD_INDEX["watch-7"]]
('purse-1', 'watch-9', 7)
>>> describe_card(CARD_INDEX["purse-4"])
'a purse worth 4'
"""

from __future__ import annotations

KINDS = ("purse", "watch")
TOP = 9  # the highest value

ALL_CARDS = tuple(range(len(KINDS) * TOP))
VALUE = tuple(c // len(KINDS) + 1 for c in ALL_CARDS)
CARD_ID = tuple(f"{KINDS[c % len(KINDS)]}-{VALUE[c]}" for c in ALL_CARDS)
CARD_INDEX = {cid: c for c, cid in enumerate(CARD_ID)}


def describe_card(card: int) -> str:
    """A card in words: ``a watch worth 7``."""
    return f"a {KINDS[card % len(KINDS)]} worth {VALUE[card]}"


def value_of(card_id: str) -> int:
    """The value of a card by its id."""
    return VALUE[CARD_INDEX[card_id]]


FACE_UP = 32  # a vault slot is a card plus this flag when the card was stolen (public)
CARD = 31  # the mask of the card in a vault slot
