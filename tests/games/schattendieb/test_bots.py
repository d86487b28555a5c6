"""Der Schattendieb's bots: they see only views, are seeded, and the heuristic is better."""

from __future__ import annotations

import pytest

from thievery.bots import bot_names, make_bot
from thievery.core import InvalidOption, Rng
from thievery.sim import simulate, standings

from .helpers import SPEC


def test_bots_are_looked_up_by_name() -> None:
    assert bot_names("schattendieb") == ["heuristic", "ismcts", "ismcts-strong", "random"]
    with pytest.raises(
        InvalidOption, match=r"no bot 'genius'.*heuristic, ismcts, ismcts-strong, random"
    ):
        make_bot("genius", "schattendieb", 0, 1)


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_a_bot_decides_from_the_view_alone(name: str) -> None:
    """Two true states that look the same to a seat get the same decision."""
    rng = Rng(4)
    state = SPEC.new(4, seed=4)
    for _ in range(60):
        if not state.to_act:
            break
        seat = state.to_act[0]
        view = state.view(seat)
        other = SPEC.determinize(view, rng)  # hidden cards re-sampled
        a = make_bot(name, "schattendieb", seat, 9).act(view, state.legal_actions(seat))
        b = make_bot(name, "schattendieb", seat, 9).act(other.view(seat), other.legal_actions(seat))
        assert a == b
        state.apply(seat, a)


def test_heuristic_beats_random_clearly() -> None:
    outcomes = list(
        simulate("schattendieb", ["heuristic", "random", "random", "random"], games=200, seed=3)
    )
    table = {s.bot: s for s in standings(outcomes)}
    assert table["heuristic"].low > 0.25  # the 95% interval is clear of an equal share
    assert table["heuristic"].mean_score > table["random"].mean_score
