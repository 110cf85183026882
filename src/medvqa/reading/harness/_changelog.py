"""The decision changelog (``docs/decision-changelog.md``): one entry per table, newest first.

Each entry is a ``## DATE`` heading, the SHA-256 of the decision table it leads to, why the
decisions changed, and one line per class of changed decisions with its count and one
example. A test checks that the newest entry names the committed table, so the table cannot
change without an entry; :func:`draft_entry` writes one for the regenerate command, with
:data:`TODO` where its author says why (a test refuses it until they have).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Final

from medvqa.reading.harness._changes import TableChanges, by_source

__all__ = ["TODO", "draft_entry", "entry_digest", "insert_entry", "latest_entry"]

#: Where a drafted entry waits for its author to say why the decisions changed.
TODO: Final = "TODO: say why these decisions changed."
_HEADING: Final = re.compile(r"^## ", re.M)
_DIGEST: Final = re.compile(r"^Table SHA-256: `([0-9a-f]{64})`", re.M)


def latest_entry(text: str) -> str | None:
    """The newest entry of the changelog (the first ``## `` section), or None."""
    starts = [m.start() for m in _HEADING.finditer(text)]
    if not starts:
        return None
    end = starts[1] if len(starts) > 1 else len(text)
    return text[starts[0]:end]


def entry_digest(entry: str) -> str | None:
    """The table SHA-256 an entry names, or None."""
    m = _DIGEST.search(entry)
    return m.group(1) if m else None


def _code(text: str) -> str:
    return "`" + text.replace("`", "'") + "`"


def draft_entry(day: date, digest: str, changes: TableChanges, inputs: int,
                why: str = TODO) -> str:
    """An entry for a table of ``inputs`` inputs with ``digest``, reached by ``changes``."""
    lines = [f"## {day.isoformat()}", "", f"Table SHA-256: `{digest}` ({inputs:,} inputs)", "",
             why, ""]
    for c in changes.classes:
        e = c.examples[0]
        lines.append(f"- {c.style}: {c.label}: {c.n:,} — {_code(e.excerpt)} "
                     f"({e.id}: {_code(e.old)} → {_code(e.new)})")
    for word, ids in (("added", changes.added), ("removed", changes.removed)):
        if ids:
            lines.append(f"- inputs {word}: {len(ids):,} ({by_source(ids)})")
    return "\n".join(lines).rstrip("\n") + "\n"


def insert_entry(text: str, entry: str) -> str:
    """The changelog with ``entry`` as its newest entry (before the first ``## `` heading)."""
    m = _HEADING.search(text)
    if m is None:
        return text.rstrip("\n") + "\n\n" + entry
    return text[: m.start()] + entry + "\n" + text[m.start():]
