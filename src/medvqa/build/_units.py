"""Topic labels from records: one :class:`Unit` per image, finding box or exam that asks a
question, with unified labels, plus seeded class balancing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from medvqa.build._recipe import TopicSpec
from medvqa.build._rng import rng_for
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

    """

    key: str
    records: list[Record]
    labels: list[str]
    raw: list[str]
    box: Box | None = None
    normal_of: Unit | None = None
    extra: dict[str, object] = field(default_factory=dict)


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
        log.debug("%s: %s has several labels %s; no single-answer question", where, topic.name, mapped)
        return None
    return mapped, raw


def image_units(topic: TopicSpec, records: list[Record], problems: Problems) -> list[Unit]:
    """One unit per record that has a label in the topic's column."""
    units = []
    for rec in records:
        got = map_labels(topic, rec.fields.get(topic.column, []), rec.where, problems)
        if got is not None:
            units.append(Unit(rec.key, [rec], got[0], got[1]))
    return units


def finding_units(topic: TopicSpec, records: list[Record], problems: Problems) -> list[Unit]:
    """One unit per box whose row has a label in the topic's column."""
    units = []
    for rec in records:
        for i, box in enumerate(rec.boxes):
            value = box.fields.get(topic.column, "")
            got = map_labels(topic, [value] if value else [], box.row or rec.where, problems)
            if got is not None:
                units.append(Unit(f"{rec.key}#box{i}", [rec], got[0], got[1], box=box))
    return units


def exam_units(
    topic: TopicSpec, records: list[Record], max_images: int, problems: Problems
) -> list[Unit]:
    """One unit per case (records grouped by ``case_id``, at most ``max_images`` images)."""
    cases: dict[str, list[Record]] = {}
    for rec in records:
        cases.setdefault(f"{rec.source}\x1f{rec.case_id or rec.key}", []).append(rec)
    units = []
    for recs in cases.values():
        raw: list[str] = []
        for rec in recs:
            raw.extend(v for v in rec.fields.get(topic.column, []) if v not in raw)
        got = map_labels(topic, raw, recs[0].where, problems)
        if got is None:
            continue
        if len(recs) > max_images:
            log.info("case %s: %d images, keeping the first %d", recs[0].case_id, len(recs), max_images)
        units.append(Unit(recs[0].case_id or recs[0].key, recs[:max_images], got[0], got[1]))
    return units


def add_normal_units(
    topic: TopicSpec, findings: list[Unit], records: list[Record], seed: int
) -> list[Unit]:
    """Findings plus, after each, a same-size crop from a random normal image of its source."""
    column = topic.normal_column or topic.column
    normals: dict[str, list[Record]] = {}
    for rec in records:
        if not rec.boxes and topic.normal_value in rec.fields.get(column, []):
            normals.setdefault(rec.source, []).append(rec)
    out = []
    for unit in findings:
        out.append(unit)
        pool = normals.get(unit.records[0].source, [])
        if not pool:
            continue
        pick = pool[int(rng_for(seed, unit.key, "normal").integers(len(pool)))]
        out.append(
            Unit(
                f"{unit.key}#normal",
                [pick],
                [topic.normal_label],
                [topic.normal_value],
                normal_of=unit,
            )
        )
    return out


def balance_units(units: list[Unit], seed: int, topic: str) -> list[Unit]:
    """Equal units per label by seeded undersampling to the rarest label; order is kept."""
    by_label: dict[str, list[int]] = {}
    for i, unit in enumerate(units):
        by_label.setdefault("|".join(unit.labels), []).append(i)
    if not by_label:
        return units
    n = min(len(v) for v in by_label.values())
    rng = rng_for(seed, topic, "balance")
    keep: set[int] = set()
    for label in sorted(by_label):
        idx = by_label[label]
        keep.update(idx[j] for j in rng.choice(len(idx), size=n, replace=False).tolist())
    return [u for i, u in enumerate(units) if i in keep]
