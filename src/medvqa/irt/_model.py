"""The item model: logistic items in slope-intercept form, with a fixed guessing floor.

An item ``i`` answered by a model of ability ``θ`` is right with probability

    P_i(θ) = c_i + (1 - c_i) / (1 + exp(-(a_i θ + d_i)))

``a_i`` is the discrimination (the slope: how much more often a stronger model gets it right;
negative when stronger models get it wrong more often, the mark of a wrong answer key) and
``d_i`` the intercept; the difficulty is ``b_i = -d_i / a_i``, the ability at which the logistic
part is one half (undefined where ``a_i`` is near zero, so the intercept is what is estimated).
``c_i`` is the lower asymptote, the rate a model that does not know the answer still gets it
right by picking an option: fixed, never estimated (:mod:`medvqa.irt._guessing` sets it from the
item's number of options; 0 gives the 2PL). With ``c`` fixed this is a 3PL whose extra
parameter costs the zoo nothing to estimate. The 1PL model shares one slope among all items.
The slope-intercept form is the one estimated because it stays smooth through ``a = 0``.

Fisher information of an item at ``θ`` is ``a_i² (P_i - c_i)² (1 - P_i) / ((1 - c_i)² P_i)``
(Birnbaum's; ``a_i² P_i (1 - P_i)`` at ``c_i = 0``): what one more response tells about ``θ``.
A right answer to an item that can be guessed says less, most of all for weak models.

>>> bank = ItemBank(np.array([1.0, 2.0]), np.array([0.0, -2.0]))
>>> [round(float(p), 3) for p in bank.prob(np.array([0.0]))[:, 0]]
[0.5, 0.119]
>>> [round(float(x), 3) for x in bank.information(0.0)]
[0.25, 0.42]
>>> floor = ItemBank(np.array([1.0]), np.array([0.0]), c=np.array([0.25]))
>>> round(float(floor.prob(np.array([-20.0]))[0, 0]), 3), round(float(floor.information(0.0)[0]), 3)
(0.25, 0.15)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from scipy.special import expit, log_expit

#: The item models: ``1pl`` (one shared slope) and ``2pl`` (a slope per item).
IRT_MODELS = ("1pl", "2pl")


def sigmoid(x: np.ndarray) -> np.ndarray:
    """The logistic function (SciPy's ``expit``: no overflow at large ``|x|``)."""
    return np.asarray(expit(x))


class LogProb(NamedTuple):
    """Log-probabilities of a right (``right``) and a wrong (``wrong``) answer."""

    right: np.ndarray
    wrong: np.ndarray


def floor_terms(logits: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``s = σ(logits)`` and ``w = (1 - c) s / P``, the share of a right answer that was known.

    ``w`` is 1 without a floor; it is what turns the 2PL's score and information into the
    floored model's (a right answer to a guessable item is partly luck).
    """
    s = sigmoid(logits)
    c = np.asarray(c, dtype=float).reshape((-1,) + (1,) * (s.ndim - 1)) if s.ndim > 1 else c
    p = c + (1.0 - c) * s
    return s, np.asarray((1.0 - c) * s / np.maximum(p, 1e-300))


@dataclass
class ItemBank:
    """Calibrated items: slopes, intercepts, floors and the covariance of each item's estimate.

    Attributes:
        a: slopes (discriminations), one per item.
        d: intercepts, one per item.
        cov: per item the 2×2 covariance of ``(a, d)`` (zeros: treated as known).
        cases: per item an integer case label (items of one case share it), or None when
            every item is its own case.
        c: per item the fixed lower asymptote (guessing floor); zeros: the 2PL.
        exposure_k: per item its Sympson–Hetter exposure parameter, the probability that the
            item is given when selection picks it (ones: no exposure control).
    """

    a: np.ndarray
    d: np.ndarray
    cov: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 2)))
    cases: np.ndarray | None = None
    c: np.ndarray = field(default_factory=lambda: np.zeros(0))
    exposure_k: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def __post_init__(self) -> None:
        self.a = np.asarray(self.a, dtype=float)
        self.d = np.asarray(self.d, dtype=float)
        if self.cov.shape[0] != len(self.a):
            self.cov = np.zeros((len(self.a), 2, 2))
        self.c = np.asarray(self.c, dtype=float)
        if self.c.shape != self.a.shape:
            self.c = np.zeros(len(self.a))
        self.exposure_k = np.asarray(self.exposure_k, dtype=float)
        if self.exposure_k.shape != self.a.shape:
            self.exposure_k = np.ones(len(self.a))

    def __len__(self) -> int:
        return len(self.a)

    @property
    def b(self) -> np.ndarray:
        """Difficulties ``-d / a`` (NaN where the slope is 0)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.a != 0, -self.d / self.a, np.nan)

    def logits(self, theta: np.ndarray) -> np.ndarray:
        """``a θ + d`` for every item (rows) and ability (columns)."""
        return np.outer(self.a, np.atleast_1d(theta)) + self.d[:, None]

    def prob(self, theta: np.ndarray) -> np.ndarray:
        """P(right) for every item (rows) at every ability of ``theta`` (columns)."""
        c = self.c[:, None]
        return np.asarray(c + (1.0 - c) * sigmoid(self.logits(theta)))

    def log_prob(self, theta: np.ndarray) -> LogProb:
        """Log P(right) and log P(wrong), items × abilities, without loss at the tails."""
        logits = self.logits(theta)
        c = self.c[:, None]
        with np.errstate(divide="ignore"):
            log_c, log_1c = np.log(c), np.log1p(-c)
        right = np.logaddexp(log_c, log_1c + log_expit(logits))
        return LogProb(np.asarray(right), np.asarray(log_1c + log_expit(-logits)))

    def information(self, theta: float, items: np.ndarray | None = None) -> np.ndarray:
        """Fisher information of each item (or of ``items``, indices) at one ability."""
        idx = slice(None) if items is None else items
        a, c = self.a[idx], self.c[idx]
        s, w = floor_terms(a * theta + self.d[idx], c)
        return np.asarray(a * a * w * s * (1.0 - s))

    def information_grid(self, theta: np.ndarray) -> np.ndarray:
        """Fisher information of every item (rows) at every ability of ``theta`` (columns)."""
        s, w = floor_terms(self.logits(theta), self.c)
        return np.asarray((self.a**2)[:, None] * w * s * (1.0 - s))

    def ability_scores(self, theta: float, items: np.ndarray, answers: np.ndarray) -> np.ndarray:
        """Each answer's contribution to d log L / dθ at ``theta`` (items ``items``)."""
        a = self.a[items]
        s, w = floor_terms(a * theta + self.d[items], self.c[items])
        y = np.asarray(answers, dtype=float)
        return np.asarray(a * (y * w * (1.0 - s) - (1.0 - y) * s))

    def subset(self, items: np.ndarray) -> ItemBank:
        """The bank of the items at ``items`` (indices or a mask)."""
        return ItemBank(self.a[items], self.d[items], self.cov[items],
                        None if self.cases is None else self.cases[items], self.c[items],
                        self.exposure_k[items])
