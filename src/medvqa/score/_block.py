"""One :class:`MetricsBlock` from scored rows: every registered metric with its interval."""

from __future__ import annotations

from collections import Counter

from medvqa.schema import MetricsBlock
from medvqa.score._bootstrap import cluster_index
from medvqa.score._metric_table import METRICS, BlockInput
from medvqa.score._rows import ScoredRow


def metrics_block(
    rows: list[ScoredRow], resamples: int, seed: int, cluster: bool, errors: int = 0
) -> MetricsBlock:
    """Every metric of the registry (:data:`~medvqa.score._metric_table.METRICS`) on ``rows``.

    Intervals resample cases when ``cluster`` is on and some case contributes several items.
    """
    clusters = cluster_index([r.case_id for r in rows], len(rows)) if cluster else None
    inputs = BlockInput.of(rows, clusters, resamples, seed)
    values = {m.name: m.compute(inputs) for m in METRICS}
    return MetricsBlock(**values, n=len(rows), errors=errors)


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
