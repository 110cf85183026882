"""``medvqa report`` (owner: metrics/report). Placeholder."""

from __future__ import annotations

import typer


def report_command(runs: list[str] = typer.Argument(...)) -> None:
    """Write a report."""
