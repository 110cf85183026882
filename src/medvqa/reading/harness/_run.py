"""Recompute the decision table from the corpus; compare it with the committed one; rewrite it.

The harness lives in a folder of the repository (:data:`HARNESS_DIR`): the corpus
(:data:`CORPUS`, written by ``tests/reading/harness_corpus.py``) and the table
(:data:`TABLE`, written by :func:`regenerate`). The changelog is :data:`CHANGELOG`.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Final, NamedTuple

from medvqa.errors import BadInputError
from medvqa.reading.harness._changelog import draft_entry, insert_entry
from medvqa.reading.harness._changes import TableChanges, compare
from medvqa.reading.harness._corpus import HarnessInput, read_corpus
from medvqa.reading.harness._decisions import HARNESS_STYLES, decide
from medvqa.reading.harness._table import Table, parse_table, render_table, table_digest
from medvqa.store import atomic_write_text

__all__ = ["CHANGELOG", "CORPUS", "HARNESS_DIR", "TABLE", "Recomputed", "recompute",
           "regenerate"]

#: The harness's folder, from the repository's root.
HARNESS_DIR: Final = Path("tests/reading/harness")
#: The corpus's file name in that folder.
CORPUS: Final = "corpus.jsonl.gz"
#: The decision table's file name in that folder.
TABLE: Final = "decisions.tsv"
#: The decision changelog, from the repository's root.
CHANGELOG: Final = Path("docs/decision-changelog.md")


class Recomputed(NamedTuple):
    """The table recomputed beside the committed one.

    Attributes:
        inputs: the corpus.
        text: the recomputed table's text.
        committed: the committed table's text ("" where there is none yet).
        changes: from the committed table to the recomputed one.
    """

    inputs: list[HarnessInput]
    text: str
    committed: str
    changes: TableChanges


def recompute(folder: Path = HARNESS_DIR) -> Recomputed:
    """Decide every corpus input with every harness style and compare with the table.

    Raises:
        BadInputError: the corpus is missing or malformed, or the committed table is.
    """
    inputs = read_corpus(folder / CORPUS)
    text = render_table(inputs, decide(inputs), HARNESS_STYLES)
    path = folder / TABLE
    try:
        committed = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        committed = ""
    except OSError as exc:
        raise BadInputError(f"{path}: {exc.strerror}") from None
    old = parse_table(committed, path) if committed else Table(HARNESS_STYLES, {}, {})
    return Recomputed(inputs, text, committed, compare(old, parse_table(text)))


def regenerate(folder: Path = HARNESS_DIR, changelog: Path | None = CHANGELOG,
               day: date | None = None) -> tuple[Recomputed, str | None]:
    """Rewrite the table where a decision changed, and draft its changelog entry.

    The table is written atomically; the entry (dated ``day``, today by default) is put at the
    top of ``changelog`` where one is given (it must exist). Returns what was recomputed and
    the entry, or None where nothing changed (nothing is written then).
    """
    got = recompute(folder)
    if got.text == got.committed:
        return got, None
    entry = draft_entry(day or date.today(), table_digest(got.text), got.changes,
                        len(got.inputs))
    if changelog is not None:
        try:
            old = changelog.read_text(encoding="utf-8")
        except OSError as exc:
            raise BadInputError(f"{changelog}: {exc.strerror}") from None
        atomic_write_text(folder / TABLE, got.text)
        atomic_write_text(changelog, insert_entry(old, entry))
    else:
        atomic_write_text(folder / TABLE, got.text)
    return got, entry
