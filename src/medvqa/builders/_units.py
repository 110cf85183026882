"""Topic labels from records: units with unified labels, plus seeded class balancing.

There is one unit per image, finding box or exam that asks a question.

A topic's units live in a :class:`UnitTable` (columns of integers pointing into the records, with
label sets interned), so a topic over many images holds a few machine words per unit;
:meth:`UnitTable.unit` materialises one :class:`Unit`, records loaded, when an item is made.
"""

from __future__ import annotations

import logging
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from medvqa.builders._recipe import TopicSpec
from medvqa.rng import rng_for
from medvqa.sources import Box, Problems, Record

log = logging.getLogger(__name__)


@dataclass
class Unit:
    """What one item is about.

    Attributes:
        key: unique within the topic; part of the item id.
        records: the image (one) or the exam's images (several).
        labels: unified labels (one for single / yesno / grade; one or more for multi).
        raw: the raw labels they came from.
        box: the finding box (finding level), else None.
        normal_of: for a normal crop, the finding unit whose crop size it copies.
        extra: the crop rectangle (``crop``) once the unit's image is cut.

    """

    key: str
    records: list[Record]
    labels: list[str]
    raw: list[str]
    box: Box | None = None
    normal_of: Unit | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class UnitTable:
    """A topic's units in order, as integer columns.

    Unit ``i`` covers records ``members(i)`` (indices into the topic's record sequence), has
    label set ``label[i]`` (a code into :attr:`labels`), finding box ``box[i]`` (index into its
    record's boxes, -1 for none) and, for a normal crop, ``normal_of[i]`` (its finding's unit
    index, else -1).

    Args:
        exam: units are exams (keyed by case id) rather than images or findings.

    """

    def __init__(self, exam: bool = False):
        self.exam = exam
        self.starts: array[int] = array("q", [0])
        self.recs: array[int] = array("q")
        self.label: array[int] = array("q")
        self.box: array[int] = array("q")
        self.normal_of: array[int] = array("q")
        #: Label-set code → (unified labels, raw labels).
        self.labels: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        self._codes: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}

    def __len__(self) -> int:
        return len(self.label)

    def add(
        self, recs: Sequence[int], labels: Sequence[str], raw: Sequence[str], box: int = -1,
        normal_of: int = -1,
    ) -> int:
        """Append a unit; return its index."""
        pair = (tuple(labels), tuple(raw))
        code = self._codes.setdefault(pair, len(self._codes))
        if code == len(self.labels):
            self.labels.append(pair)
        self.recs.extend(recs)
        self.starts.append(len(self.recs))
        self.label.append(code)
        self.box.append(box)
        self.normal_of.append(normal_of)
        return len(self.label) - 1

    def members(self, i: int) -> list[int]:
        """Record indices of unit ``i``."""
        return self.recs[self.starts[i] : self.starts[i + 1]].tolist()

    def labels_of(self, i: int) -> tuple[str, ...]:
        """Unified labels of unit ``i``."""
        return self.labels[self.label[i]][0]

    def unit(
        self, i: int, records: Sequence[Record], crops: dict[int, list[int]] | None = None
    ) -> Unit:
        """Unit ``i`` with its records loaded (and its finding's, for a normal crop).

        ``crops`` gives cut units their ``extra["crop"]``.
        """
        crops = crops or {}
        recs = [records[j] for j in self.members(i)]
        labels, raw = self.labels[self.label[i]]
        box = recs[0].boxes[self.box[i]] if self.box[i] >= 0 else None
        finding = self.unit(self.normal_of[i], records, crops) if self.normal_of[i] >= 0 else None
        if finding is not None:
            key = f"{finding.key}#normal"
        elif box is not None:
            key = f"{recs[0].key}#box{self.box[i]}"
        elif self.exam:
            key = recs[0].case_id or recs[0].key
        else:
            key = recs[0].key
        extra: dict[str, Any] = {"crop": crops[i]} if i in crops else {}
        return Unit(key, recs, list(labels), list(raw), box, finding, extra)


def map_labels(
    topic: TopicSpec, raw: list[str], where: str, problems: Problems
) -> tuple[list[str], list[str]] | None:
    """Unified labels for raw values, or None when the unit asks no question or is bad.

    An unknown raw label (``label_map`` set and the value neither mapped nor ignored) is a
    problem naming ``where``; ambiguous single-answer units (two different labels) are skipped.
    """
    raw = [r for r in raw if r not in topic.ignore]
    if not raw:
        return None
    mapped: list[str] = []
    for value in raw:
        if topic.label_map:
            if value not in topic.label_map:
                problems.add(where, f"unknown label {value!r} in column {topic.column!r}")
                return None
            value = topic.label_map[value]
        if value not in mapped:
            mapped.append(value)
    if topic.question_type != "multi" and len(mapped) != 1:
        log.debug(
            "%s: %s has several labels %s; no single-answer question", where, topic.name, mapped
        )
        return None
    return mapped, raw


def image_units(topic: TopicSpec, records: Sequence[Record], problems: Problems) -> UnitTable:
    """One unit per record that has a label in the topic's column."""
    units = UnitTable()
    for i, rec in enumerate(records):
        got = map_labels(topic, rec.fields.get(topic.column, []), rec.where, problems)
        if got is not None:
            units.add([i], got[0], got[1])
    return units


def finding_units(
    topic: TopicSpec, records: Sequence[Record], problems: Problems, seed: int = 0
) -> UnitTable:
    """One unit per box whose row has a label in the topic's column.

    With ``normal_label`` set, each is followed by a same-size crop unit from a seeded random
    normal image of its source.
    """
    normals = _normal_pools(topic, records) if topic.normal_label else {}
    units = UnitTable()
    for r, rec in enumerate(records):
        for i, box in enumerate(rec.boxes):
            value = box.fields.get(topic.column, "")
            got = map_labels(topic, [value] if value else [], box.row or rec.where, problems)
            if got is None:
                continue
            u = units.add([r], got[0], got[1], box=i)
            pool = normals.get(rec.source)
            if pool:
                key = f"{rec.key}#box{i}"
                pick = pool[int(rng_for(seed, key, "normal").integers(len(pool)))]
                units.add([pick], [topic.normal_label], [topic.normal_value], normal_of=u)
    return units


def _normal_pools(topic: TopicSpec, records: Sequence[Record]) -> dict[str, array[int]]:
    """Per source, the records without boxes whose label is the topic's normal value."""
    column = topic.normal_column or topic.column
    normals: dict[str, array[int]] = {}
    for i, rec in enumerate(records):
        if not rec.boxes and topic.normal_value in rec.fields.get(column, []):
            normals.setdefault(rec.source, array("q")).append(i)
    return normals


def exam_units(
    topic: TopicSpec, records: Sequence[Record], max_images: int, problems: Problems
) -> UnitTable:
    """One unit per case (records grouped by ``case_id``, at most ``max_images`` images)."""
    cases: dict[str, array[int]] = {}
    for i, rec in enumerate(records):
        cases.setdefault(f"{rec.source}\x1f{rec.case_id or rec.key}", array("q")).append(i)
    units = UnitTable(exam=True)
    for idx in cases.values():
        raw: list[str] = []
        first: Record | None = None
        for j in idx:
            rec = records[j]
            first = first or rec
            raw.extend(v for v in rec.fields.get(topic.column, []) if v not in raw)
        assert first is not None
        got = map_labels(topic, raw, first.where, problems)
        if got is None:
            continue
        if len(idx) > max_images:
            log.info("case %s: %d images, keeping the first %d", first.case_id, len(idx),
                     max_images)
        units.add(idx[:max_images], got[0], got[1])
    return units


def balance_units(units: UnitTable, seed: int, topic: str) -> array[int]:
    """Indices of equal units per label by seeded undersampling to the rarest label; in order."""
    joined = ["|".join(labels) for labels, _ in units.labels]
    by_label: dict[str, array[int]] = {}
    for i, code in enumerate(units.label):
        by_label.setdefault(joined[code], array("q")).append(i)
    if not by_label:
        return array("q", range(len(units)))
    n = min(len(v) for v in by_label.values())
    rng = rng_for(seed, topic, "balance")
    keep = bytearray(len(units))
    for label in sorted(by_label):
        idx = by_label[label]
        for j in rng.choice(len(idx), size=n, replace=False).tolist():
            keep[idx[j]] = 1
    return array("q", (i for i, k in enumerate(keep) if k))
