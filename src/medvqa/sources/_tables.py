"""Label tables: CSV / TSV / whitespace-separated text / JSON, read into row dicts.

Column names and values are stripped of surrounding spaces (IDRiD's header has a trailing space
in "Risk of macular edema "); empty column names (trailing commas) are dropped.

A recipe may come with a download, and a few lines of it can name a table of any size, which
is read whole into rows: a table above :data:`MAX_LABEL_TABLE_BYTES` is refused unread (``medvqa
build`` refuses it before anything is built, naming the recipe's field; see
``medvqa.builders.refuse_outside_sources``).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from medvqa._path_guard import read_regular, read_utf8

#: Largest label table a recipe may name (bytes, 256 MiB). The label tables of the public
#: datasets medvqa's recipes read are at most tens of megabytes; a table becomes rows in memory
#: (several times its size), so a far larger one would exhaust memory before an item is built.
#: A table above it is split into several (``labels`` is a list).
MAX_LABEL_TABLE_BYTES = 256 << 20


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
        OSError: when the file cannot be read, is not a regular file, or is above
            :data:`MAX_LABEL_TABLE_BYTES` (a :class:`~medvqa._path_guard.UnsafePathError`).
        ValueError: for malformed JSON, or text that is not UTF-8.

    """
    name = name or str(path)
    if path.suffix.lower() == ".json":
        data = json.loads(read_utf8(path, max_bytes=MAX_LABEL_TABLE_BYTES))
        rows = data if isinstance(data, list) else [r for v in data.values() for r in v]
        for i, row in enumerate(rows, start=1):
            yield Row(f"{name}:{i}", _clean(row))
        return
    text = read_regular(path, max_bytes=MAX_LABEL_TABLE_BYTES, shown=f"label table {name}")
    with io.StringIO(text.decode("utf-8-sig"), newline="") as fh:
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
