"""The adaptive estimate's standard error against a Monte Carlo of what it models."""

from __future__ import annotations

import numpy as np
import pytest

from medvqa.irt import AdaptiveSession, AdaptiveSettings, ItemBank, sigmoid
from medvqa.irt._session import THETA_GRID


def test_the_estimates_se_is_the_spread_of_what_it_predicts_calibration_counted_once() -> None:
    """200 answered items fix the ability; 20 unasked items have uncertain parameters.

    Drawing the ability from its posterior, each unasked item's (a, d) from its covariance and
    its outcome from those gives the real spread of the full-benchmark count: the SE must be
    it. Adding the calibration's delta-method variance on top of the Bernoulli variance of the
    averaged probability (which already holds it) made the SE about 7 % too wide here.
    """
    rng = np.random.default_rng(0)
    known, unknown = 200, 20
    a = np.r_[np.full(known, 2.0), rng.uniform(0.5, 2.0, unknown)]
    d = np.r_[rng.uniform(-3, 3, known), rng.uniform(-2, 2, unknown)]
    cov = np.zeros((known + unknown, 2, 2))
    cov[known:] = [[0.3, 0.1], [0.1, 0.8]]
    bank = ItemBank(a, d, cov)
    session = AdaptiveSession(bank, AdaptiveSettings(), np.random.default_rng(1))
    y = rng.random(known) < sigmoid(a[:known] * 0.3 + d[:known])
    for i in range(known):
        session.record(i, bool(y[i]))
    est = session.estimate()

    log_p, log_q = bank.subset(np.arange(known)).log_prob(THETA_GRID)
    log_post = -0.5 * THETA_GRID**2 + (y[:, None] * log_p + (1 - y[:, None]) * log_q).sum(0)
    w = np.exp(log_post - log_post.max())
    draws = 60_000
    theta = rng.choice(THETA_GRID, size=draws, p=w / w.sum())
    params = np.stack([a[known:], d[known:]], -1)[None] + np.einsum(
        "ijk,nik->nij", np.linalg.cholesky(cov[known:]), rng.standard_normal((draws, unknown, 2)))
    p = sigmoid(params[..., 0] * theta[:, None] + params[..., 1])
    total = (rng.random(p.shape) < p).sum(axis=1) + y.sum()
    n = known + unknown
    assert est.value * n == pytest.approx(total.mean(), abs=0.1)
    assert est.se * n == pytest.approx(total.std(), rel=0.02)
