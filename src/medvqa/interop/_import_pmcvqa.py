"""Recipe type ``pmc_vqa``: import PMC-VQA's CSV files (``train_2.csv``, ``test_2.csv``, …).

Columns: ``Figure_path`` (image file under the images folder), ``Question``, ``Answer``,
``Choice A`` … ``Choice D`` (published with their letter, ``A:the liver``; the prefix is
stripped), ``Answer_label`` (the letter) and optionally ``split`` and ``Caption``. The answer is
``Answer_label``, or the option whose text equals ``Answer`` when there is no label. The split is
the row's ``split`` or the file's name (``test_2.csv`` → test).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import cast

from medvqa._path_guard import read_utf8
from medvqa.builders import BuildContext, Draft, Recipe, unique_id
from medvqa.errors import UsageError
from medvqa.interop._import_common import require_fields, split_name
from medvqa.schema import Item, Split

FIELDS = ("Figure_path", "Question", "Choice A", "Choice B")
_PREFIX = re.compile(r"^\s*\(?([A-Z])\s*[:.)]\s*")


def strip_letter(text: str, letter: str) -> str:
    """An option text without its published ``A:`` prefix (only the option's own letter).

    >>> strip_letter("A:the liver ", "A"), strip_letter(" B: 3 mm", "B"), strip_letter("C:x", "A")
    ('the liver', '3 mm', 'C:x')
    """
    match = _PREFIX.match(text)
    if match and match.group(1) == letter:
        return text[match.end():].strip()
    return text.strip()


def _answer(row: dict[str, str], options: dict[str, str]) -> str:
    label = (row.get("Answer_label") or "").strip().upper()
    if label in options:
        return label
    said = (row.get("Answer") or "").strip()
    for letter, text in options.items():
        if said in {text, f"{letter}:{text}"} or strip_letter(said, letter) == text:
            return letter
    raise ValueError(f"Answer {said!r} / Answer_label {label!r} matches no option")


def import_pmc_vqa(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]:
    """Items from the CSV files ``sources[0].labels``, images under ``sources[0].path``."""
    spec = recipe.sources[0]
    if not spec.labels:
        raise UsageError("pmc_vqa: sources[0].labels must name the PMC-VQA CSV files")
    seen: set[str] = set()
    for table in spec.labels:
        rows = list(csv.DictReader(io.StringIO(read_utf8(ctx.root / table), newline="")))
        require_fields(rows, FIELDS, table, "PMC-VQA")
        for i, row in enumerate(rows):
            where = f"{table}:{i + 2}"
            name = (row.get("Figure_path") or "").strip()
            options = {}
            for letter in "ABCDEFGH":
                cell = row.get(f"Choice {letter}")
                if cell is not None and cell.strip():
                    options[letter] = strip_letter(cell, letter)
            try:
                answer = _answer(row, options)
            except ValueError as exc:
                ctx.problems.add(where, exc)
                continue
            rel = ctx.store_row_image(ctx.root / spec.path, name, f"{spec.path}/{name}", where)
            if rel is None:
                continue
            split = split_name(row.get("split") or Path(table).stem)
            meta = {"source_file": f"{spec.path}/{name}", "label_rows": [where],
                    "figure_path": name}
            if (row.get("Caption") or "").strip():
                meta["caption"] = row["Caption"]
            item = Item(
                id=unique_id(f"pmc_vqa/{split}/{Path(name).stem}/{i + 1}", seen),
                images=[rel],
                question=(row.get("Question") or "").strip(),
                options=options,
                answer=answer,
                question_type="single",
                category="",
                case_id=name,
                source=spec.dataset,
                split=cast(Split, split),
                meta=meta,
            )
            yield Draft(item, fixed=True)
