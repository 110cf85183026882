"""The trend test of a severity curve: one test of whether accuracy falls as it gets worse.

A corruption run at several severities is one claim, not one per severity. The items scored
clean and at every severity run of the curve (levels ℓ = 0 for clean, then e.g. 1, 3, 5) give
each resampling unit u (a case when cases repeat, else an item) a row h_u of items right per
level. The statistic is S = Σ_u Σ_ℓ (ℓ − ℓ̄)·h_uℓ; S / (N·Σ_ℓ (ℓ − ℓ̄)²) is the least-squares
slope of accuracy over severity on those N items. Under H0 (the corruption does not change the
outcome) the levels are exchangeable within each unit, so S is referred to its distribution
under independent random permutations of the levels within every unit: the stratified
linear-by-linear association test (Mantel 1963, J Am Stat Assoc 58:690; the Cochran–Mantel–
Haenszel "nonzero correlation" statistic with the units as strata), one-sided for a decline.

- Up to :data:`PERMUTATION_MAX_UNITS` units whose outcome changes with the level: SciPy's
  ``permutation_test`` (``permutation_type="samples"``: levels permuted within each unit,
  exact when there are few enough permutations, else Monte Carlo with the run's seed and
  resamples, p = (1 + #{S* ≤ S}) / (B + 1)).
- Beyond: the normal approximation with the exact permutation mean (0) and variance
  Σ_u Σ_ℓ (ℓ − ℓ̄)² · Σ_ℓ (h_uℓ − h̄_u)² / (L − 1).

Units whose outcome is the same at every level add a constant to S and nothing to its spread;
they are left out of the permutations (the p-value is unchanged).

>>> from medvqa.rng import rng_for
>>> t = trend_test((0, 1, 3), np.array([[1, 1, 0]] * 6 + [[1, 1, 1]] * 4), np.arange(10), 999,
...                rng_for(0, "doc"))
>>> round(t.slope, 4), t.test, t.p_value
(-0.2143, 'stratified trend permutation (999)', 0.004)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Units whose outcome changes with the level beyond which the normal approximation is used
#: (the permutation distribution of a sum of that many independent strata is close to normal,
#: and Monte Carlo would cost units × resamples × levels).
PERMUTATION_MAX_UNITS = 500


@dataclass(frozen=True)
class TrendResult:
    """The trend test of one severity curve.

    Attributes:
        levels: severity levels compared, 0 (the baseline) first.
        accuracy: accuracy at each level on the ``n`` items scored at every level.
        n: items scored at every level of the curve.
        slope: least-squares slope of accuracy per severity level (negative: it falls);
            NaN without items.
        test: the test used, in words.
        p_value: one-sided p of "accuracy falls with severity".
    """

    levels: tuple[int, ...]
    accuracy: tuple[float, ...]
    n: int
    slope: float
    test: str
    p_value: float


def trend_test(levels: Sequence[int], outcomes: np.ndarray, units: np.ndarray, resamples: int,
               rng: np.random.Generator) -> TrendResult:
    """One-sided test that accuracy falls with the level (see the module docstring).

    Args:
        levels: the L levels, 0 (the baseline) first, increasing.
        outcomes: items × L array of 0/1 outcomes (1 = right), every item at every level.
        units: resampling unit of each item (integer labels); items of one unit are permuted
            together (the same permutation of levels for the whole case).
        resamples: Monte Carlo permutations when the exact distribution is too large.
        rng: the seeded generator of the permutations.

    Returns the test; p is 1 when no unit's outcome changes with the level.
    """
    lv = np.asarray(levels, dtype=float)
    outcomes = np.asarray(outcomes, dtype=float).reshape(-1, len(lv))
    n = len(outcomes)
    accuracy = tuple(float(a) for a in outcomes.mean(axis=0)) if n else (float("nan"),) * len(lv)
    c = lv - lv.mean()
    ss = float(np.sum(c * c))
    slope = float(np.dot(c, outcomes.mean(axis=0)) / ss) if n and ss else float("nan")
    if n == 0 or len(lv) < 2:
        return TrendResult(tuple(levels), accuracy, n, slope, "none (no items)", 1.0)
    _, inverse = np.unique(np.asarray(units), return_inverse=True)
    inverse = inverse.reshape(-1)
    h = np.zeros((int(inverse.max()) + 1, len(lv)))
    np.add.at(h, inverse, outcomes)
    h = h[np.ptp(h, axis=1) > 0]  # units whose outcome varies with the level
    if not len(h):
        return TrendResult(tuple(levels), accuracy, n, slope,
                           "none (no item changes with severity)", 1.0)
    if len(h) > PERMUTATION_MAX_UNITS:
        return TrendResult(tuple(levels), accuracy, n, slope,
                           "stratified trend z (normal approximation)", _normal_p(h, c))
    from math import factorial

    from scipy.stats import permutation_test

    def statistic(*cols: np.ndarray, axis: int = -1) -> np.ndarray:
        return np.asarray(sum(w * np.sum(col, axis=axis) for w, col in zip(c, cols, strict=True)))

    if len(h) == 1:  # SciPy wants two strata; one of zeros adds 0 to every S*
        h = np.vstack([h, np.zeros_like(h)])
    exact = factorial(len(lv)) ** len(h) <= resamples
    res = permutation_test(tuple(h.T), statistic, permutation_type="samples", vectorized=True,
                           n_resamples=resamples, alternative="less", rng=rng,
                           batch=max(1, 2_000_000 // (len(h) * len(lv))))
    name = "stratified trend permutation " + ("(exact)" if exact else f"({resamples:,})")
    return TrendResult(tuple(levels), accuracy, n, slope, name, float(min(1.0, res.pvalue)))


def _normal_p(h: np.ndarray, c: np.ndarray) -> float:
    """One-sided p of S from its exact permutation mean (0) and variance, normal tail."""
    from scipy.stats import norm

    s = float(np.sum(h @ c))
    dev = h - h.mean(axis=1, keepdims=True)
    var = float(np.sum(c * c) * np.sum(dev * dev) / (len(c) - 1))
    return float(norm.cdf(s / np.sqrt(var))) if var > 0 else 1.0
