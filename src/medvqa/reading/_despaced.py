"""An option written with its letters spaced out or run together ("P u l m o n a r y").

OCR and tokenizer noise break words apart ("Pro lif er ative D R", "A n t e r i o r") or run
them together ("Pulmonaryembolism"). Where nothing else reads an answer, the response with its
white space removed (and a closing full stop) is compared with each option's text so reduced:
it is read as the one option it equals, after at most two of the rule table's answer-marker
words and a colon ("Ans wer:", "Final answer:"). Nothing else may be left over, so a negation,
a hedge, a question mark or a sign ("≥ 3"), however broken, leaves the response unread.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from medvqa.reading._book import RuleBook
from medvqa.reading._options import OptionSet
from medvqa.reading.rules import Kind

__all__ = ["despaced_letter"]

_SPACE: Final = re.compile(r"\s+")
#: Longer responses are sentences, not a broken answer.
MAX_CHARS: Final = 120


def _squeezed(text: str) -> str:
    """``text`` lower-cased with its white space and a closing full stop removed."""
    return _SPACE.sub("", text.lower()).removesuffix(".")


@lru_cache(maxsize=8)
def _leads(bk: RuleBook) -> frozenset[str]:
    """The answer markers squeezed, alone and in pairs, with a colon ("answer:")."""
    words = {_squeezed(w) for w in bk.sources(Kind.ANSWER_MARKER) if w.isalpha()}
    return frozenset({""} | {w + ":" for w in words} | {a + b + ":" for a in words
                                                        for b in words})


def despaced_letter(body: str, ix: OptionSet, bk: RuleBook) -> str | None:
    """The option a broken-up response writes exactly, or None (see the module docstring)."""
    if len(body) > MAX_CHARS or ix.yesno:
        return None
    squeezed = _squeezed(body)
    if not squeezed:
        return None
    leads = _leads(bk)
    found = {k for k, text in ix.items
             if (t := _squeezed(text)) and squeezed.endswith(t)
             and squeezed[:len(squeezed) - len(t)] in leads}
    return next(iter(found)) if len(found) == 1 else None
