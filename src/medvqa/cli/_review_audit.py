"""``medvqa review adjudicate`` and ``export-adjudication``; reading ``--adjudication``.

``adjudicate`` queues runs' responses for clinicians to read in the review app; what they read
goes to ``medvqa score --adjudication``, from the review database itself or from the file
``export-adjudication`` writes (to score elsewhere, or to keep beside the runs).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from medvqa.cli._help import default_of
from medvqa.cli._review import default_db
from medvqa.review import AdjudicateConfig

_out = Console()
_err = Console(stderr=True)


def _adj(name: str) -> Any:
    """The default of an AdjudicateConfig field."""
    return default_of(AdjudicateConfig, name)


def adjudicate_command(
    bench: Path = typer.Argument(..., help="The BENCH/ the runs answered."),
    runs: list[Path] = typer.Argument(..., help="Scored RUN/ folders to audit."),
    sample: int = typer.Option(_adj("sample"), "--sample", help="Responses to sample per run "
                               "(stratified by the reader's decision: read, invalid, extracted)."),
    seed: int = typer.Option(
        _adj("seed"), "--seed", help="Seed of the sample and of its serving order."),
    readers: int = typer.Option(
        _adj("readers"), "--readers", help="People to read each response (2 measures "
                                "their agreement, κ in `review stats`)."),
    conditions: str = typer.Option(
        ",".join(_adj("conditions")), "--conditions", help="Conditions to audit, "
                                   "comma-separated [default: each run's baseline, clean]."),
    db: str = typer.Option(None, "--db", help="SQLite file or postgresql://… URL "
                           "[default: BENCH.review.sqlite beside BENCH/]."),
) -> None:
    """Queue runs' responses for clinicians: a random audit sample, and every disagreement.

    Per run: a seeded random sample of its responses (stratified, weights kept) and every
    response the rules and the extractor, or two compared styles, read differently; identical
    (options, response) pairs are read once. Example: medvqa review adjudicate bench/x runs/a
    """
    from medvqa.review import AdjudicateConfig, AuditStore, ReviewStore, load_bench, queue_run

    config = AdjudicateConfig(sample=sample, seed=seed, readers=readers,
                              conditions=tuple(c for c in conditions.split(",") if c))
    b = load_bench(bench)
    audit = AuditStore(ReviewStore(default_db([bench], db)))
    for run in runs:
        for q in queue_run(b, audit, run, config):
            strata = ", ".join(f"{h} {s.sampled} of {s.population}" for h, s in q.strata.items()
                               if s.population)
            _out.print(f"{escape(str(q.run))} ({q.condition}): {q.responses} responses; sample "
                       f"{q.sampled} ({strata}); {q.disagreements} read differently by two "
                       "readers", highlight=False, soft_wrap=True)
            for note in q.notes:
                _err.print(f"[yellow]note[/yellow] {escape(note)}", highlight=False,
                           soft_wrap=True)
    _out.print(f"{audit.count_questions(b.key)} responses to read in all; serve them with "
               f"`medvqa review serve {bench}` (Read responses)", highlight=False,
               soft_wrap=True)


def export_adjudication_command(
    bench: Path = typer.Argument(..., help="The BENCH/ whose audit to export."),
    output: Path = typer.Option(..., "--output", "-o", help="The adjudication file (JSON)."),
    db: str = typer.Option(None, "--db", help="SQLite file or postgresql://… URL "
                           "[default: BENCH.review.sqlite beside BENCH/]."),
) -> None:
    """Write the audit designs and the humans' readings for `medvqa score --adjudication`."""
    from medvqa.schema import write_json

    found, _ = load_adjudication(default_db([bench], db), bench)
    write_json(output, found)
    done = sum(1 for r in found.readings.values() if r.status in ("agreed", "adjudicated"))
    disputed = sum(1 for r in found.readings.values() if r.status == "disputed")
    _out.print(f"wrote {escape(str(output))}: {len(found.designs)} run audit(s), "
               f"{len(found.readings)} responses, {done} read, {disputed} disputed",
               highlight=False, soft_wrap=True)


def load_adjudication(source: str | Path, bench: Path) -> tuple[Any, str]:
    """The :class:`~medvqa.schema.AdjudicationFile` of ``source`` for ``bench``, and its name.

    ``source`` is an exported file (JSON), a review database (SQLite file) or a
    ``postgresql://`` URL.

    Raises:
        BadInputError: missing, not an adjudication, or a database of another benchmark.
    """
    from medvqa.errors import BadInputError
    from medvqa.schema import AdjudicationFile, read_json

    text = str(source)
    is_url = "://" in text
    path = Path(text)
    if not is_url and not path.is_file():
        raise BadInputError(f"--adjudication {text}: no such file")
    if not is_url and path.read_bytes()[:16] != b"SQLite format 3\x00":
        return read_json(path, AdjudicationFile), text
    from medvqa._optional import optional_import
    from medvqa.review import AuditStore, ReviewStore, load_bench

    sa = optional_import("sqlalchemy")
    b = load_bench(bench)
    try:
        audit = AuditStore(ReviewStore(text))
        held = audit.benches()
    except sa.exc.DatabaseError as exc:
        raise BadInputError(f"--adjudication {text}: not a review database "
                            f"({str(exc).splitlines()[0][:120]})") from None
    if b.key not in held:
        raise BadInputError(
            f"--adjudication {text}: an adjudication of another benchmark (it holds "
            f"{', '.join(held) or 'no audit'}; {bench} is {b.key}); queue this one with "
            f"`medvqa review adjudicate {bench} RUN/`")
    return audit.export(b), text
