"""Answer parsers: a response and its options in, a choice (or an abstention) out.

Styles: ``strict`` (default, abstains), ``mammovqa`` and ``pathmmu`` (published scorers
reproduced), ``region`` (LMOD ID sets) and ``open`` (free text).
"""

from medvqa.score.parsers._base import INVALID, AnswerParser, ParsedAnswer, is_correct
from medvqa.score.parsers._open import OpenScores, normalize_answer, open_scores, token_f1
from medvqa.score.parsers._region import RegionScores, region_scores
from medvqa.score.parsers._registry import STYLES, clear_caches, make_parser

__all__ = [
    "INVALID",
    "STYLES",
    "AnswerParser",
    "OpenScores",
    "ParsedAnswer",
    "RegionScores",
    "clear_caches",
    "is_correct",
    "make_parser",
    "normalize_answer",
    "open_scores",
    "region_scores",
    "token_f1",
]
