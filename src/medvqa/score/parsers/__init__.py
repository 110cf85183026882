"""Answer parsers: a response and its options in, a choice (or an abstention and why) out.

Styles: ``strict`` (default, abstains), ``mammovqa`` and ``pathmmu`` (published scorers
reproduced), ``region`` (LMOD ID sets) and ``open`` (free text). Every style sets reasoning
traces aside (:func:`set_aside_reasoning`); ``strict``, ``open`` and ``region`` also locate the
final answer first (see ``docs/answer-reading.md``).
"""

from medvqa.score.parsers._base import (
    INVALID,
    REASONS,
    WANTS_READING,
    AnswerParser,
    ParsedAnswer,
    abstain,
    is_correct,
)
from medvqa.score.parsers._locate import set_aside_reasoning, without_reasoning
from medvqa.score.parsers._open import (
    BLEU_COLUMNS,
    OpenScores,
    bleu_stats,
    corpus_bleu,
    normalize_answer,
    open_answer,
    open_scores,
    token_f1,
)
from medvqa.score.parsers._region import (
    RegionScores,
    gold_regions,
    locate_regions,
    normalize_type,
    read_regions,
    region_scores,
)
from medvqa.score.parsers._registry import STYLES, clear_caches, make_parser

__all__ = [
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
]
