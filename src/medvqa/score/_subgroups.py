"""Subgroup analysis (LMOD, seed 002): accuracy by age band, sex and source, with tests.

Each grouping gets a test of "accuracy does not depend on the group" that agrees with the
intervals about clustering (:func:`medvqa.stats._tests.group_test`): χ², Fisher's exact test
(2×2) or an exact permutation test (beyond 2×2) when expected counts are small, and when cases
repeat a cluster permutation test (group constant within cases: sex, age) or a case-clustered
Wald test. p-values keep 4 significant digits; ``medvqa score`` Holm-adjusts them together with
every other test in metrics.json (``p_holm``). Missing or non-numeric ages fall in the band
"unknown", which is reported but left out of the test.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from medvqa.score._config import DEFAULT_AGE_BANDS
from medvqa.score._rows import ScoredRow
from medvqa.stats import cluster_index, group_test, repeats, significant


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


def label(value: Any) -> str:
    """A group label (stripped text); None, NaN and blank text are "unknown".

    >>> label(float("nan")), label(" F "), label(None)
    ('unknown', 'F', 'unknown')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "unknown"
    text = str(value).strip()
    return text if text and text.lower() not in {"nan", "none", "null"} else "unknown"


def subgroup_analysis(
    rows: list[ScoredRow], age_edges: tuple[float, ...] = DEFAULT_AGE_BANDS,
    cluster: bool = True, resamples: int = 9999, seed: int = 0,
) -> dict[str, Any] | None:
    """Accuracy per group for age band, sex and source, each with a (clustered) test."""
    keys: dict[str, Callable[[ScoredRow], str]] = {
        "age_band": lambda r: age_band(r.meta.get("age"), age_edges),
        "sex": lambda r: label(r.meta.get("sex")),
        "source": lambda r: label(r.source),
    }
    groupings = {}
    for name, key in keys.items():
        labels = [key(r) for r in rows]
        names = sorted(set(labels))
        code = {g: j for j, g in enumerate(names)}
        groupings[name] = (np.array([code[g] for g in labels], dtype=np.int64), names)
    units = cluster_index([r.case_id for r in rows], len(rows)) if cluster else None
    correct = np.array([r.correct for r in rows], dtype=float)
    return subgroup_tests(correct, groupings, units, resamples, seed)


def subgroup_tests(correct: np.ndarray, groupings: Mapping[str, tuple[np.ndarray, list[str]]],
                   units: np.ndarray | None, resamples: int = 9999,
                   seed: int = 0) -> dict[str, Any] | None:
    """Accuracy per group and a test of "accuracy does not depend on the group", per grouping.

    Args:
        correct: 0/1 per row.
        groupings: name → (label code per row, labels); the label "unknown" is reported but
            left out of the test.
        units: resampling unit per row (cases), or None when rows are independent; the test
            is clustered when some unit repeats among the rows tested.
        resamples: Monte Carlo permutations of the permutation tests.
        seed: their seed.
    """
    out: dict[str, Any] = {}
    for name, (codes, labels) in groupings.items():
        if not len(codes):
            continue
        right = np.bincount(codes, weights=correct, minlength=len(labels))
        size = np.bincount(codes, minlength=len(labels))
        present = sorted((labels[j], j) for j in np.flatnonzero(size))
        tested = [(g, j) for g, j in present if g != "unknown"]
        if len(tested) < 2:
            continue
        recode = np.full(len(labels), -1, dtype=np.int64)
        recode[[j for _, j in tested]] = np.arange(len(tested))
        coded = recode[codes]
        del codes
        keep = coded >= 0
        # Every row tested (no "unknown"): the columns as they are, not copied.
        every = bool(keep.all())
        kept = units if units is None or every else units[keep]
        clusters = kept if kept is not None and repeats(kept) else None
        test, p = group_test(correct if every else correct[keep],
                             coded if every else coded[keep], clusters, resamples, seed)
        out[name] = {
            "groups": {g: {"accuracy": round(float(right[j]) / int(size[j]), 6),
                           "n": int(size[j])} for g, j in present},
            "test": test,
            "p_value": significant(p),
        }
    return out or None
