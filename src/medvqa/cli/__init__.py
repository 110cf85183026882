"""The command line: one Typer app (``_app``) and one module per command group.

This package is the top room of the import order: it may import every stage, and no stage
imports it. Each command builds a config object and calls one library function.
"""

from medvqa.cli._app import app, main

__all__ = ["app", "main"]
