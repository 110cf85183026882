"""Controls: how much of the clean score needs the image (Δ = clean − condition).

For every condition other than the baseline (``clean``) and those scoring combines (the
``permute@k`` shifts, ``Condition.combined_as``), the items
scored under both are paired by id and compared with :func:`paired_difference`: Δ of accuracy
with a paired percentile bootstrap interval (items resampled together, or whole cases when a
``case_id`` repeats, as the oncology paper's blind ablation does, seed 003 §4.3) and a paired
test clustered the same way (McNemar exact, or the exact cluster sign-flip test when cases
repeat; :mod:`medvqa.score._tests`); ``p_holm`` is Holm-adjusted over every test in
metrics.json. The verdict "needs the image" is given when the interval of Δ lies above 0. The
same is done per category. Corruptions also give a degradation curve per corruption: accuracy
at severity 0 (clean) to 5, PathMMU's Fig. 7 (seed 004).
"""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
from pydantic import BaseModel, Field

from medvqa.conditions import baseline_of, describe
from medvqa.score._paired import paired_difference
from medvqa.score._rows import ScoredRow
from medvqa.score._tests import significant


class Delta(BaseModel):
    """Clean − condition on the items scored under both."""

    n: int = Field(description="Paired items.")
    clean: float | None = Field(description="Clean accuracy on those items.")
    condition: float | None = Field(description="Accuracy under the condition on those items.")
    delta: float | None = Field(description="clean − condition.")
    ci: list[float | None] = Field(description="95 % paired bootstrap interval of delta.")
    p_value: float | None = Field(description="Two-sided p of the paired test (4 significant "
                                  "digits).")
    test: str = Field(default="", description="McNemar exact, or cluster sign-flip (exact).")
    p_holm: float | None = Field(default=None, description="Holm-adjusted over every test in "
                                 "metrics.json.")
    clean_only: int = Field(description="Items right only when clean.")
    condition_only: int = Field(description="Items right only under the condition.")
    needs_image: bool = Field(description="The interval of delta lies above 0.")


class ControlResult(BaseModel):
    """One condition's comparison with clean, overall and per category."""

    overall: Delta
    by_category: dict[str, Delta] = Field(default_factory=dict)


class Controls(BaseModel):
    """``metrics.json`` → ``controls``."""

    deltas: dict[str, ControlResult] = Field(default_factory=dict)
    degradation: dict[str, list[float | None]] = Field(
        default_factory=dict, description="corruption → accuracy at severity 0 (clean) … 5.")


def _nan_to_none(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(float(x), 6)


def _delta(clean: dict[str, ScoredRow], other: dict[str, ScoredRow], ids: list[str],
           resamples: int, seed: int, cluster: bool) -> Delta:
    a = np.array([clean[i].correct for i in ids], float)
    b = np.array([other[i].correct for i in ids], float)
    cases = [clean[i].case_id for i in ids] if cluster else None
    cmp = paired_difference(a, b, cases, resamples, seed, "clean", "condition")
    lo, hi = _nan_to_none(cmp.ci[0]), _nan_to_none(cmp.ci[1])
    return Delta(
        n=cmp.n, clean=_nan_to_none(cmp.accuracy_a), condition=_nan_to_none(cmp.accuracy_b),
        delta=_nan_to_none(cmp.difference), ci=[lo, hi],
        p_value=significant(cmp.p_value), test=cmp.test, clean_only=cmp.a_only,
        condition_only=cmp.b_only, needs_image=lo is not None and lo > 0,
    )


def control_table(rows: dict[str, list[ScoredRow]], resamples: int, seed: int,
                  cluster: bool = True) -> Controls | None:
    """Δ against clean for every other condition, and corruption degradation curves.

    Returns None when there is no clean condition or nothing to compare with it.
    """
    base = baseline_of(rows)
    if base is None:
        return None
    clean = {r.item_id: r for r in rows[base]}
    out = Controls()
    for cond in sorted(rows):
        info = describe(cond)
        if info.baseline or info.combined_as:
            continue
        other = {r.item_id: r for r in rows[cond]}
        ids = [i for i in clean if i in other]
        if not ids:
            continue
        result = ControlResult(overall=_delta(clean, other, ids, resamples, seed, cluster))
        by_cat: dict[str, list[str]] = defaultdict(list)
        for i in ids:
            by_cat[clean[i].category].append(i)
        if len(by_cat) > 1:
            result.by_category = {c: _delta(clean, other, sub, resamples, seed, cluster)
                                  for c, sub in sorted(by_cat.items())}
        out.deltas[cond] = result
    out.degradation = degradation_curves(rows, base)
    return out if out.deltas else None


def degradation_curves(rows: dict[str, list[ScoredRow]],
                       baseline: str | None) -> dict[str, list[float | None]]:
    """Curve → [accuracy at the baseline, level 1, …, 5] (None where a level was not run).

    The curves are the conditions that declare one (``Condition.curve``: corruptions).
    """
    clean = rows.get(baseline, []) if baseline is not None else []
    base = float(np.mean([r.correct for r in clean])) if clean else None
    curves: dict[str, list[float | None]] = {}
    for cond, rs in rows.items():
        point = describe(cond).curve
        if point is None or not rs:
            continue
        name, level = point
        curve = curves.setdefault(name, [_nan_to_none(base) if base is not None else None]
                                  + [None] * 5)
        curve[level] = round(float(np.mean([r.correct for r in rs])), 6)
    return dict(sorted(curves.items()))
