"""The run's prediction journal: the ``predictions`` table of RUN/cache.sqlite.

It shares the SQLite file (and its schema) with :class:`medvqa.models.ResponseCache`.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from medvqa.models import Transaction, open_cache_db
from medvqa.store import atomic_writer


@dataclass(frozen=True, slots=True)
class JournalRow:
    """One prediction as stored in the journal.

    Attributes:
        item_id: the item answered.
        condition: the condition it was asked under.
        item_idx: 1-based line of the item in items.jsonl (orders the output).
        cond_idx: position of the condition in the run's condition list.
        response: raw model text, or None on error.
        latency_s: seconds the request took (0 for a request never sent).
        error: None, or why there is no response.
        sent: JSON of what the model was given (:attr:`GenerateResponse.sent`), if recorded.

    """

    item_id: str
    condition: str
    item_idx: int
    cond_idx: int
    response: str | None
    latency_s: float | None
    error: str | None
    sent: str | None = None


#: What each prediction's model was given, where the backend says (a side table, so journals
#: written before it existed need no migration).
_SENT_SCHEMA = """
CREATE TABLE IF NOT EXISTS sent (
    item_id TEXT NOT NULL,
    condition TEXT NOT NULL,
    sent TEXT NOT NULL,
    PRIMARY KEY (item_id, condition)
) WITHOUT ROWID;
"""


class PredictionJournal:
    """The ``predictions`` table: each ``(item_id, condition)`` exactly once.

    The journal, not predictions.jsonl, is the run's source of truth while it runs: rows are
    committed as they arrive, a rerun skips the keys already present (primary key, so a key
    can never appear twice), and :meth:`export` writes predictions.jsonl from it in benchmark
    order, atomically.

    Args:
        path: the SQLite file (normally RUN/cache.sqlite).

    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._conn = open_cache_db(self.path)
        self._conn.executescript(_SENT_SCHEMA)
        # is_done is asked by the request builder, which runs in a worker thread while this
        # thread commits results: a second connection (WAL readers never block the writer),
        # used by one thread at a time.
        self._reader = sqlite3.connect(str(self.path), timeout=30.0, check_same_thread=False)
        # Closing a connection while the worker thread reads through it crashes the process
        # (SQLite frees what the read is using): the two never overlap.
        self._reader_lock = threading.Lock()
        self._closed = False

    def is_done(self, item_id: str, condition: str, *, include_errors: bool = True) -> bool:
        """Whether ``(item_id, condition)`` has a row (with a response, unless include_errors)."""
        sql = "SELECT error IS NULL FROM predictions WHERE item_id = ? AND condition = ?"
        with self._reader_lock:
            if self._closed:  # the run has stopped: the caller's answer is never used
                raise RuntimeError("the prediction journal is closed")
            row = self._reader.execute(sql, (item_id, condition)).fetchone()
        return row is not None and (include_errors or bool(row[0]))

    def get(self, item_id: str, condition: str) -> tuple[str | None, str | None] | None:
        """``(response, error)`` of ``(item_id, condition)``, or None when it has no row."""
        row = self._conn.execute(
            "SELECT response, error FROM predictions WHERE item_id = ? AND condition = ?",
            (item_id, condition)).fetchone()
        return None if row is None else (row[0], row[1])

    def add_many(self, rows: Sequence[JournalRow]) -> None:
        """Insert or replace rows in one transaction."""
        if not rows:
            return
        with Transaction(self._conn):
            self._conn.executemany(
                "INSERT OR REPLACE INTO predictions VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        r.item_id,
                        r.condition,
                        r.item_idx,
                        r.cond_idx,
                        r.response,
                        r.latency_s,
                        r.error,
                    )
                    for r in rows
                ],
            )
            self._conn.executemany(
                "INSERT OR REPLACE INTO sent VALUES (?, ?, ?)",
                [(r.item_id, r.condition, r.sent) for r in rows if r.sent is not None],
            )

    def clear(self) -> None:
        """Forget every prediction (``--force-new``; the runner clears the response cache too)."""
        with Transaction(self._conn):
            self._conn.execute("DELETE FROM predictions")
            self._conn.execute("DELETE FROM sent")

    def counts(self) -> tuple[int, int]:
        """``(predictions, errors)`` in the journal."""
        row = self._conn.execute("SELECT COUNT(*), COUNT(error) FROM predictions").fetchone()
        return int(row[0]), int(row[1])

    def first_errors(self, limit: int = 10) -> list[str]:
        """Up to ``limit`` distinct error messages, in benchmark order."""
        rows = self._conn.execute(
            "SELECT error FROM predictions WHERE error IS NOT NULL "
            "GROUP BY error ORDER BY MIN(item_idx), MIN(cond_idx) LIMIT ?",
            (limit,),
        )
        return [r[0] for r in rows]

    def rows(self) -> Iterator[JournalRow]:
        """Every row in benchmark order: item line, then condition position."""
        cur = self._conn.execute(
            "SELECT p.item_id, p.condition, item_idx, cond_idx, response, latency_s, error, "
            "s.sent FROM predictions p LEFT JOIN sent s "
            "ON s.item_id = p.item_id AND s.condition = p.condition "
            "ORDER BY item_idx, cond_idx, p.condition"
        )
        for row in cur:
            yield JournalRow(*row)

    def export(self, path: str | Path) -> int:
        """Write predictions.jsonl from the journal, streaming, atomically; return the count.

        Lines follow :class:`medvqa.schema.Prediction`'s field order; the scoring fields stay
        null until ``medvqa score`` fills them.
        """
        n = 0
        with atomic_writer(path) as fh:
            for r in self.rows():
                line: dict[str, object] = {
                    "item_id": r.item_id,
                    "condition": r.condition,
                    "response": r.response,
                    "latency_s": r.latency_s,
                    "error": r.error,
                    "choice": None,
                    "correct": None,
                    "invalid": None,
                }
                if r.sent is not None:
                    line["sent"] = json.loads(r.sent)
                fh.write(json.dumps(line, ensure_ascii=False) + "\n")
                n += 1
        return n

    def close(self) -> None:
        """Close the connections (after any read the worker thread is making)."""
        with self._reader_lock:
            self._closed = True
            self._reader.close()
        self._conn.close()

    def __enter__(self) -> PredictionJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
