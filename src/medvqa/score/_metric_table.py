"""The metric registry: one table of every figure a :class:`MetricsBlock` holds.

Each row is a name (the key in ``metrics.json``), a column label, where it is shown (the
console table, the report's leaderboard) and a function of the block's inputs. ``medvqa score``
computes every row, the console and the report draw their columns from the rows — so adding a
metric is one function plus one row here (a name the block model does not declare is kept as
an extra key of the block and read back as a plain dict).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from medvqa.schema import MetricValue
from medvqa.score._bootstrap import Interval, ratio_ci, sums_ci
from medvqa.score._metrics import (
    accuracy,
    chance_of_guess,
    class_columns,
    frequent_baseline,
    macro_f1,
    macro_f1_from_sums,
    valid_accuracy,
    weighted_accuracy,
    weighted_accuracy_from_sums,
)
from medvqa.score._rows import ScoredRow, as_arrays
from medvqa.score.parsers import corpus_bleu


@dataclass
class BlockInput:
    """What every metric function may use: the rows and arrays derived from them once."""

    rows: list[ScoredRow]
    clusters: np.ndarray | None
    resamples: int
    seed: int
    correct: np.ndarray
    invalid: np.ndarray
    pred_codes: np.ndarray
    gold_codes: np.ndarray
    n_classes: int

    @classmethod
    def of(cls, rows: list[ScoredRow], clusters: np.ndarray | None, resamples: int,
           seed: int) -> BlockInput:
        """Arrays of ``rows``: 0/1 correct and invalid, gold and predicted class codes."""
        correct, invalid = as_arrays(rows)
        classes = {c: i for i, c in enumerate(sorted({r.gold_class for r in rows}))}
        return cls(rows, clusters, resamples, seed, correct, invalid,
                   np.array([classes.get(r.pred_class, -1) for r in rows], dtype=int),
                   np.array([classes[r.gold_class] for r in rows], dtype=int), len(classes))

    def ratio(self, num: np.ndarray, den: np.ndarray) -> Interval:
        """Bootstrap interval of sum(num)/sum(den), clustered like the block."""
        return ratio_ci(num, den, self.clusters, self.resamples, self.seed)


def clean(x: float | None) -> float | None:
    """NaN → None; otherwise rounded to 6 decimals (figures, not p-values)."""
    return None if x is None or math.isnan(x) else round(float(x), 6)


def value(point: float, ci: Interval) -> MetricValue:
    """A point estimate with its interval, NaN written as null."""
    return MetricValue(value=clean(point), ci=[clean(ci.low), clean(ci.high)])


@dataclass(frozen=True)
class Metric:
    """One row of the registry.

    Attributes:
        name: key in a metrics.json block.
        label: column header in the console and the report.
        compute: block inputs → MetricValue, number or None (None: not applicable here).
        console: shown in ``medvqa score``'s table.
        report: shown in the report's leaderboard.
        kind: "interval" (MetricValue), "rate" (a float) or "count" (an int): how to print.
    """

    name: str
    label: str
    compute: Callable[[BlockInput], Any]
    console: bool = False
    report: bool = False
    kind: str = "interval"


def _weighted(b: BlockInput) -> MetricValue:
    cols = class_columns(b.correct, b.pred_codes, b.gold_codes, b.n_classes)
    k = b.n_classes
    return value(weighted_accuracy(b.correct, b.gold_codes),
                 sums_ci(cols, lambda s: weighted_accuracy_from_sums(s, k), b.clusters,
                         b.resamples, b.seed))


def _macro_f1(b: BlockInput) -> MetricValue:
    cols = class_columns(b.correct, b.pred_codes, b.gold_codes, b.n_classes)
    k = b.n_classes
    return value(macro_f1(b.pred_codes, b.gold_codes),
                 sums_ci(cols, lambda s: macro_f1_from_sums(s, k), b.clusters, b.resamples,
                         b.seed))


def _random_fallbacks(b: BlockInput) -> int | None:
    """Items a parser answered by a random draw (pathmmu); None for styles that never guess."""
    if not any(r.guessed is not None for r in b.rows):
        return None
    return sum(bool(r.guessed) for r in b.rows)


def _means(b: BlockInput, attr: str, names: tuple[str, ...]) -> dict[str, MetricValue] | None:
    """Per-item score means (region, open) with CIs; NaN scores are left out of their mean."""
    picked = [(i, getattr(r, attr)) for i, r in enumerate(b.rows) if getattr(r, attr) is not None]
    if not picked:
        return None
    idx = np.array([i for i, _ in picked])
    arr = np.asarray([v for _, v in picked], dtype=float)
    sub = BlockInput.of([b.rows[i] for i in idx], None, b.resamples, b.seed)
    if b.clusters is not None:
        from medvqa.score._bootstrap import cluster_index

        sub.clusters = cluster_index([b.rows[i].case_id for i in idx], len(idx))
    out = {}
    for j, name in enumerate(names):
        defined = ~np.isnan(arr[:, j])
        num, den = np.where(defined, arr[:, j], 0.0), defined.astype(float)
        point = float(num.sum() / den.sum()) if den.sum() else float("nan")
        out[name] = value(point, sub.ratio(num, den))
    return out


def _open(b: BlockInput) -> dict[str, MetricValue] | None:
    """Means of exact, token F1, ROUGE-L, and corpus BLEU-4 over the open items."""
    out = _means(b, "open", ("exact", "token_f1", "rouge_l"))
    if out is None:
        return None
    rows = [r for r in b.rows if r.bleu is not None]
    stats = np.asarray([r.bleu for r in rows], dtype=float)
    clusters = None
    if b.clusters is not None:
        from medvqa.score._bootstrap import cluster_index

        clusters = cluster_index([r.case_id for r in rows], len(rows))
    point = float(corpus_bleu(stats.sum(axis=0))[0])
    out["bleu4"] = value(point, sums_ci(stats, corpus_bleu, clusters, b.resamples, b.seed))
    return out


METRICS: tuple[Metric, ...] = (
    Metric("accuracy", "accuracy [95 % CI]",
           lambda b: value(accuracy(b.correct), b.ratio(b.correct, np.ones(len(b.correct)))),
           console=True, report=True),
    Metric("weighted_accuracy", "weighted acc.", _weighted, console=True, report=True),
    Metric("macro_f1", "macro-F1", _macro_f1, report=True),
    Metric("invalid_rate", "invalid rate",
           lambda b: value(accuracy(b.invalid), b.ratio(b.invalid, np.ones(len(b.invalid)))),
           console=True, report=True),
    Metric("valid_accuracy", "acc. (valid)",
           lambda b: value(valid_accuracy(b.correct, b.invalid),
                           b.ratio(b.correct, 1 - b.invalid)), report=True),
    Metric("random_fallbacks", "random guesses", _random_fallbacks, console=True, report=True,
           kind="count"),
    Metric("random_baseline", "random",
           lambda b: clean(float(np.mean([chance_of_guess(r.n_options, r.question_type)
                                          for r in b.rows]))) if b.rows else None,
           console=True, kind="rate"),
    Metric("frequent_baseline", "frequent",
           lambda b: clean(frequent_baseline([r.gold_class for r in b.rows]))
           if b.rows else None, kind="rate"),
    Metric("region", "region", lambda b: _means(
        b, "region", ("precision", "recall", "f1", "hallucination_resistance")), kind="dict"),
    Metric("open", "open", lambda b: _open(b), kind="dict"),
)


def metric_names(where: str) -> list[Metric]:
    """The rows shown in ``where`` ("console" or "report"), in table order."""
    return [m for m in METRICS if getattr(m, where)]
