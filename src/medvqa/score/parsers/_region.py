r"""``region``: sets of region IDs, as LMOD asks (``Region ID: 3; Type: optic disc``).

Parses every ``Region ID: …`` field (several IDs per field allowed), or else a plain list of
integers, into a sorted list of ID strings; no ID → invalid. :func:`region_scores` computes
precision, recall, F1 and LMOD's hallucination resistance HR = 1 − |pred ∖ gold| / |pred|.
An empty prediction has precision 0, recall 0 (if gold is non-empty) and HR 1 (it hallucinated
nothing); an empty prediction against an empty gold scores 1 everywhere.

>>> RegionParser().parse("Region ID: 3; Type: disc\\nRegion ID: 1; Type: cup", {}, "region")
ParsedAnswer(choice=['1', '3'], invalid=False)
>>> region_scores(["1", "4"], ["1", "2"]).hallucination_resistance
0.5
"""

from __future__ import annotations

import re
from typing import NamedTuple

from medvqa.score.parsers._base import INVALID, ParsedAnswer

_FIELD = re.compile(r"region\s*ids?\s*[:=]?\s*((?:\d+\s*(?:,|and|&|\s)\s*)*\d+)", re.IGNORECASE)
_INT = re.compile(r"\d+")


class RegionScores(NamedTuple):
    """Per-item region scores in [0, 1]."""

    precision: float
    recall: float
    f1: float
    hallucination_resistance: float


def region_scores(pred: list[str], gold: list[str]) -> RegionScores:
    """Set precision, recall, F1 and hallucination resistance of predicted region IDs."""
    p, g = set(pred), set(gold)
    if not p and not g:
        return RegionScores(1.0, 1.0, 1.0, 1.0)
    tp = len(p & g)
    precision = tp / len(p) if p else 0.0
    recall = tp / len(g) if g else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    hr = 1.0 - len(p - g) / len(p) if p else 1.0
    return RegionScores(precision, recall, f1, hr)


class RegionParser:
    """Region ID lists from LMOD-format or plain responses."""

    style = "region"
    compares_text = False

    def parse(self, response: str, options: dict[str, str], question_type: str) -> ParsedAnswer:
        """Collect the region IDs named in ``response``."""
        if not isinstance(response, str):
            return INVALID
        fields = _FIELD.findall(response)
        ids = ({i for f in fields for i in _INT.findall(f)} if fields
               else set(_INT.findall(response)))
        return ParsedAnswer(sorted(ids, key=int), False) if ids else INVALID
