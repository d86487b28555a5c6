"""Issue 18's comparison in one command: boardgame.io's harness and ours, run in turn.

Runs ``--pairs`` pairs, each boardgame.io's harness (``node bench.js --matches N
--duration-s S`` in ``--bgio DIR``, a copy of the team's boardgame.io peer benchmark after
``npm ci``) and then ``bench/server_load.py --workload bgio --tables N --seconds S``, then
``--think-runs`` runs of the think-time workload at 500 tables. The machine is shared and
its speed moves between days, so the ratio is taken within each pair, and medians are
given. Prints one JSON line:

- ``moves_per_s``: boardgame.io's and ours, median and every run;
- ``ratio``: ours over boardgame.io's, the median of the pairs' ratios and each pair's;
- ``p50_ms`` / ``p99_ms`` (action to update), ``server_cpu_ms_per_action``,
  ``clients_cpu_percent``, ``memory_per_table_kb`` (four websockets a table, after setup:
  resident growth, and boardgame.io's JS heap growth beside it);
- ``think``: p99 and memory a table at 500 tables with 1 s think time.

    python bench/side_by_side.py --bgio ~/peers/bgio --pairs 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

LOAD = Path(__file__).with_name("server_load.py")


def last_json(command: list[str], cwd: Path | None = None) -> dict[str, Any]:
    """Run a benchmark; its JSON line (the last line of its output)."""
    out = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def ours(tables: int, seconds: float, *extra: str) -> dict[str, Any]:
    command = [sys.executable, str(LOAD), "--tables", str(tables), "--seconds", str(seconds)]
    return last_json([*command, *extra])


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
    args = parser.parse_args()
    if not (args.bgio / "bench.js").is_file() or not (args.bgio / "node_modules").is_dir():
        parser.error(f"{args.bgio} is not the boardgame.io harness after `npm ci`")
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for n in range(args.pairs):
        print(f"# pair {n + 1}, load average {os.getloadavg()[0]:.2f}", file=sys.stderr)
        bgio = theirs(args.bgio, args.tables, args.seconds)
        mine = ours(args.tables, args.seconds, "--workload", "bgio")
        pairs.append((bgio, mine))
    think = [
        ours(500, 15, "--think-ms", "1000", "--bot-delay", "0.6") for _ in range(args.think_runs)
    ]
    result = {
        "bench": "side_by_side",
        "started": started,
        "pairs": args.pairs,
        "tables": args.tables,
        "seconds": args.seconds,
        "moves_per_s": {
            "boardgame.io": summary([float(b["moves_per_s"]) for b, _ in pairs]),
            "thievery": summary([m["actions_per_s"] for _, m in pairs]),
        },
        "ratio": summary([round(m["actions_per_s"] / b["moves_per_s"], 3) for b, m in pairs]),
        "p50_ms": {
            "boardgame.io": summary([b["latency_self_ms"]["p50"] for b, _ in pairs]),
            "thievery": summary([m["p50_ms"] for _, m in pairs]),
        },
        "p99_ms": {
            "boardgame.io": summary([b["latency_self_ms"]["p99"] for b, _ in pairs]),
            "thievery": summary([m["p99_ms"] for _, m in pairs]),
        },
        "server_cpu_percent": {
            "boardgame.io": summary(
                [b["server"]["cpu_pct_of_one_core_in_window"] for b, _ in pairs]
            ),
            "thievery": summary([m["server_cpu_percent"] for _, m in pairs]),
        },
        "server_cpu_ms_per_action": {
            "thievery": summary([m["server_cpu_ms_per_action"] for _, m in pairs]),
        },
        "clients_cpu_percent": {
            "boardgame.io": summary(
                [b["client_proc"]["cpu_pct_of_one_core_in_window"] for b, _ in pairs]
            ),
            "thievery": summary([m["clients_cpu_percent"] for _, m in pairs]),
        },
        "memory_per_table_kb": {  # resident growth (boardgame.io's heap growth beside it)
            "boardgame.io": summary([b["kb_per_live_match_rss"] for b, _ in pairs]),
            "boardgame.io_heap": summary([b["kb_per_live_match_heap"] for b, _ in pairs]),
            "thievery": summary([m["memory_per_table_kb_setup"] for _, m in pairs]),
        },
        "think": {
            "p99_ms": summary([t["p99_ms"] for t in think]),
            "memory_per_table_kb": summary([t["memory_per_table_kb"] for t in think]),
            "actions_per_s": summary([t["actions_per_s"] for t in think]),
        },
        "errors": {
            "boardgame.io": [b["errors_total"] for b, _ in pairs],
            "thievery": [m["errors"] for _, m in pairs] + [t["errors"] for t in think],
        },
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
