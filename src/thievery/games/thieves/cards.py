"""The 52 cards of Thieves! as small integers, with their ids and properties: 0-25 money
(values 0, 1, 2, 3, then the Diamond Ring and the Horseshoe), 26-35 police, 36-43 getaway
cars, 44-51 action cards; ids ``money-2c``, ``diamond-ring``, ``police-2a``, ``getaway-e``,
``double-loot-b``; a loot slot is a card number with visibility flags."""

MONEY, POLICE, GETAWAY, ROADBLOCK, ALARM, THIEF, DOUBLE_LOOT = range(7)
KIND_NAMES = ("money", "police", "getaway", "roadblock", "alarm", "thief", "double-loot")

CARD_ID: list[str] = []
KIND: list[int] = []
FINAL_VALUE: list[int] = []  # money at the end of the game (Ring 1, Horseshoe 3), else 0
RAID_VALUE: list[int] = []  # money in a police raid (Ring 3, Horseshoe 1), else 0
CARS: list[int] = []  # police cars shown on a police card, else 0


def _add(card_id: str, kind: int, final: int = 0, raid: int = 0, cars: int = 0) -> None:
    CARD_ID.append(card_id)
    KIND.append(kind)
    FINAL_VALUE.append(final)
    RAID_VALUE.append(raid)
    CARS.append(cars)


for _value, _copies in ((0, "abc"), (1, "abcdefghi"), (2, "abcdefg"), (3, "abcde")):
    for _copy in _copies:
        _add(f"money-{_value}{_copy}", MONEY, _value, _value)
_add("diamond-ring", MONEY, 1, 3)
_add("horseshoe", MONEY, 3, 1)
for _copy in "abcdefgh":
    _add(f"police-1{_copy}", POLICE, cars=1)
for _copy in "ab":
    _add(f"police-2{_copy}", POLICE, cars=2)
for _copy in "abcdefgh":
    _add(f"getaway-{_copy}", GETAWAY)
for _kind in (ROADBLOCK, ALARM, THIEF, DOUBLE_LOOT):
    for _copy in "ab":
        _add(f"{KIND_NAMES[_kind]}-{_copy}", _kind)

N_CARDS = len(CARD_ID)
CARD_INDEX = {cid: i for i, cid in enumerate(CARD_ID)}
ALL_CARDS = tuple(range(N_CARDS))
MONEY_CARDS = tuple(c for c in ALL_CARDS if KIND[c] == MONEY)
GETAWAYS = tuple(c for c in ALL_CARDS if KIND[c] == GETAWAY)
DIAMOND_RING = CARD_INDEX["diamond-ring"]
HORSESHOE = CARD_INDEX["horseshoe"]
GETAWAYS_TO_END = 7  # the game ends when the 7th getaway car is placed
HAND = 4  # a player draws up to 4 at the start of a turn
DEAL = 3  # cards dealt to each player at setup

# A loot slot is one int: the card number plus visibility flags.
CARD_MASK = 63
EXPOSED = 64  # face down, but everyone saw it in a raid
FACE_UP = 128

assert N_CARDS == 52 and len(MONEY_CARDS) == 26 and len(GETAWAYS) == 8


def is_money(card: int) -> bool:
    """Whether a card is a money card (the Ring and the Horseshoe included)."""
    return KIND[card] == MONEY


def describe_card(card: int) -> str:
    """A card in words: ``Money 2``, ``Diamond Ring``, ``Police (2 cars)``, ``Alarm``."""
    kind = KIND[card]
    if card == DIAMOND_RING:
        return "Diamond Ring"
    if card == HORSESHOE:
        return "Horseshoe"
    if kind == MONEY:
        return f"Money {FINAL_VALUE[card]}"
    if kind == POLICE:
        return f"Police ({CARS[card]} car{'s' if CARS[card] > 1 else ''})"
    if kind == GETAWAY:
        return "Getaway car"
    return KIND_NAMES[kind].replace("-", " ").title()
