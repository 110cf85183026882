"""Agreement coefficients over a raters × items matrix of nominal labels, with bootstrap CIs.

The coefficients come from well-kept libraries: Cohen's and Fleiss' κ from statsmodels,
Krippendorff's α from ``krippendorff``. Percent agreement is the mean over items of the share of
agreeing rater pairs. A coefficient that is undefined (every label the same, fewer
than two rated items) is None, never a made-up 0 or 1.

Confidence intervals: 95 % percentile bootstrap over items (seeded ``numpy`` generator).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from itertools import combinations

import numpy as np

from medvqa._optional import optional_import

#: A ratings matrix: rows are raters, columns items, entries integer labels or NaN (not rated).
Matrix = np.ndarray


def _clean(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else round(float(x), 6)


def counts_table(m: Matrix) -> np.ndarray:
    """Items × categories: how many raters gave each label to each item (NaN = not rated).

    >>> counts_table(np.array([[0, 1.0], [0, np.nan], [1, 1.0]])).tolist()
    [[2, 1], [0, 2]]
    """
    values = np.unique(m[~np.isnan(m)])
    return np.stack([(m == v).sum(axis=0) for v in values], axis=1) if values.size else (
        np.zeros((m.shape[1], 0), dtype=int))


def _rated(t: np.ndarray) -> np.ndarray:
    return t[t.sum(axis=1) >= 2]


def agreement_from_counts(t: np.ndarray) -> float | None:
    """Percent agreement from a counts table: mean over items of agreeing pairs / all pairs."""
    t = _rated(t)
    if t.shape[0] == 0:
        return None
    n = t.sum(axis=1)
    return _clean(float(np.mean((t * (t - 1)).sum(axis=1) / (n * (n - 1)))))


def fleiss_from_counts(t: np.ndarray) -> float | None:
    """Fleiss' κ (statsmodels) over the items rated by the modal number (≥ 2) of raters.

    Fleiss' κ assumes every item has the same number of ratings, so items with another count
    are left out.
    """
    inter = optional_import("statsmodels.stats.inter_rater")
    t = _rated(t)
    if t.shape[0] < 2:
        return None
    n = t.sum(axis=1)
    t = t[n == int(np.bincount(n).argmax())]
    if t.shape[0] < 2 or (t.sum(axis=0) > 0).sum() < 2:
        return None
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return _clean(inter.fleiss_kappa(t, method="fleiss"))


def kripp_from_counts(t: np.ndarray) -> float | None:
    """Krippendorff's α, nominal (``krippendorff``, from value counts per item)."""
    kd = optional_import("krippendorff")
    t = _rated(t)
    if t.shape[0] == 0 or (t.sum(axis=0) > 0).sum() < 2:
        return None
    try:
        with np.errstate(all="ignore"):
            return _clean(kd.alpha(value_counts=t, level_of_measurement="nominal"))
    except (ValueError, ZeroDivisionError):
        return None


def percent_agreement(m: Matrix) -> float | None:
    """Mean over items rated at least twice of the share of rater pairs that agree.

    >>> percent_agreement(np.array([[0, 1, 1.0], [0, 0, 1.0], [0, 1, np.nan]]))
    0.777778
    """
    return agreement_from_counts(counts_table(m))


def fleiss(m: Matrix) -> float | None:
    """Fleiss' κ of a ratings matrix (see :func:`fleiss_from_counts`)."""
    return fleiss_from_counts(counts_table(m))


def kripp(m: Matrix) -> float | None:
    """Krippendorff's α, nominal, of a ratings matrix; NaN marks a missing rating."""
    return kripp_from_counts(counts_table(m))


def cohen(a: np.ndarray, b: np.ndarray) -> float | None:
    """Cohen's κ (statsmodels) of two raters over the items both rated.

    >>> cohen(np.array([1, 1, 0, 1.0]), np.array([1, 0, 0, 1.0]))
    0.5
    """
    inter = optional_import("statsmodels.stats.inter_rater")
    both = ~np.isnan(a) & ~np.isnan(b)
    cats = np.unique(np.concatenate([a[both], b[both]]))
    if both.sum() < 2 or cats.size < 2:
        return None
    k = cats.size
    codes = np.searchsorted(cats, a[both]) * k + np.searchsorted(cats, b[both])
    table = np.bincount(codes, minlength=k * k).reshape(k, k).astype(float)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return _clean(float(inter.cohens_kappa(table, return_results=False)))


def bootstrap_ci(
    data: np.ndarray, stat: Callable[[np.ndarray], float | None], resamples: int, seed: int,
    axis: int = 1,
) -> list[float] | None:
    """95 % percentile interval of ``stat`` over resamples of items (``axis``); None if undefined.

    Items are columns of a ratings matrix (``axis=1``) or rows of a counts table (``axis=0``).
    """
    n = data.shape[axis]
    if n < 2 or resamples < 1:
        return None
    rng = np.random.default_rng(seed)
    vals = []
    for _ in range(resamples):
        v = stat(np.take(data, rng.integers(0, n, n), axis=axis))
        if v is not None:
            vals.append(v)
    if len(vals) < max(10, resamples // 10):
        return None
    lo, hi = np.percentile(vals, [2.5, 97.5])
    return [round(float(lo), 6), round(float(hi), 6)]


def agreement_block(m: Matrix, resamples: int, seed: int) -> dict[str, object]:
    """Percent agreement, Fleiss' κ, Krippendorff's α (each ``{value, ci}``) and ``n`` items."""
    t = _rated(counts_table(m)) if m.size else np.zeros((0, 0), dtype=int)
    out: dict[str, object] = {"n": int(t.shape[0])}
    stats = (("percent_agreement", agreement_from_counts), ("fleiss_kappa", fleiss_from_counts),
             ("krippendorff_alpha", kripp_from_counts))
    for name, fn in stats:
        value = fn(t) if t.size else None
        ci = bootstrap_ci(t, fn, resamples, seed, axis=0) if value is not None else None
        out[name] = {"value": value, "ci": ci}
    return out


def pairwise_cohen(m: Matrix, names: list[str], resamples: int, seed: int) -> dict[str, object]:
    """``"a|b"`` → ``{value, ci, n}`` Cohen's κ for each pair of raters sharing items."""
    out: dict[str, object] = {}
    for i, j in combinations(range(len(names)), 2):
        pair = m[[i, j]]
        shared = pair[:, ~np.isnan(pair).any(axis=0)]
        if shared.shape[1] == 0:
            continue
        value = cohen(shared[0], shared[1])
        ci = (bootstrap_ci(shared, lambda x: cohen(x[0], x[1]), resamples, seed)
              if value is not None else None)
        out[f"{names[i]}|{names[j]}"] = {"value": value, "ci": ci, "n": int(shared.shape[1])}
    return out
