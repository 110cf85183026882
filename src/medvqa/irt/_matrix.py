"""The zoo's response matrix: scored RUN/ folders of one benchmark, one row per model.

Each run under each asked condition is one model of the zoo (a run's ``blind`` answers are a
model of its own: the one that never sees the image). A cell is 1 (right), 0 (wrong) or
missing (the model was not asked the item, or its request failed: a failure is no answer, never
a wrong one). The option text each model chose is kept too: it is what tells a wrong key from
a hard item (the stronger models agree on another answer).

Refused, before anything is fitted: a run of other items (another benchmark, or another
version of it: items_sha256 differs), a run that was never scored (``correct`` is filled by
``medvqa score``), runs scored with different parser styles, and fewer models than
:data:`MIN_MODELS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from medvqa.benchmark import bad_item_lines, iter_items
from medvqa.errors import BadInputError
from medvqa.schema import (
    BENCHMARK_FILE,
    CLEAN,
    ITEMS_FILE,
    METRICS_FILE,
    PREDICTIONS_FILE,
    RUN_FILE,
    Benchmark,
    InputError,
    Item,
    MetricsFile,
    Prediction,
    RecordError,
    RunInfo,
    file_sha256,
    read_json,
    read_numbered,
)

#: Fewest models a calibration accepts: below it an item's slope is not estimable at all.
MIN_MODELS = 5


@dataclass
class ZooModel:
    """One row of the matrix: a run under one condition."""

    name: str
    run: str
    spec: str
    condition: str


@dataclass
class ResponseMatrix:
    """What the zoo answered.

    Attributes:
        bench: benchmark.json.
        items_sha256: SHA-256 of items.jsonl.
        items: the items, in benchmark order.
        models: the rows.
        correct: models × items of 1.0, 0.0 or NaN (not answered).
        chosen: models × items of the chosen option's text ("" when none was read or asked).
        style: the parser style the runs were scored with.
    """

    bench: Benchmark
    items_sha256: str
    items: list[Item]
    models: list[ZooModel]
    correct: np.ndarray
    chosen: np.ndarray
    style: str

    @property
    def case_labels(self) -> np.ndarray:
        """Integer case label per item (an item without a case is its own)."""
        keys = [it.case_id if it.case_id is not None else f"\x00{it.id}" for it in self.items]
        _, inverse = np.unique(np.asarray(keys, dtype=object).astype(str), return_inverse=True)
        return np.asarray(inverse.reshape(-1))


def read_bench_items(bench_dir: Path) -> tuple[Benchmark, str, list[Item]]:
    """benchmark.json, the SHA-256 of items.jsonl and its items (a bad line is refused)."""
    bench_dir = Path(bench_dir)
    for name in (BENCHMARK_FILE, ITEMS_FILE):
        if not (bench_dir / name).is_file():
            raise BadInputError(f"{bench_dir / name}: file is missing (is {bench_dir} a "
                                "benchmark folder?)")
    try:
        card = read_json(bench_dir / BENCHMARK_FILE, Benchmark)
    except InputError as exc:
        raise BadInputError(str(exc)) from None
    errors: list[RecordError] = []
    items = [item for _, item in iter_items(bench_dir / ITEMS_FILE, errors)]
    if errors:
        raise bad_item_lines(str(errors[0]), len(errors), "nothing was fitted")
    if not items:
        raise BadInputError(f"{bench_dir / ITEMS_FILE}: no items")
    return card, file_sha256(bench_dir / ITEMS_FILE), items


def _run_info(run_dir: Path, sha: str, bench_dir: Path) -> RunInfo:
    path = run_dir / RUN_FILE
    if not path.is_file():
        raise BadInputError(f"{path}: file is missing (is {run_dir} a RUN/ folder?)")
    try:
        info = read_json(path, RunInfo)
    except InputError as exc:
        raise BadInputError(str(exc)) from None
    if info.items_sha256 != sha:
        raise BadInputError(
            f"{path}: items_sha256: the run was made on other items (benchmark "
            f"{info.benchmark_name!r} {info.benchmark_version!r}, items_sha256 "
            f"{info.items_sha256[:12]}…), not on {bench_dir} ({sha[:12]}…); calibrate each "
            "benchmark version on its own runs")
    return info


def _style(run_dir: Path) -> str:
    path = run_dir / METRICS_FILE
    if not path.is_file():
        raise BadInputError(f"{run_dir}: not scored (no {METRICS_FILE}); run `medvqa score "
                            f"BENCH/ {run_dir}` first")
    try:
        return read_json(path, MetricsFile).style
    except InputError as exc:
        raise BadInputError(str(exc)) from None


def read_matrix(bench_dir: Path, runs: list[Path], conditions: tuple[str, ...] = (CLEAN,),
                min_models: int = MIN_MODELS) -> ResponseMatrix:
    """Read every run's scored predictions under ``conditions`` into one matrix.

    Raises:
        BadInputError: a run of other items, an unscored run, runs scored with different
            styles, a prediction line that is not one (file, line, field), a run with none of
            the conditions, or fewer than ``min_models`` models (says how many more).
    """
    from medvqa.conditions import get_condition

    bench_dir = Path(bench_dir)
    card, sha, items = read_bench_items(bench_dir)
    index = {it.id: i for i, it in enumerate(items)}
    rows_correct: list[np.ndarray] = []
    rows_chosen: list[np.ndarray] = []
    models: list[ZooModel] = []
    styles: dict[str, str] = {}
    for run_dir in dict.fromkeys(Path(r) for r in runs):
        info = _run_info(run_dir, sha, bench_dir)
        styles[str(run_dir)] = _style(run_dir)
        pred_path = run_dir / PREDICTIONS_FILE
        if not pred_path.is_file():
            raise BadInputError(f"{pred_path}: file is missing")
        wanted = [c for c in conditions if c in info.conditions]
        if not wanted:
            raise BadInputError(f"{run_dir / RUN_FILE}: conditions: none of "
                                f"{', '.join(conditions)} was asked ({', '.join(info.conditions)})")
        shown = {c: get_condition(c, seed=info.seed).transform_item for c in wanted}
        correct = {c: np.full(len(items), np.nan) for c in wanted}
        chosen = {c: np.full(len(items), "", dtype=object) for c in wanted}
        for lineno, pred in read_numbered(pred_path, Prediction):
            if pred.condition not in correct or pred.error is not None:
                continue
            i = index.get(pred.item_id)
            if i is None:
                continue  # an item the benchmark no longer has: score reported it already
            if pred.correct is None:
                raise BadInputError(f"{pred_path}:{lineno}: correct: not scored; run `medvqa "
                                    f"score BENCH/ {run_dir}` first")
            correct[pred.condition][i] = float(pred.correct)
            if isinstance(pred.choice, str):
                options = shown[pred.condition](items[i]).options
                chosen[pred.condition][i] = options.get(pred.choice, pred.choice)
        name = info.display_name or info.model
        for c in wanted:
            models.append(ZooModel(name if c == CLEAN else f"{name} [{c}]", str(run_dir),
                                   info.model, c))
            rows_correct.append(correct[c])
            rows_chosen.append(chosen[c])
    if len(set(styles.values())) > 1:
        listed = ", ".join(f"{r}: {s}" for r, s in styles.items())
        raise BadInputError(f"runs scored with different parser styles ({listed}); score them "
                            "all with one --style")
    if len(models) < min_models:
        raise BadInputError(
            f"{len(models)} model(s) given; a calibration needs at least {min_models} "
            f"(add {min_models - len(models)} more scored runs, or more --conditions)")
    return ResponseMatrix(card, sha, items, models, np.vstack(rows_correct),
                          np.vstack(rows_chosen), next(iter(styles.values())))
