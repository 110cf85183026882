"""Reading a benchmark's items: every stage reads items.jsonl through :func:`iter_items`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from medvqa.errors import BadInputError
from medvqa.schema import Item, RecordError, read_numbered


def iter_items(path: Path, errors: list[RecordError]) -> Iterator[tuple[int, Item]]:
    """Stream ``(line number, item)`` from an items.jsonl file; bad lines go to ``errors``.

    Lines are decoded one by one, so bytes that are not UTF-8 become a :class:`RecordError`
    (field ``(encoding)``) naming the line instead of a traceback; a caller that must refuse
    such a file looks for that field.
    """
    return read_numbered(path, Item, errors, skip_bad_encoding=True)


def bad_item_lines(first: str, count: int, nothing_done: str) -> BadInputError:
    """The one refusal of ``medvqa run`` and ``medvqa score`` for item lines that do not validate.

    A line that is not an item (not JSON, a missing field, an answer letter not among the
    options) cannot be asked or scored; skipping it would change the denominator of every
    figure without anyone seeing it, so both commands refuse the benchmark instead, before
    anything is sent or written (``medvqa validate`` lists every such line).

    Args:
        first: the first bad line, as one line (file, line, field, why).
        count: how many lines are bad in all.
        nothing_done: what was left undone, e.g. ``"nothing was run"``.

    Returns:
        The error to raise (exit code 2).
    """
    more = f" (and {count - 1} more line(s))" if count > 1 else ""
    return BadInputError(
        f"{first}{more}; an item line that does not validate would silently leave the "
        f"denominator, so {nothing_done}: fix or remove it (`medvqa validate` lists every "
        "problem)")
