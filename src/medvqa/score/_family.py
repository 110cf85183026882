"""Holm's adjustment across every test one ``metrics.json`` reports (one family).

A reader scanning a metrics file sees many p-values at once — each control's paired test
overall and per category, each condition's subgroup tests — so they are adjusted together:
every such entry gains ``p_holm`` (Holm 1979, step-down, strong control of the family-wise
error rate).
"""

from __future__ import annotations

from typing import Any

from medvqa.score._tests import holm, significant


def _entries(metrics: Any) -> list[dict[str, Any]]:
    """The dicts holding a ``p_value``, in a fixed order (controls, then subgroups)."""
    out: list[dict[str, Any]] = []
    for res in ((metrics.controls or {}).get("deltas") or {}).values():
        for d in [res["overall"], *res.get("by_category", {}).values()]:
            if d.get("p_value") is not None:
                out.append(d)
    for cond in metrics.conditions.values():
        for test in (cond.subgroups or {}).values():
            if test.get("p_value") is not None:
                out.append(test)
    return out


def adjust_family(metrics: Any) -> int:
    """Write ``p_holm`` beside every ``p_value`` of ``metrics`` (a MetricsFile); the count."""
    entries = _entries(metrics)
    for entry, p in zip(entries, holm([e["p_value"] for e in entries]), strict=True):
        entry["p_holm"] = significant(p)
    return len(entries)
