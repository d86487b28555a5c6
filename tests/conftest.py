"""Which tests run how: ``make test`` runs those that neither time themselves nor start a
server, a browser or a subprocess in two processes first (``pytest -n 2 -m "not
realtime"``); then the browser tests of tests/browser two files at a time (``-m
pairwise``), less those marked ``paced`` (on the server's own clock: a turn timer, a
real-time game); then the rest one at a time (``-m "realtime and not pairwise"``), so that
nothing else shares the machine's cores with them. (Stories told step by step are run on
the test's clock: test_motion_web.)"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).parent
# Folders whose tests start servers, browsers, terminals, subprocesses or Ray, or wait
# on the wall clock.
REALTIME = ("server", "browser", "cli", "plugins", "sim")
PAIRWISE = TESTS / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    folders = [TESTS / name for name in REALTIME]
    for item in items:
        if any(item.path.is_relative_to(folder) for folder in folders):
            item.add_marker(pytest.mark.realtime)
        if item.path.is_relative_to(PAIRWISE) and item.get_closest_marker("paced") is None:
            item.add_marker(pytest.mark.pairwise)
