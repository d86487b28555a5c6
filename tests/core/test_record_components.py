"""A record names the components its game was played with (each game's
``component_digests``: Thieves Den's card set, Der Schattendieb's and Schatz-Rabatz's
``components.toml``, the Thieves! deck), and a record played with other components than
this install has is refused, not replayed with them: it would be another game."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import thievery
from tests.games.thieves_den.helpers import write_custom_set
from thievery.core import ComponentsChanged, GameRecord, InvalidRecord, State
from thievery.games.thieves_den.cards import inline_card_set

GAMES = {"schattendieb": 3, "schatz-rabatz": 2, "thieves": 3, "thieves-den": 3}
NAMES = {"schattendieb": "components", "schatz-rabatz": "components", "thieves": "deck"}
OLD_RECORD = Path(__file__).parent.parent / "records" / "thieves-den.json"


def played(game: str, actions: int = 30, options: dict[str, object] | None = None) -> State:
    """A game of random legal actions (a real-time game's clock ticks among them)."""
    state = thievery.game(game).new(GAMES[game], seed=3, options=options)
    rng = random.Random(3)
    for _ in range(actions):
        if not state.to_act:
            break
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_record_names_its_components_and_keeps_them_through_json_and_files(
    game: str, tmp_path: Path
) -> None:
    state = played(game)
    record = GameRecord.of(state)
    digests = thievery.game(game).component_digests(state.options)
    assert record.components == digests and len(digests) == 1
    assert list(digests) == [NAMES.get(game, "cards")]
    assert record.to_json()["components"] == digests
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert again.components == digests and again.to_json() == record.to_json()
    record.save(tmp_path / "game.json")
    assert json.loads((tmp_path / "game.json").read_text())["components"] == digests
    assert GameRecord.load(tmp_path / "game.json").components == digests
    # The same components as this install's: it replays as before.
    assert thievery.replay(again).view(None) == state.view(None)


def test_a_thieves_den_record_names_the_card_set_it_was_played_with(tmp_path: Path) -> None:
    """The default set's digest, or a card file's (its content inline in the record)."""
    default = GameRecord.of(played("thieves-den"))
    mine = GameRecord.of(played("thieves-den", options={"cards": str(write_custom_set(tmp_path))}))
    spec = thievery.game("thieves-den")
    assert default.components == spec.component_digests({})
    assert mine.options["cards"] == inline_card_set(tmp_path / "mine.toml")
    assert mine.components == spec.component_digests({"cards": mine.options["cards"]})
    assert mine.components != default.components
    thievery.replay(GameRecord.from_json(mine.to_json()))  # (its own set: it matches)


def test_a_record_of_other_components_is_refused_naming_them_and_both_digests() -> None:
    """The record of a game on the default cards, after the default set changed: refused,
    not replayed with the new cards. (Here the record's digest is the one changed.)"""
    record = GameRecord.of(played("thieves-den"))
    here = record.components["cards"] if record.components else ""
    data = {**record.to_json(), "components": {"cards": "0123456789ab"}}
    altered = GameRecord.from_json(data)
    expected = f"cards: the record's 0123456789ab, this install's {here}"
    for attempt in (
        lambda: thievery.replay(altered),
        lambda: thievery.replay(altered, check=False),
        altered.start,
        lambda: next(altered.steps()),
    ):
        with pytest.raises(ComponentsChanged, match=expected) as refused:
            attempt()
        assert isinstance(refused.value, InvalidRecord)  # (a record that does not replay)
        assert refused.value.code == "record/invalid"
        assert "other Thieves Den components than this install has" in str(refused.value)
        assert refused.value.title == "Thieves Den"
        assert refused.value.changes == [("cards", "0123456789ab", here)]
    assert altered.to_json() == data  # (nothing changed)


def test_a_record_naming_a_component_this_install_lacks_is_refused() -> None:
    record = GameRecord.of(played("thieves"))
    assert record.components is not None
    record.components = {**record.components, "board": "abcdef012345"}
    with pytest.raises(
        ComponentsChanged, match="board: the record's abcdef012345, this install's none"
    ):
        thievery.replay(record)


def test_a_record_without_components_still_replays_and_says_none_are_known() -> None:
    """Records made before records named their components: nothing is known, nothing is
    checked, and they replay as before (and are written back without them)."""
    saved = json.loads(OLD_RECORD.read_text())
    assert "components" not in saved
    record = GameRecord.load(OLD_RECORD)
    assert record.components is None
    assert "components" not in record.to_json()
    assert thievery.replay(record).result() == saved["result"]


@pytest.mark.parametrize(
    "components",
    [["cards"], {"cards": 12}, {"cards": "not hex!"}, {"": "0123456789ab"}, "cards"],
)
def test_a_record_whose_components_are_not_digests_by_name_is_not_read(
    components: object,
) -> None:
    data = {**GameRecord.of(played("thieves")).to_json(), "components": components}
    with pytest.raises(InvalidRecord, match="a record's components are an object of digests"):
        GameRecord.from_json(data)
