"""``medvqa parse`` (owner: parsers). Placeholder."""

from __future__ import annotations

import typer


def parse_command(inp: str = typer.Argument(...)) -> None:
    """Parse responses."""
