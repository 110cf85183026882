"""Reading a benchmark's items: every stage reads items.jsonl through :func:`iter_items`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from medvqa.schema import Item, RecordError, read_numbered


def iter_items(path: Path, errors: list[RecordError]) -> Iterator[tuple[int, Item]]:
    """Stream ``(line number, item)`` from an items.jsonl file; bad lines go to ``errors``.

    Lines are decoded one by one, so bytes that are not UTF-8 become a :class:`RecordError`
    (field ``(encoding)``) naming the line instead of a traceback; a caller that must refuse
    such a file looks for that field.
    """
    return read_numbered(path, Item, errors, skip_bad_encoding=True)

