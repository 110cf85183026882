"""Exact coverage of medvqa's difference and weighted-accuracy intervals on independent items.

Below :data:`~medvqa.stats._intervals.BOOTSTRAP_MIN_UNITS` independent items the rule always
gives the closed-form interval, a function of the counts alone; so its coverage is a finite
sum, Σ P(outcome) over the outcomes whose interval holds the truth — no Monte Carlo error.
``medvqa bench --only intervals`` reports these sums for its independent cells (the
clustered ones, and 300 items, where the bootstrap may apply, are simulated).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from medvqa.stats import (
    BOOTSTRAP_MIN_UNITS,
    PairedSums,
    WeightedSums,
    paired_bounds,
    weighted_bounds,
)


class ExactCoverage(NamedTuple):
    """An interval's behaviour summed over every outcome.

    Attributes:
        coverage: probability that the interval holds the truth.
        width: expected width.
        zero_width: outcomes (of any probability) whose interval has zero width.
    """

    coverage: float
    width: float
    zero_width: int


def _summed(pmf: np.ndarray, lo: np.ndarray, hi: np.ndarray, truth: float) -> ExactCoverage:
    holds = (lo <= truth + 1e-12) & (truth - 1e-12 <= hi)
    return ExactCoverage(float(pmf[holds].sum()), float(np.sum(pmf * (hi - lo))),
                         int(np.sum(hi - lo <= 1e-12)))


def _log_choose(n: np.ndarray, k: np.ndarray) -> np.ndarray:
    from scipy.special import gammaln

    return np.asarray(gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1))


class PairedOutcomes(NamedTuple):
    """Every table of n independent pairs and medvqa's interval of its difference.

    Attributes:
        counts: tables × (a, b, c, d): both right, A only, B only, neither.
        low: the interval's lower bound of each table.
        high: its upper bound.
    """

    counts: np.ndarray
    low: np.ndarray
    high: np.ndarray


@functools.lru_cache(maxsize=64)
def paired_outcomes(n: int) -> PairedOutcomes:
    """:class:`PairedOutcomes` of n pairs (cached: the exact sums of many cells share them)."""
    if n >= BOOTSTRAP_MIN_UNITS:
        raise ValueError(f"{n} pairs: the rule may keep the bootstrap; simulate instead")
    a, b, c = (v.ravel().astype(float) for v in np.indices((n + 1,) * 3))
    keep = a + b + c <= n
    a, b, c = a[keep], b[keep], c[keep]
    total = np.full(len(a), float(n))
    # Independent pairs: every unit one pair, so the design effect is 1 (ss is not read).
    lo, hi, _ = paired_bounds(PairedSums(a, b, c, total, np.zeros(len(a)), total, total))
    return PairedOutcomes(np.stack([a, b, c, total - a - b - c], -1), lo, hi)


def exact_paired(n: int, cells: np.ndarray, truth: float) -> ExactCoverage:
    """The paired interval on n independent pairs of cell probabilities (p11, p10, p01, p00).

    Every table (a, b, c, d) with a + b + c + d = n, weighted by its multinomial probability.

    >>> round(exact_paired(10, np.array([0.5, 0.25, 0.05, 0.2]), 0.2).coverage, 4)
    0.9477
    """
    from scipy.stats import multinomial

    out = paired_outcomes(n)
    return _summed(multinomial.pmf(out.counts, n, cells), out.low, out.high, truth)


def exact_weighted(n: int, share: float, accuracies: tuple[float, float]) -> ExactCoverage:
    """The weighted-accuracy interval on n independent items of two gold classes.

    Class 1 holds Binomial(n, ``share``) items, each class's items are right with its own
    accuracy; a set with one class only has that class's accuracy as its weighted accuracy.
    The truth is the mean of the two accuracies.

    >>> round(exact_weighted(10, 0.4, (0.95, 0.85)).coverage, 4)
    0.939
    """
    if n >= BOOTSTRAP_MIN_UNITS:
        raise ValueError(f"{n} items: the rule may keep the bootstrap; simulate instead")
    m1, x0, x1 = (v.ravel().astype(float) for v in np.indices((n + 1,) * 3))
    m0 = n - m1
    keep = (x0 <= m0) & (x1 <= m1)
    m0, m1, x0, x1 = m0[keep], m1[keep], x0[keep], x1[keep]
    a0, a1 = accuracies
    with np.errstate(divide="ignore"):
        log_pmf = (_log_choose(np.full(len(m1), float(n)), m1) + m1 * np.log(share)
                   + m0 * np.log1p(-share)
                   + _log_choose(m0, x0) + x0 * np.log(a0) + (m0 - x0) * np.log1p(-a0)
                   + _log_choose(m1, x1) + x1 * np.log(a1) + (m1 - x1) * np.log1p(-a1))
    pmf = np.exp(log_pmf)
    items = np.full(len(m1), float(n))
    zero = np.zeros(len(m1))
    bounds = weighted_bounds(WeightedSums(np.stack([x0, x1], -1), np.stack([m0, m1], -1),
                                          zero, items, items, zero))
    return _summed(pmf, bounds.low, bounds.high, float(np.mean(accuracies)))
