"""Recipe type ``omnimedvqa``: import OmniMedVQA's JSON files (``QA information/*/*.json``).

Each row has ``dataset``, ``question_id``, ``question_type`` (Modality Recognition, Anatomy
Identification, Disease Diagnosis, Lesion Grading, Other Biological Attributes), ``question``,
``gt_answer`` (the right option's text), ``image_path`` (relative to the OmniMedVQA folder),
``option_A`` … ``option_D`` and ``modality_type``. OmniMedVQA is an evaluation benchmark with no
published split, so every item is ``test``; category is the question type.
"""

from __future__ import annotations

from collections.abc import Iterator

from medvqa.builders import BuildContext, Draft, Recipe, unique_id
from medvqa.errors import UsageError
from medvqa.interop._import_common import NotText, field_text, read_json_rows, require_fields
from medvqa.schema import Item

FIELDS = ("question", "gt_answer", "image_path", "option_A")
_META_KEYS = ("question_id", "dataset", "question_type", "modality_type")


def import_omnimedvqa(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]:
    """Items from the JSON files ``sources[0].labels``, images under ``sources[0].path``."""
    spec = recipe.sources[0]
    if not spec.labels:
        raise UsageError("omnimedvqa: sources[0].labels must name OmniMedVQA JSON files")
    seen: set[str] = set()
    for table in spec.labels:
        rows = read_json_rows(ctx.root / table, table, "OmniMedVQA")
        require_fields(rows, FIELDS, table, "OmniMedVQA")
        for i, row in enumerate(rows):
            where = f"{table}:{i + 1}"
            try:
                texts = {L: field_text(row, f"option_{L}") for L in "ABCDEFGH"}
                said, question = field_text(row, "gt_answer"), field_text(row, "question")
            except NotText as exc:
                ctx.problems.add(where, exc)
                continue
            options = {L: t for L, t in texts.items() if t}
            letters = [k for k, v in options.items() if v == said]
            if len(letters) != 1:
                ctx.problems.add(where, f"gt_answer {said!r} matches {len(letters)} options")
                continue
            name = str(row.get("image_path", "")).strip()
            rel = ctx.store_row_image(ctx.root / spec.path, name, f"{spec.path}/{name}", where)
            if rel is None:
                continue
            meta = {k: row[k] for k in _META_KEYS if k in row}
            if "modality_type" in row:
                meta["modality"] = row["modality_type"]
            meta.update({"source_file": f"{spec.path}/{name}", "label_rows": [where]})
            item = Item(
                id=unique_id(f"omnimedvqa/{row.get('question_id', i + 1)}", seen),
                images=[rel],
                question=question,
                options=options,
                answer=letters[0],
                question_type="single",
                category=str(row.get("question_type", "")),
                case_id=name,
                source=spec.dataset,
                split="test",
                meta=meta,
            )
            yield Draft(item, fixed=True)
