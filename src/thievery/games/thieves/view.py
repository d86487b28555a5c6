"""Thieves!'s view and its inverse, side by side: :func:`view` is what one seat (or a
spectator) may know of a game, JSON-ready, and :class:`Determinizer` reads such a view back
into full states with everything hidden from that seat re-sampled (for fair search bots),
optionally inferring hidden loot from what players keep (:func:`inferring_sampler`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from thievery.core.protocol import JSON, GameSpec
from thievery.core.rng import Rng
from thievery.games.thieves.cards import (
    ALL_CARDS,
    CARD_ID,
    CARD_INDEX,
    CARD_MASK,
    CARS,
    EXPOSED,
    FACE_UP,
    FINAL_VALUE,
    GETAWAY,
    KIND,
    MONEY,
    POLICE,
    RAID_VALUE,
)

if TYPE_CHECKING:  # rules.py imports this module for State.view
    from thievery.games.thieves.rules import Thieves

# By phase number: rules.PLAY, REMOVE, MOVE, DOUBLE, OVER.
PHASE_NAMES = ("play", "remove", "move", "double_loot", "over")
PENDING = (None, "remove", "move", "double_loot", None)


def view(state: Thieves, seat: int | None) -> JSON:
    """What ``seat`` may know of ``state`` (``None``: a spectator). Besides RULES.md's keys
    (``hand``, ``loot``, ``police``, ``cars``, ``getaways``, ``deck_size``, ``discard``,
    ``current``, ``last_raid``): ``phase``, ``to_act``, ``turn``, ``first_player``,
    ``hand_sizes``; ``exposed`` (per seat, slots of face-down loot everyone saw in a raid);
    ``police_free`` (per seat, hand cards everyone knows are not police); the pending
    follow-up (``pending``: ``"remove"``, ``"move"`` (a Thief's move, or ``pass``),
    ``"double_loot"`` or null; ``resolving``: the Roadblock waiting; ``drawn``: the Double
    Loot card, for its player only; ``double_loot_draws``: draws still owed); ``result``;
    the public ``options``.
    ``last_raid`` also lists the raid's ``seat``, ``cars``, ``police`` and every loot card
    it revealed.
    """
    ids = CARD_ID
    phase = state.phase
    over = PHASE_NAMES[phase] == "over"
    loot = [
        [
            {
                "card": ids[e & CARD_MASK] if e >= EXPOSED or s == seat or over else None,
                "face_up": e >= FACE_UP,
            }
            for e in row
        ]
        for s, row in enumerate(state.loot)
    ]
    own_turn = seat is not None and seat == state.current
    return {
        "game": "thieves",
        "players": state.players,
        "seat": seat,
        "options": state.spec.public_options(state.options),
        "phase": PHASE_NAMES[phase],
        "to_act": list(state._to_act),
        "current": state.current,
        "first_player": state.first,
        "turn": state.turn,
        "hand": [ids[c] for c in state.hands[seat]] if seat is not None else [],
        "hand_sizes": [len(h) for h in state.hands],
        "loot": loot,
        "exposed": [[i for i, e in enumerate(row) if EXPOSED <= e < FACE_UP] for row in state.loot],
        "police": [ids[c] for c in state.police],
        "cars": state.cars,
        "getaways": [ids[c] for c in state.getaways],
        "deck_size": len(state.deck),
        "discard": [ids[c] for c in state.discard],
        "pending": PENDING[phase],
        "resolving": ids[state.acting] if state.acting >= 0 else None,
        "drawn": ids[state.drawn] if own_turn and state.drawn >= 0 else None,
        "double_loot_draws": state.extra,
        "police_free": state.clean[:],
        "last_raid": _copy_raid(state.last_raid),
        "result": state.result(),
    }


def _copy_raid(raid: JSON | None) -> JSON | None:
    """A copy of a raid summary, so that no view shares lists with the state."""
    if raid is None:
        return None
    return {
        k: [v[:] if isinstance(v, list) else v for v in val] if isinstance(val, list) else val
        for k, val in raid.items()
    }


# ---------------------------------------------------------------- the determinizer

IS_MONEY = [KIND[c] == MONEY for c in ALL_CARDS]
IS_CLEAN = [KIND[c] != POLICE and KIND[c] != GETAWAY for c in ALL_CARDS]
IS_HELD = [KIND[c] != GETAWAY for c in ALL_CARDS]

# The weight of each kind of money card (by final and raid value) under a face-down slot,
# fitted so that samples put each kind there as often as the heuristic bot's self-play
# does (``research/fit_thieves_keep.py``): it never keeps a 0 and seldom the Diamond Ring,
# and it banks high money first. A 0 keeps a small weight, for players who do keep one.
KEEP_BY_VALUE = {
    (0, 0): 0.02,
    (1, 1): 0.448,
    (1, 3): 0.216,
    (2, 2): 0.85,
    (3, 3): 1.0,
    (3, 1): 0.978,
}
KEEP = [
    KEEP_BY_VALUE.get((FINAL_VALUE[c], RAID_VALUE[c]), 0.0) if IS_MONEY[c] else 0.0
    for c in ALL_CARDS
]


def _ids(cards: list[str]) -> list[int]:
    return [CARD_INDEX[c] for c in cards]


class Determinizer:
    """Reads one seat's view once; each :meth:`sample` is a fresh, consistent full state.

    Hidden from a seat: other hands, face-down loot it has not seen, a Double Loot card
    another player is holding, and the deck's contents and order. What the view implies is
    kept: face-down loot and a Double Loot card waiting to be played are money; hands never
    hold getaways, and at least ``police_free`` cards of each hand are not police; every
    getaway not placed is in the deck. With ``keep`` (see :func:`inferring_sampler`), the
    cards under hidden loot slots are drawn by weight, not uniformly.
    """

    def __init__(
        self, spec: GameSpec, view: Mapping[str, Any], keep: Sequence[float] | None = None
    ) -> None:
        seat = view["seat"]
        if seat is None:
            raise ValueError("determinize needs a seat's view, not a spectator's")
        from thievery.games.thieves.rules import Thieves  # it imports this module

        n = view["players"]
        self.seat = seat
        t = self.template = object.__new__(Thieves)
        t.players, t.seed = n, 0
        t.options = {**spec.defaults(), **view["options"]}
        t.rng = Rng(0)
        t.all_busted = t.options["raid_ties"] == "all_busted"
        t.phase = PHASE_NAMES.index(view["phase"])
        t.current, t.first, t.turn = view["current"], view["first_player"], view["turn"]
        t._to_act = tuple(view["to_act"])
        t._history = None
        t.last_raid = view["last_raid"]
        t.extra = view["double_loot_draws"]
        t.clean = list(view["police_free"])
        t.police = _ids(view["police"])
        t.cars = sum(CARS[c] for c in t.police)
        t.getaways = _ids(view["getaways"])
        t.discard = _ids(view["discard"])
        t.acting = CARD_INDEX[view["resolving"]] if view["resolving"] is not None else -1
        known: set[int] = set(t.police) | set(t.getaways) | set(t.discard)
        if t.acting >= 0:
            known.add(t.acting)
        t.hands = [[] for _ in range(n)]
        t.hands[seat] = _ids(view["hand"])
        known.update(t.hands[seat])
        t.drawn = -1
        self.hidden_drawn = False
        if view["drawn"] is not None:
            t.drawn = CARD_INDEX[view["drawn"]]
            known.add(t.drawn)
        elif view["phase"] == "double_loot":
            self.hidden_drawn = True
        t.loot = []
        self.hidden_slots: list[tuple[int, int]] = []
        for s, row in enumerate(view["loot"]):
            exposed = set(view["exposed"][s])
            out: list[int] = []
            for i, slot in enumerate(row):
                flags = FACE_UP if slot["face_up"] else EXPOSED if i in exposed else 0
                if slot["card"] is None:
                    self.hidden_slots.append((s, i))
                    out.append(flags)
                else:
                    card = CARD_INDEX[slot["card"]]
                    known.add(card)
                    out.append(card | flags)
            t.loot.append(out)
        t.deck = []
        self.pool = [c for c in ALL_CARDS if c not in known]
        self.others = [s for s in range(n) if s != seat]
        self.sizes = list(view["hand_sizes"])
        self.deck_size = view["deck_size"]
        self.keep = keep if keep is not None and self.hidden_slots else None

    def sample(self, rng: Rng) -> Thieves:
        """A fresh full state consistent with the view."""
        s = self.template.clone()
        s.rng = Rng(rng.next64())
        pool = self.pool[:]
        rng.shuffle(pool)
        # Greedy, most constrained first (the true state shows it always fits): hidden loot
        # and a hidden Double Loot card are money; then each hand's police-free part; then
        # the rest of the hands from anything but getaways; the deck keeps what is left.
        money = [c for c in pool if IS_MONEY[c]]
        wanted = len(self.hidden_slots) + self.hidden_drawn
        if len(money) < wanted:
            raise ValueError("no full state is consistent with this view")
        if self.keep is not None:
            _infer(money, len(self.hidden_slots), self.keep, rng)
        for (t, i), card in zip(self.hidden_slots, money, strict=False):
            s.loot[t][i] |= card
        if self.hidden_drawn:
            s.drawn = money[wanted - 1]
        used = set(money[:wanted])
        clean = [c for c in pool if IS_CLEAN[c] and c not in used]
        taken = 0
        for t in self.others:
            s.hands[t] = clean[taken : taken + s.clean[t]]
            taken += s.clean[t]
        if taken > len(clean):
            raise ValueError("no full state is consistent with this view")
        used.update(clean[:taken])
        held = [c for c in pool if IS_HELD[c] and c not in used]
        take = 0
        for t in self.others:
            size = self.sizes[t] - s.clean[t]
            hand = s.hands[t]
            hand += held[take : take + size]
            take += size
            if s.clean[t] and size:
                rng.shuffle(hand)
        if take > len(held):
            raise ValueError("no full state is consistent with this view")
        used.update(held[:take])
        s.deck = [c for c in pool if c not in used]
        if len(s.deck) != self.deck_size:
            raise ValueError("the view's card counts do not add up")
        return s


SWEEPS = 3  # Metropolis swaps per hidden slot after the first draw


def _infer(money: list[int], slots: int, keep: Sequence[float], rng: Rng) -> None:
    """Reorder ``money`` (shuffled, unseen money cards) in place so that its first
    ``slots`` cards are a draw with chance in proportion to the product of their ``keep``
    weights (the hidden slots' cards); the rest stay in random order."""
    n = len(money)
    # The first draw: one slot at a time, a card in proportion to its weight.
    for i in range(slots):
        j = i + rng.pick([keep[c] for c in money[i:]])
        money[i], money[j] = money[j], money[i]
    if slots == n:
        return
    # Metropolis: swap a slot's card with an unseen card outside the slots, accepted with
    # chance min(1, w(new) / w(old)); the product of weights is the stationary law.
    for _ in range(SWEEPS * slots):
        i = rng.below(slots)
        j = slots + rng.below(n - slots)
        old, new = keep[money[i]], keep[money[j]]
        if new >= old or rng.random() * old < new:
            money[i], money[j] = money[j], money[i]


def inferring_sampler(spec: GameSpec) -> Callable[[Mapping[str, Any]], Callable[[Rng], Thieves]]:
    """A determinizer that infers hidden face-down loot with :data:`KEEP`.

    A face-down card in another seat's loot is one that seat chose to keep, and players
    keep high money far more often than a 0 (the heuristic bot never keeps a 0, seldom the
    Diamond Ring, and banks high money first). With a weight per card (:data:`KEEP`, fitted
    so that samples match where cards really lie), the cards under hidden slots are drawn
    in proportion to the product of their weights, not uniformly: a first draw one slot at
    a time by weight, then Metropolis swaps with the other unseen money so that the
    sample's chance follows the product (:func:`_infer`). The weights depend on nothing the
    seat cannot see, so a sample still uses only its view. Measured, it does not make the
    search stronger (``docs/ladder-thieves.md``), so no registered level uses it.
    """

    def sampler(view: Mapping[str, Any]) -> Callable[[Rng], Thieves]:
        return Determinizer(spec, view, KEEP).sample

    return sampler
