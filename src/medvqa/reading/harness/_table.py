"""The decision table: one line per corpus input, sorted by id, one column per style.

Tab-separated, with a header line; the last column is the start of the response, so that a
diff of the table reads on its own (``git diff`` shows which response changed and how)::

    id<TAB>strict<TAB>mammovqa<TAB>pathmmu<TAB>response
    parsers_strict_table-0c1d…<TAB>- negated @structural.all-negated<TAB>A<TAB>?<TAB>Not left.

The table's SHA-256 (:func:`table_digest`) is what the decision changelog names.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from medvqa.errors import BadInputError
from medvqa.reading.harness._corpus import HarnessInput

__all__ = ["EXCERPT", "Table", "excerpt", "parse_table", "render_table", "table_digest"]

#: Characters of the response kept in the table's last column.
EXCERPT = 40
# Line breaks JSON leaves as they are (text.splitlines() would break a line at them).
_LINE_BREAKS = {ord(c): f"\\u{ord(c):04x}" for c in "\x85\u2028\u2029"}


class Table(NamedTuple):
    """A decision table read back.

    Attributes:
        styles: the style of each decision column, in order.
        rows: input id → the cells of its decisions, one per style.
        excerpts: input id → the start of its response, as the table shows it.
    """

    styles: tuple[str, ...]
    rows: dict[str, tuple[str, ...]]
    excerpts: dict[str, str]


def excerpt(response: Any, width: int = EXCERPT) -> str:
    r"""The start of a response on one line: control characters escaped, ``…`` where cut.

    >>> excerpt("Answer:\tB\n" + "x" * 60, 16)
    'Answer:\\tB\\nxxx…'
    """
    text = response if isinstance(response, str) else json.dumps(response, ensure_ascii=False)
    flat = json.dumps(text, ensure_ascii=False)[1:-1].replace('\\"', '"')
    flat = flat.translate(_LINE_BREAKS)
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def render_table(inputs: Iterable[HarnessInput], decisions: Mapping[str, tuple[str, ...]],
                 styles: tuple[str, ...]) -> str:
    """The table's text: the inputs sorted by id, each with its decisions and excerpt."""
    lines = ["\t".join(("id", *styles, "response"))]
    for item in sorted(inputs, key=lambda i: i.id):
        lines.append("\t".join((item.id, *decisions[item.id], excerpt(item.response))))
    return "\n".join(lines) + "\n"


def table_digest(text: str) -> str:
    """The hex SHA-256 of the table's text (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_table(text: str, path: Path | str = "decisions.tsv") -> Table:
    """The table in ``text`` (read from ``path``, named in errors).

    Raises:
        BadInputError: no header, a line with the wrong number of columns, an id twice.
    """
    lines = text.rstrip("\n").split("\n")
    header = lines[0].split("\t") if lines else []
    if len(header) < 3 or header[0] != "id" or header[-1] != "response":
        raise BadInputError(f"{path}: line 1: header: expected 'id', the styles, 'response'")
    styles = tuple(header[1:-1])
    rows: dict[str, tuple[str, ...]] = {}
    excerpts: dict[str, str] = {}
    for n, line in enumerate(lines[1:], 2):
        cols = line.split("\t")
        if len(cols) != len(header):
            raise BadInputError(f"{path}: line {n}: expected {len(header)} columns, got "
                                f"{len(cols)}")
        if cols[0] in rows:
            raise BadInputError(f"{path}: line {n}: field 'id': {cols[0]!r} is there twice")
        rows[cols[0]] = tuple(cols[1:-1])
        excerpts[cols[0]] = cols[-1]
    return Table(styles, rows, excerpts)
