"""An adaptive test of one model: which item next, what the answers so far say, when to stop.

The model's ability has a posterior on a fine grid (standard-normal prior, the calibration's
population), updated exactly with each answer. The next item is the most informative one at the
posterior mean (Fisher information of :class:`~medvqa.irt._model.ItemBank`, guessing floor
included), never a second item of a case already asked while items of other cases remain
(items of one case are not independent evidence), under one of three exposure controls
(not every model should see the same few items: a leaked or memorised item then hurts every
run alike):

* ``sympson-hetter`` (Sympson & Hetter, 1985; the default): the most informative item is given
  with its exposure parameter ``K_i`` (:mod:`medvqa.irt._exposure` sets them by simulation so
  that no item is given to more than a chosen share of models), else it is set aside for the
  rest of this test and the next most informative one is drawn for, and so on;
* ``randomesque`` (Kingsbury & Zara, 1989): drawn at random among the ``randomesque`` most
  informative;
* ``none``: always the most informative.

Every draw comes from the session's seeded generator, consumed in a fixed order: the same
answers give the same items.

What is reported is the accuracy the model would have had on the whole benchmark: the answers
given, plus for every item not asked its predicted probability of being right ``P̄_i(θ)``, the
item's probability averaged over its ``(a, d)`` covariance (the probit approximation: the
calibration's uncertainty pulls a prediction towards one half), then over the ability posterior.
Its variance is the law of total variance over the ability, each part computed, not assumed:

* the outcomes of the items not asked, each right with probability ``P̄_i(θ)``: Bernoulli,
  ``Σ P̄_i (1 - P̄_i)``. This already holds the calibration's uncertainty of each item: the
  variance of an outcome whose probability is uncertain is ``E[P(1 - P)] + Var(P) =
  P̄ (1 - P̄)``, so no delta-method term for ``Var(P)`` is added on top (it would count the
  calibration twice, and every test would ask more items than its interval needs);
* the ability's uncertainty: the spread of ``Σ P̄_i(θ)`` over the posterior;

times the interval inflation the calibration measured by cross-validation on its own zoo (how
much wider the intervals had to be to cover held-out models' real accuracy; 1 when they
covered). When items of one case were asked together, the answers' log-likelihood is divided
by the case design effect (the sandwich over the model-based variance of the ability's score).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from medvqa.irt._model import ItemBank, sigmoid
from medvqa.irt._settings import AdaptiveSettings

#: The ability grid of an adaptive test (finer than calibration's: one test, one model).
THETA_GRID = np.linspace(-6.0, 6.0, 121)
#: Two-sided 95 % normal quantile.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class AccuracyEstimate:
    """The estimated full-benchmark accuracy after some items.

    Attributes:
        value: estimated accuracy over every item of the bank.
        se: its standard error (inflation included).
        low: lower end of the 95 % interval (never below what the answers already fix).
        high: upper end of the 95 % interval.
        asked: items asked.
        theta: ability, posterior mean.
        theta_sd: ability, posterior standard deviation.
        design_effect: the case design effect applied (1: none).
    """

    value: float
    se: float
    low: float
    high: float
    asked: int
    theta: float
    theta_sd: float
    design_effect: float = 1.0


@dataclass
class AdaptiveSession:
    """One adaptive test: feed it answers, ask it for the next items and the estimate.

    Args:
        bank: the calibrated items (all of the benchmark's items, in benchmark order).
        settings: how to choose and stop.
        rng: the seeded generator of the randomesque draws (consumed in a fixed order, so the
            same answers give the same items).
    """

    bank: ItemBank
    settings: AdaptiveSettings
    rng: np.random.Generator
    asked: list[int] = field(default_factory=list)
    answers: list[bool] = field(default_factory=list)
    rejected: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        logits = self.bank.logits(THETA_GRID)  # items × grid
        self._log_p, self._log_q = self.bank.log_prob(THETA_GRID)
        c = self.bank.c[:, None]
        cov = self.bank.cov
        # Variance of each item's logit at each ability, from its (a, d) covariance.
        var_logit = (cov[:, 0, 0, None] * THETA_GRID**2
                     + 2.0 * cov[:, 0, 1, None] * THETA_GRID + cov[:, 1, 1, None])
        self._info = self.bank.information_grid(THETA_GRID)
        # What is predicted of an item not asked: P averaged over its parameters' uncertainty
        # (the probit approximation), not the plug-in P, which is overconfident at the ends.
        p = c + (1.0 - c) * sigmoid(logits / np.sqrt(1.0 + np.pi / 8.0 * var_logit))
        pq = p * (1.0 - p)
        self._p = p
        # Running sums over the items not yet asked, per grid point.
        self._sum_p = p.sum(axis=0)
        self._sum_pq = pq.sum(axis=0)
        self._loglik = np.zeros_like(THETA_GRID)
        self._log_prior = -0.5 * THETA_GRID**2
        self._open = np.ones(len(self.bank), dtype=bool)
        self._blocked = np.zeros(len(self.bank), dtype=bool)  # set aside by Sympson–Hetter
        cases = self.bank.cases
        self._cases = cases if cases is not None else np.arange(len(self.bank))
        _, self._case_of = np.unique(self._cases, return_inverse=True)
        order = np.argsort(self._case_of, kind="stable")
        bounds = np.searchsorted(self._case_of[order], np.arange(self._case_of.max(initial=-1) + 2))
        self._case_items = [order[bounds[c]:bounds[c + 1]] for c in range(len(bounds) - 1)]
        self._case_seen = np.zeros(len(self.bank), dtype=bool)  # an item of its case was asked
        self._case_asked: set[int] = set()
        self._right = 0

    # -- answers ---------------------------------------------------------------------------

    def record(self, index: int, correct: bool) -> None:
        """Take the answer to item ``index`` (right or wrong)."""
        if not self._open[index]:
            raise ValueError(f"item {index} was already answered")
        self._open[index] = False
        self.asked.append(index)
        self.answers.append(bool(correct))
        self._right += bool(correct)
        self._loglik += self._log_p[index] if correct else self._log_q[index]
        self._sum_p -= self._p[index]
        self._sum_pq -= self._p[index] * (1.0 - self._p[index])
        self._case_asked.add(int(self._case_of[index]))
        self._case_seen[self._case_items[int(self._case_of[index])]] = True

    def skip(self, index: int) -> None:
        """Set item ``index`` aside unanswered (its request failed): it stays predicted."""
        self._open[index] = False

    # -- the ability ------------------------------------------------------------------------

    def design_effect(self) -> float:
        """The case design effect of the answers so far (1 unless a case was asked twice)."""
        if len(self._case_asked) == len(self.asked):
            return 1.0
        theta = float(self._posterior(1.0) @ THETA_GRID)
        return case_design_effect(ItemBank(self.bank.a, self.bank.d, cases=self._case_of,
                                           c=self.bank.c),
                                  np.asarray(self.asked), np.asarray(self.answers), theta)

    def _posterior(self, deff: float) -> np.ndarray:
        log_post = self._log_prior + self._loglik / deff
        w = np.exp(log_post - log_post.max())
        return np.asarray(w / w.sum())

    # -- the estimate -----------------------------------------------------------------------

    def estimate(self) -> AccuracyEstimate:
        """The estimated full-benchmark accuracy, its standard error and 95 % interval."""
        n = len(self.bank)
        deff = self.design_effect()
        post = self._posterior(deff)
        theta = float(post @ THETA_GRID)
        theta_sd = float(np.sqrt(max(float(post @ THETA_GRID**2) - theta**2, 0.0)))
        mean_sum = float(post @ self._sum_p)
        var = float(post @ self._sum_pq) + float(post @ (self._sum_p - mean_sum) ** 2)
        value = (self._right + mean_sum) / n
        se = self.settings.inflation * float(np.sqrt(max(var, 0.0))) / n
        floor = self._right / n
        ceiling = (self._right + int(self._open.sum())) / n
        low = float(np.clip(value - Z95 * se, floor, ceiling))
        high = float(np.clip(value + Z95 * se, floor, ceiling))
        return AccuracyEstimate(value, se, low, high, len(self.asked), theta, theta_sd, deff)

    # -- the next items -----------------------------------------------------------------------

    @property
    def remaining(self) -> int:
        """Items neither asked nor set aside."""
        return int(self._open.sum())

    def stop_reason(self, estimate: AccuracyEstimate | None = None) -> str | None:
        """Why the test stops now (``target``, ``budget``, ``exhausted``), or None."""
        est = estimate or self.estimate()
        budget = self.settings.budget
        if self.asked and est.se <= self.settings.target_se:
            return "target"
        if budget is not None and len(self.asked) >= budget:
            return "budget"
        if self.remaining == 0:
            return "exhausted"
        return None

    def next_items(self, k: int | None = None) -> list[int]:
        """The next ``k`` items to ask (default ``settings.batch``; fewer near the budget)."""
        want = self.settings.batch if k is None else k
        if self.settings.budget is not None:
            want = min(want, self.settings.budget - len(self.asked))
        chosen: list[int] = []
        if want <= 0:
            return chosen
        post = self._posterior(self.design_effect())
        theta = float(post @ THETA_GRID)
        column = int(np.abs(THETA_GRID - theta).argmin())
        info = self._info[:, column].copy()
        # Items set aside by Sympson–Hetter stay aside while others remain.
        avail = self._open & ~self._blocked
        info[~(avail if avail.any() else self._open)] = -np.inf
        seen = self._case_seen.copy()
        for _ in range(want):
            free = np.isfinite(info)
            if not free.any():
                break
            fresh = free & ~seen
            pool = np.flatnonzero(fresh if fresh.any() else free)
            pick = self._pick(pool, info)
            chosen.append(pick)
            info[pick] = -np.inf
            seen[self._case_items[int(self._case_of[pick])]] = True
        return chosen

    def _pick(self, pool: np.ndarray, info: np.ndarray) -> int:
        """One item of ``pool`` under the exposure control (``info``: -inf marks set aside)."""
        method = self.settings.exposure
        if method == "randomesque" and len(pool) > self.settings.randomesque > 1:
            pool = pool[np.argpartition(-info[pool], self.settings.randomesque - 1)
                        [:self.settings.randomesque]]
        top = pool[np.lexsort((pool, -info[pool]))]  # by information, ties by position
        if method == "randomesque":
            return int(top[self.rng.integers(len(top))]) if len(top) > 1 else int(top[0])
        if method == "none":
            return int(top[0])
        k = self.bank.exposure_k
        for i in top:
            if k[i] >= 1.0 or self.rng.random() < k[i]:
                return int(i)
            self._blocked[i] = True
            self.rejected.append(int(i))
            info[i] = -np.inf
        return int(top[0])  # every candidate was set aside: the most informative is given


def predict(bank: ItemBank, asked: np.ndarray, answers: np.ndarray,
            targets: np.ndarray) -> np.ndarray:
    """P(right) of the items ``targets`` for a model that answered ``asked`` as ``answers``.

    The ability posterior of those answers (standard-normal prior, the grid of
    :data:`THETA_GRID`) averages each target item's probability.
    """
    log_p, log_q = bank.subset(asked).log_prob(THETA_GRID)
    y = np.asarray(answers, dtype=float)[:, None]
    log_post = -0.5 * THETA_GRID**2 + (y * log_p + (1 - y) * log_q).sum(0)
    w = np.exp(log_post - log_post.max())
    w /= w.sum()
    return np.asarray(bank.subset(targets).prob(THETA_GRID) @ w)


def case_design_effect(bank: ItemBank, asked: np.ndarray, answers: np.ndarray,
                       theta: float) -> float:
    """The case design effect of answers to ``asked`` at ability ``theta``.

    The sandwich variance of the ability's score over its model-based variance: how much the
    items of one case answered together say less than as many independent items. 1 when no
    case holds two of the items; at most the largest number of them in one case.
    """
    if bank.cases is None or len(asked) < 2:
        return 1.0
    _, inverse = np.unique(bank.cases[asked], return_inverse=True)
    inverse = inverse.reshape(-1)
    if inverse.max() + 1 == len(asked):
        return 1.0
    scores = bank.ability_scores(theta, asked, answers)
    plain = float((scores**2).sum())
    if plain <= 0.0:
        return 1.0
    by_case = np.bincount(inverse, weights=scores)
    return float(np.clip((by_case**2).sum() / plain, 1.0, float(np.bincount(inverse).max())))
