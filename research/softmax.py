"""Fitting a softmax play model (a conditional logit) to a bot's recorded choices.

A decision is the feature vectors of the plays open to a seat and the index of the one it
played; the model gives each play the chance ``exp(w . x) / sum exp(w . x')``. The games'
level-1 models (e.g. ``games/schattendieb/model.py``) are fitted with :func:`fit` by their
``research/fit_*_model.py`` scripts.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

Decision = tuple[Sequence[Sequence[float]], int]  # the plays' features, the one played
Floats = NDArray[np.float64]


def arrays(data: Sequence[Decision]) -> tuple[Floats, NDArray[np.bool_], NDArray[np.int64]]:
    """Decisions as padded arrays: features (decision, play, feature), which plays are
    real, and the index of the one played."""
    width = max(len(x) for x, _ in data)
    k = len(data[0][0][0])
    feats = np.zeros((len(data), width, k))
    real = np.zeros((len(data), width), dtype=bool)
    for i, (x, _) in enumerate(data):
        feats[i, : len(x)] = x
        real[i, : len(x)] = True
    return feats, real, np.array([c for _, c in data], dtype=np.int64)


def chances(w: Floats, feats: Floats, real: NDArray[np.bool_]) -> Floats:
    """The softmax over each decision's real plays."""
    s = np.where(real, feats @ w, -np.inf)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return np.asarray(p / p.sum(axis=1, keepdims=True))


def fit(data: Sequence[Decision], l2: float = 1e-2, steps: int = 100) -> Floats:
    """Maximum-likelihood weights: Newton's method on the log-likelihood less
    ``l2 / 2 * |w|^2``, all decisions at once, each step halved until it does not lose."""
    feats, real, chosen = arrays(data)
    k = feats.shape[2]
    rows = np.arange(len(data))

    def objective(w: Floats) -> float:
        p = chances(w, feats, real)
        return float(np.log(p[rows, chosen]).sum() - l2 / 2 * w @ w)

    w = np.zeros(k)
    value = objective(w)
    for _ in range(steps):
        p = chances(w, feats, real)
        mean = np.einsum("nm,nmk->nk", p, feats)
        grad = feats[rows, chosen].sum(axis=0) - mean.sum(axis=0) - l2 * w
        second = np.einsum("nm,nmk,nml->kl", p, feats, feats) - mean.T @ mean
        step = np.linalg.solve(second + l2 * np.eye(k), grad)
        while (new := objective(w + step)) < value and np.abs(step).max() > 1e-12:
            step /= 2
        w, value = w + step, max(new, value)
        if np.abs(step).max() < 1e-8:
            break
    return w


def score(w: Floats, data: Sequence[Decision]) -> dict[str, float]:
    """Mean log-likelihood a decision (the model's and a uniform guess's) and how often
    the model's likeliest play is the one played."""
    feats, real, chosen = arrays(data)
    rows = np.arange(len(data))
    p = chances(w, feats, real)
    return {
        "loglik": float(np.log(p[rows, chosen]).mean()),
        "uniform_loglik": float(-np.log(real.sum(axis=1)).mean()),
        "top_accuracy": float((p[rows, chosen] == p.max(axis=1)).mean()),
    }
