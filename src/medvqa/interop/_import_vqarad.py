"""Recipe type ``vqa_rad``: import the VQA-RAD JSON as published.

CLOSED yes/no answers become ``yesno`` items (options Yes / No, order drawn with the seed so
answer letters balance); every other answer becomes an ``open`` item with the answer text. The
question text is kept as is; case_id is the image; phrase_type ``test_*`` → split test, else train.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from medvqa.builders import BuildContext, Draft, Recipe, unique_id
from medvqa.interop._import_common import (
    NotText,
    field_text,
    is_yes_no,
    read_json_rows,
    require_fields,
    yesno_or_open,
    yesno_positions,
)

#: The fields read as text: the image name, the question and the answer.
TEXT_FIELDS = ("image_name", "question", "answer")
_META_KEYS = (
    "qid",
    "phrase_type",
    "qid_linked_id",
    "image_case_url",
    "image_organ",
    "question_type",
    "answer_type",
    "evaluation",
)


def import_vqa_rad(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]:
    """Items from ``sources[0].labels[0]`` (the JSON), images from ``sources[0].path``."""
    spec = recipe.sources[0]
    if not spec.labels:
        raise ValueError("vqa_rad: sources[0].labels must name the VQA-RAD JSON")
    table = spec.labels[0]
    rows = read_json_rows(ctx.root / table, table, "VQA-RAD")
    require_fields(rows, (*TEXT_FIELDS, "answer_type"), table, "VQA-RAD")
    base = ctx.root / spec.path
    positions = yesno_positions(
        [str(r.get("answer_type", "")).upper() == "CLOSED" and is_yes_no(str(r.get("answer", "")))
         for r in rows],
        ctx.seed, "vqa_rad yes/no",
    )
    seen: set[str] = set()
    for i, row in enumerate(rows):
        where = f"{table}:{i + 1}"
        try:
            name, question, answer = (field_text(row, k) for k in TEXT_FIELDS)
        except NotText as exc:
            ctx.problems.add(where, exc)
            continue
        if not name or not question or not answer:
            ctx.problems.add(where, "row without image_name, question or answer")
            continue
        rel = ctx.store_row_image(base, name, f"{spec.path}/{name}", where)
        if rel is None:
            continue
        item_id = unique_id(f"vqa_rad/{row.get('qid', i + 1)}", seen)
        meta = {k: row[k] for k in _META_KEYS if k in row}
        meta.update({"source_file": f"{spec.path}/{name}", "label_rows": [where]})
        if spec.modality:
            meta["modality"] = spec.modality
        split = "test" if str(row.get("phrase_type", "")).startswith("test") else "train"
        common: dict[str, Any] = dict(
            id=item_id,
            images=[rel],
            question=question,
            category=str(row.get("question_type", "")),
            case_id=name,
            source=spec.dataset,
            split=split,
            meta=meta,
        )
        yield Draft(yesno_or_open(common, answer, positions.get(i)), fixed=True)
