"""Simulations on a Ray cluster: the same jobs as local runs, as Ray tasks in batches.

``address="local"`` starts a local Ray instance (tests and single machines); any other
address connects to that cluster (``ray://host:10001`` or ``auto``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from thievery.sim.runner import GameOutcome, jobs, run_batch, run_batch_with_history


def simulate_ray(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    address: str = "local",
    batch: int = 25,
    duplicate: bool = False,
    history: bool = False,
) -> Iterator[GameOutcome]:
    """Yield outcomes as Ray tasks finish (any order; each carries its index, and its
    actions if ``history``)."""
    import ray

    work = jobs(game, bots, games, seed, options, duplicate)  # refuse a bad run before Ray
    if not ray.is_initialized():
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    task = ray.remote(run_batch_with_history if history else run_batch)
    pending = [task.remote(work[i : i + batch]) for i in range(0, len(work), batch)]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        yield from ray.get(done[0])
