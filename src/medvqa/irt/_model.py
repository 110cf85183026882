"""The item model: 1PL and 2PL logistic items in slope-intercept form, and their information.

An item ``i`` answered by a model of ability ``θ`` is right with probability

    P_i(θ) = 1 / (1 + exp(-(a_i θ + d_i)))

``a_i`` is the discrimination (the slope: how much more often a stronger model gets it right;
negative when stronger models get it wrong more often, the mark of a wrong answer key) and
``d_i`` the intercept; the difficulty is ``b_i = -d_i / a_i``, the ability at which the item is
right half the time (undefined where ``a_i`` is near zero, so the intercept is what is
estimated). The 1PL model shares one slope among all items. The slope-intercept form is the
one estimated because it stays smooth through ``a = 0``.

Fisher information of an item at ``θ`` is ``a_i² P_i (1 - P_i)``: what one more response tells
about ``θ``.

>>> bank = ItemBank(np.array([1.0, 2.0]), np.array([0.0, -2.0]))
>>> [round(float(p), 3) for p in bank.prob(np.array([0.0]))[:, 0]]
[0.5, 0.119]
>>> [round(float(x), 3) for x in bank.information(0.0)]
[0.25, 0.42]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.special import expit

#: The item models: ``1pl`` (one shared slope) and ``2pl`` (a slope per item).
IRT_MODELS = ("1pl", "2pl")


def sigmoid(x: np.ndarray) -> np.ndarray:
    """The logistic function (SciPy's ``expit``: no overflow at large ``|x|``)."""
    return np.asarray(expit(x))


@dataclass
class ItemBank:
    """Calibrated items: slopes, intercepts and the covariance of each item's estimate.

    Attributes:
        a: slopes (discriminations), one per item.
        d: intercepts, one per item.
        cov: per item the 2×2 covariance of ``(a, d)`` (zeros: treated as known).
        cases: per item an integer case label (items of one case share it), or None when
            every item is its own case.
    """

    a: np.ndarray
    d: np.ndarray
    cov: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 2)))
    cases: np.ndarray | None = None

    def __post_init__(self) -> None:
        self.a = np.asarray(self.a, dtype=float)
        self.d = np.asarray(self.d, dtype=float)
        if self.cov.shape[0] != len(self.a):
            self.cov = np.zeros((len(self.a), 2, 2))

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
        return sigmoid(self.logits(theta))

    def information(self, theta: float, items: np.ndarray | None = None) -> np.ndarray:
        """Fisher information of each item (or of ``items``, indices) at one ability."""
        a = self.a if items is None else self.a[items]
        d = self.d if items is None else self.d[items]
        p = sigmoid(a * theta + d)
        return np.asarray(a * a * p * (1.0 - p))

    def subset(self, items: np.ndarray) -> ItemBank:
        """The bank of the items at ``items`` (indices or a mask)."""
        return ItemBank(self.a[items], self.d[items], self.cov[items],
                        None if self.cases is None else self.cases[items])
