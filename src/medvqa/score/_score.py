"""``score_run``: parse a run's predictions, write choices back, and write ``metrics.json``.

Each condition is parsed with a fresh parser, in prediction-file order (so the ``pathmmu``
style's seeded fallback is reproducible). Conditions that change an item (``permute@k`` shifts
options, ``swap`` changes the question) are re-derived from the condition registry, never read
from storage. Errored requests are counted and left out: a failed API call is not a wrong
answer. A prediction that cannot be scored (unknown item, bad options) is reported by item id and
skipped; the rest is scored.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from medvqa.conditions import condition_order, describe, get_condition
from medvqa.errors import BadInputError
from medvqa.schema import (
    BENCHMARK_FILE,
    CACHE_FILE,
    ITEMS_FILE,
    METRICS_FILE,
    PREDICTIONS_FILE,
    RUN_FILE,
    Benchmark,
    ConditionMetrics,
    Item,
    MetricsFile,
    Prediction,
    RecordError,
    RunInfo,
    file_sha256,
    iter_json_lines,
    read_json,
    read_jsonl,
    write_json,
    write_jsonl,
)
from medvqa.score._block import confusion, metrics_block
from medvqa.score._bootstrap import cluster_index
from medvqa.score._by import group_key
from medvqa.score._config import ScoreConfig
from medvqa.score._controls import control_table
from medvqa.score._coverage import coverage
from medvqa.score._failure_modes import FailureCounts, needs_judge
from medvqa.score._family import adjust_family
from medvqa.score._judge import Candidate, JudgeResult, run_judge, write_verdicts
from medvqa.score._provenance import Provenance, check_benchmark, run_identity
from medvqa.score._rows import ScoredRow, score_row
from medvqa.score._subgroups import subgroup_analysis
from medvqa.score.parsers import make_parser

log = logging.getLogger(__name__)




@dataclass
class ScoreResult:
    """The metrics written, and what was skipped and why."""

    metrics: MetricsFile
    problems: list[str] = field(default_factory=list)


def _condition_transform(name: str, seed: int) -> Callable[[Item], Item]:
    return get_condition(name, seed).transform_item


def _with_ids(errors: list[RecordError], id_key: str) -> list[str]:
    """One line per bad record, naming the item id when the line has one."""
    if not errors:
        return []
    wanted = {e.line for e in errors}
    ids: dict[int, str] = {}
    for lineno, rec, _ in iter_json_lines(errors[0].file):
        if lineno in wanted and isinstance(rec, dict) and rec.get(id_key) is not None:
            ids[lineno] = str(rec[id_key])
    return [f"{e.file}:{e.line}: item {ids[e.line]}: {e.field}: {e.message}" if e.line in ids
            else str(e) for e in errors]


def load_items(bench_dir: Path, problems: list[str]) -> dict[str, Item]:
    """The benchmark's items by id; bad lines are reported (with their item id) and skipped."""
    errors: list[RecordError] = []
    items = {i.id: i for i in read_jsonl(bench_dir / ITEMS_FILE, Item, errors)}
    problems.extend(_with_ids(errors, "id"))
    return items


def score_run(config: ScoreConfig) -> ScoreResult:
    """Score one RUN/ against its BENCH/ and write metrics.json and scored predictions."""
    bench_dir, run_dir = Path(config.bench_dir), Path(config.run_dir)
    pred_path = run_dir / PREDICTIONS_FILE
    if not (bench_dir / ITEMS_FILE).is_file():
        raise BadInputError(f"{bench_dir}: not a benchmark folder (no {ITEMS_FILE})")
    if not pred_path.is_file():
        raise BadInputError(f"{run_dir}: no {PREDICTIONS_FILE} (run `medvqa run` first)")
    problems: list[str] = []
    items = load_items(bench_dir, problems)
    run_info = read_json(run_dir / RUN_FILE, RunInfo) if (run_dir / RUN_FILE).is_file() else None
    bench_sha = file_sha256(bench_dir / ITEMS_FILE)
    mismatch = check_benchmark(run_info, bench_sha, run_dir, bench_dir,
                               config.allow_other_benchmark)
    seed = run_info.seed if run_info else 0
    preds_errors: list[RecordError] = []
    predictions = list(read_jsonl(pred_path, Prediction, preds_errors))
    problems.extend(_with_ids(preds_errors, "item_id"))
    if not predictions:
        raise BadInputError(f"{pred_path}: the run is empty (no predictions to score)")

    parsers: dict[str, object] = {}
    transforms: dict[str, Callable[[Item], Item]] = {}
    rows: dict[str, list[ScoredRow]] = defaultdict(list)
    failures: dict[str, FailureCounts] = defaultdict(FailureCounts)
    errors: dict[str, list[Prediction]] = defaultdict(list)
    judge_queue: dict[str, list[Candidate]] = defaultdict(list)
    scored: list[Prediction] = []
    for pred in predictions:
        item = items.get(pred.item_id)
        if item is None:
            problems.append(f"{pred_path}: item {pred.item_id}: not in {bench_dir / ITEMS_FILE}")
            scored.append(pred)
            continue
        if pred.error is not None or pred.response is None:
            errors[pred.condition].append(pred)
            scored.append(pred)
            continue
        cond = pred.condition
        if cond not in transforms:
            transforms[cond] = _condition_transform(cond, seed)
        # The style applies to choice questions; open and region answers have their own parsers.
        style = item.question_type if item.question_type in {"open", "region"} else config.style
        key = f"{cond}\x00{style}"
        if key not in parsers:
            parsers[key] = make_parser(style, seed=config.parser_seed)
        shown = transforms[cond](item)
        # The raw response is kept; every parser sets reasoning aside itself, whatever run.json
        # says about the model.
        row = score_row(shown, pred, parsers[key])  # type: ignore[arg-type]
        rows[cond].append(row)
        tags = failures[cond].add(pred.response, row, shown.options)
        if config.judge is not None and needs_judge(tags, row):
            judge_queue[cond].append(Candidate(shown, cond, pred.response))
        scored.append(pred.model_copy(update={
            "choice": row.choice, "correct": row.correct, "invalid": row.invalid}))
    predictions_sha = write_jsonl(pred_path, scored)

    conditions = {
        cond: _condition_metrics(rows[cond], config, len(errors[cond]))
        for cond in sorted(set(rows) | set(errors), key=condition_order)
    }
    conditions.update(_combined(rows, config))
    all_rows = [r for rs in rows.values() for r in rs]
    clustering = _clustering(all_rows, config.cluster)
    card = bench_dir / BENCHMARK_FILE
    bench = read_json(card, Benchmark) if card.is_file() else None
    metrics = MetricsFile(
        style=config.style,
        n=len(all_rows),
        seed=config.seed,
        resamples=config.resamples,
        clustered=clustering.startswith("cases"),
        clustering=clustering,
        skipped=len(problems),
        model=run_info.model if run_info else "",
        benchmark=bench.name if bench else bench_dir.name,
        conditions=conditions,
    )
    controls = control_table(rows, config.resamples, config.seed, config.cluster)
    metrics.controls = controls.model_dump() if controls is not None else None
    metrics.tests_adjusted = adjust_family(metrics)
    metrics.failure_modes = {
        c: failures[c].as_dict() for c in sorted(failures, key=condition_order)
    }
    metrics.provenance = Provenance(
        run=run_identity(run_info), predictions_sha256=predictions_sha,
        benchmark_items_sha256=bench_sha, benchmark_mismatch_allowed=mismatch).model_dump()
    metrics.coverage = coverage(items, run_info, predictions,
                                {c: sum(r.correct for r in rs) for c, rs in rows.items()})
    if config.judge is not None:
        _add_judge(metrics, run_judge(config.judge, dict(judge_queue), run_dir / CACHE_FILE,
                                      bench_dir), run_dir, run_info)
    write_json(run_dir / METRICS_FILE, metrics)
    return ScoreResult(metrics, problems)


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


def _clustering(rows: list[ScoredRow], cluster: bool) -> str:
    """What the intervals and tests resampled, in words (written to metrics.json)."""
    by_item = {r.item_id: r.case_id for r in rows}
    cases = cluster_index(list(by_item.values()), len(by_item))
    if cases is None:
        return "items (no case contributes more than one item)"
    n_cases = int(cases.max()) + 1
    if not cluster:
        return f"items (--no-cluster; {n_cases} cases share {len(by_item)} items)"
    return f"cases ({n_cases} cases, {len(by_item)} items)"


def _condition_metrics(rows: list[ScoredRow], config: ScoreConfig, errors: int) -> ConditionMetrics:
    overall = metrics_block(rows, config.resamples, config.seed, config.cluster, errors)
    by: dict[str, dict[str, object]] = {}
    for field_name in config.by:
        groups: dict[str, list[ScoredRow]] = defaultdict(list)
        for r in rows:
            groups[group_key(r, field_name)].append(r)
        if len(groups) > 1 or field_name == "category":
            by[field_name] = {
                g: metrics_block(rs, config.resamples, config.seed, config.cluster)
                for g, rs in sorted(groups.items())
            }
    return ConditionMetrics(
        overall=overall,
        by=by,  # type: ignore[arg-type]
        subgroups=subgroup_analysis(rows, config.age_bands, config.cluster, config.resamples,
                                    config.seed),
        confusion=confusion(rows),
    )


def _combined(rows: dict[str, list[ScoredRow]],
              config: ScoreConfig) -> dict[str, ConditionMetrics]:
    """Every combined condition (``Condition.combined_as``: ``permute@k`` → ``permute``)."""
    members: dict[str, list[str]] = defaultdict(list)
    for cond in rows:
        if (into := describe(cond).combined_as):
            members[into].append(cond)
    return {into: _circular(rows, shifts, into, config)
            for into, shifts in sorted(members.items())}


def _circular(rows: dict[str, list[ScoredRow]], shifts: list[str], into: str,
              config: ScoreConfig) -> ConditionMetrics:
    """Circular evaluation: an item is right only if right under every option shift."""
    by_item: dict[str, list[ScoredRow]] = defaultdict(list)
    for cond in shifts:
        for r in rows[cond]:
            by_item[r.item_id].append(r)
    combined: list[ScoredRow] = []
    consistent = 0
    for group in by_item.values():
        first = group[0]
        all_ok = all(r.correct for r in group)
        any_invalid = any(r.invalid for r in group)
        consistent += len({r.pred_class for r in group}) == 1
        combined.append(ScoredRow(**{**first.__dict__, "condition": into,
                                     "correct": all_ok, "invalid": any_invalid}))
    metrics = _condition_metrics(combined, config, 0)
    metrics.consistency = round(consistent / len(by_item), 6)
    return metrics
