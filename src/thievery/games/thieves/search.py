"""Thieves!'s search: the hooks (a rollout policy that plays like the heuristic bot, and a
transparent estimate for the rare rollout cut before the end of the game) and the search
bots built on them, :class:`RolloutSearch` and :class:`RacingSearch`."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from thievery.bots.ismcts import ISMCTSBot, Node, PairedRootSearch
from thievery.core.protocol import Action, State
from thievery.core.rng import Rng
from thievery.core.search import SearchHooks, share
from thievery.core.setup import soft_max
from thievery.games.thieves.actions import MOVES, PASS, PLAY_ONE, PLAY_TO, REMOVES, Move, Pass, Play
from thievery.games.thieves.cards import (
    ALARM,
    CARD_INDEX,
    CARD_MASK,
    CARS,
    DIAMOND_RING,
    EXPOSED,
    FINAL_VALUE,
    KIND,
    MONEY,
    MONEY_CARDS,
    POLICE,
    RAID_VALUE,
    ROADBLOCK,
    THIEF,
)
from thievery.games.thieves.rules import DOUBLE, MOVE, REMOVE, Thieves
from thievery.games.thieves.view import Determinizer

# Values by loot slot (card number | flags), so that rows sum without masking.
FINAL_OF = [
    FINAL_VALUE[e & CARD_MASK] if e & CARD_MASK < len(FINAL_VALUE) else 0 for e in range(256)
]
RAID_OF = [RAID_VALUE[e & CARD_MASK] if e & CARD_MASK < len(RAID_VALUE) else 0 for e in range(256)]
IS_MONEY = [1 if k == MONEY else 0 for k in KIND]
MONEY_COUNT = len(MONEY_CARDS)
MONEY_FINAL = sum(FINAL_VALUE[c] for c in MONEY_CARDS)
MONEY_RAID = sum(RAID_VALUE[c] for c in MONEY_CARDS)
_final = FINAL_OF.__getitem__
_raid = RAID_OF.__getitem__
# Packed (final value | raid value << 8 | cards known << 16), so that one ``sum`` reads a
# whole row or hand (a row's values stay below 256): a seat's own loot, another seat's
# loot as that seat sees it (face up or seen in a raid, else nothing), and a hand's money.
_OWN = [FINAL_OF[e] | RAID_OF[e] << 8 | 1 << 16 for e in range(256)]
_OTHER = [_OWN[e] if e >= EXPOSED else 0 for e in range(256)]
_HAND = [FINAL_VALUE[c] | RAID_VALUE[c] << 8 | IS_MONEY[c] << 16 for c in range(len(KIND))]
_own = _OWN.__getitem__
_other = _OTHER.__getitem__
_hand = _HAND.__getitem__


def estimates(state: Thieves, seat: int) -> tuple[list[float], list[float], float, float]:
    """Every seat's loot as ``seat`` can judge it: (final values, raid values, the final
    and the raid value it puts on a face-down card it has not seen), as the heuristic
    bot's ``_Estimate``."""
    seen = sum(map(_hand, state.hands[seat]))
    if state.drawn >= 0 and state.current == seat:
        seen += _HAND[state.drawn]
    fin: list[float] = []
    raid: list[float] = []
    hidden: list[int] = []
    for t, row in enumerate(state.loot):
        packed = sum(map(_own if t == seat else _other, row))
        seen += packed
        fin.append(packed & 255)
        raid.append(packed >> 8 & 255)
        hidden.append(len(row) - (packed >> 16))
    count = seen >> 16
    if count < MONEY_COUNT:
        unseen = MONEY_COUNT - count
        guess_final = (MONEY_FINAL - (seen & 255)) / unseen
        guess_raid = (MONEY_RAID - (seen >> 8 & 255)) / unseen
    else:
        guess_final = MONEY_FINAL / MONEY_COUNT
        guess_raid = MONEY_RAID / MONEY_COUNT
    for t, k in enumerate(hidden):
        if k:
            fin[t] += k * guess_final
            raid[t] += k * guess_raid
    return fin, raid, guess_final, guess_raid


def rollout_action(state: Thieves, seat: int, rng: Rng) -> Action:
    """The heuristic bot's choice for ``seat``, read from a sampled full state.

    It reads a sampled full state (a determinization), never a true one. The policy is the
    heuristic bot's own scoring (``bots.py``) re-read from the sample through the eyes of
    the seat to move, so a search's rollouts play the way its heuristic opponents do
    (policy improvement: try each move, let everyone play on as the heuristic would, keep
    the move that wins most). The seat knows its hand and its own loot; of the others'
    loot it knows what lies face up or was seen in a raid, and it counts every other
    face-down card at the average of the money it has not seen, exactly as the heuristic
    does. Ties are broken at random, as the heuristic breaks them. :class:`Judge` gives the
    heuristic's score of each single play, for the level-1 model (``model.py``) as well as
    for this policy.
    """
    phase = state.phase
    if phase == REMOVE:
        return _remove(state)
    if phase == MOVE:
        return _best_move(state, seat, estimates(state, seat), rng)[1]
    judge = Judge(state, seat)
    if phase == DOUBLE:
        return judge.money_best(state.drawn, rng)[1]
    best_score = -1e9
    best_action: Action = PLAY_ONE[state.hands[seat][0]]
    ties = 1
    for c in state.hands[seat]:
        if KIND[c] == MONEY:
            score, action = judge.money_best(c, rng)
        else:
            score, action = judge.card(c, rng), PLAY_ONE[c]
        if score > best_score:
            best_score, best_action, ties = score, action, 1
        elif score == best_score:
            ties += 1
            if rng.below(ties) == 0:
                best_action = action
    return best_action


def _remove(state: Thieves) -> Action:
    """Roadblock: the police card with the most cars (the first of them on a tie)."""
    police = state.police
    best = police[0]
    for c in police:
        if CARS[c] > CARS[best]:
            best = c
    return REMOVES[best]


def _leader(fin: list[float], seat: int, n: int) -> tuple[int, float]:
    """The richest rival (the first in seat order on a tie) and its loot."""
    leader, rich = -1, -1e9
    for t in range(n):
        if t != seat and fin[t] > rich:
            leader, rich = t, fin[t]
    return leader, rich


class Judge:
    """The heuristic's scores of ``seat``'s plays in a sampled state, read through its eyes.

    A money card given to a seat scores its change to my lead over the richest rival, less
    the raid risk of keeping it, plus a bonus for dumping it on the leader; the other
    cards score as in the heuristic bot (a raid by its change to my lead, a Roadblock when
    I am the police's target, a Thief by its best move, Double Loot a flat 1.2).
    """

    __slots__ = (
        "below",
        "cars",
        "estimate",
        "fin",
        "guess",
        "is_target",
        "leader",
        "mine",
        "n",
        "outcome",
        "pressure",
        "raid",
        "rich",
        "seat",
        "state",
        "top",
    )

    def __init__(self, state: Thieves, seat: int) -> None:
        self.estimate = estimate = estimates(state, seat)
        fin, raid, guess, _ = estimate
        n = state.players
        self.state, self.seat, self.n = state, seat, n
        self.fin, self.raid, self.guess = fin, raid, guess
        self.leader, self.rich = _leader(fin, seat, n)
        cars = self.cars = state.cars
        self.pressure = cars / 4 if cars < 4 else 1.0
        top = self.top = max(raid)
        # How far my raid value lies below the police's target (<= 0.25: I am the target).
        self.below = top - raid[seat]
        self.is_target = raid[seat] > 0 and self.below <= 0.25
        self.mine = fin[seat]
        self.outcome: float | None = None

    def keep(self, card: int) -> float:
        """The score of a money card put face down in my own loot."""
        f = FINAL_VALUE[card]
        if RAID_VALUE[card] >= self.below:  # keeping it makes me (or keeps me) the target
            return f - self.pressure * 0.4 * (self.mine + f)
        return float(f)

    def give(self, card: int, t: int) -> float:
        """The score of a money card given to another seat ``t``."""
        after = self.fin[t] + FINAL_VALUE[card]
        rich = self.rich
        score = rich - after if after > rich else 0.0
        if t == self.leader:
            score += 0.5 + self.pressure * 0.3 * RAID_VALUE[card]
            if card == DIAMOND_RING:
                score += 1.5
        return score

    def money_best(self, card: int, rng: Rng) -> tuple[float, Action]:
        """The best seat for a money card and its score (ties broken at random)."""
        seat = self.seat
        best = self.keep(card)
        action = PLAY_TO[card][seat]
        ties = 1
        for t in range(self.n):
            if t == seat:
                continue
            score = self.give(card, t)
            if score > best:
                best, action, ties = score, PLAY_TO[card][t], 1
            elif score == best:
                ties += 1
                if rng.below(ties) == 0:
                    action = PLAY_TO[card][t]
        return best, action

    def raid_now(self) -> float:
        """How a raid now would change my lead (computed once)."""
        if self.outcome is None:
            self.outcome = _raid_outcome(
                self.raid, self.fin, self.top, self.seat, self.n, self.rich
            )
        return self.outcome

    def card(self, c: int, rng: Rng) -> float:
        """The score of playing a card that is not money."""
        kind = KIND[c]
        if kind == POLICE:
            if self.cars + CARS[c] >= 4:
                return 1.5 * self.raid_now()
            return -0.8 if self.is_target else 0.3
        if kind == ROADBLOCK:
            if not self.state.police:
                return -0.2
            return 0.5 + self.pressure * self.mine if self.is_target else -0.4
        if kind == THIEF:
            return 0.8 * _best_move(self.state, self.seat, self.estimate, rng)[0]
        if kind == ALARM:
            cars_held = sum(CARS[x] for x in self.state.hands[self.seat])
            return 1.2 * self.raid_now() if self.cars + cars_held + 1 >= 4 else 0.0
        return 1.2  # Double Loot: two more plays


def _raid_outcome(
    raid: list[float], fin: list[float], top: float, seat: int, n: int, rich: float
) -> float:
    """How a raid now changes my lead over the richest rival (its targets busted)."""
    if top <= 0:
        return 0.0
    after = [0.0 if top - raid[t] < 0.25 else fin[t] for t in range(n)]
    rival = max(after[t] for t in range(n) if t != seat)
    return (after[seat] - rival) - (fin[seat] - rich)


def _best_move(
    state: Thieves,
    seat: int,
    estimate: tuple[list[float], list[float], float, float],
    rng: Rng,
) -> tuple[float, Action]:
    """Thief: the follow-up that most improves my lead over the richest rival, and by how
    much: a move, or ``pass`` (0) when every move hurts (-0.2 and ``pass`` when there is no
    loot). A face-down card counts at the guesses; a card I take carries the raid risk of
    money kept face down when it makes me the police's target (as the heuristic bot)."""
    loot, n = state.loot, state.players
    fin, raid, guess, guess_raid = estimate
    pressure = state.cars / 4 if state.cars < 4 else 1.0
    mine = fin[seat]
    my_raid = raid[seat]
    best_score, best = -1e9, MOVES[0][0][1]
    ties = 1
    for f in range(n):
        row = loot[f]
        for slot, e in enumerate(row):
            seen = f == seat or e >= EXPOSED
            v = float(FINAL_OF[e]) if seen else guess
            for t in range(n):
                if t == f:
                    continue
                me = mine - v if f == seat else mine + v if t == seat else mine
                rival = -1e9
                for u in range(n):
                    if u != seat:
                        x = fin[u] - v if u == f else fin[u] + v if u == t else fin[u]
                        if x > rival:
                            rival = x
                score = me - rival
                if t == seat:
                    rv = float(RAID_OF[e]) if seen else guess_raid
                    top = my_raid + rv
                    if all(
                        (raid[u] - rv if u == f else raid[u]) <= top + 1e-9
                        for u in range(n)
                        if u != seat
                    ):
                        score -= pressure * 0.4 * me
                if score > best_score:
                    best_score, best, ties = score, MOVES[f][slot][t], 1
                elif score == best_score:
                    ties += 1
                    if rng.below(ties) == 0:
                        best = MOVES[f][slot][t]
    if best_score == -1e9:
        return -0.2, PASS
    change = best_score - (mine - _leader(fin, seat, n)[1])
    if change < 0:
        return 0.0, PASS
    if change == 0 and rng.below(ties + 1) == 0:
        return 0.0, PASS  # as good as any best move: one more tie
    return change, best


# The estimate for an unfinished game (only when a rollout is cut before the end): each
# seat's loot at its final value, the money in hand at half its value (it may yet be
# banked), the police's target losing its loot with the chance of a raid (the cars in
# play out of 4), as a soft-max in points.
HAND_MONEY = 0.5
TEMPERATURE = 2.0


def evaluate(state: Thieves) -> list[float]:
    """Each seat's estimated chance to win an unfinished game (see the constants above)."""
    loot = state.loot
    fin = [float(sum(map(_final, row))) for row in loot]
    raid = [sum(map(_raid, row)) for row in loot]
    top = max(raid)
    risk = min(state.cars, 4) / 4
    utils = []
    for s, hand in enumerate(state.hands):
        u = fin[s] + HAND_MONEY * sum(FINAL_VALUE[c] for c in hand)
        if top > 0 and raid[s] == top:
            u -= risk * fin[s]
        utils.append(u)
    return soft_max(utils, TEMPERATURE)


def action_class(state: Thieves, action: Action) -> tuple[object, ...]:
    """What makes an action different from another for the player choosing it: the kind
    and values of the card and where it goes, not which copy (two money 3s are the same
    play); a Thief's blind pick of another's face-down card, not which slot."""
    if type(action) is Play:
        c = CARD_INDEX[action.card]
        return (KIND[c], FINAL_VALUE[c], RAID_VALUE[c], action.to)
    if type(action) is Pass:
        return ("pass",)
    if type(action) is Move:
        e = state.loot[action.source][action.slot]
        seen = action.source == state.current or e >= EXPOSED
        return (
            "move",
            action.source,
            action.to,
            FINAL_OF[e] if seen else -1,
            RAID_OF[e] if seen else -1,
        )
    return ("remove", CARS[CARD_INDEX[action.card]])  # type: ignore[attr-defined]


class RolloutSearch(ISMCTSBot):
    """Thieves!'s ``ismcts``: information-set search with a tree of the root decision only.

    Each iteration samples a full state from the view (the determinizer), picks one of the
    root's moves by UCB1 (the guide keeps its third of the visits, as in ``ISMCTSBot``),
    then everyone -- this seat too -- plays on by the rollout policy, the heuristic's own
    rules, to the end of the game, and the winners' share is backed up. This is policy
    improvement over the heuristic: each move is judged by how the game goes on when it
    is followed by heuristic play. A deeper tree (``ISMCTSBot``) spends its visits on this
    seat's later moves, which it tries at random before it knows them (screened: no better
    than the heuristic; ``docs/ladder-thieves.md``). Moves that differ only by the copy of
    a card or the face-down slot picked blind share one statistic. The rollouts play by
    ``self.policy`` (the base class's ``policy=``; by default the spec's rollout policy):
    the level-2 search plays them by the level-1 model of ``model.py`` instead.
    """

    def search(self, view: dict[str, object]) -> Node:
        self._moves: list[Action] | None = None
        return super().search(view)

    def _iterate(self, root: Node, sampled: State) -> None:
        state = cast(Thieves, sampled)
        rng = self.rng
        me = self.seat
        apply = state.apply_trusted
        policy = self.policy
        moves = self._moves
        if moves is None:
            moves = self._moves = _distinct(state, state.legal_actions(me), self.guided)
        children = root.children
        anchor = self.guided if self.guided in moves else None
        untried = [a for a in moves if a not in children]
        if anchor is not None and anchor not in children:
            untried = [anchor]
        if untried:
            action = rng.choice(untried)
            child = children[action] = Node(me)
        elif anchor is not None and children[anchor].visits * 3 < root.visits:
            action = anchor  # the guide keeps a third of the root's visits
            child = children[action]
        else:
            c_param = self.exploration
            log_n = math.log(root.visits + 1)
            best_score, action = -1.0, moves[0]
            for a in moves:
                c = children[a]
                score = c.reward / c.visits + c_param * math.sqrt(log_n / c.visits)
                if score > best_score:
                    best_score, action = score, a
            child = children[action]
        for a in children:
            children[a].available += 1
        apply(me, action)
        depth = self.rollout_depth
        while depth and (to_act := state.to_act):
            seat = to_act[0]
            apply(seat, policy(state, seat, rng))
            depth -= 1
        reward = self.hooks.evaluate(state)[me]
        root.visits += 1
        child.visits += 1
        child.reward += reward
        child.square += reward * reward


class RacingSearch(PairedRootSearch):
    """Thieves!'s ``ismcts-strong``: paired comparisons of the root's moves, with racing.

    Thieves! is a game of the draw: which move wins a rollout depends far more on the
    deck's order than on the move, so separate statistics per move (``RolloutSearch``)
    need many rollouts to tell moves a few points apart. Here every sample is one full
    state drawn from the view (the determinizer; never the true state), and every move
    still in the race is played on a copy of that same state, followed by rollouts by
    the heuristic's rules to the end of the game that share one random stream (common
    random numbers): the moves are compared on the same hidden cards, the same deck order
    and the same luck, so the noise common to all of them cancels in their differences.
    Moves that differ only by a card's copy or a blind slot are one move
    (:func:`action_class`). After ``warm`` samples, and every ``every`` samples after,
    a move whose paired mean trails the leader's by more than ``z`` standard errors
    leaves the race, and the budget (rollouts: moves x samples) goes to the moves still
    in it. The guide's move (the heuristic's) is overruled when it leaves the race (it
    trailed by more than ``z`` standard errors) or when, at the end, the leader's paired
    mean beats it by more than ``confidence`` standard errors; else it is played.
    ``last_race`` keeps the last decision's moves (the guide's first) and rewards.
    """

    warm = 24
    every = 8
    z = 2.0
    last_race: tuple[list[Action], list[list[float]]] = ([], [])

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        guided = self.guide.act(view, legal) if self.guide is not None else legal[0]
        self.guided = guided
        sample = self.sampler(view)
        rng = self.rng
        first = cast(Thieves, sample(rng))
        moves = _distinct(first, list(legal), guided)
        if len(moves) == 1:
            return moves[0]
        rewards = self.race(sample, first, moves)
        self.last_race = (moves, rewards)
        n = max(len(r) for r in rewards)
        alive = [i for i, r in enumerate(rewards) if len(r) == n]
        best = max(alive, key=lambda i: sum(rewards[i]))
        if best == 0 or 0 not in alive:
            return moves[best]
        mean, error = _paired(rewards[best], rewards[0])
        return moves[best] if mean > self.confidence * error else moves[0]

    def race(self, sample: Any, first: Thieves, moves: list[Action]) -> list[list[float]]:
        """Each move's rewards, one per sample it was played on (a move that left the
        race has fewer: its samples are the first ones of the others')."""
        me = self.seat
        evaluate = self.hooks.evaluate
        rng = self.rng
        rewards: list[list[float]] = [[] for _ in moves]
        alive = list(range(len(moves)))
        budget = self.iterations if self.iterations is not None else 10**12
        deadline = time.perf_counter() + self.seconds if self.seconds else math.inf
        deadline = min(deadline, self.deadline)  # (the server's: see Bot in core.plugin)
        done = n = 0
        while (
            len(alive) > 1
            and done + len(alive) <= max(budget, len(alive))
            and (n == 0 or time.perf_counter() < deadline)
        ):
            state = sample(rng) if n else first
            seed = rng.next64()
            n += 1
            for i in alive:
                copy = state.clone()
                self._play(copy, moves[i], Rng(seed))
                rewards[i].append(evaluate(copy)[me])
            done += len(alive)
            if n >= self.warm and n % self.every == 0:
                leader = max(alive, key=lambda i: sum(rewards[i]))
                alive = [
                    i
                    for i in alive
                    if i == leader or _upper(rewards[i], rewards[leader], self.z) >= 0
                ]
        self.last_iterations = done
        return rewards


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """The mean of the paired differences ``a - b`` (over their common samples) and its
    standard error."""
    d = [x - y for x, y in zip(a, b, strict=False)]
    n = len(d)
    if n < 2:
        return 0.0, 1.0
    mean = sum(d) / n
    var = max(0.0, sum((x - mean) ** 2 for x in d) / (n - 1))
    return mean, math.sqrt(var / n)


def _upper(a: list[float], b: list[float], z: float) -> float:
    mean, error = _paired(a, b)
    return mean + z * error


def _distinct(state: Thieves, legal: list[Action], guided: Action | None) -> list[Action]:
    """One action per :func:`action_class` (the guide's own, where it is legal)."""
    first: dict[tuple[object, ...], Action] = {}
    if guided is not None and guided in legal:
        first[action_class(state, guided)] = guided
    for a in legal:
        first.setdefault(action_class(state, a), a)
    return list(first.values())


class ThievesSearch(SearchHooks):
    """The search hooks of Thieves!: the determinizer read once per view, rollouts to the
    end of the game by the heuristic's rules, and an estimated chance to win."""

    def sampler(self, view: Mapping[str, Any]) -> Callable[[Rng], State]:
        """Read the view once; each call draws a new determinization."""
        return Determinizer(self.spec, view).sample

    def rollout_action(self, state: State, seat: int, rng: Rng) -> Action:
        """A cheap, sensible rollout policy on a sampled full state (:func:`rollout_action`)."""
        return rollout_action(cast(Thieves, state), seat, rng)

    def defaults(self) -> dict[str, Any]:
        """Rollouts play the game to its end (a game of 4 lasts about 30 decisions, 60 at
        most in thousands of games; 200 leaves room), everyone by the heuristic's rules."""
        return {"rollout_depth": 200, "confidence": 0.5}

    def evaluate(self, state: State) -> list[float]:
        """A reward in [0, 1] per seat: finished, the winners share 1; else each seat's
        estimated chance to win (:func:`evaluate`: a soft-max over loot, money in hand and
        raid risk)."""
        if state.result() is not None or not isinstance(state, Thieves):
            return share(state)
        return evaluate(state)


__all__ = [
    "Judge",
    "RacingSearch",
    "RolloutSearch",
    "ThievesSearch",
    "action_class",
    "estimates",
    "evaluate",
    "rollout_action",
]
