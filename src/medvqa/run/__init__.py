"""Running models on benchmarks: prompts, the async runner, cache, and conditions."""

from medvqa.run._prompts import (
    PromptError,
    PromptTemplate,
    format_options,
    list_templates,
    load_template,
    render_prompt,
)

__all__ = [
    "PromptError",
    "PromptTemplate",
    "format_options",
    "list_templates",
    "load_template",
    "render_prompt",
]
