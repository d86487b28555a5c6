"""Search speed: simulations (rollouts) per second from real positions of a game.

Prints one JSON line with the median over several positions, e.g.

    python bench/ismcts.py --game schattendieb --players 4 --bot generic --iterations 1000
    python bench/ismcts.py --game thieves --players 4 --bot ismcts

``--bot generic`` is the generic tree search (``ISMCTSBot``) with ``--iterations``;
``--bot ismcts`` / ``ismcts-strong`` is the level a game registers, at its own budget
(for Der Schattendieb and Thieves! a root search, for Schatz-Rabatz the placement
search). A simulation is one sampled state played to the end of a rollout.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import thievery
from thievery.bots import ISMCTSBot, make_bot
from thievery.core import Rng


def simulations(bot: object) -> int:
    """How many simulations the bot's last decision ran."""
    for name in ("last_rollouts", "last_iterations"):
        if hasattr(bot, name):
            return int(getattr(bot, name))
    raise TypeError(f"{type(bot).__name__} does not count its simulations")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="schattendieb")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="generic")
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--positions", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    spec = thievery.game(args.game)
    rng = Rng(args.seed)
    rates = []
    for p in range(args.positions):
        # A position some random moves into a game, at a decision with a real choice.
        state = spec.new(args.players, args.seed + p)
        for _ in range(rng.below(12)):
            if not state.to_act:
                break
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        while state.to_act and len(state.legal_actions(state.to_act[0])) < 2:
            seat = state.to_act[0]
            state.apply(seat, state.legal_actions(seat)[0])
        if not state.to_act:
            continue
        seat = state.to_act[0]
        bot = (
            ISMCTSBot(args.game, seat, Rng(p), iterations=args.iterations)
            if args.bot == "generic"
            else make_bot(args.bot, args.game, seat, p)
        )
        t0 = time.perf_counter()
        bot.act(state.view(seat), state.legal_actions(seat))
        seconds = time.perf_counter() - t0
        if ran := simulations(bot):  # none where every legal move is the same play
            rates.append(ran / seconds)
    print(
        json.dumps(
            {
                "bench": "ismcts",
                "game": args.game,
                "players": args.players,
                "bot": args.bot,
                "iterations": args.iterations if args.bot == "generic" else None,
                "positions": len(rates),
                "simulations_per_s": round(statistics.median(rates)),
                "min_simulations_per_s": round(min(rates)),
                "max_simulations_per_s": round(max(rates)),
            }
        )
    )


if __name__ == "__main__":
    main()
