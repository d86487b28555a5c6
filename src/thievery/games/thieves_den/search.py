"""Thieves Den's search: the hooks (the determinizer read once per view, a cheap rollout
policy on sampled states, a position estimate) and its search bot, :class:`MemoryBot`,
which remembers the hands it passed in Scouting."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from thievery.bots.ismcts import ISMCTSBot
from thievery.core.protocol import JSON, Action, State
from thievery.core.rng import Rng
from thievery.core.search import SearchHooks, share
from thievery.core.setup import soft_max
from thievery.games.thieves_den.actions import (
    TREASURE_INDEX,
    Burgle,
    ChooseLocation,
    ChooseOpponent,
    ChooseTreasure,
    Fence,
    Give,
    Pick,
    Power,
    Recruit,
    ReturnFence,
    Steal,
    Witch,
)
from thievery.games.thieves_den.bots import THIEF_VALUE, Values, is_forced
from thievery.games.thieves_den.cards import FENCE_TYPES, LOCATION_TYPES, CardSet
from thievery.games.thieves_den.effects import (
    DESTROY,
    LIMIT,
    MOVE,
    PAY,
    SWAP,
)
from thievery.games.thieves_den.rules import OVER, ROUNDS, ThievesDen
from thievery.games.thieves_den.view import Determinizer


class FastJudge(Values):
    """The heuristic's values (``bots.Judge``) for one seat, read from a full state."""

    __slots__ = (
        "base",
        "cs",
        "gain",
        "have",
        "held",
        "need",
        "seat",
        "state",
        "supply",
        "thieves",
        "value",
    )

    def __init__(self, state: ThievesDen, seat: int) -> None:
        self.state = state
        cs = self.cs = state.cs
        self.seat = seat
        have = self.have = state.treasure[seat]
        self.held = have[0] + have[1] + have[2] + have[3] + have[4]
        self.supply = state.supply
        self.thieves = state.thieves[seat]
        base = self.base = 0.6 if state.round >= ROUNDS else 1.4
        # What the Fences in the row and the free Witch spots need (bots.Judge._needs).
        need = [0.0] * 5
        weights = _fence_weights(cs)
        need_of = cs.fence_need
        for f in state.fence_row:
            if f < 0:
                continue
            pairs = need_of[f]
            missing = 0
            for t, k in pairs:
                if k > have[t]:
                    missing += k - have[t]
            if missing > 3:
                continue
            w = weights[f] / (1 + missing)
            for t, k in pairs:
                if k > have[t]:
                    need[t] += w
        witch = state.witch
        for t in range(5):
            if not witch[t] and cs.witch[t] > 2:
                need[t] += (cs.witch[t] - 2.0) * 0.4
        self.need = [x if x < 2.5 else 2.5 for x in need]
        self.value = [base + x for x in self.need]
        self.gain = -1

    def treasure(self, t: int) -> float:
        """What one more treasure of type ``t`` is worth."""
        return self.value[t]

    def best_gain(self) -> int:
        """The most useful treasure type still in the supply."""
        if self.gain < 0:
            options = [t for t in range(5) if self.supply[t]] or list(range(5))
            value = self.value
            self.gain = max(options, key=lambda t: (value[t], -t))
        return self.gain

    def fence(self, f: int) -> float:
        """Selling to Fence card ``f``: its Prestige, a majority hope, less the goods."""
        cs, state = self.cs, self.state
        desire = cs.fence_desire[f]
        spent = sum(desire[t] * (self.base + 0.5 * self.need[t]) for t in range(5))
        kind = cs.fence_type[f]
        counts = [0] * state.players
        for s in range(state.players):
            for x in state.fences[s]:
                counts[s] += cs.fence_type[x] == kind
            for x in state.fences_collected[s]:
                counts[s] += cs.fence_type[x] == kind
        mine = counts[self.seat]
        best_other = max((k for s, k in enumerate(counts) if s != self.seat), default=0)
        majority = cs.majority[kind] * (0.6 if mine + 1 > best_other else 0.2)
        return cs.fence_prestige[f] + majority - spent * 0.6 - THIEF_VALUE * 0.5

    def scheme_gain(self, card: int) -> float:
        """How much collecting Location ``card`` helps this seat's Scheme."""
        cs, state = self.cs, self.state
        k = state.scheme[self.seat]
        if k < 0:
            return 0.0
        a, b = cs.scheme_types[k]
        t = cs.loc_type[card]
        if t != a and t != b:
            return 0.0
        counts = [0] * len(LOCATION_TYPES)
        for c in state.collected[self.seat]:
            counts[cs.loc_type[c]] += 1
        for c in state.up[self.seat]:
            counts[cs.loc_type[c]] += 1
        before = min(counts[a], counts[b])
        counts[t] += 1
        after = min(counts[a], counts[b])
        return cs.scheme_prestige[k] * (0.9 if after > before else 0.45)


# Per card set, as long as it lives (keyed by the set itself, not its id: a freed set's
# id is given to the next one made, which read the old set's weights).
_WEIGHTS: weakref.WeakKeyDictionary[CardSet, list[float]] = weakref.WeakKeyDictionary()


def _fence_weights(cs: CardSet) -> list[float]:
    """Per Fence card: its Prestige per treasure desired (made once per card set)."""
    weights = _WEIGHTS.get(cs)
    if weights is None:
        weights = [p / t for p, t in zip(cs.fence_prestige, cs.fence_total, strict=True)]
        _WEIGHTS[cs] = weights
    return weights


def _best(values: list[float], rng: Rng) -> int:
    """The index of the largest value, ties broken at random."""
    top = max(values)
    ties = [i for i, v in enumerate(values) if v == top]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def rollout_action(state: ThievesDen, seat: int, rng: Rng) -> Action:
    """The heuristic bot's choice for ``seat``, computed from a sampled full state.

    It reads a sampled full state (a determinization), never a true one: the heuristic bot
    (``bots.py``) rewritten to read the state's arrays instead of a JSON view, with the
    same values in Prestige (a treasure's base plus what the Fences in the row and the free
    Witch spots need, a thief at about one Prestige, abilities summed step by step, the
    Scheme) and the same choices, at a few microseconds a decision. So in a rollout the
    other seats play about as the heuristic opponents would, and the search's statistics
    measure what a move is worth against them.
    """
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    judge = FastJudge(state, seat)
    cs = state.cs
    kind = type(legal[0])
    if kind is Pick:
        index = cs.loc_index
        values = [_pick_value(judge, index[a.card]) for a in legal]  # type: ignore[attr-defined]
    elif kind is ChooseTreasure:
        return _treasure(judge, state, legal)
    elif kind is ChooseOpponent:
        prestige = state.prestige
        return max(legal, key=lambda a: (prestige[a.seat], -a.seat))  # type: ignore[attr-defined]
    elif kind is Give:
        seats = [a.seat for a in legal]  # type: ignore[attr-defined]
        return legal[seats.index(seat) if seat in seats else 0]
    elif kind is ChooseLocation:
        values = [_location_value(judge, state, a) for a in legal]
    elif kind is ReturnFence:
        index = cs.fence_index
        values = [-judge.fence(index[a.card]) for a in legal]  # type: ignore[attr-defined]
    else:
        values = [_action_value(judge, state, a) for a in legal]
    return legal[_best(values, rng)]


def _pick_value(judge: FastJudge, c: int) -> float:
    cs = judge.cs
    value = judge.steps(cs.loc_ability[c])
    if not cs.loc_instant[c]:
        value = 0.6 * value + 0.7 * judge.steps(cs.loc_bonus[c])
    return value + judge.scheme_gain(c)


def _action_value(judge: FastJudge, state: ThievesDen, action: Action) -> float:
    cs = judge.cs
    kind = type(action)
    if kind is Steal:
        c = cs.loc_index[action.card]  # type: ignore[attr-defined]
        value = judge.steps(cs.loc_ability[c]) - THIEF_VALUE
        owner = state.loc_owner[c]
        if owner == judge.seat:
            value += 0.7 * THIEF_VALUE  # the thief comes back at cleanup
        elif owner >= 0:
            value -= 0.3 * judge.steps(cs.loc_bonus[c])
        return value
    if kind is Fence:
        return judge.fence(cs.fence_index[action.card])  # type: ignore[attr-defined]
    if kind is Witch:
        t = TREASURE_INDEX[action.treasure]  # type: ignore[attr-defined]
        return cs.witch[t] - judge.treasure(t) * 0.8
    if kind is Burgle:
        return judge.treasure(TREASURE_INDEX[action.treasure]) - 2 * THIEF_VALUE  # type: ignore[attr-defined]
    if kind is Recruit:
        if state.thieves[judge.seat] > 0 or not state.supply_thieves:
            return -1.0
        a = TREASURE_INDEX[action.first]  # type: ignore[attr-defined]
        b = TREASURE_INDEX[action.second]  # type: ignore[attr-defined]
        return 1.5 * THIEF_VALUE - judge.treasure(a) * 0.5 - judge.treasure(b) * 0.5
    if kind is Power:
        tile = cs.power_index[action.tile]  # type: ignore[attr-defined]
        pay = TREASURE_INDEX[action.pay]  # type: ignore[attr-defined]
        return _power_value(judge, state, tile) - judge.treasure(pay)
    return 0.0  # pass, skip


def _follow_ups(
    judge: FastJudge, state: ThievesDen, occupied: bool, forced: bool = False
) -> list[float]:
    """Values of the Steal and Fence actions a follow-up could take now, best first, with
    0 for skipping it (``forced``: only when there is nothing to take)."""
    cs = judge.cs
    if state.thieves[judge.seat] < 1:
        return [0.0]
    values = []
    on = state.on_loc
    for group in (*state.up, state.neutral):
        for c in group:
            if (on[c] > 0) is occupied and not cs.loc_paid[c]:
                values.append(judge.steps(cs.loc_ability[c]) - THIEF_VALUE)
    fences = [f for fs in state.fences for f in fs] if occupied else state.fence_row
    have = judge.have
    for f in fences:
        if f >= 0 and all(have[t] >= k for t, k in cs.fence_need[f]):
            values.append(judge.fence(f))
    if not (forced and values):
        values.append(0.0)
    values.sort(reverse=True)
    return values


def _power_value(judge: FastJudge, state: ThievesDen, tile: int) -> float:
    name = judge.cs.power_id[tile]
    if name == "switcheroo":
        return _switcheroo(judge, state)
    forced = is_forced(judge.cs, tile, state.options)
    if name == "double-up":
        return THIEF_VALUE + _follow_ups(judge, state, True, forced)[0]
    if name in ("recall", "sleight"):
        thieved = any(state.on_loc[c] for up in state.up for c in up)
        if name == "recall":
            return 1.8 if thieved else 0.0
        return THIEF_VALUE + _follow_ups(judge, state, False)[0] if thieved else 0.0
    if name not in ("busy-night", "scout-ahead", "new-buyers", "inside-job"):
        return judge.steps(judge.cs.power_ability[tile])
    follow = _follow_ups(judge, state, False, forced)
    if name == "busy-night":
        return follow[0] + (follow[1] if len(follow) > 1 else 0.0) * 0.8
    if name == "scout-ahead":
        return 2.0 + follow[0] * 0.7
    if name == "new-buyers":
        return 1.2 + follow[0] * 0.6
    return follow[0] + 1.0  # inside-job


def _switcheroo(judge: FastJudge, state: ThievesDen) -> float:
    """The best swap now (``bots.Values.swap_value``); 0 when there is none."""
    on, seat = state.on_loc, judge.seat
    mine = [judge.swap_value(c, on[c]) for c in state.up[seat]]
    theirs = [
        judge.swap_value(c, on[c])
        for s in range(state.players)
        if s != seat and not state.passed[s]
        for c in state.up[s]
    ]
    return max(theirs) - min(mine) if mine and theirs else 0.0


def _location_value(judge: FastJudge, state: ThievesDen, action: Action) -> float:
    cs = judge.cs
    c = cs.loc_index[action.card]  # type: ignore[attr-defined]
    op, _, a, _, _ = state.queue[-1] if state.queue else (-1, 0, -1, 0, 0)
    if op == MOVE and a >= 0:  # where to move the thief
        return judge.steps(cs.loc_ability[c])
    if op == SWAP:
        value = judge.swap_value(c, state.on_loc[c])
        return -value if a < 0 else value  # give away the least, take the most
    # Recall or a thief to move: hurt the leader, never ourselves.
    owner = state.loc_owner[c]
    if owner < 0:
        return 0.5
    if owner == judge.seat:
        return -1.0
    return 1.0 + state.prestige[owner] / 10


def _treasure(judge: FastJudge, state: ThievesDen, legal: Sequence[Action]) -> Action:
    choices = [a for a in legal if type(a) is ChooseTreasure]  # never skip an "up to" gain
    types = [TREASURE_INDEX[a.treasure] for a in choices]
    op, _, a, _, _ = state.queue[-1] if state.queue else (-1, 0, -1, 0, 0)
    if op in (LIMIT, PAY):
        t = judge.least_useful(types)
    elif op == DESTROY:
        theirs = state.treasure[a]
        t = max(types, key=lambda k: (theirs[k], -k))
    else:
        t = max(types, key=lambda k: (judge.treasure(k), -k))
    return choices[types.index(t)]


def estimates(state: ThievesDen) -> list[float]:
    """Each seat's estimated final Prestige: Prestige so far, the Scheme sets collected (a
    half set at half), the majority bonuses it leads, and what its treasures and thieves
    may still earn (nothing once the game is over)."""
    cs = state.cs
    n = state.players
    left = 0 if state.phase == OVER else ROUNDS - state.round + 1
    treasure_value = 0.5 + 0.4 * min(left, 2)
    thief_value = 0.3 * min(left, 2)
    out = []
    for s in range(n):
        types = [0] * len(LOCATION_TYPES)
        for c in state.collected[s]:
            types[cs.loc_type[c]] += 1
        for c in state.up[s]:
            types[cs.loc_type[c]] += 1
        a, b = cs.scheme_types[state.scheme[s]]
        sets = min(types[a], types[b]) + 0.5 * (types[a] != types[b] and left > 1)
        out.append(
            state.prestige[s]
            + sets * cs.scheme_prestige[state.scheme[s]]
            + treasure_value * sum(state.treasure[s])
            + thief_value * state.thieves[s]
        )
    for k in range(len(FENCE_TYPES)):
        counts = [0] * n
        for s in range(n):
            for f in state.fences[s]:
                counts[s] += cs.fence_type[f] == k
            for f in state.fences_collected[s]:
                counts[s] += cs.fence_type[f] == k
        best = max(counts)
        if best and counts.count(best) == 1:
            out[counts.index(best)] += cs.majority[k] * 0.7
    return out


def evaluate(state: ThievesDen, temperature: float = 5.0) -> list[float]:
    """A soft-max over :func:`estimates`: each seat's estimated chance to win."""
    return soft_max(estimates(state), temperature)


class MemoryBot(ISMCTSBot):
    """ISMCTS for Thieves Den that remembers the hands it held in this round's Scouting.

    Hands travel whole round the table, so a hand this seat saw and passed on is known
    (less the picks made from it, which are revealed). The view shows only the current
    hand; the bot keeps its earlier ones and hands them to the determinizer with the
    view (``"passed_hands"``, read by ``view._passed_hands``). Only the seat's own views
    go in: nothing it could not remember at the table.
    """

    def __init__(self, game: str, seat: int, rng: Rng, **settings: Any) -> None:
        super().__init__(game, seat, rng, **settings)
        self.hands: list[tuple[int, list[str]]] = []

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        if legal and legal[0].type == "pick":  # a hand as this seat picks from it
            round_no = view["round"]
            self.hands = [h for h in self.hands if h[0] == round_no]
            self.hands.append((round_no, list(view["hand"])))
            view = {**view, "passed_hands": [[r, cards] for r, cards in self.hands]}
        return super().act(view, legal)


class ThievesDenSearch(SearchHooks):
    """The search hooks of Thieves Den: the determinizer read once per view, rollouts by
    the heuristic's rules to the end of the round, and an estimate of the final Prestige."""

    def sampler(self, view: Mapping[str, Any]) -> Callable[[Rng], State]:
        """Read the view once (``view.Determinizer``); each call draws a new
        determinization, exactly as ``spec.determinize`` does."""
        return Determinizer(self.spec, view).sample

    def rollout_action(self, state: State, seat: int, rng: Rng) -> Action:
        """A cheap rollout policy on a sampled full state: the heuristic bot's choice,
        read from the state's arrays (:func:`rollout_action`)."""
        return rollout_action(cast(ThievesDen, state), seat, rng)

    def rollout_horizon(self, state: State) -> Any:
        """Rollouts end with the current round (its Cleanup scored): the next round's
        deal and draft swamp the difference between two moves."""
        return state.round if isinstance(state, ThievesDen) else None

    def defaults(self) -> dict[str, Any]:
        """Rollouts long enough to reach the end of the round (a round has fewer than
        80 decisions at 5 players)."""
        return {"rollout_depth": 80}

    def evaluate(self, state: State) -> list[float]:
        """Finished, the winners share 1; else a soft-max over each seat's estimated
        final Prestige (:func:`estimates`)."""
        if state.result() is not None or not isinstance(state, ThievesDen):
            return share(state)
        return evaluate(state)


__all__ = ["FastJudge", "MemoryBot", "ThievesDenSearch", "estimates", "evaluate", "rollout_action"]
