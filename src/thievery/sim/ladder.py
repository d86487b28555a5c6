"""The bot ladder: each named level against the level below it, with 95% intervals.

A level plays one seat against the level below in every other seat (seats rotating), so
an equal share is 1/players; a level holds its place when the lower end of its 95%
interval is above that share.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from thievery.core.errors import InvalidOption
from thievery.core.registry import game as get_game
from thievery.sim.runner import GameOutcome, simulate, standings

LEVELS = ("random", "heuristic", "ismcts", "ismcts-strong")


@dataclass(frozen=True)
class Rung:
    """One comparison: ``upper`` (one seat) against ``lower`` (every other seat)."""

    upper: str
    lower: str
    games: int
    players: int
    win_rate: float
    low: float
    high: float
    upper_score: float
    lower_score: float
    duplicate: bool = False

    @property
    def share(self) -> float:
        """The equal share of one seat."""
        return 1 / self.players

    @property
    def holds(self) -> bool:
        """Whether the upper level beats the lower with its interval clear of the share."""
        return self.low > self.share


def climb(
    game: str,
    players: int,
    games: int,
    seed: int = 0,
    levels: Sequence[str] = LEVELS,
    workers: int = 1,
    options: Mapping[str, Any] | None = None,
    on_game: Callable[[GameOutcome], None] | None = None,
    duplicate: bool = False,
) -> list[Rung]:
    """Play every rung of the ladder; ``on_game`` is told of each finished game.

    ``duplicate`` plays each deal once per seat of the upper level (see
    :func:`thievery.sim.runner.jobs`), with intervals over the deals."""
    if games < 1:
        raise InvalidOption(f"a ladder plays at least 1 game a rung, not {games}")
    if len(levels) < 2:
        raise InvalidOption(f"a ladder needs at least two levels, lowest first: {list(levels)}")
    for lower, upper in itertools.pairwise(levels):
        if lower == upper:
            raise InvalidOption(f"a ladder's rung is two different levels: {upper!r} twice")
    rungs = []
    for lower, upper in itertools.pairwise(levels):
        bots = [upper] + [lower] * (players - 1)
        outcomes = []
        for outcome in simulate(game, bots, games, seed, options, workers, duplicate):
            outcomes.append(outcome)
            if on_game is not None:
                on_game(outcome)
        table = {s.bot: s for s in standings(outcomes, duplicate)}
        up, down = table[upper], table[lower]
        rungs.append(
            Rung(
                upper,
                lower,
                games,
                players,
                up.win_rate,
                up.low,
                up.high,
                up.mean_score,
                down.mean_score,
                duplicate,
            )
        )
    return rungs


def markdown(
    game: str,
    title: str,
    rungs: Sequence[Rung],
    seed: int,
    command: str,
    options: Mapping[str, Any] | None = None,
) -> str:
    """The ladder report as Markdown, with the rules version and the components the games
    were played with (``options``: theirs; see ``GameSpec.component_digests``)."""
    spec = get_game(game)
    components = spec.component_digests(options)
    version = f"rules version {spec.version}" + "".join(
        f", {name} {digest}" for name, digest in components.items()
    )
    if rungs[0].duplicate:
        layout = "every deal played once with the level in each seat"
        interval = "95% interval (a t interval over the deals)"
    else:
        layout = "seats rotate every game"
        interval = "95% (Wilson) interval"
    lines = [
        f"# Bot ladder: {title}",
        "",
        f"Each level plays one seat against the level below in all other seats "
        f"({rungs[0].players} players; {layout}; ties share the win). "
        f"An equal share is {rungs[0].share:.1%}. A level holds when the lower end of its "
        f"{interval} is above that share.",
        "",
        "| level | against | games | win rate | 95% interval | mean score (level / below) "
        "| holds |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rungs:
        lines.append(
            f"| {r.upper} | {r.lower} | {r.games} | {r.win_rate:.1%} | "
            f"{r.low:.1%} – {r.high:.1%} | {r.upper_score:.1f} / {r.lower_score:.1f} | "
            f"{'yes' if r.holds else 'NO'} |"
        )
    lines += ["", f"Seed {seed}; {version}. Made with:", "", f"    {command}", ""]
    return "\n".join(lines)
