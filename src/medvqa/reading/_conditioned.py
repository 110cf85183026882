"""An answer bound to a condition has not been given: "Lung-RADS 3 if this is a baseline scan".

Where the chosen option's last mention is followed, in its clause and with nothing but
punctuation between, by a condition (the words of ``discussed.condition``: "if", "unless",
"assuming", "provided that" …), the answer holds only where the condition does, which the
response does not say (``alternative.conditioned``). A forced choice ("B, if I had to pick")
commits.
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._book import RuleBook, word_tokens
from medvqa.reading._coordinated import last_mention
from medvqa.reading._options import OptionSet
from medvqa.reading.rules import Kind

__all__ = ["CONDITIONED", "conditioned_answer"]

CONDITIONED: Final = "alternative.conditioned"
# Punctuation, and a tick or an arrow marking the option's line ("B) 0-Is ✓ (if …)").
_BETWEEN: Final = re.compile(r"[\s,;:*_()\u2013\u2014\u2713\u2714\u2705\u2611\u2190<-]*")
# What follows "if" in a forced choice, which commits ("if I had to choose", "if forced").
_FORCED: Final = re.compile(r"\s*(?:i\s+(?:had|have|must|were)\b|forced|pressed|asked|pushed"
                            r"|made\s+to|one\s+must|you\s+(?:want|need|insist))")
_REACH: Final = 24


def conditioned_answer(text: str, chosen: str, ix: OptionSet, bk: RuleBook) -> bool:
    """Whether the last mention of ``chosen`` in ``text`` is bound to a condition."""
    span = last_mention(text, chosen, ix)
    if span is None:
        return False
    end = span[1]
    window = text[end:end + _REACH].lower()
    lead = _BETWEEN.match(window)
    at = lead.end() if lead is not None else 0
    for start, stop, _rule in bk.spans(Kind.CONDITION, window, word_tokens(window)):
        if start == at and _FORCED.match(window, stop) is None:
            return True
    return False
