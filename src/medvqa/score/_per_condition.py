"""metrics.json's ``conditions``: per condition, the overall block, breakdowns and subgroups.

Built from the scored rows' columns (:class:`~medvqa.score._table.Rows`) and the items'
(:class:`~medvqa.score._items.ItemTable`); every interval is registered with the run's one
:class:`~medvqa.stats._resample.Resampler` and drawn after all conditions are planned.
A breakdown with more than :data:`MAX_GROUPS` values (``--by meta.patient_id``) is left out,
with one line saying so: a breakdown compares groups, and one block per patient would cost a
resampled interval for each of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np

from medvqa.conditions import describe
from medvqa.schema import ConditionMetrics
from medvqa.score._block import (
    BlockArrays,
    ClassRule,
    PendingBlock,
    confusion,
    finish_block,
    pending_block,
)
from medvqa.score._items import Groups, ItemTable
from medvqa.score._metrics import MAX_INTERVAL_CLASSES
from medvqa.score._subgroups import subgroup_tests
from medvqa.score._table import Extra, Rows
from medvqa.stats import MAX_UNITS, Resampler, dense_labels

#: A breakdown with more distinct values than this is left out (and said so).
MAX_GROUPS = 200


@dataclass
class RunData:
    """What every condition's blocks are computed from.

    Attributes:
        items: the benchmark's items.
        rows: the scored rows.
        units: resampling unit of each item (−1: never scored).
        resampler: the run's resampler.
        by: breakdown fields asked for.
        resamples: Monte Carlo permutations of the subgroup tests.
        seed: their seed.
    """

    items: ItemTable
    rows: Rows
    units: np.ndarray
    resampler: Resampler
    by: tuple[str, ...]
    resamples: int
    seed: int


@dataclass
class PendingCondition:
    """One condition's metrics, intervals still to draw."""

    overall: PendingBlock
    by: dict[str, dict[str, PendingBlock]]
    subgroups: dict[str, object] | None
    confusion: dict[str, object] | None
    notes: dict[str, str] = field(default_factory=dict)
    consistency: float | None = None

    def finish(self) -> ConditionMetrics:
        """The condition's metrics, once the resampler has run."""
        return ConditionMetrics(
            overall=finish_block(self.overall),
            by={f: {g: finish_block(b) for g, b in groups.items()}
                for f, groups in self.by.items()},
            subgroups=self.subgroups, confusion=self.confusion, consistency=self.consistency,
            notes=self.notes)


def run_units(has_case: np.ndarray, case: np.ndarray, scored: np.ndarray,
              cluster: bool) -> tuple[np.ndarray, str]:
    """Resampling unit of each item, and what was resampled in words (metrics.json).

    Units are cases when ``cluster`` is on and some case contributes several scored items
    (an item without a case_id is its own), else the items.

    Args:
        has_case: per item, whether it has a case_id.
        case: per item, a code of its case_id (compared only where ``has_case``).
        scored: per item, whether some row scored it (the others get unit −1).
        cluster: resample cases when they repeat (``--no-cluster`` turns it off).

    >>> run_units(np.array([True, True, False]), np.array([7, 7, 0]), np.ones(3, bool), True)
    (array([0, 0, 1]), 'cases (2 cases, 3 items)')
    """
    idx = np.flatnonzero(scored)
    units = np.full(len(scored), -1, dtype=np.int64)
    inverse = case_index(has_case[idx], case[idx])
    n_cases = int(inverse.max()) + 1 if len(idx) else 0
    if n_cases < len(idx) and cluster:
        units[idx] = inverse
        text = f"cases ({n_cases} cases, {len(idx)} items)"
    else:
        units[idx] = np.arange(len(idx))
        text = ("items (no case contributes more than one item)" if n_cases == len(idx)
                else f"items (--no-cluster; {n_cases} cases share {len(idx)} items)")
    if int(units.max(initial=-1)) + 1 > MAX_UNITS:
        what = "cases" if text.startswith("cases") else "items"
        text += f"; resampled in {MAX_UNITS:,} random groups of {what}"
    return units, text


def case_index(has_case: np.ndarray, case: np.ndarray) -> np.ndarray:
    """Unit of each item, numbered as ``np.unique`` numbers the (no case, case or item) pairs.

    Items with a case first, by case code (:func:`~medvqa.stats.dense_labels`: a lookup, not a
    sort, for the small codes of cases); then each item without one, in order. Not a unique
    over row pairs (which sorts records: ~90 bytes an item).

    >>> case_index(np.array([True, False, True, True]), np.array([9, 0, 4, 9])).tolist()
    [1, 2, 0, 1]
    """
    out = np.empty(len(has_case), dtype=np.int64)
    with_case = np.flatnonzero(has_case)
    ranks = dense_labels(case[with_case])
    out[with_case] = ranks
    n_codes = int(ranks.max()) + 1 if len(ranks) else 0
    out[~has_case] = n_codes + np.arange(len(has_case) - len(with_case))
    return out


def block_arrays(rows: Rows, positions: np.ndarray) -> BlockArrays:
    """The rows at ``positions`` (any order) as a block, extras re-indexed to it."""
    extras = {}
    if rows.extras:  # (a sort of the block's rows, for the few region and open rows)
        sorter = np.argsort(positions, kind="stable")
        ordered = positions[sorter]
    for name, e in rows.extras.items():
        at = np.searchsorted(ordered, e.rows)
        hit = at < len(ordered)
        hit[hit] = ordered[at[hit]] == e.rows[hit]
        extras[name] = Extra(sorter[at[hit]], e.values[hit])
    return BlockArrays(rows.item[positions].astype(np.int64), rows.correct[positions],
                       rows.invalid[positions], rows.pred[positions], rows.guessed[positions],
                       extras)


def pending_condition(data: RunData, name: str, rows: BlockArrays,
                      errors: int = 0) -> PendingCondition:
    """Overall block, breakdowns, subgroup tests and confusion matrix of one condition."""
    items, units = data.items, data.units
    rule = ClassRule.of(items.gold[rows.item])
    block_args = (items.gold, items.chance, units, data.resampler, rule)
    overall = pending_block((name, "overall"), rows, *block_args, errors=errors)
    by: dict[str, dict[str, PendingBlock]] = {}
    for field_name in data.by:
        groups = items.groups[field_name]
        if groups.capped:
            continue
        codes = groups.array()[rows.item]
        present = np.unique(codes)
        if len(present) > 1 or field_name == "category":
            by[field_name] = {
                groups.labels[c]: pending_block((name, field_name, int(c)),
                                                rows.subset(np.flatnonzero(codes == c)),
                                                *block_args)
                for c in sorted(present, key=lambda c: groups.labels[c])}
    groupings = _Groupings(items.subgroups, rows.item)
    notes = {}
    if rule.note:
        notes = {"weighted_accuracy": rule.note, "macro_f1": rule.note}
    elif not rule.interval:
        why = (f"no interval: more than {MAX_INTERVAL_CLASSES} gold answers (resampling costs "
               "resamples × units × classes)")
        notes = {"weighted_accuracy": why, "macro_f1": why}
    return PendingCondition(
        overall, by,
        subgroup_tests(rows.correct.astype(float), groupings, units[rows.item], data.resamples,
                       data.seed),
        confusion(items.grade[rows.item], items.gold[rows.item], rows.pred, items.grade_labels),
        notes)


class _Groupings(Mapping[str, tuple[np.ndarray, list[str]]]):
    """Subgroup name → (code per row, labels), each built when read (one at a time in memory)."""

    def __init__(self, groups: dict[str, Groups], item: np.ndarray):
        self._groups, self._item = groups, item

    def __getitem__(self, name: str) -> tuple[np.ndarray, list[str]]:
        g = self._groups[name]
        return g.array()[self._item].astype(np.int64), g.labels

    def __iter__(self) -> Iterator[str]:
        return iter(self._groups)

    def __len__(self) -> int:
        return len(self._groups)


def combined_conditions(data: RunData, names: Iterable[str]) -> dict[str, PendingCondition]:
    """Every combined condition (``Condition.combined_as``: ``permute@k`` → ``permute``).

    Circular evaluation: an item is right only if right under every member condition, invalid
    if invalid under any; ``consistency`` is the share of items answered alike under all.
    """
    members: dict[str, list[str]] = {}
    for cond in names:
        if (into := describe(cond).combined_as):
            members.setdefault(into, []).append(cond)
    out = {}
    for into, shifts in sorted(members.items()):
        rows, consistency = _circular(data, shifts)
        pending = pending_condition(data, into, rows)
        pending.consistency = consistency
        out[into] = pending
    return out


def _circular(data: RunData, shifts: list[str]) -> tuple[BlockArrays, float]:
    """One row per item scored under some shift: right only if right under every shift.

    Counted per item (memory grows with the items, not with items × shifts; flags, not
    counts, so a million rows leave a few bytes an item); the item's first row (in the
    shifts' order, then file order) gives its class and extras, and items come in the order
    of their first row. Also returns the consistency: the share of items whose predicted
    class is the same under every shift.
    """
    rows, n = data.rows, len(data.items)
    never = np.iinfo(np.int64).max
    first = np.full(n, never, dtype=np.int64)
    first_row = np.full(n, -1, dtype=np.int64)
    reference = np.zeros(n, dtype=np.int64)  # predicted class of the item's first row
    seen, wrong, invalid, differs = (np.zeros(n, dtype=bool) for _ in range(4))
    offset = 0
    for cond in shifts:
        at = rows.of(cond)
        items = rows.item[at]
        found, where = np.unique(items, return_index=True)
        new = first[found] == never
        found, where = found[new], where[new]
        first[found] = offset + where
        first_row[found] = at[where]
        reference[found] = rows.pred[at[where]]
        seen[items] = True
        # Assigning True through repeated indices is well defined (every write is the same).
        wrong[items[rows.correct[at] == 0]] = True
        invalid[items[rows.invalid[at] != 0]] = True
        differs[items[rows.pred[at] != reference[items]]] = True
        offset += len(at)
    scored = np.flatnonzero(seen)
    order = scored[np.argsort(first[scored], kind="stable")]
    combined = block_arrays(rows, first_row[order])
    combined.correct = (~wrong[order]).astype(np.int8)
    combined.invalid = invalid[order].astype(np.int8)
    alike = int(np.count_nonzero(~differs[order]))
    return combined, round(float(alike) / max(len(order), 1), 6)
