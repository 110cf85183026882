"""metrics.json ``adaptive``: an adaptive run's estimate of its accuracy on every item.

An adaptive run (``medvqa run --adaptive``) answered only some items; the accuracy over those
(``conditions.*.overall.accuracy``) is of the items chosen for being informative, not of the
benchmark. What stands for the benchmark is the adaptive estimate, recomputed here from this
scoring's own reading of the answers (the run read them to choose; if a reading differs, this
one counts) with the run's calibration: the answers given, plus every item not asked at its
probability of being right, with the calibration's measured interval inflation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from medvqa.benchmark import iter_items
from medvqa.errors import BadInputError
from medvqa.schema import (
    ITEMS_FILE,
    PREDICTIONS_FILE,
    Item,
    Prediction,
    RecordError,
    RunInfo,
    read_numbered,
)


def _selected(bench_dir: Path, info: RunInfo) -> list[Item]:
    """The items of run.json's selection, as the runner selects them (the limit counts picks)."""
    sel = info.selection
    split, category, limit = sel.get("split"), sel.get("category"), sel.get("limit")
    out: list[Item] = []
    errors: list[RecordError] = []
    for _, item in iter_items(bench_dir / ITEMS_FILE, errors):
        if limit is not None and len(out) >= int(limit):
            break
        if (split is None or item.split == split) and (category is None or
                                                        item.category == category):
            out.append(item)
    return out


def adaptive_block(bench_dir: Path, run_dir: Path, info: RunInfo) -> dict[str, Any] | None:
    """The ``adaptive`` block of an adaptive run's metrics.json (None for other runs)."""
    from medvqa.conditions import get_condition
    from medvqa.irt import AdaptiveSession, AdaptiveSettings, bank_of, load_calibration
    from medvqa.rng import rng_for

    rec = info.adaptive
    if rec is None:
        return None
    block: dict[str, Any] = {
        "condition": rec.condition, "irt": rec.irt, "item_model": rec.item_model,
        "target_se": rec.target_se, "budget": rec.budget, "stop": rec.stop, "note": rec.note,
        "items_total": rec.items_total, "inflation": rec.inflation}
    try:
        cal = load_calibration(Path(rec.irt), info.items_sha256)
    except BadInputError as exc:
        stored = rec.estimate
        block.update({"recomputed": False, "why": f"the run's own estimate: {exc}"})
        if stored is not None:
            block.update({"accuracy": stored.accuracy, "se": stored.se, "ci": stored.ci,
                          "asked": stored.asked, "right": stored.right})
        return block
    cond = get_condition(rec.condition, seed=info.seed)
    items = [it for it in _selected(bench_dir, info) if cond.applies_to(it)]
    index = {it.id: i for i, it in enumerate(items)}
    correct: dict[str, bool] = {}
    for _, pred in read_numbered(run_dir / PREDICTIONS_FILE, Prediction, []):
        if pred.condition == rec.condition and pred.error is None and pred.correct is not None:
            correct[pred.item_id] = pred.correct
    session = AdaptiveSession(bank_of(cal, items),
                              AdaptiveSettings(target_se=rec.target_se,
                                               inflation=cal.interval_inflation),
                              rng_for(info.seed, "adaptive-score"))
    for item_id in rec.asked_ids:
        if item_id in correct and item_id in index:
            session.record(index[item_id], correct[item_id])
    for item_id in rec.failed_ids:
        if item_id in index and item_id not in correct:
            session.skip(index[item_id])
    est = session.estimate()
    block.update({
        "recomputed": True, "accuracy": round(est.value, 6), "se": round(est.se, 6),
        "ci": [round(est.low, 6), round(est.high, 6)], "asked": est.asked,
        "right": int(sum(session.answers)), "theta": round(est.theta, 6),
        "run_accuracy": rec.estimate.accuracy if rec.estimate else None})
    return block
