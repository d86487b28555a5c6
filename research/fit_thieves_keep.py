"""Fit the face-down inference weights of Thieves! (``determinize.KEEP_BY_VALUE``).

Plays self-play games of one bot level (3 players, derived seeds, one process); at every
third decision it records the view of the seat to move and the true cards under the
face-down loot that seat cannot see. It then fits one weight per kind of money card (by
final and raid value) so that the inferring determinizer's samples put each kind under
the hidden slots as often as it really lies there: a multiplicative fixed point, each
round sampling every recorded view ``--samples`` times (a 0 keeps a small floor weight,
for players who keep one). Games with an even index fit, odd ones test: on them it
prints the mean log-likelihood a hidden slot of its true kind under the uniform and the
inferring determinizer, and the mean final value of the hidden cards (true, uniform,
inferred). One JSON line. The weights in the package were made with

    python -m research.fit_thieves_keep --bot heuristic --games 600 --seed 3
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import thievery
from thievery.bots import make_bot
from thievery.core.rng import Rng
from thievery.games.thieves.cards import ALL_CARDS, CARD_MASK, FINAL_VALUE, KIND, MONEY, RAID_VALUE
from thievery.games.thieves.view import Determinizer
from thievery.sim.runner import derive_seed

Kind = tuple[int, int]  # (final value, raid value)
Position = tuple[Mapping[str, Any], list[Kind]]  # a view, the true kinds of its hidden slots
KINDS: list[Kind] = [(0, 0), (1, 1), (1, 3), (2, 2), (3, 3), (3, 1)]
FLOOR = 0.02  # the weight of a 0


def kind(card: int) -> Kind:
    return FINAL_VALUE[card], RAID_VALUE[card]


def record(bot: str, players: int, seed: int) -> list[Position]:
    """Self-play one game; every third decision's view and its hidden slots' true kinds."""
    spec = thievery.game("thieves")
    state = spec.new(players, seed)
    bots = [make_bot(bot, "thieves", s, seed) for s in range(players)]
    out: list[Position] = []
    step = 0
    while state.to_act:
        seat = state.to_act[0]
        view = state.view(seat)
        step += 1
        if step % 3 == 0:
            slots = Determinizer(spec, view).hidden_slots
            if slots:
                truth = [kind(state.loot[t][i] & CARD_MASK) for t, i in slots]  # type: ignore[attr-defined]
                out.append((view, truth))
        state.apply(seat, bots[seat].act(view, state.legal_actions(seat)))
    return out


def keep_table(w: Mapping[Kind, float]) -> list[float]:
    return [w.get(kind(c), 0.0) if KIND[c] == MONEY else 0.0 for c in ALL_CARDS]


def sampled(
    positions: Sequence[Position], keep: Sequence[float] | None, samples: int, rng: Rng
) -> list[Counter[Kind]]:
    """Per position: how often each kind was drawn under its hidden slots (all slots)."""
    spec = thievery.game("thieves")
    out = []
    for view, _ in positions:
        d = Determinizer(spec, view, keep)
        got: Counter[Kind] = Counter()
        for _ in range(samples):
            s = d.sample(rng)
            for t, i in d.hidden_slots:
                got[kind(s.loot[t][i] & CARD_MASK)] += 1
        out.append(got)
    return out


def fit(positions: Sequence[Position], rounds: int, samples: int, rng: Rng) -> dict[Kind, float]:
    """Weights whose samples match the true kinds' frequencies (the largest weight 1)."""
    truth: Counter[Kind] = Counter(k for _, ks in positions for k in ks)
    w = {k: (FLOOR if k == (0, 0) else 1.0) for k in KINDS}
    for _ in range(rounds):
        got: Counter[Kind] = Counter()
        for c in sampled(positions, keep_table(w), samples, rng):
            got.update(c)
        for k in KINDS:
            if k != (0, 0) and got[k] and truth[k]:
                w[k] *= truth[k] * samples / got[k]
        top = max(w.values())
        w = {k: v / top for k, v in w.items()}
        w[(0, 0)] = FLOOR
    return w


def held_out(
    positions: Sequence[Position], keep: Sequence[float] | None, samples: int, rng: Rng
) -> tuple[float, float]:
    """The mean log-likelihood a hidden slot of its true kind (the sampled frequency of
    the kinds in that position, smoothed), and the mean final value drawn."""
    loglik, value, n = 0.0, 0.0, 0
    for (_, truth), got in zip(positions, sampled(positions, keep, samples, rng), strict=True):
        total = sum(got.values())
        for k in truth:
            loglik += math.log((got[k] + 0.5) / (total + 0.5 * len(KINDS)))
            n += 1
        value += sum(k[0] * c for k, c in got.items()) / samples
    return loglik / n, value / n


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--samples", type=int, default=10)
    args = parser.parse_args()
    start = time.perf_counter()
    games = [record(args.bot, args.players, derive_seed(args.seed, i)) for i in range(args.games)]
    train = [p for i, g in enumerate(games) if i % 2 == 0 for p in g]
    held = [p for i, g in enumerate(games) if i % 2 == 1 for p in g]
    rng = Rng(args.seed)
    w = fit(train, args.rounds, args.samples, rng)
    uniform_ll, uniform_value = held_out(held, None, args.samples, rng)
    inferred_ll, inferred_value = held_out(held, keep_table(w), args.samples, rng)
    slots = sum(len(t) for _, t in held)
    print(
        json.dumps(
            {
                "bench": "fit_thieves_keep",
                "bot": args.bot,
                "players": args.players,
                "games": args.games,
                "train_views": len(train),
                "test_views": len(held),
                "test_slots": slots,
                "weights": {f"{f}/{r}": round(v, 3) for (f, r), v in w.items()},
                "test_loglik_uniform": round(uniform_ll, 4),
                "test_loglik_inferred": round(inferred_ll, 4),
                "test_final_value_true": round(sum(k[0] for _, t in held for k in t) / slots, 3),
                "test_final_value_uniform": round(uniform_value, 3),
                "test_final_value_inferred": round(inferred_value, 3),
                "seconds": round(time.perf_counter() - start, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
