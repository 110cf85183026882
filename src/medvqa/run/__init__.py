"""Running models on benchmarks: the async runner and its journal.

Names are imported on first use (PEP 562), so ``medvqa --help``, which imports the CLI
module of this package, does not pay for the runner, SQLite, tenacity or pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
    from medvqa.run._journal import JournalRow, PredictionJournal
    from medvqa.run._runner import (
        RunConfig,
        RunProgress,
        RunSummary,
        arun_benchmark,
        run_benchmark,
    )

_WHERE: dict[str, str] = {
    "JournalRow": "_journal",
    "PredictionJournal": "_journal",
    "RunConfig": "_runner",
    "RunProgress": "_runner",
    "RunSummary": "_runner",
    "arun_benchmark": "_runner",
    "run_benchmark": "_runner",
}

__all__ = [
    "JournalRow",
    "PredictionJournal",
    "RunConfig",
    "RunProgress",
    "RunSummary",
    "arun_benchmark",
    "run_benchmark",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
