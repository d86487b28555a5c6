"""One game as the RL faces drive it: whose decision it is, observations, masks, rewards.

Turn order. A turn-based decision goes to the first seat in ``state.to_act``; when
several seats decide at once (sealed choices: Der Schattendieb's cards, Thieves Den's
Scouting pick) they decide one after another, each seeing only its own view, so none
learns what the others chose before its own choice is sealed.

Real time (Schatz-Rabatz). Time moves in fixed steps of ``step_ms`` milliseconds
(:data:`STEP_MS` unless told otherwise). At each moment every seat that may act gets one
decision, in an order that rotates by one seat per moment; a decision may be ``WAIT``
(the last action index) while time still changes something (the game adapter's rule:
Schatz-Rabatz while packing with the hourglass running or the seat's hand busy). When
all of them have decided the clock moves on by ``step_ms`` (and on again while nobody
may act), through the clock pseudo-seat's tick, so the state's record replays exactly.

Rewards: 0 until the end, then :func:`thievery.core.search.share` (the winners share 1).
"""

from __future__ import annotations

import io
import json
import numbers
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from thievery.core.errors import IllegalAction
from thievery.core.protocol import JSON, ClockedState, GameSpec, State
from thievery.core.registry import plugin
from thievery.core.search import share
from thievery.rl.direct import SEAT_ENCODERS, SeatEncoder
from thievery.rl.encoding import ActionCodec, Mask, ObservationLayout, Vector
from thievery.rl.games import ADAPTERS, LEGAL_INDICES, LegalBits, LegalIndices

INT8 = np.dtype(np.int8)  # (np.frombuffer takes a dtype quicker than a type)
STEP_MS = 250  # milliseconds of game time per decision moment in a real-time game


def spaces(
    game: str, players: int, options: Mapping[str, Any] | None = None
) -> tuple[ActionCodec, ObservationLayout]:
    """The action space and observation layout of ``game`` at ``players`` (and options)."""
    codec, layout, _, _, _, _ = _spaces(game, players, options)
    return codec, layout


_Spaces = tuple[
    ActionCodec,
    ObservationLayout,
    Callable[[State, int], bool] | None,
    LegalIndices | None,
    LegalBits | None,
    SeatEncoder | None,
]
_MADE: dict[str, _Spaces] = {}  # by game, players and options: the spaces never change


def _spaces(game: str, players: int, options: Mapping[str, Any] | None) -> _Spaces:
    # By what the options say, files read in: a card file edited (or a relative path read
    # from another folder) is another game, with spaces of its own.
    options = plugin(game).inline_options(options or {})
    key = json.dumps([game, players, options], sort_keys=True, default=str)
    made = _MADE.get(key)
    if made is None:
        made = _MADE[key] = _make_spaces(game, players, options)
    return made


def _make_spaces(game: str, players: int, options: Mapping[str, Any] | None) -> _Spaces:
    spec = plugin(game).spec
    adapter = ADAPTERS.get(game)
    if adapter is None:
        raise ValueError(f"no RL adapter for game {game!r} (adapters: {sorted(ADAPTERS)})")
    probe = spec.new(players, 0, options)
    actions, fields, waits = adapter(players, probe)
    codec = ActionCodec(actions)
    layout = ObservationLayout(fields)
    fast = LEGAL_INDICES.get(game)
    indices, bits = fast(codec) if fast is not None else (None, None)
    direct = SEAT_ENCODERS.get(game)
    encoder = direct(layout, probe) if direct is not None else None
    return codec, layout, waits, indices, bits, encoder


class Seeds:
    """The game seeds of successive resets: ``next(s)`` is ``s`` itself (the same seed,
    the same game); ``next(None)`` draws the next seed from the last seed given (from
    fresh entropy if none was ever given)."""

    def __init__(self) -> None:
        self._rng = np.random.default_rng()

    def next(self, seed: int | None) -> int:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            return int(seed)
        return int(self._rng.integers(2**31))


RENDER_MODES = ("ansi", "human")


def checked_render_mode(mode: str | None) -> str | None:
    """A face's ``render_mode``, checked: ``None``, ``"ansi"`` or ``"human"``."""
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode is one of {', '.join(RENDER_MODES)} or None, not {mode!r}")
    return mode


def render(match: Match, mode: str | None) -> str | None:
    """``render()`` of every face: ``"ansi"`` returns the terminal text of the public
    view with whose decision it is, ``"human"`` prints it, ``None`` does nothing."""
    if mode is None:
        return None
    text = render_text(match)
    if mode == "human":
        print(text)
        return None
    return text


def render_text(match: Match) -> str:
    """The game as the terminal shows it to a spectator (no hidden information), with
    whose decision it is (agents are named ``seat_N``)."""
    from rich.console import Console

    renderer = plugin(match.game).terminal()
    view = match.state.view(None)
    buffer = io.StringIO()
    console = Console(file=buffer, width=110, color_system=None, force_terminal=False)
    console.print(renderer.table(view) if renderer is not None else view)
    current = match.current()
    console.print("game over" if current is None else f"to decide: seat_{current}")
    return buffer.getvalue()


class Match:
    """A game for the RL faces; :meth:`start` begins one from a seed."""

    def __init__(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        step_ms: int | None = None,
    ) -> None:
        self.game = game
        self.spec: GameSpec = plugin(game).spec
        self.players = players
        # (files read in once, here: every game of the match, its spaces and its copies
        # in other processes are of one card set, whatever becomes of the file)
        self.options = plugin(game).inline_options(options or {})
        spaces = _spaces(game, players, self.options)
        self.codec, self.layout, self._waits, self._legal, self._bits, self._direct = spaces
        self._mask_bytes = (self.codec.size + 7) // 8
        self._masks: dict[int, bytes] = {}  # a mask's bits -> its bytes (see mask)
        self.state: State = self.spec.new(players, 0, self.options)
        self.clocked = isinstance(self.state, ClockedState)
        if step_ms is not None and not self.clocked:
            raise ValueError(f"step_ms is for real-time games; {game} is played in turns")
        # (a whole number: int() took 1.5 as 1 and 0.5 as 0, "250" and True as numbers)
        if step_ms is not None and (
            isinstance(step_ms, bool) or not isinstance(step_ms, numbers.Integral)
        ):
            raise ValueError(f"step_ms is a whole number of milliseconds, not {step_ms!r:.60}")
        self.step_ms = STEP_MS if step_ms is None else int(step_ms)
        if self.step_ms <= 0:
            raise ValueError(f"step_ms must be positive, not {step_ms!r}")
        self._cycle: list[int] = []
        self._fresh = True  # no seat has decided at this moment yet
        self._moment = 0
        self.sampled = False  # a determinized sample (with_state), not a game from a seed

    # ------------------------------------------------------------ running

    def start(self, seed: int) -> None:
        """A new game from ``seed`` (the same seed, the same game)."""
        self.state = self.spec.new(self.players, int(seed), self.options)
        self.sampled = False
        self._cycle = []
        self._fresh = True
        self._moment = 0
        self._settle()

    @property
    def over(self) -> bool:
        return self.state.result() is not None

    def current(self) -> int | None:
        """The seat whose decision it is (``None``: the game is over)."""
        if self.clocked:
            return self._cycle[0] if self._cycle else None
        to_act = self.state.to_act
        return to_act[0] if to_act else None

    def act(self, seat: int, index: int, *, legal: bool = False) -> None:
        """``seat`` takes action ``index`` (it must be the current seat's legal action;
        ``legal``: the caller checked it against ``mask(seat)``, so the engine need not
        check it again)."""
        if not legal:  # (a mask allows nothing to a seat that is not to decide)
            if self.clocked:
                current = self._cycle[0] if self._cycle else None
            else:
                to_act = self.state.to_act
                current = to_act[0] if to_act else None
            if seat != current:
                raise IllegalAction(f"seat {seat} is not to decide now (seat {current} is)")
        codec = self.codec
        if 0 <= index < codec.wait:
            if legal:
                self.state.apply_legal(seat, codec.actions[index])
            else:
                self.state.apply(seat, codec.actions[index])
        elif codec.action(index) is None and not self.may_wait(seat):  # (raises if out of range)
            raise IllegalAction(f"seat {seat} may not wait now")
        if self.clocked:
            if self._cycle and self._cycle[0] == seat:
                self._cycle.pop(0)
            self._settle()

    def act_together(self, actions: Mapping[int, int]) -> list[int]:
        """Every seat to act takes its action at once (the Parallel API): in seat order,
        rotating by one seat per moment in a real-time game; an action no longer legal
        when its turn comes (or never legal) is ignored. A real-time game's clock then
        moves on by ``step_ms``. Returns the seats whose action was ignored."""
        state = self.state
        ignored: list[int] = []
        # (every index checked first: one outside the action space changes nothing)
        chosen = {s: self.codec.action(int(i)) for s, i in actions.items()}
        for s in self._order(state.to_act):
            if s not in chosen:
                continue
            action = chosen[s]
            if action is None:
                if not self.may_wait(s):
                    ignored.append(s)
                continue
            if s in state.to_act and state.is_legal(s, action):
                state.apply(s, action)
            else:
                ignored.append(s)
        if self.clocked and not self.over:
            self._tick()
            while not self.over and not state.to_act:
                self._tick()
        return ignored

    def may_wait(self, seat: int) -> bool:
        """Whether ``seat`` (to act) may take ``WAIT``: only in a real-time game, and only
        while time still changes something (the game's rule)."""
        return self._waits is not None and self._waits(self.state, seat)

    def _order(self, to_act: tuple[int, ...]) -> list[int]:
        first = self._moment % self.players if self.clocked else 0
        return sorted(to_act, key=lambda s: (s - first) % self.players)

    def _tick(self) -> None:
        state: Any = self.state  # (a ClockedState: see __init__)
        state.advance(state.now_ms + self.step_ms)  # (what apply(CLOCK, tick) does)
        self._moment += 1

    def _settle(self) -> None:
        """Real time: drop seats that may no longer act from this moment's turn; once the
        moment's turn is done, move the clock on until somebody may act."""
        if not self.clocked:
            return
        state = self.state
        while state.result() is None:  # (not self.over)
            to_act = state.to_act
            while self._cycle and self._cycle[0] not in to_act:
                self._cycle.pop(0)
            if self._cycle:
                return
            if self._fresh and to_act:
                self._cycle = self._order(to_act)
                self._fresh = False
                continue
            self._tick()
            self._fresh = True

    def fresh(self, seed: int) -> Match:
        """A new match of the same game, spaces and timing, started from ``seed``."""
        out = object.__new__(Match)
        out.__dict__.update(self.__dict__)
        out.start(seed)
        return out

    def copy(self) -> Match:
        """An independent copy of the game in progress (spaces shared, state cloned)."""
        out = object.__new__(Match)
        out.__dict__.update(self.__dict__)
        out.state = self.state.clone()
        out._cycle = self._cycle[:]
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game, seed and history, replayed on loading, so that the
        spaces' functions need not be pickled (OpenSpiel serializes states so); a
        determinized sample (:meth:`with_state`), which no seed and history make, as its
        state itself."""
        state = self.state
        turn = (self._cycle[:], self._fresh, self._moment)
        setup = (self.game, self.players, self.options, self.step_ms if self.clocked else None)
        if self.sampled:
            return (_rebuild, (setup, state, None, turn))
        history = [(seat, action.to_json()) for seat, action in state.history()]
        return (_rebuild, (setup, state.seed, history, turn))

    def with_state(self, state: State) -> Match:
        """A copy of this match (its turn order at this moment) around another state of
        the same game, e.g. one determinized from a seat's view."""
        out = self.copy()
        out.state = state
        out.sampled = True
        return out

    # ------------------------------------------------------------ reading

    def observation(self, seat: int) -> Vector:
        """``seat``'s observation vector, from its view only: the game's seat encoder
        (:mod:`thievery.rl.direct`, the view's numbers read from the state) where it has
        one, else the layout's encoding of ``state.view(seat)``."""
        if self._direct is not None:
            return self._direct(self.state, seat)
        return self.layout.encode(self.state.view(seat), seat)

    def observation_from_view(self, seat: int) -> Vector:
        """``seat``'s observation vector encoded from ``state.view(seat)`` (the reference
        every seat encoder must equal)."""
        return self.layout.encode(self.state.view(seat), seat)

    def mask(self, seat: int, *, together: bool = False) -> Mask:
        """``seat``'s legal action indices. Turn by turn: only the current seat has any.
        Together (Parallel): every seat to act has its legal actions, the others ``WAIT``
        only. ``WAIT`` is legal to every seat to act in a real-time game. Each call's
        array is its own (writable)."""
        return np.frombuffer(self.masks(seat, together=together)[1], INT8)

    def mask_bytes(self, seat: int, *, together: bool = False) -> bytes:
        """:meth:`mask` as bytes (1 for a legal index, else 0): a copy nobody can change,
        for an environment to check an action against what it handed out."""
        return self.masks(seat, together=together)[0]

    def masks(self, seat: int, *, together: bool = False) -> tuple[bytes, bytearray]:
        """:meth:`mask_bytes` and, apart, the same in a ``bytearray`` of the caller's own
        (the buffer of a :meth:`mask` array)."""
        wait = self.codec.wait
        if together:
            if seat not in self.state.to_act:
                out = bytearray(self.codec.size)
                out[wait] = 1
                return bytes(out), out
        elif self.clocked:
            if seat != (self._cycle[0] if self._cycle else None):  # (self.current())
                return bytes(self.codec.size), bytearray(self.codec.size)
        else:
            to_act = self.state.to_act  # (self.current(), without the call)
            if not to_act or seat != to_act[0]:
                return bytes(self.codec.size), bytearray(self.codec.size)
        if self._bits is not None:  # the game's legal indices as one number's bits
            bits = self._bits(self.state, seat)
            if self._waits is not None and self._waits(self.state, seat):  # (may_wait)
                bits |= 1 << wait
            known = self._masks.get(bits)  # masks recur (most say "close or wait")
            if known is None:
                packed = np.frombuffer(bits.to_bytes(self._mask_bytes, "little"), np.uint8)
                unpacked = np.unpackbits(packed, count=self.codec.size, bitorder="little")
                if len(self._masks) > 20_000:
                    self._masks.clear()
                known = self._masks[bits] = unpacked.tobytes()
            return known, bytearray(known)
        flags = bytearray(self.codec.size)  # zeros
        legal = self._legal  # (what _indices does, without the call)
        if legal is not None:  # the game's own table of indices
            for i in legal(self.state, seat):
                flags[i] = 1
        else:  # its legal actions, each flagged where the codec has it
            self.codec.fill(flags, self.state.legal_actions(seat))
        if self._waits is not None and self._waits(self.state, seat):  # (may_wait)
            flags[wait] = 1
        return bytes(flags), flags

    def legal_indices(self, seat: int) -> list[int]:
        """The current seat's legal action indices, ascending (others: none)."""
        if seat != self.current():
            return []
        out = self._indices(seat)
        out.sort()
        if self._waits is not None and self._waits(self.state, seat):
            out.append(self.codec.wait)
        return out

    def _indices(self, seat: int) -> list[int]:
        """The indices of ``state.legal_actions(seat)`` (the game's own quicker way to
        them where it has one: :data:`thievery.rl.games.LEGAL_INDICES`)."""
        if self._legal is not None:
            return self._legal(self.state, seat)
        return self.codec.indices(self.state.legal_actions(seat))

    def rewards(self) -> list[float]:
        """0 each while running; at the end, the winners share 1."""
        if not self.over:
            return [0.0] * self.players
        return share(self.state)


def _rebuild(
    setup: tuple[str, int, dict[str, Any], int | None],
    seed: int | State,
    history: list[tuple[int, JSON]] | None,
    turn: tuple[list[int], bool, int],
) -> Match:
    """A pickled :class:`Match`: its game replayed from the seed and history, or (a
    determinized sample) its state as pickled."""
    game, players, options, step_ms = setup
    match = Match(game, players, options, step_ms)
    if isinstance(seed, State):
        state, match.sampled = seed, True
    else:
        state = match.spec.new(players, seed, options)
        for seat, action in history or ():
            state.apply(seat, action)
    match.state = state
    match._cycle, match._fresh, match._moment = list(turn[0]), turn[1], turn[2]
    return match
