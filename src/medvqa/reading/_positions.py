"""An option named by its position or its initial where no other reading was found.

"The correct choice is option 2", "the second option is correct", "Option 1", "the last
option": the option at that place in the item's display order. A response that is one capital
letter that is no option key but the initial of exactly one option text, on a yes/no or a
left/right item ("Y", "R"): that option. Each reads only where the rest of the reading found
no answer, and only where the text names one position (two positions are two answers: "option
2 or 3") and no other option holds that number as its value ("option 3" where B is "BI-RADS 3"
is a place or a value).
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._options import OptionSet

__all__ = ["position_letter", "strip_special_tokens"]

_ORDINALS: Final = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh",
                    "eighth", "ninth", "tenth")
_POSITION: Final = re.compile(
    r"\b(?:option|choice|answer)\s*(?:number\s*|no\.?\s*|#\s*)?(\d{1,2})\b"
    r"|\bthe\s+(" + "|".join(_ORDINALS) + r"|last|final)\s+(?:option|choice|one)\b",
    re.IGNORECASE)
# The end-of-text and turn markers small models print after their answer.
_SPECIAL: Final = re.compile(r"<\|[A-Za-z_]{2,32}\|>|</s>|<eos>|<pad>|<end_of_turn>|\[EOS\]")
_SIDES: Final = frozenset({"left", "right", "yes", "no"})
# A second place joined to the first: "2 or 3", "2/3", "2-3", "2 to 3", "2 and 3".
_SECOND_NUMBER: Final = re.compile(r"\s*(?:or|and|to|/|-|\u2013|,)\s*\d", re.IGNORECASE)
_NUMBER: Final = re.compile(r"\d+")


def _valued_elsewhere(number: str, at: str, ix: OptionSet) -> bool:
    """Whether an option other than the one at that place holds ``number`` in its text."""
    return any(number in _NUMBER.findall(text) for k, text in ix.items if k != at)


def strip_special_tokens(text: str) -> str:
    """The text without tokenizer markers (``<|endoftext|>``, ``</s>``, ``<end_of_turn>``)."""
    # (a marker ends what it follows: "Answer: E<|endoftext|>Answer: F" is two answers)
    return _SPECIAL.sub("\n", text).strip() if "<" in text or "[" in text else text


def position_letter(body: str, ix: OptionSet) -> str | None:
    """The letter an option's position or initial names in ``body``, or None."""
    keys = sorted(ix.keys)
    found = set()
    for m in _POSITION.finditer(body):
        word = (m.group(2) or "").lower()
        n = int(m.group(1)) if m.group(1) else len(keys) if word in ("last", "final") \
            else _ORDINALS.index(word) + 1
        if not 1 <= n <= len(keys) or _SECOND_NUMBER.match(body, m.end()):
            return None  # "Option 2 or 3": two places
        if m.group(1) and _valued_elsewhere(str(n), keys[n - 1], ix):
            return None  # "Option 3" where B is "BI-RADS 3": a place or a value
        found.add(keys[n - 1])
    if len(found) == 1:
        return found.pop()
    if found:
        return None
    text = body.strip(" \t\n.*_()[]")
    if len(text) == 1 and text.isupper() and text not in ix.keys:
        texts = [(k, t.strip().lower()) for k, t in ix.items]
        if all(t.split()[0] in _SIDES for _, t in texts if t) or ix.yesno:
            named = [k for k, t in texts if t[:1] == text.lower()]
            return named[0] if len(named) == 1 else None
    return None
