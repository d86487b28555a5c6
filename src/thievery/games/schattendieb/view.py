"""Der Schattendieb's view and its inverse, side by side: :func:`view` is what one seat
(or a spectator) may know of a state, JSON-ready, and :class:`Determinizer` reads such a
view back into a full state with everything hidden from that seat re-sampled (for fair
search bots). Whatever the view shows, the determinizer keeps; whatever it hides, the
determinizer draws."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from thievery.core.protocol import JSON, GameSpec
from thievery.core.rng import Rng
from thievery.games.schattendieb.cards import ALL_CARDS, CARD_ID, CARD_INDEX, KINDS

if TYPE_CHECKING:  # rules.py imports this module for State.view
    from thievery.games.schattendieb.rules import Schattendieb

PHASE_NAMES = ("play", "steal", "add", "over")  # by phase number: rules.PLAY, STEAL, ADD, OVER


def view(state: Schattendieb, seat: int | None) -> JSON:
    """Exactly what ``seat`` may know of ``state`` (``None``: a spectator), JSON-ready:
    its own hand, sealed choice and additions; every hand's size; the safes, the table
    and what was revealed; the pile's size and the open discards; the scores."""
    return _own(state, seat, _public(state))


def views(state: Schattendieb, seats: Sequence[int | None]) -> list[JSON]:
    """:func:`view` for several seats, what they share built once (and shared: read-only)."""
    public = _public(state)
    return [_own(state, seat, public) for seat in seats]


def _own(state: Schattendieb, seat: int | None, public: JSON) -> JSON:
    """A seat's view: the public part and what only ``seat`` sees, in the views' key order."""
    hand: list[str] = []
    my_choice: str | None = None
    my_adds: list[str] = []
    if seat is not None:
        ids = CARD_ID
        hand = [ids[c] for c in state.hands[seat]]
        my_choice = ids[state.choice[seat]] if state.choice[seat] >= 0 else None
        my_adds = [ids[c] for c in state.adds[seat]]
    return {
        "game": "schattendieb",
        "players": public["players"],
        "seat": seat,
        **public["head"],
        "hand": hand,
        **public["middle"],
        "my_choice": my_choice,
        **public["table"],
        "my_adds": my_adds,
        **public["tail"],
    }


def _public(state: Schattendieb) -> JSON:
    """What every seat and spectator sees alike, in the parts between the private keys."""
    n = state.players
    ids = CARD_ID
    phase = PHASE_NAMES[state.phase]
    revealed = phase != "play"
    return {
        "players": n,
        "head": {
            "options": state.spec.public_options(state.options),
            "games": state.games,
            "game_no": state.game_no + 1,
            "dealer": state.dealer,
            "round": state.round_no,
            "phase": phase,
            "to_act": list(state._to_act),
        },
        "middle": {
            "hand_sizes": [state.hand_size(s) for s in range(n)],
            "safes": [[ids[c] for c in safe] for safe in state.safes],
            "closed": [ids[c] if c >= 0 else None for c in state.closed],
            "pile_size": len(state.pile),
            "discard": [ids[c] for c in state.discard],
            "discard_size": len(state.discard) + len(state.burned),
            "chosen": [c >= 0 for c in state.choice],
        },
        "table": {
            "revealed": [ids[c] if revealed and c >= 0 else None for c in state.revealed],
            "front": [[ids[c] for c in f] for f in state.front],
            "table": [ids[c] if c >= 0 else None for c in state.table],
            "thieves": [[s, ids[t]] for s, t in state.steal_queue],
            "steal_candidates": (
                [ids[c] for c in state._steal_candidates()] if phase == "steal" else []
            ),
            "add_kinds": [KINDS[k] if k >= 0 else None for k in state.add_kind],
            "add_asked": state.add_asked[:],
            "add_done": state.add_done[:],
        },
        "tail": {
            "scores": state.totals[:],
            "game_scores": [g[:] for g in state.game_scores],
            "last_round": _last_round(state.last_round),
            "result": state.result(),
        },
    }


def _last_round(last_round: list[Any] | None) -> JSON | None:
    """The last round's summary (kept as ints by the rules) in ids."""
    if last_round is None:
        return None
    number, revealed, added, closed, ended = last_round
    return {
        "round": number,
        "revealed": [CARD_ID[c] if c >= 0 else None for c in revealed],
        "added": [[CARD_ID[c] for c in a] for a in added],
        "closed": list(closed),
        "ended": ended,
    }


# ---------------------------------------------------------------- the determinizer


class Determinizer:
    """A seat's view parsed once into a template state and the pool of unseen cards;
    :meth:`sample` deals the pool into the hidden places."""

    def __init__(self, spec: GameSpec, view: Mapping[str, Any], *, quiet: bool = False) -> None:
        seat = view["seat"]
        if seat is None:
            raise ValueError("determinize needs a seat's view, not a spectator's")
        from thievery.games.schattendieb.rules import Schattendieb  # it imports this module

        n = view["players"]
        s = object.__new__(Schattendieb)
        s.players, s.seed = n, 0
        s.options = {**spec.defaults(), **view["options"]}
        s.rng = Rng(0)
        s.games, s.game_no, s.dealer = view["games"], view["game_no"] - 1, view["dealer"]
        s.totals = list(view["scores"])
        s.game_scores = [list(g) for g in view["game_scores"]]
        last = view["last_round"]
        s.last_round = last and [
            last["round"],
            [CARD_INDEX[c] if c is not None else -1 for c in last["revealed"]],
            [[CARD_INDEX[c] for c in a] for a in last["added"]],
            list(last["closed"]),
            last["ended"],
        ]
        s._history = None
        s.quiet = quiet
        s.phase = PHASE_NAMES.index(view["phase"])
        s.round_no = view["round"]

        def ids(cards: list[str]) -> list[int]:
            return [CARD_INDEX[c] for c in cards]

        def one(card: str | None) -> int:
            return CARD_INDEX[card] if card is not None else -1

        s.safes = [ids(x) for x in view["safes"]]
        s.closed = [one(c) for c in view["closed"]]
        s.discard = ids(view["discard"])
        s.burned = []
        s.pile = []
        s.front = [ids(x) for x in view["front"]]
        s.table = [one(c) for c in view["table"]]
        s.revealed = [one(c) for c in view["revealed"]]
        s.steal_queue = [(t, CARD_INDEX[c]) for t, c in view["thieves"]]
        s.add_kind = [KINDS.index(k) if k is not None else -1 for k in view["add_kinds"]]
        s.add_asked = list(view["add_asked"])
        s.add_done = list(view["add_done"])
        s._to_act = tuple(view["to_act"])
        s.choice = [-1] * n
        s.adds = [[] for _ in range(n)]
        s.hands = [[] for _ in range(n)]
        s.hands[seat] = ids(view["hand"])
        s.adds[seat] = ids(view["my_adds"])
        if view["my_choice"] is not None:
            s.choice[seat] = CARD_INDEX[view["my_choice"]]
        known = {
            c
            for place in (*s.safes, *s.front, s.discard, s.hands[seat], s.adds[seat])
            for c in place
        }
        known.update(c for c in (*s.closed, *s.table, s.choice[seat]) if c >= 0)
        self.template = s
        self.pool = [c for c in ALL_CARDS if c not in known]
        self.burned = view["discard_size"] - len(view["discard"])
        self.pile_size = view["pile_size"]
        self.chosen = list(view["chosen"])
        # Each other seat's hidden hand size (its sealed choice included). Nothing else
        # constrains the hidden cards: step 4 asks every seat whose jewellery is still in
        # front, whatever it holds, so being asked (or not) says nothing about a hand.
        self.sizes = [
            (t, view["hand_sizes"][t] + (1 if self.chosen[t] else 0)) for t in range(n) if t != seat
        ]
        if sum(size for _, size in self.sizes) + self.burned + self.pile_size != len(self.pool):
            raise ValueError("the view's card counts do not add up")

    def sample(self, rng: Rng) -> Schattendieb:
        """A new full state consistent with the view."""
        pool = self.pool[:]
        rng.shuffle(pool)
        hands: dict[int, list[int]] = {}
        at = 0
        for t, size in self.sizes:
            hands[t] = pool[at : at + size]
            at += size
        del pool[:at]
        s = self.template.clone()
        s.rng = Rng(rng.next64())
        for t, hand in hands.items():
            if self.chosen[t]:
                s.choice[t] = hand.pop()
            s.hands[t] = hand
        s.burned = pool[: self.burned]
        s.pile = pool[self.burned :]
        return s
