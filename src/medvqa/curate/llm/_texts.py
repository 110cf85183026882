"""Read the free-text inputs of the LLM builders: captions and reports, from CSV or JSONL.

A captions file has columns (CSV) or keys (JSONL) ``id``, ``caption`` and optionally ``image``
(a path relative to the file) and ``case_id``. A reports file has ``id`` and ``text`` (or
``findings`` and ``impression``, joined), optionally ``case_id``, ``volume`` and ``mask`` (NIfTI
paths relative to the file, for the representative slice). A folder of ``.txt`` files is read as
reports named by file stem. A bad row is reported once (file, row, field), skipped and counted.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medvqa._path_guard import file_inside, read_utf8
from medvqa._resources import shipped_path
from medvqa.errors import BadInputError
from medvqa.schema import iter_json_lines, load_prompt_file
from medvqa.sources import Problems


@dataclass(frozen=True)
class TextRecord:
    """One caption or report.

    Attributes:
        id: unique id within the file.
        text: the caption or the report text.
        where: ``file:row`` for messages and provenance.
        case_id: patient or study id ("" = the id).
        image: image path relative to the input file ("" = none).
        volume: NIfTI volume path relative to the input file ("" = none).
        mask: NIfTI mask path for slice choice ("" = none).
    """

    id: str
    text: str
    where: str
    case_id: str = ""
    image: str = ""
    volume: str = ""
    mask: str = ""


def _rows(path: Path) -> Iterator[tuple[int, dict[str, Any] | None, str]]:
    """(row number, row or None, error) for each row of a CSV or JSONL file."""
    if path.suffix.lower() == ".csv":
        # read_utf8: a regular file, and bytes that are not UTF-8 one line naming it
        reader = csv.DictReader(io.StringIO(read_utf8(path), newline=""))
        for n, row in enumerate(reader, start=2):
            yield n, dict(row), ""
        return
    for n, obj, error in iter_json_lines(path):
        if error:
            yield n, None, error
        else:
            yield (
                n,
                (obj if isinstance(obj, dict) else None),
                "" if isinstance(obj, dict) else "(json): not an object",
            )


def _report_folder(folder: Path, problems: Problems) -> list[TextRecord]:
    """The reports of a folder of ``.txt`` files, by file name (empty files left out).

    The folder is data: a file that is a link out of it, a FIFO (which would hang the read)
    or not UTF-8 is reported and skipped, never read (:mod:`medvqa._path_guard`).
    """
    out = []
    for p in sorted(folder.glob("*.txt")):
        try:
            real = file_inside(folder, p.name, what="report",
                               root_name=f"the reports folder {folder}")
            text = read_utf8(real).strip() if real is not None else ""
        except BadInputError as exc:
            problems.add(str(p), exc)
            continue
        if text:
            out.append(TextRecord(p.stem, text, str(p)))
    return out


def read_texts(path: str | Path, kind: str, problems: Problems) -> list[TextRecord]:
    """Captions (``kind="caption"``) or reports (``kind="report"``) from ``path``.

    Raises:
        BadInputError: the file or folder does not exist.
    """
    path = Path(path)
    if path.is_dir() and kind == "report":
        return _report_folder(path, problems)
    if not path.is_file():
        raise BadInputError(f"{path}: no such {kind}s file (CSV or JSONL)")
    out: list[TextRecord] = []
    seen: set[str] = set()
    for n, row, err in _rows(path):
        where = f"{path}:{n}"
        if row is None:
            problems.add(where, err)
            continue
        rid = str(row.get("id") or "").strip()
        if kind == "caption":
            text = str(row.get("caption") or "").strip()
        else:
            parts = [str(row.get(k) or "").strip() for k in ("findings", "impression")]
            text = str(row.get("text") or "").strip() or "\n".join(
                f"{k.upper()}: {v}"
                for k, v in zip(("findings", "impression"), parts, strict=True)
                if v
            )
        if not rid:
            problems.add(where, "id: missing")
            continue
        if rid in seen:
            problems.add(where, f"id: {rid!r} repeats an earlier row")
            continue
        if not text:
            problems.add(where, f"{'caption' if kind == 'caption' else 'text'}: empty")
            continue
        seen.add(rid)
        out.append(
            TextRecord(
                rid,
                text,
                where,
                str(row.get("case_id") or "").strip(),
                str(row.get("image") or "").strip(),
                str(row.get("volume") or "").strip(),
                str(row.get("mask") or "").strip(),
            )
        )
    return out


def load_prompts() -> dict[str, Any]:
    """The builders' prompt templates (``prompts/llm_builders.yaml``)."""
    return load_prompt_file(None, shipped="llm_builders.yaml", what="builders' prompts").fields


def resource_path(*parts: str) -> Path:
    """Path of a file shipped under ``medvqa/resources``."""
    return shipped_path("resources", *parts)
