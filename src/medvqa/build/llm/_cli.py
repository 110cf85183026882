"""CLI of the LLM-driven builders (owner: LLM construction). Placeholder."""

from __future__ import annotations

import typer

captions_app = typer.Typer(add_completion=False)
reports_app = typer.Typer(add_completion=False)


@captions_app.command()
def build_captions(captions: str = typer.Argument(...)) -> None:
    """Build QA items from image captions."""
    raise typer.Exit(1)


@reports_app.command()
def build_reports(reports: str = typer.Argument(...)) -> None:
    """Build QA items from radiology reports."""
    raise typer.Exit(1)
