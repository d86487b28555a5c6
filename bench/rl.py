"""The research interfaces' speed beside their peers, measured in the same run.

PettingZoo: AEC decisions/s of ``thievery.rl.pettingzoo.env(game, players)`` with random
legal actions drawn from the action masks (the documented AEC loop: ``agent_iter``,
``last``, ``step``; the environment as ``env()`` gives it, with the guarantees of
PettingZoo's wrappers), against PettingZoo's own ``leduc_holdem_v4.env()`` played by the
same loop. OpenSpiel: steps/s (chance and decisions: the seed's two chance nodes count as
two steps, the dominoes' draws as one each) of random playouts of
``python_thievery_<game>`` against OpenSpiel's ``python_block_dominoes``. Each
repetition does a fixed, seeded amount of work. In each round every game runs right
after a run of its peer and its ratio is taken to that run (paired, so that a slow spell
of a shared machine falls on both sides); the ratios printed are the medians of these
per-round ratios, by wall time and by CPU time (``*_cpu``: the process's own CPU seconds,
which other work on a loaded machine disturbs less; the peers' scripts report both too),
with the rates' medians, as one JSON line:

    python bench/rl.py --players 4 --reps 5

By default every repetition replays the same seeded games (both sides), which favours
anything an environment remembers by content; ``--fresh`` plays new games in every
repetition (both sides), as a training run does.

``--parts`` prints instead where a PettingZoo decision's time goes (CPU microseconds a
decision: observation, mask, move, the loop's draw; see :func:`parts`).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import platform
import random
import statistics
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from thievery.rl.match import Match
from thievery.rl.pettingzoo import env

GAMES = ("schattendieb", "thieves", "thieves-den", "schatz-rabatz")
# games per repetition at --scale 1 (a few tenths of a second each on a 2-core machine)
PZ_GAMES = {"schattendieb": 48, "thieves": 200, "thieves-den": 40, "schatz-rabatz": 100}
OS_GAMES = {"schattendieb": 40, "thieves": 200, "thieves-den": 40, "schatz-rabatz": 60}
LEDUC_GAMES = 1500
DOMINOES_GAMES = 150


def seeds(seed: int, fresh: bool) -> Iterator[int]:
    """Each repetition's seed: ``seed`` every time (the same games replayed), or with
    ``fresh`` a new one each time (new games, as a training run plays them)."""
    return itertools.count(seed, 1000) if fresh else itertools.repeat(seed)


def aec_case(
    make: Callable[[], Any], games: int, seed: int, fresh: bool = False
) -> Callable[[], int]:
    """A repetition: ``games`` seeded games of an AEC env; returns the decisions."""
    e = make()
    next_seed = seeds(seed, fresh)

    def run() -> int:
        s = next(next_seed)
        rng = np.random.default_rng(s)
        decisions = 0
        e.reset(seed=s)
        for g in range(games):
            if g:
                e.reset()
            for _agent in e.agent_iter():
                obs, _reward, terminated, truncated, _info = e.last()
                if terminated or truncated:
                    e.step(None)
                    continue
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                decisions += 1
        return decisions

    return run


def spiel_case(
    name: str, params: dict[str, Any], games: int, seed: int, fresh: bool = False
) -> Callable[[], int]:
    """A repetition: ``games`` random playouts of an OpenSpiel game; returns the steps."""
    import open_spiel.python.games  # noqa: F401  registers OpenSpiel's python_* games
    import pyspiel

    game = pyspiel.load_game(name, params)
    next_seed = seeds(seed, fresh)

    def run() -> int:
        rng = random.Random(next(next_seed))
        steps = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(actions, weights=probs)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
            state.returns()
        return steps

    return run


def _rate(run: Callable[[], int]) -> tuple[float, float, int]:
    """One repetition of a case: its rates per wall second and per CPU second, its count."""
    w0, c0 = time.perf_counter(), time.process_time()
    count = run()
    cpu = max(time.process_time() - c0, 1e-9)
    return count / (time.perf_counter() - w0), count / cpu, count


def measure(
    peer: str, cases: dict[str, Callable[[], int]], reps: int
) -> tuple[dict[str, dict[str, int]], dict[str, float], dict[str, float]]:
    """Run every case once to warm up, then ``reps`` rounds; in each round every case
    other than ``peer`` runs right after a run of ``peer``, and its ratio is taken to that
    run (a paired measurement: a slower spell of the shared machine falls on both sides).
    Returns the rates per wall second (median, min, max; and the median per CPU second,
    which a loaded machine disturbs less) and each case's median ratios, by wall time and
    by CPU time."""
    for run in cases.values():
        run()
    rates: dict[str, list[float]] = {name: [] for name in cases}
    cpu_rates: dict[str, list[float]] = {name: [] for name in cases}
    ratios: dict[str, list[float]] = {name: [] for name in cases if name != peer}
    cpu_ratios: dict[str, list[float]] = {name: [] for name in ratios}
    counts: dict[str, int] = {}
    for _ in range(reps):
        for name in ratios:
            peer_rate, peer_cpu, counts[peer] = _rate(cases[peer])
            rate, cpu, counts[name] = _rate(cases[name])
            rates[peer].append(peer_rate)
            cpu_rates[peer].append(peer_cpu)
            rates[name].append(rate)
            cpu_rates[name].append(cpu)
            ratios[name].append(rate / peer_rate)
            cpu_ratios[name].append(cpu / peer_cpu)
    summary = {
        name: {
            "median": round(statistics.median(r)),
            "min": round(min(r)),
            "max": round(max(r)),
            "median_cpu": round(statistics.median(cpu_rates[name])),
            "count_per_rep": counts[name],
        }
        for name, r in rates.items()
    }

    def medians(by: dict[str, list[float]]) -> dict[str, float]:
        return {name: round(statistics.median(r), 2) for name, r in by.items()}

    return summary, medians(ratios), medians(cpu_ratios)


def parts(game: str, players: int, games: int, seed: int) -> dict[str, float]:
    """Where a PettingZoo decision's time goes (CPU microseconds a decision, the best of
    5): the seat's observation, its mask, the move (``Match.act``: the engine's apply and
    the turn order) and the benchmark loop's own draw from the mask, timed apart on the
    states of ``games`` recorded random games (garbage collection off while timing)."""
    e = env(game, players)
    match = e.match
    rng = np.random.default_rng(seed)
    states: list[tuple[Match, int, int]] = []  # (the match then, the seat, its action)
    e.reset(seed=seed)
    for g in range(games):
        if g:
            e.reset()
        for _agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            assert obs is not None
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            seat = match.current()
            assert seat is not None
            states.append((match.copy(), seat, action))
            e.step(action)
    masks = [m.mask(s) for m, s, _ in states]

    def observe() -> None:
        for m, s, _ in states:
            m.observation(s)

    def mask() -> None:
        for m, s, _ in states:
            m.mask(s)

    def draw() -> None:
        for x in masks:
            int(rng.choice(np.flatnonzero(x)))

    copies = [[m.copy() for m, _, _ in states] for _ in range(5)]

    def move() -> None:
        for c, (_, s, a) in zip(copies.pop(), states, strict=True):
            c.act(s, a)

    def best(run: Callable[[], None]) -> float:
        times = []
        for _ in range(5):
            t0 = time.process_time()
            run()
            times.append(time.process_time() - t0)
        return round(min(times) / len(states) * 1e6, 1)

    gc.disable()
    try:
        return {
            "observation": best(observe),
            "mask": best(mask),
            "move": best(move),
            "draw": best(draw),
        }
    finally:
        gc.enable()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0, help="work per repetition")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="new games every repetition (default: each repetition replays the same games)",
    )
    parser.add_argument("--no-openspiel", action="store_true")
    parser.add_argument("--no-pettingzoo", action="store_true")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated subset")
    parser.add_argument(
        "--parts", action="store_true", help="only where a PettingZoo decision's time goes"
    )
    args = parser.parse_args()
    games = tuple(g for g in GAMES if g in args.games.split(","))
    warnings.filterwarnings("ignore")

    def n(x: int) -> int:
        return max(1, round(x * args.scale))

    out: dict[str, Any] = {
        "bench": "rl",
        "players": args.players,
        "reps": args.reps,
        "fresh": args.fresh,
        "python": platform.python_version(),
    }
    if args.parts:
        out["cpu_us_per_decision"] = {
            g: parts(g, args.players, n(PZ_GAMES[g]) // 4 + 1, args.seed) for g in games
        }
        print(json.dumps(out))
        return
    if not args.no_pettingzoo:
        from pettingzoo.classic import leduc_holdem_v4

        pz: dict[str, Callable[[], int]] = {
            "leduc_holdem_v4": aec_case(leduc_holdem_v4.env, n(LEDUC_GAMES), args.seed, args.fresh)
        }
        for g in games:
            pz[g] = aec_case(
                lambda g=g: env(g, args.players),  # type: ignore[misc]
                n(PZ_GAMES[g]),
                args.seed,
                args.fresh,
            )
        pz_rates, pz_ratios, pz_cpu = measure("leduc_holdem_v4", pz, args.reps)
        out["pettingzoo_aec_decisions_per_s"] = pz_rates
        out["pettingzoo_ratio_vs_leduc"] = pz_ratios
        out["pettingzoo_ratio_vs_leduc_cpu"] = pz_cpu
    if not args.no_openspiel:
        from thievery.rl.openspiel import register, short_name

        register()
        spiel: dict[str, Callable[[], int]] = {
            "python_block_dominoes": spiel_case(
                "python_block_dominoes", {}, n(DOMINOES_GAMES), args.seed, args.fresh
            )
        }
        for g in games:
            spiel[g] = spiel_case(
                short_name(g), {"players": args.players}, n(OS_GAMES[g]), args.seed, args.fresh
            )
        os_rates, os_ratios, os_cpu = measure("python_block_dominoes", spiel, args.reps)
        out["openspiel_steps_per_s"] = os_rates
        out["openspiel_ratio_vs_block_dominoes"] = os_ratios
        out["openspiel_ratio_vs_block_dominoes_cpu"] = os_cpu
    print(json.dumps(out))


if __name__ == "__main__":
    main()
