"""Play games between named bots and summarise them: win rates with 95% intervals.

Game ``i`` of a run uses seed ``derive_seed(seed, i)`` and rotates the bots round the
table by ``i`` seats, so no bot keeps the first seat; any single game can be replayed
from its seed and seating.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from thievery.bots import make_bot
from thievery.core.registry import game as get_game
from thievery.core.rng import Rng


@dataclass(frozen=True)
class GameOutcome:
    """One finished game: who sat where, the scores and winners, and its length."""

    index: int
    seed: int
    seating: tuple[str, ...]  # bot name per seat
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    decisions: int


@dataclass(frozen=True)
class Standing:
    """One bot's results over a run (a tie shares the win)."""

    bot: str
    games: int
    wins: float
    win_rate: float
    low: float
    high: float
    mean_score: float


def derive_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run."""
    return Rng(seed * 0x1F3D5B79 + index).next64() >> 1


def play_game(
    game: str,
    bots: Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    index: int = 0,
) -> GameOutcome:
    """Play one game between ``bots`` (one name per seat) to the end."""
    spec = get_game(game)
    state = spec.new(len(bots), seed, options)
    players = [make_bot(name, game, seat, seed) for seat, name in enumerate(bots)]
    decisions = 0
    if hasattr(state, "advance"):  # a real-time game: bots act on simulated time
        from thievery.sim.realtime import play_simulated

        decisions = play_simulated(state, dict(enumerate(players)), Rng(seed))
    while state.to_act:
        seat = state.to_act[0]
        action = players[seat].act(state.view(seat), state.legal_actions(seat))
        state.apply(seat, action)
        decisions += 1
    result = state.result()
    assert result is not None
    return GameOutcome(
        index, seed, tuple(bots), tuple(result["scores"]), tuple(result["winners"]), decisions
    )


Job = tuple[str, tuple[str, ...], int, dict[str, Any], int]


def run_job(job: Job) -> GameOutcome:
    """Play one job: (game, seating, seed, options, index)."""
    game, bots, seed, options, index = job
    return play_game(game, bots, seed, options, index)


def run_batch(batch: list[Job]) -> list[GameOutcome]:
    """Play several jobs (one Ray task)."""
    return [run_job(j) for j in batch]


def jobs(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> list[Job]:
    """The jobs of a run: game ``i`` has a derived seed and the bots rotated by ``i``."""
    get_game(game).new(len(bots), seed, options)  # fail early on a bad setup
    out = []
    for i in range(games):
        r = i % len(bots)
        seating = tuple(bots[r:]) + tuple(bots[:r])
        out.append((game, seating, derive_seed(seed, i), dict(options or {}), i))
    return out


def simulate(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    workers: int = 1,
) -> Iterator[GameOutcome]:
    """Yield the outcome of each game as it finishes (in order)."""
    work = jobs(game, bots, games, seed, options)
    if workers <= 1:
        yield from map(run_job, work)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(run_job, work, chunksize=max(1, games // (workers * 8)))


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def standings(
    outcomes: Sequence[GameOutcome], on_each: Callable[[GameOutcome], None] | None = None
) -> list[Standing]:
    """Per bot name: games, shared wins, win rate with its 95% interval, mean score."""
    games: dict[str, int] = {}
    wins: dict[str, float] = {}
    scores: dict[str, float] = {}
    for o in outcomes:
        for seat, bot in enumerate(o.seating):
            games[bot] = games.get(bot, 0) + 1
            scores[bot] = scores.get(bot, 0.0) + o.scores[seat]
            if seat in o.winners:
                wins[bot] = wins.get(bot, 0.0) + 1 / len(o.winners)
    out = []
    for bot, n in games.items():
        w = wins.get(bot, 0.0)
        low, high = wilson(w, n)
        out.append(Standing(bot, n, w, w / n, low, high, scores[bot] / n))
    return sorted(out, key=lambda s: -s.win_rate)
