"""A learned model of how Thieves!'s ``ismcts`` level plays, a rollout policy for a search
above it (measured not stronger, so no registered level uses it); :func:`level_one_action`
says how and why."""

from __future__ import annotations

from thievery.core.protocol import Action, State
from thievery.core.rng import Rng
from thievery.core.setup import soft_max
from thievery.games.thieves.actions import PLAY_ONE, PLAY_TO
from thievery.games.thieves.cards import (
    ALARM,
    CARS,
    DIAMOND_RING,
    FINAL_VALUE,
    GETAWAYS_TO_END,
    KIND,
    MONEY,
    POLICE,
    RAID_VALUE,
    ROADBLOCK,
    THIEF,
)
from thievery.games.thieves.rules import DOUBLE, PLAY, Thieves
from thievery.games.thieves.search import Judge, rollout_action

FEATURES = (
    "heuristic",  # the heuristic's score of the play
    "best",  # the heuristic scores it highest (ties included)
    "keep",  # money put face down in my own loot
    "keep_value",  # ... times its final value / 3
    "keep_risk",  # ... times the police's pressure (cars / 4)
    "keep_late",  # ... times the getaways placed / 7
    "keep_target",  # ... when it makes (or keeps) me the police's target
    "give",  # money given to a rival who is not the leader
    "give_leader",  # money given to the richest rival
    "give_value",  # ... either, times its final value / 3
    "give_ring",  # the Diamond Ring given to a rival
    "police_raid",  # a police card that starts a raid
    "police",  # a police card that does not
    "roadblock",  # a Roadblock
    "thief",  # a Thief
    "alarm",  # an Alarm
    "double",  # a Double Loot
    "action_late",  # any card that is not money, times the getaways placed / 7
)
(HEURISTIC, BEST, KEEP, KEEP_VALUE, KEEP_RISK, KEEP_LATE, KEEP_TARGET, GIVE, GIVE_LEADER,
 GIVE_VALUE, GIVE_RING, POLICE_RAID, POLICE_QUIET, ROADBLOCK_F, THIEF_F, ALARM_F, DOUBLE_F,
 ACTION_LATE) = range(len(FEATURES))  # fmt: skip
_KIND_FEATURE = {ROADBLOCK: ROADBLOCK_F, THIEF: THIEF_F, ALARM: ALARM_F}

# A play's sparse features: (feature index, value) pairs; all others are 0.
Row = list[tuple[int, float]]


def card_key(card: int) -> tuple[int, int, int, int]:
    """What tells one card from another to a player choosing a play (not its copy)."""
    return (KIND[card], FINAL_VALUE[card], RAID_VALUE[card], CARS[card])


def plays(state: Thieves, seat: int, rng: Rng) -> tuple[list[Action], list[Row]]:
    """The distinct plays open to ``seat`` (one per kind of card, values and seat it goes
    to; copies of a card are one play) with their features, in a PLAY or DOUBLE phase.

    ``rng`` only breaks the heuristic's ties inside a Thief's best move; the features do
    not depend on it."""
    judge = Judge(state, seat)
    late = len(state.getaways) / GETAWAYS_TO_END
    if state.phase == DOUBLE:
        cards = [state.drawn]
    else:
        seen: set[tuple[int, int, int, int]] = set()
        cards = []
        for c in state.hands[seat]:
            key = card_key(c)
            if key not in seen:
                seen.add(key)
                cards.append(c)
    actions: list[Action] = []
    rows: list[Row] = []
    for c in cards:
        kind = KIND[c]
        if kind == MONEY:
            value = FINAL_VALUE[c] / 3
            for t in range(judge.n):
                actions.append(PLAY_TO[c][t])
                if t == seat:
                    row = [
                        (HEURISTIC, judge.keep(c)),
                        (KEEP, 1.0),
                        (KEEP_VALUE, value),
                        (KEEP_RISK, judge.pressure),
                        (KEEP_LATE, late),
                    ]
                    if RAID_VALUE[c] >= judge.below:
                        row.append((KEEP_TARGET, 1.0))
                else:
                    row = [
                        (HEURISTIC, judge.give(c, t)),
                        (GIVE_LEADER if t == judge.leader else GIVE, 1.0),
                        (GIVE_VALUE, value),
                    ]
                    if c == DIAMOND_RING:
                        row.append((GIVE_RING, 1.0))
                rows.append(row)
            continue
        actions.append(PLAY_ONE[c])
        if kind == POLICE:
            feature = POLICE_RAID if judge.cars + CARS[c] >= 4 else POLICE_QUIET
        else:
            feature = _KIND_FEATURE.get(kind, DOUBLE_F)
        rows.append([(HEURISTIC, judge.card(c, rng)), (feature, 1.0), (ACTION_LATE, late)])
    top = max(row[0][1] for row in rows)
    for row in rows:
        if row[0][1] >= top - 1e-9:
            row.append((BEST, 1.0))
    return actions, rows


def dense(row: Row) -> list[float]:
    """A play's features as a full vector (in ``FEATURES`` order)."""
    out = [0.0] * len(FEATURES)
    for i, v in row:
        out[i] += v
    return out


# Fitted by research/fit_thieves_model.py; see that file for the command and the fit.
WEIGHTS: tuple[float, ...] = (
    0.04,
    3.129,
    0.046,
    2.094,
    -0.875,
    -0.065,
    -0.064,
    -0.465,
    -0.039,
    1.986,
    0.452,
    -0.573,
    0.361,
    0.042,
    0.403,
    -0.004,
    0.23,
    1.218,
)


def scores(rows: list[Row], weights: tuple[float, ...] = WEIGHTS) -> list[float]:
    """The model's score of each play: the weighted sum of its features."""
    return [sum(weights[i] * v for i, v in row) for row in rows]


def probabilities(
    state: Thieves, seat: int, weights: tuple[float, ...] = WEIGHTS
) -> tuple[list[Action], list[float]]:
    """The model's chance of each distinct play of ``seat`` (PLAY or DOUBLE phase)."""
    actions, rows = plays(state, seat, Rng(0))
    return actions, soft_max(scores(rows, weights))


def level_one_action(state: State, seat: int, rng: Rng) -> Action:
    """The level-1 rollout policy: plays by the fitted model, follow-ups as level 0.

    Level-k reasoning: the rollout policy (level 0, ``search.rollout_action``) is the
    heuristic bot's own scoring; ``ismcts`` searches for the best reply to opponents who
    play it (level 1). The level-2 search (``RolloutSearch(..., policy=level_one_action)``;
    measured in ``docs/ladder-thieves.md``, not stronger, so no registered level uses it
    now) models every seat as a level-1 player instead: when a seat plays a card (or places
    a Double Loot money card), its rollouts draw the play from a softmax over a few
    features of each distinct play, read through the eyes of that seat (its hand, its own
    loot, the loot it has seen, the police and the getaways; never another seat's hidden
    cards): the heuristic's own score of the play, whether the heuristic would pick it,
    and the kind of play with a few interactions. The weights are fitted by maximum
    likelihood to the choices ``ismcts`` bots made in self-play. A Roadblock's and a
    Thief's follow-ups keep the rollout policy.

    The weights come from ``research/fit_thieves_model.py`` (fixed seeds; its header says
    how to re-make them), which also reports how well the model predicts held-out choices.
    """
    assert isinstance(state, Thieves)
    if state.phase != PLAY and state.phase != DOUBLE:
        return rollout_action(state, seat, rng)
    actions, rows = plays(state, seat, rng)
    return actions[rng.pick(soft_max(scores(rows)))]
