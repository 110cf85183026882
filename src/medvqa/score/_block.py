"""One :class:`MetricsBlock` from scored rows: every figure with its bootstrap interval."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from medvqa.score._bootstrap import Interval, cluster_index, ratio_ci, sums_ci
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
from medvqa.score._model import MetricsBlock, MetricValue
from medvqa.score._rows import ScoredRow, as_arrays


def _mv(value: float, ci: Interval) -> MetricValue:
    def clean(x: float) -> float | None:
        return None if x is None or math.isnan(x) else round(float(x), 6)

    return MetricValue(value=clean(value), ci=[clean(ci.low), clean(ci.high)])


def metrics_block(
    rows: list[ScoredRow], resamples: int, seed: int, cluster: bool, errors: int = 0
) -> MetricsBlock:
    """Accuracy, weighted accuracy, macro-F1, invalid rate, valid accuracy, baselines, CIs."""
    correct, invalid = as_arrays(rows)
    n = len(rows)
    clusters = cluster_index([r.case_id for r in rows], n) if cluster else None
    ones = np.ones(n)
    classes = {c: i for i, c in enumerate(sorted({r.gold_class for r in rows}))}
    pred_codes = np.array([classes.get(r.pred_class, -1) for r in rows], dtype=int)
    gold_codes = np.array([classes[r.gold_class] for r in rows], dtype=int)
    k = len(classes)
    columns = class_columns(correct, pred_codes, gold_codes, k)
    block = MetricsBlock(
        accuracy=_mv(accuracy(correct), ratio_ci(correct, ones, clusters, resamples, seed)),
        weighted_accuracy=_mv(
            weighted_accuracy(correct, gold_codes),
            sums_ci(columns, lambda s: weighted_accuracy_from_sums(s, k), clusters, resamples,
                    seed),
        ),
        macro_f1=_mv(
            macro_f1(pred_codes, gold_codes),
            sums_ci(columns, lambda s: macro_f1_from_sums(s, k), clusters, resamples, seed),
        ),
        invalid_rate=_mv(accuracy(invalid), ratio_ci(invalid, ones, clusters, resamples, seed)),
        valid_accuracy=_mv(
            valid_accuracy(correct, invalid),
            ratio_ci(correct, 1 - invalid, clusters, resamples, seed),
        ),
        random_baseline=_round(
            float(np.mean([chance_of_guess(r.n_options, r.question_type) for r in rows]))
            if n else None
        ),
        frequent_baseline=_round(frequent_baseline([r.gold_class for r in rows]) if n else None),
        n=n,
        errors=errors,
    )
    region_rows = [r for r in rows if r.region is not None]
    if region_rows:
        block.region = _means(region_rows, [r.region for r in region_rows],  # type: ignore[misc]
                              ("precision", "recall", "f1", "hallucination_resistance"),
                              resamples, seed, cluster)
    open_rows = [r for r in rows if r.open is not None]
    if open_rows:
        block.open = _means(open_rows, [r.open for r in open_rows],  # type: ignore[misc]
                            ("exact", "token_f1", "bleu4", "rouge_l"), resamples, seed, cluster)
    return block


def _round(x: float | None) -> float | None:
    return None if x is None or math.isnan(x) else round(float(x), 6)


def _means(
    rows: list[ScoredRow], values: list[tuple[float, ...]], names: tuple[str, ...],
    resamples: int, seed: int, cluster: bool,
) -> dict[str, MetricValue]:
    """Per-item score means (region, open) with CIs, case-clustered like the rest."""
    arr = np.asarray(values, dtype=float)
    ones = np.ones(len(arr))
    clusters = cluster_index([r.case_id for r in rows], len(rows)) if cluster else None
    return {
        name: _mv(float(arr[:, j].mean()), ratio_ci(arr[:, j], ones, clusters, resamples, seed))
        for j, name in enumerate(names)
    }


def confusion(rows: list[ScoredRow]) -> dict[str, object] | None:
    """Gold × predicted counts for grading items (labels are option texts; 'invalid' last)."""
    graded = [r for r in rows if r.question_type == "grade"]
    if not graded:
        return None
    labels = sorted({r.gold_class for r in graded})
    preds = labels + ["invalid"]
    counts = Counter((r.gold_class, r.pred_class if r.pred_class in labels else "invalid")
                     for r in graded)
    return {"labels": labels, "predicted": preds,
            "counts": [[counts[(g, p)] for p in preds] for g in labels]}
