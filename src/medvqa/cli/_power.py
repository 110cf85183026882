"""``medvqa power``: the smallest difference a benchmark can show, and the items another needs."""

from __future__ import annotations

from pathlib import Path

import typer

from medvqa.cli._help import default_of
from medvqa.score import ASSUMED_ICC, PowerConfig


def power_command(
    bench: Path = typer.Argument(..., help="The BENCH/ folder."),
    runs: list[Path] = typer.Option(
        [], "--runs", help="A scored RUN/ of this benchmark (repeatable): the intra-case "
        "correlation, the accuracy and, between two or more runs, how often models disagree "
        "are estimated from them."),
    delta: float = typer.Option(default_of(PowerConfig, "delta"), "--delta",
                                help="The difference in accuracy to size the benchmark for, "
                                "between 0 and 1."),
    icc: float | None = typer.Option(
        None, "--icc", help=f"Intra-case correlation of correctness to assume (default: "
        f"estimated from --runs, else {ASSUMED_ICC:g} when cases repeat)."),
    json_out: Path | None = typer.Option(None, "--json", help="Also write the figures as "
                                         "JSON."),
) -> None:
    """Minimum detectable difference (80 % power, two-sided 5 %) and the items a difference needs.

    Example: medvqa power bench/vqa-rad --runs runs/qwen --runs runs/llava --delta 0.05
    """
    from rich.console import Console

    from medvqa.score import benchmark_power, power_json
    from medvqa.store import atomic_write_text

    report = benchmark_power(PowerConfig(bench, runs=tuple(runs), delta=delta, icc=icc))
    console = Console()
    for line in report.lines():
        console.print(line, highlight=False, soft_wrap=True)
    if json_out is not None:
        atomic_write_text(json_out, power_json(report) + "\n")
