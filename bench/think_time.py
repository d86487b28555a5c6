"""Decision times of Schatz-Rabatz's search bots, with and without a live clock's deadline.

Packing positions (a real choice) from matches of packers on simulated time; on each, a
fresh bot decides, as a server table's bot would after its reaction time. With
``--think S`` the bot's ``deadline`` is set ``S`` seconds ahead first, as the server
(``Caps.realtime_think_seconds``) and the terminal's live mode do. Prints one JSON line:

    python bench/think_time.py --bot ismcts-strong --players 4 --positions 150
    python bench/think_time.py --bot ismcts-strong --players 4 --positions 150 --think 0.1

Under load: start two busy loops first (``python -c "while True: pass" &``, twice) and
kill them by their ids afterwards.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from thievery.bots.base import make_bot
from thievery.games.schatz_rabatz.rules import SchatzRabatz
from thievery.games.schatz_rabatz.search import PlacementSearchBot, packing_positions


def positions(players: int, count: int, seed: int) -> list[tuple[SchatzRabatz, int]]:
    """Every other packing position with a real choice, from packers' matches."""
    return packing_positions(players, count, seed, every=2)


def measure(bot_name: str, players: int, count: int, think: float | None, seed: int) -> Any:
    times: list[float] = []
    samples: list[int] = []
    for i, (state, seat) in enumerate(positions(players, count, seed)):
        bot = make_bot(bot_name, "schatz-rabatz", seat, i)
        assert isinstance(bot, PlacementSearchBot)
        view, legal = state.view(seat), state.legal_actions(seat)
        began = time.perf_counter()
        if think is not None:
            bot.deadline = began + think
        bot.act(view, legal)
        times.append(time.perf_counter() - began)
        samples.append(bot.last_samples)
    times.sort()

    def ms(q: float) -> float:
        return round(1000 * times[min(len(times) - 1, int(q * len(times)))], 1)

    return {
        "bench": "think-time",
        "bot": bot_name,
        "players": players,
        "positions": len(times),
        "think": think,
        "median_ms": round(1000 * statistics.median(times), 1),
        "p90_ms": ms(0.9),
        "p99_ms": ms(0.99),
        "max_ms": round(1000 * times[-1], 1),
        "mean_samples": round(statistics.fmean(samples), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bot", default="ismcts-strong")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--think", type=float, default=None, help="the deadline, seconds")
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    print(json.dumps(measure(args.bot, args.players, args.positions, args.think, args.seed)))


if __name__ == "__main__":
    main()
