"""An option named by its position or its initial where no other reading was found.

"The correct choice is option 2", "the second option is correct", "Option 1", "the last
option", "option (iii)", "the penultimate one", a response that is only "2nd" or "(iii)": the
option at that place in the item's display order. A response that is one capital
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
_ROMANS: Final = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")
_NUMBERED: Final = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th")
_ROMAN: Final = "|".join(sorted(_ROMANS, key=len, reverse=True))
_POSITION: Final = re.compile(
    r"\b(?:option|choice|answer)\s*(?:number\s*|no\.?\s*|#\s*)?(\d{1,2})\b"
    r"|\b(?:option|choice)\s*\(?(?P<roman>" + _ROMAN + r")\b\)?"
    r"|(?:\bthe\s+|^\s*)(?P<ordinal>" + "|".join(_ORDINALS) + "|" + "|".join(_NUMBERED)
    + r"|last|final|penultimate|second[\s-]+(?:to[\s-]+)?last)\s+(?:option|choice|one)\b"
    r"|\bthe\s+one\s+before\s+(?:the\s+)?(?P<before>last)\b",
    re.IGNORECASE)
# A response that is one place and nothing else: "1st", "(iii)", "iv". A lone "I", "V" or "X"
# is a pronoun or a letter as often as a place: only in brackets ("(v)").
_ALONE: Final = re.compile(r"\s*(?:\(?(?P<numbered>" + "|".join(_NUMBERED) + r")\)?|\((?P<roman>"
                           + _ROMAN + r")\)|(?P<bare>ii|iii|iv|vi|vii|viii|ix))[.!]?\s*",
                           re.IGNORECASE)
# An option text that is a value of a scale: a number, a roman numeral, an ordinal.
_GRADED: Final = re.compile(r"\d|\b(?:" + _ROMAN + "|" + "|".join(_ORDINALS) + r")\b",
                            re.IGNORECASE)
# A place said in a sentence that denies something: "Not the last one", "option 2 is wrong".
_DENIED: Final = re.compile(r"\b(?:not|no|never|none|except|excluding|exclude|wrong|incorrect|"
                            r"unlikely|ruled|eliminated?)\b|n't\b", re.IGNORECASE)
# The end-of-text and turn markers small models print after their answer.
_SPECIAL: Final = re.compile(r"<\|[A-Za-z_]{2,32}\|>|</s>|<eos>|<pad>|<end_of_turn>|\[EOS\]")
_SIDES: Final = frozenset({"left", "right", "yes", "no"})
# A second place joined to the first: "2 or 3", "2/3", "2-3", "2 to 3", "2 and 3".
_SECOND_NUMBER: Final = re.compile(r"\s*(?:or|and|to|/|-|\u2013|,)\s*\d", re.IGNORECASE)
_NUMBER: Final = re.compile(r"\d+")


def _valued_elsewhere(number: str, at: str, ix: OptionSet) -> bool:
    """Whether an option other than the one at that place holds ``number`` in its text."""
    return any(number in _NUMBER.findall(text) for k, text in ix.items if k != at)


def _place(m: re.Match[str], count: int) -> int:
    """The 1-based place a position match names among ``count`` options."""
    groups = m.groupdict()
    if m.re is _POSITION and m.group(1):
        return int(m.group(1))
    roman = groups.get("roman") or groups.get("bare")
    if roman:
        return _ROMANS.index(roman.lower()) + 1
    if groups.get("numbered"):
        return _NUMBERED.index(groups["numbered"].lower()) + 1
    if groups.get("before"):
        return count - 1
    word = " ".join((groups.get("ordinal") or "").lower().replace("-", " ").split())
    if word in ("last", "final"):
        return count
    if word in ("penultimate", "second last", "second to last"):
        return count - 1
    return (_ORDINALS.index(word) if word in _ORDINALS else _NUMBERED.index(word)) + 1


def _sentence_of(body: str, start: int, end: int) -> str:
    """The sentence of ``body`` that holds ``body[start:end]``."""
    begin = max(body.rfind(c, 0, start) for c in ".!?;\n")
    stops = [i for i in (body.find(c, end) for c in ".!?;\n") if i >= 0]
    return body[begin + 1:min(stops, default=len(body))]


def _named_elsewhere(roman: str, at: str, ix: OptionSet) -> bool:
    """Whether an option other than the one at that place holds ``roman`` as a word."""
    word = re.compile(rf"\b{roman}\b", re.IGNORECASE)
    return any(word.search(text) for k, text in ix.items if k != at)


def strip_special_tokens(text: str) -> str:
    """The text without tokenizer markers (``<|endoftext|>``, ``</s>``, ``<end_of_turn>``)."""
    # (a marker ends what it follows: "Answer: E<|endoftext|>Answer: F" is two answers)
    return _SPECIAL.sub("\n", text).strip() if "<" in text or "[" in text else text


def position_letter(body: str, ix: OptionSet) -> str | None:
    """The letter an option's position or initial names in ``body``, or None."""
    keys = sorted(ix.keys)
    found = set()
    alone = _ALONE.fullmatch(body)
    if alone is not None and any(_GRADED.search(text) for _, text in ix.items):
        return None  # "3rd" beside "Third-degree", "Grade III": a place or a value
    places = [alone] if alone is not None else list(_POSITION.finditer(body))
    for m in places:
        n = _place(m, len(keys))
        if not 1 <= n <= len(keys) or _SECOND_NUMBER.match(body, m.end()):
            return None  # "Option 2 or 3": two places
        if m.group(1) if m.re is _POSITION else False:
            if _valued_elsewhere(str(n), keys[n - 1], ix):
                return None  # "Option 3" where B is "BI-RADS 3": a place or a value
        if _DENIED.search(_sentence_of(body, m.start(), m.end())) is not None:
            return None
        roman = m.groupdict().get("roman") or m.groupdict().get("bare")
        if roman and _named_elsewhere(roman, keys[n - 1], ix):
            return None  # "(iii)" where C is "III (AUS)" of a Bethesda scale: a value
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
