"""The rules pages in German: every built-in game ships ``RULES.de.md``, a translation of
its ``RULES.md`` with the same structure (headings, list items, bold marks); what players
read of it (the web's "How to play" leaves out a section for programs) is plain German:
no code (view keys, JSON, option names: those are told in words, options by the lobby's
names for them) and the rulebook's English quotes translated, while a section for
programs keeps the English page's code. ``plugin.rules_text("de")``, ``thievery rules
GAME --lang de`` and ``GET /api/games/<g>/rules?lang=de`` serve it."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import thievery
from thievery.cli import app
from thievery.server import create_app

GAMES = ["schattendieb", "thieves", "thieves-den", "schatz-rabatz"]
runner = CliRunner()


# A section for programs (the web's help.js forPlayers leaves it out), up to the next
# heading of its level or higher.
FOR_PROGRAMS = re.compile(r"(?ms)^## (?:For programs|Für Programme)\n.*?(?=^#{1,2} |\Z)")
# Common English words that are no German words: a quote left untranslated.
ENGLISH = re.compile(r"\b(?:the|you|your|and|of|is|with|that|this|card|player|take)\b", re.I)


def shape(page: str) -> dict[str, object]:
    """What a faithful translation keeps: the headings by level, the list items, the bold
    marks, and every piece of code in a section for programs (whitespace aside)."""
    return {
        "headings": re.findall(r"(?m)^#+(?= )", page),
        "items": len(re.findall(r"(?m)^\s*(?:-|\d+\.)\s", page)),
        "bold": page.count("**"),
        "code": sorted(code(" ".join(FOR_PROGRAMS.findall(page)))),
    }


def code(text: str) -> list[str]:
    return [" ".join(c.split()) for c in re.findall(r"`[^`]+`", text)]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_german_rules_page_of_the_same_shape(game: str) -> None:
    plugin = thievery.plugin(game)
    english, german = plugin.rules_text("en"), plugin.rules_text("de")
    assert english is not None and german is not None
    assert german != english
    assert german.startswith(f"# {thievery.game(game).title}: Regelentscheidungen\n")
    assert shape(german) == shape(english)
    assert "Maßgeblich ist die Spielregel" in german
    assert plugin.rules_text("fr") == english  # no French: the page itself


@pytest.mark.parametrize("game", GAMES)
def test_what_players_read_of_a_german_page_is_plain_german(game: str) -> None:
    """No developer words (view keys in backticks, JSON, "null") and no English quotes from
    the rulebook (in "…"; a German quote is „…“) where players read the page."""
    english, german = (thievery.plugin(game).rules_text(lang) or "" for lang in ("en", "de"))
    players = FOR_PROGRAMS.sub("", german)
    assert code(players) == [] and '"' not in players
    assert not re.search(r"\b(?:null|JSON|Engine|Ansicht\w*|Kennung\w*)\b", players)
    assert not ENGLISH.findall(players), ENGLISH.findall(players)
    assert ENGLISH.search(english)  # (the check finds English where there is some)
    if game == "thieves-den":  # its rulings quote the rulebook, now in German
        assert players.count("*„") == english.count('*"') >= 20


# Each page's decisions that an option or a view key stated, now in words.
DECISIONS = {
    "schattendieb": [
        "(Option „Wenn alle schließen“: „sobald alle\n  eine zeigen“; die andere Wahl ist „nur "
        "wenn jedes Schließen gelänge“)",
        "also wird der erste Platz zuerst bedient",
    ],
    "thieves": [
        "(Option „Gleichstand bei einer Razzia“: „alle werden geschnappt“; die andere Wahl ist\n"
        "  „niemand wird geschnappt“)",
        "wie viele seiner Handkarten bekanntermaßen keine Polizei sind",
        "das Verzichten wird immer angeboten",
    ],
    "schatz-rabatz": ["(Option „Handtempo (ms)“, Standard 800 Millisekunden; 0\n  schaltet es ab)"],
    "thieves-den": ["*„Mach eine Aktion ‚Bei einem Ort stehlen‘.“*"],
}


@pytest.mark.parametrize("game", GAMES)
def test_the_german_pages_keep_their_decisions_in_words(game: str) -> None:
    german = thievery.plugin(game).rules_text("de") or ""
    assert all(decision in german for decision in DECISIONS[game]), DECISIONS[game]


def test_the_german_pages_use_the_german_component_names() -> None:
    def page(game: str) -> str:
        return thievery.plugin(game).rules_text("de") or ""

    assert all(w in page("schattendieb") for w in ("Schmuck", "Brosche", "„Tresor zu“"))
    assert all(w in page("schatz-rabatz") for w in ("Schatzkiste", "Kelch", "Sanduhr"))
    assert all(w in page("thieves") for w in ("Razzia", "Straßensperre", "Diamantring"))
    assert all(w in page("thieves-den") for w in ("Hehler", "Machtplättchen", "Insidercoup"))


@pytest.mark.parametrize("game", GAMES)
def test_thievery_rules_lang_de_prints_the_german_page(game: str) -> None:
    result = runner.invoke(app, ["rules", game, "--raw", "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert result.output == thievery.plugin(game).rules_text("de")
    english = runner.invoke(app, ["rules", game, "--raw", "--lang", "en"], env={"LANG": "de_DE"})
    assert english.output == thievery.plugin(game).rules_text("en")


def test_thievery_rules_takes_the_language_from_the_environment() -> None:
    result = runner.invoke(app, ["rules", "thieves"], env={"LANG": "de_DE.UTF-8", "LC_ALL": ""})
    assert result.exit_code == 0 and "Regelentscheidungen" in result.output
    refused = runner.invoke(app, ["rules", "thieves", "--lang", "xx"])
    assert refused.exit_code == 2 and "unknown language" in refused.output


def test_the_api_serves_the_german_page(tmp_path: object) -> None:
    client = TestClient(create_app(f"sqlite:///{tmp_path}/t.db"))
    with client:
        for game in GAMES:
            german = client.get(f"/api/games/{game}/rules", params={"lang": "de"})
            assert german.status_code == 200
            assert german.text == thievery.plugin(game).rules_text("de")
            english = client.get(f"/api/games/{game}/rules")
            assert english.text == thievery.plugin(game).rules_text("en")
