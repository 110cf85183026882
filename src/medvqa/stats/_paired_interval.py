"""The interval of a paired difference: Newcombe's square-and-add on Jeffreys intervals.

A paired difference (clean − control, model A − model B on the same items) is
p(A right) − p(B right). Its interval is **Newcombe's hybrid score interval** (Newcombe 1998,
Stat Med 17:2635, method 10: each marginal's own interval combined by square-and-add, with
his corrected estimate of the correlation between the two) built on **Jeffreys** intervals
of the marginals instead of Wilson's (MOVER-NJ: Laud 2017, Pharm Stat 16:334; the ``jeff``
marginals of the ratesci package). Wilson's marginal intervals lean towards ½, and with
the few discordant pairs of a small set the hybrid on them — like Tango's score interval
(Tango 1998, Stat Med 17:891), the asymptotic score interval Fagerland, Lydersen & Laake
2014 (Stat Med 33:2850) recommend — covers 0.98–1.00 below 30 pairs; on Jeffreys marginals
it is narrower there and the same from 50 pairs (``medvqa bench --only intervals``, whose
rows also give Tango and the Wilson hybrid). Where fewer than about 4 discordant pairs are
expected it still covers more than 0.98 on some cells: there the coverage of any interval of
the discordant counts moves in steps too large to land in 0.93–0.98 everywhere, and each
interval compared that lands there more often covers less than 0.93 elsewhere (the bench's
finer grid; docs/report.md). Where pairs share a case, the four cells are
divided by the design effect of the difference first (:mod:`medvqa.stats._intervals`).
Never of zero width: with no discordant pair the interval still spans 0.

>>> from medvqa.stats._intervals import wilson_bounds
>>> lo, hi = newcombe_bounds(np.array([59.0]), np.array([6.0]), np.array([16.0]),
...                          np.array([161.0]), wilson_bounds)
>>> round(float(lo[0]), 4), round(float(hi[0]), 4)
(-0.1186, -0.0046)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from medvqa.stats._intervals import (
    LEVEL,
    NEWCOMBE,
    NEWCOMBE_ESS,
    ClosedInterval,
    design_effect,
    jeffreys_bounds,
    z_of,
)
from medvqa.stats._tests import dense_labels

#: Bounds of x successes in n (arrays) at a level: a marginal interval for the hybrid.
Marginal = Callable[[np.ndarray, np.ndarray, float], tuple[np.ndarray, np.ndarray]]


def newcombe_bounds(a: np.ndarray, b: np.ndarray, c: np.ndarray, n: np.ndarray,
                    marginal: Marginal = jeffreys_bounds,
                    level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Newcombe's square-and-add bounds of p(A right) − p(B right) (vectorised).

    ``a``: pairs both got right; ``b``: pairs only A got right; ``c``: only B; ``n``: all
    pairs (counts may be effective, non-integer). ``marginal`` gives each of p(A) and p(B) its
    interval (Jeffreys by default; :func:`~medvqa.stats._intervals.wilson_bounds` is
    Newcombe's own method 10). The correlation φ of the two is Pearson's on the 2 × 2 table,
    its positive part shrunk by n / 2 (Newcombe's correction), 0 where a margin is empty.
    """
    a, b, c, n = (np.asarray(v, dtype=float) for v in (a, b, c, n))
    d = n - a - b - c
    with np.errstate(invalid="ignore", divide="ignore"):
        p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = marginal(a + b, n, level)
    l2, u2 = marginal(a + c, n, level)
    cross = a * d - b * c
    shrunk = np.where(cross > n / 2, cross - n / 2, np.where(cross < 0, cross, 0.0))
    denom = np.sqrt(np.maximum((a + b) * (c + d) * (a + c) * (b + d), 0.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        phi = np.where(denom > 0, shrunk / np.where(denom > 0, denom, 1.0), 0.0)
    delta = p1 - p2
    low = delta - np.sqrt(np.maximum((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2)
                                     + (u2 - p2) ** 2, 0.0))
    high = delta + np.sqrt(np.maximum((p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1)
                                      + (u1 - p1) ** 2, 0.0))
    return np.maximum(low, -1.0), np.minimum(high, 1.0)


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
    Not medvqa's interval of a difference (see the module); kept as the bench's comparison.

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
        a: pairs right under both A and B.
        b: pairs right under A only.
        c: pairs right under B only.
        n: pairs.
        ss: Σ over units of (d_k − Δ̂·n_k)², d_k the unit's summed differences.
        mm: Σ over units of n_k².
        k: units.
    """

    a: np.ndarray
    b: np.ndarray
    c: np.ndarray
    n: np.ndarray
    ss: np.ndarray
    mm: np.ndarray
    k: np.ndarray


def paired_sums(a: np.ndarray, b: np.ndarray, units: np.ndarray | None) -> PairedSums:
    """The :class:`PairedSums` of paired 0/1 outcomes (``units``: case of each pair, or None)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    d = a - b
    n = float(len(d))
    if units is None or not len(d):
        per_d, per_n = d, np.ones(len(d))
    else:
        inverse = dense_labels(np.asarray(units))
        per_d = np.bincount(inverse, weights=d)
        per_n = np.bincount(inverse).astype(float)
    delta = float(d.sum()) / n if n else 0.0
    return PairedSums(*(np.array([v]) for v in (
        float(np.sum((a == 1) & (b == 1))), float(np.sum((a == 1) & (b == 0))),
        float(np.sum((a == 0) & (b == 1))), n, float(np.sum((per_d - delta * per_n) ** 2)),
        float(np.sum(per_n ** 2)), float(len(per_n)))))


def paired_design_effect(s: PairedSums) -> np.ndarray:
    """The design effect of a paired difference (1 where no case repeats).

    The cluster-robust variance of Δ̂ (cases as units, K / (K − 1)) over its variance were
    the pairs independent, ((b + c) / n − Δ̂²) / n, within [1, Σm²/n]. It is always
    estimated: taking its bound where few cases hold a discordant pair widened intervals that
    already covered 0.98 and more (``medvqa bench --only intervals``).
    """
    n, k = s.n, s.k
    with np.errstate(invalid="ignore", divide="ignore"):
        delta = (s.b - s.c) / n
        v_ind = ((s.b + s.c) / n - delta * delta) / n
        v_cl = np.where(k > 1, k / np.maximum(k - 1, 1) * s.ss / (n * n), 0.0)
        deff = design_effect(v_cl, v_ind, s.mm / n)
    return np.asarray(np.where(s.mm > n, deff, 1.0))


def paired_bounds(s: PairedSums, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray,
                                                                 np.ndarray]:
    """(low, high, design effect) of paired differences from :class:`PairedSums`."""
    deff = paired_design_effect(s)
    lo, hi = newcombe_bounds(s.a / deff, s.b / deff, s.c / deff, s.n / deff,
                             jeffreys_bounds, level)
    return lo, hi, deff


def paired_interval(a: np.ndarray, b: np.ndarray, units: np.ndarray | None = None,
                    level: float = LEVEL) -> ClosedInterval:
    """The interval of mean(a − b) for paired 0/1 outcomes (effective n when clustered).

    ``rarer`` is the effective count of discordant pairs, what the bootstrap rule reads.

    >>> r = paired_interval(np.array([1.0] * 10), np.array([1.0] * 10))
    >>> r.method, round(r.low, 4), round(r.high, 4)
    ('newcombe-jeffreys', -0.2172, 0.2172)
    """
    s = paired_sums(a, b, units)
    if not s.n[0]:
        return ClosedInterval(float("nan"), float("nan"), NEWCOMBE, 1.0, 0.0)
    lo, hi, deff = paired_bounds(s, level)
    d = float(deff[0])
    clustered = bool(s.mm[0] > s.n[0])
    return ClosedInterval(float(lo[0]), float(hi[0]), NEWCOMBE_ESS if clustered else NEWCOMBE,
                          d, float((s.b[0] + s.c[0]) / d))
