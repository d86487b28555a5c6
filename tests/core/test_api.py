"""The public names: thievery.game, thievery.game_names, records, errors, the Rng."""

from __future__ import annotations

import pytest

import thievery
from thievery.core import GameRecord, InvalidRecord, Rng


def test_game_spec_lists_its_options() -> None:
    info = thievery.game("schattendieb").info()
    assert info["title"] == "Der Schattendieb"
    assert (info["min_players"], info["max_players"]) == (3, 7)
    options = {o["name"]: o["default"] for o in info["options"]}
    assert options == {"games": 3, "all_close_rule": "revealed"}  # secret ones hidden


def test_rng_is_deterministic_and_uniform_enough() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    counts = [0] * 6
    for _ in range(60_000):
        counts[a.below(6)] += 1
    assert all(9_500 < c < 10_500 for c in counts)
    with pytest.raises(ValueError, match="n >= 1"):
        a.below(0)
    items = list(range(10))
    a.shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))


def test_rng_pick_draws_in_proportion_to_the_weights() -> None:
    rng = Rng(7)
    assert {rng.pick([0.0, 2.5, 0.0]) for _ in range(200)} == {1}
    counts = [0, 0, 0]
    for _ in range(40_000):
        counts[rng.pick([1.0, 3.0, 0.0])] += 1
    assert 9_400 < counts[0] < 10_600 and counts[2] == 0


def test_a_record_keeps_the_seats_names_and_checks_them() -> None:
    state = thievery.game("schattendieb").new(3, 1)
    plain = GameRecord.of(state).to_json()
    assert "names" not in plain  # records without names are as they always were
    assert GameRecord.from_json(plain).names is None
    named = GameRecord.of(state, ["Ann", "Bo", "Cy"]).to_json()
    assert named["names"] == ["Ann", "Bo", "Cy"]
    assert GameRecord.from_json(named).names == ["Ann", "Bo", "Cy"]
    for names in (["Ann", "Bo"], ["Ann", "Bo", 3], ["Ann", "Bo", "x" * 41], "Ann"):
        with pytest.raises(InvalidRecord, match="one per seat"):
            GameRecord.from_json({**plain, "names": names})


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"players": 3.7}, "'players' is a whole number, not 3.7"),
        ({"players": True}, "'players' is a whole number, not True"),
        ({"seed": 1.5}, "'seed' is a whole number, not 1.5"),
        ({"seed": "5"}, "'seed' is a whole number, not '5'"),
        ({"version": None}, "'version' is a whole number, not None"),
        ({"actions": [{"seat": "0", "action": {"type": "done"}}]}, "'seat' is a whole number"),
    ],
)
def test_a_record_with_a_wrong_field_is_refused_for_that_field(
    change: dict[str, object], words: str
) -> None:
    """A fraction, a string or a boolean is not taken for a whole number (``int`` made 3.7
    three players and True seed 1)."""
    state = thievery.game("schattendieb").new(3, 1)
    record = {**GameRecord.of(state).to_json(), "salt": "ab" * 8, **change}
    with pytest.raises(InvalidRecord) as refused:
        GameRecord.from_json(record)
    assert words in str(refused.value)
