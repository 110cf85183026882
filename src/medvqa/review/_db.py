"""The review database: SQLAlchemy Core tables, on SQLite (WAL) or PostgreSQL.

Every decision, edit and exam answer is an append-only row; nothing is ever updated or deleted
except login sessions. A write carries a client ``nonce`` with a unique constraint, so a post
retried after a timeout is recorded once; edits number their versions under a unique
``(bench, item, version)`` constraint, so two concurrent edits never share a number.
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path
from typing import Any

from medvqa._optional import optional_import
from medvqa.errors import BadInputError


def _sa() -> Any:
    return optional_import("sqlalchemy")


def make_metadata() -> Any:
    """The schema: reviewers, assignments, sessions, claims, decisions, versions, exam answers."""
    sa = _sa()
    md = sa.MetaData()
    sa.Table(
        "reviewers", md,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    sa.Table(
        "assignments", md,
        sa.Column("reviewer_id", sa.Integer, sa.ForeignKey("reviewers.id"), primary_key=True),
        sa.Column("bench", sa.String(200), primary_key=True),
    )
    sa.Table(
        "sessions", md,
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("reviewer_id", sa.Integer, sa.ForeignKey("reviewers.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    sa.Table(
        "claims", md,
        sa.Column("bench", sa.String(200), primary_key=True),
        sa.Column("item_id", sa.String(500), primary_key=True),
        sa.Column("reviewer_id", sa.Integer, sa.ForeignKey("reviewers.id"), primary_key=True),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    sa.Table(
        "decisions", md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("nonce", sa.String(64), nullable=False, unique=True),
        sa.Column("bench", sa.String(200), nullable=False, index=True),
        sa.Column("item_id", sa.String(500), nullable=False),
        sa.Column("reviewer_id", sa.Integer, sa.ForeignKey("reviewers.id"), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),  # review | adjudication
        sa.Column("verdict", sa.String(20), nullable=False),
        sa.Column("reason", sa.String(40), nullable=True),
        sa.Column("note", sa.Text, nullable=True),
        sa.Column("version", sa.Integer, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    sa.Table(
        "versions", md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("bench", sa.String(200), nullable=False),
        sa.Column("item_id", sa.String(500), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("item_json", sa.Text, nullable=False),
        sa.Column("reviewer_id", sa.Integer, sa.ForeignKey("reviewers.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("bench", "item_id", "version", name="uq_version"),
    )
    sa.Table(
        "exam_answers", md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("nonce", sa.String(64), nullable=False, unique=True),
        sa.Column("bench", sa.String(200), nullable=False, index=True),
        sa.Column("split", sa.String(20), nullable=False),
        sa.Column("item_id", sa.String(500), nullable=False),
        sa.Column("reviewer_id", sa.Integer, sa.ForeignKey("reviewers.id"), nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("latency_s", sa.Float, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    from medvqa.review._audit_db import add_audit_tables

    add_audit_tables(md)  # the reader audit (medvqa review adjudicate)
    return md


def db_url(db: str | Path) -> str:
    """A SQLAlchemy URL from ``--db``: a ``postgresql://`` URL (psycopg 3) or a SQLite file path.

    >>> db_url("postgresql://u@127.0.0.1:5432/x")
    'postgresql+psycopg://u@127.0.0.1:5432/x'
    >>> db_url("/tmp/r.sqlite")
    'sqlite:////tmp/r.sqlite'
    """
    text = str(db)
    if text.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + text.split("://", 1)[1]
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).resolve()}"


#: The first bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"


def _check_sqlite_file(path: str) -> None:
    """Refuse a ``--db`` that names something other than a SQLite database or a new file.

    SQLite would write its tables over a short file of other bytes (a CSV given by mistake) and
    fail with a traceback on a longer one; this says which file and why, and nothing is written.

    Raises:
        BadInputError: a folder, a FIFO or device, or a non-empty file that is not SQLite.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return  # a new database
    except OSError as exc:
        raise BadInputError(f"--db {path}: cannot be read ({exc.strerror})") from None
    if not stat.S_ISREG(mode):
        raise BadInputError(f"--db {path}: not a file; give the review database's file (a new "
                            "name starts an empty one)")
    with open(path, "rb") as fh:
        head = fh.read(len(SQLITE_HEADER))
    if head and head != SQLITE_HEADER:
        raise BadInputError(f"--db {path}: not a SQLite database; nothing was written to it "
                            "(give the review database, or a new file name for an empty one)")


class Database:
    """An engine, the tables, and a write lock for SQLite (one writer at a time per process).

    Attributes:
        engine: the SQLAlchemy engine.
        t: table name → Table.
        is_sqlite: whether the backend is SQLite.
    """

    def __init__(self, db: str | Path):
        sa = _sa()
        url = db_url(db)
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            _check_sqlite_file(url.removeprefix("sqlite:///"))
            self.engine = sa.create_engine(
                url, connect_args={"timeout": 30, "check_same_thread": False}
            )
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            optional_import("psycopg")
            self.engine = sa.create_engine(url, pool_size=10, max_overflow=30, pool_pre_ping=True)
        md = make_metadata()
        md.create_all(self.engine)
        self.t = md.tables
        self._lock = threading.Lock() if self.is_sqlite else None

    def write(self) -> Any:
        """A transaction for writing (serialised in-process on SQLite, where WAL has one writer)."""
        return _WriteTx(self)

    def read(self) -> Any:
        """A connection for reading."""
        return self.engine.connect()

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


class _WriteTx:
    def __init__(self, db: Database):
        self.db = db
        self.ctx: Any = None

    def __enter__(self) -> Any:
        if self.db._lock is not None:
            self.db._lock.acquire()
        try:
            self.ctx = self.db.engine.begin()
            return self.ctx.__enter__()
        except BaseException:
            if self.db._lock is not None:
                self.db._lock.release()
            raise

    def __exit__(self, *exc: Any) -> Any:
        try:
            return self.ctx.__exit__(*exc)
        finally:
            if self.db._lock is not None:
                self.db._lock.release()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()
