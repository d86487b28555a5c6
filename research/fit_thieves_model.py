"""Fit the level-1 play model of Thieves! (``games/thieves/model.py``).

Plays self-play games of one bot level (``ismcts`` by default; 3 players, fixed derived
seeds, one process) and records every decision that plays a card or places a Double Loot
money card with two or more distinct plays open (``model.plays``), then fits the softmax
weights over ``FEATURES`` by maximum likelihood (Newton's method, a small L2 penalty).
Games with an even index train, odd ones test. Prints one JSON line: the weights (paste
them into ``WEIGHTS``), the decisions, and on the held-out games the mean log-likelihood
per decision (the model, a uniform guess, and level 0: the rollout policy's own choice
spread over the plays the heuristic scores highest), how often the model's likeliest play
is the one played, and how often the played one is among the heuristic's best.
``--cache FILE`` keeps the recorded positions (a pickle) so that a refit skips the games.
The weights in the package were made when ``ismcts`` had 1,000 rollouts (it has 100 now);
to play those games again:

    python -m research.fit_thieves_model --games 80 --seed 7 --iterations 1000
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import time

import numpy as np

import thievery
from research import softmax
from research.softmax import Decision, arrays, fit
from thievery.bots import make_bot
from thievery.core.protocol import Action
from thievery.core.rng import Rng
from thievery.games.thieves.actions import Play
from thievery.games.thieves.cards import CARD_INDEX
from thievery.games.thieves.model import BEST, FEATURES, card_key, dense, plays
from thievery.games.thieves.rules import DOUBLE, PLAY, Thieves
from thievery.sim.runner import derive_seed

Position = tuple[Thieves, int, Action]  # the state before the play, the seat, its play


def record(bot: str, players: int, seed: int, iterations: int | None = None) -> list[Position]:
    """Self-play one game (``iterations``: the search's budget, if not its own); the card
    plays with a real choice."""
    state = thievery.game("thieves").new(players, seed)
    assert isinstance(state, Thieves)
    bots = [make_bot(bot, "thieves", s, seed) for s in range(players)]
    for b in bots:
        if iterations is not None and hasattr(b, "iterations"):
            b.iterations = iterations
    out: list[Position] = []
    while state.to_act:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        before = state.clone() if state.phase in (PLAY, DOUBLE) else None
        action = bots[seat].act(state.view(seat), legal)
        if before is not None and len(plays(before, seat, Rng(0))[0]) > 1:
            out.append((before, seat, action))
        state.apply(seat, action)
    return out


def decision(position: Position) -> Decision:
    """A position's plays as feature vectors and which of them was played (copies of a
    card are one play)."""
    state, seat, action = position
    actions, rows = plays(state, seat, Rng(0))
    assert isinstance(action, Play)
    key = _key(action)
    chosen = [i for i, a in enumerate(actions) if _key(a) == key]
    assert len(chosen) == 1, (action, actions)
    return [dense(r) for r in rows], chosen[0]


def _key(action: Action) -> tuple[object, ...]:
    assert isinstance(action, Play)
    return (card_key(CARD_INDEX[action.card]), action.to)


def score(w: np.ndarray, data: list[Decision]) -> dict[str, float]:
    """Held-out mean log-likelihood (model, uniform, level 0) and top-play accuracy."""
    feats, real, chosen = arrays(data)
    rows = np.arange(len(data))
    counts = real.sum(axis=1)
    # Level 0 plays one of the heuristic's best plays (at random on a tie); smoothed so
    # that a play outside them costs log(0.01 / plays) rather than infinity.
    ties = feats[:, :, BEST]
    q = 0.99 * ties / ties.sum(axis=1, keepdims=True) + 0.01 / counts[:, None]
    return {
        **softmax.score(w, data),
        "level0_loglik": float(np.log(q[rows, chosen]).mean()),
        "heuristic_best_rate": float(ties[rows, chosen].mean()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bot", default="ismcts")
    parser.add_argument("--iterations", type=int, default=None, help="the search's budget")
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--cache", default=None, help="a pickle of the recorded positions")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.cache and os.path.exists(args.cache):
        with open(args.cache, "rb") as f:
            games: list[list[Position]] = pickle.load(f)
    else:
        games = [
            record(args.bot, args.players, derive_seed(args.seed, i), args.iterations)
            for i in range(args.games)
        ]
        if args.cache:
            with open(args.cache, "wb") as f:
                pickle.dump(games, f)
    train = [decision(p) for i, g in enumerate(games) if i % 2 == 0 for p in g]
    test = [decision(p) for i, g in enumerate(games) if i % 2 == 1 for p in g]
    w = fit(train)
    print(
        json.dumps(
            {
                "bench": "fit_thieves_model",
                "bot": args.bot,
                "players": args.players,
                "games": len(games),
                "train_decisions": len(train),
                "test_decisions": len(test),
                "weights": [round(float(v), 3) for v in w],
                "features": list(FEATURES),
                **{f"test_{k}": round(v, 4) for k, v in score(w, test).items()},
                "seconds": round(time.perf_counter() - start, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
