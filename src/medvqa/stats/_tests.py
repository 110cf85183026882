"""Hypothesis tests that respect clustering (several items of one case are not independent).

Paired comparison of two sets of 0/1 outcomes on the same items (:func:`paired_test`), chosen
by clustering. Items that share no case: **McNemar's mid-p test** (:func:`mcnemar_midp`) — the
exact conditional binomial test on the discordant pairs, less half the probability of the count
observed (Lancaster's mid-p). The exact test is conservative with few discordant pairs (its
size at nominal 5 % falls well below 5 %; Fagerland, Lydersen & Laake 2013, BMC Med Res Methodol
13:91, who recommend the mid-p test for matched pairs at every n). Cases that repeat: the
**cluster sign-flip test** — the exact randomisation test for clustered matched pairs. With
d_k = Σ_{i∈k}(a_i − b_i) the per-case difference, under H0 (A and B exchangeable within each
case) every sign pattern of the d_k is equally likely; the p-value is P(|Σ ±d_k| ≥ |Σ d_k|),
computed *exactly* by convolving per-magnitude binomials (no Monte Carlo). With one item per case
it is exactly McNemar's exact test (two-sided binomial on the discordant pairs); with clusters it
is the permutation form of the clustered McNemar tests of Obuchowski (1998, Stat Med 17:1495)
and Durkalski et al. (2003, Stat Med 22:2417), whose statistic (Σd_k)² / Σd_k² it orders by.

Accuracy across groups (age band, sex, source; :func:`group_test`), statistic Pearson's χ²
of the groups × (right, wrong) table:

- no clustering, every expected count ≥ 5: the asymptotic χ² test;
- no clustering, some expected count < 5: Fisher's exact test for 2×2, and beyond 2×2 the
  exact conditional (Freeman–Halton) test by Monte Carlo permutation of the labels;
- clustering, the group constant within each case (sex, age), at most
  :data:`PERMUTATION_MAX_CASES` cases: the **cluster permutation test** — case labels
  permuted among cases, χ² recomputed (Monte Carlo, seeded);
- clustering otherwise (the group varying within cases, or many cases): a Wald test of equal
  group accuracies with a case-clustered sandwich covariance (GEE with independence working
  correlation; Liang & Zeger 1986, Biometrika 73:13).

Monte Carlo p-values are (1 + #{T* ≥ T}) / (B + 1), never 0. :func:`holm` adjusts a family.

>>> name, p = paired_test(np.array([1] * 10 + [0] * 2), np.array([0] * 10 + [1] * 2), None)
>>> name, round(p, 8)
('McNemar mid-p', 0.02246094)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

_PERMUTATIONS = 9999
# Above this many cases the asymptotic cluster-robust Wald test is reliable and the permutation
# test (cases × resamples work) is not worth its time.
PERMUTATION_MAX_CASES = 200
_CONVOLVE_CELLS = 20_000_000  # beyond: FFT convolution (p below ~1e-12 then approximate)


def paired_test(a: np.ndarray, b: np.ndarray, clusters: np.ndarray | None) -> tuple[str, float]:
    """(test name, two-sided p) for paired 0/1 outcomes; clusters: int labels or None.

    Independent items: McNemar's mid-p test; clustered: the exact cluster sign-flip test.
    """
    a, b = np.asarray(a, float), np.asarray(b, float)
    if clusters is None:
        return "McNemar mid-p", mcnemar_midp(int(np.sum((a == 1) & (b == 0))),
                                             int(np.sum((a == 0) & (b == 1))))
    d = np.bincount(clusters, weights=a - b)
    return "cluster sign-flip (exact)", sign_flip_p(np.rint(d).astype(np.int64))


def mcnemar_midp(a_only: int, b_only: int) -> float:
    """Two-sided mid-p McNemar test from the discordant counts.

    2·P(X ≤ k) − P(X = k) for X ~ Binomial(a_only + b_only, 1/2), k the smaller count; 1
    without discordant pairs.

    >>> round(mcnemar_midp(10, 2), 6), mcnemar_midp(3, 3), mcnemar_midp(0, 0)
    (0.022461, 1.0, 1.0)
    """
    n = a_only + b_only
    if n == 0:
        return 1.0
    from scipy.stats import binom

    k = min(a_only, b_only)
    return float(min(1.0, 2 * binom.cdf(k, n, 0.5) - binom.pmf(k, n, 0.5)))


def sign_flip_p(d: np.ndarray) -> float:
    """Exact two-sided p of |Σ d_k| under independent random signs of the integers d_k."""
    mags, counts = np.unique(np.abs(d[d != 0]), return_counts=True)
    if mags.size == 0:
        return 1.0
    from scipy.stats import binom

    total = int(np.sum(mags * counts))
    observed = abs(int(d.sum()))
    pmf = np.ones(1)
    for m, c in zip(map(int, mags.tolist()), map(int, counts.tolist()), strict=True):
        part = np.zeros(m * c + 1)
        part[::m] = binom.pmf(np.arange(c + 1), c, 0.5)
        if pmf.size * part.size > _CONVOLVE_CELLS:
            from scipy.signal import fftconvolve

            pmf = np.clip(fftconvolve(pmf, part), 0.0, None)
        else:
            pmf = np.convolve(pmf, part)
    # Y = Σ m·X_m with X_m ~ Bin(c_m, 1/2); the signed sum is 2Y − total.
    y = np.arange(pmf.size)
    extreme = np.abs(2 * y - total) >= observed
    return float(min(1.0, pmf[extreme].sum()))


def _chi2(hits: np.ndarray, sizes: np.ndarray, p: float) -> np.ndarray:
    """Pearson χ² of groups × (right, wrong) from per-group hits and sizes (last axis)."""
    expected = sizes * p
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(np.nansum((hits - expected) ** 2 / (expected * (1 - p)), axis=-1),
                          dtype=float)


def _permutation_p(unit_hits: np.ndarray, unit_sizes: np.ndarray, labels: np.ndarray,
                   n_groups: int, resamples: int, seed: int) -> float:
    """Monte Carlo p of χ² with the group labels permuted among units (cases or items)."""
    p = unit_hits.sum() / unit_sizes.sum()
    observed = _chi2(np.bincount(labels, unit_hits, n_groups),
                     np.bincount(labels, unit_sizes, n_groups), p)
    rng = np.random.default_rng(seed)
    k = len(labels)
    exceed = 0
    chunk = max(1, 2_000_000 // max(k, 1))
    for start in range(0, resamples, chunk):
        b = min(chunk, resamples - start)
        perm = rng.permuted(np.broadcast_to(labels, (b, k)), axis=1)
        flat = (perm + n_groups * np.arange(b)[:, None]).ravel()
        hits = np.bincount(flat, np.tile(unit_hits, b), b * n_groups).reshape(b, n_groups)
        sizes = np.bincount(flat, np.tile(unit_sizes, b), b * n_groups).reshape(b, n_groups)
        tolerance = 1e-9 * max(float(observed), 1.0)
        exceed += int(np.sum(_chi2(hits, sizes, p) >= observed - tolerance))
    return (1 + exceed) / (resamples + 1)


def group_test(correct: np.ndarray, groups: np.ndarray, clusters: np.ndarray | None,
               resamples: int = _PERMUTATIONS, seed: int = 0) -> tuple[str, float]:
    """(test name, p) for "accuracy does not depend on the group" (see the module docstring).

    ``groups`` are integer codes 0..G−1 per item; ``clusters`` integer case labels or None.
    """
    from scipy.stats import chi2_contingency, fisher_exact

    correct = np.asarray(correct, float)
    n_groups = int(groups.max()) + 1
    hits = np.bincount(groups, correct, n_groups)
    sizes = np.bincount(groups, minlength=n_groups).astype(float)
    if hits.sum() in (0, sizes.sum()):
        return "none (all right or all wrong)", 1.0
    table = np.column_stack([hits, sizes - hits])
    if clusters is None:
        expected = table.sum(1, keepdims=True) * table.sum(0, keepdims=True) / table.sum()
        if (expected >= 5).all():
            return "chi2", float(chi2_contingency(table, correction=False).pvalue)
        if table.shape == (2, 2):
            return "Fisher exact", float(fisher_exact(table).pvalue)
        return (f"exact permutation ({resamples:,})",
                _permutation_p(correct, np.ones(len(correct)), groups, n_groups, resamples,
                               seed))
    clusters = dense_labels(clusters)  # labels 0..K−1
    n_cases = int(clusters.max()) + 1
    case_group = np.full(n_cases, -1)
    case_group[clusters] = groups
    constant = bool(np.all(case_group[clusters] == groups))
    if constant and n_cases <= PERMUTATION_MAX_CASES:
        return (f"cluster permutation ({resamples:,})",
                _permutation_p(np.bincount(clusters, correct, n_cases),
                               np.bincount(clusters, minlength=n_cases).astype(float),
                               case_group, n_groups, resamples, seed))
    return "cluster-robust Wald", _robust_wald_p(correct, groups, clusters, n_groups)


def dense_labels(labels: np.ndarray) -> np.ndarray:
    """Labels renumbered 0..K−1 in sorted order: ``np.unique(labels, return_inverse=True)[1]``.

    Small non-negative integers (case codes) go through a lookup table instead of a sort, in
    a fraction of the memory and time (a million rows a run); the numbers are the same.

    >>> dense_labels(np.array([7, 3, 7, 9])).tolist()
    [1, 0, 1, 2]
    """
    labels = np.asarray(labels).reshape(-1)
    if not _small_codes(labels):
        inverse: np.ndarray = np.unique(labels, return_inverse=True)[1]
        return inverse.reshape(-1)
    present = np.zeros(int(labels.max()) + 1, dtype=bool)
    present[labels] = True
    ranks = np.cumsum(present) - 1
    return np.asarray(ranks[labels])


def repeats(labels: np.ndarray) -> bool:
    """Whether some label occurs more than once (``len(np.unique(labels)) < len(labels)``).

    >>> repeats(np.array([4, 1, 4])), repeats(np.array([4, 1]))
    (True, False)
    """
    labels = np.asarray(labels).reshape(-1)
    if not _small_codes(labels):
        return len(np.unique(labels)) < len(labels)
    return bool(np.bincount(labels).max() > 1)


def _small_codes(labels: np.ndarray) -> bool:
    """Whether ``labels`` are non-negative integers not much larger than their count.

    Then a table indexed by them is small, and a lookup can stand in for a sort.
    """
    return bool(labels.dtype.kind in "iu" and len(labels) > 0 and labels.min() >= 0
                and labels.max() < 4 * len(labels) + 1024)


def _robust_wald_p(correct: np.ndarray, groups: np.ndarray, clusters: np.ndarray,
                   n_groups: int) -> float:
    """Wald test of equal group accuracies with a case-clustered (sandwich) covariance.

    The per-group accuracies p_g are ratio estimators; their covariance is estimated from the
    per-case influence values (h_gk − p_g·n_gk)/n_g with the K/(K−1) small-sample factor — the
    GEE independence-working-correlation test (Liang & Zeger 1986, Biometrika 73:13).
    """
    from scipy.stats import chi2 as chi2_dist

    n_cases = int(clusters.max()) + 1
    cell = clusters * n_groups + groups
    h = np.bincount(cell, correct, n_cases * n_groups).reshape(n_cases, n_groups)
    m = np.bincount(cell, minlength=n_cases * n_groups).reshape(n_cases, n_groups).astype(float)
    del cell
    sizes = m.sum(0)
    p = h.sum(0) / sizes
    # (h − p·m) / sizes, computed in place (the same operations, the same bits; per case ×
    # group cells, a million rows a run): one array instead of three.
    z = np.multiply(p, m, out=m)
    np.subtract(h, z, out=z)
    del h
    z /= sizes
    cov = n_cases / max(n_cases - 1, 1) * z.T @ z
    contrast = np.eye(n_groups)[1:] - np.eye(n_groups)[0]
    diff = contrast @ p
    v = contrast @ cov @ contrast.T
    rank = np.linalg.matrix_rank(v)
    if rank == 0:
        return 1.0 if np.allclose(diff, 0) else 0.0
    stat = float(diff @ np.linalg.pinv(v) @ diff)
    return float(chi2_dist.sf(stat, rank))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values, in input order.

    Statsmodels' ``multipletests(method="holm")`` step by step (sort, multiply the i-th
    smallest by m − i, running maximum, cap at 1, unsort), so the bits are the same, without
    importing statsmodels and pandas (about a second) or its ``gc.collect()`` per call.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    if not pvalues:
        return []
    p = np.asarray(list(pvalues))
    order = np.argsort(p)
    adjusted = np.maximum.accumulate(np.take(p, order) * np.arange(len(p), 0, -1))
    adjusted[adjusted > 1] = 1
    out = np.empty_like(adjusted)
    out[order] = adjusted
    return [float(x) for x in out]


def significant(p: float | None, digits: int = 4) -> float | None:
    """``p`` kept to ``digits`` significant digits (never rounded to 0)."""
    return None if p is None or p != p else float(f"{p:.{digits}g}")
