"""How often a search level's decision matches a much longer search, by budget.

Positions come from games between heuristic bots; at each sampled decision the game's
``ismcts`` level decides with several budgets and once with a long reference budget.
Prints one JSON line, e.g.

    python -m research.search_agreement --game schattendieb --players 4 --budgets 100,400,2000
"""

from __future__ import annotations

import argparse
import json

from research.search_regret import positions as sample_positions
from thievery.bots import make_bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="schattendieb")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--budgets", default="100,400,2000")
    parser.add_argument("--reference", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    positions = sample_positions(args.game, args.players, args.positions, args.seed, 0.25)

    def decide(view: dict[str, object], legal: list[object], budget: int, seed: int) -> object:
        bot = make_bot("ismcts", args.game, int(view["seat"]), seed)  # type: ignore[call-overload]
        bot.iterations = budget  # type: ignore[attr-defined]
        choice = bot.act(view, legal)  # type: ignore[arg-type]
        return choice, getattr(bot, "guided", None)

    agree = dict.fromkeys(budgets, 0)
    guide = 0
    for i, (view, legal) in enumerate(positions):
        reference, guided = decide(view, legal, args.reference, 10_000 + i)
        guide += guided == reference
        for b in budgets:
            agree[b] += decide(view, legal, b, i)[0] == reference
    print(
        json.dumps(
            {
                "bench": "search_agreement",
                "game": args.game,
                "players": args.players,
                "positions": len(positions),
                "reference": args.reference,
                "guide_agrees": guide,
                "agrees": {str(b): n for b, n in agree.items()},
            }
        )
    )


if __name__ == "__main__":
    main()
