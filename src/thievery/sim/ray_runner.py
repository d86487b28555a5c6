"""Simulations on a Ray cluster: the same jobs as local runs, as Ray tasks in batches.

``address="local"`` starts a local Ray instance (tests and single machines); any other
address connects to that cluster (``host:6379``, ``ray://host:10001`` or ``auto``). An
address where nothing answers is refused at once (:class:`InvalidOption`), not retried
by Ray for minutes.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from thievery.core.errors import InvalidOption
from thievery.sim.runner import GameOutcome, jobs, run_batch, run_batch_with_history

PROBE_SECONDS = 5.0  # for a cluster's address to accept a connection


def _host_port(address: str) -> tuple[str, int] | None:
    """The host and port a cluster address names (``host:port`` or ``ray://host:port``;
    an IPv6 host in brackets), or None for ``auto``, which Ray looks up itself."""
    if address == "auto":
        return None
    rest = address.removeprefix("ray://")
    host, colon, port = rest.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InvalidOption(
            f"--ray {address!r}: give 'local', 'auto', HOST:PORT or ray://HOST:PORT"
        )
    return host, int(port)


def _probe(address: str) -> None:
    """Refuse an address where nothing accepts a connection within PROBE_SECONDS."""
    where = _host_port(address)
    if where is None:
        return
    try:
        socket.create_connection(where, timeout=PROBE_SECONDS).close()
    except OSError as e:
        raise InvalidOption(f"no Ray cluster answers at {address}: {e}") from e


def connect(address: str) -> None:
    """Start a local Ray instance (``local``) or join the cluster at ``address``; a clear
    :class:`InvalidOption` when that cannot be done (nothing answers, no cluster found
    for ``auto``, Ray's client missing for ``ray://``)."""
    import ray

    if ray.is_initialized():
        return
    if address == "local":
        ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
        return
    _probe(address)
    try:
        ray.init(address=address, log_to_driver=False, configure_logging=False)
    except (ConnectionError, ValueError, RuntimeError) as e:
        raise InvalidOption(f"cannot join the Ray cluster at {address}: {e}") from e


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
    connect(address)
    task = ray.remote(run_batch_with_history if history else run_batch)
    pending = [task.remote(work[i : i + batch]) for i in range(0, len(work), batch)]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        yield from ray.get(done[0])
