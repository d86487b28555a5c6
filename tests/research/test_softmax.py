"""The softmax play-model fit shared by the games' level-1 models."""

from __future__ import annotations

import math

import numpy as np
import pytest
from research.softmax import fit, score


def test_score_of_known_chances() -> None:
    # Two plays with features 0 and 1: with weight ln 3 they have chances 1/4 and 3/4.
    data = [([[0.0], [1.0]], 1), ([[0.0], [1.0]], 0), ([[0.0], [1.0], [0.0]], 1)]
    result = score(np.array([math.log(3)]), data)
    assert result["loglik"] == pytest.approx((math.log(0.75) + math.log(0.25) + math.log(0.6)) / 3)
    assert result["uniform_loglik"] == pytest.approx(-(2 * math.log(2) + math.log(3)) / 3)
    assert result["top_accuracy"] == pytest.approx(2 / 3)


def test_fit_recovers_the_share_of_choices() -> None:
    # 30 of 40 choices take the play with feature 1: unpenalised, the weight is ln 3.
    data = [([[0.0], [1.0]], 1)] * 30 + [([[0.0], [1.0]], 0)] * 10
    assert fit(data, l2=0.0)[0] == pytest.approx(math.log(3), abs=1e-6)
