"""VLMEvalKit TSV: import (recipe type ``vlmevalkit``) and export.

A VLMEvalKit benchmark is one TSV with columns ``index``, ``image`` (base64; several images as a
list literal; or the ``index`` of another row whose image is reused), ``question``, ``hint``,
one column per option letter ``A``, ``B``, …, ``answer``, ``category``, ``l2-category`` and
``split``. Exports add the columns ``id``, ``question_type``, ``case_id``, ``source`` and
``meta`` (JSON), which VLMEvalKit ignores and the importer reads back, so export → import gives
the same items. Image bytes are decoded and stored unchanged (never re-encoded).

Answers: a letter; multi-answer items as letters joined by commas (``A,C``; ``AC`` is read
too); region items as IDs joined by commas; open items as text.
"""

from __future__ import annotations

import ast
import base64
import binascii
import csv
import io
import json
import string
import sys
from collections.abc import Iterator
from typing import Any, cast

from medvqa._path_guard import read_utf8
from medvqa.builders import BuildContext, Draft, Recipe
from medvqa.errors import BadInputError
from medvqa.interop._import_common import image_suffix, split_name
from medvqa.schema import Item, QuestionType, Split

LETTERS = string.ascii_uppercase
BASE_COLUMNS = ("index", "image", "question", "hint")
TAIL_COLUMNS = (
    "answer",
    "category",
    "l2-category",
    "split",
    "id",
    "question_type",
    "case_id",
    "source",
    "meta",
)
_KNOWN = {*BASE_COLUMNS, *TAIL_COLUMNS}


def _allow_big_fields() -> None:
    # Base64 images exceed the csv module's 128 KiB default field limit.
    limit = sys.maxsize
    while True:
        try:
            csv.field_size_limit(max(csv.field_size_limit(), limit))
            return
        except OverflowError:  # C long is 32-bit on some platforms
            limit //= 2


def image_strings(cell: str) -> list[str]:
    """The base64 strings of an ``image`` cell: one string, or a list literal of several.

    >>> image_strings("['aGk=', 'aGk=']")
    ['aGk=', 'aGk=']
    """
    cell = cell.strip()
    if cell.startswith("[") and cell.endswith("]"):
        try:
            values = ast.literal_eval(cell)
        except (ValueError, SyntaxError):
            values = None
        if isinstance(values, list) and all(isinstance(v, str) for v in values):
            return values
    return [cell] if cell else []


def decode_image(text: str) -> tuple[bytes, str]:
    """Base64 text → (image bytes, suffix); raises ValueError when not a readable image."""
    try:
        data = base64.b64decode(text, validate=False)
    except (binascii.Error, ValueError) as exc:
        raise ValueError(f"image is not base64: {exc}") from None
    return data, image_suffix(data)


def _meta(cell: str) -> dict[str, Any]:
    """The ``meta`` column (medvqa's own exports write one): a JSON object, or nothing.

    Raises:
        ValueError: the cell is not JSON, too deeply nested to read, or not an object.
    """
    if not cell.strip():
        return {}
    try:
        value = json.loads(cell)
    except RecursionError:
        raise ValueError("meta: JSON nested too deeply to read") from None
    except ValueError as exc:
        raise ValueError(f"meta: not JSON ({exc})") from None
    if not isinstance(value, dict):
        kind = "an array" if isinstance(value, list) else f"a {type(value).__name__}"
        raise ValueError(f"meta: {kind}, not a JSON object")
    return value


def parse_answer(raw: str, qtype: str, options: dict[str, str]) -> str | list[str]:
    """The answer cell in the item's shape (see module docstring)."""
    raw = raw.strip()
    if qtype == "multi":
        parts = [p.strip() for p in raw.replace(";", ",").split(",") if p.strip()]
        if len(parts) == 1 and len(parts[0]) > 1 and all(c in options for c in parts[0]):
            parts = list(parts[0])
        return sorted(parts)
    if qtype == "region":
        return [p.strip() for p in raw.split(",") if p.strip()]
    return raw


def _qtype(row: dict[str, str], options: dict[str, str]) -> str:
    given = row.get("question_type", "").strip()
    if given:
        return given
    if not options:
        return "open"
    if sorted(t.strip().lower() for t in options.values()) == ["no", "yes"]:
        return "yesno"
    answer = row.get("answer", "").strip()
    if "," in answer or (len(answer) > 1 and all(c in options for c in answer)):
        return "multi"
    return "single"


def import_vlmevalkit(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]:
    """Items from the TSVs named by ``sources[0].labels`` (or ``sources[0].path``), in order.

    An export's ``X.tsv`` and ``X_open.tsv`` are imported together by naming both.
    """
    _allow_big_fields()
    spec = recipe.sources[0]
    default_split = split_name(recipe.import_options.get("split", "test"))
    for name in spec.labels or [spec.path]:
        reader = csv.DictReader(io.StringIO(read_utf8(ctx.root / name), newline=""),
                                delimiter="\t")
        rows = [(reader.line_num, {k: v or "" for k, v in row.items() if k}) for row in reader]
        if rows and not {"question", "answer"} <= set(rows[0][1]):
            found = ", ".join(sorted(rows[0][1])[:12])
            raise BadInputError(f"{name}: not a VLMEvalKit TSV: no question / answer column "
                                f"(found: {found})")
        by_index = {r.get("index", ""): r.get("image", "") for _, r in rows}
        for line, row in rows:
            where = f"{name}:{line}"
            try:
                yield _draft(row, where, by_index, spec.dataset, name, ctx, default_split)
            except ValueError as exc:
                ctx.problems.add(where, exc)


def _draft(
    row: dict[str, str],
    where: str,
    by_index: dict[str, str],
    dataset: str,
    name: str,
    ctx: BuildContext,
    default_split: str = "test",
) -> Draft:
    cell = row.get("image", "")
    # MMBench-style TSVs store an image once and point later rows at its index.
    if cell.strip().isdigit() and cell.strip() in by_index:
        cell = by_index[cell.strip()]
    rels = []
    for text in image_strings(cell):
        data, suffix = decode_image(text)
        rels.append(ctx.store_bytes(data, suffix))
    options = {c: row[c] for c in LETTERS if row.get(c, "").strip()}
    qtype = _qtype(row, options)
    meta = _meta(row.get("meta", ""))
    meta.setdefault("label_rows", [where])
    meta.setdefault("source_file", name)
    for col in ("hint", "l2-category"):
        if row.get(col, "").strip():
            meta.setdefault(col.replace("-", "_"), row[col])
    # Extra columns (GMAI-MMBench's department, task, granularity, modality …) go into meta.
    for col, value in row.items():
        if col not in _KNOWN and not (len(col) == 1 and col in LETTERS) and value.strip():
            meta.setdefault(col, value)
    published = row.get("split", "").strip()
    split = split_name(published, default_split) if published else default_split
    item = Item(
        id=row.get("id", "").strip() or f"{dataset}/{row.get('index', where)}",
        images=rels,
        question=row.get("question", ""),
        options=options,
        answer=parse_answer(row.get("answer", ""), qtype, options),
        question_type=cast(QuestionType, qtype),
        category=row.get("category", ""),
        case_id=row.get("case_id", "").strip() or row.get("index", "") or None,
        source=row.get("source", "").strip() or dataset,
        split=cast(Split, split),
        meta=meta,
    )
    # A TSV is a published evaluation set: its split is kept, never re-drawn.
    return Draft(item, fixed=True)
