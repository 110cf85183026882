"""Recipe type ``pathmmu``: import a PathMMU JSON mapping (split → list of questions).

Questions and option texts are kept unmodified; ``"A) text"`` options become ``{"A": "text"}``
and the answer its letter. When the image file is not present (SocialPath ships none), the item
has ``images: []`` and ``meta.image_missing`` says which file it needs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import cast

from medvqa._path_guard import UnsafePathError, inside, read_utf8
from medvqa.builders import BuildContext, Draft, Recipe
from medvqa.schema import Item, Split
from medvqa.sources import ImageRef

_OPTION = re.compile(r"^\s*\(?([A-Z])(?:[\)\.:]\s?(.*))?$", re.S)
_SPLITS = {
    "val": "val",
    "validation": "val",
    "test": "test",
    "test_tiny": "test_tiny",
    "train": "train",
}


def parse_option(text: str) -> tuple[str, str] | None:
    """``"A) Simple columnar"`` → ``("A", "Simple columnar")``; None when not lettered.

    >>> parse_option("B) Stratified squamous")
    ('B', 'Stratified squamous')
    """
    m = _OPTION.match(text)
    return (m.group(1), m.group(2) or "") if m else None


def import_pathmmu(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]:
    """Items from ``sources[0].labels[0]``; images looked up in ``sources[0].path``."""
    spec = recipe.sources[0]
    table = spec.labels[0]
    data = json.loads(read_utf8(ctx.root / table))
    base = ctx.root / spec.path
    for split_key, rows in data.items():
        split = _SPLITS.get(split_key)
        if split is None:
            ctx.problems.add(table, f"unknown split {split_key!r}; skipped")
            continue
        for i, row in enumerate(rows):
            where = f"{table}:{split_key}[{i}]"
            options: dict[str, str] = {}
            for opt in row.get("options", []):
                parsed = parse_option(str(opt))
                if parsed is None:
                    break
                options[parsed[0]] = parsed[1]
            answer = parse_option(str(row.get("answer", "")))
            if len(options) != len(row.get("options", [])) or not options:
                ctx.problems.add(where, f"options not in 'A) text' form: {row.get('options')}")
                continue
            if answer is None or answer[0] not in options:
                ctx.problems.add(where, f"answer {row.get('answer')!r} is not among the options")
                continue
            meta = {
                k: row[k]
                for k in ("No", "explanation", "tw_id", "img_position", "ref_web", "img")
                if k in row
            }
            meta["label_rows"] = [where]
            images: list[str] = []
            name = str(row.get("img", ""))
            try:  # a name from the data stays inside the image folder (links followed)
                path = inside(base, name, what="image", root_name=f"the image folder {base}") \
                    if name else base
            except UnsafePathError as exc:
                ctx.problems.add(where, exc)
                continue
            if name and path.is_file():
                rel = ctx.store_image(ImageRef(path=path), where)
                if rel is None:
                    continue
                images = [rel]
                meta["source_file"] = f"{spec.path}/{name}"
            else:
                meta["image_missing"] = (
                    f"{name}: not shipped (SocialPath images come from social-media posts; "
                    "fetch them as PathMMU's instructions say)"
                )
            yield Draft(
                Item(
                    id=f"pathmmu/{spec.dataset}/{split_key}/{row.get('No', i)}",
                    images=images,
                    question=str(row["question"]),
                    options=options,
                    answer=answer[0],
                    question_type="single",
                    category=spec.dataset,
                    case_id=str(row.get("tw_id") or name or i),
                    source=spec.dataset,
                    split=cast(Split, split),
                    meta=meta,
                ),
                fixed=True,
            )
