"""The `thievery` command: play (bots, hot-seat, bad input), simulate, replay, games."""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

import thievery
from tests.games.thieves_den.helpers import CUSTOM_SET, write_custom_set
from thievery.cli import app
from thievery.core.record import GameRecord
from thievery.games.thieves_den.cards import inline_card_set
from thievery.sim.runner import play_game

runner = CliRunner()


def test_play_a_full_match_against_bots_and_save_it(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    answers = "\n".join(["x", "0", "99", ""] + ["1"] * 400) + "\n"
    result = runner.invoke(
        app,
        [
            "play",
            "schattendieb",
            "--players",
            "4",
            "--humans",
            "1",
            "--seed",
            "7",
            "--save",
            str(record),
        ],
        input=answers,
    )
    assert result.exit_code == 0, result.output
    assert "Please type a number from 1 to 4" in result.output  # bad input answered
    assert "Your hand" in result.output and "Final standings" in result.output
    data = json.loads(record.read_text())
    assert data["game"] == "schattendieb" and data["result"]["winners"]
    assert {a["seat"] for a in data["actions"]} == {0, 1, 2, 3}


def test_q_at_a_hot_seat_handover_quits_without_showing_the_next_hand() -> None:
    """Typed at "Pass the terminal", q leaves the game (as everywhere else); it never
    shows the next seat its hand. Anything but Enter or q is asked again."""
    answers = "\n".join(["", "1", "later", "q"]) + "\n"
    result = runner.invoke(
        app,
        ["play", "schattendieb", "--players", "3", "--humans", "2", "--seed", "2"],
        input=answers,
    )
    assert result.exit_code == 0, result.output
    handed = result.output.split("Pass the terminal to Seat 2", 1)
    assert len(handed) == 2 and "Press Enter to go on, or q to quit." in handed[1]
    assert "Seat 2 — your turn" not in handed[1] and "Your hand" not in handed[1]
    assert "Left the game" in handed[1]


def test_hot_seat_hides_the_hand_while_passing(tmp_path: Path) -> None:
    answers = "\n".join(["", "1"] * 6 + ["q"]) + "\n"
    result = runner.invoke(
        app,
        ["play", "schattendieb", "--players", "3", "--humans", "2", "--seed", "2"],
        input=answers,
    )
    assert result.exit_code == 0, result.output
    # Seats count from 1 on the screen, as on the web: the two humans are seats 1 and 2.
    # (as every other line names the seat: "Seat 1", counted from 1)
    assert "Pass the terminal to Seat 1" in result.output
    assert "Pass the terminal to Seat 2" in result.output
    assert "Pass the terminal to Seat 0" not in result.output
    assert "Seat 1 — your turn" in result.output and "Seat 2, choose 1-" in result.output
    assert "Left the game" in result.output


@pytest.mark.parametrize(
    ("game", "args"),
    [
        ("schattendieb", ["-p", "3", "-o", "games=1"]),
        ("thieves", ["-p", "3"]),
        ("thieves-den", ["-p", "2"]),
    ],
)
def test_bots_only_the_screens_name_seats_as_the_web_does(game: str, args: list[str]) -> None:
    # The web's words: seats counted from 1, bots by level ("Seat 1 (Casual)"), never the
    # index or the engine's name ("Seat 0 (heuristic)"), in English and in German.
    english = runner.invoke(app, ["play", game, "--humans", "0", "--seed", "3", *args])
    assert english.exit_code == 0, english.output
    assert "Seat 1 (Casual)" in english.output and "Seat 2 (Casual)" in english.output
    assert "Seat 0" not in english.output and "(heuristic)" not in english.output
    german = runner.invoke(
        app, ["play", game, "--humans", "0", "--seed", "3", *args, "--lang", "de"]
    )
    assert german.exit_code == 0, german.output
    # (the result's lines call a seat "Sitzplatz 2": "Platz 2" there reads like a rank)
    for n in (1, 2):
        assert re.search(rf"(Platz|Sitzplatz) {n} \(Amateur\)", german.output), n
    assert "Platz 0" not in german.output and "(heuristic)" not in german.output


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("en", ["Seat 1", "Seat 2 (Adult-pace packer)", "Seat 3 (Beginner)"]),
        ("de", ["Platz 1", "Platz 2 (Packer im Erwachsenentempo)", "Platz 3 (Anfänger)"]),
    ],
)
def test_the_live_screen_names_seats_as_the_web_does(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, lang: str, names: list[str]
) -> None:
    # Schatz-Rabatz is played on the live screen (it needs a terminal): what it is given.
    given: list[list[str]] = []

    def play_live(*args: object, names: list[str], **kwargs: object) -> None:
        given.append(list(names))

    monkeypatch.setattr("thievery.games.schatz_rabatz.live.play_live", play_live)
    monkeypatch.setattr("thievery.cli.play.stdin_is_terminal", lambda: True)
    record = tmp_path / "game.json"
    args = ["play", "schatz-rabatz", "-p", "3", "--bots", "packer-adult,random", "--lang", lang]
    result = runner.invoke(app, [*args, "--save", str(record)])
    assert result.exit_code == 0, result.output
    assert given == [names]
    # The record keeps a server table's default names (the web shows them as above).
    assert json.loads(record.read_text())["names"] == [
        "Seat 0",
        "Seat 1 (packer-adult)",
        "Seat 2 (random)",
    ]


def test_replay_takes_seats_counted_from_1_as_it_shows_them(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", "thieves", "-p", "3", "--humans", "0", "--seed", "5", "--save", str(record)]
    assert runner.invoke(app, args).exit_code == 0
    for refused in ("0", "4"):
        result = runner.invoke(app, ["replay", str(record), "--seat", refused, "--no-step"])
        assert result.exit_code == 2 and "--seat must be between 1 and 3" in result.output
    last = runner.invoke(app, ["replay", str(record), "--seat", "3", "--no-step"])
    assert last.exit_code == 0, last.output
    assert "│ 3 (you)" in last.output  # the table's row of the third seat, the last
    for command in ("replay", "play"):  # --seat and --humans say how seats are counted
        shown = re.sub(r"[\s│]+", " ", runner.invoke(app, [command, "--help"]).output)
        assert "counted from 1 as the screens count them" in shown, shown


def test_play_refuses_bad_setups() -> None:
    result = runner.invoke(app, ["play", "schattendieb", "--players", "2"])
    assert result.exit_code == 2 and "needs 3 to 7 players" in result.output
    for players in ("0", "-3"):  # (was: "--humans must be between 0 and -3")
        result = runner.invoke(app, ["play", "schattendieb", "--players", players])
        assert result.exit_code == 2 and f"needs 3 to 7 players, not {players}" in result.output
    result = runner.invoke(app, ["simulate", "thieves", "--workers", "0"])
    assert result.exit_code == 2 and "--workers" in result.output
    result = runner.invoke(app, ["play", "nope"])
    assert result.exit_code == 2 and "no game 'nope'" in result.output
    result = runner.invoke(app, ["play", "schattendieb", "--bot", "genius"])
    assert result.exit_code == 2 and "no bot 'genius'" in result.output


def test_simulate_prints_win_rates_with_intervals(tmp_path: Path) -> None:
    out = tmp_path / "sim.json"
    result = runner.invoke(
        app,
        [
            "simulate",
            "schattendieb",
            "--games",
            "40",
            "--bots",
            "heuristic,random,random,random",
            "--seed",
            "1",
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "95% CI" in result.output and "heuristic" in result.output
    summary = json.loads(out.read_text())
    rows = {r["bot"]: r for r in summary["standings"]}
    assert rows["heuristic"]["games"] == 40 and rows["random"]["games"] == 120
    assert abs(sum(r["wins"] for r in rows.values()) - 40) < 1e-9


def test_simulate_with_workers_gives_the_same_numbers(tmp_path: Path) -> None:
    args = ["simulate", "schattendieb", "--games", "12", "--bots", "heuristic,random,random"]
    one, two = tmp_path / "1.json", tmp_path / "2.json"
    assert runner.invoke(app, [*args, "--json", str(one)]).exit_code == 0
    assert runner.invoke(app, [*args, "--workers", "2", "--json", str(two)]).exit_code == 0
    assert json.loads(one.read_text()) == json.loads(two.read_text())


def test_replay_steps_through_a_saved_game(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    runner.invoke(
        app,
        [
            "play",
            "schattendieb",
            "--humans",
            "0",
            "--seed",
            "3",
            "-o",
            "games=1",
            "--save",
            str(record),
        ],
    )
    result = runner.invoke(app, ["replay", str(record), "--seat", "2", "--no-step"])
    assert result.exit_code == 0, result.output
    assert "Revealed" in result.output and "Result:" in result.output
    assert "You drew" in result.output  # Seat 2's own private events
    assert "│ 2 (you)" in result.output  # the table's row of Seat 2, the second
    spectator = runner.invoke(app, ["replay", str(record), "--no-step"])
    assert "You drew" not in spectator.output and "Cards drawn" in spectator.output


def test_replay_describes_each_action_as_it_was_taken(tmp_path: Path) -> None:
    """(A replay described an action in the state after it, as the watcher sees it: a
    Thieves! money card kept face down read "Give Money 3 face up to seat 3".)"""
    record = tmp_path / "thieves.json"
    played = runner.invoke(
        app, ["play", "thieves", "--humans", "0", "--seed", "1", "--save", str(record)]
    )
    assert played.exit_code == 0, played.output
    result = runner.invoke(app, ["replay", str(record), "--everything", "--no-step"])
    assert result.exit_code == 0, result.output
    gives = re.findall(
        r"^Seat (\d+)[^:\n]*: Give .* face up to Seat (\d+)(?: \([^)]*\))?$", result.output, re.M
    )
    kept = re.findall(r"^Seat \d+[^:\n]*: Keep Money \d+ face down$", result.output, re.M)
    assert gives and kept
    assert [(actor, to) for actor, to in gives if actor == to] == []


def test_play_and_replay_logs_name_the_seats(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", "schattendieb", "-p", "3", "--bots", "heuristic,random", "--seed", "3"]
    played = runner.invoke(app, [*args, "--save", str(record)], input="1\nq\n")
    assert played.exit_code == 0, played.output
    # The screen names seats as the web does: counted from 1, bots by level.
    assert "You chose a card" in played.output  # the human's own seat
    assert "Seat 2 (Casual) chose a card" in played.output
    assert "Seat 3 (Beginner) chose a card" in played.output
    assert "Seat 0" not in played.output and "(heuristic)" not in played.output
    # The record keeps the names a server table gives (by index and engine): the web's
    # replay and this one show them as above.
    names = ["Seat 0", "Seat 1 (heuristic)", "Seat 2 (random)"]
    assert json.loads(record.read_text())["names"] == names
    replayed = runner.invoke(app, ["replay", str(record), "--seat", "3", "--no-step"])
    assert replayed.exit_code == 0, replayed.output
    assert "Seat 1 chose a card" in replayed.output
    assert "Seat 2 (Casual) chose a card" in replayed.output
    assert (
        "You chose a card" in replayed.output and "Seat 3 (Beginner) chose" not in replayed.output
    )
    # A record without names (an older one) reads "Seat N", counted from 1 too; a name is
    # never markup.
    data = json.loads(record.read_text())
    record.write_text(json.dumps({**data, "names": None}))
    unnamed = runner.invoke(app, ["replay", str(record), "--no-step"])
    assert "Seat 2 chose a card" in unnamed.output and "(heuristic)" not in unnamed.output
    assert "Seat 0" not in unnamed.output
    record.write_text(json.dumps({**data, "names": ["[/b]Ann", "[bold]Bo", "Cy"]}))
    marked = runner.invoke(app, ["replay", str(record), "--no-step"])
    assert marked.exit_code == 0, marked.output
    assert "[/b]Ann chose a card" in marked.output and "[bold]Bo chose" in marked.output


def test_a_saved_record_holds_its_card_set_and_replays_without_the_file(tmp_path: Path) -> None:
    cards = write_custom_set(tmp_path)
    record = tmp_path / "game.json"
    played = runner.invoke(
        app,
        [
            "play",
            "thieves-den",
            "--players",
            "3",
            "--humans",
            "0",
            "--seed",
            "5",
            "--cards",
            str(cards),
            "--save",
            str(record),
        ],
    )
    assert played.exit_code == 0, played.output
    data = json.loads(record.read_text())
    assert data["options"]["cards"] == inline_card_set(cards) and data["result"]["winners"]
    assert str(tmp_path) not in record.read_text()
    # An older record names its card file by path: it still replays on this machine.
    old = tmp_path / "old.json"
    old.write_text(json.dumps({**data, "options": {**data["options"], "cards": str(cards)}}))
    replayed_old = runner.invoke(app, ["replay", str(old), "--no-step"])
    assert replayed_old.exit_code == 0, replayed_old.output
    assert CUSTOM_SET in replayed_old.output and "Result:" in replayed_old.output
    cards.unlink()
    missing = runner.invoke(app, ["replay", str(old), "--no-step"])
    assert missing.exit_code == 2 and "cannot read the card file" in missing.output
    replayed = runner.invoke(app, ["replay", str(record), "--no-step"])
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output == replayed_old.output


def test_replay_refuses_a_broken_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2 and "not JSON" in result.output
    bad.write_text(
        json.dumps(
            {
                "game": "schattendieb",
                "version": 1,
                "players": 3,
                "seed": 1,
                "actions": [{"seat": 0, "action": {"type": "steal", "card": "ring-1a"}}],
            }
        )
    )
    result = runner.invoke(app, ["replay", str(bad), "--no-step"])
    assert result.exit_code == 2 and "action 0" in result.output


def test_replay_prints_the_result_its_actions_give_and_refuses_a_changed_one(
    tmp_path: Path,
) -> None:
    record = tmp_path / "game.json"
    args = ["play", "thieves", "-p", "3", "--humans", "0", "--seed", "5", "--save", str(record)]
    assert runner.invoke(app, args).exit_code == 0
    data = json.loads(record.read_text())
    replayed = runner.invoke(app, ["replay", str(record), "--no-step"])
    assert replayed.exit_code == 0, replayed.output
    scores = data["result"]["scores"]
    line = [x for x in replayed.output.splitlines() if x.startswith("Result:")][-1]
    assert line.startswith(f"Result: Seat 1 (Casual) {scores[0]}, ") and "won by" in line
    assert "{" not in line  # words, not a Python dict
    changed = {**data, "result": {"scores": [99, 0, 0], "winners": [0]}}
    record.write_text(json.dumps(changed))
    refused = runner.invoke(app, ["replay", str(record), "--no-step"])
    assert refused.exit_code == 2 and "the record says the result was" in refused.output.lower()
    cut = {**data, "actions": data["actions"][:-3]}  # the end cut off, its result kept
    record.write_text(json.dumps(cut))
    refused = runner.invoke(app, ["replay", str(record), "--no-step"])
    assert refused.exit_code == 2 and "The game is not over" in refused.output
    unfinished = {**cut, "result": None}  # a game left before its end, as play saves it
    record.write_text(json.dumps(unfinished))
    left = runner.invoke(app, ["replay", str(record), "--no-step"])
    assert left.exit_code == 0 and "The game is not over" in left.output


def test_replay_refuses_a_file_that_is_not_text(tmp_path: Path) -> None:
    bad = tmp_path / "bytes.json"
    bad.write_bytes(bytes(range(256)))
    result = runner.invoke(app, ["replay", str(bad), "--no-step"])
    assert result.exit_code == 2 and "not UTF-8" in result.output
    assert "Traceback" not in result.output


def test_a_record_with_a_missing_field_is_refused_by_name(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "thieves", "version": 1, "players": 3}))
    result = runner.invoke(app, ["replay", str(bad), "--no-step"])
    assert result.exit_code == 2 and "'seed' is missing" in result.output


def test_play_refuses_a_save_file_it_could_not_write_before_the_game(tmp_path: Path) -> None:
    for save, words in [
        (tmp_path / "no-such-folder" / "x.json", "there is no folder"),
        (tmp_path, "is a folder"),
    ]:
        args = ["play", "thieves", "-p", "3", "--humans", "0", "--save", str(save)]
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and words in result.output, result.output
        assert "Final standings" not in result.output  # refused before the game, not after


def test_a_record_that_cannot_be_written_at_the_end_is_kept_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(The disk filled up during the game, say.) The game is not lost: it goes to a new
    file in the temporary folder, and the player is told where."""
    save = tmp_path / "game.json"
    real = GameRecord.save

    def full(record: GameRecord, path: str | Path) -> None:
        if Path(path) == save:
            raise OSError(28, "No space left on device")
        real(record, path)

    monkeypatch.setattr(GameRecord, "save", full)
    args = ["play", "thieves", "-p", "3", "--humans", "0", "--save", str(save)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "No space left on device" in result.output
    kept = Path(result.output.split("Game record saved to ")[1].split(" ")[0])
    try:
        assert kept != save and json.loads(kept.read_text())["result"]["winners"]
    finally:
        kept.unlink()


def test_games_lists_schattendieb() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0 and "schattendieb" in result.output


def test_simulate_writes_a_report_with_plots(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "simulate",
            "schattendieb",
            "--games",
            "9",
            "--bots",
            "heuristic,random,random",
            "--seed",
            "4",
            "--report",
            str(tmp_path / "rep"),
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "rep" / "summary.json").read_text())
    assert len(summary["by_seat"]) == 3 and len(summary["outcomes"]) == 9
    assert 0 <= summary["tie_rate"] <= 1
    assert sum(s["wins"] for s in summary["by_seat"]) == 9
    page = (tmp_path / "rep" / "index.html").read_text()
    assert page.count("data:image/png;base64,") == 4
    # Any game of the report replays from its seed and seating.
    from thievery.sim import play_game

    first = summary["outcomes"][0]
    again = play_game("schattendieb", first["seating"], first["seed"])
    assert list(again.scores) == first["scores"]


def test_simulate_on_a_local_ray_instance_matches_a_local_run(tmp_path: Path) -> None:
    args = [
        "simulate",
        "schattendieb",
        "--games",
        "6",
        "--bots",
        "heuristic,random,random",
        "--seed",
        "2",
    ]
    local, on_ray = tmp_path / "local.json", tmp_path / "ray.json"
    assert runner.invoke(app, [*args, "--json", str(local)]).exit_code == 0
    result = runner.invoke(app, [*args, "--ray", "local", "--json", str(on_ray)])
    assert result.exit_code == 0, result.output
    assert json.loads(local.read_text()) == json.loads(on_ray.read_text())


def test_ladder_writes_a_markdown_report(tmp_path: Path) -> None:
    out = tmp_path / "ladder.md"
    result = runner.invoke(
        app,
        [
            "ladder",
            "schattendieb",
            "--players",
            "3",
            "--games",
            "12",
            "--levels",
            "random,heuristic",
            "--workers",
            "1",
            "-o",
            "games=1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "| heuristic | random | 12 |" in text
    assert "thievery ladder schattendieb --players 3 --games 12" in text
    # The rules version and the components the games had (components.toml's digest).
    spec = thievery.game("schattendieb")
    digest = spec.component_digests()["components"]
    assert f"rules version {spec.version}, components {digest}." in text


def test_real_time_games_simulate_on_simulated_time() -> None:
    from thievery.sim import play_game

    outcome = play_game("schatz-rabatz", ["packer-instant", "packer-expert"], seed=3)
    assert outcome.winners and outcome.decisions > 0
    again = play_game("schatz-rabatz", ["packer-instant", "packer-expert"], seed=3)
    assert again == outcome


def test_real_time_game_refuses_hot_seat_and_a_non_terminal() -> None:
    result = runner.invoke(app, ["play", "schatz-rabatz", "--players", "3", "--humans", "2"])
    assert result.exit_code == 2 and "at most one human" in result.output
    result = runner.invoke(app, ["play", "schatz-rabatz", "--players", "3"], input="\n")
    assert result.exit_code == 2 and "needs a terminal" in result.output


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_live_game_without_a_terminal_is_refused_before_a_record_is_saved(
    tmp_path: Path, lang: str
) -> None:
    """`play schatz-rabatz --save FILE` from a pipe said "needs a terminal" after saving
    FILE, a record of no move; now it is refused first, and FILE is not written. Bots
    alone need no terminal: they play on simulated time to the end, and are saved."""
    record = tmp_path / "game.json"
    args = ["play", "schatz-rabatz", "-p", "2", "--seed", "1", "--lang", lang]
    result = runner.invoke(app, [*args, "--save", str(record)], input="1\n")
    assert result.exit_code == 2, result.output
    said = {
        "en": "Schatz-Rabatz is played live and needs a terminal to read your keys from: "
        "the input is not a terminal (bots alone play without one: --humans 0)",
        "de": "Schatz-Rabatz wird live gespielt und braucht ein Terminal, aus dem es deine "
        "Tasten liest: Die Eingabe ist kein Terminal (Bots allein spielen ohne: --humans 0)",
    }[lang]
    assert said in " ".join(result.output.split())
    assert not record.exists()
    result = runner.invoke(app, [*args, "--humans", "0", "--save", str(record)])
    assert result.exit_code == 0, result.output
    saved = json.loads(record.read_text())
    assert saved["actions"] and saved["result"]  # moves, to the end
    assert ("Winner: Seat" if lang == "en" else "Sieger") in result.output


@pytest.mark.parametrize(
    ("game", "players"), [("schattendieb", 3), ("thieves", 3), ("thieves-den", 2)]
)
def test_a_turn_based_game_plays_from_a_pipe(tmp_path: Path, game: str, players: int) -> None:
    """Without a terminal a turn-based game reads its answers from the input: the moves
    piped in are played and saved (the input's end leaves the game)."""
    record = tmp_path / "game.json"
    args = ["play", game, "-p", str(players), "--seed", "1", "--save", str(record)]
    result = runner.invoke(app, args, input="1\n1\n")
    assert result.exit_code == 0, result.output
    assert "Left the game." in result.output
    assert len(json.loads(record.read_text())["actions"]) >= 2


def test_verify_says_why_a_local_games_deal_cannot_be_checked(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", "thieves", "-p", "3", "--humans", "0", "--seed", "2", "--save", str(record)]
    assert runner.invoke(app, args).exit_code == 0
    result = runner.invoke(app, ["verify", str(record)])
    assert result.exit_code == 1 and "a game played with thievery play has none" in result.output
    assert "replay            " in result.output  # its actions were replayed all the same


def test_a_simulations_summaries_hold_what_replays_each_game(tmp_path: Path) -> None:
    """Seed, seating and the options (a card file's content inline): a game of the report
    played again gives its scores (the options were missing, so it gave another game)."""
    args = ["simulate", "thieves-den", "--games", "3", "--bots", "heuristic,random,random"]
    args += ["-o", "cards=" + str(write_custom_set(tmp_path))]
    args += ["--json", str(tmp_path / "s.json"), "--report", str(tmp_path / "report")]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "report" / "summary.json").read_text())
    header = json.loads((tmp_path / "s.json").read_text())
    assert summary["options"] == header["options"]
    assert header["options"]["cards"] == inline_card_set(tmp_path / "mine.toml")
    for game in summary["outcomes"]:
        again = play_game("thieves-den", game["seating"], game["seed"], header["options"])
        assert list(again.scores) == game["scores"]


def test_simulate_refuses_an_output_it_could_not_write_before_the_run(tmp_path: Path) -> None:
    for flag in ("--json", "--export"):
        args = ["simulate", "thieves", "--games", "3", "--bots", "heuristic,random,random"]
        result = runner.invoke(app, [*args, flag, str(tmp_path / "no-such" / "x")])
        assert result.exit_code == 2 and "there is no folder" in result.output
        assert "win rate" not in result.output  # refused before the games, not after


def test_simulate_and_ladder_refuse_outputs_and_inputs_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A --report that is a file, a missing pyarrow for --export, a ladder of one level,
    of 0 games or with an --out that is a folder: each was a traceback after the whole
    run (or an IndexError, a KeyError). Now a clear refusal before the first game."""
    from thievery.sim import runner as sim_runner

    def no_game(job: object, history: bool = False) -> object:
        raise AssertionError("a game was played before the refusal")

    monkeypatch.setattr(sim_runner, "run_job", no_game)
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    base = ["simulate", "thieves", "--games", "3", "--bots", "random,random,random"]
    cases = [
        ([*base, "--report", str(a_file)], "is a file, not a folder"),
        ([*base, "--report", str(a_file / "below")], "cannot be written"),
        (["ladder", "thieves", "-p", "3", "--levels", "random"], "at least two levels"),
        (["ladder", "thieves", "-p", "3", "--games", "0"], "at least 1 game a rung"),
        (["ladder", "thieves", "-p", "3", "--levels", "random,random"], "twice"),
        (["ladder", "thieves", "-p", "3", "--out", str(tmp_path)], "is a folder"),
    ]
    for args, words in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert words in result.output, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # (as if not installed)
    result = runner.invoke(app, [*base, "--export", str(tmp_path / "d.parquet")])
    assert result.exit_code == 2 and "thievery[rl]" in result.output, result.output
    assert not (tmp_path / "d.parquet").exists()


def test_the_final_standings_say_whose_each_score_is() -> None:
    result = runner.invoke(
        app, ["play", "thieves", "--players", "3", "--humans", "0", "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    assert re.search(
        r"Scores: Seat 1 \(\w+\) \d+, Seat 2 \(\w+\) \d+, Seat 3 \(\w+\) \d+", result.output
    )


def test_python_dash_m_thievery_is_the_command() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "thievery", "games"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "schattendieb" in done.stdout and "thieves-den" in done.stdout


def test_games_lists_each_default_as_an_option_takes_it_back() -> None:
    """ "short_game=False" and "first_player=None" were listed, and refused when typed."""
    import os

    listed = runner.invoke(app, ["games"], env={**os.environ, "COLUMNS": "250"})
    assert listed.exit_code == 0, listed.output
    shown = dict(re.findall(r"(short_game|first_player)=(\w+)", listed.output))
    assert shown == {"short_game": "false", "first_player": "null"}
    for name, value in shown.items():  # (typed back as listed: taken)
        game, bots = (
            ("schatz-rabatz", "random,random")
            if name == "short_game"
            else ("thieves", "random,random,random")
        )
        args = ["simulate", game, "--games", "1", "--bots", bots, "-o", f"{name}={value}"]
        played = runner.invoke(app, args)
        assert played.exit_code == 0, played.output


COMMANDS = ["games", "rules", "ladder", "play", "replay", "serve", "simulate", "verify"]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_flows_its_paragraphs_and_shows_no_markup(command: str) -> None:
    """A command's description is wrapped to the terminal, not broken where its source's
    lines end ("(with --duplicate, from i // seats); the" then "report lists ..." on the
    next line at 80 columns), and reST's ``code`` quotes are not shown as backquotes."""
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "80"}, terminal_width=80)
    assert result.exit_code == 0, result.output
    assert "`" not in result.output
    group = typer.main.get_group(app)
    words = " ".join((group.commands[command].help or "").split()).replace("`", "")
    shown = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
    # every sentence of the description is on screen, its words in order
    for sentence in filter(None, (s.strip() for s in words.split(". "))):
        assert sentence.rstrip(".") in shown, sentence


def test_the_command_list_flows_each_commands_first_paragraph() -> None:
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "80"}, terminal_width=80)
    lines = [" ".join(line.strip("│ ").split()) for line in result.output.splitlines()]
    # ("rules" had its first paragraph's second source line on a line of its own)
    assert not any(line.startswith("(in German with --lang de") for line in lines), lines


def test_a_simulations_report_gives_the_command_that_plays_it_again(tmp_path: Path) -> None:
    """The report and --json name the command (game, games, bots, seed, options, layout)
    and the rules version: that command, run again, gives the same summary."""
    import shlex

    from thievery.core.registry import game as get_game

    args = ["simulate", "schattendieb", "-n", "6", "--bots", "heuristic,random,random"]
    args += ["--seed", "3", "-o", "games=1", "--duplicate", "--workers", "2"]
    first = tmp_path / "first"
    result = runner.invoke(app, [*args, "--report", str(first), "--json", str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    summary = json.loads((first / "summary.json").read_text())
    header = json.loads((tmp_path / "s").read_text())
    assert summary["version"] == header["version"] == get_game("schattendieb").version
    command = summary["command"]
    assert command == header["command"] and command.startswith("thievery simulate ")
    assert "games=1" in command and "--duplicate" in command
    assert html.escape(command) in (first / "index.html").read_text()
    again = tmp_path / "again"
    result = runner.invoke(app, [*shlex.split(command)[1:], "--report", str(again)])
    assert result.exit_code == 0, result.output
    assert json.loads((again / "summary.json").read_text()) == summary


def test_the_ladders_command_reads_back_as_it_was_given(tmp_path: Path) -> None:
    """The command the ladder prints is quoted as a shell reads it: an option whose value
    holds a space (a card file in a folder "my cards") came out unquoted, so pasted it
    named another file and a stray argument."""
    import shlex

    folder = tmp_path / "my cards"
    folder.mkdir()
    option = "cards=" + str(write_custom_set(folder))
    args = ["ladder", "thieves-den", "--players", "2", "--games", "2", "--seed", "3"]
    args += ["--levels", "random,heuristic", "--workers", "1", "-o", option]
    result = runner.invoke(app, [*args, "--out", str(tmp_path / "ladder.md")])
    assert result.exit_code == 0, result.output
    lines = (tmp_path / "ladder.md").read_text().splitlines()
    command = next(line.strip() for line in lines if line.strip().startswith("thievery ladder"))
    words = shlex.split(command)
    assert words[:2] == ["thievery", "ladder"] and words[words.index("-o") + 1] == option
    assert [w for w in words if w.startswith("--")] == [
        "--players",
        "--games",
        "--seed",
        "--levels",
    ]
