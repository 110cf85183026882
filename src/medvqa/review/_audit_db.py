"""The reader audit's tables in the review database (append-only, like decisions).

- ``audit_designs``: one per run and condition whose responses were sampled (seed, sizes,
  strata as JSON), unique per ``(bench, population_sha256, condition)``;
- ``audit_questions``: one per distinct (question type, options, response) to read, unique per
  ``(bench, qkey)`` — identical pairs from several items or runs are read once;
- ``audit_entries``: one per queued response of a run (sample or disagreement, stratum,
  weight, serving rank), pointing at its question;
- ``audit_readings``: what a person read in a question (an option or options, no answer
  committed, a refusal), ``kind`` ``reading`` or an admin's final ``adjudication``; a client
  nonce with a unique constraint records a retried post once.
"""

from __future__ import annotations

from typing import Any

from medvqa._optional import optional_import


def _sa() -> Any:
    return optional_import("sqlalchemy")


def add_audit_tables(md: Any) -> None:
    """Add the audit tables to the review schema ``md``."""
    sa = _sa()
    sa.Table(
        "audit_designs", md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("bench", sa.String(200), nullable=False),
        sa.Column("population_sha256", sa.String(64), nullable=False),
        sa.Column("condition", sa.String(100), nullable=False),
        sa.Column("design_json", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("bench", "population_sha256", "condition", name="uq_audit_design"),
    )
    sa.Table(
        "audit_questions", md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("bench", sa.String(200), nullable=False),
        sa.Column("qkey", sa.String(64), nullable=False),
        sa.Column("item_id", sa.String(500), nullable=False),
        sa.Column("question", sa.Text, nullable=False),
        sa.Column("question_type", sa.String(20), nullable=False),
        sa.Column("options_json", sa.Text, nullable=False),
        sa.Column("response", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("bench", "qkey", name="uq_audit_question"),
    )
    sa.Table(
        "audit_entries", md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("design_id", sa.Integer, sa.ForeignKey("audit_designs.id"), nullable=False,
                  index=True),
        sa.Column("question_id", sa.Integer, sa.ForeignKey("audit_questions.id"),
                  nullable=False, index=True),
        sa.Column("item_id", sa.String(500), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),  # sample | disagreement
        sa.Column("stratum", sa.String(20), nullable=True),
        sa.Column("weight", sa.Float, nullable=True),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("reader_json", sa.Text, nullable=False),  # the automatic reading(s), shown after
    )
    sa.Table(
        "audit_readings", md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("nonce", sa.String(64), nullable=False, unique=True),
        sa.Column("question_id", sa.Integer, sa.ForeignKey("audit_questions.id"),
                  nullable=False, index=True),
        sa.Column("reviewer_id", sa.Integer, sa.ForeignKey("reviewers.id"), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),  # reading | adjudication
        sa.Column("verdict", sa.String(20), nullable=False),  # answer | no_answer | refusal
        sa.Column("choice_json", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
