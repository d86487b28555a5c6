"""Pickpocket's search hooks: what the generic search bots (``ismcts``, ``ismcts-strong``)
ask this game for. The defaults would work from the determinizer alone; these make
rollouts play sensibly and score a position by the vaults.

Rollout actions are chosen on sampled full states, never on the true state, so they may
read any hand: the sample's hidden cards are guesses.
"""

from __future__ import annotations

from thievery.core.protocol import JSON, Action, State
from thievery.core.rng import Rng
from thievery.core.search import SearchHooks, share

from pickpocket.actions import BANKS, PASS, PICKS
from pickpocket.cards import VALUE
from pickpocket.rules import Pickpocket


class PickpocketSearch(SearchHooks):
    """Rollouts bank the best card, or pick the fullest pocket; games are short, so a
    rollout plays to the end."""

    def rollout_action(self, state: State, seat: int, rng: Rng) -> Action:
        if not isinstance(state, Pickpocket):
            return super().rollout_action(state, seat, rng)
        hand = state.hands[seat]  # sorted: the best card last
        if hand and (VALUE[hand[-1]] >= 6 or rng.below(4)):
            return BANKS[hand[-1]]
        targets = [t for t in range(state.players) if t != seat and state.hands[t]]
        if targets:
            return PICKS[max(targets, key=lambda t: (len(state.hands[t]), rng.random()))]
        return BANKS[hand[-1]] if hand else PASS

    def defaults(self) -> JSON:
        return {"rollout_depth": 40}  # at most 12 rounds of 3 turns: always to the end

    def evaluate(self, state: State) -> list[float]:
        """Finished: the winners share 1. Unfinished: each seat's share of the banked loot."""
        if state.is_over or not isinstance(state, Pickpocket):
            return share(state)
        scores = state.scores()
        total = sum(scores)
        return [s / total for s in scores] if total else share(state)
