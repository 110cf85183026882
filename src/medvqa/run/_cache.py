"""RUN/cache.sqlite: the response cache and the run's prediction journal.

Two tables live in one SQLite file opened in WAL mode:

* ``responses`` — the item-level cache. The key is the SHA-256 of the canonical JSON of
  everything that can change an answer (model name, answer-changing parameters, system prompt,
  rendered prompt, image SHA-256s, condition), so a cached response is reused only for exactly
  the same request. Errors are stored too, so a run killed after an error was recorded does not
  send that request again; callers choose whether to reuse them (``--retry-errors`` does not).
* ``predictions`` — the run's journal: one row per ``(item_id, condition)`` with the position of
  the item in items.jsonl, so ``predictions.jsonl`` can be written from it in benchmark order.

Writes are small transactions committed as results arrive. WAL with ``synchronous=NORMAL``
keeps every committed transaction across a killed process (only an OS crash can lose the last
few), so a SIGKILL loses at most the requests that were in flight.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from medvqa.models._base import GenerateRequest, GenerateResponse
from medvqa.store import atomic_writer

#: SQLite's bound-parameter limit is 32,766 on 3.32+; stay far below it.
_CHUNK = 500

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    response TEXT,
    latency_s REAL NOT NULL,
    error TEXT,
    created_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS predictions (
    item_id TEXT NOT NULL,
    condition TEXT NOT NULL,
    item_idx INTEGER NOT NULL,
    cond_idx INTEGER NOT NULL,
    response TEXT,
    latency_s REAL,
    error TEXT,
    PRIMARY KEY (item_id, condition)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS predictions_order ON predictions (item_idx, cond_idx, condition);
"""


def canonical_json(value: Any) -> str:
    """Compact JSON with sorted keys: the same value always gives the same bytes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def cache_key(
    model: str,
    params: dict[str, Any],
    system: str | None,
    prompt: str,
    image_sha256s: Sequence[str],
    condition: str,
) -> str:
    """SHA-256 (hex) of the canonical JSON of everything that can change the answer.

    >>> len(cache_key("random", {"seed": 0}, None, "Which side?", ["ab"], "clean"))
    64
    """
    payload = canonical_json(
        {
            "condition": condition,
            "images": list(image_sha256s),
            "model": model,
            "params": params,
            "prompt": prompt,
            "system": system,
        }
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def request_key(model: str, params: dict[str, Any], request: GenerateRequest) -> str:
    """:func:`cache_key` of a rendered request."""
    return cache_key(
        model,
        params,
        request.system,
        request.prompt,
        [im.sha256 for im in request.images],
        request.condition,
    )


def _connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    # isolation_level=None: we open transactions ourselves, one per batch of results.
    conn = sqlite3.connect(str(path), isolation_level=None, timeout=30.0)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.executescript(_SCHEMA)
    return conn


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class ResponseCache:
    """The ``responses`` table: request key → response text, latency, error, timestamp.

    Args:
        path: the SQLite file (created with its folder if missing).

    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._conn = _connect(self.path)

    def get_many(
        self, keys: Sequence[str], *, include_errors: bool = True
    ) -> dict[str, GenerateResponse]:
        """Look up cached responses for ``keys`` (missing keys are absent from the result).

        Args:
            keys: request keys from :func:`cache_key`.
            include_errors: also return recorded errors; False treats them as misses so they
                are asked again.

        """
        found: dict[str, GenerateResponse] = {}
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT key, response, latency_s, error FROM responses WHERE key IN ({marks})"
            if not include_errors:
                sql += " AND error IS NULL"
            for key, text, latency, error in self._conn.execute(sql, chunk):
                found[key] = GenerateResponse(text=text, latency_s=latency, error=error)
        return found

    def get(self, key: str, *, include_errors: bool = True) -> GenerateResponse | None:
        """One cached response, or None."""
        return self.get_many([key], include_errors=include_errors).get(key)

    def put_many(self, model: str, rows: Iterable[tuple[str, GenerateResponse]]) -> int:
        """Store responses in one transaction (a later answer replaces an earlier one).

        Returns:
            The number of rows written.

        """
        now = _now()
        data = [(k, model, r.text, float(r.latency_s), r.error, now) for k, r in rows]
        if data:
            with self._transaction():
                self._conn.executemany(
                    "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?)", data
                )
        return len(data)

    def __len__(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def _transaction(self) -> _Transaction:
        return _Transaction(self._conn)

    def close(self) -> None:
        """Close the connection (committed data is already on disk)."""
        self._conn.close()

    def __enter__(self) -> ResponseCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Transaction:
    """``BEGIN`` … ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection):
        self._conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self._conn.execute("BEGIN")
        return self._conn

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self._conn.execute("ROLLBACK" if exc_type else "COMMIT")


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

    """

    item_id: str
    condition: str
    item_idx: int
    cond_idx: int
    response: str | None
    latency_s: float | None
    error: str | None


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
        self._conn = _connect(self.path)
        # is_done is asked by the request builder, which runs in a worker thread while this
        # thread commits results: a second connection (WAL readers never block the writer),
        # used by one thread at a time.
        self._reader = sqlite3.connect(str(self.path), timeout=30.0, check_same_thread=False)

    def is_done(self, item_id: str, condition: str, *, include_errors: bool = True) -> bool:
        """Whether ``(item_id, condition)`` has a row (with a response, unless include_errors)."""
        sql = "SELECT error IS NULL FROM predictions WHERE item_id = ? AND condition = ?"
        row = self._reader.execute(sql, (item_id, condition)).fetchone()
        return row is not None and (include_errors or bool(row[0]))

    def add_many(self, rows: Sequence[JournalRow]) -> None:
        """Insert or replace rows in one transaction."""
        if not rows:
            return
        with _Transaction(self._conn):
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

    def clear(self) -> None:
        """Forget every prediction (``--force-new``); the response cache is kept."""
        with _Transaction(self._conn):
            self._conn.execute("DELETE FROM predictions")

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
            "SELECT item_id, condition, item_idx, cond_idx, response, latency_s, error "
            "FROM predictions ORDER BY item_idx, cond_idx, condition"
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
                fh.write(
                    json.dumps(
                        {
                            "item_id": r.item_id,
                            "condition": r.condition,
                            "response": r.response,
                            "latency_s": r.latency_s,
                            "error": r.error,
                            "choice": None,
                            "correct": None,
                            "invalid": None,
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )
                n += 1
        return n

    def close(self) -> None:
        """Close the connections."""
        self._reader.close()
        self._conn.close()

    def __enter__(self) -> PredictionJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
