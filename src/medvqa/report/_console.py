"""Print a metrics summary to the terminal (the CLI's rendering of metrics.json)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.table import Table

from medvqa.score._model import MetricsFile, MetricValue


def fmt(mv: MetricValue | None) -> str:
    """'0.612 [0.580, 0.640]' or '–'."""
    if mv is None or mv.value is None:
        return "–"
    lo, hi = mv.ci
    ci = f" [{lo:.3f}, {hi:.3f}]" if lo is not None and hi is not None else ""
    return f"{mv.value:.3f}{ci}"


def print_metrics(console: Console, metrics: MetricsFile, run_dir: Path) -> None:
    """One row per condition: accuracy, weighted accuracy, invalid rate, baselines."""
    table = Table(title=f"{metrics.model or run_dir} on {metrics.benchmark} ({metrics.style})")
    for col in ("condition", "n", "accuracy [95 % CI]", "weighted acc.", "invalid rate",
                "random", "errors"):
        table.add_column(col)
    for name, cond in metrics.conditions.items():
        o = cond.overall
        table.add_row(name, str(o.n), fmt(o.accuracy), fmt(o.weighted_accuracy),
                      fmt(o.invalid_rate), f"{o.random_baseline:.3f}" if o.random_baseline else "–",
                      str(o.errors))
    console.print(table)
    console.print(f"wrote {run_dir / 'metrics.json'}; CIs: {metrics.resamples} resamples, "
                  f"seed {metrics.seed}, {'case-clustered' if metrics.clustered else 'item-level'}")
