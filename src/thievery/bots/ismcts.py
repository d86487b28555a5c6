"""Information-set Monte Carlo tree search (single-observer ISMCTS) for any game.

The bot gets only its seat's view. Every iteration it samples a full state consistent with
that view (``sampler=``; by default the ``sampler`` of the game's search hooks), then walks
a tree of decisions with UCB1 and availability counts (a child's statistics only compete
when its action is legal in the sampled state), expands one new decision, plays on with a
fast rollout policy for a bounded number of decisions, scores the position with the game's
``evaluate`` and backs the reward up. It never sees the true state.

The tree holds this seat's own decisions only (open loop, keyed by action). Every other
seat's decision is a chance event drawn from the rollout policy, and in a simultaneous
step the others choose before this seat's node is taken, so no statistic is ever
conditioned on a choice that is still hidden from the seat (no peeking at sealed plays,
in either direction).

A guide (by default the game's ``heuristic`` bot, asked once per decision with the same
view) anchors the root: its choice keeps at least a third of the root's visits, and the
search overrules it only when another move's mean reward beats it by more than
``confidence`` standard errors. Noise then falls back on the guide, and a larger budget
overrules it more often and more surely.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from thievery.bots.base import Bot, bot_names, make_bot
from thievery.core.protocol import Action, GameSpec, State
from thievery.core.registry import plugin
from thievery.core.rng import KEYED, KeyedRng, Rng
from thievery.core.search import SearchHooks

JSON = dict[str, Any]
Policy = Callable[[State, int, Rng], Action]
Sampler = Callable[[JSON], Callable[[Rng], State]]


class Node:
    """One decision in the tree: who chose it, visits, summed reward (for that seat) and
    availability (how often it was legal when its parent was visited)."""

    __slots__ = ("available", "children", "reward", "seat", "square", "visits")

    def __init__(self, seat: int = -1) -> None:
        self.seat = seat
        self.visits = 0
        self.reward = 0.0
        self.square = 0.0
        self.available = 0
        self.children: dict[Action, Node] = {}


class ISMCTSBot:
    """ISMCTS with a time or iteration budget; ``name`` says which budget."""

    def __init__(
        self,
        game: str,
        seat: int,
        rng: Rng,
        *,
        iterations: int | None = 1000,
        seconds: float | None = None,
        rollout_depth: int | None = None,
        exploration: float | None = None,
        name: str = "ismcts",
        action_ms: int = 0,
        guide: str | None = "default",
        confidence: float | None = None,
        policy: Policy | None = None,
        sampler: Sampler | None = None,
    ) -> None:
        found = plugin(game)
        self.spec: GameSpec = found.spec
        self.hooks: SearchHooks = found.hooks
        self.seat = seat
        self.rng = rng
        self.iterations = iterations
        self.seconds = seconds
        defaults = self.hooks.defaults()
        self.rollout_depth: int = (
            rollout_depth if rollout_depth is not None else defaults.get("rollout_depth", 16)
        )
        self.exploration: float = (
            exploration if exploration is not None else defaults.get("exploration", 0.7)
        )
        self.name = name
        self.action_ms = action_ms
        self.last_iterations = 0
        # When to answer by at the latest (time.perf_counter(); inf: when the budget is
        # spent): an anytime search stops there with what it has (see Bot in core.plugin).
        self.deadline = math.inf
        if guide == "default":
            guide = defaults.get("guide", "heuristic")
        self.guide: Bot | None = None
        if guide is not None and guide in bot_names(game):
            # A keyed search's guide is keyed too: from a 32-bit seed, its tie-breaks
            # (and so the search's moves) could be foretold by trying every seed against
            # the moves seen. Else 32 bits, as ever (local games replay as before).
            drawn = rng.next64()
            keyed = isinstance(rng, KeyedRng)
            self.guide = make_bot(guide, game, seat, KEYED + drawn if keyed else drawn & 0xFFFFFFFF)
        self.confidence: float = (
            confidence if confidence is not None else defaults.get("confidence", 1.0)
        )
        self.guided: Action | None = None
        # The rollout policy: every seat's play after the searched decision.
        self.policy: Policy = policy if policy is not None else self.hooks.rollout_action
        # The determinizer: a view in, a draw of full states out (by default the game's).
        self.sampler: Sampler = sampler if sampler is not None else self.hooks.sampler

    def delay_ms(self, view: JSON) -> int:
        """Real-time games: how long this bot takes per action in game time (its speed,
        so that on simulated time it is compared with other bots at equal speed)."""
        return self.action_ms

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        self.guided = self.guide.act(view, legal) if self.guide is not None else None
        root = self.search(view)
        best = max(
            (child.visits, self.rng.random(), action)
            for action, child in root.children.items()
            if action in legal
        )[2]
        guided = self.guided
        anchor = root.children.get(guided) if guided is not None else None
        if guided is None or anchor is None or best == guided:
            return best
        # Overrule the guide only with confidence: mean difference against standard error.
        other = root.children[best]
        if _mean(other) - _mean(anchor) > self.confidence * math.sqrt(
            _var(other) / other.visits + _var(anchor) / anchor.visits
        ):
            return best
        return guided

    def search(self, view: JSON) -> Node:
        """Run the search from ``view``; return the root with its statistics."""
        sample = self.sampler(view)
        root = Node()
        deadline = time.perf_counter() + self.seconds if self.seconds else math.inf
        deadline = min(deadline, self.deadline)
        limit = self.iterations if self.iterations is not None else 10**12
        done = 0
        # (the clock read every 16 iterations; at least 16, so a deadline already past
        # still gives a move)
        while done < limit and (done & 15 or done == 0 or time.perf_counter() < deadline):
            self._iterate(root, sample(self.rng))
            done += 1
        self.last_iterations = done
        return root

    def _iterate(self, root: Node, state: State) -> None:
        rng = self.rng
        choice = rng.choice
        me = self.seat
        path = [root]
        node = root
        guided = self.guided
        apply = state.apply_trusted
        policy = self.policy
        legal_actions = state.legal_actions
        # Walk the tree (this seat's decisions), others acting by the rollout policy.
        while True:
            to_act = state.to_act
            if not to_act:
                break
            if to_act[0] != me or len(to_act) > 1:
                seat = to_act[0] if to_act[0] != me else to_act[1]
                apply(seat, policy(state, seat, rng))
                continue
            legal = legal_actions(me)
            children = node.children
            untried = [a for a in legal if a not in children]
            anchor = guided if node is root and guided in legal else None
            if anchor is not None and anchor not in children:
                untried = [anchor]
            if untried:
                action = choice(untried)
                child = children[action] = Node(me)
            elif anchor is not None and children[anchor].visits * 3 < root.visits:
                action = anchor  # the guide keeps a third of the root's visits
                child = children[action]
            else:
                best_score = -1.0
                action = legal[0]
                c_param = self.exploration
                for a in legal:
                    c = children[a]
                    score = c.reward / c.visits + c_param * math.sqrt(
                        math.log(c.available + 1) / c.visits
                    )
                    if score > best_score:
                        best_score, action = score, a
                child = children[action]
            for a in legal:
                if a in children:
                    children[a].available += 1
            apply(me, action)
            path.append(child)
            node = child
            if untried:
                break
        # Roll out a bounded number of decisions, everyone by the rollout policy, up to
        # the game's horizon (e.g. the end of the current game of a match).
        horizon = self.hooks.rollout_horizon
        start = horizon(state)
        depth = self.rollout_depth
        while depth and (to_act := state.to_act) and horizon(state) == start:
            seat = to_act[0] if len(to_act) == 1 else choice(to_act)
            apply(seat, policy(state, seat, rng))
            depth -= 1
        reward = self.hooks.evaluate(state)[me]
        root.visits += 1
        for n in path[1:]:
            n.visits += 1
            n.reward += reward
            n.square += reward * reward


def _mean(node: Node) -> float:
    return node.reward / node.visits


def _var(node: Node) -> float:
    """The sample variance of a node's rewards (0.25, the most in [0, 1], if one visit)."""
    n = node.visits
    if n < 2:
        return 0.25
    mean = node.reward / n
    return max(0.0, (node.square - n * mean * mean) / (n - 1))


class PairedRootSearch(ISMCTSBot):
    """Information-set search over the root decision only, with paired samples.

    Every sample is one full state drawn from the view (the determinizer). Each of the
    seat's legal moves is played in a copy of that same state, followed by rollouts that
    share one random stream (common random numbers), so moves are compared on the same
    hidden cards and the same luck: the paired differences have far less variance than
    separate statistics. Others in a simultaneous step choose first, by the rollout
    policy, exactly as in :class:`ISMCTSBot`. The budget counts rollouts (moves x
    samples). The guide's move stands unless another move's mean paired gain exceeds
    ``confidence`` standard errors.
    """

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        guided = self.guide.act(view, legal) if self.guide is not None else legal[0]
        self.guided = guided
        moves = [guided, *(a for a in legal if a != guided)]
        gains = self.compare(view, moves)
        best = max(range(1, len(moves)), key=lambda i: gains[i][0] / max(1, gains[i][2]))
        total, square, n = gains[best]
        if n < 2:
            return guided
        mean = total / n
        var = max(0.0, (square - n * mean * mean) / (n - 1))
        return moves[best] if mean > self.confidence * math.sqrt(var / n) else guided

    def compare(self, view: JSON, moves: list[Action]) -> list[list[float]]:
        """Per move: [sum, sum of squares, count] of its reward less the first move's."""
        sample = self.sampler(view)
        evaluate = self.hooks.evaluate
        me = self.seat
        k = len(moves)
        gains = [[0.0, 0.0, 0] for _ in moves]
        deadline = time.perf_counter() + self.seconds if self.seconds else math.inf
        deadline = min(deadline, self.deadline)
        limit = self.iterations if self.iterations is not None else 10**12
        done = 0
        while done + k <= max(limit, k) and (done == 0 or time.perf_counter() < deadline):
            state = sample(self.rng)
            seed = self.rng.next64()
            rewards = []
            for move in moves:
                copy = state.clone()
                self._play(copy, move, Rng(seed))
                rewards.append(evaluate(copy)[me])
            base = rewards[0]
            for g, r in zip(gains, rewards, strict=True):
                d = r - base
                g[0] += d
                g[1] += d * d
                g[2] += 1
            done += k
        self.last_iterations = done
        return gains

    def _play(self, state: State, move: Action, rng: Rng) -> None:
        """Others pending in a simultaneous step choose, then ``move``, then a rollout."""
        me = self.seat
        apply = state.apply_trusted
        policy = self.policy
        while (to_act := state.to_act) and (to_act[0] != me or len(to_act) > 1):
            seat = to_act[0] if to_act[0] != me else to_act[1]
            apply(seat, policy(state, seat, rng))
        apply(me, move)
        horizon = self.hooks.rollout_horizon
        start = horizon(state)
        depth = self.rollout_depth
        choice = rng.choice
        while depth and (to_act := state.to_act) and horizon(state) == start:
            seat = to_act[0] if len(to_act) == 1 else choice(to_act)
            apply(seat, policy(state, seat, rng))
            depth -= 1
