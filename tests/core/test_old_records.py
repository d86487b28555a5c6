"""Records saved before the games became plug-ins still replay, to the same result.

``tests/records/<game>.json`` were written by commit c39f84b (the last one before the
plug-in layout): one seeded game per game, heuristic and random bots, with seat names,
Schatz-Rabatz on simulated time (its clock ticks are in the record).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import thievery
from thievery.core import GameRecord, InvalidRecord

RECORDS = sorted((Path(__file__).parent.parent / "records").glob("*.json"))


def test_there_is_an_old_record_of_every_built_in_game() -> None:
    built_in = ["schattendieb", "schatz-rabatz", "thieves", "thieves-den"]
    assert sorted(p.stem for p in RECORDS) == built_in
    assert set(built_in) <= set(thievery.game_names())


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_an_old_record_replays_to_its_result(path: Path) -> None:
    saved = json.loads(path.read_text())
    record = GameRecord.load(path)
    state = thievery.replay(record)
    assert state.is_over
    assert state.result() == saved["result"]
    again = GameRecord.of(state, record.names).to_json()
    assert again["actions"] == saved["actions"]  # the same actions, the same JSON
    assert again["names"] == saved["names"]


def test_a_record_of_other_rules_is_refused_unless_the_game_maps_its_version() -> None:
    saved = json.loads(RECORDS[0].read_text())
    spec = thievery.game(saved["game"])
    for version in (spec.version + 1, 0):
        record = GameRecord.from_json({**saved, "version": version})
        with pytest.raises(InvalidRecord, match=f"version {version}; this is version"):
            thievery.replay(record)
    assert spec.record_options(spec.version, {"a": 1}) == {"a": 1}


def test_a_record_whose_result_was_edited_is_refused_by_replay() -> None:
    saved = json.loads(RECORDS[0].read_text())
    result = saved["result"]
    edited = {**result, "winners": [w for w in range(4) if w not in result["winners"]][:1]}
    record = GameRecord.from_json({**saved, "result": edited})
    with pytest.raises(InvalidRecord, match="the record says the game ended"):
        thievery.replay(record)
    assert thievery.replay(record, check=False).result() == result  # (verify tells it so)
    unfinished = GameRecord.from_json({**saved, "result": None})  # (states no result)
    assert thievery.replay(unfinished).result() == result
