"""Recipe type ``table``: any CSV / TSV / JSON / JSON-lines / Parquet file, with a column mapping.

``import_options`` maps medvqa fields to source columns: ``question`` and ``answer`` (required),
``image`` (a file name under ``sources[0].path``, or a ``datasets.Image`` cell ``{bytes, path}``),
``options`` (comma-separated option columns, in letter order A, B, …), ``id``, ``split``,
``category``, ``case_id``. Every other column goes into ``meta`` (text, numbers, booleans).
The split is the ``split`` column's, else the file's name (``validation-0000.parquet`` → val).
An answer naming an option letter, or equal to exactly one option's text, makes a ``single``
item; with no options a yes/no answer makes a ``yesno`` item and any other an ``open`` one.
Cells are read as text exactly as written (``NA`` stays ``NA``).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from medvqa._path_guard import read_utf8
from medvqa.builders import LETTERS, BuildContext, Draft, Recipe, unique_id
from medvqa.errors import BadInputError, UsageError
from medvqa.interop._import_common import (
    field_text,
    image_cell_bytes,
    image_suffix,
    is_yes_no,
    parquet_rows,
    require_fields,
    split_name,
    yesno_or_open,
    yesno_positions,
)
from medvqa.schema import NESTED_TOO_DEEPLY, Item

MAPPED = ("id", "question", "answer", "image", "options", "split", "category", "case_id")


def read_rows(path: Path, shown: str) -> list[dict[str, Any]]:
    """Rows of a CSV, TSV, JSON (list), JSON-lines or Parquet file, by suffix."""
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        return parquet_rows(path)
    if suffix in {".csv", ".tsv"}:
        # read_utf8: a regular file (never a FIFO), bytes that are not UTF-8 one line.
        text = io.StringIO(read_utf8(path), newline="")
        try:
            return list(csv.DictReader(text, delimiter="\t" if suffix == ".tsv" else ","))
        except csv.Error as exc:
            raise BadInputError(f"{shown}: not a readable {suffix[1:].upper()} table: "
                                f"{exc}") from None
    try:
        if suffix == ".jsonl":
            lines = read_utf8(path).splitlines()
            return [json.loads(x) for x in lines if x.strip()]
        if suffix == ".json":
            data = json.loads(read_utf8(path))
            return data if isinstance(data, list) else [data]
    except ValueError as exc:
        raise BadInputError(f"{shown}: not valid JSON: {exc}") from None
    except RecursionError:
        raise BadInputError(f"{shown}: not valid JSON: {NESTED_TOO_DEEPLY}") from None
    raise BadInputError(f"{shown}: unknown table format {suffix!r} "
                        "(csv, tsv, json, jsonl, parquet)")


def _meta_value(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (bytes, bytearray)):
        return None
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value


def _image(cell: Any, ctx: BuildContext, folder: str, where: str) -> str | None:
    got = image_cell_bytes(cell)
    if got is not None:
        try:
            return ctx.store_bytes(got[0], image_suffix(got[0]))
        except ValueError as exc:
            ctx.problems.add(where, exc)
            return None
    name = str(cell or "").strip()
    return ctx.store_row_image(ctx.root / folder, name, f"{folder}/{name}", where)


def import_table(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]:
    """Items from the tables ``sources[0].labels`` with the mapping ``import_options``."""
    spec = recipe.sources[0]
    cols = {k: v for k, v in recipe.import_options.items() if k in MAPPED and v}
    unknown = sorted(set(recipe.import_options) - set(MAPPED))
    if unknown:
        raise UsageError(f"table: unknown mapping {', '.join(unknown)} (use {MAPPED})")
    if "question" not in cols or "answer" not in cols:
        raise UsageError("table: map question=COLUMN and answer=COLUMN at least")
    option_cols = [c.strip() for c in cols.get("options", "").split(",") if c.strip()]
    needed = [cols["question"], cols["answer"], *option_cols]
    needed += [cols[k] for k in ("image", "id", "split", "category", "case_id") if k in cols]
    used = set(needed)
    seen: set[str] = set()
    for table in spec.labels:
        rows = read_rows(ctx.root / table, table)
        require_fields(rows, needed, table, "table (with this column mapping)")
        flags = [not any(str(r.get(c) or "").strip() for c in option_cols)
                 and is_yes_no(str(r.get(cols["answer"]) or "")) for r in rows]
        positions = yesno_positions(flags, ctx.seed, f"table yes/no {table}")
        # A CSV/TSV row is named by its line (the header is line 1), any other by its number.
        first = 2 if Path(table).suffix.lower() in {".csv", ".tsv"} else 1
        for i, row in enumerate(rows):
            where = f"{table}:{i + first}"
            try:
                draft = _draft(row, i, where, cols, option_cols, used, positions, table,
                               spec.path, spec.dataset, ctx, seen)
            except ValueError as exc:
                ctx.problems.add(where, exc)
                continue
            if draft is not None:
                yield draft


def _draft(row: dict[str, Any], i: int, where: str, cols: dict[str, str], option_cols: list[str],
           used: set[str], positions: dict[int, int], table: str, folder: str, dataset: str,
           ctx: BuildContext, seen: set[str]) -> Draft | None:
    """The row's draft; None when its image was refused (that problem is already counted)."""
    question, answer = field_text(row, cols["question"]), field_text(row, cols["answer"])
    if not question or not answer:
        raise ValueError("row without question or answer")
    images = []
    if "image" in cols:
        rel = _image(row.get(cols["image"]), ctx, folder, where)
        if rel is None:
            return None
        images.append(rel)
    texts = [field_text(row, c) for c in option_cols]
    options = {LETTERS[k]: t for k, t in enumerate(texts) if t}
    split = split_name(str(row.get(cols["split"]) or "") if "split" in cols
                       else Path(table).stem)
    base = str(row.get(cols["id"]) or "") if "id" in cols else ""
    meta = {k: _meta_value(v) for k, v in row.items() if k not in used}
    meta = {k: v for k, v in meta.items() if v is not None}
    meta.update({"label_rows": [where], "source_file": table})
    common: dict[str, Any] = dict(
        id=unique_id(f"{dataset}/{base or f'{split}/{i + 1}'}", seen),
        images=images,
        question=question,
        category=str(row.get(cols["category"]) or "") if "category" in cols else "",
        case_id=(str(row.get(cols["case_id"]) or "") if "case_id" in cols else "") or None,
        source=dataset,
        split=split,
        meta=meta,
    )
    if not options:
        return Draft(yesno_or_open(common, answer, positions.get(i)), fixed=True)
    letter = answer.upper() if answer.upper() in options else None
    if letter is None:
        hits = [k for k, t in options.items() if t == answer]
        if len(hits) != 1:
            raise ValueError(f"answer {answer!r} is neither an option letter nor one option's text")
        letter = hits[0]
    yes_no = sorted(t.lower() for t in options.values()) == ["no", "yes"]
    return Draft(Item(options=options, answer=letter,
                      question_type="yesno" if yes_no else "single", **common), fixed=True)
