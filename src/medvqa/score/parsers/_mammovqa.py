r"""``mammovqa``: the published MammoVQA answer matcher, reproduced with its quirks (seed 000).

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
too would pick CC). Multiple choice: the lower-cased response's ``\b\w+\b`` tokens select every
option any of whose candidate strings contains one of them.

difflib and fuzzywuzzy (without python-Levenshtein) are what produced the published numbers;
rapidfuzz computes other similarities and changes decisions (MEASUREMENTS.md). Ratios are cached
per (response, candidate), and a candidate whose length bound (``real_quick_ratio``) is below the
best exact ratio is not scored; neither can change a decision, and both make it ~6× faster.

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


def _bound(response: str, candidate: str) -> float:
    """``SequenceMatcher.real_quick_ratio``: an upper bound of the ratio from the lengths alone.

    It uses the same float formula as ``ratio`` with a larger match count, so a candidate whose
    bound is below the best exact ratio cannot reach the maximum (pruning keeps every decision).
    """
    la, lb = len(response), len(candidate)
    return 2.0 * min(la, lb) / (la + lb) if la + lb else 1.0


def _owner(candidate: str, options: dict[str, str]) -> str | None:
    """The option a candidate stands for, as the reference maps it back.

    The option whose ``L: text`` equals it, else the first option whose letter or text does.
    """
    for letter, text in options.items():
        if candidate == f"{letter}: {text}":
            return letter
    for letter, text in options.items():
        if candidate in (letter, text):
            return letter
    return None


def _combined(score: dict[str, float], options: dict[str, str]) -> str | None:
    """The combined-score tie-break: ratio of ``L: text`` + its letter's + its text's."""
    combined = [
        (letter,
         score.get(f"{letter}: {text}", 0.0) + score.get(letter, 0.0) + score.get(text, 0.0))
        for letter, text in options.items()
    ]
    best = max(s for _, s in combined)
    winners = {letter for letter, s in combined if s == best}
    return winners.pop() if len(winners) == 1 else None


def _pick(ranked: list[tuple[str, float]], options: dict[str, str]) -> str | None:
    """Top-scoring candidates → one option, else the combined-score tie-break, else None."""
    top = max(s for _, s in ranked)
    owners = {_owner(c, options) for c, s in ranked if s == top}
    if len(owners) == 1:
        return owners.pop()
    return _combined(dict(ranked), options)


def _difflib_pick(response: str, candidates: list[str], options: dict[str, str]) -> str | None:
    """The difflib stage, computing exact ratios only where the length bound can reach the top."""
    order = sorted(range(len(candidates)), key=lambda i: -_bound(response, candidates[i]))
    scores: dict[int, float] = {}
    best = -1.0
    for i in order:
        if _bound(response, candidates[i]) < best:
            break
        scores[i] = _ratio(response, candidates[i])
        best = max(best, scores[i])
    owners = {_owner(candidates[i], options) for i, s in scores.items() if s == best}
    if len(owners) == 1:
        return owners.pop()
    # A tie between options: the tie-break needs every ratio.
    return _combined({c: _ratio(response, c) for c in candidates}, options)


@lru_cache(maxsize=20_000)
def _wratio(response: str, candidates: tuple[str, ...]) -> tuple[tuple[str, float], ...]:
    """Fuzzywuzzy ``process.extract(response, candidates, limit=50)``: WRatio, default processor."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # fuzzywuzzy warns it runs on pure-Python difflib
        from fuzzywuzzy import process, utils

    if not utils.full_process(response):
        # fuzzywuzzy would log a warning and score every candidate 0: a full tie.
        return tuple((c, 0.0) for c in candidates)
    ranked = process.extract(response, list(candidates), limit=50)
    return tuple((c, float(s)) for c, s in ranked)


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
        choice = _difflib_pick(response, candidates, options)
        if choice is None:
            choice = _pick(self._wratio(response, candidates), options)
        return ParsedAnswer(choice, False) if choice else INVALID

    @staticmethod
    def _wratio(response: str, candidates: list[str]) -> list[tuple[str, float]]:
        return list(_wratio(response, tuple(candidates)))

    @staticmethod
    def _multi(response: str, options: dict[str, str]) -> ParsedAnswer:
        tokens = set(_WORD.findall(response.lower()))
        candidates = [*options, *(f"{k}: {v}" for k, v in options.items()), *options.values()]
        hit = [c for c in candidates if tokens.intersection(_WORD.findall(c.lower()))]
        chosen = {o for c in hit if (o := _owner(c, options)) is not None}
        # Nothing selected scores 0 in the reference; here it is reported as an abstention.
        return ParsedAnswer(sorted(chosen), False) if chosen else INVALID
