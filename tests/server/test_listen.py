"""The listening sockets of ``thievery serve --workers N``: one a worker on one port, the
kernel spreading new connections over them evenly, a port in use refused."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from thievery.server.run import bind, bind_each

HOST = "127.0.0.1"

pytestmark = pytest.mark.skipif(
    not hasattr(socket, "SO_REUSEPORT"), reason="one shared socket without SO_REUSEPORT"
)


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
