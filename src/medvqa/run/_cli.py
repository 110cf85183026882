"""CLI commands of the run stage (owner: runner). Placeholder until implemented."""

from __future__ import annotations

import typer


def validate_command(bench: str = typer.Argument(...)) -> None:
    """Validate a benchmark folder."""


def run_command(bench: str = typer.Argument(...)) -> None:
    """Run a model on a benchmark."""
