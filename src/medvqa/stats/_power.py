"""How small a difference a benchmark can show: ICC, design effect and the paired test's power.

Two models scored on the same items are compared by a paired test; its power rests on the
share ψ of items on which they disagree (discordant pairs) and on the effective number of
items n_eff = n / D, with D = 1 + (m_w − 1)·ρ (Kish 1965: ρ the intra-case correlation of
correctness, m_w = Σm²/n the size-weighted mean number of items per case). The smallest
difference Δ detectable with power 1 − β at two-sided level α solves Connor's (1987, Biometrics
43:207) sample-size equation for McNemar's test,

    n_eff · Δ² = (z_{α/2} · √ψ + z_β · √(ψ − Δ²))²,

and the items needed for a given Δ are that n_eff times D. ρ is the one-way ANOVA estimator
for unequal case sizes (Fleiss, *Statistical Methods for Rates and Proportions*, 1981; the
estimator Ridout et al. 1999, Biometrics 55:137, found least biased for 0/1 outcomes), kept at
0 or above for the design effect. Without observed pairs of runs, ψ is taken for two models of
the same accuracy p whose errors are unrelated: 2p(1 − p) (0.5 at p = 0.5, the largest).

>>> round(detectable_difference(47.0, 0.25), 3)
0.199
>>> round(effective_pairs_needed(0.05, 0.25))
783
"""

from __future__ import annotations

import math

import numpy as np

#: Two-sided level and power of every power figure.
ALPHA = 0.05
POWER = 0.80


def icc_anova(hits: np.ndarray, sizes: np.ndarray) -> float:
    """One-way ANOVA intra-case correlation of 0/1 outcomes (NaN when not estimable).

    Args:
        hits: items right per case.
        sizes: items per case (cases of one item count towards the within-case df not at all).

    Returns NaN with fewer than two cases, no case of several items, or no spread at all.

    >>> round(icc_anova(np.array([2.0, 0.0, 2.0, 1.0]), np.array([2.0, 2.0, 2.0, 2.0])), 3)
    0.571
    """
    y, m = np.asarray(hits, dtype=float), np.asarray(sizes, dtype=float)
    keep = m > 0
    y, m = y[keep], m[keep]
    k, n = len(m), float(m.sum())
    if k < 2 or n <= k:
        return float("nan")
    p = float(y.sum()) / n
    p_k = y / m
    msb = float(np.sum(m * (p_k - p) ** 2)) / (k - 1)
    msw = float(np.sum(y - y * p_k)) / (n - k)  # Σ y_k (1 − p̂_k): within-case squares of 0/1
    m0 = (n - float(np.sum(m * m)) / n) / (k - 1)
    denom = msb + (m0 - 1) * msw
    return float((msb - msw) / denom) if denom > 0 else float("nan")


def kish_design_effect(icc: float, sizes: np.ndarray) -> float:
    """1 + (Σm²/n − 1)·max(ρ, 0): the design effect of a mean over cases of these sizes.

    >>> kish_design_effect(0.3, np.array([1, 2, 3, 4]))
    1.6
    """
    m = np.asarray(sizes, dtype=float)
    n = float(m.sum())
    rho = 0.0 if icc != icc else max(float(icc), 0.0)
    return round(1 + (float(np.sum(m * m)) / n - 1) * rho, 12) if n else 1.0


def _z(p: float) -> float:
    from scipy.stats import norm

    return float(norm.ppf(p))


def detectable_difference(n_eff: float, discordance: float, alpha: float = ALPHA,
                          power: float = POWER) -> float | None:
    """Smallest paired difference detectable in ``n_eff`` effective pairs (None: none is).

    Args:
        n_eff: effective pairs (items over the design effect).
        discordance: expected share of discordant pairs ψ (0 < ψ ≤ 1).
        alpha: two-sided level.
        power: the power asked for.

    Returns None when even Δ = √ψ (every discordant pair one way) would not be detected:
    fewer than z²_{α/2} effective pairs.
    """
    if n_eff <= 0 or not 0 < discordance <= 1:
        return None
    za, zb = _z(1 - alpha / 2), _z(power)
    psi = float(discordance)

    def excess(delta: float) -> float:
        return za * math.sqrt(psi) + zb * math.sqrt(max(psi - delta * delta, 0.0)) \
            - delta * math.sqrt(n_eff)

    top = math.sqrt(psi)
    if excess(top) > 0:
        return None
    from scipy.optimize import brentq

    return float(brentq(excess, 1e-12, top, xtol=1e-10))


def effective_pairs_needed(delta: float, discordance: float, alpha: float = ALPHA,
                           power: float = POWER) -> float:
    """Effective pairs a paired test needs to detect ``delta`` (Connor 1987); inf if Δ² ≥ ψ.

    >>> round(effective_pairs_needed(0.1, 0.5))
    390
    """
    psi = float(discordance)
    if not 0 < delta or delta * delta >= psi:
        return math.inf
    za, zb = _z(1 - alpha / 2), _z(power)
    return float((za * math.sqrt(psi) + zb * math.sqrt(psi - delta * delta)) ** 2
                 / (delta * delta))


def independent_discordance(accuracy: float) -> float:
    """ψ of two models of this accuracy whose errors are unrelated: 2p(1 − p).

    >>> independent_discordance(0.5), independent_discordance(0.9)
    (0.5, 0.18)
    """
    p = min(max(float(accuracy), 0.0), 1.0)
    return round(2 * p * (1 - p), 12)
