"""Which items a run should have answered, and which it did not: no item leaves n silently.

The items a run was asked about, per condition, are the benchmark's items under the run.json
selections that asked that condition (``selection``, or each of ``asked`` when a resumed run used
several: ``--split test``, then ``--split test_tiny``; split, category, limit, applied in file
order as the runner does) that the condition applies to — and any item the condition answered,
so "n of N" never shows more items scored than expected. An item with no prediction for a
condition is *missing*: counted, named, and reported beside two accuracies —

* complete case: correct / scored (what ``accuracy`` in metrics.json is: errors and missing
  items left out);
* all items: correct / expected, where an errored or missing item counts as wrong.

The gap between the two is how much a failing endpoint or a truncated file could have moved the
headline figure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from medvqa.schema import RunInfo
from medvqa.score._items import ItemTable
from medvqa.score._stream import Tally

#: Missing item ids listed per condition (the count is always complete).
SHOWN_MISSING = 20


def simple_conditions(names: list[str], seed: int) -> dict[str, Any]:
    """The known conditions among ``names`` that need no ``prepare`` pass.

    Their ``applies_to`` is asked on the way through the items
    (:func:`~medvqa.score._items.read_items`), sparing coverage a pass of its own.
    """
    from medvqa.conditions import Condition, describe, get_condition

    out = {}
    for name in dict.fromkeys(names):
        if describe(name).known:
            cond = get_condition(name, seed=seed)
            if type(cond).prepare is Condition.prepare:
                out[name] = cond
    return out


def asked_masks(items: ItemTable, info: RunInfo | None,
                conditions: list[str]) -> dict[str, np.ndarray]:
    """Per condition, the items of the selections that asked it (run.json ``asked``).

    A condition no selection names (found only in predictions.jsonl) gets every selected item.
    """
    if info is None:
        return {name: items.selected for name in conditions}
    adaptive = info.adaptive
    if adaptive is not None:  # an adaptive run was asked the items it chose, no others
        chosen = np.zeros(len(items), dtype=bool)
        for item_id in [*adaptive.asked_ids, *adaptive.failed_ids]:
            index = items.find(item_id)
            if index is not None:
                chosen[index] = True
        return {name: chosen if name == adaptive.condition else items.selected
                for name in conditions}
    asked = info.asked_selections()
    out = {}
    for name in conditions:
        masks = [m for a, m in zip(asked, items.selected_by, strict=True)
                 if name in a.conditions]
        out[name] = np.logical_or.reduce(masks) if masks else items.selected
    return out


def expected_masks(items: ItemTable, asked: Mapping[str, np.ndarray],
                   seed: int) -> dict[str, np.ndarray]:
    """Per condition, which of the items asked of it (``asked``) it applies to.

    One streaming pass for all conditions, two more for one that prepares on the items first
    (``swap``).
    """
    from medvqa.conditions import Condition, describe, get_condition

    out: dict[str, np.ndarray] = {}
    simple: dict[str, Condition] = {}
    for name, mask in asked.items():
        if name in items.expected:
            out[name] = items.expected[name] & mask
            continue
        if not describe(name).known:
            out[name] = mask.copy()
            continue
        cond = get_condition(name, seed=seed)
        if type(cond).prepare is Condition.prepare:
            simple[name] = cond
            continue
        cond.prepare(i for i, keep in zip(items.items(), mask, strict=True) if keep)
        out[name] = _applies(items, {name: cond}, asked)[name]
    out.update(_applies(items, simple, asked))
    return out


def _applies(items: ItemTable, conditions: Mapping[str, Any],
             asked: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    masks = {name: np.zeros(len(items), dtype=bool) for name in conditions}
    if not conditions:
        return masks
    for index, item in enumerate(items.items()):
        if items.selected[index]:
            for name, cond in conditions.items():
                masks[name][index] = asked[name][index] and cond.applies_to(item)
    return masks


def coverage(items: ItemTable, info: RunInfo | None, tally: Tally,
             correct: Mapping[str, int]) -> dict[str, Any]:
    """Per condition: expected, scored, errors, missing (count and first ids), both accuracies.

    Args:
        items: the benchmark's items.
        info: the run's run.json (None: every item, the conditions found in predictions).
        tally: what the pass over predictions.jsonl counted (answered items, errors).
        correct: condition → items scored correct.

    """
    seed = info.seed if info is not None else 0
    found = set(tally.answered) | set(tally.unknown) | set(tally.coverage_errors)
    conditions = list(dict.fromkeys((info.conditions if info is not None else []) +
                                    sorted(found)))
    asked = asked_masks(items, info, conditions)
    expected_of = expected_masks(items, asked, seed)
    per: dict[str, Any] = {}
    for cond in conditions:
        got = tally.answered.get(cond, np.zeros(len(items), dtype=bool))
        expected = expected_of[cond] | got  # an item answered was asked
        missing = np.flatnonzero(expected & ~got)
        errors = tally.coverage_errors.get(cond, 0)
        scored = int(got.sum()) + len(tally.unknown.get(cond, ())) - errors
        right = correct.get(cond, 0)
        n_expected = int(expected.sum())
        per[cond] = {
            "expected": n_expected,
            "scored": scored,
            "errors": errors,
            "missing": len(missing),
            "missing_ids": [items.item(int(i)).id for i in missing[:SHOWN_MISSING]],
            "accuracy_complete_case": round(right / scored, 6) if scored else None,
            "accuracy_all_items": round(right / n_expected, 6) if n_expected else None,
        }
    return {"benchmark_items": len(items), "selected_items": int(items.selected.sum()),
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
