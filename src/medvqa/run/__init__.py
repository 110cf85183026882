"""Running models on benchmarks: prompts, the async runner, its journal, and validation.

Names are imported on first use (PEP 562), so ``medvqa --help``, which imports the CLI
module of this package, does not pay for the runner, SQLite, tenacity or pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
    from medvqa.run._journal import JournalRow, PredictionJournal
    from medvqa.run._prompts import (
        PromptError,
        PromptTemplate,
        format_options,
        list_templates,
        load_template,
        render_prompt,
    )
    from medvqa.run._runner import (
        RunConfig,
        RunProgress,
        RunSummary,
        arun_benchmark,
        run_benchmark,
    )
    from medvqa.run._validate import (
        ValidationReport,
        check_image,
        iter_items,
        validate_benchmark,
    )

_WHERE: dict[str, str] = {
    "JournalRow": "_journal",
    "PredictionJournal": "_journal",
    "PromptError": "_prompts",
    "PromptTemplate": "_prompts",
    "format_options": "_prompts",
    "list_templates": "_prompts",
    "load_template": "_prompts",
    "render_prompt": "_prompts",
    "RunConfig": "_runner",
    "RunProgress": "_runner",
    "RunSummary": "_runner",
    "arun_benchmark": "_runner",
    "run_benchmark": "_runner",
    "ValidationReport": "_validate",
    "check_image": "_validate",
    "iter_items": "_validate",
    "validate_benchmark": "_validate",
}

__all__ = [
    "JournalRow",
    "PredictionJournal",
    "PromptError",
    "PromptTemplate",
    "RunConfig",
    "RunProgress",
    "RunSummary",
    "ValidationReport",
    "arun_benchmark",
    "check_image",
    "format_options",
    "iter_items",
    "list_templates",
    "load_template",
    "render_prompt",
    "run_benchmark",
    "validate_benchmark",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
