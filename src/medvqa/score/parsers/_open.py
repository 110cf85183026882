"""``open``: free-text answers (MIRA's open-ended questions, VQA-RAD OPEN).

The parser normalises (lower case, punctuation and articles removed, white space collapsed) and
abstains on empty answers and refusals. :func:`open_scores` gives exact match, token F1 (SQuAD
style), sentence BLEU-4 (sacrebleu) and ROUGE-L F (rouge-score), as MIRA reports.

>>> open_scores("A left pleural effusion.", "left pleural effusion").exact
1.0
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import NamedTuple

from medvqa.score.parsers._base import INVALID, ParsedAnswer, normalize_answer
from medvqa.score.parsers._strict import _REFUSAL


class OpenScores(NamedTuple):
    """Per-item open-answer scores, each in [0, 1]."""

    exact: float
    token_f1: float
    bleu4: float
    rouge_l: float


def token_f1(prediction: str, reference: str) -> float:
    """Harmonic mean of token precision and recall after normalisation (0 if either is empty)."""
    pred, ref = normalize_answer(prediction).split(), normalize_answer(reference).split()
    common = sum((Counter(pred) & Counter(ref)).values())
    if not pred or not ref or common == 0:
        return float(pred == ref)
    precision, recall = common / len(pred), common / len(ref)
    return 2 * precision * recall / (precision + recall)


@lru_cache(maxsize=1)
def _rouge():  # type: ignore[no-untyped-def]
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)


def open_scores(prediction: str, reference: str) -> OpenScores:
    """Exact match, token F1, BLEU-4 and ROUGE-L of one prediction against one reference."""
    from sacrebleu.metrics import BLEU

    exact = float(normalize_answer(prediction) == normalize_answer(reference))
    bleu = BLEU(effective_order=True).sentence_score(prediction, [reference]).score / 100.0
    rouge = _rouge().score(reference, prediction)["rougeL"].fmeasure
    return OpenScores(exact, token_f1(prediction, reference), bleu, float(rouge))


class OpenParser:
    """Normalised free text; abstains on empty responses and refusals."""

    style = "open"
    compares_text = False

    def parse(self, response: str, options: dict[str, str], question_type: str) -> ParsedAnswer:
        """Normalise ``response``; options are ignored."""
        if not isinstance(response, str) or _REFUSAL.search(response):
            return INVALID
        text = normalize_answer(response)
        return ParsedAnswer(text, False) if text else INVALID
