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

__all__ = ["SCORES", "SCORES_TOP", "letter_scores_blanked", "option_scores", "scored_otherwise",
           "top_scored"]

SCORES: Final = "structural.scores"
SCORES_TOP: Final = "structural.scores-top"
#: A score table alone answers only where its top holds this share of the whole and this many
#: times the next option's score: three quarters, clearly ahead (blind writers disagree on a
#: top of 0.58 or 0.70; the reader abstains there).
TOP_SHARE: Final = 0.75
TOP_LEAD: Final = 2.0
# a probability (0.45, .45, 1.0) or a percentage (45 %, 45%)
_SCORE: Final = r"[ \t]*[:=][ \t]*(?P<p>(?:0?\.\d+|1(?:\.0+)?)(?![\d.%])|\d{1,3}(?:\.\d+)?[ \t]*%)"
_LETTER_SCORE: Final = re.compile(r"(?<![\w'])(?P<k>[A-Z])[\"']?[)\]]?(?:" + _SCORE
                                  + r"|[ \t]+(?P<q>"
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


def top_scored(text: str, ix: OptionSet) -> str | None:
    """The option a score table alone answers: every option scored, the scores a distribution.

    The top must hold a majority of the whole (:data:`TOP_SHARE`) and lead the next by
    :data:`TOP_LEAD` times (``structural.scores-top``): a classifier's output read as its
    prediction only where it is one ("A: 0.81, B: 0.11 …"; not "A: 0.58, B: 0.30").

    >>> from medvqa.reading._options import option_set
    >>> ix = option_set((("A", "ACL tear"), ("B", "PCL tear"), ("C", "Meniscal tear")))
    >>> top_scored('{"A": 0.8, "B": 0.1, "C": 0.1}', ix), top_scored("A: 0.70, B: 0.2, C: 0.1", ix)
    ('A', None)
    """
    scores = option_scores(text, ix)
    if len(scores) != len(ix.keys) or len(scores) < 2:
        return None
    total = sum(scores.values())
    if not 0.95 <= total <= 1.05:
        return None  # not one distribution (sigmoid outputs, a wrong sum): no prediction
    ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
    (top, first), (_, second) = ranked[0], ranked[1]
    if first / total < TOP_SHARE or first < TOP_LEAD * second:
        return None
    return top


def letter_scores_blanked(text: str) -> str:
    """The text with each letter's score ("A: 0.58", '"B": 0.11') blanked, for what else it says."""
    return _LETTER_SCORE.sub(lambda m: " " * len(m.group()), text)
