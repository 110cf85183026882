r"""Prediction-powered inference for a mean: an automatic label on every unit, a human on a few.

Prediction-powered inference (PPI; Angelopoulos, Bates, Fannjiang, Jordan and Zrnic, *Science*
382, 2023) estimates the mean of a label :math:`Y` from a prediction :math:`f` known for all
:math:`N` units and :math:`Y` known on a random sample of :math:`n` of them:

.. math:: \hat\theta_\lambda = \lambda\,\bar f_N + \overline{(Y - \lambda f)}_n

The automatic labels carry the precision, the human sample's *rectifier* removes their bias, so
the interval is valid however wrong the automatic labels are. PPI++ (Angelopoulos, Duchi and
Zrnic, 2024) tunes :math:`\lambda \in [0, 1]` to the variance-minimising value
(:math:`\lambda = 1` is plain PPI, :math:`\lambda = 0` the human sample alone).

Two estimators live here:

- :func:`ppi_mean` — the papers' setting: the labelled sample and the :math:`N` unlabelled units
  are independent draws, :math:`\operatorname{Var} = \lambda^2 s_f^2 / N + s_{Y-\lambda f}^2 / n`
  (as the ``ppi-python`` package computes it; tests compare the two where it is installed);
- :func:`stratified_ppi` — medvqa's audit design: the human sample is drawn *from* the
  :math:`N` units without replacement, stratified (by the reader's decision), stratum
  :math:`h` holding :math:`N_h` units of which :math:`n_h` were read by a human. With
  :math:`W_h = N_h / N`,

  .. math:: \hat\theta_\lambda = \lambda \bar f_N + \sum_h W_h (\bar y_h - \lambda \bar f_h)

  is unbiased for the finite-population mean :math:`\bar Y_N` given the units, whose own
  sampling variance about the model's accuracy is :math:`\sigma_Y^2 / N` (times the design
  effect when units share a case); so

  .. math:: \operatorname{Var} = \mathrm{deff}\,\frac{\sigma_Y^2}{N}
            + \sum_h W_h^2 \Bigl(1 - \frac{n_h}{N_h}\Bigr) \frac{s^2_{h}(Y - \lambda f)}{n_h}

  and the tuned :math:`\lambda = \sum_h a_h \widehat{\operatorname{Cov}}_h(Y, f) / \sum_h a_h
  \widehat{\operatorname{Var}}_h(f)`, :math:`a_h = W_h^2 (1 - n_h/N_h) / n_h`, clipped to
  [0, 1]. With one stratum and :math:`n \ll N` it is :func:`ppi_mean`.

Intervals are normal (Wald) intervals of the estimate, as in both papers, clipped to
``bounds``. :func:`weighted_rate` gives a design-weighted proportion with a Wilson interval on
Kish's effective sample size (the reader's agreement, miss and false-credit rates on the audit
sample). Every function is a pure function of its arrays.

>>> read = Stratum(600, np.array([1., 1, 0, 1]), np.array([1., 1, 1, 1]))
>>> invalid = Stratum(400, np.array([0., 1, 0]), np.array([0., 0, 0]))
>>> est = stratified_ppi(0.70, 1000, [read, invalid])
>>> round(est.value, 4), est.low < est.value < est.high
(0.6833, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy import stats as sps


class PPIEstimate(NamedTuple):
    """A prediction-powered estimate of a mean with its interval.

    Attributes:
        value: the estimate.
        low: lower end of the interval.
        high: upper end of the interval.
        se: its standard error.
        lam: the λ used (1: PPI; tuned: PPI++; 0: the human sample alone).
    """

    value: float
    low: float
    high: float
    se: float
    lam: float


class RateEstimate(NamedTuple):
    """A design-weighted proportion with a Wilson interval on the effective sample size.

    Attributes:
        value: the weighted proportion.
        low: lower end of the interval.
        high: upper end of the interval.
        n: units in the denominator.
        n_effective: Kish's effective sample size of their weights.
    """

    value: float
    low: float
    high: float
    n: int
    n_effective: float


@dataclass(frozen=True)
class Stratum:
    """One stratum of the audit: its size and the human-labelled units drawn from it.

    Attributes:
        population: units in the stratum (:math:`N_h`).
        y: the human label of each labelled unit.
        f: the automatic label of the same units.
    """

    population: int
    y: np.ndarray
    f: np.ndarray


def _z(level: float) -> float:
    return float(sps.norm.ppf(1 - (1 - level) / 2))


def _clipped(value: float, se: float, level: float, bounds: tuple[float, float] | None,
             lam: float) -> PPIEstimate:
    half = _z(level) * se
    low, high = value - half, value + half
    if bounds is not None:
        low, high = max(bounds[0], low), min(bounds[1], high)
    return PPIEstimate(float(value), float(low), float(high), float(se), float(lam))


def ppi_mean(y: np.ndarray, f_labelled: np.ndarray, f_unlabelled: np.ndarray, *,
             lam: float | None = None, level: float = 0.95,
             bounds: tuple[float, float] | None = None) -> PPIEstimate:
    """PPI (``lam=1``) or PPI++ (``lam=None``: tuned, clipped to [0, 1]) for independent samples.

    Args:
        y: human labels of the labelled sample (n).
        f_labelled: automatic labels of the same units (n).
        f_unlabelled: automatic labels of the N unlabelled units.
        lam: λ; None tunes it (PPI++, the ``ppi-python`` rule).
        level: interval level.
        bounds: clip the interval to these (e.g. (0, 1) for a rate).

    >>> y = np.array([1., 0, 1, 1]); f = np.array([1., 0, 0, 1])
    >>> round(ppi_mean(y, f, np.array([1., 0, 1, 1, 0, 1]), lam=1).value, 4)
    0.9167
    """
    y, fl, fu = (np.asarray(a, dtype=float) for a in (y, f_labelled, f_unlabelled))
    n, big_n = len(y), len(fu)
    if n < 2 or big_n < 1:
        raise ValueError("ppi_mean needs at least 2 labelled and 1 unlabelled unit")
    if lam is None:
        theta1 = fu.mean() + (y - fl).mean()
        grads, grads_hat = y - theta1, fl - theta1
        cov = 2 * np.mean((grads - grads.mean()) * (grads_hat - grads_hat.mean()))
        var_hat = np.var(np.concatenate([fl, fu]) - theta1, ddof=1)
        lam = 0.0 if var_hat == 0 else float(np.clip(cov / (2 * (1 + n / big_n) * var_hat),
                                                      0, 1))
    value = lam * fu.mean() + (y - lam * fl).mean()
    se = math.sqrt(np.std(lam * fu) ** 2 / big_n + np.std(y - lam * fl) ** 2 / n)
    return _clipped(value, se, level, bounds, lam)


def _mean_var(a: np.ndarray) -> tuple[float, float]:
    return float(a.mean()), float(a.var(ddof=1)) if len(a) > 1 else float("nan")


def stratified_ppi(f_mean: float, population: int, strata: Sequence[Stratum], *,
                   lam: float | None = None, level: float = 0.95, design_effect: float = 1.0,
                   bounds: tuple[float, float] | None = (0.0, 1.0)) -> PPIEstimate:
    """The prediction-powered mean of a stratified human sample drawn from the N units.

    Args:
        f_mean: mean of the automatic label over all N units.
        population: N.
        strata: each stratum's size and its labelled units (every stratum of the N units, so
            the sizes add up to N; each needs at least one labelled unit).
        lam: λ; None tunes it (PPI++), 0 gives the human sample alone (stratified mean).
        level: interval level.
        design_effect: variance inflation of the N units' own mean (cases holding several
            units); 1 for independent units.
        bounds: clip the interval to these.

    Raises:
        ValueError: a stratum with units but no labelled one, or sizes not adding up to N.
    """
    if sum(s.population for s in strata) != population or population < 1:
        raise ValueError("stratum sizes must add up to the population (at least 1)")
    parts = []
    for s in strata:
        if s.population == 0:
            continue
        y, f = np.asarray(s.y, dtype=float), np.asarray(s.f, dtype=float)
        if len(y) == 0:
            raise ValueError("every non-empty stratum needs a labelled unit")
        w = s.population / population
        fpc = max(0.0, 1 - len(y) / s.population)
        parts.append((w, fpc, y, f))
    if lam is None:
        num = den = 0.0
        for w, fpc, y, f in parts:
            if len(y) < 2:
                continue
            a = w * w * fpc / len(y)
            num += a * float(np.cov(y, f, ddof=1)[0, 1])
            den += a * float(f.var(ddof=1))
        lam = float(np.clip(num / den, 0, 1)) if den > 0 else 1.0
    value = lam * f_mean + sum(w * (y.mean() - lam * f.mean()) for w, _, y, f in parts)
    # σ²_Y of the units, estimated from the strata (E[Y²] − θ²; θ(1 − θ) for 0/1 labels).
    second = sum(w * float(np.mean(y * y)) for w, _, y, _ in parts)
    sigma2 = max(0.0, second - value * value)
    var = design_effect * sigma2 / population
    for w, fpc, y, f in parts:
        r = y - lam * f
        s2 = float(r.var(ddof=1)) if len(r) > 1 else (1 + lam) ** 2 / 4  # a range's bound
        var += w * w * fpc * s2 / len(r)
    return _clipped(value, math.sqrt(var), level, bounds, lam)


def weighted_rate(hits: np.ndarray, weights: np.ndarray, level: float = 0.95
                  ) -> RateEstimate | None:
    """The weighted share of ``hits``, Wilson interval on Kish's effective n; None when empty.

    >>> r = weighted_rate(np.array([True, False, True, True]), np.array([1., 1, 2, 2]))
    >>> round(r.value, 3), round(r.n_effective, 2), r.low < r.value < r.high
    (0.833, 3.6, True)
    """
    from statsmodels.stats.proportion import proportion_confint

    hits, weights = np.asarray(hits, dtype=bool), np.asarray(weights, dtype=float)
    total = float(weights.sum())
    if len(hits) == 0 or total <= 0:
        return None
    value = float(weights[hits].sum()) / total
    n_eff = total * total / float((weights * weights).sum())
    low, high = proportion_confint(value * n_eff, n_eff, alpha=1 - level, method="wilson")
    # Rounding can put an end a hair beyond the estimate (a Wilson end at 0 or 1 is exact).
    return RateEstimate(value, min(float(low), value), max(float(high), value), len(hits),
                        n_eff)


def design_effect(values: np.ndarray, clusters: np.ndarray | None) -> float:
    """Variance of the mean with units summed in clusters over its variance as independent units.

    Kish's design effect from the cluster totals (at least 1; 1 without clusters, a single
    cluster, or no variance).

    >>> design_effect(np.array([1., 1, 0, 0, 1, 0]), None)
    1.0
    >>> design_effect(np.array([1., 1, 0, 0, 1, 1]), np.array([0, 0, 1, 1, 2, 2])) > 1
    True
    """
    values = np.asarray(values, dtype=float)
    n = len(values)
    if clusters is None or n < 2:
        return 1.0
    codes = np.unique(np.asarray(clusters), return_inverse=True)[1].reshape(-1)
    k = int(codes.max()) + 1
    iid = float(values.var(ddof=1)) / n
    if k < 2 or k == n or iid <= 0:
        return 1.0
    mean = values.mean()
    resid = np.bincount(codes, weights=values - mean, minlength=k)
    clustered = k / (k - 1) * float((resid * resid).sum()) / (n * n)
    return max(1.0, clustered / iid)
