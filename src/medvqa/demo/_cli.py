"""``medvqa demo`` (owner: core). Placeholder."""

from __future__ import annotations

import typer


def demo_command(out: str = typer.Option("demo-out", "--out")) -> None:
    """Run the demo."""
