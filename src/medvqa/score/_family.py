"""The families of tests in one ``metrics.json``, Holm's adjustment within each, and verdicts.

A reader scanning a metrics file sees many p-values at once; each claim is one test, and the
tests are adjusted in families of claims of one kind (Holm 1979, step-down, strong control of
the family-wise error rate within each family):

- ``controls`` (primary): the overall Δ = clean − condition of every control that is not a
  point of a severity curve — the shortcut controls (blind, noise, text-only: they remove the
  image; swap: the question; ood) and unregistered conditions of imported runs;
- ``curves``: one one-sided trend test per severity curve (a corruption at its severities:
  does accuracy fall as it gets worse?), never one test per severity;
- ``categories``: the per-category Δs of the primary controls (exploratory);
- ``subgroups``: every condition's subgroup tests (age band, sex, source).

A point of a curve (one corruption at one severity) keeps its Δ, interval and unadjusted
``p_value`` as a description, with family "" and no ``p_holm``. Each test of a family gains
``family`` and ``p_holm``. The verdicts follow the adjusted decision at :data:`ALPHA`: a control
"needs the image" (``needs_image``; for swap, the question) when its ``p_holm`` < 0.05 and the
95 % interval of Δ lies above 0; a curve ``declines`` when its ``p_holm`` < 0.05 and its slope
is negative. Points of a curve get no verdict.
"""

from __future__ import annotations

from typing import Any

from medvqa.stats import holm, significant

#: Level of every verdict, on Holm-adjusted p-values within the test's family.
ALPHA = 0.05
#: The families, in the order metrics.json counts them (``test_families``).
FAMILIES = ("controls", "curves", "categories", "subgroups")


def families(metrics: Any) -> dict[str, list[dict[str, Any]]]:
    """Family → the dicts holding its tests' ``p_value``, in a fixed order."""
    out: dict[str, list[dict[str, Any]]] = {f: [] for f in FAMILIES}
    controls = metrics.controls or {}
    for res in (controls.get("deltas") or {}).values():
        for d in [res["overall"], *res.get("by_category", {}).values()]:
            if d.get("family") and d.get("p_value") is not None:
                out[d["family"]].append(d)
    for trend in (controls.get("trends") or {}).values():
        if trend.get("p_value") is not None:
            out["curves"].append(trend)
    for cond in metrics.conditions.values():
        for test in (cond.subgroups or {}).values():
            if test.get("p_value") is not None:
                test["family"] = "subgroups"
                out["subgroups"].append(test)
    return out


def adjust_family(metrics: Any) -> dict[str, int]:
    """Holm within each family of ``metrics`` (a MetricsFile), then the verdicts.

    Writes ``p_holm`` beside every adjusted ``p_value``, sets ``needs_image`` of every Δ and
    ``declines`` of every curve from the adjusted decision, and returns family → number of
    tests (families without a test left out).
    """
    counts: dict[str, int] = {}
    for name, entries in families(metrics).items():
        for entry, p in zip(entries, holm([e["p_value"] for e in entries]), strict=True):
            entry["p_holm"] = significant(p)
        if entries:
            counts[name] = len(entries)
    controls = metrics.controls or {}
    for res in (controls.get("deltas") or {}).values():
        for d in [res["overall"], *res.get("by_category", {}).values()]:
            d["needs_image"] = rejects(d) and d["ci"][0] is not None and d["ci"][0] > 0
    for trend in (controls.get("trends") or {}).values():
        trend["declines"] = rejects(trend) and (trend.get("slope") or 0.0) < 0
    return counts


def rejects(test: dict[str, Any]) -> bool:
    """Whether the adjusted test rejects at :data:`ALPHA` (never for a test outside a family).

    >>> rejects({"family": "controls", "p_value": 0.0078, "p_holm": 0.148})
    False
    >>> rejects({"family": "", "p_value": 0.001}), rejects({"family": "curves", "p_holm": 0.01})
    (False, True)
    """
    p = test.get("p_holm")
    return bool(test.get("family")) and p is not None and p < ALPHA
