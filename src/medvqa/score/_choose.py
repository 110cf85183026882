"""Which interval a figure gets: a closed-form score interval, or the run's bootstrap.

The rule is :func:`medvqa.stats.bootstrap_applies` (many units and both outcomes common: the
percentile bootstrap, drawn with every other interval of the run; otherwise the score interval
on the effective sample size, computed here at once). A :class:`Chosen` carries the interval
(filled now, or by the resampler) and the method's name for metrics.json.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np

from medvqa.stats import (
    BOOTSTRAP,
    ClosedInterval,
    Columns,
    IntervalRef,
    Resampler,
    bootstrap_applies,
    dense_labels,
    paired_interval,
)


@dataclass(frozen=True)
class Chosen:
    """An interval (filled now, or when the resampler runs) and how it is made.

    Attributes:
        ref: the interval.
        method: metrics.json's ``method`` (``wilson``, ``bootstrap``, …).
        design_effect: what the sample size was divided by (None for the bootstrap).
    """

    ref: IntervalRef
    method: str
    design_effect: float | None = None

    @classmethod
    def closed(cls, interval: ClosedInterval) -> Chosen:
        """A closed-form interval, filled at once."""
        return cls(IntervalRef(interval.low, interval.high), interval.method,
                   interval.design_effect)

    @classmethod
    def bootstrap(cls, ref: IntervalRef) -> Chosen:
        """An interval the run's resampler fills."""
        return cls(ref, BOOTSTRAP)


def n_units(units: np.ndarray) -> int:
    """Distinct resampling units among rows (cases when clustered, else items).

    >>> n_units(np.array([4, 4, 9]))
    2
    """
    return int(dense_labels(np.asarray(units)).max()) + 1 if len(units) else 0


def paired_choice(key: Hashable, a: np.ndarray, b: np.ndarray, units: np.ndarray,
                  resampler: Resampler) -> Chosen | None:
    """The interval of mean(a − b) for paired 0/1 outcomes (None without pairs).

    Newcombe's square-and-add interval on Jeffreys intervals (effective n when a unit
    repeats), or the paired percentile bootstrap from the run's draws when the rule keeps it.
    """
    n = len(a)
    if not n:
        return None
    closed = paired_interval(a, b, units)
    if bootstrap_applies(n_units(units), closed.rarer):
        d = np.asarray(a, float) - np.asarray(b, float)
        return Chosen.bootstrap(resampler.interval(key, units,
                                                   lambda: Columns.dense(d, np.ones(n)),
                                                   lambda s: s[:, 0] / s[:, 1]))
    return Chosen.closed(closed)
