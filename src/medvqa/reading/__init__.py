"""Answer parsers: a response and its options in, a choice (or an abstention and why) out.

Styles: ``strict`` (default, abstains), ``mammovqa`` and ``pathmmu`` (published scorers
reproduced), ``region`` (LMOD ID sets) and ``open`` (free text). Every style sets reasoning
traces aside (:func:`set_aside_reasoning`); ``strict``, ``open`` and ``region`` also locate the
final answer first (see ``docs/answer-reading.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports
from medvqa.reading._native import choose_build

# Only where a compiled build was asked for (`make compile`) and is stale: its sources instead.
choose_build()

if TYPE_CHECKING:
    from medvqa.reading._base import (
        INVALID,
        REASONS,
        WANTS_READING,
        AnswerParser,
        ParsedAnswer,
        abstain,
        is_correct,
    )
    from medvqa.reading._batch import parse_records
    from medvqa.reading._extract import (
        ExtractCandidate,
        ExtractConfig,
        ExtractedBy,
        Extraction,
        Extractor,
        ExtractResult,
        eligible,
        extract_answers,
        prepare_extractor,
        rescue,
    )
    from medvqa.reading._extract_prompt import ExtractPrompt, load_extract_prompt
    from medvqa.reading._hostile import hostile_responses
    from medvqa.reading._locate import set_aside_reasoning, without_reasoning
    from medvqa.reading._native import compiled_rules
    from medvqa.reading._open import (
        BLEU_COLUMNS,
        OpenScores,
        bleu_stats,
        corpus_bleu,
        normalize_answer,
        open_answer,
        open_scores,
        token_f1,
    )
    from medvqa.reading._region import (
        RegionScores,
        gold_regions,
        locate_regions,
        normalize_type,
        read_regions,
        region_scores,
    )
    from medvqa.reading._registry import (
        PARSER_SEED,
        STYLES,
        clear_caches,
        make_parser,
    )
    from medvqa.reading.rules import RULES, Kind, Rule

_WHERE: dict[str, str] = {
    "rescue": "_extract",
    "prepare_extractor": "_extract",
    "load_extract_prompt": "_extract_prompt",
    "extract_answers": "_extract",
    "eligible": "_extract",
    "ExtractPrompt": "_extract_prompt",
    "ExtractResult": "_extract",
    "Extractor": "_extract",
    "Extraction": "_extract",
    "ExtractedBy": "_extract",
    "ExtractConfig": "_extract",
    "ExtractCandidate": "_extract",
    "compiled_rules": "_native",
    "RULES": "rules",
    "Rule": "rules",
    "Kind": "rules",
    "without_reasoning": "_locate",
    "set_aside_reasoning": "_locate",
    "open_answer": "_open",
    "locate_regions": "_region",
    "abstain": "_base",
    "WANTS_READING": "_base",
    "REASONS": "_base",
    "parse_records": "_batch",
    "INVALID": "_base",
    "AnswerParser": "_base",
    "ParsedAnswer": "_base",
    "is_correct": "_base",
    "BLEU_COLUMNS": "_open",
    "OpenScores": "_open",
    "bleu_stats": "_open",
    "corpus_bleu": "_open",
    "normalize_answer": "_open",
    "open_scores": "_open",
    "token_f1": "_open",
    "RegionScores": "_region",
    "gold_regions": "_region",
    "normalize_type": "_region",
    "read_regions": "_region",
    "region_scores": "_region",
    "PARSER_SEED": "_registry",
    "STYLES": "_registry",
    "clear_caches": "_registry",
    "make_parser": "_registry",
    "hostile_responses": "_hostile",
}


__all__ = [
    "rescue",
    "prepare_extractor",
    "load_extract_prompt",
    "extract_answers",
    "eligible",
    "ExtractPrompt",
    "ExtractResult",
    "Extractor",
    "Extraction",
    "ExtractedBy",
    "ExtractConfig",
    "ExtractCandidate",
    "parse_records",
    "PARSER_SEED",
    "BLEU_COLUMNS",
    "INVALID",
    "REASONS",
    "STYLES",
    "WANTS_READING",
    "AnswerParser",
    "OpenScores",
    "ParsedAnswer",
    "RegionScores",
    "abstain",
    "bleu_stats",
    "clear_caches",
    "RULES",
    "compiled_rules",
    "Rule",
    "Kind",
    "corpus_bleu",
    "gold_regions",
    "is_correct",
    "locate_regions",
    "make_parser",
    "normalize_answer",
    "normalize_type",
    "open_answer",
    "open_scores",
    "read_regions",
    "region_scores",
    "set_aside_reasoning",
    "token_f1",
    "without_reasoning",
    "hostile_responses",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
