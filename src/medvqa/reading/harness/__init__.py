"""The decision harness: every style's decision on a committed corpus, checked by a test.

The corpus (``tests/reading/harness/corpus.jsonl.gz``) holds the shipped labelled set, the
inputs of every reader test and seeded generated responses, each with a stable id; the table
(``decisions.tsv`` beside it) holds each option-reading style's decision on each input. A test
recomputes the table and fails on any changed decision, listing the changes by class;
``python -m medvqa.reading.harness --regenerate`` rewrites the table and drafts the entry of
the decision changelog (``docs/decision-changelog.md``) that must name it.
"""

from medvqa.reading.harness._changelog import (
    TODO,
    draft_entry,
    entry_digest,
    insert_entry,
    latest_entry,
)
from medvqa.reading.harness._changes import (
    Change,
    ChangeClass,
    TableChanges,
    by_source,
    compare,
    describe,
    kind,
)
from medvqa.reading.harness._corpus import (
    HarnessInput,
    content_hash,
    merge_sources,
    read_corpus,
    write_corpus,
)
from medvqa.reading.harness._decisions import HARNESS_STYLES, NOT_OPTION_STYLES, cell, decide
from medvqa.reading.harness._run import (
    CHANGELOG,
    CORPUS,
    HARNESS_DIR,
    TABLE,
    Recomputed,
    recompute,
    regenerate,
)
from medvqa.reading.harness._table import Table, excerpt, parse_table, render_table, table_digest

__all__ = [
    "CHANGELOG",
    "CORPUS",
    "HARNESS_DIR",
    "HARNESS_STYLES",
    "NOT_OPTION_STYLES",
    "TABLE",
    "TODO",
    "Change",
    "ChangeClass",
    "HarnessInput",
    "Recomputed",
    "Table",
    "TableChanges",
    "by_source",
    "cell",
    "compare",
    "content_hash",
    "decide",
    "describe",
    "draft_entry",
    "entry_digest",
    "excerpt",
    "insert_entry",
    "kind",
    "latest_entry",
    "merge_sources",
    "parse_table",
    "read_corpus",
    "recompute",
    "regenerate",
    "render_table",
    "table_digest",
    "write_corpus",
]
