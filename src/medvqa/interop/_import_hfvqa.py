"""Recipe types ``vqa_rad_hf`` and ``pathvqa``: the Hugging Face copies of VQA-RAD and PathVQA.

Both are published as Parquet files ``data/<split>-NNNNN-of-NNNNN.parquet`` with columns
``image`` (a ``datasets.Image``: ``{bytes, path}``), ``question`` and ``answer``. The split is the
file's; yes/no answers become ``yesno`` items, every other answer an ``open`` item (these copies
carry no answer type); image bytes are stored unchanged and case_id is the image's SHA-256, so
questions about one image are one case.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from medvqa.builders import BuildContext, Draft, Recipe, unique_id
from medvqa.interop._import_common import (
    image_cell_bytes,
    image_suffix,
    is_yes_no,
    parquet_files,
    parquet_rows,
    require_fields,
    split_name,
    yesno_or_open,
    yesno_positions,
)

FIELDS = ("image", "question", "answer")


def _import(recipe: Recipe, ctx: BuildContext, prefix: str, fmt: str) -> Iterator[Draft]:
    spec = recipe.sources[0]
    seen: set[str] = set()
    for path in parquet_files(ctx.root / spec.path):
        shown = path.relative_to(ctx.root).as_posix() if path.is_relative_to(ctx.root) else str(
            path)
        rows = parquet_rows(path)
        require_fields(rows, FIELDS, shown, fmt)
        split = split_name(path.stem)
        positions = yesno_positions([is_yes_no(str(r.get("answer") or "")) for r in rows],
                                    ctx.seed, f"{prefix} yes/no {path.name}")
        for i, row in enumerate(rows):
            where = f"{shown}:{i + 1}"
            question = str(row.get("question") or "").strip()
            answer = str(row.get("answer") or "").strip()
            cell = image_cell_bytes(row.get("image"))
            if not question or not answer or cell is None:
                ctx.problems.add(where, "row without image, question or answer")
                continue
            data, name = cell
            try:
                rel = ctx.store_bytes(data, image_suffix(data))
            except ValueError as exc:
                ctx.problems.add(where, exc)
                continue
            meta = {"source_file": shown, "label_rows": [where], "row": i}
            if name:
                meta["image_name"] = name
            if spec.modality:
                meta["modality"] = spec.modality
            common = dict(
                id=unique_id(f"{prefix}/{split}/{i + 1}", seen),
                images=[rel],
                question=question,
                category="closed" if i in positions else "open",
                case_id=Path(rel).stem,
                source=spec.dataset,
                split=split,
                meta=meta,
            )
            yield Draft(yesno_or_open(common, answer, positions.get(i)), fixed=True)


def import_vqa_rad_hf(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]:
    """Items from the Hugging Face copy of VQA-RAD (Parquet folder or file at sources[0].path)."""
    return _import(recipe, ctx, "vqa_rad", "VQA-RAD (Hugging Face)")


def import_pathvqa(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]:
    """Items from PathVQA's Hugging Face Parquet files (folder or file at sources[0].path)."""
    return _import(recipe, ctx, "pathvqa", "PathVQA (Hugging Face)")
