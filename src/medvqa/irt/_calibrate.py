"""Calibration: item parameters from a zoo's response matrix by marginal maximum a posteriori.

The models' abilities are integrated out over a fixed grid (Bock–Aitkin EM): the population of
models is standard normal, which fixes the scale, and each item's ``(a, d)`` maximises the
expected complete-data log-likelihood plus the log prior. The priors are what keep a zoo of
tens of models sane: with 30 responses an item's slope is barely identified, and a normal prior
``a ~ N(1, σ_a²)`` pulls it towards an ordinary item unless the data say otherwise, while still
letting it go negative (a wrong key: stronger models get it wrong) when they do. The intercept's
prior ``d ~ N(μ_d, σ_d²)`` keeps an item every model got right (or wrong) finite, and is estimated
from the items the same way: with tens of models an intercept says little more than the share of
them that got the item right, and a prior centred on the bank's own intercepts, as wide as they
really spread, shrinks the items that few models separate towards the bank instead of towards 0
with a spread of 2.5 (an item 29 of 30 models got right is then not placed further out than the
bank's easiest items are).

Uncertainty of each item's ``(a, d)``: the inverse of its cross-product information (the sum
over models of the outer products of each model's score contribution, Fisher's identity) plus
the prior's precision — a standard approximation to the observed information of marginal
estimation.

A fixed guessing floor ``c`` per item (:mod:`medvqa.irt._guessing`) enters the likelihood and
each Newton step as Fisher scoring on the floored probability; ``c`` itself is never estimated.

Missing responses (a model that did not answer an item, a failed request) are left out of that
model's likelihood; they are not wrong answers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from medvqa.irt._model import ItemBank, floor_terms

#: Quadrature grid of abilities (standard-normal population) used by calibration.
GRID = np.linspace(-6.0, 6.0, 61)


@dataclass(frozen=True)
class Priors:
    """Normal priors of the item parameters (their defaults are medvqa's).

    Attributes:
        slope_mean: prior mean of the slope ``a``.
        slope_sd: prior standard deviation of ``a`` (smaller: discriminations stay nearer the
            mean with few models).
        intercept_mean: prior mean of the intercept ``d``.
        intercept_sd: prior standard deviation of ``d``.
        empirical: estimate both priors' means and spreads from the items themselves
            (empirical Bayes, by EM on the hierarchical prior), starting from the means and
            spreads given; a spread never grows past its starting value nor falls below its
            floor (``min_slope_sd``, ``min_intercept_sd``). With tens of models a fixed prior
            either lets the items overfit (too wide) or flattens the items that really differ
            (too narrow).
        min_slope_sd: the smallest spread the empirical slope prior may take.
        min_intercept_sd: the smallest spread the empirical intercept prior may take.
    """

    slope_mean: float = 1.0
    slope_sd: float = 0.75
    intercept_mean: float = 0.0
    intercept_sd: float = 2.5
    empirical: bool = True
    min_slope_sd: float = 0.2
    min_intercept_sd: float = 0.5


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
    log_p, log_q = bank.log_prob(GRID)  # items × grid
    log_l = y @ log_p + (obs - y) @ log_q + log_w  # models × grid
    norm = np.logaddexp.reduce(log_l, axis=1)
    return np.exp(log_l - norm[:, None]), float(norm.sum())


def _score_weight(logits: np.ndarray, c: np.ndarray, n: np.ndarray,
                  r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The expected counts' score in the logit and its Fisher weight, per item and grid point.

    ``r w (1 - s) - (n - r) s`` and ``n w s (1 - s)`` (``s = σ(logit)``, ``w`` of
    :func:`~medvqa.irt._model.floor_terms`): ``r - n P`` and ``n P (1 - P)`` without a floor.
    Fisher scoring (expected, not observed, curvature) keeps the floored item's steps stable.
    """
    s, w = floor_terms(logits, c)
    return r * w * (1.0 - s) - (n - r) * s, n * w * s * (1.0 - s)


def _expected_objective(a: np.ndarray, d: np.ndarray, c: np.ndarray, n: np.ndarray,
                        r: np.ndarray, priors: Priors) -> np.ndarray:
    """Each item's expected complete-data log-posterior at ``(a, d)`` (for the line search)."""
    log_p, log_q = ItemBank(a, d, c=c).log_prob(GRID)
    return np.asarray((r * log_p + (n - r) * log_q).sum(axis=1)
                      - 0.5 * ((a - priors.slope_mean) / priors.slope_sd) ** 2
                      - 0.5 * ((d - priors.intercept_mean) / priors.intercept_sd) ** 2)


#: Halvings of a Newton step that lowers an item's objective (a floored item's log-likelihood
#: is not concave in its logit: an undamped step can cycle between two values for ever).
HALVINGS = 8


def _m_step_2pl(a: np.ndarray, d: np.ndarray, c: np.ndarray, n: np.ndarray, r: np.ndarray,
                priors: Priors, steps: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Newton steps on every item's expected complete-data log-posterior (vectorised).

    Returns the slopes, the intercepts and each slope's conditional posterior variance (the
    inverse curvature, for the empirical prior's update).
    """
    pa, pd = 1.0 / priors.slope_sd**2, 1.0 / priors.intercept_sd**2
    det = np.ones_like(a)
    hdd = np.ones_like(a)
    for _ in range(steps):
        resid, w = _score_weight(np.outer(a, GRID) + d[:, None], c, n, r)
        ga = resid @ GRID - (a - priors.slope_mean) * pa
        gd = resid.sum(axis=1) - (d - priors.intercept_mean) * pd
        haa = w @ (GRID**2) + pa
        had = w @ GRID
        hdd = w.sum(axis=1) + pd
        det = haa * hdd - had**2
        step_a = (hdd * ga - had * gd) / det
        step_d = (haa * gd - had * ga) / det
        # A damped step: a flat item (every model alike) must not jump far on one iteration.
        scale = np.minimum(1.0, 2.0 / np.maximum(np.abs(step_a), np.abs(step_d)).clip(1e-12))
        if c.any():  # halve the step of every item whose objective it would lower
            before = _expected_objective(a, d, c, n, r, priors)
            for _ in range(HALVINGS):
                worse = _expected_objective(a + scale * step_a, d + scale * step_d, c, n, r,
                                            priors) < before
                if not worse.any():
                    break
                scale = np.where(worse, scale / 2.0, scale)
            else:
                scale = np.where(worse, 0.0, scale)
        a = a + scale * step_a
        d = d + scale * step_d
    return a, d, hdd / det


def _m_step_1pl(a: float, d: np.ndarray, c: np.ndarray, n: np.ndarray, r: np.ndarray,
                priors: Priors, steps: int = 3) -> tuple[float, np.ndarray]:
    """Newton steps: every intercept given the shared slope, then the slope given them."""
    pa, pd = 1.0 / priors.slope_sd**2, 1.0 / priors.intercept_sd**2
    for _ in range(steps):
        resid, w = _score_weight(a * GRID[None, :] + d[:, None], c, n, r)
        gd = resid.sum(axis=1) - (d - priors.intercept_mean) * pd
        hdd = w.sum(axis=1) + pd
        d = d + np.clip(gd / hdd, -2.0, 2.0)
        resid, w = _score_weight(a * GRID[None, :] + d[:, None], c, n, r)
        ga = float((resid @ GRID).sum()) - (a - priors.slope_mean) * pa
        haa = float((w @ (GRID**2)).sum()) + pa
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
    return ItemBank(bank.a * sd, bank.d + bank.a * mean, cases=bank.cases, c=bank.c)


def _normal_update(x: np.ndarray, var: np.ndarray, floor: float,
                   ceiling: float) -> tuple[float, float]:
    """One EM update of a hierarchical normal prior's mean and spread.

    ``x`` are the items' current estimates and ``var`` their posterior variances: the spread
    counts what each estimate leaves unknown, so it does not shrink below the items' real
    spread when each is poorly determined. The spread is kept within ``[floor, ceiling]``.

    >>> _normal_update(np.array([-1.0, 1.0]), np.array([0.0, 0.0]), 0.1, 5.0)
    (0.0, 1.0)
    """
    mean = float(x.mean())
    spread = float(np.sqrt(np.mean((x - mean) ** 2 + var)))
    return mean, min(max(spread, floor), ceiling)


def _updated_prior(priors: Priors, bank: ItemBank, cov: np.ndarray, ceiling: Priors,
                   model: str) -> Priors:
    """The item priors after one EM update of their means and spreads (hierarchical normal).

    The slopes' prior is updated for the 2PL only (the 1PL's one slope is no sample of items).
    """
    d_mean, d_sd = _normal_update(bank.d, cov[:, 1, 1], priors.min_intercept_sd,
                                  ceiling.intercept_sd)
    priors = replace(priors, intercept_mean=d_mean, intercept_sd=d_sd)
    if model != "2pl":
        return priors
    a_mean, a_sd = _normal_update(bank.a, cov[:, 0, 0], priors.min_slope_sd, ceiling.slope_sd)
    return replace(priors, slope_mean=a_mean, slope_sd=a_sd)


def _log_prior(bank: ItemBank, priors: Priors, model: str) -> float:
    slopes = bank.a[:1] if model == "1pl" else bank.a
    return float(-0.5 * (((slopes - priors.slope_mean) / priors.slope_sd) ** 2).sum()
                 - 0.5 * (((bank.d - priors.intercept_mean) / priors.intercept_sd) ** 2).sum())


def _covariances(y: np.ndarray, obs: np.ndarray, post: np.ndarray, bank: ItemBank,
                 priors: Priors, model: str) -> np.ndarray:
    """Per item the 2×2 covariance of ``(a, d)``: inverse cross-product information + prior."""
    # Each model's score of each item's logit, averaged over its ability posterior: y w (1 - s)
    # for a right answer, -s for a wrong one (y - P without a floor).
    s_, w_ = floor_terms(bank.logits(GRID), bank.c)  # items × grid
    known = w_ * (1.0 - s_)
    g_d = obs * (y * (post @ known.T) - (1.0 - y) * (post @ s_.T))
    g_a = obs * (y * ((post * GRID) @ known.T) - (1.0 - y) * ((post * GRID) @ s_.T))
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
              cases: np.ndarray | None = None,
              floors: np.ndarray | None = None) -> Calibration:
    """Fit a 1PL or 2PL model to a models × items matrix of 1 (right), 0 (wrong), NaN (missing).

    Args:
        responses: one row per model, one column per item.
        model: ``1pl`` or ``2pl``.
        priors: the item priors (None: :class:`Priors`' defaults).
        max_iter: most EM iterations.
        tol: stop when the log-posterior changes by less than this per answer (per model
            and item answered: a zoo of 30 models on 1,000 items stops below 0.03; a floored
            bank's EM creeps towards its optimum, and a tolerance per model would never be
            met there).
        cases: per item an integer case label (kept on the bank for ability estimation).
        floors: per item the fixed lower asymptote (guessing floor; None: 0, the 2PL).

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
    ceiling = priors
    y_raw = np.asarray(responses, dtype=float)
    obs = (~np.isnan(y_raw)).astype(float)
    y = np.nan_to_num(y_raw, nan=0.0)
    n_items = y.shape[1]
    # Start from the items' observed logits (right more often: a larger intercept).
    c = np.zeros(n_items) if floors is None else np.asarray(floors, dtype=float)
    rate = (y.sum(axis=0) + 0.5) / (obs.sum(axis=0) + 1.0)
    # the logistic part's rate: what is right beyond the floor
    known = np.clip((rate - c) / (1.0 - c), 0.02, 0.98)
    d = np.log(known / (1.0 - known))
    a_shared = priors.slope_mean
    a = np.full(n_items, priors.slope_mean)
    log_w = _log_weights()
    bank = ItemBank(a, d, cases=cases, c=c)
    previous = -np.inf
    converged = False
    iterations = 0
    post, loglik = _posterior(y, obs, bank, log_w)
    for iterations in range(1, max_iter + 1):  # noqa: B007 - the count is reported
        n_q, r_q = obs.T @ post, y.T @ post  # items × grid: expected counts
        if model == "2pl":
            a, d, _ = _m_step_2pl(bank.a, bank.d, c, n_q, r_q, priors)
        else:
            a_shared, d = _m_step_1pl(a_shared, bank.d, c, n_q, r_q, priors)
            a = np.full(n_items, a_shared)
        if priors.empirical:
            # The items' posterior variances from the cross-product information, which counts
            # what the models' unknown abilities leave unknown (the complete-data curvature
            # would not, and the priors' spreads would shrink too far).
            step = ItemBank(a, d, c=c)
            priors = _updated_prior(priors, step, _covariances(y, obs, post, step, priors, model),
                                    ceiling, model)
        bank = _standardised(ItemBank(a, d, cases=cases, c=c), post)
        post, loglik = _posterior(y, obs, bank, log_w)
        objective = loglik + _log_prior(bank, priors, model)
        if abs(objective - previous) < tol * max(float(obs.sum()), 1.0):
            converged = True
            break
        previous = objective
    bank.cov = _covariances(y, obs, post, bank, priors, model)
    theta = post @ GRID
    sd = np.sqrt(np.maximum(post @ GRID**2 - theta**2, 0.0))
    return Calibration(bank, theta, sd, loglik, iterations, converged, model, priors)
