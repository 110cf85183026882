"""CLI commands of the run stage (owner: core). Placeholder until implemented."""

from __future__ import annotations

import typer


def validate_command(bench: str = typer.Argument(...)) -> None:
    """Validate a benchmark folder."""


def run_command(bench: str = typer.Argument(...)) -> None:
    """Run a model on a benchmark."""


def demo_command(out: str = typer.Option("demo-out", "--out")) -> None:
    """Run the demo."""


def bench_command() -> None:
    """Print speed figures."""
