"""What the games' data files are checked against: a broken file is refused, naming it, and
a game takes its numbers from the file, not from a copy in code."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import thievery


def refusal(read: Callable[[Path], object], path: Path, text: str) -> str:
    """``text`` written at ``path``: the message of the ``ValueError`` with which ``read``
    refuses it (which must name the file)."""
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(str(path))) as refused:
        read(path)
    return str(refused.value)


def loaded_with(game: str, text: str, module: str, expression: str) -> Any:
    """In a new Python in which ``game``'s ``data/components.toml`` reads ``text``: the value
    of ``expression`` (JSON) once ``module`` is imported (as ``m``)."""
    data = Path(thievery.__file__).parent / "games" / game / "data" / "components.toml"
    code = f"""
import json, pathlib
real = pathlib.Path.read_text
def read_text(self, *args, **kwargs):
    return {text!r} if self == pathlib.Path({str(data)!r}) else real(self, *args, **kwargs)
pathlib.Path.read_text = read_text
import {module} as m
print(json.dumps({expression}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)
