"""Expert review and human exam: a web app for clinicians, agreement statistics, export.

``medvqa review serve BENCH/`` starts the app (FastAPI + Jinja2 + a little vanilla JS);
``add-reviewer`` creates logins; ``stats`` computes inter-rater agreement and each LLM judge's
agreement with the experts; ``export`` writes the reviewed benchmark as a new version; ``exam``
lets experts answer a split, their answers becoming a RUN/ of model ``human:NAME``;
``adjudicate`` queues a run's responses (a random audit sample, and every response two readers
read differently) for clinicians to read, ``export-adjudication`` writes what they read for
``medvqa score --adjudication``.
The web parts need the ``review`` extra (``pip install 'medvqa[review]'``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports
from medvqa.review._config import AdjudicateConfig, AppConfig, StatsConfig

if TYPE_CHECKING:
    from medvqa.review._app import create_app
    from medvqa.review._audit_queue import Queued, queue_run
    from medvqa.review._audit_store import AuditStore, resolve_reading
    from medvqa.review._bench import ReviewBench, load_bench
    from medvqa.review._criteria import REASONS, ROLES, VERDICTS, keeps
    from medvqa.review._db import Database, db_url
    from medvqa.review._exam import exam_items, run_slug, write_exam_run
    from medvqa.review._export import ExportResult, check_export_target, export_reviewed
    from medvqa.review._resolve import Final, resolve, resolve_all
    from medvqa.review._server import free_port
    from medvqa.review._stats import review_stats
    from medvqa.review._store import Decision, Reviewer, ReviewStore, Session

_WHERE: dict[str, str] = {
    "AuditStore": "_audit_store",
    "Database": "_db",
    "Decision": "_store",
    "ExportResult": "_export",
    "Final": "_resolve",
    "Queued": "_audit_queue",
    "REASONS": "_criteria",
    "ROLES": "_criteria",
    "ReviewBench": "_bench",
    "ReviewStore": "_store",
    "Reviewer": "_store",
    "Session": "_store",
    "VERDICTS": "_criteria",
    "create_app": "_app",
    "db_url": "_db",
    "exam_items": "_exam",
    "check_export_target": "_export",
    "export_reviewed": "_export",
    "free_port": "_server",
    "keeps": "_criteria",
    "load_bench": "_bench",
    "queue_run": "_audit_queue",
    "resolve": "_resolve",
    "resolve_all": "_resolve",
    "resolve_reading": "_audit_store",
    "review_stats": "_stats",
    "run_slug": "_exam",
    "write_exam_run": "_exam",
}

__all__ = [
    "AdjudicateConfig",
    "AuditStore",
    "Queued",
    "queue_run",
    "resolve_reading",
    "create_app",
    "AppConfig",
    "REASONS",
    "ROLES",
    "VERDICTS",
    "Database",
    "Decision",
    "ExportResult",
    "Final",
    "ReviewBench",
    "ReviewStore",
    "Reviewer",
    "Session",
    "StatsConfig",
    "db_url",
    "exam_items",
    "check_export_target",
    "export_reviewed",
    "keeps",
    "load_bench",
    "resolve",
    "resolve_all",
    "review_stats",
    "run_slug",
    "write_exam_run",
    "free_port",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
