"""``score_run``: parse a run's predictions, write choices back, and write ``metrics.json``.

Three passes, none holding the run in memory: items.jsonl is read once into arrays
(:mod:`medvqa.score._items`); predictions.jsonl is read once, each line scored and written back
as it goes (:mod:`medvqa.score._stream`); then every figure of every condition, breakdown and
control is planned, and the bootstrap draws its resamples once for all of them
(:mod:`medvqa.stats._resample`). A prediction that cannot be scored (bad line, unknown item) is
reported by item id and skipped; the rest is scored.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from medvqa.conditions import baseline_of, condition_order
from medvqa.errors import BadInputError
from medvqa.reading import ExtractResult, extract_answers, prepare_extractor
from medvqa.schema import (
    BENCHMARK_FILE,
    CACHE_FILE,
    ITEMS_FILE,
    METRICS_FILE,
    PREDICTIONS_FILE,
    RUN_FILE,
    Benchmark,
    MetricsFile,
    Power,
    RunInfo,
    file_sha256,
    read_json,
    write_json,
)
from medvqa.score._adjudication import HumanReader
from medvqa.score._config import ScoreConfig
from medvqa.score._controls import PendingControls, control_table
from medvqa.score._coverage import coverage, simple_conditions
from medvqa.score._family import adjust_family
from medvqa.score._items import ItemTable, read_items
from medvqa.score._judge import JudgeResult, run_judge, write_verdicts
from medvqa.score._per_condition import (
    MAX_GROUPS,
    PendingCondition,
    RunData,
    block_arrays,
    case_index,
    combined_conditions,
    pending_condition,
    run_units,
)
from medvqa.score._power import run_power
from medvqa.score._provenance import Provenance, check_benchmark, run_identity
from medvqa.score._reading import (
    DISAGREEMENTS_FILE,
    EXTRACTIONS_FILE,
    ReadingTally,
    collect_candidates,
)
from medvqa.score._stream import Problems, StreamConfig, Tally, score_lines
from medvqa.score._table import Rows
from medvqa.stats import Resampler
from medvqa.store import atomic_writer

log = logging.getLogger(__name__)


@dataclass
class ScoreResult:
    """The metrics written, what was skipped and why, and what was left out.

    Attributes:
        metrics: the metrics.json written.
        problems: bad lines and unknown items, one line each (the first
            :data:`~medvqa.score._stream.SHOWN_PROBLEMS`, then a line counting the rest;
            ``metrics.skipped`` has the full count).
        notes: what was left out of metrics.json and why (a breakdown with too many values,
            conditions with failed requests).
    """

    metrics: MetricsFile
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def score_run(config: ScoreConfig) -> ScoreResult:
    """Score one RUN/ against its BENCH/ and write metrics.json and scored predictions."""
    bench_dir, run_dir = Path(config.bench_dir), Path(config.run_dir)
    pred_path = run_dir / PREDICTIONS_FILE
    if not (bench_dir / ITEMS_FILE).is_file():
        raise BadInputError(f"{bench_dir}: not a benchmark folder (no {ITEMS_FILE})")
    if not pred_path.is_file():
        raise BadInputError(f"{run_dir}: no {PREDICTIONS_FILE} (run `medvqa run` first)")
    problems = Problems()
    run_info = read_json(run_dir / RUN_FILE, RunInfo) if (run_dir / RUN_FILE).is_file() else None
    seed = run_info.seed if run_info else 0
    # items.jsonl first: a line that is not an item is the first thing to say (refused).
    items = read_items(bench_dir, config.by, config.age_bands,
                       [a.selection for a in run_info.asked_selections()] if run_info
                       else [{}], MAX_GROUPS,
                       simple_conditions(run_info.conditions if run_info else [], seed))
    bench_sha = file_sha256(bench_dir / ITEMS_FILE)
    mismatch = check_benchmark(run_info, bench_sha, run_dir, bench_dir,
                               config.allow_other_benchmark)
    extraction = reading = human = None
    # An earlier scoring's reader files would describe another reading than this one.
    for stale, asked in ((EXTRACTIONS_FILE, config.extract), (DISAGREEMENTS_FILE,
                                                              config.compare_styles)):
        if not asked:
            (run_dir / stale).unlink(missing_ok=True)
    try:
        if config.adjudication is not None:
            human = HumanReader.for_run(config.adjudication, config.adjudication_source
                                        or "--adjudication", bench_sha, pred_path, items,
                                        run_dir)
        if config.extract is not None:
            extraction = _extract(config, pred_path, items, seed)
        if extraction is not None or config.compare_styles or human is not None:
            reading = ReadingTally(extractions=extraction.by_key if extraction else {},
                                   compare=config.compare_styles, parser_seed=config.parser_seed)
        # The raw response is kept; every parser sets reasoning aside itself, whatever run.json
        # says about the model.
        with _disagreements(run_dir, reading):
            table, tally = score_lines(pred_path, items, StreamConfig(
                config.style, seed, config.parser_seed, config.judge is not None, reading,
                human, config.allow_other_benchmark), problems)
    finally:
        items.close()
    rows = table.freeze()
    del table
    _check_something_scored(pred_path, rows, tally)
    notes = _capped(items, config.by) + _failed(tally) + _extraction_notes(extraction)
    # Counted first, so the items' lines and id index can go before the plan, and the rows
    # and items before the resampling and the report.
    cov = coverage(items, run_info, tally, {c: int(rows.correct[rows.of(c)].sum())
                                            for c in rows.conditions})
    audit = human.block(items) if human is not None else None
    items.forget_lines()
    plan = _plan(items, rows, tally, config)
    n_scored = len(rows.item)
    del items, rows
    plan.resampler.run()
    card = bench_dir / BENCHMARK_FILE
    bench = read_json(card, Benchmark) if card.is_file() else None
    metrics = MetricsFile(
        style=config.style,
        n=n_scored,
        seed=config.seed,
        resamples=config.resamples,
        clustered=plan.clustering.startswith("cases"),
        clustering=plan.clustering,
        resample_groups=plan.resampler.groups if plan.resampler.grouped else None,
        skipped=problems.count,
        notes=notes,
        model=run_info.model if run_info else "",
        benchmark=bench.name if bench else bench_dir.name,
        conditions={c: p.finish() for c, p in plan.conditions.items()},
        power=plan.power,
    )
    finished = plan.controls.finish() if plan.controls is not None else None
    metrics.controls = finished.model_dump() if finished is not None else None
    metrics.test_families = adjust_family(metrics)
    metrics.tests_adjusted = sum(metrics.test_families.values())
    metrics.failure_modes = {
        c: tally.failures[c].as_dict() for c in sorted(tally.failures, key=condition_order)
    }
    metrics.provenance = Provenance(
        run=run_identity(run_info), predictions_sha256=tally.sha256,
        benchmark_items_sha256=bench_sha, benchmark_mismatch_allowed=mismatch).model_dump()
    metrics.coverage = cov
    metrics.seeds = {"bootstrap": config.seed, "parser": config.parser_seed, "conditions": seed}
    if reading is not None:
        metrics.reading = reading.block(config.style, extraction)
        if audit is not None:
            metrics.reading["audit"] = audit
    if run_info is not None and run_info.adaptive is not None:
        from medvqa.score._adaptive import adaptive_block

        metrics.adaptive = adaptive_block(bench_dir, run_dir, run_info)
    if config.judge is not None:
        _add_judge(metrics, run_judge(config.judge, dict(tally.judge_queue), run_dir / CACHE_FILE,
                                      bench_dir), run_dir, run_info)
    replaced = previous_style(run_dir / METRICS_FILE)
    if replaced is not None and replaced != config.style:
        notes.append(f"metrics.json read by style {replaced!r} was replaced by this reading "
                     f"with style {config.style!r}; `medvqa compare` and `medvqa report` refuse "
                     "runs read by different styles")
    write_json(run_dir / METRICS_FILE, metrics)
    return ScoreResult(metrics, problems.lines(), notes)


def previous_style(path: Path) -> str | None:
    """The ``style`` of the metrics.json at ``path``, or None (absent or unreadable)."""
    try:
        value = json.loads(path.read_text(encoding="utf-8")).get("style")
    except (OSError, ValueError, AttributeError):
        return None
    return str(value) if value is not None else None


def scored_items_sha256(path: Path) -> str | None:
    """The items SHA-256 the metrics.json at ``path`` was scored against, or None."""
    try:
        value = (json.loads(path.read_text(encoding="utf-8")).get("provenance") or {}).get(
            "benchmark_items_sha256")
    except (OSError, ValueError, AttributeError):
        return None
    return str(value) if value else None


def refuse_mixed_items(runs: dict[str, tuple[str, str | None]]) -> None:
    """Refuse runs of one benchmark name scored on different items.

    ``runs`` maps a run's name to (benchmark name, items SHA-256 it was scored on). Two
    versions of a benchmark (a reviewed v2 beside v1), or two benchmarks of one name, share
    item ids but not items: a leaderboard or a paired test across them would pair different
    questions under one id and say the models "answered the same items".

    Raises:
        BadInputError: two items SHA-256 under one benchmark name (each run named with its).

    >>> refuse_mixed_items({"a": ("lung", "1" * 64), "b": ("lung", "1" * 64)})
    >>> refuse_mixed_items({"a": ("lung", "1" * 64), "b": ("lung", "2" * 64)})
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    medvqa.errors.BadInputError: runs of benchmark 'lung' scored on different items: a (items ...
    """
    shas: dict[str, set[str]] = defaultdict(set)
    for bench, sha in runs.values():
        if sha:
            shas[bench].add(sha)
    for bench, seen in shas.items():
        if len(seen) > 1:
            named = ", ".join(f"{name} (items {sha[:12]})" for name, (b, sha) in runs.items()
                              if b == bench and sha)
            what = f"runs of benchmark {bench!r}" if bench else "runs"
            raise BadInputError(
                f"{what} scored on different items: {named}; report or "
                "compare runs of one version of a benchmark, or score them on one")


def refuse_mixed_styles(runs: dict[str, str]) -> None:
    """Refuse runs (name → style of their metrics.json) that were read by different styles.

    A figure read by the strict style (abstaining, the invalid rate reported) and one read by
    a published scorer's style (which guesses) are not the same measurement; setting them side
    by side, or testing their difference, would compare the readers as much as the models.

    Raises:
        BadInputError: two or more styles among ``runs`` (each run named with its style).

    """
    if len(set(runs.values())) > 1:
        named = ", ".join(f"{name} ({style})" for name, style in runs.items())
        raise BadInputError(f"runs read by different styles: {named}; score them all with the "
                            "same --style (`medvqa score BENCH RUN --style STYLE`)")


def _extract(config: ScoreConfig, pred_path: Path, items: ItemTable,
             seed: int) -> ExtractResult:
    """Ask the extractor about every response the rules leave open; write its decisions.

    The extractor and its prompt are checked before anything is asked (one line, exit 2).
    """
    assert config.extract is not None
    extractor = prepare_extractor(config.extract, config.bench_dir)
    candidates = list(collect_candidates(pred_path, items, config.style, seed,
                                         config.parser_seed))
    result = extract_answers(extractor, candidates, Path(config.run_dir) / CACHE_FILE)
    with atomic_writer(Path(config.run_dir) / EXTRACTIONS_FILE, "w") as out:
        for e in result.extractions:
            out.write(json.dumps(e.as_dict(), ensure_ascii=False) + "\n")
    return result


@contextmanager
def _disagreements(run_dir: Path, reading: ReadingTally | None) -> Iterator[None]:
    """Open style_disagreements.jsonl for the scoring pass when styles are compared."""
    if reading is None or not reading.compare:
        yield
        return
    with atomic_writer(run_dir / DISAGREEMENTS_FILE, "w") as out:
        reading.disagreements = out
        try:
            yield
        finally:
            reading.disagreements = None


def _extraction_notes(extraction: ExtractResult | None) -> list[str]:
    """A line when the extractor failed on every request it was sent (nothing was rescued)."""
    if extraction is None:
        return []
    counts = extraction.counts()
    if counts["asked"] and counts["errors"] == counts["asked"]:
        first = next((e.error for e in extraction.extractions if e.error), "")
        return [f"--extract {extraction.provenance.get('model', '')}: all {counts['asked']:,} "
                f"requests failed (first error: {(first or '')[:200]}); the figures are the "
                f"rules' alone (see {EXTRACTIONS_FILE})"]
    return []


@dataclass
class _Plan:
    """Every figure of the run, planned: intervals registered, not drawn yet."""

    resampler: Resampler
    clustering: str
    conditions: dict[str, PendingCondition]
    controls: PendingControls | None
    power: Power | None = None


def _plan(items: ItemTable, rows: Rows, tally: Tally, config: ScoreConfig) -> _Plan:
    """Units, then every condition's blocks, the combined conditions and the controls."""
    scored = np.zeros(len(items), dtype=bool)
    scored[rows.item] = True
    units, clustering = run_units(items.has_case, items.case, scored, config.cluster)
    resampler = Resampler(int(units.max(initial=-1)) + 1, config.resamples, config.seed)
    data = RunData(items, rows, units, resampler, config.by, config.resamples, config.seed)
    names = list(rows.conditions)
    pending = {cond: pending_condition(data, cond, block_arrays(rows, rows.of(cond)),
                                       tally.errors.get(cond, 0))
               for cond in sorted(set(names) | set(tally.errors), key=condition_order)}
    pending.update(combined_conditions(data, names))
    correct = {c: (rows.item[rows.of(c)], rows.correct[rows.of(c)]) for c in names}
    cats = items.groups["category"]
    controls = control_table(correct, cats.array(), None if cats.capped else cats.labels, units,
                             resampler)
    return _Plan(resampler, clustering, pending, controls, _power(items, correct))


def _power(items: ItemTable, correct: dict[str, tuple[np.ndarray, np.ndarray]]) -> Power | None:
    """metrics.json's ``power``: the baseline's items, their cases (clustering on or off)."""
    base = baseline_of(correct)
    if base is None:
        return None
    item, ok = correct[base]
    item, first = np.unique(item, return_index=True)
    return run_power(case_index(items.has_case[item], items.case[item]), ok[first])


def _check_something_scored(pred_path: Path, rows: Rows, tally: Tally) -> None:
    """Refuse a run with nothing to score: no prediction at all, or only failed requests."""
    failed = sum(tally.errors.values())
    if len(rows.item):
        return
    if not failed:
        raise BadInputError(f"{pred_path}: the run is empty (no predictions to score)")
    first = next(iter(tally.first_error.values()), "")
    raise BadInputError(
        f"{pred_path}: nothing to score: all {failed:,} predictions are failed requests "
        f"(first error: {first[:200]}); ask them again with `medvqa run BENCH -o RUN "
        "--retry-errors`")


def _capped(items: ItemTable, by: tuple[str, ...]) -> list[str]:
    """One line per breakdown left out for having too many values."""
    return [f"--by {name}: more than {MAX_GROUPS} distinct values in the benchmark; this "
            "breakdown is left out of metrics.json (a breakdown compares groups; use a "
            "coarser key)" for name in dict.fromkeys(("category", *by))
            if items.groups[name].capped and (name in by or name == "category")]


def _failed(tally: Tally) -> list[str]:
    """One line per condition with failed requests: how many, and the first message."""
    return [f"{cond}: {n:,} failed request(s) not scored (first error: "
            f"{tally.first_error.get(cond, '')[:200]}); `medvqa run --retry-errors` asks them "
            "again" for cond, n in sorted(tally.errors.items(), key=lambda x: condition_order(x[0]))
            if n]


def _add_judge(metrics: MetricsFile, result: JudgeResult, run_dir: Path,
               run_info: RunInfo | None) -> None:
    """Judge counts into failure_modes, its prompt into metrics.json and run.json."""
    for cond, block in (metrics.failure_modes or {}).items():
        block["judge"] = result.counts.get(cond) or result.empty
    metrics.failure_judge = result.provenance
    write_verdicts(run_dir, result.verdicts)
    if run_info is not None:
        write_json(run_dir / RUN_FILE, run_info.model_copy(
            update={"failure_judge": result.provenance}))
