"""The interval of weighted (balanced) accuracy: Wilson on Kish's effective sample size.

Weighted accuracy is the mean over the gold classes present of each class's accuracy, so an
item of class c weighs w_c / n_c (w_c = 1 / classes). A weighted proportion has the
**effective sample size** of its weights (Kish 1965): n_w = (Σ weights)² / Σ weights² =
1 / Σ_c w_c² / n_c — 9.6 for classes of 6 and 4 items, n itself for one class or classes of
one size. Its interval is the Wilson score interval of the weighted accuracy p̂ on
n_w / (S·D) (the exact Clopper–Pearson bound at 0 or 1 where wider,
:func:`~medvqa.stats._intervals.score_bounds`):

- S, the **spread** of the classes: their own variance Σ_c w_c² p̂_c (1 − p̂_c) / n_c over
  the p̂ (1 − p̂) / n_w that n_w assumes, where larger (else 1) — so the size is never above
  Korn & Graubard's p̂ (1 − p̂) / variance (1998, Surv Methodol 24:193), and never above n_w
  where a class with every item right makes that variance look small;
- D, where items share a case, the design effect of the weighted accuracy itself (the cases'
  influence values against the classes' own variance, within [1, Σm²/n], its bound where
  few cases hold the rarer outcome — the rule of :mod:`medvqa.stats._intervals`).

This is how survey statistics give a weighted, clustered proportion an interval at small n
(Kish 1965; Korn & Graubard 1998, with Clopper–Pearson; the audit's design-weighted rates
here, :func:`~medvqa.stats._ppi.weighted_rate`). Per-class Wilson intervals combined by MOVER
(Zou & Donner 2008, Stat Med 27:1693), the rule before, covered 0.91–0.93 at p = 0.9–0.97 on
10–50 items, a class with every item right adding nothing to the upper margin; from 300
items the two agree (``medvqa bench --only intervals``).

>>> r = weighted_interval(np.array([1.0] * 6 + [0.0] + [1.0] * 3), np.array([0] * 7 +
...                       [1] * 3))
>>> r.method, round(r.low, 3), round(r.high, 3)
('wilson-kish', 0.597, 0.991)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from medvqa.stats._intervals import (
    KISH,
    KISH_ESS,
    LEVEL,
    ClosedInterval,
    design_effect,
    few_holders,
    score_bounds,
)
from medvqa.stats._tests import dense_labels


class WeightedSums(NamedTuple):
    """What weighted accuracy's interval needs (first axis: one entry per set).

    Attributes:
        x: items right per class (sets × classes; a class absent from a set has n 0).
        n: items per class (sets × classes).
        ss: Σ over units of e_k², e_k = Σ_c w_c (y_kc − p̂_c · n_kc) / n_c, the unit's
            influence on the weighted accuracy (w_c = 1 / classes present).
        mm: Σ over units of n_k² (the unit's items over all classes).
        k: units.
        h: units holding the rarer outcome of the weighted accuracy (some item right when it
            is at most ½, else some item wrong).
    """

    x: np.ndarray
    n: np.ndarray
    ss: np.ndarray
    mm: np.ndarray
    k: np.ndarray
    h: np.ndarray


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
    per_x = np.bincount(unit, weights=correct)
    influence = np.bincount(unit, weights=(correct - p_c[cls]) / n_c[cls] / c)
    rare = per_x if float(np.mean(p_c)) <= 0.5 else per_n - per_x
    return WeightedSums(x_c[None], n_c[None], np.array([np.sum(influence ** 2)]),
                        np.array([np.sum(per_n ** 2)]), np.array([float(len(per_n))]),
                        np.array([float(np.count_nonzero(rare))]))


class WeightedBounds(NamedTuple):
    """Weighted accuracies' intervals (arrays: one entry per set).

    Attributes:
        low: lower bounds.
        high: upper bounds.
        spread: S, the classes' own variance Σ_c w_c² p̂_c (1 − p̂_c) / n_c over the
            variance Kish's n_w gives, p̂ (1 − p̂) / n_w, where it is larger (else 1).
        design_effect: D, the design effect of the cases (1: no case repeats).
        n_effective: n_w / (S·D), the size the Wilson interval was computed on.
        rarer: the smallest effective count of a class's rarer outcome (what
            :func:`~medvqa.stats._intervals.bootstrap_applies` reads: the bootstrap needs
            both outcomes common in every class).
    """

    low: np.ndarray
    high: np.ndarray
    spread: np.ndarray
    design_effect: np.ndarray
    n_effective: np.ndarray
    rarer: np.ndarray


def weighted_bounds(s: WeightedSums, level: float = LEVEL) -> WeightedBounds:
    """The :class:`WeightedBounds` of weighted accuracies from :class:`WeightedSums`."""
    present = s.n > 0
    w = present / np.maximum(present.sum(axis=-1, keepdims=True), 1)
    n_safe = np.where(present, s.n, 1.0)
    p_c = np.where(present, s.x / n_safe, 0.0)
    point = np.sum(w * p_c, axis=-1)
    kish = 1 / np.sum(np.where(present, w * w / n_safe, 0.0), axis=-1)
    items = s.n.sum(axis=-1)
    k = s.k
    with np.errstate(invalid="ignore", divide="ignore"):
        v_cl = np.where(k > 1, k / np.maximum(k - 1, 1) * s.ss, 0.0)
        v_ind = np.sum(w * w * p_c * (1 - p_c) / n_safe, axis=-1)
        deff = design_effect(v_cl, v_ind, s.mm / items)
    deff = np.where(few_holders(s.h, k), np.maximum(s.mm / items, 1.0), deff)
    deff = np.where(s.mm > items, deff, 1.0)  # no case repeats: independent items
    v_kish = point * (1 - point) / kish
    with np.errstate(invalid="ignore", divide="ignore"):
        spread = np.where(v_kish > 0, np.maximum(v_ind / v_kish, 1.0), 1.0)
    n_eff = kish / (spread * deff)
    lo, hi = score_bounds(point * n_eff, n_eff, level)
    rarer = np.min(np.where(present, np.minimum(s.x, s.n - s.x), np.inf), axis=-1) / deff
    return WeightedBounds(lo, hi, spread, deff, n_eff, rarer)


def weighted_interval(correct: np.ndarray, classes: np.ndarray, units: np.ndarray | None = None,
                      level: float = LEVEL) -> ClosedInterval:
    """The Wilson–Kish interval of the mean over classes of per-class accuracy (see module)."""
    if not len(correct):
        return ClosedInterval(float("nan"), float("nan"), KISH, 1.0, 0.0)
    s = weighted_sums(correct, classes, units)
    b = weighted_bounds(s, level)
    clustered = bool(s.mm[0] > s.n[0].sum())
    return ClosedInterval(float(b.low[0]), float(b.high[0]), KISH_ESS if clustered else KISH,
                          float(b.spread[0] * b.design_effect[0]), float(b.rarer[0]))
