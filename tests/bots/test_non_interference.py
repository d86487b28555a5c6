"""Non-interference for every bot a game offers (its own and the generic ones), at the
fewest and the most players, deep into a game and with memory.

Two bots of the same seed play the same seat side by side through a game whose other
seats act at random. At each of the seat's decisions one is shown the true state's view,
the other the view of a state re-sampled behind it (other hands, the deck's order,
face-down boards drawn anew); they must choose alike, decision after decision, so that a
bot that remembers earlier views (Thieves Den's search remembers the hands it passed)
remembers nothing the seat could not. The search levels run on small budgets here: the
same code, fewer rollouts.
"""

from __future__ import annotations

import pytest

import thievery
from thievery.bots import ISMCTSBot, bot_names, make_bot
from thievery.core.plugin import Bot
from thievery.core.protocol import ClockedState
from thievery.core.rng import Rng
from thievery.games.schatz_rabatz.search import PlacementSearchBot

CASES = [
    (game, players, bot)
    for game in thievery.game_names()
    for players in sorted({thievery.game(game).min_players, thievery.game(game).max_players})
    for bot in bot_names(game)
]
CHOICES = 6  # real choices (more than one legal action) checked per case


def _small(bot: Bot) -> Bot:
    """The bot on a small budget (its code unchanged)."""
    if isinstance(bot, ISMCTSBot):
        bot.iterations = 24
    if isinstance(bot, PlacementSearchBot):
        bot.samples = 3
    return bot


@pytest.mark.parametrize(("game", "players", "name"), CASES)
def test_a_bot_chooses_alike_behind_the_same_view(game: str, players: int, name: str) -> None:
    spec = thievery.game(game)
    seed = 40 + players
    state = spec.new(players, seed)
    rng, resample = Rng(seed), Rng(seed + 1)
    me = players - 1  # (not the first seat, which some games favour)
    seen, fooled = _small(make_bot(name, game, me, 5)), _small(make_bot(name, game, me, 5))
    choices = differed = 0
    while state.to_act and choices < CHOICES:
        if isinstance(state, ClockedState) and rng.below(3) == 0:  # real time: let time pass
            state.advance(state.now_ms + rng.below(3000))
        if not state.to_act:
            break
        seat = rng.choice(state.to_act)
        legal = state.legal_actions(seat)
        if seat != me:
            state.apply(seat, rng.choice(legal))
            continue
        view = state.view(me)
        other = spec.determinize(view, resample)  # another true state behind the same view
        assert other.view(me) == view and other.legal_actions(me) == legal
        differed += other.locations() != state.locations()
        action = seen.act(view, legal)
        assert fooled.act(other.view(me), other.legal_actions(me)) == action, (game, players)
        assert action in legal
        choices += len(legal) > 1
        state.apply(me, action)
    assert choices == CHOICES or not state.to_act
    assert choices > 0 and differed > 0  # real choices, and something hidden was re-drawn


def test_no_bot_draws_the_numbers_that_dealt_the_cards() -> None:
    """A local game deals from ``Rng(seed)`` and its bots draw from generators made from
    the same seed: no bot's stream may be the deal's (seed 0 made the first seat's bot
    draw exactly the numbers that shuffled the deck), nor run near it."""
    for game in thievery.game_names():
        for seed in (0, 1, 7, 2**40):
            deal = Rng(seed)  # (what spec.new(players, seed) deals from)
            dealt = {deal.next64() for _ in range(256)}
            for seat in range(thievery.game(game).max_players):
                rng = getattr(make_bot("random", game, seat, seed), "rng")  # noqa: B009
                assert not dealt & {rng.next64() for _ in range(256)}, (game, seed, seat)
