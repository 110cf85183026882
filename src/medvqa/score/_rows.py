"""Scored rows: one per (item, condition) prediction, the input every metric works from."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from medvqa.reading import (
    AnswerParser,
    Extraction,
    bleu_stats,
    gold_regions,
    is_correct,
    locate_regions,
    normalize_answer,
    open_answer,
    open_scores,
    region_scores,
    rescue,
)
from medvqa.schema import Item, Prediction


@dataclass(slots=True)
class ScoredRow:
    """One parsed and scored prediction, with the item fields breakdowns need.

    (Not frozen: a frozen dataclass sets each of its 18 fields through ``object.__setattr__``,
    which a million predictions feel; nothing changes a row once scored. Slots: built and
    read a million times a run, a row costs less without a ``__dict__``.)
    """

    item_id: str
    condition: str
    correct: bool
    invalid: bool
    choice: str | list[str] | None
    gold_class: str
    pred_class: str
    n_options: int
    question_type: str
    category: str
    source: str
    split: str
    case_id: str | None
    meta: dict[str, Any] = field(default_factory=dict)
    region: tuple[float, float, float, float] | None = None
    open: tuple[float, float, float] | None = None
    bleu: tuple[float, ...] | None = None
    guessed: bool | None = None
    extracted: bool = False


def _class_of(item: Item, letters: str | list[str] | None) -> str:
    """A class label made of option texts (letters move under permutation; texts do not)."""
    if letters is None:
        return "\x00invalid"
    if not item.options:
        return str(letters)
    if isinstance(letters, str):
        return item.options.get(letters, letters)
    return " | ".join(sorted(item.options.get(x, x) for x in letters))


def gold_class(item: Item) -> str:
    """The class label of an item's gold answer (option texts, normalised open text, IDs)."""
    if item.options:
        return _class_of(item, item.answer)
    if item.question_type == "open":
        return normalize_answer(str(item.answer))
    return str(item.answer)


def class_hash(label: str) -> int:
    """A stable 64-bit code of a class label (the same in every process and on every machine).

    Classes are compared and ordered by this code; two labels sharing one is a 1-in-2**64 event
    per pair.

    >>> class_hash("benign") == class_hash("benign") != class_hash("malignant")
    True
    """
    digest = hashlib.blake2b(label.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


def score_row(item: Item, pred: Prediction, parser: AnswerParser,
              extraction: Extraction | None = None) -> ScoredRow:
    """Parse and score one prediction against its (condition-transformed) item.

    With the extractor's ``extraction`` of this prediction, its reading is taken where
    :func:`~medvqa.score.rescue` says (a rule decision always stands); the row says so in
    ``extracted``.
    """
    qtype, options = item.question_type, item.options
    before = getattr(parser, "fallbacks", None)
    rules = parser.parse(pred.response or "", options, qtype, question=item.question)
    parsed = rules if extraction is None else rescue(rules, extraction)
    # A parser that counts its random fallbacks (pathmmu) tells whether this one was a guess.
    guessed = None if before is None else getattr(parser, "fallbacks", before) > before
    choice, answer = parsed.choice, item.answer
    ok = is_correct(choice, answer, qtype, texts=options if parser.compares_text else None)
    region = open_ = bleu = None
    if options:
        # _class_of's labels, the common single-letter case first (a million rows a run).
        gold = options.get(answer, answer) if isinstance(answer, str) else _class_of(item, answer)
        pred_class = (options.get(choice, choice) if isinstance(choice, str)
                      else _class_of(item, choice))
    else:
        gold = gold_class(item)
        if qtype == "open":
            # Both sides normalised: the parser's choice already is (SQuAD rules).
            pred_class = "\x00invalid" if parsed.invalid else str(choice)
        else:
            pred_class = str(choice)
    if qtype == "region":
        scores = region_scores(locate_regions(pred.response or "") if not parsed.invalid
                               else None, gold_regions(item.answer, item.meta))
        region = tuple(scores)
        # Right only when every region on the image is named with its type, and nothing else.
        ok = scores.precision == 1.0 and scores.recall == 1.0
        pred_class = gold if ok else "\x00invalid" if parsed.invalid else "\x00other"
    elif qtype == "open":
        # Scored on the located answer: the trace and an answer prefix are not the answer.
        located = open_answer(pred.response or "") or ""
        open_ = tuple(open_scores(located, str(item.answer)))
        bleu = bleu_stats(located, str(item.answer))
    return ScoredRow(
        item_id=item.id,
        condition=pred.condition,
        correct=ok,
        invalid=parsed.invalid,
        choice=choice,
        gold_class=gold,
        pred_class=pred_class,
        n_options=len(options),
        question_type=qtype,
        category=item.category,
        source=item.source,
        split=item.split,
        case_id=item.case_id,
        meta=item.meta,
        region=region,  # type: ignore[arg-type]
        open=open_,  # type: ignore[arg-type]
        bleu=bleu,
        guessed=guessed,
        extracted=parsed is not rules,
    )


def as_arrays(rows: list[ScoredRow]) -> tuple[np.ndarray, np.ndarray]:
    """0/1 arrays of correct and invalid."""
    correct = np.fromiter((r.correct for r in rows), dtype=float, count=len(rows))
    invalid = np.fromiter((r.invalid for r in rows), dtype=float, count=len(rows))
    return correct, invalid
