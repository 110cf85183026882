"""Curation: benchmark construction and filtering that needs models.

The guessability filter (PathMMU: drop items that text-only models answer) and the LLM-driven
builders (:mod:`medvqa.curate.llm`: captions → QA, reports → schema → QA, judges) call models and
parse their answers, so they sit above ``models``, ``run`` and ``score`` in the import order and
write BENCH/ through the builders' writer.
"""

from medvqa.curate._build import build_curated
from medvqa.curate._guessable import (
    GuessableConfig,
    GuessableResult,
    apply_filter_spec,
    filter_guessable,
    parse_filter_spec,
)

__all__ = [
    "GuessableConfig",
    "GuessableResult",
    "apply_filter_spec",
    "build_curated",
    "filter_guessable",
    "parse_filter_spec",
]
