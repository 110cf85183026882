"""Scored rows: one per (item, condition) prediction, the input every metric works from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from medvqa.schema import Item, Prediction
from medvqa.score.parsers import (
    AnswerParser,
    gold_regions,
    is_correct,
    open_scores,
    read_regions,
    region_scores,
)


@dataclass(frozen=True)
class ScoredRow:
    """One parsed and scored prediction, with the item fields breakdowns need."""

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
    open: tuple[float, float, float, float] | None = None


def _class_of(item: Item, letters: str | list[str] | None) -> str:
    """A class label made of option texts (letters move under permutation; texts do not)."""
    if letters is None:
        return "\x00invalid"
    if not item.options:
        return str(letters)
    picked = [letters] if isinstance(letters, str) else sorted(letters)
    return " | ".join(sorted(item.options.get(x, x) for x in picked))


def score_row(item: Item, pred: Prediction, parser: AnswerParser) -> ScoredRow:
    """Parse and score one prediction against its (condition-transformed) item."""
    qtype = item.question_type
    parsed = parser.parse(pred.response or "", item.options, qtype)
    ok = is_correct(parsed.choice, item.answer, qtype,
                    texts=item.options if parser.compares_text else None)
    region = open_ = None
    if qtype == "region":
        scores = region_scores(read_regions(pred.response or "") if not parsed.invalid else None,
                               gold_regions(item.answer, item.meta))
        region = tuple(scores)  # type: ignore[assignment]
        # Right only when every region on the image is named with its type, and nothing else.
        ok = scores.precision == 1.0 and scores.recall == 1.0
    elif qtype == "open":
        open_ = tuple(open_scores(pred.response or "", str(item.answer)))  # type: ignore[assignment]
    return ScoredRow(
        item_id=item.id,
        condition=pred.condition,
        correct=ok,
        invalid=parsed.invalid,
        choice=parsed.choice,
        gold_class=_class_of(item, item.answer) if item.options else str(item.answer),
        pred_class=_class_of(item, parsed.choice) if item.options else str(parsed.choice),
        n_options=len(item.options),
        question_type=qtype,
        category=item.category,
        source=item.source,
        split=item.split,
        case_id=item.case_id,
        meta=item.meta,
        region=region,  # type: ignore[arg-type]
        open=open_,  # type: ignore[arg-type]
    )


def as_arrays(rows: list[ScoredRow]) -> tuple[np.ndarray, np.ndarray]:
    """0/1 arrays of correct and invalid."""
    correct = np.fromiter((r.correct for r in rows), dtype=float, count=len(rows))
    invalid = np.fromiter((r.invalid for r in rows), dtype=float, count=len(rows))
    return correct, invalid
