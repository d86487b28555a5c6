"""Balance report for a Thieves Den card set: many games between heuristic bots.

For each player count it plays ``--games`` games (every seat the heuristic bot, seeds
derived from ``--seed``) and reports win rates by seat and by turn position, how often
each Location is drafted and how its drafter fares, Fence sales and majorities, Schemes,
Power tiles and where the Prestige comes from. Writes Markdown::

    python -m research.thieves_den_balance --games 2000 --out docs/thieves-den-balance.md
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from thievery.bots import make_bot
from thievery.core.registry import game as get_game
from thievery.games.thieves_den.cards import (
    FENCE_TYPES,
    LOCATION_TYPES,
    inline_card_set,
    load_card_set,
)
from thievery.sim.runner import derive_seed, wilson


def design(card: str) -> str:
    """A card's design id (without its copy letter)."""
    return card.rsplit("-", 1)[0]


@dataclass
class Tally:
    """How often something happened and the winning share of whoever did it."""

    count: int = 0
    wins: float = 0.0

    def add(self, share: float) -> None:
        """Count one occurrence whose actor won ``share`` of the game."""
        self.count += 1
        self.wins += share


@dataclass
class Stats:
    """Everything gathered for one player count."""

    players: int
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    seat: list[Tally] = field(default_factory=list)
    position: list[Tally] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    winning: list[float] = field(default_factory=list)
    ties: int = 0
    drafted: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    loc_types: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    fences: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    fence_types: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    majority: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    schemes: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    scheme_points: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    powers: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    face_up: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # rounds
    sources: dict[str, float] = field(default_factory=lambda: defaultdict(float))


def play(stats: Stats, seed: int, options: dict[str, Any]) -> None:
    """Play one game between heuristic bots and add it to ``stats``."""
    spec = get_game("thieves-den")
    n = stats.players
    state = spec.new(n, seed, options)
    bots = [make_bot("heuristic", spec.name, s, seed) for s in range(n)]
    first = state.view(None)["holder"]

    def turned_up() -> None:  # the Power tiles face up this round
        for p in state.view(None)["powers"]:
            if p["tile"] is not None:
                stats.face_up[p["tile"]] += 1

    turned_up()
    picks: list[tuple[int, str]] = []
    fences: list[tuple[int, str]] = []
    powers: list[tuple[int, str]] = []
    final: dict[str, Any] = {}
    sources: dict[str, float] = defaultdict(float)
    t0 = time.perf_counter()
    while state.to_act:
        seat = state.to_act[0]
        events = state.apply(seat, bots[seat].act(state.view(seat), state.legal_actions(seat)))
        stats.decisions += 1
        if any(e.type == "round" for e in events):
            turned_up()
        for e in events:
            d = e.data
            if e.type == "reveal":
                picks.extend((int(s), c) for s, c in d["cards"].items())
            elif e.type == "fence":
                fences.append((d["seat"], d["card"]))
                sources["fences"] += d["prestige"]
            elif e.type == "power":
                powers.append((d["seat"], d["tile"]))
            elif e.type == "witch":
                sources["witch"] += d["prestige"]
            elif e.type == "prestige":
                sources["abilities"] += d["count"]
            elif e.type == "final":
                final = d
    stats.seconds += time.perf_counter() - t0
    result = state.result()
    assert result is not None
    winners = result["winners"]
    share = [1 / len(winners) if s in winners else 0.0 for s in range(n)]
    stats.games += 1
    stats.ties += len(winners) > 1
    stats.scores.extend(result["scores"])
    stats.winning.append(max(result["scores"]))
    for s in range(n):
        stats.seat[s].add(share[s])
        stats.position[(s - first) % n].add(share[s])
    cs = state.cs  # type: ignore[attr-defined]
    for s, card in picks:
        stats.drafted[design(card)].add(share[s])
        stats.loc_types[LOCATION_TYPES[cs.loc_type[cs.loc_index[card]]]].add(share[s])
    for s, card in fences:
        stats.fences[design(card)].add(share[s])
        stats.fence_types[FENCE_TYPES[cs.fence_type[cs.fence_index[card]]]].add(share[s])
    for s, tile in powers:
        stats.powers[tile].add(share[s])
    for kind, s in final["majorities"].items():
        if s is not None:
            stats.majority[kind].add(share[s])
            sources["majorities"] += cs.majority[FENCE_TYPES.index(kind)]
    for s, x in enumerate(final["schemes"]):
        stats.schemes[x["scheme"]].add(share[s])
        stats.scheme_points[x["scheme"]] += x["prestige"]
        sources["schemes"] += x["prestige"]
    for k, v in sources.items():
        stats.sources[k] += v


def run(players: int, games: int, seed: int, options: dict[str, Any]) -> Stats:
    """Play ``games`` games at one player count."""
    stats = Stats(players)
    stats.seat = [Tally() for _ in range(players)]
    stats.position = [Tally() for _ in range(players)]
    for i in range(games):
        play(stats, derive_seed(seed * 10 + players, i), options)
    return stats


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _rate(t: Tally, players: int) -> str:
    """Win share with its 95% interval and the lift over an equal share."""
    if not t.count:
        return "— | — | —"
    low, high = wilson(t.wins, t.count)
    lift = t.wins / t.count * players
    return f"{_pct(t.wins / t.count)} | {_pct(low)}–{_pct(high)} | {lift:.2f}"


def _table(
    rows: Iterable[tuple[str, Tally]], players: int, games: int, head: str, per_game: bool = True
) -> list[str]:
    out = [
        f"| {head} | {'per game' if per_game else 'count'} | win share | 95% CI | lift |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, t in rows:
        n = f"{t.count / games:.2f}" if per_game else str(t.count)
        out.append(f"| {name} | {n} | {_rate(t, players)} |")
    return out


THIN = 100  # fewer uses than this: the win share is too uncertain to read much into


def _powers(all_stats: list[Stats], tiles: Iterable[str]) -> list[str]:
    """Every Power tile of the set, used or not: how often it was face up, how often it
    was used when it was, and its users' win share; thin data said so."""
    lines = [
        "## Power tiles used",
        "",
        "Every tile of the set, used or not. *Face up* counts the rounds the tile lay on "
        "top of a stack (per game); *use rate* is uses per face-up round (a tile can be "
        f"used once a round). Rows with fewer than {THIN} uses are marked *thin*: their "
        "interval is wide, read them as a hint only; a tile never used has no win share.",
        "",
    ]
    for st in all_stats:
        rows = sorted(
            ((t, st.powers.get(t, Tally())) for t in tiles),
            key=lambda kv: (-kv[1].wins / max(1, kv[1].count), kv[0]),
        )
        lines += [f"### {st.players} players", ""]
        lines += [
            "| Power tile | face up | used | use rate | win share | 95% CI | lift | data |",
            "|---|---:|---:|---:|---:|---:|---:|---|",
        ]
        for name, t in rows:
            up = st.face_up.get(name, 0)
            rate = _pct(t.count / up) if up else "—"
            data = "none" if not t.count else ("thin" if t.count < THIN else "")
            lines.append(
                f"| {name} | {up / st.games:.2f} | {t.count / st.games:.2f} | {rate} | "
                f"{_rate(t, st.players)} | {data} |"
            )
        lines.append("")
    return lines


def report(all_stats: list[Stats], seed: int, cards: str | dict[str, Any] | None) -> str:
    """The Markdown report (``cards``: the set's file or its document, as played)."""
    cs = load_card_set(cards)
    spec = get_game("thieves-den")
    digest = spec.component_digests({"cards": cards})
    lines = [
        "# Thieves Den — balance report",
        "",
        f"Card set: **{cs.name}**" + (" (UNOFFICIAL)" if cs.unofficial else "") + ", cards "
        f"`{digest['cards']}` (a digest of the set's content: it changes with any card), "
        f"rules version {spec.version}.",
        "Every seat is the `heuristic` bot; seeds derive from "
        f"`--seed {seed}`. *Win share* counts a shared win as a fraction; *lift* is the win "
        "share divided by an equal share (1.00 = average; above 1 the card's drafter wins "
        "more often than average). Lift measures association, not cause: a strong player "
        "position also drafts more of what it likes.",
        "",
        "Reproduce with `.venv/bin/python -m research.thieves_den_balance "
        f"--games {all_stats[0].games} --seed {seed} --out report.md` (this part only).",
        "",
        "## Summary",
        "",
        "| players | games | mean score | mean winning score | shared wins | decisions/game "
        "| games/s |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for st in all_stats:
        lines.append(
            f"| {st.players} | {st.games} | {sum(st.scores) / len(st.scores):.1f} | "
            f"{sum(st.winning) / st.games:.1f} | {_pct(st.ties / st.games)} | "
            f"{st.decisions / st.games:.0f} | {st.games / max(st.seconds, 1e-9):.0f} |"
        )
    lines += ["", "## Win rate by seat and by turn position", ""]
    lines.append(
        "Seats and positions are counted from 1, as the tables show them. Position 1 is "
        "the first holder of the Direction tile (drawn with the seed), who acts first in "
        "round 1."
    )
    for st in all_stats:
        lines += ["", f"### {st.players} players", ""]
        lines += _table(
            [(f"seat {s}", t) for s, t in enumerate(st.seat, 1)],
            st.players,
            st.games,
            "seat",
            per_game=False,
        )
        lines.append("")
        lines += _table(
            [(f"position {s}", t) for s, t in enumerate(st.position, 1)],
            st.players,
            st.games,
            "turn position",
            per_game=False,
        )
    for title, attr, head in (
        ("Locations drafted (per design, both copies)", "drafted", "Location"),
        ("Location types drafted", "loc_types", "type"),
        ("Fences sold to (per design)", "fences", "Fence"),
        ("Fence types sold to", "fence_types", "Fence type"),
        ("Fence majorities won", "majority", "majority"),
        ("Schemes (holder)", "schemes", "Scheme"),
    ):
        lines += ["", f"## {title}", ""]
        for st in all_stats:
            table: dict[str, Tally] = getattr(st, attr)
            rows = sorted(table.items(), key=lambda kv: -kv[1].wins / max(1, kv[1].count))
            lines += [f"### {st.players} players", ""]
            lines += _table(rows, st.players, st.games, head)
            if attr == "schemes":
                lines.append("")
                lines.append(
                    "Mean Scheme points: "
                    + ", ".join(
                        f"{k} {st.scheme_points[k] / max(1, t.count):.1f}"
                        for k, t in sorted(table.items())
                    )
                )
            lines.append("")
    lines += _powers(all_stats, cs.power_id)
    lines += ["## Where the Prestige comes from (per player per game)", ""]
    lines.append("| players | Fences | Witch | abilities & Power tiles | majorities | Schemes |")
    lines.append("|---:|---:|---:|---:|---:|---:|")
    for st in all_stats:
        per = st.games * st.players
        s = st.sources
        lines.append(
            f"| {st.players} | {s['fences'] / per:.1f} | {s['witch'] / per:.1f} | "
            f"{s['abilities'] / per:.1f} | {s['majorities'] / per:.1f} | "
            f"{s['schemes'] / per:.1f} |"
        )
    return "\n".join(lines) + "\n"


def flagged(all_stats: list[Stats], threshold: float = 1.25) -> list[str]:
    """Designs whose drafter's win share is clearly above average (the lower 95% bound
    of the lift above 1, and the lift above ``threshold``)."""
    out = []
    for st in all_stats:
        for attr in ("drafted", "fences", "schemes", "powers", "position"):
            table = getattr(st, attr)
            items = table.items() if isinstance(table, dict) else enumerate(table)
            for name, t in items:
                if t.count < 30:
                    continue
                low, _ = wilson(t.wins, t.count)
                lift = t.wins / t.count * st.players
                if lift > threshold and low * st.players > 1.0:
                    out.append(f"{st.players}p {attr} {name}: lift {lift:.2f} (n={t.count})")
    return out


def main() -> None:
    """Command line: play, report, and list what dominates."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", default="2,3,4,5")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cards", default=None, help="a card set file (default: unofficial)")
    parser.add_argument("--out", default=None, help="write the Markdown report here")
    args = parser.parse_args()
    # (a card file read once: every game of the report is of the set as it was then)
    options: dict[str, Any] = {"cards": inline_card_set(args.cards)} if args.cards else {}
    all_stats = []
    for p in (int(x) for x in args.players.split(",")):
        st = run(p, args.games, args.seed, options)
        all_stats.append(st)
        pos = ", ".join(_pct(t.wins / max(1, t.count)) for t in st.position)
        print(f"{p} players: {st.games} games in {st.seconds:.0f}s; by position {pos}")
    for line in flagged(all_stats):
        print("FLAG", line)
    text = report(all_stats, args.seed, options.get("cards"))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
