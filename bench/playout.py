"""Random playouts through the public protocol: decisions/s, games/s and clones/s.

Prints one JSON line with the median of several repetitions, e.g.

    python bench/playout.py --game schattendieb --players 4 --seconds 5
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

import thievery
from thievery.core import Rng, State


def playouts(game: str, players: int, seconds: float, rng: Rng) -> tuple[int, int, list[State]]:
    """Play random games for ``seconds``; return decisions, games, and some mid-game states."""
    spec = thievery.game(game)
    decisions = games = 0
    samples: list[State] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        state = spec.new(players, rng.below(2**31))
        while True:
            to_act = state.to_act
            if not to_act:
                break
            seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            decisions += 1
            if decisions % 997 == 0 and len(samples) < 64:
                samples.append(state.clone())
        games += 1
    return decisions, games, samples


def clones(states: list[State], seconds: float) -> int:
    """How many clones of the given states fit in ``seconds``."""
    count = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for s in states:
            s.clone()
        count += len(states)
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="schattendieb")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0, help="total time budget")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = Rng(args.seed)
    per = args.seconds / args.repeats
    rates: dict[str, list[float]] = {"decisions_per_s": [], "games_per_s": [], "clones_per_s": []}
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        decisions, games, samples = playouts(args.game, args.players, per * 0.7, rng)
        elapsed = time.perf_counter() - t0
        rates["decisions_per_s"].append(decisions / elapsed)
        rates["games_per_s"].append(games / elapsed)
        samples = samples or [thievery.game(args.game).new(args.players, 0)]
        t0 = time.perf_counter()
        n = clones(samples, per * 0.3)
        rates["clones_per_s"].append(n / (time.perf_counter() - t0))
    out = {
        "bench": "playout",
        "game": args.game,
        "players": args.players,
        "repeats": args.repeats,
        **{k: round(statistics.median(v)) for k, v in rates.items()},
        "min_decisions_per_s": round(min(rates["decisions_per_s"])),
        "python": platform.python_version(),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
