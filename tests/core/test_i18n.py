"""``thievery.core.i18n``: the language from the environment, per-context languages,
translators over a package's ``lang_<code>`` module, the lookup record, German seat words;
and that the renderers' English words are the engine's (English did not change)."""

from __future__ import annotations

import re
import threading

import pytest
from rich.console import Console

import thievery
from thievery.cli.render import renderer, seat_labels
from thievery.core import Rng
from thievery.core.i18n import (
    GermanSeats,
    Translator,
    check_language,
    current_language,
    language_from_env,
    localized,
    recording_lookups,
    result_name,
    use_language,
)


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de_CH"}, "de"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "en_GB", "LC_MESSAGES": "de_AT.UTF-8"}, "de"),
        ({"LANG": "de_DE", "LC_MESSAGES": "en_US"}, "en"),
        ({"LC_ALL": "de_DE.UTF-8", "LC_MESSAGES": "en_US", "LANG": "en_US"}, "de"),
        ({"LC_ALL": "", "LANG": "de_DE"}, "de"),  # an empty variable counts as unset
    ],
)
def test_the_language_follows_posix_precedence(env: dict[str, str], lang: str) -> None:
    assert language_from_env(env) == lang


def test_languages_are_checked_and_kept_per_context() -> None:
    assert check_language(" DE ") == "de"
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        check_language("fr")
    seen: list[str] = []
    with use_language("de"):
        assert current_language() == "de"
        thread = threading.Thread(target=lambda: seen.append(current_language()))
        thread.start()
        thread.join()
    assert seen == ["en"]  # another thread keeps its own language
    assert current_language() == "en"


def test_a_translator_falls_back_to_english_and_records_what_is_missing() -> None:
    _ = Translator("thievery.cli")
    with use_language("de"), recording_lookups() as found:
        assert _("Seat {n}", n=2) == "Platz 2"
        assert _("no such text {x}", x=1) == "no such text 1"
    assert ("thievery.cli", "Seat {n}") in found.asked
    assert found.missing == {("thievery.cli", "no such text {x}")}
    with recording_lookups() as english:
        assert _("Seat {n}", n=2) == "Seat 2"
    assert not english.missing  # English needs no entries
    with use_language("de"):
        assert Translator("thievery.core")("Your hand") == "Your hand"  # no lang_de there
        assert localized("thievery.core", "WORDS") is None
        assert localized("thievery.games.thieves", "describe") is not None
    assert localized("thievery.games.thieves", "describe") is None  # English: the spec's


def test_german_seat_words() -> None:
    w = GermanSeats(0, ["Ann", "Bo"])
    assert w.does(0, "hast", "hat", "gewählt") == "Du hast gewählt"
    assert w.does(1, "hast", "hat", "gewählt") == "Bo hat gewählt"
    assert (w.acc(0), w.von(1), w.name(5)) == ("dich", "von Bo", "Platz 5")
    assert GermanSeats(None).nom(0, True) == "Platz 0"  # a spectator has no "du"


def test_the_renderers_english_card_names_are_the_engines() -> None:
    from thievery.games.schattendieb import cards as sd
    from thievery.games.schattendieb.render import card_name as sd_name
    from thievery.games.thieves import cards as th
    from thievery.games.thieves.render import card_name as th_name

    assert [sd_name(c) for c in sd.CARD_ID] == [sd.describe_card(i) for i in sd.ALL_CARDS]
    assert [th_name(i) for i in th.ALL_CARDS] == [th.describe_card(i) for i in th.ALL_CARDS]
    with use_language("de"):
        assert sd_name("close-12a") == "Tresor zu 12" and sd_name("watch-3b") == "Uhr 3"
        assert th_name(th.CARD_INDEX["horseshoe"]) == "Hufeisen"


@pytest.mark.parametrize("game", ["schattendieb", "thieves", "thieves-den", "schatz-rabatz"])
def test_every_event_random_play_brings_has_german_words(game: str) -> None:
    """Many random games, every event as every seat and a spectator read it: the German
    describe knows every event type the English one does."""
    spec = thievery.game(game)
    words = localized_describe(game)
    seen: set[str] = set()
    for seed in range(6):
        state = spec.new(spec.min_players + seed % 2, seed, {})
        rng = Rng(seed)
        while state.to_act:
            seat = rng.choice(state.to_act)
            for event in state.apply(seat, rng.choice(state.legal_actions(seat))):
                seen.add(event.type)
                for reader in [None, *range(state.players)]:
                    if event.is_visible_to(reader):
                        line = words(event, reader, None)
                        assert not line.startswith(f"{event.type}: "), line
                        assert "{" not in line, line
    assert len(seen) >= 5


def localized_describe(game: str):  # type: ignore[no-untyped-def]
    with use_language("de"):
        found = localized(thievery.plugin(game).package, "describe")
    assert found is not None
    return found


def test_the_german_card_words_leave_the_card_set_cached() -> None:
    """The compiled card set (with its German words) is read once: the same object, whose
    interned actions the engine knows by identity (a lost cache cost 6 ms a game)."""
    from thievery.games.thieves_den.cards import DEFAULT_PATH, load_card_set

    assert load_card_set() is load_card_set() is load_card_set(str(DEFAULT_PATH))
    assert load_card_set().catalogue["de"]["name"] == "Inoffizieller Thievery-Kartensatz"


# A German line about scores or who won; a default seat name in it ("Platz 2") without
# "Sitz" before it would read like a rank ("Platz 2 gewinnt": 2nd place wins?).
RESULT_TYPES = {"game_over", "match_over", "final"}
RANK_LIKE = re.compile(r"(?<!Sitz)Platz \d")


def finished_game(game: str, seed: int = 3):  # type: ignore[no-untyped-def]
    """A random game of ``game`` played to its end, and its events."""
    spec = thievery.game(game)
    state = spec.new(spec.min_players + 1, seed, {"games": 1} if game == "schattendieb" else {})
    rng = Rng(seed)
    events = []
    while state.to_act:
        seat = rng.choice(state.to_act)
        events += state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state, events


@pytest.mark.parametrize("game", ["schattendieb", "thieves", "thieves-den", "schatz-rabatz"])
def test_german_result_lines_name_default_seats_as_seats_not_ranks(game: str) -> None:
    """The terminal's German event lines and its board's last line about the result: a seat
    without a given name is "Sitzplatz 2" there ("Sieger: Platz 2" read as a ranking);
    "du" stays "du", names someone gave stay as given, English stays "Seat 2"."""
    words = localized_describe(game)
    state, events = finished_game(game)
    ends = [e for e in events if e.type in RESULT_TYPES]
    assert {"game_over"} <= {e.type for e in ends}
    with use_language("de"):
        names = seat_labels(state.players, None)
        lines = [words(e, None, names) for e in ends]
        board = Console(width=200, record=True, color_system=None)
        board.print(renderer(game).table(state.view(None)))
    for line in lines:
        assert "Sitzplatz " in line and not RANK_LIKE.search(line), line
    over = [line for line in board.export_text().splitlines() if "Sieger:" in line]
    assert over and all("Sitzplatz " in x and not RANK_LIKE.search(x) for x in over), over
    winner = state.result()["winners"][0]
    mine = words(ends[-1], winner, names)
    assert "du" in mine.split("Sieger: ")[-1], mine
    given = [words(e, None, ["Ann", "Bo", "Cy", "Di"][: state.players]) for e in ends]
    assert not any("Platz" in line for line in given), given
    with use_language("en"):
        english = Console(width=200, record=True, color_system=None)
        english.print(renderer(game).table(state.view(None)))
    assert "Sitzplatz" not in english.export_text() and result_name("Seat 2") == "Seat 2"
