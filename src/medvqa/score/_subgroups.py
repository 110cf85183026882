"""Subgroup analysis (LMOD, seed 002): accuracy by age band, sex and source, with tests.

Each grouping gets a test of "accuracy does not depend on the group" that agrees with the
intervals about clustering (:func:`medvqa.score._tests.group_test`): χ², Fisher's exact test
(2×2) or an exact permutation test (beyond 2×2) when expected counts are small, and when cases
repeat a cluster permutation test (group constant within cases: sex, age) or a case-clustered
Wald test. p-values keep 4 significant digits; ``medvqa score`` Holm-adjusts them together with
every other test in metrics.json (``p_holm``). Missing or non-numeric ages fall in the band
"unknown", which is reported but left out of the test.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np

from medvqa.score._bootstrap import cluster_index
from medvqa.score._config import DEFAULT_AGE_BANDS
from medvqa.score._rows import ScoredRow
from medvqa.score._tests import group_test, significant


def age_band(age: Any, edges: tuple[float, ...] = DEFAULT_AGE_BANDS) -> str:
    """'18-40', '40-60', '60+' (by default); 'unknown' for missing, NaN or text ages.

    >>> age_band(45), age_band(None), age_band(70)
    ('40-60', 'unknown', '60+')
    """
    try:
        value = float(age)
    except (TypeError, ValueError):
        return "unknown"
    if math.isnan(value) or value < edges[0]:
        return "unknown" if math.isnan(value) else f"<{edges[0]:g}"
    for lo, hi in zip(edges, edges[1:], strict=False):
        if lo <= value < hi:
            return f"{lo:g}-{hi:g}"
    return f"{edges[-1]:g}+"


def _label(value: Any) -> str:
    """A group label (stripped text); None, NaN and blank text are "unknown".

    >>> _label(float("nan")), _label(" F "), _label(None)
    ('unknown', 'F', 'unknown')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "unknown"
    text = str(value).strip()
    return text if text and text.lower() not in {"nan", "none", "null"} else "unknown"


def _pair() -> list[int]:
    """[right, total] of one group."""
    return [0, 0]


def subgroup_analysis(
    rows: list[ScoredRow], age_edges: tuple[float, ...] = DEFAULT_AGE_BANDS,
    cluster: bool = True, resamples: int = 9999, seed: int = 0,
) -> dict[str, Any] | None:
    """Accuracy per group for age band, sex and source, each with a (clustered) test."""
    keys: dict[str, Callable[[ScoredRow], str]] = {
        "age_band": lambda r: age_band(r.meta.get("age"), age_edges),
        "sex": lambda r: _label(r.meta.get("sex")),
        "source": lambda r: _label(r.source),
    }
    out: dict[str, Any] = {}
    for name, key in keys.items():
        labels = [key(r) for r in rows]
        groups: dict[str, list[int]] = defaultdict(_pair)
        for r, g in zip(rows, labels, strict=True):
            groups[g][0] += int(r.correct)
            groups[g][1] += 1
        tested = sorted(k for k in groups if k != "unknown")
        if len(tested) < 2:
            continue
        keep = [i for i, g in enumerate(labels) if g != "unknown"]
        code = {g: j for j, g in enumerate(tested)}
        correct = np.array([rows[i].correct for i in keep], dtype=float)
        codes = np.array([code[labels[i]] for i in keep], dtype=int)
        clusters = (cluster_index([rows[i].case_id for i in keep], len(keep))
                    if cluster else None)
        test, p = group_test(correct, codes, clusters, resamples, seed)
        out[name] = {
            "groups": {
                k: {"accuracy": round(c / n, 6), "n": n} for k, (c, n) in sorted(groups.items())
            },
            "test": test,
            "p_value": significant(p),
        }
    return out or None
