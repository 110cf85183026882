"""How much of a score is the reader: rules only, with an extractor, and other parser styles.

``medvqa score --extract MODEL`` and ``--styles strict,mammovqa`` both ask the same question of
a run — would the figure change if its responses were read differently? — and answer it per
condition, side by side, in metrics.json's ``reading`` block, the console and the report:

- **rules only**: accuracy and invalid rate as the style's rules read the responses;
- **with extraction**: the same after the extractor read the responses the rules abstained on
  for want of a reading (never a refusal, hedge or negation: :func:`~medvqa.score.eligible`);
  its decisions never override a rule's. The run's own figures (``conditions``) are these.
- **other styles**: each compared style's accuracy and invalid rate on the same predictions,
  and how many predictions it reads differently (another option, or an answer where the other
  abstains); every such prediction is a line of RUN/``style_disagreements.jsonl``.

Rates are over the scored predictions of the condition (failed requests are not scored).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from medvqa.conditions import condition_order, get_condition
from medvqa.reading import (
    AnswerParser,
    ExtractCandidate,
    Extraction,
    ExtractResult,
    eligible,
    make_parser,
)
from medvqa.schema import Item, Prediction, RecordError, read_numbered
from medvqa.score._items import ItemTable
from medvqa.score._rows import ScoredRow, score_row

__all__ = ["DISAGREEMENTS_FILE", "EXTRACTIONS_FILE", "ConditionReading", "ReadingTally",
           "StyleCount", "choice_style", "collect_candidates"]

#: Every prediction two styles read differently (one JSON object a line).
DISAGREEMENTS_FILE = "style_disagreements.jsonl"
#: Every extractor decision: choice, status, raw reply, error, who read it.
EXTRACTIONS_FILE = "extractions.jsonl"


def choice_style(item: Item, style: str) -> str:
    """The parser style that reads ``item``: open and region answers have their own."""
    qtype = item.question_type
    return qtype if qtype in {"open", "region"} else style


def collect_candidates(pred_path: Path, items: ItemTable, style: str, seed: int,
                       parser_seed: int) -> Iterator[ExtractCandidate]:
    """The responses the rules abstain on for want of a reading, in file order.

    The same reading as the scoring pass (a fresh parser per condition and style, the lines in
    file order), so the candidates are exactly the predictions that pass leaves open. Lines
    that pass will report as bad, failed requests and unknown items are passed over silently.
    """
    transforms: dict[str, Any] = {}
    parsers: dict[tuple[str, str], AnswerParser] = {}
    bad: list[RecordError] = []
    for _, pred in read_numbered(pred_path, Prediction, bad):
        bad.clear()
        index = items.find(pred.item_id)
        if index is None or pred.error is not None or pred.response is None:
            continue
        cond = pred.condition
        if cond not in transforms:
            transforms[cond] = get_condition(cond, seed).transform_item
        shown = transforms[cond](items.item(index))
        if not shown.options:
            continue
        key = (cond, choice_style(shown, style))
        if key not in parsers:
            parsers[key] = make_parser(key[1], seed=parser_seed)
        try:
            parsed = parsers[key].parse(pred.response, shown.options, shown.question_type,
                                        question=shown.question)
        except Exception:  # noqa: BLE001 - a reader's bug: the scoring pass reports its line
            continue
        if eligible(parsed):
            yield ExtractCandidate.from_item(shown, cond, pred.response)


@dataclass
class StyleCount:
    """One compared style on one condition: right, abstained, read differently."""

    correct: int = 0
    invalid: int = 0
    disagree: int = 0


@dataclass
class ConditionReading:
    """One condition's counts under each reader."""

    n: int = 0
    rules_correct: int = 0
    rules_invalid: int = 0
    rescued: int = 0
    correct: int = 0
    invalid: int = 0
    styles: dict[str, StyleCount] = field(default_factory=dict)


@dataclass
class ReadingTally:
    """What the scoring pass needs to read with more than the rules, and what it counted.

    Attributes:
        extractions: (item id, condition) → the extractor's decision (taken where
            :func:`~medvqa.score.rescue` says).
        compare: the other styles to read every prediction with.
        parser_seed: seed of a seeded compared style.
        disagreements: where the differently read predictions are written (open while scoring).
        conditions: condition → counts.
    """

    extractions: Mapping[tuple[str, str], Extraction] = field(default_factory=dict)
    compare: tuple[str, ...] = ()
    parser_seed: int = 0
    disagreements: IO[str] | None = None
    conditions: dict[str, ConditionReading] = field(default_factory=dict)
    _parsers: dict[tuple[str, str], AnswerParser] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        """Whether anything beyond the rules was asked for."""
        return bool(self.extractions) or bool(self.compare)

    def count(self, shown: Item, pred: Prediction, final: ScoredRow, style: str) -> None:
        """Count one scored prediction under every reader (and write it if styles disagree).

        A row the extractor read was, by the rules alone, invalid and so not right.
        """
        c = self.conditions.get(pred.condition)
        if c is None:
            c = self.conditions[pred.condition] = ConditionReading(
                styles={s: StyleCount() for s in self.compare})
        c.n += 1
        c.rules_correct += final.correct and not final.extracted
        c.rules_invalid += final.invalid or final.extracted
        c.rescued += final.extracted
        c.correct += final.correct
        c.invalid += final.invalid
        for other in self.compare:
            key = (pred.condition, choice_style(shown, other))
            parser = self._parsers.get(key)
            if parser is None:
                parser = self._parsers[key] = make_parser(key[1], seed=self.parser_seed)
            row = score_row(shown, pred, parser)
            count = c.styles[other]
            count.correct += row.correct
            count.invalid += row.invalid
            if _key(row.choice) != _key(final.choice):
                count.disagree += 1
                if self.disagreements is not None:
                    self.disagreements.write(json.dumps({
                        "item_id": pred.item_id, "condition": pred.condition,
                        style: final.choice, other: row.choice,
                        f"{style}_correct": final.correct, f"{other}_correct": row.correct,
                        "response": pred.response}, ensure_ascii=False) + "\n")

    def block(self, style: str, extraction: ExtractResult | None) -> dict[str, Any]:
        """metrics.json's ``reading``: per condition, every reader's figures side by side."""
        by_cond: dict[str, dict[str, Any]] = {}
        asked = _per_condition(extraction)
        for cond in sorted(self.conditions, key=condition_order):
            c = self.conditions[cond]
            entry: dict[str, Any] = {
                "n": c.n,
                "rules": {"accuracy": _rate(c.rules_correct, c.n),
                          "invalid_rate": _rate(c.rules_invalid, c.n)},
            }
            if extraction is not None:
                counts = asked.get(cond, {})
                entry["extraction"] = {
                    "accuracy": _rate(c.correct, c.n), "invalid_rate": _rate(c.invalid, c.n),
                    "rescued": c.rescued, "rescue_rate": _rate(c.rescued, c.n),
                    "asked": counts.get("asked", 0), "none": counts.get("none", 0),
                    "errors": counts.get("error", 0)}
            if self.compare:
                entry["styles"] = {s: {"accuracy": _rate(k.correct, c.n),
                                       "invalid_rate": _rate(k.invalid, c.n),
                                       "disagree": k.disagree}
                                   for s, k in c.styles.items()}
            by_cond[cond] = entry
        out: dict[str, Any] = {"style": style, "conditions": by_cond}
        if extraction is not None:
            out["extractor"] = {**extraction.provenance, **extraction.counts(),
                                "file": EXTRACTIONS_FILE}
        if self.compare:
            out["compared_styles"] = list(self.compare)
            out["disagreements_file"] = DISAGREEMENTS_FILE
        return out


def _key(choice: str | list[str] | None) -> Any:
    return tuple(choice) if isinstance(choice, list) else choice


def _rate(k: int, n: int) -> float | None:
    return round(k / n, 6) if n else None


def _per_condition(extraction: ExtractResult | None) -> dict[str, dict[str, int]]:
    """Condition → how many the extractor was asked, said NONE to, and failed on."""
    out: dict[str, dict[str, int]] = {}
    for e in extraction.extractions if extraction is not None else []:
        counts = out.setdefault(e.condition, {"asked": 0, "none": 0, "error": 0})
        counts["asked"] += 1
        if e.status in ("none", "error"):
            counts[e.status] += 1
    return out
