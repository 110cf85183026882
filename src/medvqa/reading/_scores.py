r"""Scores given to the options: an answer that is not the one the response scores highest.

Models asked for calibrated output write a probability beside each option ("A: 0.45, B: 0.05,
C: 0.45", "Mayo 0: 70 %, Mayo 1: 20 %"). Where two or more options carry a probability, the
answer read must be the one scored highest, and alone at the top: a tie, or a final answer
that is not the highest, says two things (``structural.scores``).

>>> from medvqa.reading._options import option_set
>>> ix = option_set((("A", "ACL tear"), ("B", "PCL tear"), ("C", "Meniscal tear")))
>>> scored_otherwise("A: 0.45, B: 0.10, C: 0.45", "A", ix)
True
>>> scored_otherwise("A: 0.80, B: 0.10, C: 0.10\nAnswer: A", "A", ix)
False
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._options import OptionSet

__all__ = ["SCORES", "scored_otherwise"]

SCORES: Final = "structural.scores"
# a probability (0.45, .45, 1.0) or a percentage (45 %, 45%)
_SCORE: Final = r"[ \t]*[:=][ \t]*(?P<p>(?:0?\.\d+|1(?:\.0+)?)(?![\d.%])|\d{1,3}(?:\.\d+)?[ \t]*%)"
_LETTER_SCORE: Final = re.compile(r"(?<![\w'])(?P<k>[A-Z])[)\]]?(?:" + _SCORE + r"|[ \t]+(?P<q>"
                                  r"\d{1,3}(?:\.\d+)?[ \t]*%))")


_MAYBE_SCORE: Final = re.compile(r"[:=][ \t]*\.?\d|\d[ \t]*%")
_QUALIFIER: Final = re.compile(r"\s*\([^()]*\)\s*$")


def _value(raw: str) -> float:
    raw = raw.replace(" ", "").replace("\t", "")
    return float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)


def option_scores(text: str, ix: OptionSet) -> dict[str, float]:
    """The probability the text gives each option, by its letter or its whole text."""
    # every score holds a number after a colon or an equals sign, or a number before "%":
    # fewer than two such places score fewer than two options (the common case, cheaply)
    if ":" not in text and "=" not in text and "%" not in text or len(
            _MAYBE_SCORE.findall(text)) < 2:
        return {}
    scores: dict[str, float] = {}
    for m in _LETTER_SCORE.finditer(text):
        if m.group("k") in ix.keys:
            scores.setdefault(m.group("k"), _value(m.group("p") or m.group("q")))
    lowered = text.lower()
    for k, option in ix.items:
        # the option's text, or its text without a qualifier in brackets ("Mayo 0 (normal)")
        for name in {option.strip().lower(), _QUALIFIER.sub("", option).strip().lower()}:
            if k in scores or not name:
                continue
            found = re.search(r"(?<![\w])" + re.escape(name) + _SCORE, lowered)
            if found is not None:
                scores[k] = _value(found.group("p"))
    return scores


def scored_otherwise(text: str, chosen: str, ix: OptionSet) -> bool:
    """Whether two or more options are scored and ``chosen`` is not alone at the top."""
    scores = option_scores(text, ix)
    if len(scores) < 2:
        return False
    top = max(scores.values())
    leaders = [k for k, v in scores.items() if v == top]
    return leaders != [chosen]
