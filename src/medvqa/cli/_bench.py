"""``medvqa bench``: run every registered section and print one table of figures."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from medvqa.cli._help import names_help
from medvqa.measurements import SECTIONS, BenchFigure


def bench_command(
    only: str = typer.Option("", "--only",
                             help="Comma-separated sections: " + names_help(SECTIONS, sep=", ")),
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
