"""Issue 18's comparison in one command: boardgame.io's harness and ours, run in turn.

Runs ``--pairs`` rounds, each boardgame.io's harness (``node bench.js --matches N
--duration-s S`` in ``--bgio DIR``, the team's boardgame.io peer benchmark; without its
``node_modules``, a copy of it with ``npm ci`` run there first) and
``bench/server_load.py --workload bgio --tables N --seconds S`` once per game of
``--games`` (in that order, and every other round in the reverse one), then
``--think-runs`` runs of the think-time workload at 500 tables. The games: ``facedown``,
the harness's own game as a plug-in of ours (``bench/facedown``: both servers play the
same game), and ``schattendieb``, Der Schattendieb (a real game of ours: bigger views,
more to describe). The machine is shared and its speed moves between days, so each ratio
is taken within its round, and medians are given. Prints one JSON line; for each game
under ``games``:

- ``moves_per_s``: boardgame.io's and ours, median and every run;
- ``ratio``: ours over boardgame.io's, the median of the rounds' ratios and each one's;
- ``p50_ms`` / ``p99_ms`` (action to update), ``server_cpu_ms_per_action``,
  ``clients_cpu_percent``, ``memory_per_table_kb`` (four websockets a table, after setup:
  resident growth, and boardgame.io's JS heap growth beside it);
- ``think``: p99 and memory a table at 500 tables with 1 s think time (left out with
  ``--think-runs 0``).

Each round's ratios go to standard error as it ends.

    python bench/side_by_side.py --bgio ../shared/peers/bgio --pairs 5 [--games facedown]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

LOAD = Path(__file__).with_name("server_load.py")


def last_json(command: list[str], cwd: Path | None = None) -> dict[str, Any]:
    """Run a benchmark; its JSON line (the last line of its output)."""
    out = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def ours(tables: int, seconds: float, python: str, *extra: str) -> dict[str, Any]:
    command = [sys.executable, str(LOAD), "--tables", str(tables), "--seconds", str(seconds)]
    return last_json([*command, "--server-python", python, *extra])


def theirs(bgio: Path, matches: int, seconds: float) -> dict[str, Any]:
    command = ["node", "bench.js", "--matches", str(matches), "--duration-s", str(seconds)]
    return last_json(command, cwd=bgio)


def summary(values: list[float]) -> dict[str, Any]:
    return {"median": round(statistics.median(values), 2), "runs": values}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--bgio", type=Path, required=True, help="the boardgame.io harness")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--tables", type=int, default=50, help="live tables (matches)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think-runs", type=int, default=3)
    parser.add_argument(
        "--games",
        default="facedown,schattendieb",
        help="our games in the bgio workload, comma-separated (facedown: the harness's own)",
    )
    parser.add_argument(
        "--server-python",
        default=sys.executable,
        help="our server's interpreter (bench/server_load.py's --server-python)",
    )
    args = parser.parse_args()
    if not (args.bgio / "bench.js").is_file() or not (args.bgio / "package-lock.json").is_file():
        parser.error(f"{args.bgio} is not the boardgame.io harness (bench.js, package-lock.json)")
    with tempfile.TemporaryDirectory(prefix="thievery-bgio-") as tmp:
        compare(args, prepared(args.bgio, Path(tmp)))


def prepared(bgio: Path, tmp: Path) -> Path:
    """The harness ready to run: ``bgio`` itself if its packages are installed, else a copy
    in ``tmp`` with them installed (``npm ci``: the versions its lock file names)."""
    if (bgio / "node_modules").is_dir():
        return bgio
    copy = tmp / "bgio"
    shutil.copytree(bgio, copy)
    print(f"# npm ci in a copy of {bgio}", file=sys.stderr)
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund"], cwd=copy, check=True, stdout=sys.stderr
    )
    return copy


def compare(args: argparse.Namespace, bgio: Path) -> None:
    """The rounds and the think runs; prints the summary line."""
    games = [g for g in args.games.split(",") if g]
    rounds: list[tuple[dict[str, Any], dict[str, dict[str, Any]]]] = []
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for n in range(args.pairs):
        print(f"# round {n + 1}, load average {os.getloadavg()[0]:.2f}", file=sys.stderr)
        # Every other round runs in the reverse order (ours, then boardgame.io's): a
        # machine growing slower or faster through the sitting favours neither.
        first = n % 2 == 0
        peer = theirs(bgio, args.tables, args.seconds) if first else {}
        mine = {
            g: ours(
                args.tables, args.seconds, args.server_python, "--workload", "bgio", "--game", g
            )
            for g in (games if first else games[::-1])
        }
        peer = peer or theirs(bgio, args.tables, args.seconds)
        rounds.append((peer, mine))
        ratios = ", ".join(
            f"{g} {m['actions_per_s'] / peer['moves_per_s']:.2f}x" for g, m in mine.items()
        )
        print(f"#   boardgame.io {peer['moves_per_s']} moves/s; {ratios}", file=sys.stderr)
    think = [
        ours(500, 15, args.server_python, "--think-ms", "1000", "--bot-delay", "0.6")
        for _ in range(args.think_runs)
    ]
    result: dict[str, Any] = {
        "bench": "side_by_side",
        "started": started,
        "pairs": args.pairs,
        "tables": args.tables,
        "seconds": args.seconds,
        "server_python": args.server_python,
        "boardgame.io": {
            "moves_per_s": summary([float(b["moves_per_s"]) for b, _ in rounds]),
            "p50_ms": summary([b["latency_self_ms"]["p50"] for b, _ in rounds]),
            "p99_ms": summary([b["latency_self_ms"]["p99"] for b, _ in rounds]),
            "server_cpu_percent": summary(
                [b["server"]["cpu_pct_of_one_core_in_window"] for b, _ in rounds]
            ),
            "clients_cpu_percent": summary(
                [b["client_proc"]["cpu_pct_of_one_core_in_window"] for b, _ in rounds]
            ),
            # resident growth a live match, and its JS heap growth beside it
            "memory_per_table_kb": summary([b["kb_per_live_match_rss"] for b, _ in rounds]),
            "memory_per_table_kb_heap": summary([b["kb_per_live_match_heap"] for b, _ in rounds]),
            "errors": [b["errors_total"] for b, _ in rounds],
        },
        "games": {g: game_summary(g, rounds) for g in games},
    }
    if think:
        result["think"] = {
            "p99_ms": summary([t["p99_ms"] for t in think]),
            "memory_per_table_kb": summary([t["memory_per_table_kb"] for t in think]),
            "actions_per_s": summary([t["actions_per_s"] for t in think]),
            "errors": [t["errors"] for t in think],
        }
    print(json.dumps(result))


def game_summary(
    game: str, rounds: list[tuple[dict[str, Any], dict[str, dict[str, Any]]]]
) -> dict[str, Any]:
    """Ours on one game, each figure beside the round's boardgame.io run."""
    runs = [(b, m[game]) for b, m in rounds]
    return {
        "moves_per_s": summary([m["actions_per_s"] for _, m in runs]),
        "ratio": summary([round(m["actions_per_s"] / b["moves_per_s"], 3) for b, m in runs]),
        "p50_ms": summary([m["p50_ms"] for _, m in runs]),
        "p99_ms": summary([m["p99_ms"] for _, m in runs]),
        "server_cpu_percent": summary([m["server_cpu_percent"] for _, m in runs]),
        "server_cpu_ms_per_action": summary([m["server_cpu_ms_per_action"] for _, m in runs]),
        "clients_cpu_percent": summary([m["clients_cpu_percent"] for _, m in runs]),
        "memory_per_table_kb": summary([m["memory_per_table_kb_setup"] for _, m in runs]),
        "errors": [m["errors"] for _, m in runs],
    }


if __name__ == "__main__":
    main()
