"""``run_audit``: every check of one benchmark, in one pass over its items and images.

Order: read the benchmark (items streamed into the shortcut tallies, images fingerprinted),
then leakage across its splits, contamination against each ``--against`` collection, question
duplicates, shortcuts, and guessability from ``--runs``. Nothing is random and nothing depends
on the clock, so the same inputs give the same audit.json bytes.
"""

from __future__ import annotations

from pathlib import Path

from medvqa.benchmark.audit._collection import Collection, read_benchmark, read_collection
from medvqa.benchmark.audit._config import AuditConfig
from medvqa.benchmark.audit._contamination import exact_matches, near_matches
from medvqa.benchmark.audit._guess import guessability
from medvqa.benchmark.audit._hashing import (
    CORNER_CUT,
    CORNER_NAMES,
    HASH_VERSION,
)
from medvqa.benchmark.audit._item_quality import item_quality
from medvqa.benchmark.audit._leakage import (
    byte_and_pixel_leaks,
    case_leaks,
    leaked_by_split,
    near_leaks,
)
from medvqa.benchmark.audit._model import (
    CHECKS,
    SEVERITIES,
    AuditFile,
    AuditSettings,
    Finding,
    IrtRef,
    Summary,
)
from medvqa.benchmark.audit._near import near_duplicates
from medvqa.benchmark.audit._questions import question_findings, resolve_method
from medvqa.benchmark.audit._severity import capped
from medvqa.benchmark.audit._shortcuts import ShortcutTally
from medvqa.errors import UsageError
from medvqa.store import atomic_write_text


def _check(config: AuditConfig) -> None:
    if not 0 <= config.near.centre <= 24:
        raise UsageError(f"--near-threshold {config.near.centre}: use 0 to 24 bits")
    if not 0 < config.alpha < 1:
        raise UsageError(f"--alpha {config.alpha}: use a level between 0 and 1")
    if config.question_similarity is not None and not 0 < config.question_similarity <= 1:
        raise UsageError(f"--question-similarity {config.question_similarity}: use (0, 1]")


def run_audit(config: AuditConfig) -> AuditFile:
    """Audit ``config.bench`` (see :class:`AuditConfig`).

    Raises:
        BadInputError: the benchmark has no items, a folder is missing, a run is not scored.
        UsageError: a threshold out of range, an unknown question method.
        MissingDependencyError: ``embeddings`` without sentence-transformers.

    """
    from medvqa import __version__

    _check(config)
    try:
        questions = resolve_method(config.question_method, config.question_similarity)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    tally = ShortcutTally()
    bench = read_benchmark(Path(config.bench), "bench", config.workers, tally.add)
    others = [read_collection(Path(p), f"against{n + 1}", config.workers)
              for n, p in enumerate(config.against)]
    findings: list[Finding] = list(bench.problems)
    leaked: set[int] = set()
    findings += case_leaks(bench, leaked)
    findings += byte_and_pixel_leaks(bench, leaked)
    near, mirror, exact, crop = config.near, config.mirrored, config.exact_near, config.corners
    findings += near_leaks(bench, near_duplicates(bench.images, None, mirror, near, exact, crop),
                           leaked)
    for other in others:
        findings += other.problems
        findings += exact_matches(bench, other)
        findings += near_matches(bench, other, near_duplicates(bench.images, other.images,
                                                               mirror, near, exact, crop))
    findings += question_findings(bench, questions, config.embedding_model)
    findings += tally.findings(config.alpha)
    runs, guesses = guessability([Path(r) for r in config.runs], bench.info.items_sha256,
                                 config.removes)
    findings += guesses
    irt = None
    if config.irt is not None:
        cal, quality = item_quality(Path(config.irt), bench.info.items_sha256)
        findings += quality
        irt = IrtRef(path=str(config.irt), item_model=cal.item_model, models=len(cal.models),
                     suspected_label_errors=cal.quality.suspected_label_errors,
                     broken=cal.quality.broken, uninformative=cal.quality.uninformative)
    return AuditFile(
        tool_version=__version__,
        benchmark=bench.info,
        against=[o.info for o in others],
        runs=runs,
        irt=irt,
        settings=AuditSettings(near_threshold=near.centre, whole_threshold=near.whole,
                               fine_threshold=near.fine, mirrored=mirror,
                               hash_version=HASH_VERSION,
                               corner_views=len(CORNER_NAMES) if crop else 0,
                               corner_cut=CORNER_CUT if crop else 0.0,
                               near_search="exact" if exact else "sampled",
                               question_method=questions.method,
                               question_similarity=questions.similarity, alpha=config.alpha,
                               seed=config.seed),
        counts=_counts(bench),
        summary=_summary(findings, leaked_by_split(bench, leaked)),
        findings=capped(findings, config.max_findings),
    )


def _counts(bench: Collection) -> dict[str, object]:
    by_split: dict[str, int] = {}
    by_type: dict[str, int] = {}
    for item in bench.items:
        by_split[item.split] = by_split.get(item.split, 0) + 1
        by_type[item.question_type] = by_type.get(item.question_type, 0) + 1
    return {"items": len(bench.items), "images": len(bench.images),
            "unreadable_images": bench.info.unreadable,
            "by_split": dict(sorted(by_split.items())),
            "by_question_type": dict(sorted(by_type.items()))}


def _summary(findings: list[Finding], leaked: dict[str, int]) -> Summary:
    by_check: dict[str, dict[str, int]] = {}
    for f in findings:
        row = by_check.setdefault(f.check, {})
        row[f.severity] = row.get(f.severity, 0) + 1
    return Summary(
        by_severity={s: sum(1 for f in findings if f.severity == s) for s in SEVERITIES},
        by_check={c: {s: row[s] for s in SEVERITIES if s in row}
                  for c, row in sorted(by_check.items(), key=lambda kv: _order(kv[0]))},
        leaked_items=leaked)


def write_audit(audit: AuditFile, path: str | Path) -> Path:
    """Write ``audit`` as JSON (indented, UTF-8) atomically; return the path."""
    path = Path(path)
    atomic_write_text(path, audit.model_dump_json(indent=2) + "\n")
    return path


def summary_lines(audit: AuditFile) -> list[str]:
    """The summary in a few lines for people (the command line and the dataset card)."""
    sev = audit.summary.by_severity
    lines = [", ".join(f"{sev.get(s, 0)} {s}" for s in SEVERITIES)]
    for check, row in audit.summary.by_check.items():
        lines.append(f"{check}: " + ", ".join(f"{n} {s}" for s, n in row.items()))
    if audit.summary.leaked_items:
        lines.append("items sharing a case or an image with another split: " + ", ".join(
            f"{s} {n}" for s, n in audit.summary.leaked_items.items()))
    if audit.irt is not None:
        q = audit.irt
        lines.append(f"item quality ({q.item_model} on {q.models} models, {q.path}): "
                     f"{q.suspected_label_errors} suspected wrong answer keys, {q.broken} "
                     f"broken or ambiguous, {q.uninformative} uninformative")
    return lines


def _order(check: str) -> tuple[int, str]:
    return (CHECKS.index(check) if check in CHECKS else len(CHECKS), check)
