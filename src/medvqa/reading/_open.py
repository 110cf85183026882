r"""``open``: free-text answers (MIRA's open-ended questions, VQA-RAD OPEN).

The parser normalises (lower case, punctuation and articles removed, white space collapsed) and
abstains on empty answers and refusals. Per item, :func:`open_scores` gives exact match and
token F1 (SQuAD normalisation of **both** sides), and ROUGE-L F (rouge-score, with a Unicode
tokeniser: words of letters and digits in any script, each CJK character one token — the
package's default tokeniser drops every non-Latin character, so identical Chinese answers scored
0). Over a set of items, BLEU is **corpus BLEU-4** (sacreBLEU: lower-cased, ``13a`` tokeniser,
its default ``exp`` smoothing), computed from the items' summed sufficient statistics
(:func:`bleu_stats`, :func:`corpus_bleu`), so it can be bootstrapped like every other figure.

The answer is located first (:mod:`._locate`): reasoning blocks are set aside and, where the
response has a final-answer segment ("The answer is …", "Final answer: …", ``\boxed{…}``, a
JSON answer field), only that segment is the answer — answer prefixes are part of locating the
answer, so "The answer is Free air." scores right against "Free air". :func:`open_answer` gives
the located text; the scores of :func:`open_scores` are computed on it by the scorer.

>>> open_scores("A left pleural effusion.", "left pleural effusion").exact
1.0
>>> OpenParser().parse("The answer is Free air.", {}, "open").choice
'free air'
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from medvqa.reading._base import ParsedAnswer, abstain, normalize_answer
from medvqa.reading._book import refuses
from medvqa.reading._locate import final_segments, set_aside_reasoning

# One token per CJK (Han, kana, hangul) character; otherwise runs of word characters.
_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]|[^\W_]+")
BLEU_COLUMNS = 10  # correct n-grams ×4, total n-grams ×4, hypothesis length, reference length


class OpenScores(NamedTuple):
    """Per-item open-answer scores, each in [0, 1]."""

    exact: float
    token_f1: float
    rouge_l: float


def token_f1(prediction: str, reference: str) -> float:
    """Harmonic mean of token precision and recall after normalisation (0 if either is empty)."""
    pred, ref = normalize_answer(prediction).split(), normalize_answer(reference).split()
    common = sum((Counter(pred) & Counter(ref)).values())
    if not pred or not ref or common == 0:
        return float(pred == ref)
    precision, recall = common / len(pred), common / len(ref)
    return 2 * precision * recall / (precision + recall)


class _UnicodeTokenizer:
    """rouge-score tokeniser that keeps every script (see the module docstring)."""

    def tokenize(self, text: str) -> list[str]:
        return _TOKEN.findall(text.lower())


@lru_cache(maxsize=1)
def _rouge():  # type: ignore[no-untyped-def]
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False, tokenizer=_UnicodeTokenizer())


@lru_cache(maxsize=1)
def _bleu():  # type: ignore[no-untyped-def]
    from sacrebleu.metrics import BLEU

    # effective_order only changes the sentence score (unused): the statistics are the same.
    return BLEU(lowercase=True, tokenize="13a", effective_order=True)


def open_scores(prediction: str, reference: str) -> OpenScores:
    """Exact match, token F1 and ROUGE-L of one prediction against one reference."""
    exact = float(normalize_answer(prediction) == normalize_answer(reference))
    rouge = _rouge().score(reference, prediction)["rougeL"].fmeasure
    return OpenScores(exact, token_f1(prediction, reference), float(rouge))


def bleu_stats(prediction: str, reference: str) -> tuple[float, ...]:
    """SacreBLEU's sufficient statistics of one pair (:data:`BLEU_COLUMNS` numbers)."""
    s = _bleu().sentence_score(prediction, [reference])
    return (*map(float, s.counts), *map(float, s.totals), float(s.sys_len), float(s.ref_len))


def corpus_bleu(sums: np.ndarray) -> np.ndarray:
    """Corpus BLEU-4 in [0, 1] per row of summed :func:`bleu_stats` (b × 10), vectorised.

    The same arithmetic as sacreBLEU's ``compute_bleu`` with ``exp`` smoothing: an order with
    no n-grams (total 0) stops the precisions there (so BLEU-4 is 0 when no answer reaches 4
    tokens); an order with none correct gets 1 / (2^k · total) for its k-th such order.
    """
    sums = np.atleast_2d(np.asarray(sums, dtype=float))
    correct, total = sums[:, 0:4], sums[:, 4:8]
    sys_len, ref_len = sums[:, 8], sums[:, 9]
    with np.errstate(divide="ignore", invalid="ignore"):
        bp = np.where(sys_len >= ref_len, 1.0,
                      np.where(sys_len > 0, np.exp(1 - ref_len / np.maximum(sys_len, 1e-300)),
                               0.0))
        reached = np.cumprod(total > 0, axis=1).astype(bool)  # orders before the first empty one
        zero = reached & (correct == 0)
        halvings = np.cumsum(zero, axis=1)
        precision = np.where(zero, 1.0 / (2.0 ** halvings * total), correct / total)
        precision = np.where(reached, precision, 0.0)
        logs = np.where(precision > 0, np.log(np.where(precision > 0, precision, 1.0)), -np.inf)
        score = bp * np.exp(logs.sum(axis=1) / 4)
    return np.where(correct.sum(axis=1) > 0, np.nan_to_num(score, nan=0.0), 0.0)


_SEGMENT_PREFIX = "Answer: "


def open_answer(response: str) -> str | None:
    """The located answer of an open response (None when only a reasoning trace is there).

    The last final-answer segment, else the whole trace-free text.

    >>> open_answer("<think>gas?</think>Final answer: pneumoperitoneum. Seen under the diaphragm.")
    'pneumoperitoneum'
    >>> open_answer("Free air under the right hemidiaphragm.")
    'Free air under the right hemidiaphragm.'
    """
    reasoned = set_aside_reasoning(response)
    text = reasoned.text
    if reasoned.trace and not text.strip():
        return None
    segments = final_segments(text)
    if segments:
        return segments[-1].text[len(_SEGMENT_PREFIX):].strip()
    return text


class OpenParser:
    """Normalised free text of the located answer; abstains on empty answers and refusals."""

    style = "open"
    compares_text = False

    def parse(self, response: str, options: dict[str, str], question_type: str, *,
              question: str = "") -> ParsedAnswer:
        """Normalise the located answer of ``response``; options are ignored."""
        if not isinstance(response, str):
            return abstain("empty")
        located = open_answer(response)
        if located is None:
            return abstain("not_committed")
        if refuses(set_aside_reasoning(response).text):
            return abstain("refusal")
        text = normalize_answer(located)
        return ParsedAnswer(text, False) if text else abstain("empty")
