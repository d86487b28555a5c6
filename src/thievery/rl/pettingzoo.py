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
last one. ``env()`` gives the guarantees of PettingZoo's ``TerminateIllegalWrapper`` (an
illegal action ends the game, -1 for its seat), ``AssertOutOfBoundsWrapper`` and
``OrderEnforcingWrapper`` (the wrappers PettingZoo's classic games use) natively, without
their chain of attribute look-ups. See docs/rl.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped, unused-ignore]
from pettingzoo.utils.env import (  # type: ignore[import-untyped, unused-ignore]
    AECIterable,
    AECIterator,
)
from pettingzoo.utils.env_logger import (  # type: ignore[import-untyped, unused-ignore]
    EnvLogger,
)

from thievery.rl.encoding import Mask, Vector
from thievery.rl.match import INT8, Match, Seeds, checked_render_mode, render

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
        self.render_mode = checked_render_mode(render_mode)
        self.max_cycles = max_cycles
        self.possible_agents = [agent_name(s) for s in range(players)]
        self._make_spaces()
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._seeds = Seeds()
        # per agent, for the state as it is now: its observation and its mask as bytes
        # (what an action is checked against: the caller may change the array it got)
        self._cache: dict[str, tuple[Obs, bytes]] = {}
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
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
        found = self._cache.get(agent)
        return found[0] if found is not None else self._observed(agent)

    def _observed(self, agent: str) -> Obs:
        """``agent``'s observation of the state as it is now, remembered until a step."""
        seat = self._seat[agent]
        match = self.match
        direct = match._direct  # (what match.observation calls, without the call)
        vec: Vector = match.observation(seat) if direct is None else direct(match.state, seat)
        legal, flags = match.masks(seat)
        mask: Mask = np.frombuffer(flags, INT8)  # (the caller's own copy)
        found = {"observation": vec, "action_mask": mask}
        self._cache[agent] = (found, legal)
        return found

    def last(self, observe: bool = True) -> tuple[Obs | None, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection  # (only reset() sets it: observing is allowed)
        found: Obs | None = None
        if observe:
            cached = self._cache.get(agent)
            found = cached[0] if cached is not None else self._observed(agent)
        return (
            found,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to decide: None is no action")
        self._act(agent, int(action))

    def _act(self, agent: str, action: int, legal: bool = False) -> None:
        """The live ``agent`` takes ``action`` (legal or raising; ``legal``: its mask
        allows it, checked by the caller)."""
        match = self.match
        # (PettingZoo zeroes the acting agent's cumulative reward here: every reward is 0
        # until the end and nobody acts after it, so it is 0 already)
        clocked = match.clocked
        if legal and not clocked and action < match.codec.wait:
            # (what match.act does with a checked action of a turn-based game: no call)
            match.state.apply_legal(self._seat[agent], match.codec.actions[action])
        else:
            match.act(self._seat[agent], action, legal=legal)
        self.decisions += 1
        self._cache = {}
        over = match.state.result() is not None  # (match.over)
        if over:
            for a, r in zip(self.agents, match.rewards(), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
        elif self.max_cycles is not None and self.decisions >= self.max_cycles:
            for a in self.agents:
                self.truncations[a] = True
        # (every reward stays 0 until the end, and nothing acts after it: no clearing)
        if clocked:
            current = match.current()
        else:  # (what match.current does, without the call)
            to_act = match.state.to_act
            current = to_act[0] if to_act else None
        if current is not None:
            self.agent_selection = self.possible_agents[current]
        else:
            self._deads_step_first()
        if over:  # (before the end every reward is 0: nothing to add up)
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


class GuardedEnv(RawEnv):
    """The AEC environment :func:`env` gives: the raw one with the guarantees of
    PettingZoo's ``OrderEnforcingWrapper``, ``AssertOutOfBoundsWrapper`` and
    ``TerminateIllegalWrapper(illegal_reward=-1)`` (in that order, outermost first), done
    in the environment itself, with the same errors, warnings and outcomes:

    - before ``reset()``: ``step``, ``observe``, ``render``, ``state`` and ``agent_iter``
      raise, and ``rewards``, ``agents``, ``agent_selection``, ... do not exist yet;
      ``step`` with no agents left warns and does nothing; ``agent_iter`` asserts that
      ``step`` (or ``reset``) came between two agents;
    - an action outside the action space (``None`` only for a terminated or truncated
      agent) raises ``AssertionError``;
    - an action its mask forbids ends the game: every agent terminated and truncated,
      ``-1`` for the agent that took it, 0 for the others.
    """

    def __init__(self, game: str, players: int = 4, **kwargs: Any) -> None:
        super().__init__(game, players, **kwargs)
        self._has_reset = False
        self._has_updated = False
        self._terminated = False  # ended by an illegal action
        self._n_actions = self.match.codec.size

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._has_reset = True
        self._has_updated = True
        self._terminated = False
        super().reset(seed=seed, options=options)

    def observe(self, agent: str) -> Obs:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return super().observe(agent)

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        if not self.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        agent = self.agent_selection
        dead = self.terminations[agent] or self.truncations[agent]
        # the out-of-bounds assertion (kept under ``python -O`` too)
        if type(action) is int:
            inside = 0 <= action < self._n_actions
        else:
            inside = (action is None and dead) or self._act_space.contains(action)
        if not inside:
            raise AssertionError("action is not in action space")
        if dead:
            self._was_dead_step(action)
            return
        assert action is not None
        cached = self._cache.get(agent)  # (the mask handed out with the observation)
        legal = cached[1] if cached is not None else self.match.mask_bytes(self._seat[agent])
        if not legal[action]:
            self._illegal(agent)
            return
        self._act(agent, action if type(action) is int else int(action), True)

    def _illegal(self, agent: str) -> None:
        """As ``TerminateIllegalWrapper`` ends a game on an action its mask forbids."""
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.truncations, 0)
        self.rewards[agent] = float(ILLEGAL_REWARD)
        self._accumulate_rewards()
        self._deads_step_first()
        self._terminated = True

    def render(self) -> str | None:
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return super().render()

    def state(self) -> Any:
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        return super().state()

    def agent_iter(self, max_iter: int = 2**63) -> _OrderedTurns:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderedTurns(self, max_iter)


class _OrderedTurns(AECIterable):  # type: ignore[misc]
    def __iter__(self) -> _OrderedTurn:
        return _OrderedTurn(self.env, self.max_iter)


class _OrderedTurn(AECIterator):  # type: ignore[misc]
    """The agents in turn, as ``OrderEnforcingWrapper``'s iterator gives them."""

    def __next__(self) -> str:
        env = self.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        agent: str = env.agent_selection
        return agent


def env(game: str, players: int = 4, **kwargs: Any) -> GuardedEnv:
    """The AEC environment of ``game`` for ``players`` seats, with the guarantees of the
    wrappers PettingZoo's classic games use (:class:`GuardedEnv`). Keywords:
    ``render_mode`` ("ansi" or "human"), ``max_cycles`` (truncate after that many
    decisions), ``step_ms`` (real time: game milliseconds per moment), and the game's own
    options."""
    return GuardedEnv(game, players, **kwargs)


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
        self.render_mode = checked_render_mode(render_mode)
        self.max_cycles = max_cycles
        self.possible_agents = [agent_name(s) for s in range(players)]
        self.agents: list[str] = []
        self._make_spaces()
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._seeds = Seeds()
        self.steps = 0
        self._reset_done = False

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
        self._reset_done = True
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
        if not self._reset_done:
            raise RuntimeError("call reset() before step()")
        by_seat = {}
        for agent, x in actions.items():
            if agent not in self.agents:
                live = ", ".join(self.agents) or "none: the game is over, call reset()"
                raise ValueError(f"{agent!r} is no live agent (live: {live})")
            if x is not None:
                by_seat[int(agent[5:])] = int(x)
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
