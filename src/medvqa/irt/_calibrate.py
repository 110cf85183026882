"""Calibration: item parameters from a zoo's response matrix by marginal maximum a posteriori.

The models' abilities are integrated out over a fixed grid (Bock–Aitkin EM): the population of
models is standard normal, which fixes the scale, and each item's ``(a, d)`` maximises the
expected complete-data log-likelihood plus the log prior. The priors are what keep a zoo of
tens of models sane: with 30 responses an item's slope is barely identified, and a normal prior
``a ~ N(1, σ_a²)`` pulls it towards an ordinary item unless the data say otherwise, while still
letting it go negative (a wrong key: stronger models get it wrong) when they do. The intercept's
prior keeps an item every model got right (or wrong) finite.

Uncertainty of each item's ``(a, d)``: the inverse of its cross-product information (the sum
over models of the outer products of each model's score contribution, Fisher's identity) plus
the prior's precision — a standard approximation to the observed information of marginal
estimation.

Missing responses (a model that did not answer an item, a failed request) are left out of that
model's likelihood; they are not wrong answers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from scipy.special import log_expit

from medvqa.irt._model import ItemBank, sigmoid

#: Quadrature grid of abilities (standard-normal population) used by calibration.
GRID = np.linspace(-6.0, 6.0, 61)


@dataclass(frozen=True)
class Priors:
    """Normal priors of the item parameters (their defaults are medvqa's).

    Attributes:
        slope_mean: prior mean of the slope ``a``.
        slope_sd: prior standard deviation of ``a`` (smaller: discriminations stay nearer the
            mean with few models).
        intercept_sd: prior standard deviation of the intercept ``d`` (mean 0).
        empirical: estimate the slopes' prior mean and spread from the items themselves
            (empirical Bayes, by EM on the hierarchical prior), starting from ``slope_mean``
            and ``slope_sd``; the spread never grows past ``slope_sd`` nor falls below
            ``min_slope_sd``. With tens of models a fixed prior either lets the slopes overfit
            (too wide) or flattens the items that really differ (too narrow).
        min_slope_sd: the smallest spread the empirical prior may take.
    """

    slope_mean: float = 1.0
    slope_sd: float = 0.75
    intercept_sd: float = 2.5
    empirical: bool = True
    min_slope_sd: float = 0.2


@dataclass
class Calibration:
    """What a calibration found.

    Attributes:
        bank: the calibrated items (with each item's covariance).
        theta: each model's ability (posterior mean, EAP).
        theta_sd: each model's posterior standard deviation.
        loglik: marginal log-likelihood of the data at the estimate (prior excluded).
        iterations: EM iterations run.
        converged: whether the change in log-posterior fell below the tolerance.
        model: ``1pl`` or ``2pl``.
        priors: the priors at the estimate (the empirical ones where they were estimated).
    """

    bank: ItemBank
    theta: np.ndarray
    theta_sd: np.ndarray
    loglik: float
    iterations: int
    converged: bool
    model: str
    priors: Priors

    @property
    def parameters(self) -> int:
        """Free parameters (for information criteria)."""
        n = len(self.bank)
        return 2 * n if self.model == "2pl" else n + 1


def _log_weights() -> np.ndarray:
    w = -0.5 * GRID**2
    return np.asarray(w - np.logaddexp.reduce(w))


def _posterior(y: np.ndarray, obs: np.ndarray, bank: ItemBank,
               log_w: np.ndarray) -> tuple[np.ndarray, float]:
    """Each model's posterior over the grid (models × grid) and the marginal log-likelihood."""
    logits = bank.logits(GRID)  # items × grid
    log_p = log_expit(logits)
    log_q = log_expit(-logits)
    log_l = y @ log_p + (obs - y) @ log_q + log_w  # models × grid
    norm = np.logaddexp.reduce(log_l, axis=1)
    return np.exp(log_l - norm[:, None]), float(norm.sum())


def _m_step_2pl(a: np.ndarray, d: np.ndarray, n: np.ndarray, r: np.ndarray,
                priors: Priors, steps: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Newton steps on every item's expected complete-data log-posterior (vectorised).

    Returns the slopes, the intercepts and each slope's conditional posterior variance (the
    inverse curvature, for the empirical prior's update).
    """
    pa, pd = 1.0 / priors.slope_sd**2, 1.0 / priors.intercept_sd**2
    det = np.ones_like(a)
    hdd = np.ones_like(a)
    for _ in range(steps):
        p = sigmoid(np.outer(a, GRID) + d[:, None])
        resid = r - n * p
        w = n * p * (1.0 - p)
        ga = resid @ GRID - (a - priors.slope_mean) * pa
        gd = resid.sum(axis=1) - d * pd
        haa = w @ (GRID**2) + pa
        had = w @ GRID
        hdd = w.sum(axis=1) + pd
        det = haa * hdd - had**2
        step_a = (hdd * ga - had * gd) / det
        step_d = (haa * gd - had * ga) / det
        # A damped step: a flat item (every model alike) must not jump far on one iteration.
        scale = np.minimum(1.0, 2.0 / np.maximum(np.abs(step_a), np.abs(step_d)).clip(1e-12))
        a = a + scale * step_a
        d = d + scale * step_d
    return a, d, hdd / det


def _m_step_1pl(a: float, d: np.ndarray, n: np.ndarray, r: np.ndarray,
                priors: Priors, steps: int = 3) -> tuple[float, np.ndarray]:
    """Newton steps: every intercept given the shared slope, then the slope given them."""
    pa, pd = 1.0 / priors.slope_sd**2, 1.0 / priors.intercept_sd**2
    for _ in range(steps):
        p = sigmoid(a * GRID[None, :] + d[:, None])
        gd = (r - n * p).sum(axis=1) - d * pd
        hdd = (n * p * (1.0 - p)).sum(axis=1) + pd
        d = d + np.clip(gd / hdd, -2.0, 2.0)
        p = sigmoid(a * GRID[None, :] + d[:, None])
        ga = float(((r - n * p) @ GRID).sum()) - (a - priors.slope_mean) * pa
        haa = float(((n * p * (1.0 - p)) @ (GRID**2)).sum()) + pa
        a = a + float(np.clip(ga / haa, -1.0, 1.0))
    return a, d


def _standardised(bank: ItemBank, post: np.ndarray) -> ItemBank:
    """The bank re-expressed on the scale where the zoo's abilities have mean 0 and SD 1.

    The population's mean and variance are estimated from the models' posteriors (EM), and
    the items moved onto the standard scale (``a' = a σ``, ``d' = d + a μ``): the scale is the
    zoo's, so a new model's standard-normal prior is the zoo's spread, not a guess.
    """
    mean = float((post @ GRID).mean())
    sd = float(np.sqrt(max((post @ GRID**2).mean() - mean**2, 1e-6)))
    return ItemBank(bank.a * sd, bank.d + bank.a * mean, cases=bank.cases)


def _updated_prior(priors: Priors, a: np.ndarray, var_a: np.ndarray,
                   ceiling: float) -> Priors:
    """The slopes' prior after one EM update of its mean and spread (hierarchical normal)."""
    mean = float(a.mean())
    spread = float(np.sqrt(np.mean((a - mean) ** 2 + var_a)))
    spread = min(max(spread, priors.min_slope_sd), ceiling)
    return replace(priors, slope_mean=mean, slope_sd=spread)


def _log_prior(bank: ItemBank, priors: Priors, model: str) -> float:
    slopes = bank.a[:1] if model == "1pl" else bank.a
    return float(-0.5 * (((slopes - priors.slope_mean) / priors.slope_sd) ** 2).sum()
                 - 0.5 * ((bank.d / priors.intercept_sd) ** 2).sum())


def _covariances(y: np.ndarray, obs: np.ndarray, post: np.ndarray, bank: ItemBank,
                 priors: Priors, model: str) -> np.ndarray:
    """Per item the 2×2 covariance of ``(a, d)``: inverse cross-product information + prior."""
    p = bank.prob(GRID)  # items × grid
    mean_theta = post @ GRID  # per model
    expect_p = post @ p.T  # models × items: E[P_i(θ) | model's answers]
    expect_tp = (post * GRID) @ p.T
    g_d = obs * (y - expect_p)
    g_a = obs * (y * mean_theta[:, None] - expect_tp)
    info = np.empty((len(bank), 2, 2))
    info[:, 0, 0] = (g_a**2).sum(axis=0) + 1.0 / priors.slope_sd**2
    info[:, 0, 1] = info[:, 1, 0] = (g_a * g_d).sum(axis=0)
    info[:, 1, 1] = (g_d**2).sum(axis=0) + 1.0 / priors.intercept_sd**2
    if model == "1pl":  # the slope is shared: each item's own uncertainty is its intercept's
        shared = float((g_a.sum(axis=1) ** 2).sum()) + 1.0 / priors.slope_sd**2
        cov = np.zeros_like(info)
        cov[:, 0, 0] = 1.0 / shared
        cov[:, 1, 1] = 1.0 / info[:, 1, 1]
        return cov
    return np.linalg.inv(info)


def calibrate(responses: np.ndarray, model: str = "2pl", priors: Priors | None = None,
              *, max_iter: int = 500, tol: float = 1e-6,
              cases: np.ndarray | None = None) -> Calibration:
    """Fit a 1PL or 2PL model to a models × items matrix of 1 (right), 0 (wrong), NaN (missing).

    Args:
        responses: one row per model, one column per item.
        model: ``1pl`` or ``2pl``.
        priors: the item priors (None: :class:`Priors`' defaults).
        max_iter: most EM iterations.
        tol: stop when the log-posterior changes by less than this per model.
        cases: per item an integer case label (kept on the bank for ability estimation).

    Returns:
        The calibration; deterministic (no random step).

    >>> rng = np.random.default_rng(0)
    >>> theta = rng.normal(size=200)
    >>> b = np.linspace(-1.5, 1.5, 20)
    >>> y = (rng.random((200, 20)) < 1 / (1 + np.exp(-(theta[:, None] - b)))).astype(float)
    >>> fit = calibrate(y, "2pl")
    >>> bool(np.corrcoef(fit.bank.b, b)[0, 1] > 0.95)
    True
    """
    priors = priors or Priors()
    ceiling = priors.slope_sd
    y_raw = np.asarray(responses, dtype=float)
    obs = (~np.isnan(y_raw)).astype(float)
    y = np.nan_to_num(y_raw, nan=0.0)
    n_items = y.shape[1]
    # Start from the items' observed logits (right more often: a larger intercept).
    rate = (y.sum(axis=0) + 0.5) / (obs.sum(axis=0) + 1.0)
    d = np.log(rate / (1.0 - rate))
    a_shared = priors.slope_mean
    a = np.full(n_items, priors.slope_mean)
    log_w = _log_weights()
    bank = ItemBank(a, d, cases=cases)
    previous = -np.inf
    converged = False
    iterations = 0
    post, loglik = _posterior(y, obs, bank, log_w)
    for iterations in range(1, max_iter + 1):  # noqa: B007 - the count is reported
        n_q, r_q = obs.T @ post, y.T @ post  # items × grid: expected counts
        if model == "2pl":
            a, d, _ = _m_step_2pl(bank.a, bank.d, n_q, r_q, priors)
            if priors.empirical:
                # The slopes' posterior variances from the cross-product information, which
                # counts what the models' unknown abilities leave unknown (the complete-data
                # curvature would not, and the prior's spread would shrink too far).
                var_a = _covariances(y, obs, post, ItemBank(a, d), priors, model)[:, 0, 0]
                priors = _updated_prior(priors, a, var_a, ceiling)
        else:
            a_shared, d = _m_step_1pl(a_shared, bank.d, n_q, r_q, priors)
            a = np.full(n_items, a_shared)
        bank = _standardised(ItemBank(a, d, cases=cases), post)
        post, loglik = _posterior(y, obs, bank, log_w)
        objective = loglik + _log_prior(bank, priors, model)
        if abs(objective - previous) < tol * max(len(y), 1):
            converged = True
            break
        previous = objective
    bank.cov = _covariances(y, obs, post, bank, priors, model)
    theta = post @ GRID
    sd = np.sqrt(np.maximum(post @ GRID**2 - theta**2, 0.0))
    return Calibration(bank, theta, sd, loglik, iterations, converged, model, priors)
