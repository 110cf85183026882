"""Guessability: how well models answer without the image (from scored RUN/ folders).

For each RUN/ given (``--runs``), metrics.json is read; every condition that takes the image
away — known from what the condition declares it removes, which the caller passes in as
``removes`` (the audit sits below the conditions and never compares condition names), or from
run.json's ``model_info.text_only`` for a model that reads no image — gives one finding: its
accuracy with the 95 % bootstrap CI beside the random-guess baseline. A CI entirely above the
baseline is a warning: the question text alone answers better than chance. A run scored on
another version of the benchmark (items_sha256) is left out with a warning.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from medvqa.benchmark.audit._model import Finding, RunInfoRef, Severity
from medvqa.benchmark.audit._stats import signif
from medvqa.errors import BadInputError
from medvqa.schema import METRICS_FILE, RUN_FILE, InputError, MetricsFile, RunInfo, read_json

Removes = Callable[[str], frozenset[str]]


def _read(run: Path) -> tuple[MetricsFile, RunInfo | None]:
    """metrics.json (required) and run.json (if readable) of a RUN/.

    Raises:
        BadInputError: no metrics.json, or it is not a metrics file (one line).

    """
    if not (run / METRICS_FILE).is_file():
        raise BadInputError(f"{run}: no {METRICS_FILE} (score the run first: medvqa score "
                            f"BENCH/ {run})")
    metrics = read_json(run / METRICS_FILE, MetricsFile)
    info = None
    if (run / RUN_FILE).is_file():
        try:
            info = read_json(run / RUN_FILE, RunInfo)
        except InputError:
            info = None
    return metrics, info


def _figure(block: Any) -> dict[str, Any]:
    acc = block.accuracy
    return {"accuracy": None if acc.value is None else signif(acc.value),
            "ci": [None if v is None else signif(v) for v in acc.ci],
            "random_baseline": None if block.random_baseline is None
            else signif(block.random_baseline),
            "frequent_baseline": None if block.frequent_baseline is None
            else signif(block.frequent_baseline),
            "n": block.n}


def guessability(runs: list[Path], items_sha256: str,
                 removes: Removes | None) -> tuple[list[RunInfoRef], list[Finding]]:
    """The runs read and their guessability findings."""
    refs: list[RunInfoRef] = []
    out: list[Finding] = []
    for run in runs:
        metrics, info = _read(run)
        text_only = bool(info and info.model_info.get("text_only"))
        refs.append(RunInfoRef(path=str(run), model=metrics.model, text_only=text_only))
        scored_on = (metrics.provenance or {}).get("benchmark_items_sha256", "")
        if scored_on and scored_on != items_sha256:
            out.append(Finding(
                check="guessability", severity="warning",
                message=f"run {run}: scored on another version of the benchmark "
                        f"(items_sha256 {scored_on[:12]}…); left out",
                data={"run": str(run), "items_sha256": scored_on}))
            continue
        for cond, cm in sorted(metrics.conditions.items()):
            taken = removes(cond) if removes is not None else frozenset()
            if "question" in taken or not (text_only or "image" in taken):
                continue
            fig = _figure(cm.overall)
            out.append(_finding(run, metrics.model, cond, text_only, fig,
                                {s: _figure(b) for s, b in cm.by.get("split", {}).items()}))
    return refs, out


def _finding(run: Path, model: str, cond: str, text_only: bool, fig: dict[str, Any],
             by_split: dict[str, dict[str, Any]]) -> Finding:
    acc, (lo, hi), base = fig["accuracy"], fig["ci"], fig["random_baseline"]
    above = acc is not None and lo is not None and base is not None and lo > base
    severity: Severity = "warning" if above else "note"
    how = "a model that reads no image" if text_only else "the condition takes the image away"
    verdict = ("the text alone answers above chance" if above
               else "not distinguishable from chance" if acc is not None else "no figure")
    shown = "n/a" if acc is None else f"{acc:.3f} [{lo}, {hi}]"
    return Finding(
        check="guessability", severity=severity,
        message=f"run {run} ({model}), condition {cond} ({how}): accuracy {shown} against "
                f"chance {base}: {verdict}",
        n_items=fig["n"],
        data={"run": str(run), "model": model, "condition": cond, "text_only_model": text_only,
              **fig, "by_split": by_split})
