"""Recipe types ``classify`` and ``grade``: labels → questions at image, finding or exam level.

Per topic: units (images, box crops with same-size normal crops, or exams of ≤ 15 images) →
optional seeded class balancing → images stored (copied unchanged; crops encoded as PNG) →
question phrasing and option order drawn with the seed, answer letters balanced.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import Any, cast

from medvqa.builders._context import BuildContext, Draft, unique_id
from medvqa.builders._crops import finding_rect, random_rect
from medvqa.builders._options import (
    balanced_positions,
    choose_question,
    multi_options,
    single_options,
)
from medvqa.builders._recipe import Recipe, TopicSpec
from medvqa.builders._units import (
    Unit,
    UnitTable,
    balance_units,
    exam_units,
    finding_units,
    image_units,
)
from medvqa.schema import Item, Split
from medvqa.sources import Record, RecordStore, encode_png, natural_key, read_source


def read_records(recipe: Recipe, ctx: BuildContext) -> list[Record]:
    """Every record of every source, in recipe order."""
    records: list[Record] = []
    for spec in recipe.sources:
        records.extend(read_source(spec, ctx.root, ctx.problems))
    return records


def build_classify(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]:
    """Items for every topic of a classification recipe.

    The records go to a disk-backed :class:`RecordStore` in the building folder and units refer
    to them by index, so memory does not grow with the number of images.
    """
    with RecordStore(ctx.out) as records:
        for spec in recipe.sources:
            records.extend(read_source(spec, ctx.root, ctx.problems))
        for topic in recipe.topics:
            yield from _topic_items(recipe, topic, records, ctx)


def build_grade(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]:
    """Like ``classify``, with balanced classes and options in grade order unless set."""
    topics = [
        t.model_copy(update={"balance": True, "shuffle_options": False})
        if "balance" not in t.model_fields_set and "shuffle_options" not in t.model_fields_set
        else t
        for t in recipe.topics
    ]
    yield from build_classify(recipe.model_copy(update={"topics": topics}), ctx)


def _units(
    recipe: Recipe, topic: TopicSpec, records: Sequence[Record], ctx: BuildContext
) -> tuple[UnitTable, Sequence[int]]:
    """The topic's units and, in order, the indices of those that ask a question."""
    if topic.level == "finding":
        units = finding_units(topic, records, ctx.problems, ctx.seed)
    elif topic.level == "exam":
        units = exam_units(topic, records, recipe.exam_max_images, ctx.problems)
    else:
        units = image_units(topic, records, ctx.problems)
    if topic.balance:
        return units, balance_units(units, ctx.seed, topic.name)
    return units, range(len(units))


def _store_unit(unit: Unit, recipe: Recipe, ctx: BuildContext) -> list[str] | None:
    rec = unit.records[0]
    if unit.box is None and unit.normal_of is None:
        rels = [ctx.store_image(r.image, r.where) for r in unit.records]
        return None if any(r is None for r in rels) else [r for r in rels if r]
    if ctx.store_image(rec.image, rec.where) is None:  # readability check, cached
        return None
    image = ctx.open_image(rec.image)
    if unit.box is not None:
        rect = finding_rect(unit.box, recipe.crop_margin, image.size)
    else:
        assert unit.normal_of is not None and unit.normal_of.extra.get("crop")
        left, top, right, bottom = (int(v) for v in unit.normal_of.extra["crop"])
        rect = random_rect(right - left, bottom - top, image.size, ctx.seed, unit.key)
    unit.extra["crop"] = list(rect)
    crop = image.crop((rect[0], rect[1], rect[2], rect[3]))
    import numpy as np  # local: only crops need the array round trip

    return [ctx.store_bytes(encode_png(np.asarray(crop)), ".png")]


def _meta(recipe: Recipe, topic: TopicSpec, unit: Unit) -> dict[str, Any]:
    rec = unit.records[0]
    meta: dict[str, Any] = dict(rec.meta)
    if len(unit.records) > 1:
        meta["source_files"] = [r.meta.get("source_file", r.key) for r in unit.records]
        meta["n_images"] = len(unit.records)
    meta["label"] = unit.raw if topic.question_type == "multi" else unit.raw[0]
    meta["level"] = topic.level
    if unit.box is not None:
        b = unit.box
        meta["box"] = [round(b.x0, 2), round(b.y0, 2), round(b.x1, 2), round(b.y1, 2)]
        meta["label_rows"] = [b.row] if b.row else meta.get("label_rows", [])
    if "crop" in unit.extra:
        meta["crop"] = unit.extra["crop"]
    if unit.normal_of is not None:
        meta["normal_crop_for"] = unit.normal_of.key
    if topic.prompt_key:
        meta["prompt_key"] = topic.prompt_key
    if recipe.image_type:
        meta["image_type"] = recipe.image_type
    if recipe.image_description:
        meta["image_description"] = recipe.image_description
    return meta


def _choices(topic: TopicSpec, labels: set[str]) -> list[str]:
    if topic.question_type == "yesno":
        return ["Yes", "No"]
    if topic.options:
        return list(topic.options)
    return sorted(labels, key=natural_key)


def _topic_items(
    recipe: Recipe, topic: TopicSpec, records: Sequence[Record], ctx: BuildContext
) -> Iterator[Draft]:
    units, selected = _units(recipe, topic, records, ctx)
    # Pass 1 stores the images and keeps, per stored unit, its index and image paths (crops:
    # their rectangles too); answer positions and choices need the stored count and labels.
    stored: array[int] = array("q")
    stored_rels: list[str | tuple[str, ...]] = []  # one path, or an exam's paths
    crops: dict[int, list[int]] = {}
    seen_labels: set[str] = set()
    for u in selected:
        finding = units.normal_of[u]
        if finding >= 0 and finding not in crops:
            continue  # its finding was skipped
        unit = units.unit(u, records, crops)
        rels = _store_unit(unit, recipe, ctx)
        if rels is None:
            continue
        if "crop" in unit.extra:
            crops[u] = unit.extra["crop"]
        stored.append(u)
        stored_rels.append(rels[0] if len(rels) == 1 else tuple(rels))
        seen_labels.update(units.labels_of(u))
    choices = _choices(topic, seen_labels)
    n_opts = min(topic.max_options or len(choices), len(choices))
    positions = balanced_positions(len(stored), n_opts, ctx.seed, topic.name)
    seen_ids: set[str] = set()
    for u, paths, pos in zip(stored, stored_rels, positions, strict=True):
        item_images = [paths] if isinstance(paths, str) else list(paths)
        unit = units.unit(u, records, crops)
        rec = unit.records[0]
        bad = [label for label in unit.labels if label not in choices]
        if bad:
            ctx.problems.add(rec.where, f"unknown label {bad[0]!r} for topic {topic.name!r}")
            continue
        item_id = unique_id(f"{topic.name}/{unit.key}", seen_ids)
        answer: str | list[str]
        if topic.question_type == "multi":
            options, answer = multi_options(
                unit.labels, choices, topic.shuffle_options, ctx.seed, item_id
            )
        else:
            options, answer = single_options(
                unit.labels[0],
                choices,
                pos if topic.shuffle_options else None,
                ctx.seed,
                item_id,
                topic.max_options,
            )
        item = Item(
            id=item_id,
            images=item_images,
            question=choose_question(topic.questions, ctx.seed, item_id),
            options=options,
            answer=answer,
            question_type=topic.question_type,
            category=topic.name,
            case_id=rec.case_id or rec.key,
            source=rec.source,
            split=cast(Split, rec.split or "test"),
            meta=_meta(recipe, topic, unit),
        )
        yield Draft(item, fixed=rec.split is not None)
