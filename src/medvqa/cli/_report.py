"""``medvqa report``: scored runs → self-contained HTML and Markdown."""

from __future__ import annotations

from pathlib import Path

import typer


def report_command(
    runs: list[Path] = typer.Argument(..., help="Scored RUN/ folders."),
    out: Path = typer.Option(Path("report.html"), "--out", "-o", help="HTML file; .md beside it."),
) -> None:
    """Write a leaderboard, per-category tables, plots, controls and methods as HTML + Markdown.

    Example: medvqa report runs/idrid-random runs/idrid-smollm2 -o report.html
    """
    from rich.console import Console

    from medvqa.report._render import write_report

    html, md = write_report(runs, out)
    Console().print(f"wrote {html} and {md}")
