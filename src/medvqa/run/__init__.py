"""Running models on benchmarks: the request, its config, the async runner and its journal.

Names are imported on first use (PEP 562), so ``medvqa --help``, which imports the CLI
module of this package, does not pay for the runner, SQLite, tenacity or pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
    from medvqa.run._config import EXECUTORS, AdaptiveRun, RayOptions, RunConfig, RunRequest
    from medvqa.run._journal import JournalRow, PredictionJournal
    from medvqa.run._many import run_dirs
    from medvqa.run._max_tokens import default_max_tokens
    from medvqa.run._models_file import load_models_file
    from medvqa.run._ray import RayBackend
    from medvqa.run._request import RunEvents, RunOutcome, check_request, run_models
    from medvqa.run._runner import (
        RunProgress,
        RunSummary,
        arun_benchmark,
        run_benchmark,
    )
    from medvqa.run._selection import ItemSelection, scan_selection

_WHERE: dict[str, str] = {
    "default_max_tokens": "_max_tokens",
    "load_models_file": "_models_file",
    "run_dirs": "_many",
    "check_request": "_request",
    "run_models": "_request",
    "RunOutcome": "_request",
    "RunEvents": "_request",
    "RunRequest": "_config",
    "AdaptiveRun": "_config",
    "RayOptions": "_config",
    "EXECUTORS": "_config",
    "JournalRow": "_journal",
    "PredictionJournal": "_journal",
    "RunConfig": "_config",
    "RunProgress": "_runner",
    "RunSummary": "_runner",
    "arun_benchmark": "_runner",
    "run_benchmark": "_runner",
    "RayBackend": "_ray",
    "ItemSelection": "_selection",
    "scan_selection": "_selection",
}

__all__ = [
    "default_max_tokens",
    "load_models_file",
    "run_dirs",
    "check_request",
    "run_models",
    "RunOutcome",
    "RunEvents",
    "RunRequest",
    "AdaptiveRun",
    "RayOptions",
    "EXECUTORS",
    "JournalRow",
    "PredictionJournal",
    "RunConfig",
    "RunProgress",
    "RunSummary",
    "arun_benchmark",
    "run_benchmark",
    "RayBackend",
    "ItemSelection",
    "scan_selection",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
