"""`thievery play GAME`: a full game in the terminal against bots, or hot-seat.

Human seats come first (seats 0 to humans-1), bots fill the rest. With several humans the
terminal is passed round: the screen is cleared and the next hand stays hidden until its
player presses Enter. The log names the seats as a server table would by default: "Seat 1",
"Seat 2 (heuristic)"; each human reads their own seat as "you". A saved record keeps
these names.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import typer
from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from thievery.bots import Bot, make_bot
from thievery.bots.realtime import play_simulated
from thievery.cli.app import app
from thievery.cli.common import fail, load_game, parse_options
from thievery.cli.render import renderer
from thievery.core.errors import ThieveryError
from thievery.core.protocol import (
    ClockedState,
    Event,
    GameSpec,
    State,
    default_seat_name,
    seat_name,
)
from thievery.core.record import GameRecord
from thievery.core.registry import plugin
from thievery.core.rng import Rng

LOG_LINES = 14


class Quit(Exception):
    """The human asked to leave."""


@app.command()
def play(
    game: str = typer.Argument(..., help="the game, e.g. schattendieb"),
    players: int = typer.Option(4, "--players", "-p", help="number of seats"),
    humans: int = typer.Option(1, "--humans", help="human seats (hot-seat if more than 1)"),
    bot: str = typer.Option("heuristic", "--bot", help="bot for every other seat"),
    bots: str | None = typer.Option(None, help="comma-separated bot per non-human seat"),
    seed: int | None = typer.Option(None, help="seed (default: random)"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option NAME=VALUE"),
    cards: Path | None = typer.Option(
        None, "--cards", help="a card set file, for games with one (Thieves Den)"
    ),
    save: Path | None = typer.Option(None, help="save the game record to this file"),
) -> None:
    """Play a game in the terminal."""
    import secrets

    spec = load_game(game)
    if not 0 <= humans <= players:
        fail(f"--humans must be between 0 and {players}")
    names = bots.split(",") if bots else [bot] * (players - humans)
    if len(names) != players - humans:
        fail(f"--bots needs {players - humans} names, one per non-human seat")
    bot_of = {humans + i: n.strip() for i, n in enumerate(names)}
    seed = secrets.randbelow(2**31) if seed is None else seed
    try:
        # Files the options name (a card set) are read in now: the record then holds
        # their content and replays on any machine, whatever happens to the files.
        state = spec.new(
            players, seed, plugin(spec.name).inline_options(parse_options(option, cards))
        )
        seats: dict[int, Bot] = {s: make_bot(n, spec.name, s, seed) for s, n in bot_of.items()}
    except ThieveryError as e:
        fail(str(e))
    seat_names = [default_seat_name(s, bot_of.get(s)) for s in range(players)]
    console = Console()
    live = renderer(spec.name).live
    if isinstance(state, ClockedState) and live is None:  # real time, no live screen
        if humans:
            fail(
                f"{spec.title} is played in real time and has no live terminal screen: "
                "play it in the browser (thievery serve)"
            )
        play_simulated(state, seats, Rng(seed))  # bots only: on simulated time
    elif live is not None:  # a real-time game: one human at most, on the live screen
        if humans > 1:
            fail(f"{spec.title} is played live: at most one human per terminal")
        try:
            live(state, 0 if humans else None, seats, console, seed=seed, names=seat_names)
        except (EOFError, KeyboardInterrupt):
            console.print("\n[bold]Left the game.[/]")
        except ValueError as e:
            fail(str(e))
        finally:
            if save is not None:
                GameRecord.of(state, seat_names).save(save)
                console.print(f"Game record saved to {save}")
        return
    session = Session(console, spec, state, seats, humans, seat_names)
    try:
        session.run()
    except (Quit, EOFError, KeyboardInterrupt):
        console.print("\n[bold]Left the game.[/]")
    finally:
        if save is not None:
            GameRecord.of(state, seat_names).save(save)
            console.print(f"Game record saved to {save} (replay: thievery replay {save})")


class Session:
    """One terminal game: bots move at once, humans are asked through menus; the logs name
    seats by ``names``."""

    def __init__(
        self,
        console: Console,
        spec: GameSpec,
        state: State,
        bots: dict[int, Bot],
        humans: int,
        names: Sequence[str] | None = None,
    ) -> None:
        self.console, self.spec, self.state, self.bots = console, spec, state, bots
        self.humans = humans
        self.names = names
        self.logs: dict[int | None, list[str]] = {s: [] for s in [None, *range(state.players)]}
        self.render = renderer(spec.name)
        self.last_human: int | None = None

    def record(self, events: list[Event]) -> None:
        for seat, log in self.logs.items():
            log.extend(
                self.spec.describe(e, seat, self.names) for e in events if e.is_visible_to(seat)
            )
            del log[:-LOG_LINES]

    def run(self) -> None:
        state = self.state
        while state.to_act:
            bot_seats = [s for s in state.to_act if s in self.bots]
            if bot_seats:
                seat = bot_seats[0]
                action = self.bots[seat].act(state.view(seat), state.legal_actions(seat))
                self.record(state.apply(seat, action))
                continue
            self.human_turn(state.to_act[0])
        self.show(None if self.humans != 1 else 0, final=True)

    def show(self, seat: int | None, final: bool = False) -> None:
        view = self.state.view(seat)
        log = Text("\n".join(self.logs[seat]) or "—")
        title = (
            "Final standings"
            if final
            else (f"Seat {seat} — your turn" if seat is not None else "Table")
        )
        self.console.print(
            Group(
                self.render.table(view),
                Panel(log, title="What happened", border_style="dim"),
            )
        )
        if final:
            result = self.state.result() or {}
            winners = ", ".join(seat_name(w, None, self.names) for w in result.get("winners", []))
            self.console.print(
                Panel(
                    Text(f"Scores: {result.get('scores')}\nWinner: {winners}"),
                    title=title,
                    border_style="green",
                )
            )

    def human_turn(self, seat: int) -> None:
        if self.humans > 1 and seat != self.last_human:
            self.console.clear()
            self.console.input(f"[bold]Pass the terminal to seat {seat}[/] and press Enter ")
            self.console.clear()
        self.last_human = seat
        self.show(seat)
        view = self.state.view(seat)
        legal = self.state.legal_actions(seat)
        for i, action in enumerate(legal, 1):
            self.console.print(
                f"  [bold cyan]{i:>2}[/] {self.render.action(action.to_json(), view)}"
            )
        while True:
            answer = self.console.input(f"Seat {seat}, choose 1-{len(legal)} (q to quit): ").strip()
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                break
            self.console.print(f"[red]Please type a number from 1 to {len(legal)}.[/]")
        self.record(self.state.apply(seat, legal[int(answer) - 1]))
