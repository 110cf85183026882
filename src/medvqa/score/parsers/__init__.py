"""Answer parsers: a response and its options in, a choice (or an abstention) out.

Styles: ``strict`` (default, abstains), ``mammovqa`` and ``pathmmu`` (published scorers
reproduced), ``region`` (LMOD ID sets) and ``open`` (free text).
"""

from medvqa.score.parsers._base import INVALID, AnswerParser, ParsedAnswer, is_correct
from medvqa.score.parsers._open import (
    BLEU_COLUMNS,
    OpenScores,
    bleu_stats,
    corpus_bleu,
    normalize_answer,
    open_scores,
    token_f1,
)
from medvqa.score.parsers._region import (
    RegionScores,
    gold_regions,
    normalize_type,
    read_regions,
    region_scores,
)
from medvqa.score.parsers._registry import STYLES, clear_caches, make_parser

__all__ = [
    "BLEU_COLUMNS",
    "INVALID",
    "STYLES",
    "AnswerParser",
    "OpenScores",
    "ParsedAnswer",
    "RegionScores",
    "bleu_stats",
    "clear_caches",
    "corpus_bleu",
    "gold_regions",
    "is_correct",
    "make_parser",
    "normalize_answer",
    "normalize_type",
    "open_scores",
    "read_regions",
    "region_scores",
    "token_f1",
]
