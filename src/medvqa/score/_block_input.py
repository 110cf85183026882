"""What a metric function sees of one block of rows, and the intervals it may ask for.

A block is the rows of one condition, or of one breakdown group of it. Metric functions
(:data:`~medvqa.score._metric_table.METRICS`) read its arrays and ask for intervals —
:meth:`BlockInput.base` for statistics of the block's standard sums (correct, invalid, n and,
where class metrics apply, per-class totals, true and false positives),
:meth:`BlockInput.ratio` and :meth:`BlockInput.interval` for their own columns, and
:meth:`BlockInput.rate` for a proportion, which gets a closed-form score interval on small sets
(:mod:`medvqa.stats._intervals`; the rule in :mod:`medvqa.score._choose`). Bootstrap intervals
are registered with the run's :class:`~medvqa.stats._resample.Resampler` and filled when it
runs, so a function returns a :class:`PendingValue`; :func:`resolve` turns it into a
:class:`~medvqa.schema.MetricValue` afterwards.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from medvqa.schema import MetricValue
from medvqa.score._choose import Chosen, n_units
from medvqa.score._table import Extra
from medvqa.stats import (
    BOOTSTRAP,
    DEGENERATE,
    Columns,
    IntervalRef,
    Part,
    Resampler,
    bootstrap_applies,
    rate_interval,
)


def clean(x: float | None) -> float | None:
    """NaN → None; otherwise rounded to 6 decimals (figures, not p-values).

    >>> clean(float("nan")), clean(0.12345678)
    (None, 0.123457)
    """
    return None if x is None or math.isnan(x) else round(float(x), 6)


@dataclass(frozen=True)
class PendingValue:
    """A point estimate whose interval is filled now or by the resampler (None: no interval)."""

    point: float | None
    ci: Chosen | None


def value(point: float | None, ci: Chosen | IntervalRef | None) -> PendingValue:
    """A metric's point estimate with the interval it asked for (a bare ref: the bootstrap)."""
    return PendingValue(point, Chosen.bootstrap(ci) if isinstance(ci, IntervalRef) else ci)


def resolve(found: Any) -> Any:
    """Pending values (also inside dicts) → :class:`MetricValue`, NaN written as null.

    A bootstrap interval of zero width (every resample gave one value: macro-F1 of a small
    all-correct set) is no interval: it is written as null, its method saying why.
    """
    if isinstance(found, PendingValue):
        if found.ci is None:
            return MetricValue(value=clean(found.point), ci=[None, None])
        lo, hi = clean(found.ci.ref.low), clean(found.ci.ref.high)
        method = found.ci.method
        if method == BOOTSTRAP and lo is not None and lo == hi:
            lo = hi = None
            method = DEGENERATE
        deff = found.ci.design_effect
        return MetricValue(value=clean(found.point), ci=[lo, hi],
                           method=method if lo is not None or method == DEGENERATE else None,
                           design_effect=None if deff is None else round(deff, 4))
    if isinstance(found, dict):
        return {k: resolve(v) for k, v in found.items()}
    return found


@dataclass
class Classes:
    """The block's gold classes and each row's class code within them.

    Attributes:
        labels: sorted class codes present among the gold answers.
        gold: per row, the index of its gold class in ``labels``.
        pred: per row, the index of its predicted class in ``labels``; −1 when the
            prediction is no gold class of the block (or invalid).
    """

    labels: np.ndarray
    gold: np.ndarray
    pred: np.ndarray

    @classmethod
    def of(cls, gold: np.ndarray, pred: np.ndarray) -> Classes:
        """Classes of gold and predicted class codes (stable hashes).

        >>> c = Classes.of(np.array([7, 3, 7]), np.array([3, 9, 7]))
        >>> c.labels.tolist(), c.gold.tolist(), c.pred.tolist()
        ([3, 7], [1, 0, 1], [0, -1, 1])
        """
        labels = np.unique(gold)
        at = np.minimum(np.searchsorted(labels, pred), max(len(labels) - 1, 0))
        known = labels[at] == pred if len(labels) else np.zeros(len(pred), dtype=bool)
        return cls(labels, np.searchsorted(labels, gold), np.where(known, at, -1))


class BaseSums:
    """Resampled sums of a block's standard columns, by name (each (b,) or (b × classes))."""

    def __init__(self, sums: np.ndarray, n_classes: int, split_hits: bool):
        self._s, self._c, self._split = sums, n_classes, split_hits

    def _block(self, i: int) -> np.ndarray:
        return self._s[:, 1 + i * self._c: 1 + (i + 1) * self._c]

    @property
    def invalid(self) -> np.ndarray:
        """Σ invalid."""
        return self._s[:, 0]

    @property
    def correct(self) -> np.ndarray:
        """Σ correct."""
        return self._s[:, 1] if not self._c else np.asarray(self.hits.sum(axis=1))

    @property
    def n(self) -> np.ndarray:
        """Σ 1 (rows drawn)."""
        return self._s[:, 2] if not self._c else np.asarray(self.tot.sum(axis=1))

    @property
    def tot(self) -> np.ndarray:
        """Per class: rows whose gold answer is the class."""
        return self._block(0)

    @property
    def tp(self) -> np.ndarray:
        """Per class: rows predicted as their gold class."""
        return self._block(1)

    @property
    def fp(self) -> np.ndarray:
        """Per class: rows predicted as the class whose gold answer is another."""
        return self._block(2)

    @property
    def fn(self) -> np.ndarray:
        """Per class: rows of the class predicted as something else."""
        return np.asarray(self.tot - self.tp)

    @property
    def hits(self) -> np.ndarray:
        """Per class: correct rows of the class (= tp unless a parser compares texts)."""
        return self._block(3) if self._split else self.tp


@dataclass
class BlockInput:
    """One block: its arrays, and the run's resampler for its intervals.

    Attributes:
        key: identifies the block (columns registered under it are shared by its metrics).
        correct: 1.0 / 0.0 per row.
        invalid: 1.0 where the parser abstained.
        gold: gold class code per row (:func:`~medvqa.score._rows.class_hash`).
        pred: predicted class code per row.
        chance: chance of a uniform guess per row.
        guessed: 1 / 0 where the parser may guess at random, −1 where it never does.
        units: resampling unit per row.
        extras: ``region`` / ``open`` / ``bleu`` scores of the rows that have them.
        resampler: the run's resampler.
        class_note: "" when class metrics apply to the block, else why they do not.
        class_interval: whether class metrics get an interval.
    """

    key: Hashable
    correct: np.ndarray
    invalid: np.ndarray
    gold: np.ndarray
    pred: np.ndarray
    chance: np.ndarray
    guessed: np.ndarray
    units: np.ndarray
    extras: dict[str, Extra]
    resampler: Resampler
    class_note: str = ""
    class_interval: bool = True
    _classes: Classes | None = field(default=None, repr=False)
    _names: itertools.count[int] = field(default_factory=itertools.count, repr=False)
    _units: int | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.correct)

    @property
    def classes(self) -> Classes:
        """The block's gold classes and the rows' codes in them."""
        if self._classes is None:
            self._classes = Classes.of(self.gold, self.pred)
        return self._classes

    @property
    def n_units(self) -> int:
        """Distinct resampling units among the block's rows (cases, or items)."""
        if self._units is None:
            self._units = n_units(self.units)
        return self._units

    def rate(self, hits: np.ndarray, statistic: Callable[[BaseSums], np.ndarray],
             among: np.ndarray | None = None) -> Chosen | None:
        """The interval of a proportion of 0/1 ``hits`` (over the rows ``among``, or all).

        The Wilson score interval on the effective sample size, or — from
        :data:`~medvqa.stats.BOOTSTRAP_MIN_UNITS` units with
        :data:`~medvqa.stats.BOOTSTRAP_MIN_COUNT` of the rarer outcome — the bootstrap of
        ``statistic`` of the block's standard sums (None for an empty set).
        """
        rows_hits = hits if among is None else hits[among]
        rows_units = self.units if among is None else self.units[among]
        if not len(rows_hits):
            return None
        closed = rate_interval(rows_hits, rows_units)
        units = self.n_units if among is None else n_units(rows_units)
        if bootstrap_applies(units, closed.rarer):
            ref = self.base(statistic)
            return None if ref is None else Chosen.bootstrap(ref)
        return Chosen.closed(closed)

    def _with_classes(self) -> bool:
        return not self.class_note and self.class_interval

    def base(self, statistic: Callable[[BaseSums], np.ndarray]) -> IntervalRef | None:
        """Interval of ``statistic`` of the block's standard sums (None for an empty block)."""
        if not len(self):
            return None
        c = len(self.classes.labels) if self._with_classes() else 0
        split = bool(c) and not np.array_equal(
            self.correct.astype(bool), self.classes.gold == self.classes.pred)

        def columns() -> Columns:
            return self._base_columns(c, split)

        return self.resampler.interval((self.key, "base"), self.units, columns,
                                       lambda s: statistic(BaseSums(s, c, split)))

    def _base_columns(self, c: int, split: bool) -> Columns:
        """The standard columns: invalid, correct, n.

        With ``c`` classes: invalid, then per class tot, tp, fp (and hits when they differ
        from tp); correct and n are the sums over the classes.
        """
        if not c:
            return Columns.dense(self.invalid, self.correct, np.ones(len(self)))
        k = self.classes
        same = np.flatnonzero(k.gold == k.pred)
        fp = np.flatnonzero((k.gold != k.pred) & (k.pred >= 0))
        parts = [Part(None, 0, self.invalid), Part(None, 1 + k.gold),
                 Part(same, 1 + c + k.gold[same]), Part(fp, 1 + 2 * c + k.pred[fp])]
        if split:
            parts.append(Part(None, 1 + 3 * c + k.gold, self.correct))
        return Columns(1 + (4 if split else 3) * c, tuple(parts))

    def ratio(self, num: np.ndarray, den: np.ndarray, name: str = "") -> IntervalRef | None:
        """Interval of Σ num / Σ den over resampled units (None when Σ den is 0)."""
        num, den = np.asarray(num, float), np.asarray(den, float)
        if not len(den) or den.sum() == 0:
            return None
        return self.interval(name or f"ratio{next(self._names)}", lambda: Columns.dense(num, den),
                             lambda s: s[:, 0] / s[:, 1])

    def interval(self, name: str, columns: Callable[[], Columns],
                 statistic: Callable[[np.ndarray], np.ndarray]) -> IntervalRef | None:
        """Interval of ``statistic`` of the resampled sums of ``columns`` (built once per name)."""
        if not len(self):
            return None
        return self.resampler.interval((self.key, name), self.units, columns, statistic)
