"""The metric registry: one table of every figure a :class:`MetricsBlock` holds.

Each row is a name (the key in ``metrics.json``), a column label, where it is shown (the
console table, the report's leaderboard) and a function of the block's inputs
(:class:`~medvqa.score._block_input.BlockInput`). ``medvqa score`` computes every row, the
console and the report draw their columns from the rows — so adding a metric is one function
plus one row here (a name the block model does not declare is kept as an extra key of the
block and read back as a plain dict).

A function returns its point estimate with the interval it asks the block for
(``value(point, b.rate(...))`` for a proportion, ``b.base(...)``, ``b.ratio(num, den)``,
``b.interval(...)``): score intervals are computed at once, bootstrap intervals of every block
are drawn together, once, after all functions ran (:mod:`medvqa.stats._resample`). Which a
figure gets is the rule of :mod:`medvqa.score._choose`: proportions and weighted accuracy get
score intervals below 300 resampling units or with fewer than 10 of the rarer outcome, the
bootstrap beyond; macro-F1, region and open scores always the bootstrap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from medvqa.reading import corpus_bleu
from medvqa.score._block_input import BlockInput, PendingValue, clean, value
from medvqa.score._choose import Chosen
from medvqa.score._metrics import (
    accuracy,
    macro_f1,
    macro_f1_from_sums,
    valid_accuracy,
    weighted_accuracy,
    weighted_accuracy_from_sums,
)
from medvqa.stats import Columns, Part, bootstrap_applies, weighted_interval


@dataclass(frozen=True)
class Metric:
    """One row of the registry.

    Attributes:
        name: key in a metrics.json block.
        label: column header in the console and the report.
        compute: block inputs → a value (:func:`value`), a number or None (not applicable).
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


def _weighted(b: BlockInput) -> PendingValue:
    """Balanced accuracy; null where the items have no label set (open vocabulary).

    The Wilson interval on Kish's effective sample size of the class weights (over the
    design effect where cases repeat), or the bootstrap when every class has enough of both
    outcomes in a large block (:func:`~medvqa.stats.bootstrap_applies`).
    """
    if b.class_note or not len(b):
        return value(None, None)
    point = weighted_accuracy(b.correct, b.classes.gold)
    if not b.class_interval:
        return value(point, None)
    closed = weighted_interval(b.correct, b.classes.gold, b.units)
    if not bootstrap_applies(b.n_units, closed.rarer):
        return value(point, Chosen.closed(closed))
    return value(point, b.base(lambda s: weighted_accuracy_from_sums(s.hits, s.tot)))


def _macro_f1(b: BlockInput) -> PendingValue:
    """Macro-F1 over the gold classes present; null where the items have no label set."""
    if b.class_note or not len(b):
        return value(None, None)
    ci = b.base(lambda s: macro_f1_from_sums(s.tp, s.fp, s.fn)) if b.class_interval else None
    return value(macro_f1(b.classes.pred, b.classes.gold), ci)


def _random_fallbacks(b: BlockInput) -> int | None:
    """Items a parser answered by a random draw (pathmmu); None for styles that never guess."""
    if not np.any(b.guessed >= 0):
        return None
    return int(np.sum(b.guessed == 1))


def _means(b: BlockInput, name: str, names: tuple[str, ...]) -> dict[str, PendingValue] | None:
    """Per-item score means (region, open) with CIs; NaN scores are left out of their mean."""
    extra = b.extras.get(name)
    if extra is None or not len(extra.rows):
        return None
    out = {}
    for j, metric in enumerate(names):
        scores = extra.values[:, j]
        defined = ~np.isnan(scores)
        num, den = np.zeros(len(b)), np.zeros(len(b))
        num[extra.rows] = np.where(defined, scores, 0.0)
        den[extra.rows] = defined
        point = float(num.sum() / den.sum()) if den.sum() else float("nan")
        out[metric] = value(point, b.ratio(num, den, f"{name}:{metric}"))
    return out


def _open(b: BlockInput) -> dict[str, PendingValue] | None:
    """Means of exact, token F1, ROUGE-L, and corpus BLEU-4 over the open items."""
    out = _means(b, "open", ("exact", "token_f1", "rouge_l"))
    if out is None:
        return None
    bleu = b.extras["bleu"]
    stats = bleu.values
    point = float(corpus_bleu(stats.sum(axis=0))[0])

    def columns() -> Columns:
        return Columns(stats.shape[1], tuple(Part(bleu.rows, j, stats[:, j])
                                             for j in range(stats.shape[1])))

    out["bleu4"] = value(point, b.interval("bleu", columns, corpus_bleu))
    return out


METRICS: tuple[Metric, ...] = (
    Metric("accuracy", "accuracy [95 % CI]",
           lambda b: value(accuracy(b.correct), b.rate(b.correct, lambda s: s.correct / s.n)),
           console=True, report=True),
    Metric("weighted_accuracy", "weighted acc.", _weighted, console=True, report=True),
    Metric("macro_f1", "macro-F1", _macro_f1, report=True),
    Metric("invalid_rate", "invalid rate",
           lambda b: value(accuracy(b.invalid), b.rate(b.invalid, lambda s: s.invalid / s.n)),
           console=True, report=True),
    Metric("valid_accuracy", "acc. (valid)",
           lambda b: value(valid_accuracy(b.correct, b.invalid),
                           b.rate(b.correct, lambda s: s.correct / (s.n - s.invalid),
                                  b.invalid == 0)), report=True),
    Metric("random_fallbacks", "random guesses", _random_fallbacks, console=True, report=True,
           kind="count"),
    Metric("random_baseline", "random",
           lambda b: clean(float(np.mean(b.chance))) if len(b) else None,
           console=True, kind="rate"),
    Metric("frequent_baseline", "frequent",
           lambda b: clean(float(np.unique(b.gold, return_counts=True)[1].max() / len(b)))
           if len(b) else None, kind="rate"),
    Metric("region", "region", lambda b: _means(
        b, "region", ("precision", "recall", "f1", "hallucination_resistance")), kind="dict"),
    Metric("open", "open", lambda b: _open(b), kind="dict"),
)


def metric_names(where: str) -> list[Metric]:
    """The rows shown in ``where`` ("console" or "report"), in table order."""
    return [m for m in METRICS if getattr(m, where)]
