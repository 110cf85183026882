"""Recipe type ``regions`` (LMOD anatomical recognition, seed 002, Algorithm 1).

Per image: keep the boxes covering at least ``region_min_area`` of the image (LMOD: 10 %, so
overlays do not hide the anatomy), map each box's type through the topic's ``label_map``, give
each kept box a unique ID and a distinct colour, draw them on a copy of the image, and ask which
labelled regions there are and of what type. The answer is the set of region IDs; each region's
type, box and colour are kept in ``meta.regions`` for type-level scoring.

IDs are distinct numbers drawn with the seed from 1–99 (or more for very crowded images) rather
than 1, 2, 3, so that answering "Region ID: 1" without looking is not right by construction and
hallucinated IDs are possible to detect (LMOD's hallucination resistance).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from typing import Any, cast

from PIL import Image

from medvqa.builders._classify import read_records
from medvqa.builders._context import BuildContext, Draft, unique_id
from medvqa.builders._draw import PALETTE, Region, draw_regions
from medvqa.builders._options import choose_question
from medvqa.builders._recipe import Recipe, TopicSpec
from medvqa.builders._units import map_labels
from medvqa.errors import BadInputError
from medvqa.rng import rng_for
from medvqa.schema import Item, Split
from medvqa.sources import Box, Problems, Record, encode_image_png, natural_key

log = logging.getLogger(__name__)


def region_topic(recipe: Recipe) -> TopicSpec:
    """The recipe's one topic: ``column`` is the box row's type column."""
    if len(recipe.topics) != 1:
        raise BadInputError(
            f"recipe {recipe.name}: type regions needs exactly one topic (the box type column)"
        )
    return recipe.topics[0]


def kept_boxes(
    record: Record,
    size: tuple[int, int],
    topic: TopicSpec,
    min_area: float,
    problems: Problems,
) -> list[tuple[Box, str]]:
    """Boxes of ``record`` covering ≥ ``min_area`` of the image, with their unified type.

    Boxes whose type is in ``topic.ignore`` or empty are dropped quietly; an unknown type is a
    problem naming the box's row, and that box is dropped.
    """
    limit = min_area * size[0] * size[1]
    out = []
    for box in record.boxes:
        if box.area < limit:
            continue
        raw = box.fields.get(topic.column, "")
        got = map_labels(topic, [raw] if raw else [], box.row or record.where, problems)
        if got is not None:
            out.append((box, got[0][0]))
    return out


def region_ids(n: int, seed: int, item_id: str) -> list[str]:
    """``n`` distinct IDs drawn with the seed from 1..max(99, 3n), in drawing order.

    >>> region_ids(3, 0, "x") == region_ids(3, 0, "x")
    True
    """
    high = max(99, 3 * n)
    picks = rng_for(seed, item_id, "region ids").choice(high, size=n, replace=False) + 1
    return [str(int(p)) for p in picks]


def build_regions(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]:
    """One region item per image with at least one kept box."""
    topic = region_topic(recipe)
    records = read_records(recipe, ctx)
    # Pass 1 reads headers only (sizes) to find the kept boxes and the region types; pass 2
    # decodes and draws one image at a time, so memory stays flat in the number of images.
    prepared: list[tuple[Record, list[tuple[Box, str]]]] = []
    for rec in records:
        if not rec.boxes:
            continue
        try:
            with Image.open(io.BytesIO(rec.image.read_bytes())) as im:
                size = im.size
        except Exception as exc:  # noqa: BLE001 - any decoder error means unreadable
            ctx.problems.add(rec.where, f"unreadable image {rec.image.path or rec.key}: {exc}")
            continue
        boxes = kept_boxes(rec, size, topic, recipe.region_min_area, ctx.problems)
        if not boxes:
            log.debug(
                "%s: no box over %.0f%% of the image", rec.where, 100 * recipe.region_min_area
            )
            continue
        prepared.append((rec, boxes))
    # The offered types: the topic's options, else every unified type of the label map, else
    # the types seen (so the prompt lists the whole space, not only what this data holds).
    types = list(topic.options) or sorted(
        set(topic.label_map.values()) or {t for _, boxes in prepared for _, t in boxes},
        key=natural_key,
    )
    seen: set[str] = set()
    for rec, boxes in prepared:
        try:
            image = ctx.open_image(rec.image)
        except Exception as exc:  # noqa: BLE001 - truncated data fails only when decoded
            ctx.problems.add(rec.where, f"unreadable image {rec.image.path or rec.key}: {exc}")
            continue
        item_id = unique_id(f"{topic.name}/{rec.key}", seen)
        ids = region_ids(len(boxes), ctx.seed, item_id)
        regions = [
            Region(rid, PALETTE[j % len(PALETTE)], b.x0, b.y0, b.x1, b.y1)
            for j, (rid, (b, _)) in enumerate(zip(ids, boxes, strict=True))
        ]
        rel = ctx.store_bytes(encode_image_png(draw_regions(image, regions)), ".png")
        image.close()
        yield Draft(
            Item(
                id=item_id,
                images=[rel],
                question=choose_question(topic.questions, ctx.seed, item_id),
                options={},
                answer=sorted(ids, key=int),
                question_type="region",
                category=topic.name,
                case_id=rec.case_id or rec.key,
                source=rec.source,
                split=cast(Split, rec.split or "test"),
                meta=_meta(recipe, rec, regions, boxes, types),
            ),
            fixed=rec.split is not None,
        )


def _meta(
    recipe: Recipe,
    rec: Record,
    regions: list[Region],
    boxes: list[tuple[Box, str]],
    types: list[str],
) -> dict[str, Any]:
    meta: dict[str, Any] = dict(rec.meta)
    meta["regions"] = [
        {
            "id": r.id,
            "type": t,
            "box": [round(b.x0, 2), round(b.y0, 2), round(b.x1, 2), round(b.y1, 2)],
            "colour": r.colour,
            "label_row": b.row,
        }
        for r, (b, t) in zip(regions, boxes, strict=True)
    ]
    meta["region_types"] = ", ".join(types)
    meta["region_min_area"] = recipe.region_min_area
    meta["image_type"] = recipe.image_type or str(rec.meta.get("modality", "") or "medical image")
    meta["image_description"] = recipe.image_description
    return meta
