"""``medvqa review adjudicate BENCH/ RUN/…``: queue a run's responses for clinicians to read.

Per run and audited condition (the baseline, ``clean``, unless others are named):

- a seeded random **audit sample** of its responses to choice items, stratified by the reader's
  decision as scored (``read``, ``invalid``, ``extracted``), :func:`~medvqa.stats.allocate`
  (∝ √N_h) giving each stratum its share; each sampled response keeps its weight N_h / n_h.
  A sample larger than the run is capped at the run, with a note;
- every response two readers read differently: the rules and the extractor (a response the
  extractor rescued), or two compared styles (RUN/``style_disagreements.jsonl``).

Identical (options, response) pairs — from several items or runs — become one question, read
once. The sample is served in a seeded random order, so whatever part is finished is itself a
random sample of each stratum. A run is identified by the hash of its responses
(:class:`~medvqa.schema.PopulationHash`); queuing it again is a no-op.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from medvqa.conditions import baseline_of, get_condition
from medvqa.errors import BadInputError
from medvqa.review._audit_store import AuditStore, QueuedEntry
from medvqa.review._bench import ReviewBench
from medvqa.review._config import AdjudicateConfig
from medvqa.rng import rng_for
from medvqa.schema import (
    PREDICTIONS_FILE,
    RUN_FILE,
    STRATA,
    AuditDesign,
    AuditEntry,
    AuditStratum,
    Item,
    PopulationHash,
    Prediction,
    RunInfo,
    iter_json_lines,
    question_key,
    read_json,
    read_numbered,
)
from medvqa.stats import allocate, draw_stratified

#: Every prediction two styles read differently (written by ``medvqa score --styles``).
DISAGREEMENTS_FILE = "style_disagreements.jsonl"


@dataclass
class Queued:
    """What was queued for one run and condition."""

    run: Path
    condition: str
    responses: int
    sampled: int
    disagreements: int
    strata: dict[str, AuditStratum]
    new: bool
    notes: list[str] = field(default_factory=list)


@dataclass
class _Line:
    pred: Prediction
    item: Item
    stratum: str
    reader: dict[str, Any]


def _decision(pred: Prediction) -> tuple[str, dict[str, Any]]:
    """The reader's decision on a scored line (the automatic one where a human's replaced it)."""
    auto: dict[str, Any] = pred.reader if pred.read_by and pred.reader else {
        "choice": pred.choice, "correct": pred.correct, "invalid": pred.invalid,
        "extracted_by": pred.extracted_by}
    stratum = ("extracted" if auto.get("extracted_by") else
               "invalid" if auto.get("invalid") else "read")
    extracted = auto.get("extracted_by")
    by = (f"extractor {extracted.get('model', '')}".strip() if isinstance(extracted, dict)
          else "rules")
    return stratum, {"choice": auto.get("choice"), "correct": auto.get("correct"),
                     "invalid": auto.get("invalid"), "by": by}


def _lines(bench: ReviewBench, run_dir: Path) -> tuple[RunInfo | None, dict[str, list[_Line]]]:
    """The run's scored responses to choice items, by condition, in file order."""
    pred_path = run_dir / PREDICTIONS_FILE
    if not pred_path.is_file():
        raise BadInputError(f"{run_dir}: no {PREDICTIONS_FILE} (not a RUN/ folder)")
    info = read_json(run_dir / RUN_FILE, RunInfo) if (run_dir / RUN_FILE).is_file() else None
    if info is not None and info.items_sha256 and info.items_sha256 != bench.card.items_sha256:
        raise BadInputError(
            f"{run_dir}: the run was made for another benchmark (run.json items_sha256 "
            f"{info.items_sha256[:12]}…, {bench.path} is {bench.card.items_sha256[:12]}…)")
    out: dict[str, list[_Line]] = defaultdict(list)
    bad: list[Any] = []
    for _, pred in read_numbered(pred_path, Prediction, bad):
        item = bench.items.get(pred.item_id)
        if pred.error is not None or pred.response is None or item is None or not item.options:
            continue
        if pred.invalid is None:
            raise BadInputError(f"{pred_path}: not scored yet (item {pred.item_id} has no "
                                f"reading); run `medvqa score {bench.path} {run_dir}` first")
        stratum, reader = _decision(pred)
        out[pred.condition].append(_Line(pred, item, stratum, reader))
    if bad:
        raise BadInputError(str(bad[0]))
    return info, dict(out)


def _style_disagreements(run_dir: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """(item id, condition) → the styles' readings, from style_disagreements.jsonl."""
    path = run_dir / DISAGREEMENTS_FILE
    out: dict[tuple[str, str], dict[str, Any]] = {}
    if not path.is_file():
        return out
    for line in iter_json_lines(path):
        row = line.value
        if line.error or not isinstance(row, dict) or "item_id" not in row:
            continue
        styles = {k: v for k, v in row.items()
                  if k not in {"item_id", "condition", "response"} and not k.endswith("_correct")}
        out[(str(row["item_id"]), str(row.get("condition", "clean")))] = styles
    return out


def queue_run(bench: ReviewBench, audit: AuditStore, run_dir: Path,
              config: AdjudicateConfig) -> list[Queued]:
    """Queue one run's audit sample and disagreements; one :class:`Queued` per condition."""
    run_dir = Path(run_dir)
    info, lines = _lines(bench, run_dir)
    run_seed = info.seed if info else 0
    wanted = list(config.conditions) or [c for c in [baseline_of(lines)] if c]
    if not wanted:
        raise BadInputError(f"{run_dir}: no scored response to a choice item under a baseline "
                            "condition; name the conditions to audit with --conditions")
    missing = [c for c in wanted if c not in lines]
    if missing:
        raise BadInputError(f"{run_dir}: no scored response under {', '.join(missing)} "
                            f"(it has {', '.join(sorted(lines)) or 'none'})")
    styles = _style_disagreements(run_dir)
    return [_queue_condition(bench, audit, run_dir, info, cond, lines[cond], styles, run_seed,
                             config) for cond in wanted]


def _queue_condition(bench: ReviewBench, audit: AuditStore, run_dir: Path,
                     info: RunInfo | None, cond: str, lines: list[_Line],
                     styles: dict[tuple[str, str], dict[str, Any]], run_seed: int,
                     config: AdjudicateConfig) -> Queued:
    population = PopulationHash()
    by_stratum: dict[str, list[int]] = {h: [] for h in STRATA}
    for i, line in enumerate(lines):
        population.add(line.pred.item_id, cond, line.pred.response or "")
        by_stratum[line.stratum].append(i)
    pop = population.hexdigest()
    sizes = {h: len(v) for h, v in by_stratum.items()}
    notes = []
    if config.sample > len(lines):
        notes.append(f"--sample {config.sample} is more than the {len(lines)} responses of "
                     f"{run_dir.name} ({cond}): all {len(lines)} are taken")
    counts = allocate(sizes, config.sample)
    rng = rng_for(config.seed, "audit", pop, cond)
    drawn = draw_stratified({h: np.asarray(v, dtype=np.int64) for h, v in by_stratum.items()},
                            counts, rng)
    sampled = [(h, int(i)) for h in STRATA for i in drawn[h]]
    order = rng.permutation(len(sampled))
    transform = get_condition(cond, run_seed).transform_item
    queued: list[QueuedEntry] = []

    def add(i: int, kind: str, rank: int, stratum: str | None, weight: float | None,
            extra: dict[str, Any] | None = None) -> None:
        line = lines[i]
        shown = transform(line.item)
        response = line.pred.response or ""
        entry = AuditEntry(population_sha256=pop, item_id=line.pred.item_id, condition=cond,
                           question_key=question_key(shown.question_type, shown.options,
                                                     response),
                           kind=kind, stratum=stratum, weight=weight, rank=rank)  # type: ignore[arg-type]
        queued.append(QueuedEntry(entry, line.pred.item_id, shown.question, shown.question_type,
                                  dict(shown.options), response,
                                  {**line.reader, **(extra or {})}))

    for rank, pos in enumerate(order.tolist()):
        h, i = sampled[pos]
        add(i, "sample", rank, h, sizes[h] / counts[h])
    others = 0
    for i, line in enumerate(lines):
        key = (line.pred.item_id, cond)
        if line.stratum == "extracted" or key in styles:
            add(i, "disagreement", len(sampled) + others, line.stratum,
                None, {"styles": styles[key]} if key in styles else None)
            others += 1
    strata = {h: AuditStratum(population=sizes[h], sampled=counts[h]) for h in STRATA}
    design = AuditDesign(run=run_dir.name, model=info.model if info else "", condition=cond,
                         population_sha256=pop, responses=len(lines), requested=config.sample,
                         seed=config.seed, readers=config.readers, strata=strata)
    new = audit.add_design(bench.key, design, queued)
    if not new:
        notes.append(f"{run_dir.name} ({cond}) is queued already (the same responses); "
                     "nothing was added")
    return Queued(run_dir, cond, len(lines), len(sampled), others, strata, new, notes)
