r"""``mammovqa``: the published MammoVQA answer matcher, reproduced with its quirks (seed 000).

Single choice and yes/no. Every option has three candidate strings, listed letters first, then
``L: text`` strings, then texts. Each candidate is compared with the response, **both lower-
cased**, by :class:`difflib.SequenceMatcher` ratio; candidates are ranked by ratio (stable), and
those at the maximum are mapped back to options (a letter or text maps to the first option whose
letter or text equals it). One option → chosen. Otherwise the *combined* score of each ``L:
text`` candidate (its ratio + its letter's + its text's) decides; a tie again → fuzzywuzzy
``process.extract(response, candidates, limit=50)`` (WRatio, default processor) ranks the
candidates and the same two steps repeat on its scores; a tie after that → no choice (score 0).
A refusal or garbage therefore still lands on some option nearly always. That ranking is
computed here by :func:`~._wratio.extract`: the same scores without fuzzywuzzy (GPL-2.0), which
only a test needs, to check them against it.

Reasoning traces (``<think>…</think>`` and the like) are removed before matching, and nothing
else of the locate step is applied: the published scorer never saw traces (its models did not
write them), so this is the only change that keeps its decisions meaningful on today's models;
its golden decisions are unchanged.

The published code lower-cases the response as well as each candidate (``This is a CC view
mammogram.`` with options ``A: MLO, B: CC`` → A). Multiple choice: the lower-cased response's
``\b\w+\b`` tokens select every option any of whose candidate strings contains one of them.

difflib and fuzzywuzzy (without python-Levenshtein) are what produced the published numbers;
rapidfuzz computes other similarities and changes decisions. Speed comes only
from work that cannot change a decision: ratios are cached per (response, candidate) and
decisions per (response, options); each candidate keeps one matcher with its character index
built once (``set_seq1`` reuses it, as difflib's documentation advises); and candidates are
scored in descending order of an upper bound of their ratio (the character-multiset bound of
``quick_ratio``, same float formula), stopping once the bound falls below the best exact ratio.

>>> p = MammoVQAParser()
>>> p.parse("Answer: B", {"A": "Left", "B": "Right"}, "single").choice
'A'
>>> p.parse("This is a CC view mammogram.", {"A": "MLO", "B": "CC"}, "single").choice
'A'
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from difflib import SequenceMatcher
from functools import lru_cache

from medvqa.reading._base import INVALID, ParsedAnswer
from medvqa.reading._locate import without_reasoning
from medvqa.reading._wratio import extract

_WORD = re.compile(r"\b\w+\b")
_LOCAL = threading.local()
_MATCHERS = 4096
# Short responses repeat verbatim across items: their decisions are kept.
_DECIDED: dict[tuple[str, tuple[tuple[str, str], ...]], str | None] = {}
_DECIDED_SIZE = 1 << 15
_DECIDED_LEN = 200


def _matcher(candidate: str) -> SequenceMatcher[str]:
    """A matcher of this thread with ``candidate`` as the second sequence, indexed once."""
    cache: dict[str, SequenceMatcher[str]] | None = getattr(_LOCAL, "matchers", None)
    if cache is None:
        cache = _LOCAL.matchers = {}
    matcher = cache.get(candidate)
    if matcher is None:
        if len(cache) >= _MATCHERS:
            cache.clear()
        matcher = cache[candidate] = SequenceMatcher(None, "", candidate)
    return matcher


@lru_cache(maxsize=200_000)
def _ratio(response: str, lowered: str) -> float:
    """``SequenceMatcher(None, response, lowered).ratio()``, the lowered candidate indexed once."""
    matcher = _matcher(lowered)
    matcher.set_seq1(response)
    return matcher.ratio()


class _Candidates:
    """Per option set, computed once: the candidates and the option each stands for.

    Candidates are in reference order, with their lower-cased forms and character counts.
    """

    __slots__ = ("counts", "lowered", "owner", "texts")

    def __init__(self, items: tuple[tuple[str, str], ...]):
        self.texts = [*(k for k, _ in items), *(f"{k}: {v}" for k, v in items),
                      *(v for _, v in items)]
        self.lowered = [c.lower() for c in self.texts]
        self.counts = [Counter(c) for c in self.lowered]
        # The option whose ``L: text`` equals a candidate, else the first whose letter or text does.
        owner: dict[str, str] = {}
        for k, v in items:
            owner.setdefault(f"{k}: {v}", k)
        for k, v in items:
            owner.setdefault(k, k)
            owner.setdefault(v, k)
        self.owner = owner


@lru_cache(maxsize=4096)
def _candidates(items: tuple[tuple[str, str], ...]) -> _Candidates:
    return _Candidates(items)


def _owner(candidate: str, options: dict[str, str]) -> str | None:
    """The option a candidate stands for, as the reference maps it back."""
    return _candidates(tuple(options.items())).owner.get(candidate)


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


def _bound(response_counts: Counter[str], la: int, counts: Counter[str], lb: int) -> float:
    """``quick_ratio``: an upper bound of the ratio from the shared character multiset.

    Matching blocks pair equal characters one to one, so their total never exceeds the
    multiset intersection; with the same float formula as ``ratio`` the bound is never below
    it, and a candidate whose bound is below the best exact ratio cannot reach the maximum.
    """
    shared = sum(min(n, response_counts[c]) for c, n in counts.items() if c in response_counts)
    return 2.0 * shared / (la + lb) if la + lb else 1.0


def _difflib_pick(response: str, options: dict[str, str]) -> str | None:
    """The difflib stage, computing exact ratios only where the bound can reach the top."""
    cands = _candidates(tuple(options.items()))
    rc, la = Counter(response), len(response)
    bounds = [_bound(rc, la, counts, len(low)) for counts, low in zip(cands.counts, cands.lowered,
                                                                       strict=True)]
    scores: dict[int, float] = {}
    best = -1.0
    for i in sorted(range(len(bounds)), key=bounds.__getitem__, reverse=True):
        if bounds[i] < best:
            break
        scores[i] = _ratio(response, cands.lowered[i])
        best = max(best, scores[i])
    owners = {cands.owner[cands.texts[i]] for i, s in scores.items() if s == best}
    if len(owners) == 1:
        return owners.pop()
    # A tie between options: the tie-break needs every ratio.
    return _combined({c: _ratio(response, low) for c, low in zip(cands.texts, cands.lowered,
                                                                   strict=True)}, options)


@lru_cache(maxsize=20_000)
def _wratio(response: str, candidates: tuple[str, ...]) -> tuple[tuple[str, float], ...]:
    """The reference's ``process.extract(response, candidates, limit=50)``: the WRatio ranking."""
    return tuple((c, float(s)) for c, s in extract(response, candidates, limit=50))


def _decide(response: str, options: dict[str, str]) -> str | None:
    """Single choice and yes/no: difflib (both sides lower-cased), then fuzzywuzzy, else None.

    fuzzywuzzy gets the response as given: its default processor lower-cases it.
    """
    choice = _difflib_pick(response.lower(), options)
    if choice is None:
        texts = tuple(_candidates(tuple(options.items())).texts)
        choice = _pick(list(_wratio(response, texts)), options)
    return choice


def clear_memo() -> None:
    """Forget cached ratios, decisions and candidate tables (benchmarks start cold with it)."""
    _DECIDED.clear()
    _ratio.cache_clear()
    _wratio.cache_clear()
    _candidates.cache_clear()
    getattr(_LOCAL, "matchers", {}).clear()


class MammoVQAParser:
    """Bit-for-bit reproduction of the MammoVQA answer matcher."""

    style = "mammovqa"
    compares_text = False

    def parse(self, response: str, options: dict[str, str], question_type: str, *,
              question: str = "") -> ParsedAnswer:
        """Map a response to an option the way the published scorer does.

        Reasoning blocks are set aside first (:func:`~._locate.without_reasoning`): the
        published scorer never saw traces. Nothing else of the locate step applies here.
        """
        if not isinstance(response, str) or not options:
            return INVALID
        response = without_reasoning(response)
        if question_type == "multi":
            return self._multi(response, options)
        if len(response) > _DECIDED_LEN:
            choice = _decide(response, options)
        else:
            key = (response, tuple(options.items()))
            if key in _DECIDED:
                choice = _DECIDED[key]
            else:
                if len(_DECIDED) >= _DECIDED_SIZE:
                    _DECIDED.clear()
                choice = _DECIDED[key] = _decide(response, options)
        return ParsedAnswer(choice, False) if choice else INVALID

    @staticmethod
    def _multi(response: str, options: dict[str, str]) -> ParsedAnswer:
        tokens = set(_WORD.findall(response.lower()))
        candidates = [*options, *(f"{k}: {v}" for k, v in options.items()), *options.values()]
        hit = [c for c in candidates if tokens.intersection(_WORD.findall(c.lower()))]
        chosen = {o for c in hit if (o := _owner(c, options)) is not None}
        # Nothing selected scores 0 in the reference; here it is reported as an abstention.
        return ParsedAnswer(sorted(chosen), False) if chosen else INVALID
