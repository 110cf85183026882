"""``pathmmu``: the MMMU-style letter parser PathMMU scores with, reproduced exactly (seed 004).

1. Strip ``, . ! ? ; : '`` from both ends (one ``str.strip`` per character, in that order) and
   pad with one space each side.
2. Candidates: letters ``X`` with ``(X)`` in the response; else letters with `` X ``; else, when
   the response has more than 5 tokens, letters whose option text occurs in it (case-insensitive).
3. No candidate: a random letter, one ``choice`` per fallback from ``random.Random(seed)``
   (seed 42 in the reference) — so results depend on input order, as published.
4. Several candidates: the one whose last occurrence (of ``(X)``, `` X `` or the option text,
   as found) is furthest right; ties go to the earlier letter.
5. The prediction is the chosen letter's option text, correct when it equals the gold text:
   ``choice`` stays the letter and :attr:`PathMMUParser.compares_text` makes :func:`is_correct`
   compare texts, so with two options of identical text either letter is right.

Reasoning traces are removed first (the published scorer never saw them); nothing else of the
locate step applies, so its golden decisions are unchanged.

>>> p = PathMMUParser()
>>> p.parse("(A) is better than C", {"A": "x", "B": "y", "C": "z"}, "single").choice
'A'
>>> p.parse("A, C", {"A": "x", "B": "y", "C": "z"}, "single").choice
'C'
"""

from __future__ import annotations

import random

from medvqa.reading._base import INVALID, ParsedAnswer
from medvqa.reading._locate import without_reasoning
from medvqa.reading._registry import PARSER_SEED

_STRIP = [",", ".", "!", "?", ";", ":", "'"]


class PathMMUParser:
    """MMMU-style parser with a seeded random fallback; one instance per scoring pass."""

    style = "pathmmu"
    compares_text = True

    def __init__(self, seed: int = PARSER_SEED):
        self.rng = random.Random(seed)
        self.fallbacks = 0

    def parse(self, response: str, options: dict[str, str], question_type: str, *,
              question: str = "") -> ParsedAnswer:
        """Pick a letter as the reference parser does (never invalid when options exist).

        Reasoning blocks are set aside first: the published scorer never saw traces.
        """
        if not isinstance(response, str) or not options:
            return INVALID
        response = without_reasoning(response)
        letters = list(options)
        for ch in _STRIP:
            response = response.strip(ch)
        padded = f" {response} "
        found = [c for c in letters if f"({c})" in padded]
        marker = "({})"
        if not found:
            found = [c for c in letters if f" {c} " in padded]
            marker = " {} "
        by_text = False
        if not found and len(padded.split()) > 5:
            found = [c for c in letters if options[c].lower() in padded.lower()]
            by_text = True
        if not found:
            self.fallbacks += 1
            return ParsedAnswer(self.rng.choice(letters), False)
        if len(found) == 1:
            return ParsedAnswer(found[0], False)
        if by_text:
            lowered = padded.lower()
            positions = [lowered.rfind(options[c].lower()) for c in found]
        else:
            positions = [padded.rfind(marker.format(c)) for c in found]
        return ParsedAnswer(found[positions.index(max(positions))], False)
