"""Pass one over items.jsonl: what scoring needs of each item, as arrays — never the items.

A 300,000-item benchmark held as :class:`~medvqa.schema.Item` objects takes about a gigabyte;
what the metrics need of an item is a few numbers (its resampling unit, gold class, breakdown
groups, chance of a guess). :class:`ItemTable` keeps those numbers and each line's byte offset,
and reads an item back from its line when a prediction needs it (a small cache serves the
runner's item-major predictions.jsonl, so each item is read about once). Every line is validated
here, once; a bad one refuses the benchmark (its file, line, item id and field named, the rest
counted), as ``medvqa run`` does: skipping it would change the denominator unseen.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
from pydantic import ValidationError

from medvqa.benchmark import bad_item_lines
from medvqa.schema import (
    ITEMS_FILE,
    InputError,
    Item,
    RecordError,
    raw_lines,
    record_error,
    validate_raw,
)
from medvqa.score._by import group_key
from medvqa.score._metrics import chance_of_guess
from medvqa.score._rows import class_hash, gold_class
from medvqa.score._subgroups import age_band, label

#: Items kept parsed for the predictions that follow (predictions.jsonl is item-major).
CACHED_ITEMS = 512
#: The subgroup analysis (LMOD): grouping → label of an item.
SUBGROUPS = ("age_band", "sex", "source")


@dataclass
class Groups:
    """One grouping of the items: a code per item and the label of each code.

    Attributes:
        codes: int32 code per item (−1: not tracked).
        labels: label of each code, in order of first appearance.
        capped: the grouping had more than ``limit`` labels and stopped tracking them.
    """

    codes: array[int] = field(default_factory=lambda: array("i"))
    labels: list[str] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)
    capped: bool = False
    limit: int = 0

    def add(self, value: str) -> None:
        """Code ``value`` for the next item."""
        if self.capped:
            self.codes.append(-1)
            return
        code = self.index.get(value)
        if code is None:
            if self.limit and len(self.labels) >= self.limit:
                self.capped = True
                self.index.clear()
                self.codes.append(-1)
                return
            code = self.index[value] = len(self.labels)
            self.labels.append(value)
        self.codes.append(code)

    def array(self) -> np.ndarray:
        """The codes as an int32 array (−1 everywhere once capped)."""
        if self.capped:
            return np.full(len(self.codes), -1, dtype=np.int32)
        return np.frombuffer(self.codes, dtype=np.int32)


@dataclass
class ItemTable:
    """The benchmark's items as arrays, one entry per line.

    Attributes:
        path: items.jsonl.
        offsets: byte offset of each item's line.
        case: stable code of each item's case_id (0 where it has none; see ``has_case``).
        has_case: whether the item has a case_id.
        gold: stable code (:func:`~medvqa.score._rows.class_hash`) of the gold class.
        chance: chance that a uniform guess is right.
        grade: whether the item is a grading question (confusion matrices).
        grade_labels: gold class code → label, for grading items.
        groups: breakdown field → its :class:`Groups` (``category`` always).
        subgroups: LMOD grouping (age band, sex, source) → its :class:`Groups`.
        selected: whether any of run.json's selections (split, category, limit) picks the
            item.
        selected_by: per selection (run.json ``asked``, in order), whether it picks the item.
        expected: condition → per item, whether the run should have asked it (selected and
            the condition applies), for the conditions asked of :func:`read_items`; coverage
            narrows it to the selections that asked the condition.
    """

    path: Path
    offsets: np.ndarray
    case: np.ndarray
    has_case: np.ndarray
    gold: np.ndarray
    chance: np.ndarray
    grade: np.ndarray
    grade_labels: dict[int, str]
    groups: dict[str, Groups]
    subgroups: dict[str, Groups]
    selected: np.ndarray
    selected_by: list[np.ndarray]
    _hashes: array[int]
    _order: np.ndarray
    expected: dict[str, np.ndarray] = field(default_factory=dict)
    _repeated: frozenset[int] = frozenset()
    _last: int = -1
    _current: Item | None = None
    _fh: BinaryIO | None = None
    _cache: OrderedDict[int, Item] = field(default_factory=OrderedDict)

    def __len__(self) -> int:
        return len(self.gold)

    def find(self, item_id: str) -> int | None:
        """Index of the item called ``item_id`` (the last line with that id), or None.

        predictions.jsonl is item-major in benchmark order, so the item of the previous
        prediction, then the next item, are tried before the id index.
        """
        last = self._last
        if last >= 0 and self._current is not None and self._current.id == item_id \
                and self._unique(last):
            return last
        if 0 <= last + 1 < len(self.offsets):
            following = self.item(last + 1)
            if following.id == item_id and self._unique(last + 1):
                self._last, self._current = last + 1, following
                return last + 1
        h = hash(item_id)
        lo, hi = bisect_left(self._hashes, h), bisect_right(self._hashes, h)
        for pos in range(hi - 1, lo - 1, -1):
            index = int(self._order[pos])
            found = self.item(index)
            if found.id == item_id:
                self._last, self._current = index, found
                return index
        return None

    def _unique(self, index: int) -> bool:
        """Whether no later line repeats the id of item ``index`` (the last line wins)."""
        return index not in self._repeated

    def item(self, index: int) -> Item:
        """The item at ``index``, read back from its line (recent ones are cached)."""
        if index == self._last and self._current is not None:
            return self._current
        hit = self._cache.get(index)
        if hit is not None:
            self._cache.move_to_end(index)
            return hit
        if self._fh is None:
            self._fh = self.path.open("rb")
        self._fh.seek(int(self.offsets[index]))
        item = Item.model_validate_json(self._fh.readline())
        self._cache[index] = item
        if len(self._cache) > CACHED_ITEMS:
            self._cache.popitem(last=False)
        return item

    def items(self) -> Iterator[Item]:
        """Every item, in file order (a fresh streaming pass)."""
        with self.path.open("rb") as fh:
            for offset in self.offsets.tolist():
                fh.seek(offset)
                yield Item.model_validate_json(fh.readline())

    def forget_lines(self) -> None:
        """Drop the line offsets and the id index: the columns stay, no item is read again.

        What scoring keeps of the items once every prediction is read (a few bytes an item
        less while the metrics are planned and drawn).
        """
        self.close()
        self.offsets = np.zeros(0, dtype=np.int64)
        self._hashes, self._order = array("q"), np.zeros(0, dtype=np.int32)

    def close(self) -> None:
        """Release the file handle and the cache."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        self._cache.clear()
        self._last, self._current = -1, None


def _problem(path: Path, lineno: int, raw: bytes, exc: Exception) -> str:
    """One line for a bad item line: file, line, item id (when readable), field, message."""
    err: RecordError = record_error(path, lineno, exc)
    try:
        import json

        item_id = json.loads(raw).get("id")
    except (ValueError, AttributeError, RecursionError):  # not JSON, not an object, too deep
        item_id = None
    if item_id is None:
        return str(err)
    return f"{err.file}:{err.line}: item {item_id}: {err.field}: {err.message}"


class _Codes(dict[str, int]):
    """Stable codes of labels, the recent ones remembered (a case's items come together)."""

    def code(self, label: str) -> int:
        got = self.get(label)
        if got is None:
            if len(self) >= 4096:
                self.clear()
            got = self[label] = class_hash(label)
        return got


class _Pick:
    """One selection applied in file order, as the runner applies it (the limit counts picks)."""

    def __init__(self, selection: dict[str, Any]) -> None:
        self.split, self.category = selection.get("split"), selection.get("category")
        limit = selection.get("limit")
        self.limit = None if limit is None else int(limit)
        self.count = 0
        self.picked: array[int] = array("b")

    def take(self, item: Item) -> bool:
        """Whether the selection picks ``item`` (the next item of the file); remembered."""
        take = (self.limit is None or self.count < self.limit) and \
            (self.split is None or item.split == self.split) and \
            (self.category is None or item.category == self.category)
        self.count += take
        self.picked.append(take)
        return take


def read_items(bench_dir: Path, by: tuple[str, ...], age_edges: tuple[float, ...],
               selections: list[dict[str, Any]], max_groups: int,
               expect: dict[str, Any] | None = None) -> ItemTable:
    """Read and validate items.jsonl once into an :class:`ItemTable`.

    Args:
        bench_dir: the BENCH/ folder.
        by: breakdown fields (``category`` is always added: controls break down by it).
        age_edges: age band edges of the subgroup analysis.
        selections: run.json's selections (``split``, ``category``, ``limit``): its
            ``selection``, or each of ``asked`` when a resumed run used several.
        max_groups: a breakdown with more labels than this stops tracking them (capped).
        expect: condition name → condition whose ``applies_to`` is asked of every selected
            item on the way (coverage; conditions that need no ``prepare`` pass).

    Raises:
        InputError: a line is not UTF-8 (not a JSON-lines file of ours).
        BadInputError: a line is not an item (not JSON, a field that does not validate): the
            first is named, the rest counted, after the whole file is read.
    """
    path = Path(bench_dir) / ITEMS_FILE
    # Compact columns while reading (a Python list of ints costs ~40 bytes an entry).
    offsets, hashes, cases, gold = array("q"), array("q"), array("q"), array("q")
    chance, has_case, grade = array("d"), array("b"), array("b")
    grade_labels: dict[int, str] = {}
    fields = tuple(dict.fromkeys(("category", *by)))
    groups = {f: Groups(limit=max_groups) for f in fields}
    subgroups = {s: Groups() for s in SUBGROUPS}
    picks = [_Pick(sel) for sel in selections or [{}]]
    selected = array("b")
    codes = _Codes()
    bands: dict[object, str] = {}  # age → band (ages repeat; the band's text costs a format)
    expect = expect or {}
    applies: dict[str, array[int]] = {name: array("b") for name in expect}
    bad, first_bad = 0, ""
    validate = Item.model_validate_json
    for lineno, offset, raw in raw_lines(path):
        try:
            item = validate_raw(validate, path, lineno, raw)
        except InputError:
            raise  # not UTF-8
        except (ValidationError, ValueError) as exc:
            bad += 1
            first_bad = first_bad or _problem(path, lineno, raw, exc)
            continue
        offsets.append(offset)
        hashes.append(hash(item.id))
        has_case.append(item.case_id is not None)
        cases.append(codes.code(item.case_id) if item.case_id is not None else 0)
        label_ = gold_class(item)
        code = codes.code(label_)
        gold.append(code)
        chance.append(chance_of_guess(len(item.options), item.question_type))
        grade.append(item.question_type == "grade")
        if item.question_type == "grade":
            grade_labels[code] = label_
        for name, g in groups.items():
            g.add(group_key(item, name))
        age = item.meta.get("age")
        band = bands.get(age) if isinstance(age, (int, str)) else None
        if band is None:
            band = age_band(age, age_edges)
            if isinstance(age, (int, str)) and len(bands) < 4096:
                bands[age] = band
        subgroups["age_band"].add(band)
        subgroups["sex"].add(label(item.meta.get("sex")))
        subgroups["source"].add(label(item.source))
        take = False
        for pick in picks:
            take = pick.take(item) or take
        selected.append(take)
        for name, cond in expect.items():
            applies[name].append(take and bool(cond.applies_to(item)))
    if bad:
        raise bad_item_lines(first_bad, bad, "nothing was scored")
    h = _np(hashes, np.int64)
    order = np.argsort(h, kind="stable").astype(np.int32)
    offsets_ = _np(offsets, np.int64)
    return ItemTable(
        path=path, offsets=offsets_, case=_np(cases, np.int64),
        has_case=_np(has_case, np.int8).astype(bool), gold=_np(gold, np.int64),
        chance=_np(chance, np.float64), grade=_np(grade, np.int8).astype(bool),
        grade_labels=grade_labels, groups=groups, subgroups=subgroups,
        selected=_np(selected, np.int8).astype(bool),
        selected_by=[_np(p.picked, np.int8).astype(bool) for p in picks],
        _hashes=array("q", h[order].tobytes()),
        _order=order, expected={k: _np(v, np.int8).astype(bool) for k, v in applies.items()},
        _repeated=_superseded(path, offsets_, h, order))


def _superseded(path: Path, offsets: np.ndarray, hashes: np.ndarray,
                order: np.ndarray) -> frozenset[int]:
    """Indices of items whose id a later line repeats (the later line wins, as in a dict).

    Only lines sharing an id hash are read again to compare the ids themselves.
    """
    same = np.flatnonzero(np.diff(hashes[order]) == 0)
    if not len(same):
        return frozenset()
    candidates = sorted({int(order[i]) for i in same} | {int(order[i + 1]) for i in same})
    last: dict[str, int] = {}
    out: set[int] = set()
    with path.open("rb") as fh:
        for index in candidates:
            fh.seek(int(offsets[index]))
            item_id = Item.model_validate_json(fh.readline()).id
            if item_id in last:
                out.add(last[item_id])
            last[item_id] = index
    return frozenset(out)


def _np(values: array[Any], dtype: type) -> np.ndarray:
    """A compact column as a NumPy array (a copy: the array's buffer may be resized)."""
    return np.frombuffer(values, dtype=dtype).copy() if len(values) else np.zeros(0, dtype)
