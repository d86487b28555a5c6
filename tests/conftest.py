"""Which tests run one at a time: ``make test`` runs the others in two processes first
(``pytest -n 2 -m "not realtime"``), then the browser tests two files at a time, less
those marked ``paced`` (on the server's own clock: a turn timer, a real-time game; a
story's steps are run on the test's clock, test_motion_web), then the rest alone, so that
nothing else shares the machine's cores with a test that times itself or a live server."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).parent
# Folders whose tests start servers, browsers, terminals, subprocesses or Ray, or wait
# on the wall clock.
REALTIME = ("server", "browser", "cli", "plugins", "sim")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    folders = [TESTS / name for name in REALTIME]
    for item in items:
        if any(item.path.is_relative_to(folder) for folder in folders):
            item.add_marker(pytest.mark.realtime)
