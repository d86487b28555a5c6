"""Simulation reports: a JSON summary and an HTML page with plots (matplotlib).

The summary has win rates by bot and by seat with 95% intervals, score distributions,
game lengths, seat 1's and the first player's advantage and the tie rate. The page is for
people: it counts seats from 1 (seat 1 is the first of each game's seating), as every
screen does; the summary's data keep the 0-based seat indices of records and actions.
"""

from __future__ import annotations

import base64
import html
import io
import json
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from thievery.core.errors import InvalidOption
from thievery.core.protocol import seat_number
from thievery.core.registry import game as get_game
from thievery.sim.runner import GameOutcome, block_interval, standings, wilson

JSON = dict[str, Any]


def summarise(
    game: str,
    outcomes: Sequence[GameOutcome],
    seed: int,
    bots: Sequence[str],
    duplicate: bool = False,
    options: JSON | None = None,
    command: str | None = None,
) -> JSON:
    """Everything the report shows, as JSON (``duplicate``: a duplicate run's intervals;
    ``options``: the games' options, which replaying a game from its seed needs;
    ``command``: the command that made the run, which plays it again). It records the
    game's rules version (a game of another version may play otherwise from its seed)
    and, beside it, ``components``: a digest of each data set the games were played with
    that can change without a version (Thieves Den's card set, default or given; see
    ``GameSpec.component_digests``), so two reports of one version but other cards tell
    them apart."""
    outcomes = sorted(outcomes, key=lambda o: o.index)
    n_games = len(outcomes)
    players = len(bots)
    seat_wins = [0.0] * players
    block_wins: dict[int, list[float]] = {}  # seed -> [wins of seat 0, ...] in that block
    for o in outcomes:
        block = block_wins.setdefault(o.seed, [0.0] * players)
        for w in o.winners:
            seat_wins[w] += 1 / len(o.winners)
            block[w] += 1 / len(o.winners) / players
    by_seat = []
    for seat, wins in enumerate(seat_wins):
        if duplicate:
            low, high = block_interval([b[seat] for b in block_wins.values()])
        else:
            low, high = wilson(wins, n_games)
        by_seat.append(
            {"seat": seat, "wins": wins, "win_rate": wins / n_games, "low": low, "high": high}
        )
    scores: dict[str, list[float]] = {}
    for o in outcomes:
        for seat, bot in enumerate(o.seating):
            scores.setdefault(bot, []).append(o.scores[seat])
    lengths = [o.decisions for o in outcomes]
    ties = sum(1 for o in outcomes if len(o.winners) > 1)
    # The first player's share of the wins, whichever seat that was in each game.
    known = [o for o in outcomes if o.first is not None]
    first_wins = sum(1 / len(o.winners) for o in known if o.first in o.winners)
    first_low, first_high = wilson(first_wins, len(known))
    first_player = {
        "games": len(known),
        "wins": first_wins,
        "win_rate": first_wins / len(known) if known else None,
        "low": first_low,
        "high": first_high,
        "advantage": first_wins / len(known) - 1 / players if known else None,
    }
    return {
        "game": game,
        "version": get_game(game).version,
        "components": get_game(game).component_digests(options),
        "command": command,
        "games": n_games,
        "players": players,
        "seed": seed,
        "bots": list(bots),
        "options": dict(options or {}),
        "duplicate": duplicate,
        "interval": "t over blocks of one deal" if duplicate else "Wilson",
        "by_bot": [s.__dict__ for s in standings(outcomes, duplicate)],
        "by_seat": by_seat,
        "first_seat_advantage": by_seat[0]["win_rate"] - 1 / players,
        "first_player": first_player,
        "tie_rate": ties / n_games,
        "scores": {
            bot: {
                "mean": statistics.fmean(v),
                "median": statistics.median(v),
                "min": min(v),
                "max": max(v),
            }
            for bot, v in scores.items()
        },
        "length": {
            "mean": statistics.fmean(lengths),
            "median": statistics.median(lengths),
            "min": min(lengths),
            "max": max(lengths),
        },
        "outcomes": [
            {
                "index": o.index,
                "seed": o.seed,
                "seating": list(o.seating),
                "scores": list(o.scores),
                "winners": list(o.winners),
                "decisions": o.decisions,
                "first": o.first,
            }
            for o in outcomes
        ],
        "_scores_raw": scores,
        "_lengths_raw": lengths,
    }


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    return base64.b64encode(buffer.getvalue()).decode()


def _bars(rows: list[JSON]) -> list[list[float]]:
    """Error bars (below, above) of rates with intervals: never negative."""
    return [
        [max(0.0, r["win_rate"] - r["low"]) for r in rows],
        [max(0.0, r["high"] - r["win_rate"]) for r in rows],
    ]


def _plots(summary: JSON) -> list[tuple[str, str]]:
    try:
        import matplotlib
    except ImportError:
        raise InvalidOption(
            "the HTML report draws its plots with matplotlib: pip install 'thievery[report]'"
        ) from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = []
    fig, ax = plt.subplots(figsize=(6, 3))
    rows = summary["by_bot"]
    names = [r["bot"] for r in rows]
    rates = [r["win_rate"] for r in rows]
    errs = _bars(rows)
    ax.bar(names, rates, yerr=errs, capsize=6, color="#6a4c93")
    ax.axhline(1 / summary["players"], color="grey", linestyle="--", label="equal share")
    ax.set_ylabel("win rate (ties shared)")
    ax.legend()
    out.append(("Win rate by bot, 95% intervals", _png(fig)))
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3))
    seats = summary["by_seat"]
    ax.bar(
        [str(seat_number(s["seat"])) for s in seats],
        [s["win_rate"] for s in seats],
        yerr=_bars(seats),
        capsize=6,
        color="#1982c4",
    )
    ax.axhline(1 / summary["players"], color="grey", linestyle="--")
    ax.set_xlabel("seat (counted from 1)")
    ax.set_ylabel("win rate")
    out.append(("Win rate by seat", _png(fig)))
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3))
    raw = summary["_scores_raw"]
    ax.hist(list(raw.values()), bins=20, label=list(raw), stacked=False, alpha=0.8)
    ax.set_xlabel("score per seat and game")
    ax.set_ylabel("seats (one a seat and game)")
    ax.legend()
    out.append(("Score distribution", _png(fig)))
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3))
    ax.hist(summary["_lengths_raw"], bins=20, color="#8ac926")
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    out.append(("Game length", _png(fig)))
    plt.close(fig)
    return out


# What the page's seat numbers mean.
SEATS = (
    "Seats are counted from 1: seat 1 is the first seat of each game's seating (the first "
    "bot in its <code>seating</code>), seat 2 the next, and so on; whether seat 1 also plays "
    "first is the game's rule. <code>summary.json</code> keeps the records' seat indices, "
    "which count from 0 (<code>by_seat</code>, <code>winners</code>)."
)


def _first_player(summary: JSON) -> str:
    """The first player's advantage in words: whoever made each game's first decision."""
    first = summary["first_player"]
    if first["win_rate"] is None:
        return (
            "no first player (the game names none, and every seat makes its first decision at once)"
        )
    return (
        f"the first player's advantage {first['advantage']:+.1%} (win rate "
        f"{first['win_rate']:.1%}, 95% {first['low']:.1%} – {first['high']:.1%}: the seat "
        "that made each game's first decision, which a game may draw from the deal)"
    )


def components_words(components: JSON) -> str:
    """A run's component digests in words: ``cards e82e8592f8ea`` (none: empty).

    >>> components_words({"cards": "e82e8592f8ea"})
    'cards e82e8592f8ea'
    """
    return ", ".join(f"{name} {digest}" for name, digest in components.items())


def _components(summary: JSON) -> str:
    """The page's words for the components after the version (a summary from before
    they were recorded has none)."""
    words = components_words(summary.get("components") or {})
    return f"; {html.escape(words)}" if words else ""


def write_report(summary: JSON, directory: Path) -> Path:
    """Write ``summary.json`` and ``index.html`` (plots inline) into ``directory``."""
    public = {k: v for k, v in summary.items() if not k.startswith("_")}

    def effect(r: JSON) -> str:
        if not public["duplicate"]:
            return ""
        value = r["design_effect"]
        return f"<td>{'—' if value is None else f'{value:.2f}'}</td>"

    rows = "".join(
        f"<tr><td>{html.escape(r['bot'])}</td><td>{r['games']}</td><td>{r['wins']:g}</td>"
        f"<td>{r['win_rate']:.1%}</td><td>{r['low']:.1%} – {r['high']:.1%}</td>"
        f"<td>{r['mean_score']:.1f}</td>{effect(r)}</tr>"
        for r in public["by_bot"]
    )
    effect_head = "<th>design effect</th>" if public["duplicate"] else ""
    figures = "".join(
        f"<figure><img alt='{html.escape(t)}' src='data:image/png;base64,{png}'>"
        f"<figcaption>{html.escape(t)}</figcaption></figure>"
        for t, png in _plots(summary)
    )
    layout = (
        "duplicate: every deal is played once per seat rotation"
        if public["duplicate"]
        else "seats rotate each game"
    )
    made_with = (
        ""
        if public["command"] is None
        else f" Made with (it plays the same games again):<br><code>"
        f"{html.escape(public['command'])}</code>"
    )
    components = _components(public)
    page = f"""<!doctype html><meta charset="utf-8">
<title>Thievery simulation: {html.escape(public["game"])}</title>
<style>body{{font:15px system-ui;margin:2em auto;max-width:60em}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.3em .6em}}
figure{{display:inline-block;margin:1em}}</style>
<h1>{html.escape(public["game"])}: {public["games"]} games, {public["players"]} players</h1>
<p>Rules version {public["version"]}{components}.</p>
<p>Seed {public["seed"]}; bots {html.escape(", ".join(public["bots"]))} ({layout}).
Ties share the win; 95% intervals: {public["interval"]}. Tie rate {public["tie_rate"]:.1%};
seat 1's advantage {public["first_seat_advantage"]:+.1%}; {_first_player(public)}; mean
length {public["length"]["mean"]:.0f} decisions.</p>
<p>{SEATS}</p>
<table><tr><th>bot</th><th>seats played</th><th>wins</th><th>win rate</th><th>95% CI</th>
<th>mean score</th>{effect_head}</tr>{rows}</table>
{figures}
<p>Every game can be replayed: <code>summary.json</code> lists each game's seed and
seating, and the games' options (rules version {public["version"]}{components}).{made_with}</p>
"""
    # (written once everything is made: a report that fails leaves no half of itself)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "summary.json").write_text(json.dumps(public, indent=1))
    path = directory / "index.html"
    path.write_text(page)
    return path
