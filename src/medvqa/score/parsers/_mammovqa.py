"""``mammovqa``: the published MammoVQA answer matcher, reproduced with its quirks (seed 000).

Single choice and yes/no. Every option has three candidate strings, listed letters first, then
``L: text`` strings, then texts. Each candidate (lower-cased) is compared with the response by
:class:`difflib.SequenceMatcher` ratio; candidates are ranked by ratio (stable), and those at the
maximum are mapped back to options (a letter or text maps to the first option whose letter or
text equals it). One option → chosen. Otherwise the *combined* score of each ``L: text``
candidate (its ratio + its letter's + its text's) decides; a tie again → fuzzywuzzy
``process.extract(response, candidates, limit=50)`` (WRatio, default processor) ranks the
candidates and the same two steps repeat on its scores; a tie after that → no choice (score 0).
A refusal or garbage therefore still lands on some option nearly always.

The response keeps its case in the difflib stage: that is what reproduces the reference outputs
listed in REFERENCE_SCORING.md (``This is a CC view mammogram.`` → MLO; lower-casing the response
too would pick CC). Multiple choice: the lower-cased response's ``\\b\\w+\\b`` tokens select every
option any of whose candidate strings contains one of them.

difflib and fuzzywuzzy (without python-Levenshtein) are what produced the published numbers;
rapidfuzz computes other similarities and changes decisions (MEASUREMENTS.md). Ratios are cached
per (response, candidate), which cannot change a decision.

>>> p = MammoVQAParser()
>>> p.parse("Answer: B", {"A": "Left", "B": "Right"}, "single").choice
'A'
>>> p.parse("This is a CC view mammogram.", {"A": "CC", "B": "MLO"}, "single").choice
'B'
"""

from __future__ import annotations

import re
import warnings
from difflib import SequenceMatcher
from functools import lru_cache

from medvqa.score.parsers._base import INVALID, ParsedAnswer

_WORD = re.compile(r"\b\w+\b")


@lru_cache(maxsize=200_000)
def _ratio(response: str, candidate: str) -> float:
    return SequenceMatcher(None, response, candidate.lower()).ratio()


def _owner(candidate: str, options: dict[str, str]) -> str | None:
    """The option a candidate string stands for: first whose ``L: text``, letter or text equals it."""
    for letter, text in options.items():
        if candidate in (f"{letter}: {text}", letter, text):
            return letter
    return None


def _pick(ranked: list[tuple[str, float]], options: dict[str, str]) -> str | None:
    """Top-ranked candidates → one option, else the combined-score tie-break, else None."""
    top = ranked[0][1]
    owners = {_owner(c, options) for c, s in ranked if s == top}
    if len(owners) == 1:
        return owners.pop()
    score = dict(ranked)
    combined = [
        (letter, score.get(f"{letter}: {text}", 0.0) + score.get(letter, 0.0) + score.get(text, 0.0))
        for letter, text in options.items()
    ]
    best = max(s for _, s in combined)
    winners = {letter for letter, s in combined if s == best}
    return winners.pop() if len(winners) == 1 else None


class MammoVQAParser:
    """Bit-for-bit reproduction of the MammoVQA answer matcher."""

    style = "mammovqa"

    def parse(self, response: str, options: dict[str, str], question_type: str) -> ParsedAnswer:
        """Map a response to an option the way the published scorer does."""
        if not isinstance(response, str) or not options:
            return INVALID
        if question_type == "multi":
            return self._multi(response, options)
        candidates = [*options, *(f"{k}: {v}" for k, v in options.items()), *options.values()]
        ranked = sorted(((c, _ratio(response, c)) for c in candidates), key=lambda cs: -cs[1])
        choice = _pick(ranked, options)
        if choice is None:
            choice = _pick(self._wratio(response, candidates), options)
        return ParsedAnswer(choice, False) if choice else INVALID

    @staticmethod
    def _wratio(response: str, candidates: list[str]) -> list[tuple[str, float]]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # fuzzywuzzy warns it runs on pure-Python difflib
            from fuzzywuzzy import process, utils

        if not utils.full_process(response):
            # fuzzywuzzy would log a warning and score every candidate 0: a full tie.
            return [(c, 0.0) for c in candidates]
        return [(c, float(s)) for c, s in process.extract(response, candidates, limit=50)]

    @staticmethod
    def _multi(response: str, options: dict[str, str]) -> ParsedAnswer:
        tokens = set(_WORD.findall(response.lower()))
        chosen = [
            letter
            for letter, text in options.items()
            if tokens & {letter.lower(), *_WORD.findall(f"{letter}: {text}".lower())}
        ]
        return ParsedAnswer(sorted(chosen), False) if chosen else INVALID
