"""A line that labels the asked quantity with another option's value is a second answer.

"**Final PI-RADS:** 5" above "**Answer:** C" (C is PI-RADS 4), ``grade_icdr: 2`` above
``answer: D``, ``"birads": "4B"`` beside ``"answer": "C"``, "Total BBPS: 7" above the option
for 8–9: the response states what is asked twice, and the two statements disagree. The credit
is withdrawn (``conclusion.labelled``).

A label counts when one of its words names what is asked: a word every option shares (the
scale: "PI-RADS", "Grade") or a word of the question ("category", "total", "QTc"), written
with or without its hyphens and underscores. Answer labels ("Answer", "Final answer",
"choice") are the located answer itself; labels of reasoning ("rationale", "findings") are
set aside, as the structure reader sets those keys aside. Only single-answer items are read:
a multiple-choice response lists one label per finding by design, and a yes/no item's labels
are its findings.
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._book import RuleBook
from medvqa.reading._memo import BoundedMemo
from medvqa.reading._options import OptionSet
from medvqa.reading._scan import scan
from medvqa.reading._units import UNITS
from medvqa.reading.rules import Kind

__all__ = ["LABELLED", "labelled_otherwise"]

LABELLED: Final = "conclusion.labelled"
# "label: value" on a line of its own, markup and list marks around it already dropped;
# ``"key": value`` pairs of a structure the same.
_LINE: Final = re.compile(r"(?m)^[ \t>#\-\u2022]*([A-Za-z][\w \-/()]{0,40}?)[ \t]*[:=][ \t]*"
                          r"(\S[^\n]{0,60}?)[ \t,;.]*$")
_PAIR: Final = re.compile(r"\"([A-Za-z][\w \-]{0,40})\"\s*:\s*(\"[^\"\n]{1,60}\"|-?\d[\d.]*)")
# Emphasis marks, not the underscore inside a key ("grade_icdr").
_MARKUP: Final = re.compile(r"[*`]+|(?<!\w)_+|_+(?!\w)")
_TOKEN: Final = re.compile(r"[a-z0-9]+")
# Words too general to say that a label names the asked quantity ("DWI score: 5" beside a
# PI-RADS score), and the question's own function words.
_GENERAL: Final = frozenset({
    "score", "what", "which", "this", "that", "the", "is", "are", "of", "in", "on", "for", "a",
    "an", "most", "likely", "best", "shown", "seen", "present", "image", "there", "does",
    "how", "would", "you", "describe", "appropriate", "type", "main", "primary"})
# Answer keys that also name a content ("Final PI-RADS", "diagnosis", "category"): a label of
# the asked quantity, not the located answer's own label.
_CONTENT_KEYS: Final = frozenset({
    "final", "diagnosis", "impression", "conclusion", "classification", "category", "verdict",
    "decision", "present", "positive", "found", "seen", "detected", "identified", "label"})
_UNIT_WORDS: Final = frozenset(u.lower() for u in UNITS)
# A value's last token naming one option whose text ends with it ("5" → "PI-RADS 5").
_LAST: Final = re.compile(r"([0-9]+[a-z]?|[ivx]+[a-z]?)\W*\Z", re.IGNORECASE)


def _folded(text: str) -> frozenset[str]:
    """A label's or a text's words, lower case, with their hyphenless joins.

    "BI-RADS" gives "bi", "rads" and "birads"; "grade_icdr" gives "grade" and "icdr".
    """
    low = text.lower()
    words = _TOKEN.findall(low)
    joined = {"".join(_TOKEN.findall(part)) for part in re.split(r"[\s_]+", low)}
    return frozenset(words) | {j for j in joined if j}


# (per option set and question: computed once)
_ASKED: Final[BoundedMemo[tuple[OptionSet, str], frozenset[str]]] = BoundedMemo(1 << 10)


def _asked_words(ix: OptionSet, question: str) -> frozenset[str]:
    """Words that name what is asked: those all options share, and the question's own."""
    got = _ASKED.get((ix, question))
    return got if got is not None else _ASKED.remember((ix, question),
                                                       _asked_words_of(ix, question))


def _asked_words_of(ix: OptionSet, question: str) -> frozenset[str]:
    per_option = [_folded(text) for _, text in ix.items]
    shared = frozenset.intersection(*per_option) if per_option else frozenset()
    scale = {w for w in shared if len(w) >= 2 and w.isalpha() and w.lower() not in _UNIT_WORDS}
    # a short question word ("QT" in "the corrected QT") may be a part of what is asked
    asked = {w for w in _folded(question) if len(w) >= 4 and w.isalpha()}
    return frozenset(scale | asked | _initials(question)) - _GENERAL


#: The fewest words whose initials make an abbreviation of them.
_INITIALS_FROM: Final = 3


def _initials(question: str) -> set[str]:
    """The initials of each run of the question's words, three or more.

    "left ventricular ejection fraction" gives "lvef", "lve", "vef": a label may name the
    asked quantity by its abbreviation.
    """
    words = [w for w in _TOKEN.findall(question.lower()) if w.isalpha() and len(w) >= 3
             and w not in _GENERAL]
    return {"".join(w[0] for w in words[i:j]) for i in range(len(words))
            for j in range(i + _INITIALS_FROM, len(words) + 1)}


def _reads(value: str, ix: OptionSet, qtype: str, question: str, bk: RuleBook) -> frozenset[str]:
    """The one option a label's value names, as a set (empty when none or several)."""
    r = scan(value, ix, qtype, question, hedge=True, bk=bk)
    if r.verdict is not None:
        return frozenset()
    said = r.asserted - r.negated
    if said:
        return said if len(said) == 1 else frozenset()
    last = _LAST.search(value.strip())
    if last is None or last.start() > 0 and value.strip()[:last.start()].strip(" \"'"):
        return frozenset()  # only a bare value ("5", "4B", "II") is read by its ending
    token = last.group(1).lower()
    ends = [k for k, text in ix.items if _TOKEN.findall(text.lower())[-1:] == [token]]
    return frozenset(ends) if len(ends) == 1 else frozenset()


def labelled_otherwise(body: str, chosen: frozenset[str], ix: OptionSet, qtype: str,
                       question: str, bk: RuleBook) -> bool:
    """Whether a label naming the asked quantity gives another option than ``chosen``."""
    if qtype != "single" or ix.yesno or (":" not in body and "=" not in body):
        return False
    asked = _asked_words(ix, question)
    if not asked:
        return False
    plain = _MARKUP.sub("", body)
    pairs = [(m.group(1), m.group(2)) for m in _LINE.finditer(plain)]
    pairs += [(m.group(1), m.group(2).strip('"')) for m in _PAIR.finditer(body)]
    set_aside = (bk.words[Kind.ANSWER_KEY] - _CONTENT_KEYS) | (
        bk.words[Kind.OTHER_KEY] - {"score"}) | bk.words[Kind.NEGATIVE_KEY]
    for label, value in pairs:
        words = _folded(label)
        if not words & asked or words & set_aside:
            continue
        said = _reads(value, ix, qtype, question, bk)
        if said and not said & chosen:
            return True
    return False
