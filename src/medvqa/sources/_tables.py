"""Label tables: CSV / TSV / whitespace-separated text / JSON, read into row dicts.

Column names and values are stripped of surrounding spaces (IDRiD's header has a trailing space
in "Risk of macular edema "); empty column names (trailing commas) are dropped.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from medvqa._path_guard import read_utf8


@dataclass(frozen=True)
class Row:
    """One table row: its ``file:line`` and column → value (all text)."""

    where: str
    values: dict[str, str]


def _clean(row: dict[str, object]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in row.items():
        name = str(key).strip() if key is not None else ""
        if not name:
            continue
        out[name] = "" if value is None else str(value).strip()
    return out


def read_table(path: Path, delimiter: str = ",", name: str | None = None) -> Iterator[Row]:
    r"""Rows of a label table, in file order.

    Args:
        path: ``.json`` (a list of objects, or an object of lists of objects), or text.
        delimiter: ``","``, ``"\t"`` or ``"whitespace"`` (runs of spaces; short rows padded).
        name: how rows name the file in ``Row.where`` (default: the path as given).

    Raises:
        OSError: when the file cannot be read.
        ValueError: for malformed JSON.

    """
    name = name or str(path)
    if path.suffix.lower() == ".json":
        data = json.loads(read_utf8(path))
        rows = data if isinstance(data, list) else [r for v in data.values() for r in v]
        for i, row in enumerate(rows, start=1):
            yield Row(f"{name}:{i}", _clean(row))
        return
    with path.open("r", encoding="utf-8-sig", newline="") as fh:
        if delimiter == "whitespace":
            header: list[str] | None = None
            for lineno, line in enumerate(fh, start=1):
                parts = line.split()
                if not parts:
                    continue
                if header is None:
                    header = parts
                    continue
                padded = parts + [""] * (len(header) - len(parts))
                yield Row(f"{name}:{lineno}", _clean(dict(zip(header, padded, strict=False))))
            return
        reader = csv.DictReader(fh, delimiter=delimiter)
        for row in reader:
            yield Row(f"{name}:{reader.line_num}", _clean(row))
