"""Curation: benchmark construction and filtering that needs models.

The guessability filter (PathMMU: drop items that text-only models answer) and the LLM-driven
builders (:mod:`medvqa.curate.llm`: captions → QA, reports → schema → QA, judges) call models and
parse their answers, so they sit above ``models``, ``run`` and ``score`` in the import order and
write BENCH/ through the builders' writer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports
from medvqa.curate._guessable_config import GuessableConfig

if TYPE_CHECKING:
    from medvqa.curate._build import build_curated
    from medvqa.curate._guessable import (
        GuessableResult,
        apply_filter_spec,
        filter_guessable,
        parse_filter_spec,
    )

_WHERE: dict[str, str] = {
    "GuessableResult": "_guessable",
    "apply_filter_spec": "_guessable",
    "build_curated": "_build",
    "filter_guessable": "_guessable",
    "parse_filter_spec": "_guessable",
}

__all__ = [
    "GuessableConfig",
    "GuessableResult",
    "apply_filter_spec",
    "build_curated",
    "filter_guessable",
    "parse_filter_spec",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
