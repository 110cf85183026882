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

__all__ = ["position_letter", "position_letters", "strip_special_tokens"]

_ORDINALS: Final = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh",
                    "eighth", "ninth", "tenth")
_ROMANS: Final = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")
_NUMBERED: Final = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th")
_ROMAN: Final = "|".join(sorted(_ROMANS, key=len, reverse=True))
_PLACE_WORD = ("(?P<ordinal>" + "|".join(_ORDINALS) + "|" + "|".join(_NUMBERED)
               + r"|last|final|penultimate|second[\s-]+(?:to[\s-]+)?last)\s+"
               r"(?:option|choice|one)\b")
_POSITION: Final = re.compile(
    r"\b(?:option|choice|answer)\s*(?:number\s*|no\.?\s*|#\s*)?(\d{1,2})\b"
    r"|\b(?:option|choice)\s*\(?(?P<roman>" + _ROMAN + r")\b\)?"
    r"|\bthe\s+" + _PLACE_WORD
    + r"|\bthe\s+one\s+before\s+(?:the\s+)?(?P<before>last)\b",
    re.IGNORECASE)
# the same place opening the text ("Last one.", "2nd option"), matched there only
_OPENING_PLACE: Final = re.compile(r"\s*" + _PLACE_WORD, re.IGNORECASE)
# A response that is one place and nothing else: "1st", "(iii)", "iv". A lone "I", "V" or "X"
# is a pronoun or a letter as often as a place: only in brackets ("(v)").
_ALONE: Final = re.compile(r"\s*(?:\(?(?P<numbered>" + "|".join(_NUMBERED) + r")\)?|\((?P<roman>"
                           + _ROMAN + r")\)|(?P<bare>ii|iii|iv|vi|vii|viii|ix))[.!]?\s*",
                           re.IGNORECASE)
_JOIN = r"[ \t]*(?:,|&|\band\b|\+)[ \t]*"
# places named as options by roman numerals: "options ii and iv", "choices (ii), (iii)". (By
# numbers, "Options 1, 3 and 4", blind writers split: some read places, some a set left unread.)
_PLACES: Final = re.compile(r"\b(?:options|choices|items)[ \t]+(?P<places>\(?(?:" + _ROMAN
                            + r")\)?(?:" + _JOIN + r"\(?(?:" + _ROMAN + r")\)?)+)(?!\w)",
                            re.IGNORECASE)
_ROMAN_LIST: Final = re.compile(r"(?P<places>\(?(?:" + _ROMAN + r")\)?(?:" + _JOIN + r"\(?(?:"
                                + _ROMAN + r")\)?)+)[.!]?", re.IGNORECASE)
_INDICES: Final = re.compile(r"\bindices\b[^\n\[]{0,30}?\[?(?P<places>\d{1,2}(?:[ \t]*,[ \t]*"
                             r"\d{1,2})+)\]?", re.IGNORECASE)
# An index with its base said beside it: "Answer index: 1 (zero-based)", "argmax index 0".
_INDEX: Final = re.compile(r"\bindex\b[^.\n\d]{0,24}?\b(\d{1,2})\b(?![.,]\d)", re.IGNORECASE)
_BASE: Final = re.compile(r"(?P<zero>\b(?:zero|0)[\s-]*(?:based|indexed)\b|\bargmax\b)"
                          r"|\b(?:one|1)[\s-]*(?:based|indexed)\b", re.IGNORECASE)
# An option text that is a value of a scale: a number, a roman numeral, an ordinal.
_GRADED: Final = re.compile(r"\d|\b(?:" + _ROMAN + "|" + "|".join(_ORDINALS) + r")\b",
                            re.IGNORECASE)
# A place denied: a negation before it in its clause ("Not the last one", "I wouldn't pick option
# 2"), or a rejecting status right after it ("option 2 is wrong"); "First one — no 3D clusters"
# denies something else.
_DENIED_BEFORE: Final = re.compile(r"\b(?:not|no|never|none|except|excluding|exclude|nor)\b"
                                   r"|n't\b", re.IGNORECASE)
_DENIED_AFTER: Final = re.compile(r"[ \t]*(?:(?:is|was|seems|looks|appears)[ \t]+)?(?:not\b"
                                  r"|wrong|incorrect|unlikely|ruled[ \t]+out|excluded|eliminated"
                                  r"|out\b)", re.IGNORECASE)
_CLAUSE_END: Final = ".!?;,:\n\u2014\u2013"
# The end-of-text and turn markers small models print after their answer.
# A turn's opening marker with its role ("<|im_start|>assistant", "<start_of_turn>model",
# "<|start_header_id|>assistant<|end_header_id|>") goes whole: the role's name is no answer.
_SPECIAL: Final = re.compile(
    r"(?:<\|im_start\|>|<start_of_turn>)[ \t]*(?:assistant|model)\b"
    r"|<\|start_header_id\|>[ \t]*\w+[ \t]*<\|end_header_id\|>"
    r"|<\|[A-Za-z_\u2581]{2,32}\|>|</s>|<s>|<eos>|<bos>|<pad>|<end_of_turn>|\[EOS\]")
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


def position_letters(body: str, ix: OptionSet) -> list[str] | None:
    """The letters a list of places names on a select-all item, or None.

    "Options ii and iv", a response that is only roman numerals ("iv and ii"), indices with
    their base stated ("indices (0-based): [0, 2]"). Numbers as places ("options 1 and 3",
    "1, 2, 4") are not read: a list may count, grade or number anything.
    """
    keys = sorted(ix.keys)
    m = _PLACES.search(body) or _ROMAN_LIST.fullmatch(body.strip())
    zero = False
    if m is None:
        m = _INDICES.search(body)
        base = None if m is None else _BASE.search(_sentence_of(body, m.start(), m.end()))
        if m is None or base is None:
            return None  # indices without their base: the first is 0 to some, 1 to others
        zero = bool(base.group("zero"))
    items = re.findall(r"\d{1,2}|[ivx]+", m.group("places"), re.IGNORECASE)
    if m.re is _ROMAN_LIST or not items[0].isdigit():
        places = [_ROMANS.index(i.lower()) + 1 if i.lower() in _ROMANS else 0 for i in items]
    else:
        places = [int(i) + (1 if zero else 0) for i in items]
    if len(places) < 2 or not all(1 <= n <= len(keys) for n in places) or _denied(
            body, m.start(), m.end()):
        return None
    if any(_valued_elsewhere(str(n), keys[n - 1], ix) for n in places):
        return None  # "options 2 and 3" where an option is "Grade 2": places or values
    return sorted({keys[n - 1] for n in places})


def _based_index(body: str) -> int | None:
    """The 0-based place an index names whose base the text states ("index 1 (zero-based)").

    Without a stated base an index is not read here: "index 1" is the first option to some
    and the second to others. ``argmax`` counts from 0.
    """
    m = _INDEX.search(body)
    if m is None:
        return None
    sentence = _sentence_of(body, m.start(), m.end())
    base = _BASE.search(sentence)
    if base is None or len(_INDEX.findall(body)) != 1:
        return None
    n = int(m.group(1))
    return n if base.group("zero") else n - 1


def _names_other(body: str, at: str, ix: OptionSet) -> bool:
    """Whether ``body`` writes the text of an option other than ``at``, as whole words."""
    lowered = body.lower()
    return any(re.search(rf"(?<!\w){re.escape(text.lower())}(?!\w)", lowered)
               for k, text in ix.items if k != at and text.strip())


def _denied(body: str, start: int, end: int) -> bool:
    """Whether the place at ``body[start:end]`` is denied (see ``_DENIED_BEFORE``)."""
    begin = max(body.rfind(c, 0, start) for c in _CLAUSE_END)
    return (_DENIED_BEFORE.search(body, begin + 1, start) is not None
            or _DENIED_AFTER.match(body, end) is not None)


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
    indexed = _based_index(body)
    if indexed is not None:
        if not 0 <= indexed < len(keys) or _names_other(body, keys[indexed], ix):
            return None  # "argmax index 1 — Yes" where Yes is the first: two answers
        return keys[indexed]
    found = set()
    alone = _ALONE.fullmatch(body)
    if alone is not None and any(_GRADED.search(text) for _, text in ix.items):
        return None  # "3rd" beside "Third-degree", "Grade III": a place or a value
    opening = _OPENING_PLACE.match(body) if alone is None else None
    places = [alone] if alone is not None else [*([opening] if opening else []),
                                                *_POSITION.finditer(body)]
    for m in places:
        n = _place(m, len(keys))
        if not 1 <= n <= len(keys) or _SECOND_NUMBER.match(body, m.end()):
            return None  # "Option 2 or 3": two places
        if m.re is _POSITION and m.group(1) and _valued_elsewhere(str(n), keys[n - 1], ix):
            return None  # "Option 3" where B is "BI-RADS 3": a place or a value
        if _denied(body, m.start(), m.end()):
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
