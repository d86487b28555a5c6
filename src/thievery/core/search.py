"""The hooks a search bot asks a game for: how to sample hidden information, how to play
fast, where to stop and how to score a position.

A game's plug-in carries one :class:`SearchHooks` (``GamePlugin.search``); the generic
search in :mod:`thievery.bots.ismcts` reads only these, never a game's modules. The
defaults work for any game from its determinizer alone; games override what they know
better.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from thievery.core.protocol import JSON, Action, GameSpec, State
from thievery.core.rng import Rng


class SearchHooks:
    """Search hooks for one game; the defaults need nothing but ``spec.determinize``."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec

    def sampler(self, view: Mapping[str, Any]) -> Callable[[Rng], State]:
        """A function drawing determinizations of ``view`` for a search; games may prepare
        work once, and may return states in a search mode (no events; stopping at the
        rollout horizon) since nobody plays them or reads their events."""
        spec = self.spec
        return lambda rng: spec.determinize(view, rng)

    def rollout_action(self, state: State, seat: int, rng: Rng) -> Action:
        """A fast action for search rollouts, from a (sampled) full state: uniformly random
        unless a game knows a cheap better policy. Never used on a true state."""
        return rng.choice(state.legal_actions(seat))

    def defaults(self) -> JSON:
        """Search settings that suit this game (e.g. ``{"rollout_depth": 60}``); a search
        bot uses them where it is not told otherwise."""
        return {}

    def rollout_horizon(self, state: State) -> Any:
        """Search rollouts stop once this value changes (e.g. a match's game number), so
        a rollout need not play whole matches; ``None`` for no horizon."""
        return None

    def evaluate(self, state: State) -> list[float]:
        """A reward in [0, 1] per seat for a (possibly unfinished) state.

        Finished: the winners share 1. Unfinished: an equal share unless a game knows
        better (games override this with an estimate).
        """
        return share(state)


def share(state: State) -> list[float]:
    """The plain reward: finished, the winners share 1; unfinished, an equal share."""
    result = state.result()
    n = state.players
    if result is None:
        return [1 / n] * n
    winners = result["winners"]
    return [1 / len(winners) if s in winners else 0.0 for s in range(n)]
