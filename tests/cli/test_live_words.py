"""Schatz-Rabatz's live screen in words a player reads: how long a busy hand waits."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

import thievery
from thievery.bots import make_bot
from thievery.core import Rng
from thievery.core.i18n import use_language
from thievery.games.schatz_rabatz.live import LiveGame


@pytest.mark.parametrize(
    ("lang", "busy", "refused"),
    [
        ("en", "hand busy: ready in 0.1 s", "Your hand is not ready yet: wait 0.1 s"),
        (
            "de",
            "Hand beschäftigt: bereit in 0,1 s",
            "Deine Hand ist noch nicht bereit: Warte 0,1 s",
        ),
    ],
)
def test_a_busy_hands_last_moments_are_not_ready_in_0_seconds(
    lang: str, busy: str, refused: str
) -> None:
    """30 ms before the hand was free the pick line said "ready in 0.0 s", and a drop was
    refused with "wait 0.0 s": the wait is rounded up to the next tenth of a second."""
    spec = thievery.game("schatz-rabatz")
    state = spec.new(2, 1, {})  # (hand_ms 800: a drop at 0 ms, the hand free at 800 ms)
    game = LiveGame(state, 0, {1: make_bot("random", spec.name, 1, 1)}, Rng(1))
    with use_language(lang):
        game.tick(0)
        game.key("enter")
        game.tick(770)
        console = Console(width=120, record=True, color_system=None, file=io.StringIO())
        console.print(game.render())
        assert busy in console.export_text(), console.export_text()
        game.key("enter")
        assert game.message == refused
