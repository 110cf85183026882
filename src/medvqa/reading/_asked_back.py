"""An answer given as a question has not been given: "Risposta… B?", "answer: Yes?".

Where the chosen option's last mention (its letter standing alone, its text, or the yes/no word
opening the answer) is followed by a question mark, with only markup or a bracket between, the
model asks rather than answers (``hedge.asked-back``). So is a yes/no answer whose opening
sentence, led by a yes or no word or by "no" before the finding, ends in a question mark ("No
subretinal fluid?"). A restated question ("Is there a pneumothorax? Yes.") is no such answer:
the mark closes the question, and the answer follows it.
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._answer_words import NO_WORDS, YES_WORDS
from medvqa.reading._coordinated import last_mention
from medvqa.reading._options import OptionSet

__all__ = ["ASKED_BACK", "asked_back"]

ASKED_BACK: Final = "hedge.asked-back"
_MARK_AFTER: Final = re.compile(r"[\s*_)\]\"'`]*[?\uff1f]")
# The opening sentence of a response, up to its first stop.
_OPENING: Final = re.compile(r"\s*([^.!?\n\uff1f\u3002]{1,120})([.!?\n\uff1f\u3002]|\Z)")
_FIRST_WORD: Final = re.compile(r"[\W_]*([^\W\d_]+)")
_WORDS: Final = re.compile(r"[^\W\d_]+")


def _asked_at(text: str, end: int) -> bool:
    """Whether a question mark follows ``end`` and no yes confirms it ("Pneumothorax? Yes.")."""
    mark = _MARK_AFTER.match(text, end)
    if mark is None:
        return False
    after = _FIRST_WORD.match(text, mark.end())
    return after is None or after.group(1).lower() not in YES_WORDS


def _letter_asked(text: str, chosen: str) -> bool:
    """Whether the letter ``chosen`` standing alone is last written with a question mark."""
    spots = [m.end() for m in re.finditer(rf"(?<![\w'\u2019-]){re.escape(chosen)}(?![\w'\u2019])",
                                          text)]
    return bool(spots) and _asked_at(text, spots[-1])


def _yes_no_asked(text: str, chosen: str, ix: OptionSet) -> bool:
    """Whether the last yes or no word of the chosen side is written with a question mark."""
    words = YES_WORDS if chosen == ix.yes else NO_WORDS
    spots = [m.end() for m in _WORDS.finditer(text) if m.group().lower() in words]
    return bool(spots) and _asked_at(text, spots[-1])


def asked_back(body: str, chosen: str, ix: OptionSet) -> bool:
    """Whether the answer ``chosen`` is written as a question (see the module docstring)."""
    text = body.rstrip()
    if not text or ("?" not in text and "\uff1f" not in text):
        return False
    if len(chosen) == 1 and _letter_asked(text, chosen):
        return True
    span = last_mention(text, chosen, ix)
    if span is not None and _asked_at(text, span[1]):
        return True
    if ix.yesno and _yes_no_asked(text, chosen, ix):
        return True
    if ix.yesno:
        opening = _OPENING.match(text)
        if opening is not None and opening.group(2) in ("?", "\uff1f"):
            first = _FIRST_WORD.match(opening.group(1))
            word = first.group(1).lower() if first is not None else ""
            return word in YES_WORDS or word in NO_WORDS
    return False
