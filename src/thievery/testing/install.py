"""A game plug-in distribution installed into a folder of its own, for tests and benchmarks
that need a game Thievery's venv does not hold (processes that find the folder on
``PYTHONPATH`` see the game by its entry point alone)::

    site = install_plugin(Path("examples/pickpocket"), tmp / "site")
    env = {**os.environ, "PYTHONPATH": str(site)}
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path


def builds_without_isolation() -> bool:
    """Whether this venv's setuptools can build a wheel by itself (70.1 on, or with the
    ``wheel`` package): then pip needs no network to build a plug-in."""
    try:
        major, minor = (int(p) for p in metadata.version("setuptools").split(".")[:2])
    except (metadata.PackageNotFoundError, ValueError):
        return False
    if (major, minor) >= (70, 1):
        return True
    try:
        metadata.version("wheel")
    except metadata.PackageNotFoundError:
        return False
    return True


def install_plugin(source: Path, target: Path, timeout: float = 300) -> Path:
    """Install the distribution in ``source`` into ``target`` with pip (``--target``, no
    dependencies), built from a copy beside it (``<target>-source``, kept: a package's own
    tests can run there) so that the build leaves nothing in ``source``. Returns
    ``target``; :class:`subprocess.CalledProcessError` (pip's output in it) if pip fails."""
    copy = target.with_name(target.name + "-source")
    junk = shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__")
    shutil.copytree(source, copy, ignore=junk)
    command = [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet"]
    if builds_without_isolation():
        command.append("--no-build-isolation")  # the venv's setuptools, no download
    # Otherwise pip builds in isolation, fetching setuptools from its configured index.
    command += ["--target", str(target), str(copy)]
    subprocess.run(command, check=True, capture_output=True, text=True, timeout=timeout)
    return target
