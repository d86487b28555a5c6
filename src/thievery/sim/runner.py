"""Play games between named bots and summarise them: win rates with 95% intervals.

Game ``i`` of a run uses seed ``derive_seed(seed, i)`` and rotates the bots round the
table by ``i`` seats, so no bot keeps the first seat; any single game can be replayed
from its seed and seating. A duplicate run (``duplicate=True``) plays each seed once per
rotation instead, and its intervals are taken over those blocks.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

from thievery.bots import make_bot
from thievery.core.errors import InvalidOption
from thievery.core.protocol import CLOCK, JSON, ClockedState
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
    # The first player, which some games draw from the deal (Thieves!, Thieves Den), so
    # it need not be seat index 0: the seat the game names (State.first_player: Thieves
    # Den's Direction tile), else the seat that made the game's first decision. None when
    # the game names none and every seat makes the first decision at once (Der
    # Schattendieb's sealed cards, Schatz-Rabatz's real time): the seat recorded first
    # there is the list's order or the bots' reflexes, not a first player.
    first: int | None = None
    # Every action as (seat, the action's JSON), the clock's ticks too, when asked for
    # (``history=True``): the game again without its bots (an export's rows).
    history: tuple[tuple[int, JSON], ...] | None = None


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
    # A duplicate run's variance of the deals' win rates over what independent games
    # would give (below 1: the deals' luck cancelled and the interval is narrower than
    # Wilson's; near 1: no gain). None for other runs.
    design_effect: float | None = None


def derive_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run."""
    return Rng(seed * 0x1F3D5B79 + index).next64() >> 1


def play_game(
    game: str,
    bots: Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    index: int = 0,
    history: bool = False,
) -> GameOutcome:
    """Play one game between ``bots`` (one name per seat) to the end (with its actions,
    if ``history``)."""
    spec = get_game(game)
    state = spec.new(len(bots), seed, options)
    named_first = state.first_player()
    at_once = len(state.to_act) > 1 or isinstance(state, ClockedState)
    players = [make_bot(name, game, seat, seed) for seat, name in enumerate(bots)]
    decisions = 0
    if isinstance(state, ClockedState):  # a real-time game: bots act on simulated time
        from thievery.bots.realtime import clock_rng, play_simulated

        decisions = play_simulated(state, dict(enumerate(players)), clock_rng(seed))
    while state.to_act:
        seat = state.to_act[0]
        action = players[seat].act(state.view(seat), state.legal_actions(seat))
        state.apply(seat, action)
        decisions += 1
    result = state.result()
    assert result is not None
    first = named_first
    if first is None and not at_once:
        first = next((s for s, _ in state.history() if s != CLOCK), None)
    moves = tuple((s, a.to_json()) for s, a in state.history()) if history else None
    return GameOutcome(
        index,
        seed,
        tuple(bots),
        tuple(result["scores"]),
        tuple(result["winners"]),
        decisions,
        first,
        moves,
    )


Job = tuple[str, tuple[str, ...], int, dict[str, Any], int]


def run_job(job: Job, history: bool = False) -> GameOutcome:
    """Play one job: (game, seating, seed, options, index)."""
    game, bots, seed, options, index = job
    return play_game(game, bots, seed, options, index, history)


def run_batch(batch: list[Job]) -> list[GameOutcome]:
    """Play several jobs (one Ray task)."""
    return [run_job(j) for j in batch]


def run_batch_with_history(batch: list[Job]) -> list[GameOutcome]:
    """Play several jobs, each outcome with its actions (one Ray task)."""
    return [run_job(j, history=True) for j in batch]


def jobs(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    duplicate: bool = False,
) -> list[Job]:
    """The jobs of a run: game ``i`` has a derived seed and the bots rotated by ``i``.

    With ``duplicate``, games come in blocks of one game per seat: block ``b`` (games
    ``b * players`` to ``b * players + players - 1``) plays one seed, ``derive_seed(seed,
    b)``, once in every rotation of the bots. The deal, the deck and every seat's own
    random stream are then the same for each bot in turn, so the luck of the deal cancels
    out within a block (as in duplicate bridge)."""
    get_game(game).new(len(bots), seed, options)  # fail early on a bad setup
    players = len(bots)
    if duplicate and games % players:
        raise InvalidOption(
            f"a duplicate run plays every deal once per seat: --games must be a multiple "
            f"of {players} (got {games})"
        )
    out = []
    for i in range(games):
        r = i % players
        seating = tuple(bots[r:]) + tuple(bots[:r])
        game_seed = derive_seed(seed, i // players if duplicate else i)
        out.append((game, seating, game_seed, dict(options or {}), i))
    return out


def simulate(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    workers: int = 1,
    duplicate: bool = False,
    history: bool = False,
) -> Iterator[GameOutcome]:
    """Yield the outcome of each game as it finishes (in order; each with its actions
    if ``history``)."""
    work = jobs(game, bots, games, seed, options, duplicate)
    run = partial(run_job, history=history)
    if workers <= 1:
        yield from map(run, work)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(run, work, chunksize=max(1, games // (workers * 8)))


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # (exactly: at p = 1 the upper bound is 1 and at p = 0 the lower is 0, which the
    # floating-point sums miss by an ulp, and the interval always holds p)
    low = 0.0 if successes <= 0 else min(p, max(0.0, centre - half))
    high = 1.0 if successes >= n else max(p, min(1.0, centre + half))
    return (low, high)


def share_interval(shares: Sequence[float]) -> dict[str, float]:
    """Games' shares of a win (1, 0, or a tie's part) as their mean and Wilson 95%
    interval, rounded to three places: within 0..1 however few the games."""
    low, high = wilson(sum(shares), len(shares))
    mean = sum(shares) / len(shares) if shares else 0.0
    return {"share": round(mean, 3), "low": round(low, 3), "high": round(high, 3)}


T_975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776}  # Student's t, 97.5%, few degrees
MIN_BLOCKS = 10  # fewer blocks give no interval over blocks


def t_quantile(df: int, z: float = 1.96) -> float:
    """Student's t quantile matching the normal quantile ``z``: from the table for the
    97.5% quantile below 5 degrees of freedom, else by Cornish-Fisher (3 terms), within
    0.3% of the exact quantile from 5 degrees of freedom up."""
    if z == 1.96 and df in T_975:
        return T_975[df]
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


def block_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """A 95% interval of a mean in [0, 1] from independent blocks (a t interval over the
    blocks).

    The interval of a duplicate run: the games of a block share a deal, so they are not
    independent, but the blocks are. Fewer than ``MIN_BLOCKS`` blocks give no interval
    (0 to 1). Blocks that all agree show no spread only because there are too few of
    them to show it, so the interval is then Wilson's with each block as one game."""
    blocks = len(values)
    if blocks < MIN_BLOCKS:
        return (0.0, 1.0)
    mean = statistics.fmean(values)
    spread = statistics.stdev(values, mean)
    if spread == 0:
        return wilson(mean * blocks, blocks, z)
    half = t_quantile(blocks - 1, z) * spread / math.sqrt(blocks)
    return (max(0.0, mean - half), min(1.0, mean + half))


def design_effect(rates: Sequence[float], shares: Sequence[float]) -> float | None:
    """The variance of the blocks' rates against what as many independent games a block
    would give. ``shares`` is the bot's win share per game (its wins there over its seats
    there: a bot in two seats of a game wins at most one, so the game is the unit)."""
    blocks, games = len(rates), len(shares)
    if blocks < 2 or games <= blocks:
        return None
    per_game = statistics.variance(shares)
    if per_game <= 0:
        return None
    return statistics.variance(rates) / (per_game / (games / blocks))


def standings(outcomes: Sequence[GameOutcome], duplicate: bool = False) -> list[Standing]:
    """Per bot name: games, shared wins, win rate with its 95% interval, mean score.

    The interval is Wilson's over the games, or with ``duplicate`` (blocks of games on
    one seed, see :func:`jobs`) a t interval over the blocks' win rates (see
    :func:`block_interval`), with the run's :func:`design_effect`."""
    games: dict[str, int] = {}
    wins: dict[str, Fraction] = {}  # (exact: shared wins, 1/3 and all, add up without drift)
    scores: dict[str, float] = {}
    blocks: dict[int, dict[str, list[float]]] = {}  # seed -> bot -> [wins, seats]
    shares: dict[str, list[float]] = {}  # bot -> its win share in each game
    for o in outcomes:
        block = blocks.setdefault(o.seed, {})
        here: dict[str, list[float]] = {}  # bot -> [wins, seats] in this game
        for seat, bot in enumerate(o.seating):
            won = 1 / len(o.winners) if seat in o.winners else 0.0
            games[bot] = games.get(bot, 0) + 1
            scores[bot] = scores.get(bot, 0.0) + o.scores[seat]
            wins[bot] = wins.get(bot, Fraction()) + (Fraction(1, len(o.winners)) if won else 0)
            for tally in (block.setdefault(bot, [0.0, 0.0]), here.setdefault(bot, [0.0, 0.0])):
                tally[0] += won
                tally[1] += 1
        for bot, (won, seats) in here.items():
            shares.setdefault(bot, []).append(won / seats)
    out = []
    for bot, n in games.items():
        w = float(wins[bot])
        effect = None
        if duplicate:
            rates = [b[bot][0] / b[bot][1] for b in blocks.values() if bot in b]
            low, high = block_interval(rates)
            effect = design_effect(rates, shares[bot])
        else:
            low, high = wilson(w, n)
        out.append(Standing(bot, n, w, w / n, low, high, scores[bot] / n, effect))
    return sorted(out, key=lambda s: -s.win_rate)
