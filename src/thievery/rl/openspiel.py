"""The four games as OpenSpiel Python games: :func:`register`, then
``pyspiel.load_game("python_thievery_<game>", {"players": 4})`` (``<game>`` with ``_`` for
``-``: ``python_thievery_thieves_den``).

>>> import pyspiel
>>> from thievery.rl.openspiel import register
>>> register()
>>> game = pyspiel.load_game("python_thievery_thieves", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 32)

Each game is sequential (sealed simultaneous choices are taken one seat after another,
each seat seeing only its own view), imperfect information, constant-sum (the winners
share 1), terminal rewards. The first nodes are chance nodes that draw the game's seed
among ``deals`` equally likely ones (parameter, default 1024): one node for up to
:data:`SPLIT_ABOVE` deals, above that two, the seed's high part then its low part
(:func:`seed_parts`: 32 and 32 outcomes for 1024 deals, so that sampling a chance node
the usual way, ``zip(*state.chance_outcomes())``, stays cheap); the engines draw every
later card from that seed, so there are no later chance nodes. Actions are the indices
of :func:`thievery.rl.action_table` (a real-time game's ``WAIT`` included; time moves
``step_ms`` per moment as in :mod:`thievery.rl.match`). Information-state and
observation tensors are both the seat's observation vector (docs/rl.md); the
information-state string is the seat's view as JSON with the seat's own actions so far,
the observation string its view. ``resample_from_infostate`` draws a full state from the
seat's view with the game's determinizer, so OpenSpiel's ISMCTS bot runs on them.
"""

from __future__ import annotations

import json
from math import isqrt
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from thievery.core.plugin import GamePlugin
from thievery.core.registry import plugin
from thievery.core.rng import Rng
from thievery.rl.encoding import ObservationLayout
from thievery.rl.match import Match

DEALS = 1024  # chance outcomes of the first node: the game's seed
GAMES = ("schattendieb", "thieves", "thieves-den", "schatz-rabatz")
# Generous bounds on a game's length in decisions (the longest random games seen were
# well under a quarter of these).
_PROTOTYPES: dict[tuple[str, int, int], Match] = {}  # per (game, players, step_ms)
_OUTCOMES: dict[int, tuple[tuple[int, float], ...]] = {}  # n equally likely, per n
SPLIT_ABOVE = 64  # more deals than this are drawn in two chance nodes


def seed_parts(deals: int) -> tuple[int, int]:
    """The outcomes of the seed's chance nodes: ``(high, low)``, seed ``= h * low + l``;
    ``low == 1``: one node of ``deals`` outcomes (up to :data:`SPLIT_ABOVE` deals, or
    when ``deals`` has no divisor but 1 and itself). ``low`` is the largest divisor of
    ``deals`` up to its square root: 1024 deals are 32 high parts of 32 low parts."""
    if deals <= SPLIT_ABOVE:
        return deals, 1
    low = max(d for d in range(1, isqrt(deals) + 1) if deals % d == 0)
    return deals // low, low


def _outcomes(n: int) -> tuple[tuple[int, float], ...]:
    """``n`` equally likely chance outcomes (made once per ``n``)."""
    found = _OUTCOMES.get(n)
    if found is None:
        p = 1.0 / n
        found = _OUTCOMES[n] = tuple((d, p) for d in range(n))
    return found


MAX_GAME_LENGTH = {
    "schattendieb": 4_000,
    "thieves": 2_000,
    "thieves-den": 4_000,
    "schatz-rabatz": 20_000,
}


def max_game_length(game: str, step_ms: int) -> int:
    """The most decisions a game may take. A real-time game's bound is for the default
    250 ms a moment (random play that waits whenever it may: under 1,000); a shorter step
    makes more moments in each hourglass, as many times more."""
    bound = MAX_GAME_LENGTH[game]
    return bound if game != "schatz-rabatz" else -(-bound * max(250, step_ms) // step_ms)


CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _player(match: Match) -> int:
    """OpenSpiel's current player of a started game: a seat, or ``TERMINAL``."""
    current = match.current()
    return TERMINAL if current is None else current


def short_name(game: str) -> str:
    """``python_thievery_thieves_den`` for ``thieves-den``."""
    return "python_thievery_" + game.replace("-", "_")


def _game_type(p: GamePlugin) -> Any:
    spec = p.spec
    params: dict[str, Any] = {"players": max(spec.min_players, 4), "deals": DEALS}
    if p.name == "schatz-rabatz":
        params["step_ms"] = 250
    return pyspiel.GameType(
        short_name=short_name(p.name),
        long_name=f"Python Thievery {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class ThieveryGame(pyspiel.Game):  # type: ignore[misc]
    """One Thievery game for OpenSpiel (made by ``pyspiel.load_game``)."""

    game_name: str = ""
    game_type: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        defaults = self.game_type.parameter_specification
        players = int(params.get("players", defaults["players"]))
        self.deals = int(params.get("deals", defaults["deals"]))
        self.step_ms = int(params.get("step_ms", 250))
        key = (self.game_name, players, self.step_ms)
        if key not in _PROTOTYPES:
            timed = "step_ms" in defaults  # (a turn-based game has no step: None)
            _PROTOTYPES[key] = Match(self.game_name, players, None, self.step_ms if timed else None)
        self.key = key
        self.match = _PROTOTYPES[key]
        if self.deals < 1:
            raise ValueError(f"deals must be at least 1, not {self.deals}")
        self.parts = seed_parts(self.deals)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.match.codec.size,
            max_chance_outcomes=self.parts[0],
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length(self.game_name, self.step_ms),
        )
        super().__init__(self.game_type, info, params)

    def new_initial_state(self) -> ThieveryState:
        return ThieveryState(self, None)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ThieveryObserver:
        """An observer of one seat's own view: what it sees, public and private (OpenSpiel's
        default type, with or without perfect recall). Any other type (public information
        only, every player's private information, or no public information) is refused:
        the observation would be that seat's view still, so a "public" one would show
        its hand."""
        if iig_obs_type is not None and not (
            iig_obs_type.public_info
            and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                f"{self.game_name}: only a seat's own view can be observed (public_info and "
                f"private_info SINGLE_PLAYER), not public_info={iig_obs_type.public_info}, "
                f"private_info={iig_obs_type.private_info}"
            )
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ThieveryObserver(self.match.layout, perfect_recall)


class ThieveryState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: chance nodes for the seed, then the seats' decisions."""

    def __init__(self, game: ThieveryGame, match: Match | None) -> None:
        super().__init__(game)
        self.deals = game.deals
        self.parts = game.parts
        self.high: int | None = None  # the seed's high part, once drawn (two nodes)
        self.match = match  # None: the seed is not drawn yet
        self.own: list[list[int]] = [[] for _ in range(game.num_players())]
        self.game_name = game.game_name
        self.key = game.key  # its prototype match: spaces shared, never copied
        self.player = CHANCE if match is None else _player(match)  # asked often: kept

    def current_player(self) -> int:
        return self.player

    def is_chance_node(self) -> bool:
        return self.player == CHANCE  # as OpenSpiel's own, without the trip through C++

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The current seat's legal actions straight from the match (what OpenSpiel's
        ``legal_actions`` gives through ``_legal_actions``, without converting the list
        to C++ and back); OpenSpiel answers the other cases."""
        current = self.player
        if current >= 0 and (player is None or player == current):
            assert self.match is not None
            return self.match.legal_indices(current)
        out: list[int] = (
            super().legal_actions() if player is None else super().legal_actions(player)
        )
        return out

    def _legal_actions(self, player: int) -> list[int]:
        assert self.match is not None
        return self.match.legal_indices(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        high, low = self.parts
        return list(_outcomes(high if self.high is None else low))

    def _apply_action(self, action: int) -> None:
        action = int(action)
        match = self.match
        if match is None:
            low = self.parts[1]
            outcomes = self.parts[0] if low == 1 or self.high is None else low
            if not 0 <= action < outcomes:
                raise ValueError(f"chance outcome {action} is outside 0..{outcomes - 1}")
            if low == 1:
                seed = action
            elif self.high is None:
                self.high = action  # the seed's low part is drawn next
                return
            else:
                seed = self.high * low + action
            match = self.match = _PROTOTYPES[self.key].fresh(seed)
        else:
            seat = self.player
            match.act(seat, action)  # (raises, changing nothing, if it is not legal)
            self.own[seat].append(action)
        current = match.current()
        self.player = TERMINAL if current is None else current

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            low = self.parts[1]
            if low == 1:
                return f"seed {action}"
            if self.high is None:
                return f"seed {action * low} to {action * low + low - 1}"
            return f"seed {self.high * low + action}"
        return json.dumps(_PROTOTYPES[self.key].codec.to_json(int(action)), sort_keys=True)

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def returns(self) -> list[float]:
        if self.match is None:
            return [0.0] * self.get_game().num_players()
        return self.match.rewards()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state the seat cannot tell from this one: everything it cannot see
        re-sampled by the game's determinizer (its history of moves is this state's)."""
        out = self.clone()
        if self.match is not None and not self.match.over:
            rng = Rng(int(probability_sampler() * 2**53))
            view = self.match.state.view(player_id)
            out.match = self.match.with_state(plugin(self.game_name).spec.determinize(view, rng))
        return out

    def __str__(self) -> str:
        if self.match is None:
            return "(the seed is not drawn yet)"
        return json.dumps(self.match.state.view(None), sort_keys=True)


class ThieveryObserver:
    """Tensors and strings from one seat's view (``perfect_recall``: the string adds the
    seat's own actions so far)."""

    def __init__(self, layout: ObservationLayout, perfect_recall: bool) -> None:
        self.layout = layout
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {
            row["name"]: self.tensor[row["offset"] : row["offset"] + row["size"]]
            for row in layout.describe()
        }

    def set_from(self, state: ThieveryState, player: int) -> None:
        if state.match is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = state.match.observation(player)

    def string_from(self, state: ThieveryState, player: int) -> str:
        if state.match is None:
            return f"seat {player}: the seed is not drawn yet"
        view = json.dumps(state.match.state.view(player), sort_keys=True)
        if self.perfect_recall:
            return f"{view} own={state.own[player]}"
        return view


def register() -> None:
    """Register the four games with OpenSpiel (idempotent)."""
    known = set(pyspiel.registered_names())
    for name in GAMES:
        p = plugin(name)
        if short_name(name) in known:
            continue
        game_type = _game_type(p)
        cls = type(
            game_class_name(name),
            (ThieveryGame,),
            {"game_name": name, "game_type": game_type, "__module__": __name__},
        )
        globals()[cls.__name__] = cls  # (a game is pickled by its class's name)
        pyspiel.register_game(game_type, cls)


def game_class_name(game: str) -> str:
    """``ThieveryThievesDenGame`` for ``thieves-den``."""
    title = plugin(game).spec.title
    return f"Thievery{title.replace(' ', '').replace('!', '').replace('-', '')}Game"


def __getattr__(name: str) -> Any:
    """A game's class, registered on first use (as unpickling a game asks for it)."""
    if any(game_class_name(g) == name for g in GAMES):
        register()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "SPLIT_ABOVE",
    "ThieveryGame",
    "ThieveryObserver",
    "ThieveryState",
    "register",
    "seed_parts",
    "short_name",
]
