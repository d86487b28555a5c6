"""Card sets inline (the ``cards`` option holding a card file's content, so that records
and server tables carry their card set, not a path) and the card catalogue in every view."""

from __future__ import annotations

import gc
import json
import weakref
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from thievery.core import GameRecord, InvalidOption, Rng, State, replay
from thievery.games.thieves_den.cards import (
    DEFAULT_PATH,
    card_set_digest,
    compile_card_file,
    inline_card_set,
    load_card_set,
    parse_card_document,
    parse_card_file,
)
from thievery.games.thieves_den.effects import describe_ability
from thievery.games.thieves_den.search import _WEIGHTS, _fence_weights

from .helpers import CUSTOM_SET, GAME, SPEC, write_custom_set


def play_out(state: State, rng: Rng, every: int = 0, check: Any = None) -> State:
    """Random legal actions to the end; ``check(state)`` every ``every`` steps."""
    step = 0
    while state.to_act:
        if every and step % every == 0:
            check(state)
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        step += 1
    return state


def views(state: State) -> list[Any]:
    return [state.view(s) for s in [None, *range(state.players)]]


def test_an_inline_set_plays_exactly_as_its_file(tmp_path: Path) -> None:
    path = write_custom_set(tmp_path)
    document = inline_card_set(path)
    assert document["name"] == CUSTOM_SET
    assert json.loads(json.dumps(document)) == document  # plain JSON
    by_path = SPEC.new(3, 5, {"cards": str(path)})
    inline = SPEC.new(3, 5, {"cards": document})
    rng_a, rng_b = Rng(8), Rng(8)
    while by_path.to_act:
        assert inline.to_act == by_path.to_act
        seat = rng_a.choice(by_path.to_act)
        assert rng_b.choice(inline.to_act) == seat
        legal = by_path.legal_actions(seat)
        assert inline.legal_actions(seat) == legal
        action = rng_a.choice(legal)
        assert by_path.apply(seat, action) == inline.apply(seat, rng_b.choice(legal))
    assert inline.result() == by_path.result() and inline.locations() == by_path.locations()
    for a, b in zip(views(inline), views(by_path), strict=True):
        assert a["options"]["cards"] == document and b["options"]["cards"] == str(path)
        assert {**a, "options": None} == {**b, "options": None}


def test_inline_sets_are_cached_by_their_content_not_their_identity(tmp_path: Path) -> None:
    document = inline_card_set(write_custom_set(tmp_path))
    copy = json.loads(json.dumps(document))
    reordered = dict(reversed(list(copy.items())))
    assert copy is not document and list(reordered) != list(document)
    assert card_set_digest(reordered) == card_set_digest(document)
    assert load_card_set(reordered) is load_card_set(document)
    other = {**document, "name": "Another set"}
    assert card_set_digest(other) != card_set_digest(document)
    assert load_card_set(other) is not load_card_set(document)
    assert load_card_set(other).name == "Another set"


def test_a_record_holds_its_card_set_and_replays_without_the_file(tmp_path: Path) -> None:
    path = write_custom_set(tmp_path)
    options = GAME.inline_options({"cards": "mine.toml", "first_player": 1}, tmp_path)
    assert options["cards"] == inline_card_set(path) and options["first_player"] == 1
    state = play_out(SPEC.new(3, 9, options), Rng(2))
    text = json.dumps(GameRecord.of(state).to_json())
    assert str(tmp_path) not in text and "mine.toml" not in text
    path.unlink()  # the record needs no file
    again = replay(GameRecord.from_json(json.loads(text)))
    assert again.result() == state.result() is not None
    assert again.locations() == state.locations()
    assert views(again) == views(state)


def test_a_record_of_a_game_made_from_a_card_files_path_holds_the_set_read_in(
    tmp_path: Path,
) -> None:
    """A game made in the library with the card set's path, not the set: its record holds
    the set as read, and replays to the same game after the file changed or went. (It
    held the path, and replayed silently to another game once the file was edited.)"""
    path = write_custom_set(tmp_path)
    state = play_out(SPEC.new(3, 5, {"cards": str(path)}), Rng(4))
    record = GameRecord.of(state)
    assert record.options["cards"] == inline_card_set(path)
    path.write_text(path.read_text().replace("prestige = ", "prestige = 1"))
    again = replay(GameRecord.from_json(json.loads(json.dumps(record.to_json()))))
    assert again.result() == state.result() is not None
    same = [{**v, "options": None} for v in views(again)]  # (the set, not the file's path)
    assert same == [{**v, "options": None} for v in views(state)]
    assert again.locations() == state.locations()
    path.unlink()
    assert replay(record).result() == state.result()


def test_each_card_set_gets_its_own_fence_weights_however_many_come_and_go() -> None:
    """The search bots' Fence weights were kept by a card set's id: a set freed (inline
    sets are cached sixteen at a time) gave its id, and so its weights, to the next set
    made. The same set, seed and bots then played another game in a process that had
    loaded other sets before."""
    base = inline_card_set(DEFAULT_PATH)
    gc.collect()
    kept_before = len(_WEIGHTS)
    for k in range(60):
        document = json.loads(json.dumps(base))
        document["name"] = f"variant {k}"
        for fence in document["fences"]:
            fence["prestige"] = 1 + (fence["prestige"] + k) % 30
        # (compiled here, not through the cache, so that it is freed right after)
        cs = compile_card_file(parse_card_document(document), f"v{k}")
        own = [p / t for p, t in zip(cs.fence_prestige, cs.fence_total, strict=True)]
        assert _fence_weights(cs) == own, k
        assert len(_WEIGHTS) == kept_before + 1
        gone = weakref.ref(cs)
        del cs
        gc.collect()  # (the set freed: often the next is made at its address, its id)
        assert gone() is None
        # Nothing is kept for a freed set, so no set made later, wherever it is made,
        # can be given its weights. (Whether CPython reuses the address is up to its
        # allocator: the test does not count on it.)
        assert len(_WEIGHTS) == kept_before, k


def test_inline_options_reads_paths_only_and_names_files_as_given(tmp_path: Path) -> None:
    document = inline_card_set(DEFAULT_PATH)
    assert GAME.inline_options({"cards": document}) == {"cards": document}
    assert GAME.inline_options({"first_player": 2}) == {"first_player": 2}
    (tmp_path / "bad.toml").write_text(
        DEFAULT_PATH.read_text().replace("prestige = 7", 'prestige = "seven"', 1)
    )
    with pytest.raises(InvalidOption, match=r"^bad\.toml: fence 'noble-countess'") as e:
        GAME.inline_options({"cards": "bad.toml"}, tmp_path)
    assert str(tmp_path) not in str(e.value)
    with pytest.raises(InvalidOption, match=r"^nope\.toml: cannot read the card file"):
        GAME.inline_options({"cards": "nope.toml"}, tmp_path)


def broken_set(change: str) -> Any:
    """The default set's document with one thing wrong."""
    document: dict[str, Any] = inline_card_set(DEFAULT_PATH)
    if change == "prestige":
        document["fences"][0]["prestige"] = "seven"
    elif change == "format":
        document["format"] = "thieves/cards"
    elif change == "no locations":
        del document["locations"]
    elif change == "effect":
        document["locations"][1]["ability"][0] = {"op": "steal_everything"}
    elif change == "not JSON":
        document["name"] = {1, 2}
    elif change == "not an object":
        return ["format", "thieves-den/cards"]
    return document


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            "prestige",
            r"^the inline card set: fence 'noble-countess' \(fences\[0\]\), field 'prestige'",
        ),
        ("format", r"^the inline card set: field 'format'"),
        ("no locations", r"^the inline card set: field 'locations': Field required"),
        (
            "effect",
            r"^the inline card set: location 'potion-shop' \(locations\[1\]\), field "
            r"'ability\.0'.*steal_everything",
        ),
        ("not JSON", r"^the inline card set: not a JSON object"),
        ("not an object", r"^option 'cards' is a card file path or an inline card set"),
    ],
)
def test_a_malformed_inline_set_is_refused_clearly(change: str, message: str) -> None:
    with pytest.raises(InvalidOption, match=message):
        SPEC.new(3, 0, {"cards": broken_set(change)})


def test_over_the_network_an_inline_set_is_accepted_and_a_path_refused() -> None:
    GAME.check_remote_options({"cards": inline_card_set(DEFAULT_PATH)})  # no error
    GAME.check_remote_options({"cards": None})
    with pytest.raises(InvalidOption, match="not accepted over the network"):
        GAME.check_remote_options({"cards": str(DEFAULT_PATH)})


@pytest.mark.parametrize("custom", [False, True])
def test_the_views_catalogue_is_the_card_set_in_words(custom: bool, tmp_path: Path) -> None:
    path = write_custom_set(tmp_path) if custom else DEFAULT_PATH
    model = parse_card_file(path.read_text(), str(path))
    state = SPEC.new(4, 1, {"cards": inline_card_set(path)} if custom else {})
    catalogue = state.view(None)["catalogue"]
    assert all(v["catalogue"] == catalogue for v in views(state))
    assert catalogue["name"] == model.name
    assert catalogue["witch"] == model.witch.model_dump()
    assert catalogue["majority"] == model.majority.model_dump()
    assert list(catalogue["locations"]) == [x.id for x in model.locations]
    for x in model.locations:
        instant = x.timing == "instant"
        assert catalogue["locations"][x.id] == {
            "name": x.name,
            "type": x.type,
            "instant": instant,
            "text": x.text or describe_ability(x.ability),
            "bonus": [] if instant else [[g.what, g.count] for g in x.owner_bonus],
            "bonus_text": "" if instant else describe_ability(x.owner_bonus),
        }
    assert list(catalogue["fences"]) == [x.id for x in model.fences]
    for f in model.fences:
        entry = catalogue["fences"][f.id]
        assert (entry["name"], entry["type"], entry["prestige"]) == (f.name, f.type, f.prestige)
        assert Counter(entry["desires"]) == Counter(f.desires)
    assert catalogue["schemes"] == {
        s.id: {"types": list(s.types), "prestige": s.prestige} for s in model.schemes
    }
    assert catalogue["powers"] == {
        p.id: {"name": p.name, "text": p.text or describe_ability(p.ability)} for p in model.powers
    }
    market, tile = catalogue["locations"]["market"], catalogue["powers"]["renown"]
    if custom:
        assert (market["name"], market["text"]) == ("Night Bazaar", "Take 3 Jewels")
        assert (tile["name"], tile["text"]) == ("Fame", "Gain 5 Prestige")
    else:
        assert (market["name"], market["text"]) == ("Market", "Take 2 Jewels")
        assert (tile["name"], tile["text"]) == ("Renown", "Gain 3 Prestige")


def test_views_of_an_inline_set_hide_nothing_new(tmp_path: Path) -> None:
    """Non-interference with a custom inline set: re-sampling everything a seat cannot see
    (from its view as JSON) gives the same view, catalogue and card set included."""
    document = inline_card_set(write_custom_set(tmp_path))
    rng = Rng(4)
    checked = 0

    def check(state: State) -> None:
        nonlocal checked
        for seat in range(state.players):
            view = state.view(seat)
            sample = SPEC.determinize(json.loads(json.dumps(view)), rng)
            assert sample.view(seat) == view
            assert sample.legal_actions(seat) == state.legal_actions(seat)
            assert view["catalogue"]["name"] == CUSTOM_SET
            checked += 1

    play_out(SPEC.new(3, 6, {"cards": document}), Rng(5), every=7, check=check)
    assert checked > 30


def test_a_document_loaded_again_is_its_set_and_one_changed_since_is_its_new_set() -> None:
    """Loading one options dict again (an RL environment's every reset) is told its set
    by identity and a comparison, not a digest; a document changed in place since is
    read anew, never given the set it said before."""
    document = inline_card_set(DEFAULT_PATH)
    first = load_card_set(document)
    assert load_card_set(document) is first
    document["name"] = "Renamed in place"
    document["fences"][0]["prestige"] += 7
    again = load_card_set(document)
    assert again is not first
    assert again.name == "Renamed in place"
    assert again.fence_prestige[0] == first.fence_prestige[0] + 7
    assert load_card_set(json.loads(json.dumps(document))) is again  # (by content, too)
