"""A worked example that learns: OpenSpiel's DQN (JAX, CPU) learns Thieves! in seat 0
against random bots, through Thievery's OpenSpiel registration.

The agent sees only its seat's observation vector (docs/rl.md) and picks among the legal
actions (OpenSpiel's DQN masks the rest). Every ``--eval-every`` episodes it plays
``--eval-games`` greedy games against random bots; at the end it plays against random
and against Thievery's heuristic bots (through the Gymnasium environment, the same
observation and action table). Writes a learning-curve plot (PNG) and prints one JSON
line with the win shares and 95% intervals.

    python examples/rl/learn_dqn.py --plot examples/rl/learning-curve.png

Needs ``pip install -e '.[rl-example]'`` (jax, flax, optax, chex, orbax; CPU only).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent
from open_spiel.python.jax import dqn

from thievery.rl.openspiel import register, short_name
from thievery.sim.runner import share_interval as interval

GAME = "thieves"


def padded(legal: list[int]) -> list[int]:
    """The legal actions, the first repeated up to a power of two: the same set, but few
    distinct lengths, so JAX compiles OpenSpiel's DQN's array updates a few times only
    instead of once per length."""
    if not legal:
        return legal
    size = 1 << (len(legal) - 1).bit_length()
    return legal + [legal[0]] * (size - len(legal))


def arrays(step: rl_environment.TimeStep) -> rl_environment.TimeStep:
    """The learner's observation as a numpy array (OpenSpiel's JAX DQN turns a Python
    list into a JAX array one number at a time, which dominates its run time) and its
    legal actions :func:`padded`."""
    states = step.observations["info_state"]
    states[0] = np.asarray(states[0], dtype=np.float32)
    step.observations["legal_actions"][0] = padded(step.observations["legal_actions"][0])
    return step


def play(env: rl_environment.Environment, agents: list[Any], learn: bool) -> float:
    """One episode; returns seat 0's reward (its share of the win)."""
    step = arrays(env.reset())
    while not step.last():
        player = step.observations["current_player"]
        out = agents[player].step(step, is_evaluation=not learn)
        step = arrays(env.step([out.action]))
    if learn:
        for agent in agents:
            agent.step(step)
    return float(step.rewards[0])


def against_heuristic(agent: dqn.DQN, players: int, games: int, seed: int) -> list[float]:
    """Greedy games of the agent in seat 0 against Thievery's heuristic bots (Gymnasium)."""
    import gymnasium

    import thievery.rl.gymnasium  # noqa: F401  registers thievery/Thieves-v0

    env = gymnasium.make("thievery/Thieves-v0", players=players, opponents="heuristic")
    shares = []
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done, reward = False, 0.0
        while not done:
            legal = padded([int(i) for i in np.flatnonzero(info["action_mask"])])
            step = rl_environment.TimeStep(
                observations={
                    "info_state": [obs] * players,
                    "legal_actions": [legal] * players,
                    "current_player": 0,
                },
                rewards=None,
                discounts=None,
                step_type=rl_environment.StepType.MID,
            )
            action = agent.step(step, is_evaluation=True).action
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        shares.append(float(reward))
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--episodes", type=int, default=6_000)
    parser.add_argument("--eval-every", type=int, default=1_000)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--final-games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", default=None, help="write the learning curve here (PNG)")
    args = parser.parse_args()

    register()
    game = pyspiel.load_game(short_name(GAME), {"players": args.players})
    env = rl_environment.Environment(game, seed=args.seed)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    learner = dqn.DQN(
        player_id=0,
        state_representation_size=size,
        num_actions=actions,
        hidden_layers_sizes=[128, 128],
        replay_buffer_capacity=50_000,
        batch_size=64,
        learning_rate=1e-3,
        update_target_network_every=1_000,
        learn_every=10,
        min_buffer_size_to_learn=1_000,
        epsilon_start=1.0,
        epsilon_end=0.05,
        epsilon_decay_duration=max(1, args.episodes * 5),
        optimizer_str="adam",
        seed=args.seed,
        allow_checkpointing=False,
    )
    others = [random_agent.RandomAgent(p, actions) for p in range(1, args.players)]
    agents: list[Any] = [learner, *others]
    curve: list[tuple[int, dict[str, float]]] = []
    t0 = time.perf_counter()
    for episode in range(args.episodes + 1):
        if episode % args.eval_every == 0:
            shares = [play(env, agents, learn=False) for _ in range(args.eval_games)]
            curve.append((episode, interval(shares)))
            print(f"# episode {episode}: {curve[-1][1]}", file=sys.stderr, flush=True)
        if episode < args.episodes:
            play(env, agents, learn=True)
    trained = time.perf_counter() - t0
    final_random = interval([play(env, agents, learn=False) for _ in range(args.final_games)])
    final_heuristic = interval(
        against_heuristic(learner, args.players, args.final_games, args.seed)
    )
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        xs = [e for e, _ in curve]
        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.plot(xs, [c["share"] for _, c in curve], label="DQN in seat 0 vs random")
        ax.fill_between(xs, [c["low"] for _, c in curve], [c["high"] for _, c in curve], alpha=0.3)
        ax.axhline(1 / args.players, color="grey", linestyle="--", label="fair share")
        ax.set_xlabel("training episodes")
        ax.set_ylabel("share of wins (95% interval)")
        ax.set_title(f"Thieves!, {args.players} players: OpenSpiel DQN vs random")
        ax.legend(loc="lower right")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)
    print(
        json.dumps(
            {
                "game": GAME,
                "players": args.players,
                "episodes": args.episodes,
                "train_seconds": round(trained, 1),
                "fair_share": round(1 / args.players, 3),
                "vs_random": final_random,
                "vs_heuristic": final_heuristic,
                "curve": [{"episode": e, **c} for e, c in curve],
            }
        )
    )


if __name__ == "__main__":
    main()
