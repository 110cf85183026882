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
  narrower than the exact one at the edge, and none has zero width;
- a paired difference (clean − control, model A − model B): **Tango's score interval**
  (Tango 1998, Stat Med 17:891), the paired analogue of Wilson's: never zero width, and
  non-degenerate with no discordant pair;
- weighted (balanced) accuracy: the per-class score intervals combined by **MOVER** (Zou &
  Donner 2008, Stat Med 27:1693; Newcombe's square-and-add).

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
TANGO = "tango"
TANGO_ESS = "tango-ess"
MOVER = "mover-wilson"
MOVER_ESS = "mover-wilson-ess"
BOOTSTRAP = "bootstrap"
#: No interval: the bootstrap gave every resample the same value (e.g. macro-F1 of 1 on every
#: resample of a small all-correct set); a zero-width interval would claim certainty.
DEGENERATE = "none (bootstrap degenerate)"

#: What each method is, in words (the report's methods paragraph and the console's legend).
METHOD_TEXT: dict[str, str] = {
    WILSON: "Wilson score interval (Clopper–Pearson bound at 0 or n)",
    WILSON_ESS: "Wilson score interval on the effective sample size (cases repeat)",
    TANGO: "Tango score interval of a paired difference",
    TANGO_ESS: "Tango score interval of a paired difference, effective sample size",
    MOVER: "per-class Wilson intervals combined by MOVER",
    MOVER_ESS: "per-class Wilson intervals combined by MOVER, effective sample size",
    BOOTSTRAP: "percentile bootstrap (cases resampled when clustered)",
    DEGENERATE: "no interval: every bootstrap resample gave the same value",
}

#: Short tag of each method printed after an interval (the legend explains them).
METHOD_TAG: dict[str, str] = {WILSON: "W", WILSON_ESS: "W", TANGO: "T", TANGO_ESS: "T",
                              MOVER: "M", MOVER_ESS: "M", BOOTSTRAP: "B"}

#: The rule, as metrics.json's readers are told it (docs/report.md gives the reasons).
RULE_TEXT = (
    f"Proportions get Wilson score intervals, paired differences Tango score intervals and "
    f"weighted accuracy per-class Wilson intervals combined by MOVER, each on the effective "
    f"sample size n / design effect where items share a case; the percentile bootstrap is "
    f"kept from {BOOTSTRAP_MIN_UNITS} resampling units (cases, or items) with at least "
    f"{BOOTSTRAP_MIN_COUNT} items of the rarer outcome (discordant pairs for a difference), "
    f"and for macro-F1, region and open-answer scores.")


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


def _tango_z(b: np.ndarray, c: np.ndarray, n: np.ndarray, d0: np.ndarray) -> np.ndarray:
    """Tango's score statistic of the paired difference d0 (decreasing in d0)."""
    a2 = 2 * n
    b2 = -b - c + (2 * n - b + c) * d0
    c2 = -c * d0 * (1 - d0)
    p21 = (-b2 + np.sqrt(np.maximum(b2 * b2 - 4 * a2 * c2, 0.0))) / (2 * a2)
    v = n * (2 * p21 + d0 * (1 - d0))
    num = b - c - n * d0
    with np.errstate(invalid="ignore", divide="ignore"):
        z = num / np.sqrt(np.maximum(v, 1e-300))
    edge = np.where(num > 0, np.inf, np.where(num < 0, -np.inf, 0.0))
    return np.asarray(np.where(v > 1e-300, z, edge))


def tango_bounds(b: np.ndarray, c: np.ndarray, n: np.ndarray,
                 level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Tango's score interval of p(A right, B wrong) − p(A wrong, B right) (vectorised).

    ``b``: pairs only A got right; ``c``: pairs only B got right; ``n``: all pairs (counts may
    be effective, non-integer). The bounds solve |Z(Δ0)| = z by bisection (64 halvings).

    >>> lo, hi = tango_bounds(np.array([1.0]), np.array([7.0]), np.array([21.0]))
    >>> round(float(lo[0]), 4), round(float(hi[0]), 4)
    (-0.5172, -0.026)
    """
    b, c, n = (np.asarray(v, dtype=float) for v in (b, c, n))
    z = z_of(level)

    def root(target: float) -> np.ndarray:
        lo, hi = np.full(b.shape, -1.0), np.full(b.shape, 1.0)
        for _ in range(64):
            mid = (lo + hi) / 2
            above = _tango_z(b, c, n, mid) > target
            lo, hi = np.where(above, mid, lo), np.where(above, hi, mid)
        return np.asarray((lo + hi) / 2)

    return root(z), root(-z)


class PairedSums(NamedTuple):
    """What a paired difference's interval needs (arrays: one entry per comparison).

    Attributes:
        b: pairs right under A only.
        c: pairs right under B only.
        n: pairs.
        ss: Σ over units of (d_k − Δ̂·n_k)², d_k the unit's summed differences.
        mm: Σ over units of n_k².
        k: units.
        h: units holding a discordant pair (reported; the design effect of a difference is
            always estimated — taking its bound there widened intervals that already covered
            0.98 and more, ``medvqa bench --only intervals``).
    """

    b: np.ndarray
    c: np.ndarray
    n: np.ndarray
    ss: np.ndarray
    mm: np.ndarray
    k: np.ndarray
    h: np.ndarray


def paired_sums(a: np.ndarray, b: np.ndarray, units: np.ndarray | None) -> PairedSums:
    """The :class:`PairedSums` of paired 0/1 outcomes (``units``: case of each pair, or None)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    d = a - b
    n = float(len(d))
    if units is None or not len(d):
        per_d, per_n, per_any = d, np.ones(len(d)), np.abs(d)
    else:
        inverse = dense_labels(np.asarray(units))
        per_d = np.bincount(inverse, weights=d)
        per_n = np.bincount(inverse).astype(float)
        per_any = np.bincount(inverse, weights=np.abs(d))
    delta = float(d.sum()) / n if n else 0.0
    return PairedSums(*(np.array([v]) for v in (
        float(np.sum((a == 1) & (b == 0))), float(np.sum((a == 0) & (b == 1))), n,
        float(np.sum((per_d - delta * per_n) ** 2)), float(np.sum(per_n ** 2)),
        float(len(per_n)), float(np.count_nonzero(per_any)))))


def paired_bounds(s: PairedSums, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray,
                                                                 np.ndarray]:
    """(low, high, design effect) of paired differences from :class:`PairedSums`."""
    n, k = s.n, s.k
    with np.errstate(invalid="ignore", divide="ignore"):
        delta = (s.b - s.c) / n
        v_ind = ((s.b + s.c) / n - delta * delta) / n
        v_cl = np.where(k > 1, k / np.maximum(k - 1, 1) * s.ss / (n * n), 0.0)
        deff = design_effect(v_cl, v_ind, s.mm / n)
    deff = np.where(s.mm > n, deff, 1.0)
    lo, hi = tango_bounds(s.b / deff, s.c / deff, n / deff, level)
    return lo, hi, deff


def paired_interval(a: np.ndarray, b: np.ndarray, units: np.ndarray | None = None,
                    level: float = LEVEL) -> ClosedInterval:
    """Tango's interval of mean(a − b) for paired 0/1 outcomes (effective n when clustered).

    >>> r = paired_interval(np.array([1.0] * 10), np.array([1.0] * 10))
    >>> r.method, round(r.low, 4), round(r.high, 4)
    ('tango', -0.2775, 0.2775)
    """
    s = paired_sums(a, b, units)
    if not s.n[0]:
        return ClosedInterval(float("nan"), float("nan"), TANGO, 1.0, 0.0)
    lo, hi, deff = paired_bounds(s, level)
    d = float(deff[0])
    clustered = bool(s.mm[0] > s.n[0])
    return ClosedInterval(float(lo[0]), float(hi[0]), TANGO_ESS if clustered else TANGO, d,
                          float((s.b[0] + s.c[0]) / d))


def mover_bounds(points: np.ndarray, lows: np.ndarray, highs: np.ndarray,
                 weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """MOVER bounds of Σ w·θ from each θ's own interval (last axis: the terms; w ≥ 0).

    >>> lo, hi = mover_bounds(np.array([0.5, 0.5]), np.array([0.3, 0.3]), np.array([0.7, 0.7]),
    ...                       np.array([0.5, 0.5]))
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.3586, 0.6414)
    """
    point = np.sum(weights * points, axis=-1)
    down = np.sqrt(np.sum((weights * (points - lows)) ** 2, axis=-1))
    up = np.sqrt(np.sum((weights * (highs - points)) ** 2, axis=-1))
    return point - down, point + up


class WeightedSums(NamedTuple):
    """What weighted accuracy's interval needs (first axis: one entry per set).

    Attributes:
        x: items right per class (sets × classes; a class absent from a set has n 0).
        n: items per class (sets × classes).
        ss: Σ over units of e_k², e_k = Σ_c w_c (y_kc − p̂_c · n_kc) / n_c, the unit's
            influence on the weighted accuracy (w_c = 1 / classes present).
        mm: Σ over units of n_k² (the unit's items over all classes).
        k: units.
        classes: each class's own :class:`UnitSums` (sets × classes).
    """

    x: np.ndarray
    n: np.ndarray
    ss: np.ndarray
    mm: np.ndarray
    k: np.ndarray
    classes: UnitSums


def weighted_sums(correct: np.ndarray, classes: np.ndarray,
                  units: np.ndarray | None) -> WeightedSums:
    """The :class:`WeightedSums` of one set of rows (``classes``: gold class of each row)."""
    correct = np.asarray(correct, dtype=float)
    cls = dense_labels(np.asarray(classes))
    c = int(cls.max()) + 1
    n_c = np.bincount(cls, minlength=c).astype(float)
    x_c = np.bincount(cls, weights=correct, minlength=c)
    p_c = x_c / n_c
    unit = np.arange(len(correct)) if units is None else dense_labels(np.asarray(units))
    per_n = np.bincount(unit).astype(float)
    influence = np.bincount(unit, weights=(correct - p_c[cls]) / n_c[cls] / c)
    # Each (class, unit) pair once: a class's own units and their sums (no rows × classes).
    pair, pair_of = np.unique(cls * len(per_n) + unit, return_inverse=True)
    pair_of = pair_of.reshape(-1)
    pair_class = pair // len(per_n)
    pair_n = np.bincount(pair_of).astype(float)
    pair_x = np.bincount(pair_of, weights=correct)
    rare = np.where(x_c[pair_class] <= n_c[pair_class] - x_c[pair_class], pair_x,
                    pair_n - pair_x)
    own = UnitSums(x_c[None], n_c[None], np.bincount(
        pair_class, weights=(pair_x - p_c[pair_class] * pair_n) ** 2, minlength=c)[None],
        np.bincount(pair_class, weights=pair_n ** 2, minlength=c)[None],
        np.bincount(pair_class, minlength=c).astype(float)[None],
        np.bincount(pair_class, weights=rare > 0, minlength=c)[None])
    return WeightedSums(x_c[None], n_c[None], np.array([np.sum(influence ** 2)]),
                        np.array([np.sum(per_n ** 2)]), np.array([float(len(per_n))]), own)


def weighted_bounds(s: WeightedSums, level: float = LEVEL) -> tuple[
        np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(low, high, design effect, rarer) of weighted accuracies from :class:`WeightedSums`.

    Each class's accuracy gets its score interval on the class's effective size n_c / D_c;
    D_c is the larger of the class's own design effect (as :func:`rate_bounds` has it) and
    the design effect of the weighted accuracy itself (the units' influence values against the
    independent variance Σ_c w_c² p̂_c (1 − p̂_c) / n_c), so the correlation between the
    classes of one case counts too; MOVER combines them. ``rarer``: the smallest effective
    count of a class's rarer outcome.
    """
    present = s.n > 0
    w = present / np.maximum(present.sum(axis=-1, keepdims=True), 1)
    n_safe = np.where(present, s.n, 1.0)
    p_c = np.where(present, s.x / n_safe, 0.0)
    items = s.n.sum(axis=-1)
    k = s.k
    with np.errstate(invalid="ignore", divide="ignore"):
        v_cl = np.where(k > 1, k / np.maximum(k - 1, 1) * s.ss, 0.0)
        v_ind = np.sum(w * w * p_c * (1 - p_c) / n_safe, axis=-1)
        deff = design_effect(v_cl, v_ind, s.mm / items)
    deff = np.where(s.mm > items, deff, 1.0)
    c = s.classes
    own = UnitSums(c.x, np.where(present, c.n, 1.0), c.ss, np.where(present, c.mm, 1.0), c.k,
                   c.h)
    _, _, own_deff = rate_bounds(own, level)
    d_c = np.maximum(np.where(present, own_deff, 1.0), deff[..., None])
    lo_c, hi_c = score_bounds(s.x / d_c, n_safe / d_c, level)
    lo, hi = mover_bounds(p_c, np.where(present, lo_c, 0.0), np.where(present, hi_c, 0.0), w)
    rarer = np.min(np.where(present, np.minimum(s.x, s.n - s.x) / d_c, np.inf), axis=-1)
    return np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0), np.max(d_c, axis=-1), rarer


def weighted_interval(correct: np.ndarray, classes: np.ndarray, units: np.ndarray | None = None,
                      level: float = LEVEL) -> ClosedInterval:
    """MOVER interval of the mean over classes of per-class accuracy (balanced accuracy).

    See :func:`weighted_bounds`.

    >>> r = weighted_interval(np.array([1.0] * 6 + [0.0] + [1.0] * 3), np.array([0] * 7 +
    ...                       [1] * 3))
    >>> r.method, round(r.low, 3), round(r.high, 3)
    ('mover-wilson', 0.529, 0.987)
    """
    if not len(correct):
        return ClosedInterval(float("nan"), float("nan"), MOVER, 1.0, 0.0)
    s = weighted_sums(correct, classes, units)
    lo, hi, deff, rarer = weighted_bounds(s, level)
    clustered = bool(s.mm[0] > s.n[0].sum())
    return ClosedInterval(float(lo[0]), float(hi[0]), MOVER_ESS if clustered else MOVER,
                          float(deff[0]), float(rarer[0]))
