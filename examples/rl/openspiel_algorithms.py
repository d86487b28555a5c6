"""OpenSpiel's own algorithms on Thievery's games, as docs/rl.md reports them.

1. OpenSpiel's ISMCTS bot (random-rollout evaluator) against uniform random bots in
   Thieves! (3 players), the search seat rotating, through ``evaluate_bots``.
2. OpenSpiel's outcome-sampling MCCFR on a small variant: Thieves Den at 2 players with
   only a few deals (the seed chance node), then its average policy against uniform
   random in both seats.

Prints one JSON line: each result's share of wins with a 95% interval.

    python examples/rl/openspiel_algorithms.py --games 30 --simulations 100 --iterations 2000
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts, outcome_sampling_mccfr
from open_spiel.python.bots import policy as policy_bot
from open_spiel.python.bots import uniform_random

from thievery.rl.openspiel import register, short_name
from thievery.sim.runner import share_interval as interval


class Search(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel 2.0.2's ISMCTSBot keeps nothing between moves but lacks the
    ``restart_at`` that ``evaluate_bots`` calls."""

    def restart_at(self, state: Any) -> None:
        pass


def ismcts_vs_random(games: int, simulations: int, seed: int) -> dict[str, Any]:
    game = pyspiel.load_game(short_name("thieves"), {"players": 3})
    rng = np.random.RandomState(seed)
    shares: list[float] = []
    t0 = time.perf_counter()
    for g in range(games):
        me = g % 3
        bots: list[Any] = []
        for p in range(3):
            if p == me:
                evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
                bots.append(Search(game, evaluator, 1.4, simulations, random_state=rng))
            else:
                bots.append(uniform_random.UniformRandomBot(p, rng))
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        shares.append(returns[me])
    return {
        "algorithm": "OpenSpiel ISMCTSBot vs 2 uniform random",
        "game": "thieves, 3 players",
        "simulations_per_move": simulations,
        "games": games,
        "fair_share": round(1 / 3, 3),
        **interval(shares),
        "seconds": round(time.perf_counter() - t0, 1),
    }


def mccfr_vs_random(iterations: int, games: int, deals: int, seed: int) -> dict[str, Any]:
    game = pyspiel.load_game(short_name("thieves-den"), {"players": 2, "deals": deals})
    np.random.seed(seed)  # outcome sampling draws from numpy's global generator
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    t0 = time.perf_counter()
    for _ in range(iterations):
        solver.iteration()
    trained = time.perf_counter() - t0
    average = solver.average_policy()
    rng = np.random.RandomState(seed)
    shares: list[float] = []
    for g in range(games):
        me = g % 2
        bots: list[Any] = [
            policy_bot.PolicyBot(p, rng, average)
            if p == me
            else uniform_random.UniformRandomBot(p, rng)
            for p in range(2)
        ]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        shares.append(returns[me])
    return {
        "algorithm": "OpenSpiel outcome-sampling MCCFR, average policy vs uniform random",
        "game": f"thieves-den, 2 players, {deals} deals",
        "iterations": iterations,
        "information_states": len(solver._infostates),
        "train_seconds": round(trained, 1),
        "games": games,
        "fair_share": 0.5,
        **interval(shares),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    register()
    out = [
        ismcts_vs_random(args.games, args.simulations, args.seed),
        mccfr_vs_random(args.iterations, args.games * 2, args.deals, args.seed),
    ]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
