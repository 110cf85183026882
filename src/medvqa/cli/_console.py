"""How the command line shows skipped inputs: one escaped line each, on standard error."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.markup import escape


def print_skipped(problems: Iterable[object], console: Console | None = None) -> None:
    """One ``skipped FILE:LINE: FIELD: why`` line per problem (untrusted text is escaped)."""
    console = console or Console(stderr=True)
    for problem in problems:
        console.print(f"[yellow]skipped[/yellow] {escape(str(problem))}", highlight=False,
                      soft_wrap=True)
