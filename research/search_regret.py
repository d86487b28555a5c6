"""Thieves!: how much each level's decisions give away, against a long paired reference.

Positions are sampled from games between heuristic bots (3 players by default). At each,
every distinct move of the seat to move (copies of a card are one move) is played on
``--samples`` full states drawn from the seat's view (the determinizer, never the true
state), each followed by a rollout to the end of the game by the heuristic's rules, every
move on the same sample with the same random stream (common random numbers). The first
half of the samples picks the reference's best move; the second half values every move,
so a level's **regret** at a position is the second half's value of that best move less
its value of the level's move, in points of win chance (an unbiased, if anything low,
estimate: the level and the second half never see the first half's noise). Each level
decides ``--reps`` times with different seeds. Prints one JSON line: each level's mean
regret per decision and its mean time per decision.

    python -m research.search_regret --positions 60 --samples 4000 --reps 2 \
        --levels heuristic,ismcts,ismcts-strong
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from thievery.bots import make_bot
from thievery.core import Rng
from thievery.core.protocol import Action
from thievery.core.registry import game as get_game
from thievery.core.registry import plugin
from thievery.games.thieves.rules import Thieves
from thievery.games.thieves.search import _distinct, action_class

GAME = "thieves"


def positions(
    game: str, players: int, count: int, seed: int, rate: float = 0.3
) -> list[tuple[dict[str, Any], list[Action]]]:
    """Views and legal actions of ``count`` decisions with a choice, from games between
    heuristic bots (each such decision is taken with chance ``rate``, so positions spread
    over the game). ``research/search_agreement.py`` draws its positions here too."""
    spec = get_game(game)
    out: list[tuple[dict[str, Any], list[Action]]] = []
    g = 0
    while len(out) < count:
        g += 1
        state = spec.new(players, seed * 1000 + g)
        bots = [make_bot("heuristic", game, s, g) for s in range(players)]
        rng = Rng(seed * 1000 + g)
        while state.to_act and len(out) < count:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            view = state.view(seat)
            if len(legal) > 1 and rng.random() < rate:
                out.append((view, legal))
            state.apply(seat, bots[seat].act(view, legal))
    return out


def reference(
    view: dict[str, Any], legal: list[Action], samples: int, seed: int
) -> tuple[Thieves, list[tuple[object, ...]], list[float], list[float]] | None:
    """The first sample, each distinct move's class, and its value on each half of the
    samples (None if the seat has one distinct move)."""
    seat = int(view["seat"])
    hooks = plugin(GAME).hooks
    sample = hooks.sampler(view)
    rng = Rng(seed)
    first = sample(rng)
    assert isinstance(first, Thieves)
    moves = _distinct(first, legal, None)
    if len(moves) < 2:
        return None
    totals = [[0.0] * len(moves), [0.0] * len(moves)]
    half = samples // 2
    for i in range(samples):
        state = sample(rng)
        stream = rng.next64()
        for k, move in enumerate(moves):
            copy = state.clone()
            r = Rng(stream)
            copy.apply_trusted(seat, move)
            while copy.to_act:
                s = copy.to_act[0]
                copy.apply_trusted(s, hooks.rollout_action(copy, s, r))
            totals[i >= half][k] += hooks.evaluate(copy)[seat]
    first_half = [t / half for t in totals[0]]
    second_half = [t / (samples - half) for t in totals[1]]
    return first, [action_class(first, m) for m in moves], first_half, second_half


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--samples", type=int, default=4000)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default="heuristic,ismcts,ismcts-strong")
    args = parser.parse_args()
    levels = args.levels.split(",")
    regret: dict[str, list[float]] = {name: [] for name in levels}
    seconds: dict[str, float] = dict.fromkeys(levels, 0.0)
    start = time.perf_counter()
    for i, (view, legal) in enumerate(positions(GAME, args.players, args.positions, args.seed)):
        ref = reference(view, legal, args.samples, 777 + i)
        if ref is None:
            continue
        first, classes, first_half, second_half = ref
        best = second_half[first_half.index(max(first_half))]
        seat = int(view["seat"])
        for name in levels:
            for k in range(args.reps):
                t = time.perf_counter()
                move = make_bot(name, GAME, seat, 300 + k).act(view, legal)
                seconds[name] += time.perf_counter() - t
                regret[name].append(best - second_half[classes.index(action_class(first, move))])
    print(
        json.dumps(
            {
                "bench": "search_regret",
                "game": GAME,
                "players": args.players,
                "positions": len(regret[levels[0]]) // args.reps,
                "samples": args.samples,
                "regret_points": {
                    n: round(100 * sum(r) / len(r), 2) for n, r in regret.items() if r
                },
                "seconds_per_decision": {
                    n: round(seconds[n] / len(regret[n]), 3) for n in levels if regret[n]
                },
                "seconds": round(time.perf_counter() - start, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
