"""Fit the level-1 play model of Der Schattendieb (``games/schattendieb/model.py``).

Plays self-play games of one bot level (``ismcts`` by default, one-game matches, 3 and 4
players, fixed derived seeds), records every step-1 decision of a seat holding two or more
different cards, and fits the softmax weights over ``FEATURES`` by maximum likelihood
(Newton's method, a small L2 penalty). Games with an even index train, odd ones test.
Prints one JSON line: the weights (paste them into ``WEIGHTS``), the decisions, and on the
held-out games the mean log-likelihood per decision against a uniform guess, and how often
the model's likeliest card is the one played. The weights in the package were made with

    python -m research.fit_schattendieb_model --games 400 --workers 2

(``--cache FILE`` keeps the recorded games, so that a refit after changing the features
does not replay them.)
"""

from __future__ import annotations

import argparse
import json
import pickle
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import thievery
from research.softmax import Decision, fit, score
from thievery.bots import make_bot
from thievery.games.schattendieb.cards import CARD_INDEX
from thievery.games.schattendieb.model import FEATURES, card_features
from thievery.games.schattendieb.rules import PLAY, Schattendieb
from thievery.sim.runner import derive_seed

Position = tuple[Schattendieb, int, int]  # the state, the seat, the hand index it played


def record(job: tuple[str, int, int]) -> list[Position]:
    """Self-play one game; the step-1 decisions with a real choice."""
    bot, players, seed = job
    state = thievery.game("schattendieb").new(players, seed, {"games": 1})
    assert isinstance(state, Schattendieb)
    bots = [make_bot(bot, "schattendieb", s, seed) for s in range(players)]
    out: list[Position] = []
    while state.to_act:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        action = bots[seat].act(state.view(seat), legal)
        hand = state.hands[seat]
        if state.phase == PLAY and len(set(hand)) > 1:
            chosen = hand.index(CARD_INDEX[action.card])  # type: ignore[attr-defined]
            out.append((state.clone(), seat, chosen))
        state.apply(seat, action)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="ismcts")
    parser.add_argument("--games", type=int, default=400, help="per player count")
    parser.add_argument("--players", default="3,4")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache", help="keep the recorded positions in this pickle file")
    args = parser.parse_args()
    jobs = [
        (args.bot, int(p), derive_seed(args.seed * 10 + int(p), i))
        for p in args.players.split(",")
        for i in range(args.games)
    ]
    cache = Path(args.cache) if args.cache else None
    key = (args.bot, jobs)
    if (
        cache is not None
        and cache.exists()
        and (stored := pickle.loads(cache.read_bytes()))[0] == key
    ):
        games = stored[1]
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            games = list(pool.map(record, jobs, chunksize=8))
        if cache is not None:
            cache.write_bytes(pickle.dumps((key, games)))

    def decisions(parity: int) -> list[Decision]:
        return [
            ([card_features(state, seat, c) for c in state.hands[seat]], chosen)
            for i, g in enumerate(games)
            if i % 2 == parity
            for state, seat, chosen in g
        ]

    train, test = decisions(0), decisions(1)
    w = fit(train)
    print(
        json.dumps(
            {
                "bench": "fit_schattendieb_model",
                "bot": args.bot,
                "games": len(jobs),
                "train_decisions": len(train),
                "test_decisions": len(test),
                "weights": [round(float(v), 3) for v in w],
                "features": list(FEATURES),
                **{f"test_{k}": round(v, 4) for k, v in score(w, test).items()},
            }
        )
    )


if __name__ == "__main__":
    main()
