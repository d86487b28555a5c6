"""Which tests run how: ``make test`` runs those that neither time themselves nor start a
server, a browser or a subprocess in two processes first (``pytest -n 2 -m "not
realtime"``); then the browser tests of tests/browser two files at a time (``-m
pairwise``), less those marked ``paced`` (on the server's own clock: a turn timer, a
real-time game); then the other servers, terminals and subprocesses two at a time (``-m
"realtime and not pairwise and not alone"``: each PostgreSQL test has a database of its
own per process, tests/server/conftest.py); last, one at a time, those marked ``alone``
(the paced browser tests, and the files of :data:`ALONE`: they measure the server's time,
memory or pace, so nothing else shares the machine's cores with them). (Stories told step
by step are run on the test's clock: test_motion_web.)"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).parent
# Folders whose tests start servers, browsers, terminals, subprocesses or Ray, or wait
# on the wall clock.
REALTIME = ("server", "browser", "cli", "plugins", "sim")
PAIRWISE = TESTS / "browser"
# Test files that time the server's answers, its pace or its memory: run alone.
ALONE = tuple(
    TESTS / "server" / f"test_{name}.py"
    for name in (
        "bot_pool",
        "bot_timing",
        "cycles",
        "load_bench",
        "memory",
        "realtime",
        "stalls",
        "wire",
        "wire_order",
    )
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    folders = [TESTS / name for name in REALTIME]
    for item in items:
        if any(item.path.is_relative_to(folder) for folder in folders):
            item.add_marker(pytest.mark.realtime)
        if item.path.is_relative_to(PAIRWISE):
            if item.get_closest_marker("paced") is None:
                item.add_marker(pytest.mark.pairwise)
            else:
                item.add_marker(pytest.mark.alone)
        elif item.path in ALONE:
            item.add_marker(pytest.mark.alone)
