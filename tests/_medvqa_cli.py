"""``medvqa ARGS`` run in-process, as the tests call it: the exit code, never SystemExit.

Importable from every test folder (pytest puts this folder, the root conftest's, on the path).
"""

from __future__ import annotations

from medvqa.cli import main


def cli(*args: str) -> int:
    """Run the command line with ``args``; its exit code (0 when it returns normally)."""
    try:
        main(list(args))
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0
