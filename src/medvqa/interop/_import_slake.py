"""Recipe type ``slake``: import SLAKE (``train.json``, ``validate.json``, ``test.json``).

Each JSON row has ``img_id``, ``img_name`` (relative to the ``imgs/`` folder), ``question``,
``answer``, ``q_lang`` (``en`` / ``zh``), ``answer_type`` (``OPEN`` / ``CLOSED``),
``content_type``, ``location``, ``modality``, ``base_type``, ``qid`` and ``triple``. English
questions only by default (``import_options.lang``: ``en``, ``zh`` or ``all``). CLOSED yes/no
answers become ``yesno`` items, every other answer an ``open`` item; category is the content
type; the split is the file's (``validate`` → ``val``); case_id is the image.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from medvqa.builders import BuildContext, Draft, Recipe, unique_id
from medvqa.errors import UsageError
from medvqa.interop._import_common import (
    NotText,
    field_text,
    is_yes_no,
    read_json_rows,
    require_fields,
    split_name,
    yesno_or_open,
    yesno_positions,
)

#: The fields read as text: the image name, the question and the answer.
TEXT_FIELDS = ("img_name", "question", "answer")
FIELDS = (*TEXT_FIELDS, "q_lang", "answer_type")
_META_KEYS = ("qid", "img_id", "q_lang", "answer_type", "content_type", "location", "modality",
              "base_type", "triple")


def import_slake(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]:
    """Items from the JSON files ``sources[0].labels``, images under ``sources[0].path``."""
    spec = recipe.sources[0]
    lang = recipe.import_options.get("lang", "en")
    if lang not in {"en", "zh", "all"}:
        raise UsageError(f"slake: lang {lang!r}: use en, zh or all")
    if not spec.labels:
        raise UsageError("slake: sources[0].labels must name the SLAKE JSON files")
    seen: set[str] = set()
    for table in spec.labels:
        rows = read_json_rows(ctx.root / table, table, "SLAKE")
        require_fields(rows, FIELDS, table, "SLAKE")
        split = split_name(Path(table).stem)
        kept = [(i, r) for i, r in enumerate(rows) if lang == "all" or r.get("q_lang") == lang]
        flags = [str(r.get("answer_type", "")).upper() == "CLOSED"
                 and is_yes_no(str(r.get("answer", ""))) for _, r in kept]
        positions = yesno_positions(flags, ctx.seed, f"slake yes/no {table}")
        for k, (i, row) in enumerate(kept):
            where = f"{table}:{i + 1}"
            try:
                name, question, answer = (field_text(row, k) for k in TEXT_FIELDS)
            except NotText as exc:
                ctx.problems.add(where, exc)
                continue
            if not name or not question or not answer:
                ctx.problems.add(where, "row without img_name, question or answer")
                continue
            rel = ctx.store_row_image(ctx.root / spec.path, name, f"{spec.path}/{name}", where)
            if rel is None:
                continue
            meta = {key: row[key] for key in _META_KEYS if key in row}
            meta.update({"source_file": f"{spec.path}/{name}", "label_rows": [where]})
            common = dict(
                id=unique_id(f"slake/{split}/{row.get('qid', i + 1)}", seen),
                images=[rel],
                question=question,
                category=str(row.get("content_type", "")),
                case_id=str(row.get("img_id", "")) or name,
                source=spec.dataset,
                split=split,
                meta=meta,
            )
            yield Draft(yesno_or_open(common, answer, positions.get(k)), fixed=True)
