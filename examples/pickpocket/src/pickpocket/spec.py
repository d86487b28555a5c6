"""Pickpocket's spec: its name and options, new games, action parsing, the determinizer and
events in words (every seat named by :func:`thievery.core.protocol.seat_name`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from thievery.core.protocol import Action, Event, GameSpec, Option, seat_name
from thievery.core.rng import Rng

from pickpocket import actions
from pickpocket.actions import MAX_PLAYERS
from pickpocket.cards import CARD_INDEX, describe_card
from pickpocket.rules import Pickpocket
from pickpocket.view import Determinizer


class PickpocketSpec(GameSpec):
    """Pickpocket, 2 or 3 players: bank your best loot or pick a rival's pocket."""

    name: ClassVar[str] = "pickpocket"
    title: ClassVar[str] = "Pickpocket"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_PLAYERS
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "rounds", 6, "rounds in a game (everyone takes one turn a round)", minimum=1, maximum=12
        ),
        Option("hand", 3, "cards dealt to each player", minimum=1, maximum=5),
    )

    def new(
        self, players: int, seed: int = 0, options: Mapping[str, Any] | None = None
    ) -> Pickpocket:
        return Pickpocket.start(players, seed, self.check_new(players, seed, options))

    def parse_action(self, data: Mapping[str, Any]) -> Action:
        return actions.parse_action(data)

    def determinize(self, view: Mapping[str, Any], rng: Rng) -> Pickpocket:
        """A full state fitting one seat's view; the hidden cards are re-sampled."""
        return Determinizer(self, view).sample(rng)

    def describe(
        self, event: Event, seat: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        d = event.data

        def who(s: int, capital: bool = False) -> str:
            return seat_name(s, seat, names, capital=capital)

        if event.type == "bank":
            drew = " and drew a card" if d["drew"] else ""
            return f"{who(d['seat'], True)} banked a card face down{drew}"
        if event.type == "drew":
            return f"You drew {describe_card(CARD_INDEX[d['card']])}"
        if event.type == "pick":
            pocket = seat_name(d["target"], seat, names, possessive=True)
            card = describe_card(CARD_INDEX[d["card"]])
            drew = ", and drew a card" if d["drew"] else ""
            return f"{who(d['seat'], True)} picked {pocket} pocket: {card}{drew}"
        if event.type == "pass":
            return f"{who(d['seat'], True)} had nothing to bank or pick, and passed"
        if event.type == "round":
            return f"Round {d['round']} of {d['of']}"
        if event.type == "game_over":
            totals = ", ".join(f"{who(s)} {v}" for s, v in enumerate(d["scores"]))
            winners = " and ".join(who(s) for s in d["winners"])
            return f"Game over. Vaults: {totals}. Winner: {winners}"
        return f"{event.type}: {d}"
