"""PettingZoo environments for every Thievery game: :func:`env` (AEC) and
:func:`parallel_env` (Parallel).

>>> from thievery.rl.pettingzoo import env
>>> e = env("thieves", players=3)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), bool(obs["action_mask"].sum() > 0)
(['action_mask', 'observation'], True)

Agents are ``seat_0`` .. ``seat_{n-1}``. Observations are
``{"observation": float32 vector, "action_mask": int8 vector}`` built from that seat's view
only; the action space is ``Discrete(n)`` with the mapping of
:func:`thievery.rl.action_table` (the last index is ``WAIT``). Rewards come at the end:
the winners share 1. ``reset(seed=s)`` plays the game ``thievery.game(name).new(players,
s, options)`` exactly; ``reset()`` without a seed draws the next game's seed from the
last one. ``env()`` wraps the raw environment in PettingZoo's own
``TerminateIllegalWrapper`` (an illegal action ends the game, -1 for its seat),
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``, as PettingZoo's classic
games do. See docs/rl.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped, unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped, unused-ignore]

from thievery.rl.encoding import Mask, Vector
from thievery.rl.match import Match, Seeds, render

Obs = dict[str, Any]
ILLEGAL_REWARD = -1.0


def agent_name(seat: int) -> str:
    """The agent id of a seat: ``seat_2``."""
    return f"seat_{seat}"


class _Spaces:
    """The spaces every Thievery environment shares."""

    match: Match

    def _make_spaces(self) -> None:
        n_obs = self.match.layout.size
        n_act = self.match.codec.size
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (n_obs,), np.float32),
                "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
            }
        )
        self._obs_space = obs_space
        self._act_space = spaces.Discrete(n_act)


class RawEnv(AECEnv[str, Obs, int], _Spaces):  # type: ignore[misc]
    """The AEC environment of one game (use :func:`env` for the wrapped one)."""

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi", "human"],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        game: str,
        players: int = 4,
        *,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        step_ms: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.match = Match(game, players, options, step_ms)
        self.metadata = dict(RawEnv.metadata, name=f"thievery_{game.replace('-', '_')}_v0")
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [agent_name(s) for s in range(players)]
        self._make_spaces()
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._seeds = Seeds()
        self._cache: dict[int, Obs] = {}
        self.decisions = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        game_seed = self._seeds.next(seed)
        self.match.start(game_seed)
        self.game_seed = game_seed
        self.decisions = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._cache = {}
        current = self.match.current()
        self.agent_selection = self.agents[current if current is not None else 0]

    def observe(self, agent: str) -> Obs:
        seat = int(agent[5:])
        found = self._cache.get(seat)
        if found is None:
            vec: Vector = self.match.observation(seat)
            mask: Mask = self.match.mask(seat)
            found = {"observation": vec, "action_mask": mask}
            self._cache[seat] = found
        return found

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to decide: None is no action")
        seat = int(agent[5:])
        self._cumulative_rewards[agent] = 0.0
        self.match.act(seat, int(action))
        self.decisions += 1
        self._cache = {}
        match = self.match
        if match.over:
            for a, r in zip(self.agents, match.rewards(), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
        else:
            self._clear_rewards()
            if self.max_cycles is not None and self.decisions >= self.max_cycles:
                for a in self.agents:
                    self.truncations[a] = True
        current = match.current()
        if current is not None:
            self.agent_selection = self.possible_agents[current]
        else:
            self._deads_step_first()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return render(self.match, self.render_mode)

    def close(self) -> None:
        pass


def raw_env(game: str, players: int = 4, **kwargs: Any) -> RawEnv:
    """The unwrapped AEC environment."""
    return RawEnv(game, players, **kwargs)


def env(game: str, players: int = 4, **kwargs: Any) -> AECEnv[str, Obs, int]:
    """The AEC environment of ``game`` for ``players`` seats, wrapped as PettingZoo's
    classic games are. Keywords: ``render_mode`` ("ansi" or "human"), ``max_cycles``
    (truncate after that many decisions), ``step_ms`` (real time: game milliseconds per
    moment), and the game's own options."""
    e: AECEnv[str, Obs, int] = RawEnv(game, players, **kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=ILLEGAL_REWARD)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class ParallelThieveryEnv(ParallelEnv[str, Obs, int], _Spaces):  # type: ignore[misc]
    """The Parallel environment of one game: every seat gets an observation every step;
    the seats to act act together (sealed choices, real time), the others send ``WAIT``
    (their only legal action). An illegal action is ignored (``info["ignored"]``)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int = 4,
        *,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        step_ms: int | None = None,
        **options: Any,
    ) -> None:
        self.match = Match(game, players, options, step_ms)
        self.metadata = dict(
            ParallelThieveryEnv.metadata, name=f"thievery_{game.replace('-', '_')}_v0"
        )
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [agent_name(s) for s in range(players)]
        self.agents: list[str] = []
        self._make_spaces()
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._seeds = Seeds()
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _observe(self) -> dict[str, Obs]:
        m = self.match
        return {
            a: {"observation": m.observation(s), "action_mask": m.mask(s, together=True)}
            for s, a in enumerate(self.possible_agents)
            if a in self.agents
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        game_seed = self._seeds.next(seed)
        self.match.start(game_seed)
        self.game_seed = game_seed
        self.steps = 0
        self.agents = self.possible_agents[:]
        return self._observe(), {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, int]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        by_seat = {int(a[5:]): int(x) for a, x in actions.items() if x is not None}
        ignored = set(self.match.act_together(by_seat))
        self.steps += 1
        agents = self.agents
        obs = self._observe()
        over = self.match.over
        rewards = dict(zip(self.possible_agents, self.match.rewards(), strict=True))
        truncate = not over and self.max_cycles is not None and self.steps >= self.max_cycles
        rew = {a: rewards[a] for a in agents}
        term = dict.fromkeys(agents, over)
        trunc = dict.fromkeys(agents, truncate)
        infos = {a: {"ignored": int(a[5:]) in ignored} for a in agents}
        if over or truncate:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rew, term, trunc, infos

    def render(self) -> str | None:
        return render(self.match, self.render_mode)

    def close(self) -> None:
        pass

    def state(self) -> Any:
        raise NotImplementedError("no global state: every observation is one seat's view")


def parallel_env(game: str, players: int = 4, **kwargs: Any) -> ParallelThieveryEnv:
    """The Parallel environment of ``game`` (same keywords as :func:`env`)."""
    return ParallelThieveryEnv(game, players, **kwargs)
