"""How much better than a search level can any bot do? A cheating ceiling.

Plays one seat of a search level that is handed the **true** state instead of samples
from its view (its ``sampler`` returns copies of the real game: every hand, face-down
card and the deck's order are known to it; its rollouts still play every seat by the
rollout policy) against the same level, fair, in every other seat. The jobs are the
ladder's (``thievery.sim.runner.jobs``: derived seeds, seats rotating every game), so the
cheater's win rate is directly comparable with the ladder's strong rung. If even a
cheater with the same budget cannot clearly beat the fair level, a fair strong level has
little room above it. With ``--know now`` the cheater knows every card *now* (hands,
face-down cards) but not the deck's order nor any later shuffle: each sample is the true
state with its deck re-shuffled and its random source re-seeded (games whose state has a
``deck`` list and an ``rng``, as Thieves!). That is the ceiling of perfect inference, the
most a fair determinizer could ever learn. A diagnostic only: no bot in the package ever
reads a true state.
Games where decisions are simultaneous (Der Schattendieb) let the cheater see sealed
choices too, which makes it a much looser ceiling there. One JSON line, e.g.

    python -m research.oracle_ceiling --game thieves --players 3 --games 150 --workers 2
    python -m research.oracle_ceiling --game thieves --know now --games 600 --seed 2

``--iterations N`` sets every search seat's budget (the figures in
``docs/ladder-thieves.md`` were made with Thieves!'s ``ismcts`` at 1,000 rollouts, its budget
then: ``--iterations 1000``).
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from thievery.bots import make_bot
from thievery.bots.ismcts import ISMCTSBot
from thievery.core.protocol import State
from thievery.core.registry import game as get_game
from thievery.core.rng import Rng
from thievery.sim.runner import Job, jobs, wilson

CHEAT = "cheat"


def play(task: tuple[Job, str, str, int | None]) -> tuple[float, float]:
    """One game of a job, ``base`` the level, ``know`` what the cheater is told; (the
    cheater's share of the win, its score)."""
    (game, seating, seed, options, _), base, know, iterations = task
    state = get_game(game).new(len(seating), seed, options)
    truth: list[State] = [state]

    def now(rng: Rng) -> Any:
        copy: Any = truth[0].clone()  # type: ignore[attr-defined]
        rng.shuffle(copy.deck)
        copy.rng = Rng(rng.next64())
        return copy

    def sampler(view: dict[str, Any]) -> Any:
        if know == "now":
            return now
        return lambda rng: truth[0].clone()  # type: ignore[attr-defined]

    bots = []
    for seat, name in enumerate(seating):
        bot = make_bot(base if name == CHEAT else name, game, seat, seed)
        if iterations is not None and hasattr(bot, "iterations"):
            bot.iterations = iterations
        if name == CHEAT:
            assert isinstance(bot, ISMCTSBot), "the base level must be a search bot"
            bot.sampler = sampler
        bots.append(bot)
    while state.to_act:
        seat = state.to_act[0]
        state.apply(seat, bots[seat].act(state.view(seat), state.legal_actions(seat)))
    result = state.result()
    assert result is not None
    me = seating.index(CHEAT)
    won = 1 / len(result["winners"]) if me in result["winners"] else 0.0
    return won, float(result["scores"][me])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="thieves")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--base", default="ismcts", help="the search level (cheating and fair)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=None, help="every search's budget")
    parser.add_argument(
        "--know",
        choices=["all", "now"],
        default="all",
        help="all: the whole true state, the deck's order too; now: every card now, "
        "the deck re-shuffled in every sample",
    )
    args = parser.parse_args()
    if args.know == "now":
        probe: Any = get_game(args.game).new(args.players, 0)
        if not isinstance(getattr(probe, "deck", None), list) or not hasattr(probe, "rng"):
            parser.error(f"--know now needs a state with a deck list and an rng ({args.game})")
    start = time.perf_counter()
    work = jobs(args.game, [CHEAT] + [args.base] * (args.players - 1), args.games, args.seed)
    with ProcessPoolExecutor(args.workers) as pool:
        tasks = [(j, args.base, args.know, args.iterations) for j in work]
        results = list(pool.map(play, tasks, chunksize=1))
    wins = sum(w for w, _ in results)
    low, high = wilson(wins, len(results))
    print(
        json.dumps(
            {
                "bench": "oracle_ceiling",
                "game": args.game,
                "players": args.players,
                "base": args.base,
                "know": args.know,
                "iterations": args.iterations,
                "seed": args.seed,
                "games": len(results),
                "cheater_win_rate": round(wins / len(results), 4),
                "low": round(low, 4),
                "high": round(high, 4),
                "share": round(1 / args.players, 4),
                "cheater_mean_score": round(sum(s for _, s in results) / len(results), 2),
                "seconds": round(time.perf_counter() - start, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
