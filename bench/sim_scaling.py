"""Simulation throughput: games/s with 1 and 2 local workers and on a local Ray instance.

Prints one JSON line (median of the repetitions), e.g.

    python bench/sim_scaling.py --game schattendieb --games 400 --bots heuristic,random,random
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from thievery.sim import simulate
from thievery.sim.ray_runner import simulate_ray


def rate(run: object, games: int) -> float:
    t0 = time.perf_counter()
    count = sum(1 for _ in run)  # type: ignore[attr-defined]
    assert count == games
    return games / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="schattendieb")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--bots", default="heuristic,heuristic,heuristic,heuristic")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    bots = args.bots.split(",")
    results: dict[str, list[float]] = {"workers_1": [], "workers_2": [], "ray_local": []}
    for r in range(args.repeats):
        results["workers_1"].append(rate(simulate(args.game, bots, args.games, r), args.games))
        results["workers_2"].append(
            rate(simulate(args.game, bots, args.games, r, workers=2), args.games)
        )
        results["ray_local"].append(
            rate(simulate_ray(args.game, bots, args.games, r, address="local"), args.games)
        )
    medians = {k: round(statistics.median(v), 1) for k, v in results.items()}
    print(
        json.dumps(
            {
                "bench": "sim_scaling",
                "game": args.game,
                "games": args.games,
                "bots": bots,
                **{f"games_per_s_{k}": v for k, v in medians.items()},
                "speedup_2_workers": round(medians["workers_2"] / medians["workers_1"], 2),
                "speedup_ray_local": round(medians["ray_local"] / medians["workers_1"], 2),
            }
        )
    )


if __name__ == "__main__":
    main()
