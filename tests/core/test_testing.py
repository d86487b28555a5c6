"""``thievery.testing`` on a game from outside: a tiny card game defined here, never
registered, passes ``check_game`` in one call; broken copies of it fail the check that
guards the broken promise, with a message that says what broke."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from thievery.core import (
    Action,
    Event,
    GamePlugin,
    GameSpec,
    MalformedAction,
    Rng,
    SearchHooks,
    State,
    make_rng,
)
from thievery.core.protocol import JSON, parse_fields, seat_name
from thievery.testing import (
    check_components,
    check_determinism,
    check_game,
    check_golden,
    check_is_legal_matches_legal_actions,
    check_keyed_deals,
    check_non_interference,
    check_refusals,
    playthrough,
)

CARDS = [f"c{k}" for k in range(1, 10)]


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play this card from your hand."""

    type: ClassVar[str] = "play"
    card: str


class Toy(State):
    """Seats in turn play a card of their hand face up and draw one; the highest total of
    played cards wins when every hand is empty. Hands and the deck are hidden."""

    spec: ClassVar[GameSpec]

    def __init__(self, players: int, seed: int, options: JSON) -> None:
        self.players, self.seed, self.options = players, seed, options
        self.rng = make_rng(seed)
        self.deck = CARDS[:]
        self.rng.shuffle(self.deck)
        self.hands = [[self.deck.pop(), self.deck.pop()] for _ in range(players)]
        self.table: list[tuple[int, str]] = []
        self.turn = 0
        self._history = None

    @property
    def to_act(self) -> tuple[int, ...]:
        return (self.turn,) if any(self.hands) else ()

    def legal_actions(self, seat: int) -> list[Action]:
        return [Play(c) for c in self.hands[seat]] if seat in self.to_act else []

    def is_legal(self, seat: int, action: Action) -> bool:
        return seat in self.to_act and isinstance(action, Play) and action.card in self.hands[seat]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        assert isinstance(action, Play)
        self.hands[seat].remove(action.card)
        self.table.append((seat, action.card))
        events = [Event("play", {"seat": seat, "card": action.card})]
        if self.deck:
            card = self.deck.pop()
            self.hands[seat].append(card)
            events.append(Event("draw", {"seat": seat, "card": card}, audience=seat))
        for k in range(1, self.players + 1):
            if self.hands[(seat + k) % self.players]:
                self.turn = (seat + k) % self.players
                break
        return events

    def view(self, seat: int | None) -> JSON:
        return {
            "players": self.players,
            "seat": seat,
            "hand": self.hands[seat][:] if seat is not None else [],
            "hand_sizes": [len(h) for h in self.hands],
            "deck_size": len(self.deck),
            "table": [[s, c] for s, c in self.table],
            "turn": self.turn,
            "result": self.result(),
        }

    def result(self) -> JSON | None:
        if any(self.hands):
            return None
        scores = [
            sum(int(c[1:]) for s, c in self.table if s == seat) for seat in range(self.players)
        ]
        return {"scores": scores, "winners": [s for s, v in enumerate(scores) if v == max(scores)]}

    def clone(self) -> Toy:
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.rng = self.rng.copy()
        copy.deck, copy.table = self.deck[:], self.table[:]
        copy.hands = [h[:] for h in self.hands]
        return copy

    def locations(self) -> dict[str, list[Any]]:
        places = {"deck": self.deck[:], "table": [c for _, c in self.table]}
        places.update({f"hand{s}": h[:] for s, h in enumerate(self.hands)})
        return places


class ToySpec(GameSpec):
    name = "toy"
    title = "Toy"
    version = 1
    min_players = 2
    max_players = 3
    options = ()
    state_class: type[Toy] = Toy

    def new(self, players: int, seed: int = 0, options: Mapping[str, Any] | None = None) -> Toy:
        state = self.state_class(players, seed, self.check_new(players, seed, options))
        state.spec = self  # type: ignore[misc]
        return state

    def parse_action(self, data: Mapping[str, Any]) -> Action:
        if data.get("type") != "play":
            raise MalformedAction(f"unknown action type {data.get('type')!r}")
        (card,) = parse_fields(data, ["card"], kind="play")
        if not isinstance(card, str):
            raise MalformedAction(f"a card is a string, not {card!r}")
        return Play(card)

    def determinize(self, view: Mapping[str, Any], rng: Rng) -> State:
        seat = view["seat"]
        state = self.new(view["players"], 0)
        state.table = [(s, c) for s, c in view["table"]]
        state.turn = view["turn"]
        unseen = [c for c in CARDS if c not in view["hand"] and all(c != t for _, t in state.table)]
        rng.shuffle(unseen)
        for s, size in enumerate(view["hand_sizes"]):
            state.hands[s] = view["hand"][:] if s == seat else [unseen.pop() for _ in range(size)]
        state.deck = unseen
        return state

    def describe(
        self, event: Event, seat: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        who = seat_name(event.data["seat"], seat, names, capital=True)
        return f"{who} {'played' if event.type == 'play' else 'drew'} {event.data['card']}"


TOY = GamePlugin(spec=ToySpec(), package=__name__)


def broken(state_class: type[Toy]) -> GameSpec:
    spec = ToySpec()
    spec.state_class = state_class
    return spec


class Lax(Toy):
    """Admits a card from the deck too, which legal_actions never lists."""

    def is_legal(self, seat: int, action: Action) -> bool:
        return super().is_legal(seat, action) or (
            seat in self.to_act and isinstance(action, Play) and action.card in self.deck
        )


class Leaky(Toy):
    """Shows every seat the top card of the deck."""

    def view(self, seat: int | None) -> JSON:
        return {**super().view(seat), "top": self.deck[-1] if self.deck else None}


class Losing(Toy):
    """Loses the played card instead of putting it on the table."""

    def _apply(self, seat: int, action: Action) -> list[Event]:
        events = super()._apply(seat, action)
        self.table.pop()
        return events


class Forgiving(Toy):
    """Treats an action by a seat that is not to act as the acting seat's."""

    def is_legal(self, seat: int, action: Action) -> bool:
        return isinstance(action, Play) and any(action.card in h for h in self.hands)


class Shaky(Toy):
    """Deals from a clock-dependent shuffle: the same seed, another game."""

    _games = 0

    def __init__(self, players: int, seed: int, options: JSON) -> None:
        Shaky._games += 1
        super().__init__(players, seed + Shaky._games, options)


class Unkeyed(Toy):
    """Deals from ``Rng(seed)``: a server's keyed seeds that share their low bits (all of
    them, if the server kept those fixed) deal alike."""

    def __init__(self, players: int, seed: int, options: JSON) -> None:
        super().__init__(players, seed, options)
        self.rng = Rng(seed)
        self.deck = CARDS[:]
        self.rng.shuffle(self.deck)
        self.hands = [[self.deck.pop(), self.deck.pop()] for _ in range(players)]


class Recloned(Toy):
    """Shuffles the deck before each draw, and clones its generator as ``Rng(state)``: a
    keyed one becomes a SplitMix64 of its draw count, and every card after a server's
    first clone is public."""

    def _apply(self, seat: int, action: Action) -> list[Event]:
        self.rng.shuffle(self.deck)
        return super()._apply(seat, action)

    def clone(self) -> Toy:
        copy = super().clone()
        copy.rng = Rng(self.rng.state)
        return copy


def test_an_outside_game_passes_the_whole_suite_in_one_call() -> None:
    check_game(TOY)
    check_game(TOY.spec, players=3, quick=True)


@pytest.mark.parametrize(
    ("state_class", "check", "message"),
    [
        (Lax, check_is_legal_matches_legal_actions, "legal_actions(seat 0) does not list it"),
        (Leaky, check_non_interference, "the view depends on something the seat cannot see"),
        (Losing, check_components, "created, lost or duplicated components"),
        (Forgiving, check_refusals, "not to act"),
        (Shaky, check_determinism, "differs"),
        (Unkeyed, check_keyed_deals, "not make_rng(seed)"),
        (Recloned, check_keyed_deals, "not make Rng(self.rng.state)"),
    ],
)
def test_a_broken_game_fails_the_check_that_guards_its_promise(
    state_class: type[Toy], check: Callable[..., None], message: str
) -> None:
    spec = broken(state_class)
    with pytest.raises(AssertionError, match=re.escape(message)):
        check(spec, 2, seed=1) if check is check_determinism else check(spec, 2)
    with pytest.raises(AssertionError):
        check_game(spec, quick=True)
    check(TOY, 2, seed=1) if check is check_determinism else check(TOY, 2)


def test_an_outside_game_keeps_a_golden_playthrough(tmp_path: Any) -> None:
    text = playthrough(TOY, 2, 3)
    assert text.count("== step ") == 9 and "legal 0: " in text and "view 1: hand: " in text
    check_golden(tmp_path / "toy.txt", TOY, 2, 3, regold=True)
    check_golden(tmp_path / "toy.txt", TOY, 2, 3, regold=False)


class SlipperySampler(SearchHooks):
    """A search sampler that deals the seat itself another hand: search bots would then
    plan with cards the seat does not hold."""

    def sampler(self, view: Mapping[str, Any]) -> Callable[[Rng], State]:
        def draw(rng: Rng) -> State:
            state = self.spec.determinize(view, rng)
            assert isinstance(state, Toy)
            seat = view["seat"]
            if state.hands[seat] and state.deck:
                state.hands[seat][0], state.deck[0] = state.deck[0], state.hands[seat][0]
            return state

        return draw


def test_the_search_sampler_is_held_to_non_interference_too() -> None:
    slippery = GamePlugin(spec=ToySpec(), package=__name__, search=SlipperySampler(ToySpec()))
    with pytest.raises(AssertionError, match="drawn by the search sampler"):
        check_non_interference(slippery, 2)
    check_non_interference(TOY, 2)  # the default sampler keeps the promise
