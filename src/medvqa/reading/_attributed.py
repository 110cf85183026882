"""An answer reported from someone else, never adopted: not the response's own.

"According to the textbook answer key, the answer is D.", "The previous model output was 'B'.":
the response says what another source answered (an answer key, a dataset's label, a colleague,
another model) and gives no answer of its own (``structural.attributed-answer``). Where it
adopts or overrules that answer ("I agree: C", "but I'd go with A", "the image supports it"),
its own words are read as usual.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["ATTRIBUTED", "attributed_only"]

ATTRIBUTED: Final = "structural.attributed-answer"
_SOURCE: Final = re.compile(
    r"\b(?:answer[ \t]+key|(?:the|a|my|this)[ \t]+textbook(?![ \t]+(?:appearance|finding|case"
    r"|example|sign|picture|description|feature)s?\b)|dataset|(?:ground[ \t-]*truth|gold)"
    r"(?:[ \t]+label)?|reference[ \t]+answer|(?:my|a|the|our)[ \t]+(?:colleague|resident"
    r"|attending|fellow|supervisor|consultant|professor|teacher)|(?:another|previous|other"
    r"|earlier|first)[ \t]+(?:model|assistant|annotator|reader)|model[ \t]+output"
    r"|(?:reddit|online)[ \t]+thread|forum|question[ \t]+bank)\b", re.IGNORECASE)
_OWN: Final = re.compile(
    r"\b(?:agree[sd]?|concur|my[ \t]+(?:answer|own|reading|read|choice|pick|view)|i'd|i[ \t]+would"
    r"|i[ \t]+will|i'll|i[ \t]+(?:choose|pick|select|go|think|believe|see|read|disagree)"
    r"|going[ \t]+with|in[ \t]+my[ \t]+(?:view|opinion|reading)|final[ \t]+answer|supports?"
    r"|confirms?|confirmed|correct|right|disagree|instead|however|but)\b", re.IGNORECASE)


# (a word each source's name holds: most responses hold none, and the pattern is not run)
_CUES: Final = ("key", "textbook", "dataset", "truth", "gold", "reference", "colleague",
                "resident", "attending", "fellow", "supervisor", "consultant", "professor",
                "teacher", "model", "assistant", "annotator", "reader", "output", "thread",
                "forum", "bank")


def attributed_only(body: str) -> bool:
    """Whether ``body`` reports another source's answer and says nothing of its own."""
    lowered = body.lower()
    if not any(cue in lowered for cue in _CUES):
        return False
    return _SOURCE.search(body) is not None and _OWN.search(body) is None
