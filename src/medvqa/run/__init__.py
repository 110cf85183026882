"""Running models on benchmarks: prompts, the async runner, cache, and conditions.

Names are imported on first use (PEP 562), so ``medvqa --help``, which imports the CLI
module of this package, does not pay for the runner, SQLite, tenacity or pydantic.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from medvqa.run._cache import (
        JournalRow,
        PredictionJournal,
        ResponseCache,
        cache_key,
        canonical_json,
        request_key,
    )
    from medvqa.run._complete import (
        Completion,
        RetryPolicy,
        acomplete,
        complete,
        complete_requests,
    )
    from medvqa.run._images import ImageLoader, ImageLoadError, mime_for
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
    "JournalRow": "_cache",
    "PredictionJournal": "_cache",
    "ResponseCache": "_cache",
    "cache_key": "_cache",
    "canonical_json": "_cache",
    "request_key": "_cache",
    "Completion": "_complete",
    "RetryPolicy": "_complete",
    "acomplete": "_complete",
    "complete": "_complete",
    "complete_requests": "_complete",
    "ImageLoader": "_images",
    "ImageLoadError": "_images",
    "mime_for": "_images",
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
    "Completion",
    "ImageLoadError",
    "ImageLoader",
    "JournalRow",
    "PredictionJournal",
    "PromptError",
    "PromptTemplate",
    "ResponseCache",
    "RetryPolicy",
    "RunConfig",
    "RunProgress",
    "RunSummary",
    "ValidationReport",
    "acomplete",
    "arun_benchmark",
    "cache_key",
    "canonical_json",
    "check_image",
    "complete",
    "complete_requests",
    "format_options",
    "iter_items",
    "list_templates",
    "load_template",
    "mime_for",
    "render_prompt",
    "request_key",
    "run_benchmark",
    "validate_benchmark",
]


def __getattr__(name: str) -> Any:
    """Import a public name from its private module on first use."""
    if name not in _WHERE:
        raise AttributeError(f"module 'medvqa.run' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"medvqa.run.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
