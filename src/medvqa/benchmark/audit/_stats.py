"""The two tests of the shortcut checks (pure functions over counts).

- :func:`poisson_binomial_sf`: P(X ≥ x) for a sum of independent Bernoulli trials with
  per-trial probabilities (the cue follower's hits under "the answer sits at random among the
  options"), exact: the binomial distributions of each distinct probability, convolved.
- :func:`chi_square_gof`: Pearson's χ² of observed counts against expected counts that need
  not be equal (each item contributes 1/k to each of its k letters), df = categories − 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np


def signif(x: float, digits: int = 4) -> float:
    """``x`` to ``digits`` significant digits (stable bytes in audit.json).

    >>> signif(0.000123456), signif(12345.678)
    (0.0001235, 12350.0)
    """
    if x == 0 or not np.isfinite(x):
        return float(x)
    return float(f"{x:.{digits}g}")


def poisson_binomial_sf(x: int, trials: Mapping[float, int]) -> float:
    """P(X ≥ x) where X sums ``n`` Bernoulli(p) trials for each ``p → n`` of ``trials``.

    >>> from scipy.stats import binom
    >>> round(poisson_binomial_sf(7, {0.25: 20}), 6) == round(float(binom.sf(6, 20, 0.25)), 6)
    True
    >>> poisson_binomial_sf(0, {0.5: 3})
    1.0
    """
    from scipy.signal import fftconvolve
    from scipy.stats import binom

    total = sum(n for n in trials.values() if n > 0)
    # Direct convolution keeps tiny tails exact; past 20,000 trials the FFT's rounding
    # (about 1e-16 of the largest term) bounds how small a p-value can be told apart.
    convolve = np.convolve if total <= 20_000 else fftconvolve
    pmf = np.ones(1)
    for p, n in sorted(trials.items()):
        if n <= 0:
            continue
        part = binom.pmf(np.arange(n + 1), n, p)
        pmf = np.clip(convolve(pmf, part), 0.0, None) if len(pmf) > 1 else part
    if x <= 0:
        return 1.0
    if x >= len(pmf):
        return 0.0
    return float(min(1.0, pmf[x:].sum()))


class ChiSquare(NamedTuple):
    """Result of a χ² test."""

    statistic: float
    df: int
    p_value: float


def chi_square_gof(observed: Mapping[str, float], expected: Mapping[str, float]) -> ChiSquare:
    """Pearson's χ² of ``observed`` against ``expected`` over the categories of ``expected``.

    >>> r = chi_square_gof({"A": 30, "B": 10}, {"A": 20.0, "B": 20.0})
    >>> r.statistic, r.df, round(r.p_value, 5)
    (10.0, 1, 0.00157)
    """
    from scipy.stats import chi2

    keys = [k for k in sorted(expected) if expected[k] > 0]
    stat = sum((observed.get(k, 0) - expected[k]) ** 2 / expected[k] for k in keys)
    df = len(keys) - 1
    p = float(chi2.sf(stat, df)) if df > 0 else 1.0
    return ChiSquare(float(stat), df, p)
