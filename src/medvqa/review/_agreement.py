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


def percent_agreement(m: Matrix) -> float | None:
    """Mean over items rated at least twice of the share of rater pairs that agree.

    >>> percent_agreement(np.array([[0, 1, 1.0], [0, 0, 1.0], [0, 1, np.nan]]))
    0.777778
    """
    shares = []
    for col in m.T:
        vals = col[~np.isnan(col)]
        if len(vals) < 2:
            continue
        pairs = list(combinations(vals.tolist(), 2))
        shares.append(sum(a == b for a, b in pairs) / len(pairs))
    return _clean(float(np.mean(shares))) if shares else None


def fleiss(m: Matrix) -> float | None:
    """Fleiss' κ (statsmodels) over the items rated by the modal number (≥ 2) of raters.

    Fleiss' κ assumes every item has the same number of ratings, so items with another count
    are left out.
    """
    inter = optional_import("statsmodels.stats.inter_rater")
    counts = (~np.isnan(m)).sum(axis=0)
    many = counts[counts >= 2]
    if many.size < 2:
        return None
    modal = int(np.bincount(many).argmax())
    cols = m[:, counts == modal]
    if cols.shape[1] < 2:
        return None
    data = np.array([c[~np.isnan(c)] for c in cols.T], dtype=int)  # items × raters
    table, _ = inter.aggregate_raters(data)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return _clean(inter.fleiss_kappa(table, method="fleiss"))


def kripp(m: Matrix) -> float | None:
    """Krippendorff's α, nominal (``krippendorff``); NaN marks a missing rating."""
    kd = optional_import("krippendorff")
    vals = m[~np.isnan(m)]
    if np.unique(vals).size < 2 or ((~np.isnan(m)).sum(axis=0) >= 2).sum() < 1:
        return None
    try:
        with np.errstate(all="ignore"):
            return _clean(kd.alpha(reliability_data=m, level_of_measurement="nominal"))
    except (ValueError, ZeroDivisionError):
        return None


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
    index = {c: i for i, c in enumerate(cats.tolist())}
    table = np.zeros((cats.size, cats.size))
    for x, y in zip(a[both].tolist(), b[both].tolist(), strict=True):
        table[index[x], index[y]] += 1
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return _clean(float(inter.cohens_kappa(table, return_results=False)))


def bootstrap_ci(
    m: Matrix, stat: Callable[[Matrix], float | None], resamples: int, seed: int
) -> list[float] | None:
    """95 % percentile interval of ``stat`` over item resamples; None when undefined."""
    n = m.shape[1]
    if n < 2 or resamples < 1:
        return None
    rng = np.random.default_rng(seed)
    vals = []
    for _ in range(resamples):
        v = stat(m[:, rng.integers(0, n, n)])
        if v is not None:
            vals.append(v)
    if len(vals) < max(10, resamples // 10):
        return None
    lo, hi = np.percentile(vals, [2.5, 97.5])
    return [round(float(lo), 6), round(float(hi), 6)]


def agreement_block(m: Matrix, resamples: int, seed: int) -> dict[str, object]:
    """Percent agreement, Fleiss' κ, Krippendorff's α (each ``{value, ci}``) and ``n`` items."""
    rated = m[:, (~np.isnan(m)).sum(axis=0) >= 2] if m.size else m
    out: dict[str, object] = {"n": int(rated.shape[1]) if rated.size else 0}
    for name, fn in (("percent_agreement", percent_agreement), ("fleiss_kappa", fleiss),
                     ("krippendorff_alpha", kripp)):
        value = fn(rated) if rated.size else None
        ci = bootstrap_ci(rated, fn, resamples, seed) if value is not None else None
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
