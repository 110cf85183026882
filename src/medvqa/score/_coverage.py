"""Which items a run should have answered, and which it did not: no item leaves n silently.

The items a run was asked about are the benchmark's items under run.json's ``selection``
(split, category, limit, applied in file order as the runner does) that each condition applies
to. An item with no prediction for a condition is *missing*: counted, named, and reported
beside two accuracies —

* complete case: correct / scored (what ``accuracy`` in metrics.json is: errors and missing
  items left out);
* all items: correct / expected, where an errored or missing item counts as wrong.

The gap between the two is how much a failing endpoint or a truncated file could have moved the
headline figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from medvqa.schema import Item, Prediction, RunInfo

#: Missing item ids listed per condition (the count is always complete).
SHOWN_MISSING = 20


def selected_items(items: Mapping[str, Item], info: RunInfo | None) -> list[Item]:
    """The items the run selected, in file order (every item when run.json says nothing)."""
    sel = info.selection if info is not None else {}
    split, category, limit = sel.get("split"), sel.get("category"), sel.get("limit")
    out: list[Item] = []
    for item in items.values():
        if limit is not None and len(out) >= int(limit):
            break
        if split is not None and item.split != split:
            continue
        if category is not None and item.category != category:
            continue
        out.append(item)
    return out


def _expected(selected: list[Item], condition: str, seed: int) -> list[str]:
    """Ids of the selected items ``condition`` applies to."""
    from medvqa.conditions import describe, get_condition

    if not describe(condition).known:
        return [i.id for i in selected]
    cond = get_condition(condition, seed=seed)
    cond.prepare(iter(selected))
    return [i.id for i in selected if cond.applies_to(i)]


def coverage(
    items: Mapping[str, Item],
    info: RunInfo | None,
    predictions: Iterable[Prediction],
    correct: Mapping[str, int],
) -> dict[str, Any]:
    """Per condition: expected, scored, errors, missing (count and first ids), both accuracies.

    Args:
        items: the benchmark's items by id, in file order.
        info: the run's run.json (None: every item, the conditions found in predictions).
        predictions: the run's predictions.
        correct: condition → items scored correct.

    """
    selected = selected_items(items, info)
    seed = info.seed if info is not None else 0
    answered: dict[str, set[str]] = {}
    errored: dict[str, int] = {}
    for p in predictions:
        answered.setdefault(p.condition, set()).add(p.item_id)
        if p.error is not None or p.response is None:
            errored[p.condition] = errored.get(p.condition, 0) + 1
    conditions = list(dict.fromkeys((info.conditions if info is not None else []) +
                                    sorted(answered)))
    per: dict[str, Any] = {}
    for cond in conditions:
        expected = _expected(selected, cond, seed)
        got = answered.get(cond, set())
        missing = [i for i in expected if i not in got]
        errors = errored.get(cond, 0)
        scored = len(got) - errors
        right = correct.get(cond, 0)
        per[cond] = {
            "expected": len(expected),
            "scored": scored,
            "errors": errors,
            "missing": len(missing),
            "missing_ids": missing[:SHOWN_MISSING],
            "accuracy_complete_case": round(right / scored, 6) if scored else None,
            "accuracy_all_items": round(right / len(expected), 6) if expected else None,
        }
    return {"benchmark_items": len(items), "selected_items": len(selected),
            "conditions": per}


def missing_lines(cov: Mapping[str, Any]) -> list[str]:
    """One line per condition with missing items: count and the first ids."""
    out = []
    for cond, c in cov.get("conditions", {}).items():
        if c["missing"]:
            more = "…" if c["missing"] > len(c["missing_ids"]) else ""
            out.append(
                f"{cond}: {c['missing']} of {c['expected']} items have no prediction "
                f"({', '.join(c['missing_ids'])}{more}); accuracy over all items "
                f"{_pct(c['accuracy_all_items'])} vs complete case "
                f"{_pct(c['accuracy_complete_case'])}"
            )
    return out


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"
