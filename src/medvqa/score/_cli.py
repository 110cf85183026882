"""CLI commands of the score stage (owner: metrics). Placeholder until implemented."""

from __future__ import annotations

import typer


def score_command(bench: str = typer.Argument(...), run: str = typer.Argument(...)) -> None:
    """Score a run."""


def compare_command(run_a: str = typer.Argument(...), run_b: str = typer.Argument(...)) -> None:
    """Compare two runs."""
