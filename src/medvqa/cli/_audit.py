"""``medvqa audit``: the integrity audit of a benchmark (``medvqa.report.write_audit_report``).

Exit codes: 0 when nothing is at or above ``--fail-on``, 3 when something is (a CI gate), 1 for
a usage error, 2 for bad input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from medvqa.benchmark.audit import NEAR_THRESHOLD, AuditConfig
from medvqa.cli._help import default_of

#: Exit code of an audit whose findings reach ``--fail-on``.
GATE_EXIT = 3


def _removes(condition: str) -> frozenset[str]:
    """What a condition takes away (read from the conditions registry, never its name)."""
    from medvqa.conditions import describe

    return describe(condition).removes


def _a(name: str) -> Any:
    """The default of an AuditConfig field."""
    return default_of(AuditConfig, name)


def audit_command(
    bench: Path = typer.Argument(..., help="The BENCH/ folder to audit."),
    against: list[Path] = typer.Option(
        [], "--against", help="Another BENCH/ or a plain image folder to look for this "
        "benchmark's images in (repeatable)."),
    runs: list[Path] = typer.Option(
        [], "--runs", help="A scored RUN/ whose image-free conditions (text-only, blind …) "
        "measure guessability (repeatable)."),
    irt: Path | None = typer.Option(
        None, "--irt", help="irt.json of this benchmark (`medvqa irt fit`): report the items "
        "it suspects of a wrong key, broken, or uninformative."),
    out: Path | None = typer.Option(
        None, "-o", "--out", help="audit.json to write (default: BENCH/audit.json); "
        "audit.html is written beside it."),
    fail_on: str = typer.Option(
        "error", "--fail-on", help="Exit 3 when a finding is at this level or above: error, "
        "warning, or never."),
    near_threshold: int | None = typer.Option(
        None, "--near-threshold", help="Hamming distance (bits of 64) of the centre perceptual "
        "hash of near-duplicate images (default: the documented "
        f"{NEAR_THRESHOLD.centre}; the other hashes keep theirs)."),
    exact_near: bool = typer.Option(
        _a("exact_near"), "--exact-near", help="Search near-duplicate images exactly (every "
        "pair within the thresholds; time grows faster than the image count) instead of the "
        "default sampled search (docs/formats.md)."),
    no_mirror: bool = typer.Option(
        not _a("mirrored"), "--no-mirror", help="Do not look for mirrored copies."),
    no_corner_views: bool = typer.Option(
        not _a("corners"), "--no-corner-views", help="Do not look for copies cropped off one "
        "side or corner (about 4× faster near-duplicate search)."),
    question_method: str = typer.Option(
        _a("question_method"), "--question-method", help="Near-duplicate questions: tfidf, "
        "jaccard or embeddings (sentence-transformers)."),
    no_html: bool = typer.Option(False, "--no-html", help="Write audit.json only."),
    workers: int = typer.Option(_a("workers"), "--workers", min=1, help="Threads hashing images."),
) -> None:
    """Find leakage, near-duplicates, contamination and shortcuts before trusting a score.

    Leakage across splits (the same case, bytes, pixels or a near-duplicate image);
    contamination (--against); duplicate questions and labelling conflicts; answer-letter,
    option-length / specificity / hedging and answer-class shortcuts; guessability (--runs).
    A published split (benchmark.json published_split) shows its leaks as "published".

    Example: medvqa audit bench/vqa_rad --fail-on warning

    Example: medvqa audit bench/mine --against bench/other --against train_images/ --runs runs/text
    """
    from rich.console import Console
    from rich.markup import escape

    from medvqa.benchmark.audit import summary_lines
    from medvqa.errors import UsageError
    from medvqa.report import AuditReportConfig, write_audit_report

    if fail_on not in {"error", "warning", "never"}:
        raise UsageError(f"--fail-on {fail_on!r}: use error, warning or never")
    target = out if out is not None else bench / "audit.json"
    config = AuditReportConfig(
        AuditConfig(bench, against=tuple(against), runs=tuple(runs),
                    near=NEAR_THRESHOLD if near_threshold is None
                    else NEAR_THRESHOLD._replace(centre=near_threshold),
                    mirrored=not no_mirror, exact_near=exact_near,
                    corners=not no_corner_views,
                    question_method=question_method, workers=workers,
                    removes=_removes, irt=irt),
        target, html=None if no_html else target.with_suffix(".html"))
    audit = write_audit_report(config)
    console = Console(highlight=False)
    for line in summary_lines(audit):
        console.print(escape(line), soft_wrap=True)
    wrote = f"wrote {target}" + ("" if no_html else f" and {target.with_suffix('.html')}")
    console.print(escape(wrote), soft_wrap=True)
    if audit.fails(fail_on):
        Console(stderr=True).print(f"audit: findings at or above {fail_on} (exit {GATE_EXIT})",
                                   highlight=False)
        raise typer.Exit(GATE_EXIT)
