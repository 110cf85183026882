"""``medvqa bench``: run every registered section and print one table of figures."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from medvqa._registry import Registry
from medvqa.bench._figure import BenchFigure

#: Each section is ``fn(quick: bool) -> list[BenchFigure]``; loaded only when run.
SECTIONS: Registry = Registry(
    "bench section",
    {
        "runner": "medvqa.bench._runner:bench_runner",
        "scoring": "medvqa.bench._scoring:bench_scoring",
        "scale": "medvqa.bench._scale:bench_scale",
        "build": "medvqa.bench._build:bench_build",
        "conditions": "medvqa.bench._conditions:bench_conditions",
        "llm": "medvqa.bench._llm:bench_llm",
        "interop": "medvqa.bench._interop:bench_interop",
        "review": "medvqa.bench._review:bench_review",
        "ray": "medvqa.bench._ray:bench_ray",
        "local": "medvqa.bench._local:bench_local",
        "gpu": "medvqa.bench._local:bench_gpu",
        "hardening": "medvqa.bench._hardening:bench_hardening",
        "train": "medvqa.bench._train:bench_train",
    },
)


def bench_command(
    only: str = typer.Option("", "--only", help="Comma-separated sections: " + ", ".join(SECTIONS)),
    quick: bool = typer.Option(False, "--quick", help="Smaller sizes, for a fast look."),
    json_out: Path | None = typer.Option(None, "--json", help="Also write the figures as JSON."),
) -> None:
    """Measure this machine: runner throughput, scoring, builds, corruptions, LLM speed.

    Example: medvqa bench --only runner,scoring
    """
    console = Console()
    names = [n.strip() for n in only.split(",") if n.strip()] or SECTIONS.names()
    figures: list[BenchFigure] = []
    for name in names:
        fn = SECTIONS.get(name)
        with console.status(f"bench: {name} …"):
            try:
                got = fn(quick)
            except ImportError as exc:
                console.print(f"[yellow]{name}: skipped ({escape(str(exc))})[/yellow]")
                continue
        figures.extend(got)
        _print(console, name, got)
    if json_out:
        json_out.write_text(json.dumps([asdict(f) for f in figures], indent=2) + "\n")


def _print(console: Console, name: str, figures: list[BenchFigure]) -> None:
    table = Table(title=f"medvqa bench: {name}", show_lines=False)
    for col in ("figure", "value", "unit", "target", "met"):
        table.add_column(col, justify="right" if col in {"value"} else "left")
    for f in figures:
        met = "" if f.met is None else ("yes" if f.met else "NO")
        table.add_row(
            f.name,
            f"{f.value:,.3g}" if abs(f.value) < 1000 else f"{f.value:,.0f}",
            f.unit,
            f.target,
            met,
        )
    console.print(table)
