"""Subgroup analysis (LMOD, seed 002): accuracy by age band, sex and source, with tests.

Each grouping gets a chi-square test of independence between group and correctness (Fisher's
exact test for a 2×2 table with an expected count below 5), and the p-values of all groupings are
Holm-adjusted together. Missing or non-numeric ages fall in the band "unknown", which is reported
but left out of the test.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

import numpy as np

from medvqa.score._rows import ScoredRow

DEFAULT_AGE_BANDS: tuple[float, ...] = (18, 40, 60)


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


def _test(table: np.ndarray) -> tuple[str, float]:
    from scipy.stats import chi2_contingency, fisher_exact

    if table.shape == (2, 2):
        expected = table.sum(1, keepdims=True) * table.sum(0, keepdims=True) / table.sum()
        if (expected < 5).any():
            return "fisher", float(fisher_exact(table).pvalue)
    return "chi2", float(chi2_contingency(table).pvalue)


def subgroup_analysis(
    rows: list[ScoredRow], age_edges: tuple[float, ...] = DEFAULT_AGE_BANDS
) -> dict[str, Any] | None:
    """Accuracy per group for age band, sex and source, each with a test and Holm p-value."""
    keys = {
        "age_band": lambda r: age_band(r.meta.get("age"), age_edges),
        "sex": lambda r: _label(r.meta.get("sex")),
        "source": lambda r: _label(r.source),
    }
    out: dict[str, Any] = {}
    for name, key in keys.items():
        groups: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for r in rows:
            g = groups[key(r)]
            g[0] += int(r.correct)
            g[1] += 1
        tested = {k: v for k, v in groups.items() if k != "unknown"}
        if len(tested) < 2:
            continue
        table = np.array([[c, n - c] for c, n in tested.values()], dtype=float)
        test, p = _test(table) if table.sum(0).min() > 0 else ("none", 1.0)
        out[name] = {
            "groups": {
                k: {"accuracy": round(c / n, 6), "n": n} for k, (c, n) in sorted(groups.items())
            },
            "test": test,
            "p_value": p,
        }
    if not out:
        return None
    from statsmodels.stats.multitest import multipletests

    names = list(out)
    adjusted = multipletests([out[n]["p_value"] for n in names], method="holm")[1]
    for name, p in zip(names, adjusted, strict=True):
        out[name]["p_value"] = round(float(out[name]["p_value"]), 6)
        out[name]["p_holm"] = round(float(p), 6)
    return out
