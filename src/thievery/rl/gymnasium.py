"""Gymnasium single-agent environments: one seat learns, the others are played by named
bots. Importing this module registers ``thievery/Schattendieb-v0``,
``thievery/Thieves-v0``, ``thievery/ThievesDen-v0`` and ``thievery/SchatzRabatz-v0``.

>>> import gymnasium, thievery.rl.gymnasium
>>> e = gymnasium.make("thievery/Thieves-v0", players=4, opponents="heuristic")
>>> obs, info = e.reset(seed=3)
>>> obs.shape == e.observation_space.shape, int(info["action_mask"].sum()) > 0
(True, True)

The observation is the learner's observation vector (docs/rl.md), the action an index of
the game's action table, and ``info["action_mask"]`` the legal indices (``info["seat"]``
is the learner's seat). Reward: 0 until the end, then the learner's share (the winners
share 1). An action outside the mask ends the episode with reward -1 and
``info["illegal"]``. The bots see only their own views; in a real-time game each bot acts
no sooner than its reaction time (``delay_ms``) and its hand allow, else it waits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from thievery.bots import make_bot
from thievery.bots.realtime import due_ms
from thievery.core.plugin import Bot
from thievery.rl.encoding import Mask, Vector
from thievery.rl.match import Match, Seeds, checked_render_mode, render

ILLEGAL_REWARD = -1.0
ENV_IDS = {
    "schattendieb": "thievery/Schattendieb-v0",
    "thieves": "thievery/Thieves-v0",
    "thieves-den": "thievery/ThievesDen-v0",
    "schatz-rabatz": "thievery/SchatzRabatz-v0",
}


class ThieveryEnv(gymnasium.Env[Vector, np.int64]):
    """One seat (``seat``) of ``game`` against bots (``opponents``: one bot name for
    every other seat, or one name per other seat in seat order)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int = 4,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        *,
        render_mode: str | None = None,
        step_ms: int | None = None,
        **options: Any,
    ) -> None:
        self.match = Match(game, players, options, step_ms)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not one of 0..{players - 1}")
        self.seat = seat
        others = [s for s in range(players) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise ValueError(f"{len(others)} opponents needed, {len(names)} given")
        self.bot_names = dict(zip(others, names, strict=True))
        for seat_, name in self.bot_names.items():  # a bad name now, not at the first reset
            make_bot(name, self.match.game, seat_, 0)
        self.render_mode = checked_render_mode(render_mode)
        self.observation_space = spaces.Box(-np.inf, np.inf, (self.match.layout.size,), np.float32)
        self.action_space = spaces.Discrete(self.match.codec.size)
        self._bots: dict[int, Bot] = {}
        self._due: dict[int, int] = {}
        self._seeds = Seeds()
        self.game_seed = 0
        self._ended = True  # (an episode ended by an illegal action: the game is not over)

    # ------------------------------------------------------------ gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = self._seeds.next(seed)
        self.game_seed = game_seed
        self.match.start(game_seed)
        self._bots = {
            s: make_bot(name, self.match.game, s, game_seed) for s, name in self.bot_names.items()
        }
        self._due = {}
        self._ended = False
        self._play_bots()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        m = self.match
        if m.over or self._ended:
            raise RuntimeError("the episode is over: call reset()")
        index = _index(action)
        mask = m.mask(self.seat)
        if not 0 <= index < len(mask) or not mask[index]:
            info = self._info()
            info["illegal"] = True
            self._ended = True
            return self._obs(), ILLEGAL_REWARD, True, False, info
        m.act(self.seat, index)
        self._play_bots()
        reward = m.rewards()[self.seat] if m.over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, m.over, False, self._info()

    def render(self) -> str | None:
        return render(self.match, self.render_mode)

    # ------------------------------------------------------------ inside

    def _obs(self) -> Vector:
        return self.match.observation(self.seat)

    def _info(self) -> dict[str, Any]:
        mask: Mask = self.match.mask(self.seat)
        return {"action_mask": mask, "seat": self.seat}

    def _play_bots(self) -> None:
        """The bots decide until it is the learner's decision or the game is over."""
        m = self.match
        while True:
            current = m.current()
            if current is None or current == self.seat:
                return
            state = m.state
            bot = self._bots[current]
            if m.clocked:
                for s in [s for s in self._due if s not in state.to_act]:
                    del self._due[s]  # its turn to act ended: a new reaction next time
                now = state.now_ms  # type: ignore[attr-defined]
                view = state.view(current)
                due = self._due.get(current)
                if due is None:
                    delay = getattr(bot, "delay_ms", None)
                    due = due_ms(now + (int(delay(view)) if delay else 0), view)
                    self._due[current] = due
                if now < due and m.may_wait(current):
                    m.act(current, m.codec.wait)
                    continue
                del self._due[current]
                chosen = bot.act(view, state.legal_actions(current))
            else:
                chosen = bot.act(state.view(current), state.legal_actions(current))
            m.act(current, m.codec.index[chosen])


def _index(action: Any) -> int:
    """A step's action: one whole-number index (a Python or NumPy integer, or an array
    holding one), else ``ValueError`` (1.7 was taken as 1, ``None`` failed in ``int``)."""
    held = np.asarray(action)
    if held.size != 1 or held.dtype.kind not in "iu":
        raise ValueError(f"an action is one whole-number index, not {action!r:.60}")
    return int(held.reshape(()))


def register() -> None:
    """Register the four games' ids with Gymnasium (done on import; idempotent)."""
    for game, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="thievery.rl.gymnasium:ThieveryEnv",
                kwargs={"game": game},
                disable_env_checker=False,
            )


register()
