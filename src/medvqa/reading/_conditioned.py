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
from medvqa.reading._forced import FORCED_AFTER_IF
from medvqa.reading._options import OptionSet
from medvqa.reading.rules import Kind

__all__ = ["CONDITIONED", "conditioned_answer"]

CONDITIONED: Final = "alternative.conditioned"
# Punctuation, and a tick or an arrow marking the option's line ("B) 0-Is ✓ (if …)").
_BETWEEN: Final = re.compile(r"[\s,;:*_()\u2013\u2014\u2713\u2714\u2705\u2611\u2190<-]*")
_REACH: Final = 24
_CONDITION: Final = frozenset({Kind.CONDITION})


def conditioned_answer(text: str, chosen: str, ix: OptionSet, bk: RuleBook) -> bool:
    """Whether the last mention of ``chosen`` in ``text`` is bound to a condition."""
    span = last_mention(text, chosen, ix)
    if span is None:
        return False
    end = span[1]
    if not may_be_conditioned(text, end, bk):
        return False
    return conditioned_at(text, end, bk)


def may_be_conditioned(text: str, end: int, bk: RuleBook) -> bool:
    """False only where no condition can follow a mention ending at ``end``: a gate.

    Where the window after the mention ends between words of an ASCII text, its words are the
    text's: a text without a condition's words holds none in the window.
    """
    if not text.isascii() or text[end + _REACH - 1:end + _REACH + 1].isalnum():
        return True
    lowered = text.lower()
    return bk.any_of(_CONDITION, lowered, word_tokens(lowered))


def conditioned_at(text: str, end: int, bk: RuleBook) -> bool:
    """Whether a condition follows a mention ending at ``end`` (no gate)."""
    window = text[end:end + _REACH].lower()
    lead = _BETWEEN.match(window)
    at = lead.end() if lead is not None else 0
    for start, stop, _rule in bk.spans(Kind.CONDITION, window, word_tokens(window)):
        if start == at and FORCED_AFTER_IF.match(window, stop) is None:
            return True
    return False
