"""The listening sockets of ``thievery serve --workers N``: one a worker on one port, the
kernel spreading new connections over them evenly, a port in use refused."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from tests.server.serving import listening_sockets
from thievery.server.run import SPREADS, bind, bind_each, own_socket

HOST = "127.0.0.1"

pytestmark = pytest.mark.skipif(not SPREADS, reason="one shared socket: nothing to spread")


@pytest.fixture
def pair() -> Iterator[list[socket.socket]]:
    sockets = bind_each(HOST, 0, 2)
    yield sockets
    for sock in sockets:
        sock.close()


def test_one_socket_a_worker_on_one_port(pair: list[socket.socket]) -> None:
    a, b = pair
    assert a is not b and a.fileno() != b.fileno()
    assert a.getsockname() == b.getsockname() and a.getsockname()[1] != 0
    for sock in pair:
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) == 1
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1  # listening
    assert listening_sockets(a.getsockname()[1]) == 2


def test_a_worker_started_again_binds_its_own_socket_on_the_port(
    pair: list[socket.socket],
) -> None:
    port = pair[0].getsockname()[1]
    pair[1].close()  # (its worker died: the parent closes it)
    assert listening_sockets(port) == 1
    again = own_socket((HOST, port))
    try:
        assert listening_sockets(port) == 2 and again.getsockname() == pair[0].getsockname()
        assert own_socket(pair[0]) is pair[0]  # (a worker given its socket serves on it)
    finally:
        again.close()


def test_ipv6() -> None:
    try:
        sockets = bind_each("::1", 0, 2)
    except OSError:
        pytest.skip("no IPv6 loopback here")
    try:
        assert sockets[0].getsockname()[:2] == sockets[1].getsockname()[:2]
        assert listening_sockets(sockets[0].getsockname()[1]) == 2
    finally:
        for sock in sockets:
            sock.close()


def test_new_connections_are_spread_evenly(pair: list[socket.socket]) -> None:
    port = pair[0].getsockname()[1]
    clients = [socket.create_connection((HOST, port)) for _ in range(200)]
    try:
        accepted = []
        for sock in pair:
            sock.settimeout(0.2)
            n = 0
            while True:
                try:
                    conn, _ = sock.accept()
                except TimeoutError:
                    break
                conn.close()
                n += 1
            accepted.append(n)
        # Binomial(200, 1/2): 60 or more each but for a chance of 1 in 150 million.
        assert sum(accepted) == 200 and min(accepted) >= 60, accepted
    finally:
        for client in clients:
            client.close()


def test_a_port_in_use_is_refused(pair: list[socket.socket]) -> None:
    port = pair[0].getsockname()[1]
    with pytest.raises(OSError):  # another --workers server of the same user
        bind_each(HOST, port, 2)
    with pytest.raises(OSError):  # a one-process server
        bind(HOST, port)


def test_one_worker_binds_one_plain_socket() -> None:
    [sock] = bind_each(HOST, 0, 1)
    try:
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) == 0
    finally:
        sock.close()


def test_one_process_listens_as_soon_as_it_has_bound() -> None:
    """`thievery serve` prints its URL once it has bound, before uvicorn starts (after the
    app has restored its tables): a client that comes then waits in the backlog, it is
    not refused (scripts and health checks go by the printed URL)."""
    [sock] = bind_each(HOST, 0, 1)
    try:
        with socket.create_connection(sock.getsockname()[:2], timeout=2):
            pass  # (refused before: nothing listened yet)
    finally:
        sock.close()
