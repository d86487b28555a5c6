"""What the games' data files are checked against: a broken file is refused, naming it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest


def refusal(read: Callable[[Path], object], path: Path, text: str) -> str:
    """``text`` written at ``path``: the message of the ``ValueError`` with which ``read``
    refuses it (which must name the file)."""
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(str(path))) as refused:
        read(path)
    return str(refused.value)
