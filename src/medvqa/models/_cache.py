"""RUN/cache.sqlite: the response cache (the run's prediction journal shares the file).

Two tables live in one SQLite file opened in WAL mode:

* ``responses`` — the item-level cache. The key is the SHA-256 of the canonical JSON of
  everything that can change an answer (model name, answer-changing parameters, system prompt,
  rendered prompt, image SHA-256s, condition, item id), so a cached response is reused only for
  exactly the same request of the same item. The item id is part of it because an answer may
  depend on it: the ``random`` baseline draws from (seed, item id, condition), and a sampling
  model's draw for one item is no answer for another; without it, two items whose requests
  look alike (a text-only model under ``noise``, a templated question under ``blind``) shared
  whichever response was cached first, so the responses depended on timing. Errors are
  stored too, so a run killed after an error was recorded does not send that request again;
  callers choose whether to reuse them (``--retry-errors`` does not).
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
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from medvqa.models._base import GenerateRequest, GenerateResponse

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
    item_id: str = "",
) -> str:
    """SHA-256 (hex) of the canonical JSON of everything that can change the answer.

    >>> len(cache_key("random", {"seed": 0}, None, "Which side?", ["ab"], "clean", "q1"))
    64
    >>> a = cache_key("random", {"seed": 0}, None, "Which side?", [], "noise", "q1")
    >>> a == cache_key("random", {"seed": 0}, None, "Which side?", [], "noise", "q2")
    False
    """
    payload = canonical_json(
        {
            "condition": condition,
            "images": list(image_sha256s),
            "item_id": item_id,
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
        request.item_id,
    )


def open_cache_db(path: Path) -> sqlite3.Connection:
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
        self._conn = open_cache_db(self.path)

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

    def clear(self) -> None:
        """Forget every response (``--force-new``: a new run asks its model again)."""
        with self._transaction():
            self._conn.execute("DELETE FROM responses")

    def __len__(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def _transaction(self) -> Transaction:
        return Transaction(self._conn)

    def close(self) -> None:
        """Close the connection (committed data is already on disk)."""
        self._conn.close()

    def __enter__(self) -> ResponseCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Transaction:
    """``BEGIN`` … ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection):
        self._conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self._conn.execute("BEGIN")
        return self._conn

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self._conn.execute("ROLLBACK" if exc_type else "COMMIT")
