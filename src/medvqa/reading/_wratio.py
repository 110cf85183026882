r"""WRatio and ``extract``: the fuzzy ranking of MammoVQA's last tie-break, without fuzzywuzzy.

The published MammoVQA scorer breaks its remaining ties with fuzzywuzzy 0.18 (GPL-2.0),
``process.extract(response, candidates, limit=50)``, running on Python's :mod:`difflib`
(python-Levenshtein absent). This module computes the same integer scores in the same order
with :class:`difflib.SequenceMatcher` alone, so an Apache-2.0 package needs no GPL code. It is
written from fuzzywuzzy's documentation and from its observed behaviour (called as a black box
in ``tests/reading/test_wratio.py``, never from its source). rapidfuzz's ``WRatio`` (with its
``default_process``) is not a substitute: it measures another similarity, scores about a quarter
of MammoVQA-like (response, candidate) pairs differently and so changes decisions.

**WRatio**, as fuzzywuzzy documents it:

1. *Process* both strings (:func:`full_process`, ASCII forced); if either becomes empty the
   score is 0.
2. The base score is the plain :func:`ratio` of the processed strings.
3. When the longer is at least 1.5 times as long as the shorter, *partial* comparisons are used,
   scaled by 0.9 (so that only a full match scores 100), or by 0.6 when it is more than 8 times
   as long: :func:`partial_ratio` and the partial token sort and token set ratios. Otherwise
   :func:`token_sort_ratio` and :func:`token_set_ratio`. Every token comparison is scaled by
   0.95 as well (on top of the partial scale).
4. The highest of these, rounded, is the score.

**What the documentation leaves open**, fixed by observation of fuzzywuzzy 0.18 and checked
against it by a property test:

- Every ratio is ``round(100 * SequenceMatcher(None, a, b).ratio())`` with the arguments in
  the order given: Python's rounding, half to even (12.5 → 12, 37.5 → 38); the scaled scores
  are products of these integers, rounded once more at the end.
- *Processing* replaces every non-word character (``\W``) by a space, lower-cases, and strips;
  forcing ASCII first deletes only the characters U+0080–U+00FF (``é`` goes, ``İ`` and ``中``
  stay). Processed strings are not processed again inside WRatio, although processing twice can
  differ (``"İ"`` lower-cases to ``i`` and a combining dot, which a second pass turns into a
  space).
- The partial ratio compares the shorter string (the first when lengths are equal) with the
  windows of the longer that start where each of their matching blocks would align them
  (``max(0, j - i)``, windows cut short at the end), the best window counting; an empty
  string's partial ratio is 0 unless both are empty.
- Token sort joins the sorted whitespace-separated tokens with one space. Token set compares
  the sorted shared tokens *S* with *S* + the sorted rest of the first (*T1*), with *S* + the
  sorted rest of the second (*T2*), and *T1* with *T2*, each joined by single spaces and
  stripped; the best pair counts.
- ``extract`` first processes the query with its default processor (ASCII not forced), and
  WRatio then processes it again; the choices are processed by WRatio only. A query that its
  processor empties scores every choice 0. Results are ordered by score, ties in the choices'
  order, at most ``limit`` of them.

>>> ratio("this is a test", "this is a test!")
97
>>> partial_ratio("this is a test", "this is a test!")
100
>>> wratio("Left or Right", "B: Right")
86
>>> extract("new york jets", ["Atlanta Falcons", "New York Jets", "New York Giants"], limit=2)
[Match(choice='New York Jets', score=100), Match(choice='New York Giants', score=79)]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from typing import NamedTuple

_NON_WORD = re.compile(r"\W")
# Forcing ASCII deletes the Latin-1 supplement only: what fuzzywuzzy 0.18 does, observed.
_LATIN1 = dict.fromkeys(range(0x80, 0x100))
# Length ratio from which partial comparisons are used, and above which they weigh less.
_PARTIAL_FROM, _FAR_ABOVE = 1.5, 8.0
_PARTIAL_SCALE, _FAR_SCALE, _TOKEN_SCALE = 0.9, 0.6, 0.95
# A window ratio above this already scores 100 (no later window can score more): stop there.
_ROUNDS_TO_100 = 0.995


class Match(NamedTuple):
    """One ranked choice of :func:`extract`."""

    choice: str
    """The choice as given (unprocessed)."""
    score: int
    """Its WRatio against the query, 0-100."""


def full_process(text: str, *, force_ascii: bool = False) -> str:
    """Non-word characters to spaces, lower case, stripped; U+0080-U+00FF dropped first if asked.

    >>> full_process("Hello, World!")
    'hello  world'
    >>> full_process("Café", force_ascii=True)
    'caf'
    """
    if force_ascii:
        text = text.translate(_LATIN1)
    return _NON_WORD.sub(" ", text).lower().strip()


def ratio(a: str, b: str) -> int:
    """``difflib`` similarity of ``a`` and ``b`` in that order, as a rounded percentage.

    >>> ratio("abc", "abc" + "z" * 10)  # 37.5 rounds to even
    38
    """
    return round(100 * SequenceMatcher(None, a, b).ratio())


def partial_ratio(a: str, b: str) -> int:
    """The best :func:`ratio` of the shorter string against the block-aligned windows of the longer.

    >>> partial_ratio("ab", "ddda")  # the window at the end is cut short: "ab" vs "a"
    67
    """
    if a == b:
        return 100
    if not a or not b:
        return 0
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    width = len(short)
    best = 0.0
    seen: set[int] = set()
    for i, j, _ in SequenceMatcher(None, short, long).get_matching_blocks():
        start = max(0, j - i)
        if start in seen:  # blocks on one diagonal share their window
            continue
        seen.add(start)
        best = max(best, SequenceMatcher(None, short, long[start:start + width]).ratio())
        if best > _ROUNDS_TO_100:
            break
    return round(100 * best)


def _sorted_tokens(processed: str) -> str:
    return " ".join(sorted(processed.split()))


def token_sort_ratio(a: str, b: str, *, partial: bool = False) -> int:
    """:func:`ratio` (or :func:`partial_ratio`) of the processed strings' sorted tokens.

    >>> token_sort_ratio("wuzzy fuzzy was a bear", "fuzzy wuzzy was a bear")
    100
    """
    compare = partial_ratio if partial else ratio
    return compare(_sorted_tokens(a), _sorted_tokens(b))


def token_set_ratio(a: str, b: str, *, partial: bool = False) -> int:
    """Shared tokens against each side's shared-plus-own tokens and those two against each other.

    >>> token_set_ratio("fuzzy was a bear", "fuzzy fuzzy was a bear")
    100
    """
    compare: Callable[[str, str], int] = partial_ratio if partial else ratio
    first, second = set(a.split()), set(b.split())
    shared = " ".join(sorted(first & second))
    with_first = f"{shared} {' '.join(sorted(first - second))}".strip()
    with_second = f"{shared} {' '.join(sorted(second - first))}".strip()
    return max(compare(shared, with_first), compare(shared, with_second),
               compare(with_first, with_second))


def _wratio_processed(p1: str, p2: str) -> int:
    """WRatio of two already processed strings (steps 2-4 of the module's description)."""
    if not p1 or not p2:
        return 0
    base = ratio(p1, p2)
    length_ratio = max(len(p1), len(p2)) / min(len(p1), len(p2))
    if length_ratio < _PARTIAL_FROM:
        return round(max(base, token_sort_ratio(p1, p2) * _TOKEN_SCALE,
                         token_set_ratio(p1, p2) * _TOKEN_SCALE))
    scale = _FAR_SCALE if length_ratio > _FAR_ABOVE else _PARTIAL_SCALE
    return round(max(base, partial_ratio(p1, p2) * scale,
                     token_sort_ratio(p1, p2, partial=True) * _TOKEN_SCALE * scale,
                     token_set_ratio(p1, p2, partial=True) * _TOKEN_SCALE * scale))


def wratio(s1: str, s2: str) -> int:
    """The weighted ratio (fuzzywuzzy's WRatio) of two strings, 0-100: see the module's text.

    >>> wratio("EXTREMELY DENSE", "Extremely dense")
    100
    >>> wratio("é", "é")  # nothing is left after forcing ASCII
    0
    """
    return _wratio_processed(full_process(s1, force_ascii=True),
                             full_process(s2, force_ascii=True))


def extract(query: str, choices: Sequence[str], limit: int = 5) -> list[Match]:
    """The ``limit`` best choices by :func:`wratio` against the processed query, ties in order.

    >>> [score for _, score in extract("Left or Right", ["A: Left", "Left", "Right", "B"])]
    [90, 90, 86, 0]
    """
    processed = full_process(full_process(query), force_ascii=True)
    scored = [Match(c, _wratio_processed(processed, full_process(c, force_ascii=True)))
              for c in choices]
    # sorted is stable: equal scores keep the choices' order.
    return sorted(scored, key=lambda m: m.score, reverse=True)[:limit]
