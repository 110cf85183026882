"""Intervals that keep their coverage at every n: score intervals on an effective sample size.

A percentile bootstrap of a proportion is the Wald interval in disguise: on 10 items with 9
right it says [0.70, 1.00], and on 10 of 10 it says [1.00, 1.00] — coverage 0.65 at p = 0.9.
Below :data:`BOOTSTRAP_MIN_UNITS` resampling units, or with fewer than
:data:`BOOTSTRAP_MIN_COUNT` items of the rarer outcome, medvqa's figures get closed-form
intervals instead (:func:`bootstrap_applies` is the rule):

- a proportion (accuracy, invalid rate, accuracy over valid answers, every breakdown row):
  the **Wilson score interval** (Wilson 1927; the interval Brown, Cai & DasGupta 2001, Stat Sci
  16:101, recommend for small n: Clopper–Pearson covers 0.99 and more at n = 10–30, Jeffreys
  and the mid-p interval dip to 0.92 at n = 100, p = 0.97), widened at 0 or n items right to
  the exact Clopper–Pearson bound ((α/2)^(1/n)) where that is wider, so no interval is ever
  narrower than the exact one at the edge, and none has zero width (this module);
- a paired difference (clean − control, model A − model B): **Newcombe's square-and-add
  interval on Jeffreys intervals** of the two accuracies (MOVER-NJ;
  :mod:`medvqa.stats._paired_interval`), never of zero width;
- weighted (balanced) accuracy: the **Wilson score interval on Kish's effective sample
  size** of its class weights (:mod:`medvqa.stats._weighted_interval`).

Where items share a case (a patient with several questions), each is applied to the
**effective sample size** n / D (Kish 1965): D, the design effect, is the cluster-robust
variance of the figure (cases as units, with the K / (K − 1) small-sample factor) over its
variance were the items independent, kept within [1, Σm²/n] (m: items per case; the upper
bound treats every case as one observation of its size). Where the data cannot say, D is
that upper bound: every item alike (no spread to measure), or the rarer outcome held by fewer
than :data:`FEW_HOLDERS` cases and fewer than a :data:`HOLDER_SHARE` of them (three wrong
answers in three of 120 cases look independent whether or not the case's other items would
have failed too; at p = 0.97 with an ICC of 0.3 such sets are common, and estimating D from
them left the interval covering 0.927 instead of 0.95). Items that share no case have D = 1
and the interval is the plain one. ``medvqa bench --only intervals`` measures the coverage of
each method on simulated sets of 5–300 items, independent and clustered.

>>> lo, hi = score_bounds(np.array([10.0]), np.array([10.0]))
>>> round(float(lo[0]), 4), float(hi[0])
(0.6915, 1.0)
>>> rate_interval(np.array([1.0] * 9 + [0.0])).method
'wilson'
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from medvqa.stats._tests import dense_labels

#: Two-sided level of every interval.
LEVEL = 0.95
#: Resampling units (cases when clustered, else items) from which a block keeps the bootstrap.
BOOTSTRAP_MIN_UNITS = 300
#: … and the fewest items of the rarer outcome (effective: divided by the design effect; for
#: a paired difference the discordant pairs; for weighted accuracy in every class).
BOOTSTRAP_MIN_COUNT = 10

#: The design effect is not estimated (its bound is used) when fewer cases than this …
FEW_HOLDERS = 3
#: … and than this share of the cases hold the rarer outcome (the discordant pairs of a Δ).
HOLDER_SHARE = 0.25

#: metrics.json's ``method`` of each interval (docs/formats.md).
WILSON = "wilson"
WILSON_ESS = "wilson-ess"
NEWCOMBE = "newcombe-jeffreys"
NEWCOMBE_ESS = "newcombe-jeffreys-ess"
KISH = "wilson-kish"
KISH_ESS = "wilson-kish-ess"
BOOTSTRAP = "bootstrap"
#: No interval: the bootstrap gave every resample the same value (e.g. macro-F1 of 1 on every
#: resample of a small all-correct set); a zero-width interval would claim certainty.
DEGENERATE = "none (bootstrap degenerate)"
#: Methods of metrics.json files written before the present rule (read, never written).
EARLIER_TEXT: dict[str, str] = {
    "tango": "Tango score interval of a paired difference",
    "tango-ess": "Tango score interval of a paired difference, effective sample size",
    "mover-wilson": "per-class Wilson intervals combined by MOVER",
    "mover-wilson-ess": "per-class Wilson intervals combined by MOVER, effective sample size",
}

#: What each method is, in words (the report's methods paragraph and the console's legend).
METHOD_TEXT: dict[str, str] = {
    WILSON: "Wilson score interval (Clopper–Pearson bound at 0 or n)",
    WILSON_ESS: "Wilson score interval on the effective sample size (cases repeat)",
    NEWCOMBE: "Newcombe square-and-add interval of a paired difference on Jeffreys intervals",
    NEWCOMBE_ESS: "Newcombe square-and-add interval of a paired difference on Jeffreys "
                  "intervals, effective sample size",
    KISH: "Wilson score interval on Kish's effective sample size of the class weights",
    KISH_ESS: "Wilson score interval on Kish's effective sample size of the class weights "
              "over the design effect",
    BOOTSTRAP: "percentile bootstrap (cases resampled when clustered)",
    DEGENERATE: "no interval: every bootstrap resample gave the same value",
    **EARLIER_TEXT,
}

#: Short tag of each method printed after an interval (the legend explains them).
METHOD_TAG: dict[str, str] = {WILSON: "W", WILSON_ESS: "W", NEWCOMBE: "N", NEWCOMBE_ESS: "N",
                              KISH: "K", KISH_ESS: "K", BOOTSTRAP: "B", "tango": "T",
                              "tango-ess": "T", "mover-wilson": "M", "mover-wilson-ess": "M"}

#: The rule, as metrics.json's readers are told it (docs/report.md gives the reasons).
RULE_TEXT = (
    f"Proportions get Wilson score intervals, paired differences Newcombe's square-and-add "
    f"interval on Jeffreys intervals and weighted accuracy a Wilson interval on Kish's "
    f"effective sample size of its class weights, each on the effective sample size n / "
    f"design effect where items share a case; the percentile bootstrap is kept from "
    f"{BOOTSTRAP_MIN_UNITS} resampling units (cases, or items) with at least "
    f"{BOOTSTRAP_MIN_COUNT} items of the rarer outcome (discordant pairs for a difference, "
    f"in every class for weighted accuracy), and for macro-F1, region and open-answer scores.")


class ClosedInterval(NamedTuple):
    """A closed-form interval and how it was made.

    Attributes:
        low: lower bound.
        high: upper bound.
        method: one of the method names above (``wilson``, ``wilson-ess``, …).
        design_effect: the design effect the sample size was divided by (1 when items are
            independent).
        rarer: effective count of the rarer outcome (discordant pairs for a difference; the
            smallest over classes for weighted accuracy), what :func:`bootstrap_applies` reads.
    """

    low: float
    high: float
    method: str
    design_effect: float
    rarer: float


def z_of(level: float = LEVEL) -> float:
    """The two-sided normal quantile of ``level`` (1.959964 at 0.95)."""
    from scipy.stats import norm

    return float(norm.ppf(0.5 + level / 2))


def bootstrap_applies(units: int, rarer: float) -> bool:
    """Whether a block keeps its percentile bootstrap (many units, both outcomes common).

    >>> bootstrap_applies(300, 10.0), bootstrap_applies(299, 50.0), bootstrap_applies(500, 3.0)
    (True, False, False)
    """
    return bool(bootstrap_mask(np.asarray(units), np.asarray(rarer)))


def bootstrap_mask(units: np.ndarray, rarer: np.ndarray) -> np.ndarray:
    """:func:`bootstrap_applies` of many sets at once (arrays of units and rarer counts)."""
    return np.asarray((units >= BOOTSTRAP_MIN_UNITS) & (rarer >= BOOTSTRAP_MIN_COUNT))


def wilson_bounds(x: np.ndarray, n: np.ndarray,
                  level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score bounds of x successes in n trials (arrays; non-integer counts allowed).

    The same numbers as ``statsmodels.stats.proportion.proportion_confint(method="wilson")``,
    without importing statsmodels and pandas (seconds) at scoring time.

    >>> lo, hi = wilson_bounds(np.array([9.0]), np.array([10.0]))
    >>> round(float(lo[0]), 4), round(float(hi[0]), 4)
    (0.5958, 0.9821)
    """
    x, n = np.asarray(x, dtype=float), np.asarray(n, dtype=float)
    z2 = z_of(level) ** 2
    with np.errstate(invalid="ignore", divide="ignore"):
        p = x / n
        denom = 1 + z2 / n
        centre = (p + z2 / (2 * n)) / denom
        half = np.sqrt(z2 * np.maximum(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denom
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def score_bounds(x: np.ndarray, n: np.ndarray,
                 level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Wilson bounds, widened to the exact Clopper–Pearson bound at x = 0 or x = n.

    At the edge the exact bound ((1 − level) / 2)^(1/n) is wider than Wilson's below n ≈ 40
    (10 of 10: 0.692 against 0.722); the wider is kept, so an all-correct set is never
    reported more precisely than the exact interval allows.

    >>> lo, hi = score_bounds(np.array([0.0]), np.array([10.0]))
    >>> float(lo[0]), round(float(hi[0]), 4)
    (0.0, 0.3085)
    """
    x, n = np.asarray(x, dtype=float), np.asarray(n, dtype=float)
    lo, hi = wilson_bounds(x, n, level)
    alpha = (1 - level) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        edge = alpha ** (1 / n)
    tol = 1e-9 * np.maximum(n, 1.0)
    top, bottom = x >= n - tol, x <= tol
    lo = np.where(top, np.minimum(lo, edge), np.where(bottom, 0.0, lo))
    hi = np.where(bottom, np.maximum(hi, 1 - edge), np.where(top, 1.0, hi))
    return lo, hi


def jeffreys_bounds(x: np.ndarray, n: np.ndarray,
                    level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Jeffreys bounds of x successes in n: Beta(x + ½, n − x + ½) quantiles (arrays).

    Equal-tailed, 0 at x = 0 and 1 at x = n (Brown, Cai & DasGupta 2001, Stat Sci 16:101);
    non-integer (effective) counts allowed. The interior is
    ``statsmodels.stats.proportion.proportion_confint(method="jeffreys")``; scipy's beta
    quantile computes it, without importing statsmodels at scoring time. Close to the mid-p
    interval (ibid.), it is the marginal interval of a paired difference here, not a
    proportion's own interval (it dips below 0.93 for a single rate at n = 100, p = 0.97).

    >>> lo, hi = jeffreys_bounds(np.array([9.0, 10.0]), np.array([10.0, 10.0]))
    >>> [round(float(v), 4) for v in lo], [round(float(v), 4) for v in hi]
    ([0.6187, 0.7828], [0.989, 1.0])
    """
    from scipy.stats import beta

    x, n = np.asarray(x, dtype=float), np.asarray(n, dtype=float)
    alpha = (1 - level) / 2
    tol = 1e-9 * np.maximum(n, 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = beta.ppf(alpha, x + 0.5, np.maximum(n - x, 0.0) + 0.5)
        hi = beta.ppf(1 - alpha, x + 0.5, np.maximum(n - x, 0.0) + 0.5)
    lo = np.where(x <= tol, 0.0, lo)
    hi = np.where(x >= n - tol, 1.0, hi)
    return np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)


def few_holders(holders: np.ndarray, units: np.ndarray) -> np.ndarray:
    """Whether too few cases hold the rarer outcome to estimate a design effect from.

    >>> few_holders(np.array([2, 2, 3]), np.array([40, 6, 40])).tolist()
    [True, False, False]
    """
    return np.asarray((holders < FEW_HOLDERS) & (holders < HOLDER_SHARE * units))


def design_effect(v_cluster: np.ndarray, v_independent: np.ndarray,
                  most: np.ndarray) -> np.ndarray:
    """v_cluster / v_independent kept within [1, most]; ``most`` where v_independent is 0.

    >>> design_effect(np.array([2.0, 0.5, 0.0]), np.array([1.0, 1.0, 0.0]),
    ...               np.array([3.0, 3.0, 3.0])).tolist()
    [2.0, 1.0, 3.0]
    """
    v_cluster, v_independent = np.asarray(v_cluster, float), np.asarray(v_independent, float)
    most = np.asarray(most, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.clip(v_cluster / v_independent, 1.0, np.maximum(most, 1.0))
    return np.asarray(np.where(v_independent > 1e-300, ratio, np.maximum(most, 1.0)))


class UnitSums(NamedTuple):
    """What a proportion's interval needs of its rows, summed (arrays: one entry per set).

    Attributes:
        x: items right (successes).
        n: items.
        ss: Σ over units of (x_k − p̂·n_k)², the units' squared residuals.
        mm: Σ over units of n_k² (n when every unit is one item).
        k: units.
        h: units holding the rarer outcome (some success when x ≤ n − x, else some failure).
    """

    x: np.ndarray
    n: np.ndarray
    ss: np.ndarray
    mm: np.ndarray
    k: np.ndarray
    h: np.ndarray


def unit_sums(hits: np.ndarray, units: np.ndarray | None) -> UnitSums:
    """The :class:`UnitSums` of one set of 0/1 rows (``units``: labels per row, or None)."""
    hits = np.asarray(hits, dtype=float)
    n = float(len(hits))
    x = float(hits.sum())
    if units is None or not len(hits):
        per_hits, per_n = hits, np.ones(len(hits))
    else:
        inverse = dense_labels(np.asarray(units))
        per_hits = np.bincount(inverse, weights=hits)
        per_n = np.bincount(inverse).astype(float)
    p = x / n if n else 0.0
    ss = float(np.sum((per_hits - p * per_n) ** 2))
    rare = per_hits if x <= n - x else per_n - per_hits
    return UnitSums(*(np.array([v]) for v in (x, n, ss, float(np.sum(per_n ** 2)),
                                                float(len(per_n)),
                                                float(np.count_nonzero(rare)))))


def rate_bounds(s: UnitSums, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray,
                                                             np.ndarray]:
    """(low, high, design effect) of proportions from their :class:`UnitSums` (vectorised)."""
    n, x, k = s.n, s.x, s.k
    with np.errstate(invalid="ignore", divide="ignore"):
        p = x / n
        v_cl = np.where(k > 1, k / np.maximum(k - 1, 1) * s.ss / (n * n), 0.0)
        deff = design_effect(v_cl, p * (1 - p) / n, s.mm / n)
    deff = np.where(few_holders(s.h, k), np.maximum(s.mm / n, 1.0), deff)
    deff = np.where(s.mm > n, deff, 1.0)  # no case repeats: independent items
    lo, hi = score_bounds(x / deff, n / deff, level)
    return lo, hi, deff


def rate_interval(hits: np.ndarray, units: np.ndarray | None = None,
                  level: float = LEVEL) -> ClosedInterval:
    """The score interval of a proportion of 0/1 ``hits`` (``units``: case of each row).

    >>> r = rate_interval(np.array([1.0] * 8 + [0.0] * 2), np.array([0, 0, 1, 1, 2, 2, 3, 3,
    ...                   4, 4]))
    >>> r.method, round(r.design_effect, 3), round(r.low, 3), round(r.high, 3)
    ('wilson-ess', 2.0, 0.376, 0.964)
    """
    s = unit_sums(hits, units)
    if not s.n[0]:
        return ClosedInterval(float("nan"), float("nan"), WILSON, 1.0, 0.0)
    lo, hi, deff = rate_bounds(s, level)
    d = float(deff[0])
    clustered = bool(s.mm[0] > s.n[0])
    rarer = float(min(s.x[0], s.n[0] - s.x[0]) / d)
    return ClosedInterval(float(lo[0]), float(hi[0]), WILSON_ESS if clustered else WILSON, d,
                          rarer)
