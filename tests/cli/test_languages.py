"""The terminal in German and English: seeded games of every game played to the end in
both languages, every screen, menu, prompt, legend and log line kept, and nothing left
untranslated: every text a renderer asked for in German has a German entry, no English
word of the English screens is left on the German ones (unless a German text uses it:
"Ring", "Alarm", "Prestige"), and the English screens hold no German word."""

from __future__ import annotations

import ast
import io
import random
import re
from functools import cache
from pathlib import Path

import pytest
from rich.console import Console, RenderableType
from typer.testing import CliRunner

import thievery
from thievery.bots import make_bot
from thievery.cli import app
from thievery.cli.play import Session
from thievery.core import Rng
from thievery.core.i18n import Lookups, recording_lookups, use_language
from thievery.games.schatz_rabatz.live import LiveGame
from thievery.games.thieves_den.cards import load_card_set

GAMES = ["schattendieb", "thieves", "thieves-den", "schatz-rabatz"]
SRC = Path(thievery.__file__).parent
CHOICE = re.compile(r"(\d+)-(\d+) \(\?")
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{3,}")
FALLBACK = re.compile(r"^[a-z_]+: \{")  # describe's words for an event it does not know
runner = CliRunner()
PLAYER_NAMES = {"ann"}  # the live screens' seat names, as words() reads them


def words(text: str) -> set[str]:
    """The words of a text (three letters or more, so not the symbols' letters)."""
    return {w.casefold() for w in WORD.findall(text)}


def literal_words(files: list[Path], shown_only: bool = False) -> set[str]:
    """The words of every string written in ``files`` (their source). ``shown_only``
    leaves out the strings a translation only looks things up by: dict keys (the English
    texts), regexes paired with their words, compared and subscripted names, docstrings."""
    out: set[str] = set()
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip: set[int] = set()
        for node in ast.walk(tree) if shown_only else ():
            if isinstance(node, ast.Dict):
                skip |= {id(k) for k in node.keys if k is not None}
            elif isinstance(node, ast.Compare):
                skip |= {id(n) for n in [node.left, *node.comparators]}
            elif isinstance(node, ast.Subscript):
                skip.add(id(node.slice))
            elif isinstance(node, ast.Expr):
                skip.add(id(node.value))
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "get":
                skip |= {id(a) for a in node.args}
            elif isinstance(node, ast.Tuple) and len(node.elts) == 2:
                skip.add(id(node.elts[0]))  # (English regex, its words)
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and id(node) not in skip:
                out |= words(text)
    return out


@cache
def german_vocabulary() -> set[str]:
    """Every word our German texts use: the translations and the German card names."""
    german = load_card_set().catalogue["de"]
    kinds = ("locations", "fences", "powers")
    names = [german["name"], *(x["name"] for kind in kinds for x in german[kind].values())]
    translations = sorted(SRC.glob("**/lang_de.py"))
    titles = [thievery.game(g).title for g in GAMES]  # names, in every language
    return literal_words(translations, shown_only=True) | words(" ".join(names + titles))


@cache
def english_vocabulary() -> set[str]:
    """Every word the English sources write, and the card set's English words."""
    sources = [p for p in sorted(SRC.glob("**/*.py")) if not p.name.startswith("lang_")]
    data = (SRC / "games/thieves_den/data/unofficial.toml").read_text(encoding="utf-8")
    english = [line for line in data.splitlines() if not line.startswith(("name_de", "text_de"))]
    return literal_words(sources) | words("\n".join(english))


def hot_seat_screens(game: str, players: int, seed: int) -> list[str]:
    """Every screen of a hot-seat game played to the end with random answers (and the
    legend asked for once), as printed; each turn's screen fits 100×40 in either
    language."""
    console = Console(file=io.StringIO(), width=100, height=40, color_system=None)
    out = console.file
    assert isinstance(out, io.StringIO)
    rng = random.Random(seed)
    screens: list[str] = []
    asked_legend = [False]

    def fake_input(prompt: str = "", **_: object) -> str:
        console.print(prompt, end="")
        screens.append(out.getvalue())
        out.seek(0)
        out.truncate()
        found = CHOICE.search(prompt)
        if found is None:  # the hot-seat handover: press Enter
            return ""
        if not asked_legend[0]:
            asked_legend[0] = True
            return "?"
        return str(rng.randint(max(int(found[1]), 1), int(found[2])))

    console.input = fake_input  # type: ignore[method-assign,assignment]
    spec = thievery.game(game)
    options = {"games": 1} if game == "schattendieb" else {}
    session = Session(console, spec, spec.new(players, seed, options), {}, humans=players)
    session.run()
    for screen in screens:
        assert screen.count("\n") + 1 <= 40, f"a screen longer than 40 lines:\n{screen}"
        assert max(len(line) for line in screen.splitlines()) <= 100
    screens.append(out.getvalue())  # the final standings
    assert session.state.result() is not None
    return screens


def text(frame: RenderableType, width: int = 100, height: int = 40) -> str:
    # (in colour, as a terminal draws it: without, Schatz-Rabatz's treasures get colour
    # letters, "KrHb", which are no words; tests/games/schatz_rabatz/test_terminal.py)
    console = Console(
        width=width, height=height, record=True, color_system="standard", file=io.StringIO()
    )
    console.print(frame)
    return console.export_text()


def live_screens(seed: int) -> list[str]:
    """Schatz-Rabatz live: seat 0 picks, turns, moves and drops (or closes) by keys on
    a fake clock against bots until the match is over; every frame, the legend too."""
    spec = thievery.game("schatz-rabatz")
    state = spec.new(3, seed, {"hourglass_seconds": 6, "short_game": True})
    bots = {s: make_bot("packer-expert", spec.name, s, seed) for s in (1, 2)}
    names = ["Ann", "Bo", "Cy"]  # (PLAYER_NAMES)
    game = LiveGame(state, 0, bots, Rng(seed), names=names)  # type: ignore[arg-type]
    rng = random.Random(seed)
    frames: list[str] = []
    now = 0
    game.key("?")
    frames += [text(game.render()), text(game.render(), 80, 24)]
    game.key("?")
    while not state.is_over:
        now += 250
        game.tick(now)
        key = rng.choice(["down", "r", "right", "left", "enter", "enter", "y"])
        game.key("c" if now % 5000 == 0 else key)
        # (the full frame, and the compact one a small terminal gets)
        frames += [text(game.render()), text(game.render(), 80, 24)]
    frames += [text(game.render()), text(game.render(), 80, 24)]
    return frames


def screens_of(game: str, lang: str) -> tuple[list[str], Lookups]:
    """Every screen of seeded games of ``game`` in ``lang`` (at the fewest and the most
    players), and what the renderers looked up."""
    spec = thievery.game(game)
    with use_language(lang), recording_lookups() as found:
        if game == "schatz-rabatz":
            shown = live_screens(3) + live_screens(4)
        else:
            shown = []
            for players in (spec.min_players, spec.max_players):
                shown += hot_seat_screens(game, players, seed=players)
    return shown, found


@pytest.mark.parametrize("game", GAMES)
def test_no_string_is_left_untranslated_in_either_language(game: str) -> None:
    english, _ = screens_of(game, "en")
    german, found = screens_of(game, "de")
    assert found.asked, "the renderers asked for no words at all"
    assert not found.missing, f"no German for: {sorted(found.missing)}"
    de_words = set().union(*(words(s) for s in german))
    en_words = set().union(*(words(s) for s in english))
    # An English word on the German screens that no German text uses: left untranslated.
    # (less the players' names, "Ann": a screen names the seats by them in either language)
    left_english = (de_words & en_words) - german_vocabulary() - PLAYER_NAMES
    assert not left_english, f"English on the German screens: {sorted(left_english)}"
    # A word only German texts use, on the English screens: German leaked into English.
    leaked = en_words & (german_vocabulary() - english_vocabulary())
    assert not leaked, f"German on the English screens: {sorted(leaked)}"
    fallbacks = [line for s in german for line in s.splitlines() if FALLBACK.search(line.strip())]
    assert not fallbacks, f"events without German words: {fallbacks[:3]}"
    assert any("Was geschah" in s for s in german) and any("What happened" in s for s in english)


def test_the_marker_words_work_both_ways() -> None:
    """The check above sees a word left in English (and German in English screens)."""
    assert "empty" in english_vocabulary() and "empty" not in german_vocabulary()
    assert "geschah" in german_vocabulary() - english_vocabulary()
    assert "leer" in german_vocabulary()


def test_play_speaks_german_with_lang_de_or_a_german_environment(tmp_path: Path) -> None:
    args = ["play", "schattendieb", "--humans", "0", "--seed", "3", "-o", "games=1"]
    german = runner.invoke(app, [*args, "--lang", "de"])
    assert german.exit_code == 0, german.output
    assert "Was geschah" in german.output and "Endstand" in german.output
    assert "Sieger: Sitzplatz " in german.output  # (a seat, not "Sieger: Platz 2", a rank)
    assert "Tresor" in german.output and "What happened" not in german.output
    from_env = runner.invoke(app, args, env={"LANG": "de_DE.UTF-8", "LC_ALL": ""})
    assert "Was geschah" in from_env.output
    english = runner.invoke(app, args, env={"LANG": "de_DE.UTF-8", "LC_ALL": "en_GB.UTF-8"})
    assert "What happened" in english.output and "Was geschah" not in english.output
    forced = runner.invoke(app, [*args, "--lang", "en"], env={"LANG": "de_DE.UTF-8"})
    assert "Final standings" in forced.output


def test_an_unknown_language_is_refused_clearly() -> None:
    result = runner.invoke(app, ["play", "thieves", "--lang", "fr"])
    assert result.exit_code == 2
    assert "unknown language 'fr'" in result.output and "en, de" in result.output


@pytest.mark.parametrize(
    ("args", "kind", "words"),
    [
        (["play", "thieves", "--bot", "foo"], "Nicht erlaubt", "there is no bot 'foo'"),
        (["play", "thieves", "-o", "raid_ties=x"], "Nicht erlaubt", "option 'raid_ties'"),
        (["play", "nosuch"], "Dieses Spiel gibt es nicht", "there is no game 'nosuch'"),
        (["replay", "RECORD"], "Keine Spielaufzeichnung, die sich nachspielen lässt", "record"),
    ],
)
def test_the_engines_refusals_are_told_in_german_with_its_words_after(
    args: list[str], kind: str, words: str, tmp_path: Path
) -> None:
    """The engine words its refusals in English: with --lang de the terminal said
    "Fehler: there is no bot 'foo'…". Its kind comes first in German now."""
    record = tmp_path / "game.json"
    record.write_text('{"game": "thieves", "players": 2}')
    args = [str(record) if a == "RECORD" else a for a in args]
    german = runner.invoke(app, [*args, "--lang", "de"])
    assert german.exit_code == 2
    assert german.output.startswith(f"Fehler: {kind} (") and words in german.output
    english = runner.invoke(app, [*args, "--lang", "en"])
    assert english.exit_code == 2
    assert english.output.startswith(f"error: {words}") or words in english.output
    assert kind not in english.output


def test_replay_speaks_german(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", "thieves", "--humans", "0", "--seed", "2", "--save", str(record)]
    assert runner.invoke(app, args).exit_code == 0
    result = runner.invoke(app, ["replay", str(record), "--seat", "2", "--no-step", "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert "Zug 2: Du bist dran" in result.output and "Ergebnis:" in result.output
    # The record's default names, as the German page shows them: from 1, bots by level.
    assert "Platz 1 (Amateur) hat" in result.output
    assert "Seat 0" not in result.output and "(heuristic)" not in result.output
    # In the result a seat is a seat, not a rank ("Platz 1 … gewonnen: Platz 3").
    ended = result.output[result.output.index("Ergebnis:") :]
    assert "Sitzplatz 1 (Amateur)" in ended and not re.search(r"(?<!Sitz)Platz \d", ended), ended


def test_games_lists_in_german() -> None:
    result = runner.invoke(app, ["games", "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert "Thievery-Spiele" in result.output and "Spieler" in result.output
    assert "Thievery games" in runner.invoke(app, ["games", "--lang", "en"]).output
