"""What a run asks, checked before anything is sent or written: selection, scan and resume.

:class:`ItemSelection` streams the items a run selects (split, category, limit) and can be read
again. :func:`scan_selection` reads it once before the run starts and refuses what would make
the run silently wrong — a line that is not an item (bytes that are not UTF-8, not JSON, an
answer letter not among the options: skipping it would change the denominator unseen, and
``medvqa score`` refuses it too), duplicate item ids (the journal keeps one answer per id and
condition, so a duplicate's answer would be lost), an empty selection. :func:`resume_info`
decides whether an existing RUN/ folder belongs to this run.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medvqa.benchmark import bad_item_lines, iter_items
from medvqa.errors import BadInputError
from medvqa.run._shifts import ShiftTally
from medvqa.schema import AskedSelection, InputError, Item, RecordError, RunInfo, read_json

#: Duplicate ids named in the refusal message (the count is always given).
SHOWN_DUPLICATES = 5


class ItemSelection:
    """Streams the selected items of a benchmark as ``(line, item)``, re-readable.

    Args:
        path: items.jsonl.
        split: only items of this split (None: all).
        category: only items of this category (None: all).
        limit: at most this many items, after the filters (None: all).

    """

    def __init__(
        self, path: Path, split: str | None, category: str | None, limit: int | None
    ) -> None:
        self.path = path
        self.split = split
        self.category = category
        self.limit = limit
        self.errors: list[RecordError] = []

    def as_dict(self) -> dict[str, Any]:
        """The filters, for run.json (only those that were set)."""
        out = {"split": self.split, "category": self.category, "limit": self.limit}
        return {k: v for k, v in out.items() if v is not None}

    def __iter__(self) -> Iterator[tuple[int, Item]]:
        errors: list[RecordError] = []
        n = 0
        for lineno, item in iter_items(self.path, errors):
            if self.limit is not None and n >= self.limit:
                break
            if self.split is not None and item.split != self.split:
                continue
            if self.category is not None and item.category != self.category:
                continue
            n += 1
            yield lineno, item
        self.errors = errors


@dataclass
class SelectionScan:
    """What one pass over the selection found.

    Attributes:
        items: items selected.
        notes: what the run does not ask that it was asked to (``permute@k`` beyond some
            items' options), one counted line each.

    """

    items: int = 0
    notes: list[str] = field(default_factory=list)


def scan_selection(selection: ItemSelection, shifts: ShiftTally | None = None) -> SelectionScan:
    """Read the selection once and refuse what would make the run silently wrong.

    Every line of the file is read, not only the selected ones (a bad line's split is not
    known, and ``medvqa score`` reads every line too). ``shifts`` counts the items each named
    option shift asks (:mod:`medvqa.run._shifts`).

    Raises:
        BadInputError: a line is not an item (not UTF-8, not JSON, a field that does not
            validate: names the first, file, line and field, and counts the rest), two items
            share an id (names them and their lines), nothing is selected, or a named shift
            asks no selected item.

    """
    scan = SelectionScan()
    first_line: dict[str, int] = {}
    duplicates: list[str] = []
    for lineno, item in selection:
        scan.items += 1
        if shifts is not None:
            shifts.add(item)
        first = first_line.setdefault(item.id, lineno)
        if first != lineno:
            duplicates.append(f"{item.id!r} (lines {first} and {lineno})")
    bad = list(selection.errors)
    if selection.limit is not None:  # the selection stopped at its limit: read the rest
        bad = []
        for _ in iter_items(selection.path, bad):
            pass
    if bad:
        raise bad_item_lines(str(bad[0]), len(bad), "nothing was run")
    if duplicates:
        shown = ", ".join(duplicates[:SHOWN_DUPLICATES])
        more = f" and {len(duplicates) - SHOWN_DUPLICATES} more" if len(duplicates) > 5 else ""
        raise BadInputError(
            f"{selection.path}: {len(duplicates)} duplicate item id(s): {shown}{more}; each "
            "id must be unique (see `medvqa validate`)"
        )
    if scan.items == 0:
        filters = selection.as_dict()
        why = f" match {filters}" if filters else ""
        raise BadInputError(f"{selection.path}: no items{why}; nothing to run")
    if shifts is not None:
        scan.notes = shifts.notes()
    return scan


#: Parameters that name the weights (a checkpoint's, a classifier's, an adapter's digest).
WEIGHT_PARAMS = ("checkpoint", "weights_sha256", "adapter")


def _differences(old: RunInfo, info: RunInfo) -> list[str]:
    diffs = []
    if old.items_sha256 != info.items_sha256:
        diffs.append(
            f"it was made for another benchmark (items_sha256 {old.items_sha256[:12]}… "
            f"vs {info.items_sha256[:12]}…)"
        )
    if old.model != info.model:
        diffs.append(f"it was made with model {old.model!r}, not {info.model!r}")
    if old.prompt_template != info.prompt_template:
        diffs.append(f"it used prompt {old.prompt_template!r}, not {info.prompt_template!r}")
    diffs += _param_differences(old.model_params, info.model_params)
    if old.seed != info.seed:
        diffs.append(f"its seed was {old.seed}, not {info.seed}")
    return diffs


def _param_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """How the model parameters differ: the weights' digests first, then the rest.

    >>> _param_differences({"checkpoint": "ab12", "temperature": 0.0},
    ...                    {"checkpoint": "cd34", "temperature": 0.0})
    ['its answers came from other weights (checkpoint ab12, now cd34)']
    >>> _param_differences({}, {"adapter": "ef56"})
    ['it was made without an adapter (now adapter ef56)']
    """
    diffs = []
    for key in WEIGHT_PARAMS:
        was, now = old.get(key), new.get(key)
        if was == now:
            continue
        if key == "adapter":
            diffs.append(f"it was made without an adapter (now adapter {now})" if was is None
                         else f"it was made with adapter {was}, now "
                         + (f"adapter {now}" if now is not None else "without one"))
        elif was is None:
            diffs.append(f"it records no {key} digest (made by an older medvqa, or from other "
                         f"weights), so its answers may come from other weights ({key} now "
                         f"{now})")
        else:
            diffs.append(f"its answers came from other weights ({key} {was}, now "
                         f"{now if now is not None else 'none'})")
    rest_old = {k: v for k, v in old.items() if k not in WEIGHT_PARAMS}
    rest_new = {k: v for k, v in new.items() if k not in WEIGHT_PARAMS}
    if rest_old != rest_new:
        diffs.append(f"its model parameters were {rest_old}, not {rest_new}")
    return diffs


def resume_info(run_file: Path, info: RunInfo) -> RunInfo:
    """``info`` merged with the run.json of the RUN/ folder being resumed.

    Keeps the first start time, the union of conditions and the failure judge (written by
    ``medvqa score --judge``). A selection other than the earlier ones (``--split test``, then
    ``--split test_tiny``) is recorded in ``asked`` with its conditions, so scoring expects
    of each condition the items that were asked of it, not those of the last selection. The
    display name is the earlier one unless this invocation names the model.

    Raises:
        BadInputError: run.json is unreadable, or made for a different benchmark, model,
            prompt, model parameters, weights (a checkpoint's digest) or seed: one line
            naming run.json, suggesting a new ``--out`` or ``--force-new``.

    """
    try:
        old = read_json(run_file, RunInfo)
    except InputError as exc:
        raise BadInputError(f"{exc}; use --force-new to start the run afresh") from None
    diffs = _differences(old, info)
    if diffs:
        raise BadInputError(
            f"{run_file}: " + "; ".join(diffs) + ". Resuming would mix the answers of two "
            "runs: choose a new --out folder, or use --force-new to start this one afresh "
            "(its answers are discarded)."
        )
    return info.model_copy(update={
        "started_at": old.started_at or info.started_at,
        "conditions": list(dict.fromkeys(old.conditions + info.conditions)),
        "asked": _asked(old, info),
        "display_name": info.display_name or old.display_name,
        "failure_judge": old.failure_judge,
    })


def _asked(old: RunInfo, info: RunInfo) -> list[AskedSelection]:
    """run.json's ``asked`` after this invocation: empty while every selection is the same."""
    if not old.asked and old.selection == info.selection:
        return []
    asked = [a.model_copy(deep=True) for a in old.asked_selections()]
    for a in asked:
        if a.selection == info.selection:
            a.conditions = list(dict.fromkeys(a.conditions + info.conditions))
            return asked
    return [*asked, AskedSelection(selection=info.selection, conditions=list(info.conditions))]
