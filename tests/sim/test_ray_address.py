"""``simulate --ray ADDRESS``: an address where no cluster can be joined is refused at
once with a clear error (Ray itself retries a dead address for minutes)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import pytest

from thievery.core.errors import InvalidOption
from thievery.sim.ray_runner import _host_port


def closed_port() -> int:
    """A loopback port nothing listens on (asked of the OS, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def simulate(address: str) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = subprocess.run(
        [
            *(sys.executable, "-m", "thievery", "simulate", "thieves"),
            *("--bots", "random,random,random", "--games", "3", "--ray", address),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done, time.monotonic() - started


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_a_ray_address_where_nothing_answers_is_refused_at_once(scheme: str) -> None:
    address = f"{scheme}127.0.0.1:{closed_port()}"
    done, seconds = simulate(address)
    assert done.returncode != 0
    assert f"no Ray cluster answers at {address}" in done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert seconds < 60  # (it was retried until killed: over two minutes)


def test_a_malformed_ray_address_is_refused_with_the_forms_it_may_take() -> None:
    done, _ = simulate("cluster.example")
    assert done.returncode != 0
    assert "give 'local', 'auto', HOST:PORT or ray://HOST:PORT" in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("address", "where"),
    [
        ("auto", None),
        ("10.0.0.5:6379", ("10.0.0.5", 6379)),
        ("ray://head.example:10001", ("head.example", 10001)),
        ("[::1]:6379", ("::1", 6379)),
    ],
)
def test_cluster_addresses_name_their_host_and_port(
    address: str, where: tuple[str, int] | None
) -> None:
    assert _host_port(address) == where


@pytest.mark.parametrize("address", ["head", ":6379", "head:port", "head:0", "head:70000"])
def test_addresses_without_a_host_and_port_are_invalid(address: str) -> None:
    with pytest.raises(InvalidOption):
        _host_port(address)
