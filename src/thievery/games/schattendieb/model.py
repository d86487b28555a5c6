"""A learned model of how the ``ismcts`` level plays step 1, the rollout policy of the
level above it (``ismcts-strong``); :func:`level_one_action` says how and why."""

from __future__ import annotations

from thievery.core.protocol import Action, State
from thievery.core.rng import Rng
from thievery.core.setup import soft_max
from thievery.games.schattendieb.actions import PLAYS
from thievery.games.schattendieb.cards import ANY_KIND, CATEGORY, CLOSE, JEWEL, KIND, VALUE
from thievery.games.schattendieb.rules import PLAY, Schattendieb
from thievery.games.schattendieb.search import rollout_action

FEATURES = (
    "close",  # a Close Safe card that would close the safe now
    "close_total",  # ... times the safe's total / 20
    "close_last_two",  # ... when only two safes are open
    "close_rivals",  # ... times (open safes - 2) / 2
    "close_pile",  # ... times the draw pile's size / 80
    "close_lead_closed",  # ... times (the safe's total - the best closed safe's) / 20
    "close_lead_open",  # ... times (the safe's total - the best other open safe's) / 20
    "close_wasted",  # a Close Safe card that would be discarded
    "shadow",  # the Shadow Thief
    "thief",  # a kind thief
    "thief_rivals",  # any thief, times (open safes - 1) / 3
    "jewel",  # a jewellery card
    "jewel_value",  # ... times its value / 10
    "jewel_same",  # ... times the values of the same kind in hand / 10
    "jewel_crowded",  # ... when the safe would outgrow the best Close Safe card in hand
)


def card_features(state: Schattendieb, seat: int, card: int) -> list[float]:
    """The features of playing ``card`` in step 1 (see ``FEATURES``)."""
    f = [0.0] * len(FEATURES)
    cat = CATEGORY[card]
    safe = state.safes[seat]
    open_seats = state.closed.count(-1)
    if cat == CLOSE:
        if 1 <= len(safe) <= VALUE[card]:
            f[0] = 1.0
            f[1] = sum(VALUE[c] for c in safe) / 20
            f[2] = 1.0 if open_seats == 2 else 0.0
            f[3] = (open_seats - 2) / 2
            f[4] = len(state.pile) / 80
            total = sum(VALUE[c] for c in safe)
            f[5] = (total - _best_safe(state, seat, closed=True)) / 20
            f[6] = (total - _best_safe(state, seat, closed=False)) / 20
        else:
            f[7] = 1.0
    elif cat == JEWEL:
        hand = state.hands[seat]
        same = [c for c in hand if c != card and CATEGORY[c] == JEWEL and KIND[c] == KIND[card]]
        best_close = max((VALUE[c] for c in hand if CATEGORY[c] == CLOSE), default=99)
        f[11] = 1.0
        f[12] = VALUE[card] / 10
        f[13] = sum(VALUE[c] for c in same) / 10
        f[14] = 1.0 if len(safe) + 1 + len(same) > best_close else 0.0
    else:
        f[8 if KIND[card] == ANY_KIND else 9] = 1.0
        f[10] = (open_seats - 1) / 3
    return f


def _best_safe(state: Schattendieb, seat: int, *, closed: bool) -> int:
    """The largest total among the other closed (or open) safes, 0 if none."""
    return max(
        (
            sum(VALUE[c] for c in state.safes[t])
            for t in range(state.players)
            if t != seat and (state.closed[t] >= 0) == closed
        ),
        default=0,
    )


# Fitted by `python -m research.fit_schattendieb_model --games 400 --workers 2` (800 self-play
# games of `ismcts`, 3 and 4 players): on the held-out half (6,633 decisions) the model
# scores a log-likelihood of -1.029 a decision (a uniform guess -1.386) and its likeliest
# card is the one played 66.5% of the time. Fitted under rules version 1; version 2 changed
# only step 4 (every seat with jewellery in front is asked; no Thief can be added), which
# the model does not cover (its features read step 1 only) and for which it was not refit.
WEIGHTS: tuple[float, ...] = (
    3.017,
    -0.149,
    -2.683,
    -9.166,
    2.007,
    2.596,
    0.247,
    -1.74,
    1.237,
    -0.82,
    0.558,
    -1.693,
    3.394,
    2.315,
    -2.411,
)


def play_scores(
    state: Schattendieb, seat: int, weights: tuple[float, ...] = WEIGHTS
) -> list[float]:
    """The model's score of each hand card (in hand order): the weighted sum of its
    ``card_features``, computed directly (this runs inside every rollout)."""
    (w_close, w_total, w_two, w_rivals, w_pile, w_lead_closed, w_lead_open, w_wasted,
     w_shadow, w_thief, w_thief_rivals, w_jewel, w_value, w_same, w_crowded) = weights  # fmt: skip
    hand = state.hands[seat]
    safe = state.safes[seat]
    size = len(safe)
    open_seats = state.closed.count(-1)
    total = sum(VALUE[c] for c in safe)
    close = 0.0
    if size:
        close = (
            w_close
            + w_total * total / 20
            + (w_two if open_seats == 2 else 0.0)
            + w_rivals * (open_seats - 2) / 2
            + w_pile * len(state.pile) / 80
            + w_lead_closed * (total - _best_safe(state, seat, closed=True)) / 20
            + w_lead_open * (total - _best_safe(state, seat, closed=False)) / 20
        )
    thief = w_thief_rivals * (open_seats - 1) / 3
    best_close = 99
    kind_values = [0, 0, 0, 0]
    kind_counts = [0, 0, 0, 0]
    for c in hand:
        cat = CATEGORY[c]
        if cat == JEWEL:
            kind_values[KIND[c]] += VALUE[c]
            kind_counts[KIND[c]] += 1
        elif cat == CLOSE and (best_close == 99 or VALUE[c] > best_close):
            best_close = VALUE[c]
    scores = []
    for c in hand:
        cat = CATEGORY[c]
        if cat == JEWEL:
            k = KIND[c]
            v = VALUE[c]
            crowded = size + kind_counts[k] > best_close
            scores.append(
                w_jewel
                + w_value * v / 10
                + w_same * (kind_values[k] - v) / 10
                + (w_crowded if crowded else 0.0)
            )
        elif cat == CLOSE:
            scores.append(close if 1 <= size <= VALUE[c] else w_wasted)
        else:
            scores.append((w_shadow if KIND[c] == ANY_KIND else w_thief) + thief)
    return scores


def play_probabilities(
    state: Schattendieb, seat: int, weights: tuple[float, ...] = WEIGHTS
) -> list[float]:
    """The model's chance of each hand card (in hand order) being played in step 1."""
    return soft_max(play_scores(state, seat, weights))


def level_one_action(state: State, seat: int, rng: Rng) -> Action:
    """The level-1 rollout policy: step 1 by the fitted model, the rest as level 0.

    Level-k reasoning: the rollout policy (level 0) is a cheap rule; ``ismcts`` searches
    for the best reply to opponents who play it (level 1). Measured, level-1 bots do not
    play like level 0: they time the closing of their safes differently (at 3 players far
    earlier, at 4 later and with more in the safe), so a search that still models its
    rivals as level 0 mistimes the race to close. ``ismcts-strong`` (level 2) models every
    seat as a level-1 player instead: in step 1 its rollouts draw each card from a softmax
    over a few features of the card and the seat's position as that seat sees it (its
    hand and safe, the face-up safes, which safes are closed, the pile's size; never
    another seat's hidden cards), with weights fitted by maximum likelihood to the choices
    ``ismcts`` bots made in self-play. The other steps keep the rollout policy.

    The weights come from ``research/fit_schattendieb_model.py`` (fixed seeds; its header
    says how to re-make them), which also reports how well the model predicts held-out
    choices.
    """
    assert isinstance(state, Schattendieb)
    if state.phase != PLAY:
        return rollout_action(state, seat, rng)
    return PLAYS[state.hands[seat][rng.pick(play_probabilities(state, seat))]]
