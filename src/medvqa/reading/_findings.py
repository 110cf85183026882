"""Findings that answer a yes/no question: "No evidence of X" is No when X is what was asked.

A yes/no item ("Is there a pneumothorax?") is often answered with a finding instead of a yes or
a no. A clause reads as an answer when it states that a finding X is absent — "No X", "No
evidence/signs of X", "There is no X", "Without X", "Negative for X", "Free of X", "Absence of
X", "I see no X", "… does not show X", "X is absent / not seen / not identified / ruled out /
excluded" — or, only when the question is known, that X is present ("There is a X", "X is
seen / present", "… shows X", "Positive for X"; stated with the words by which the question
asks about its nature: "suspicious", "malignant", "abnormal" …).

When does "There is no X" answer the question? Only when X is the finding asked about:

- with the question known: every content word of X (spelling-folded; a word of the same
  stem counts, "ulceration" for "ulcerated") is a word of the question — "no large
  pneumothorax" does not answer "Is there a pneumothorax?" (a small one may be there), "no
  pleural effusion" does not answer it either — and the question does not itself ask about
  normality or absence ("Is the lung normal?", "Is it free of …?", "Is this benign?": there
  "no X" would mean yes);
- with the question unknown (a JSONL without questions): only an absent finding is read, and
  only when X is a specific finding — not a word of (ab)normality, disease or malignancy
  ("No evidence of malignancy" answers "Is it malignant?" with No but "Is it benign?" with Yes).

"No doubt, …" and "not only" are not negations (:data:`~._cues.NOT_NEGATIONS` is blanked first).

>>> sorted(finding_answers("there is no pneumothorax", "Is there a pneumothorax?"))
['no']
>>> sorted(finding_answers("no large pneumothorax", "Is there a pneumothorax?"))
[]
>>> sorted(finding_answers("no evidence of consolidation", ""))
['no']
>>> sorted(finding_answers("a pneumothorax is seen", "Is there a pneumothorax?"))
['yes']
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from medvqa.reading._cues import holds_dash
from medvqa.reading._fold import fold

__all__ = ["finding_answers", "may_state_finding", "same_stem"]

_ABSENT_LEAD: Final = re.compile(
    r"^\s*(?:answer\s*:\s*)?(?:(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:shows?|demonstrates?|reveals?"
    r"|has)\s+)?(?:(?:there\s+(?:is|are|was|were)\s+|(?:i|we)\s+(?:see|find|observe)\s+"
    r"|(?:i|we)\s+(?:do\s+not|don't)\s+(?:see|find|observe)\s+(?:any\s+)?)?"
    r"(?:no|not\s+(?:an?\s+)?|without|absence\s+of|negative\s+for|free\s+of)\s+"
    r"|(?:[\w-]+\s+){0,3}?(?:does|do|did)\s+not\s+(?:show|demonstrate|reveal|have|contain|display"
    r"|exhibit)\s+(?:any\s+|an?\s+)?)(?P<x>.+)$"
)
_ABSENT_TAIL: Final = re.compile(
    r"^\s*(?:answer\s*:\s*)?(?P<x>.+?)\s+(?:is|are|was|were|has\s+been|have\s+been)\s+"
    r"(?:not\s+(?:seen|present|identified|detected|visuali[sz]ed|visible|evident|demonstrated"
    r"|noted|appreciated)|absent|excluded|ruled\s+out)\s*$"
)
_PRESENT: Final = re.compile(
    r"^\s*(?:answer\s*:\s*)?(?:there\s+(?:is|are)\s+(?P<x>.+)"
    r"|(?P<y>.+?)\s+(?:is|are)\s+(?:clearly\s+)?(?:present|seen|noted|identified|visible|evident"
    r"|demonstrated)"
    r"|(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:shows?|demonstrates?|reveals?)\s+(?P<z>.+)"
    r"|positive\s+for\s+(?P<w>.+))\s*$"
)
# Words that say nothing about which finding: dropped before comparing with the question.
_FILLER: Final = frozenset({
    "a", "an", "the", "any", "some", "of", "for", "to", "evidence", "sign", "signs", "feature",
    "features", "finding", "findings", "definite", "definitive", "convincing", "clear", "obvious",
    "radiographic", "radiological", "sonographic", "mammographic", "histologic", "histological",
    "visible", "evident", "significant", "acute", "there", "is", "are", "was", "were", "in",
    "on", "at", "this", "that", "these", "image", "images", "scan", "radiograph", "film",
    "study", "photo", "photograph", "slide", "section", "picture", "mammogram", "view", "here",
    "seen", "identified", "noted", "present", "demonstrated", "suggest", "suggesting",
    "suggestive", "apparent", "appreciable", "detectable", "current", "provided", "given",
    "shown", "obviously", "clearly", "also", "and", "or", "nor", "be", "been", "it", "its",
})
# Words that ask about the nature of a finding ("Are there suspicious calcifications?"): a
# present finding answers yes only when it is stated with them ("calcifications are present
# but appear benign" does not).
_QUALIFIERS: Final = frozenset(fold(w) for w in (
    "suspicious", "malignant", "worrisome", "concerning", "abnormal", "pathologic",
    "pathological", "aggressive"))
# A question about normality or absence: a "no X" answer would then mean yes.
_FLIPS: Final = re.compile(r"\b(?:normal|benign|healthy|unremarkable|intact|clear|free\s+of"
                           r"|negative|absent|absence|no|not|without|excluded|rul\w*\s+out"
                           r"|lack\w*|missing|nothing|none)\b")
# Findings too general to be read without the question.
_GENERAL: Final = frozenset(fold(w) for w in (
    "normal", "abnormal", "abnormality", "abnormalities", "pathology", "pathologic",
    "pathological", "disease", "benign", "malignant", "malignancy", "cancer", "carcinoma",
    "tumour", "tumor", "neoplasm", "neoplasia", "lesion", "anything", "change", "problem",
    "issue", "concern", "concerning", "suspicious", "worrisome"))
_WORD: Final = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
# Where a clause ends: ``[.;:,!?\n()]|\s[\u2014\u2013-]+\s|\b(?:but|however|whereas|although
# |though|while)\b``, opened by one character class, which the engine skips to in C (a pattern
# opened by an alternation is tried at every position); each alternative then looks back at that
# character, and ``(?<!\w\w)`` after a word's first letter is the word boundary before it.
_CLAUSE_PUNCT = r".;:,!?\n()"
_CLAUSE_DASH = r"(?<=\s)[\u2014\u2013-]+\s"
_CLAUSE_WORDS = (r"(?<!\w\w)(?:(?<=b)ut|(?<=h)owever|(?<=w)(?:hereas|hile)|(?<=a)lthough"
                 r"|(?<=t)hough)\b")


def _clause_variant(dash: bool, words: bool) -> re.Pattern[str]:
    """The clause-end pattern without the alternatives a text cannot hold.

    A dash or a conjunction that does not occur cannot match, so leaving its alternative out
    finds the same ends; and the opening class then stops only at punctuation, not at every
    space and every ``b h w a t``.
    """
    if not (dash or words):
        return re.compile(f"[{_CLAUSE_PUNCT}]")
    opens = _CLAUSE_PUNCT + (r"\s" if dash else "") + ("bhwat" if words else "")
    alternatives = [f"(?<=[{_CLAUSE_PUNCT}])"] + [_CLAUSE_DASH] * dash + [_CLAUSE_WORDS] * words
    return re.compile(f"[{opens}](?:{'|'.join(alternatives)})")


_CLAUSE: Final = _clause_variant(True, True)
_CLAUSE_NO_WORDS: Final = _clause_variant(True, False)
_CLAUSE_NO_DASH: Final = _clause_variant(False, True)
_CLAUSE_PUNCT_ONLY: Final = _clause_variant(False, False)


def _clause_pattern(lowered: str) -> re.Pattern[str]:
    """:data:`_CLAUSE`, or the variant without what ``lowered`` does not hold."""
    dash = holds_dash(lowered)
    if ("but" in lowered or "however" in lowered or "whereas" in lowered or "while" in lowered
            or "though" in lowered):
        return _CLAUSE if dash else _CLAUSE_NO_DASH
    return _CLAUSE_NO_WORDS if dash else _CLAUSE_PUNCT_ONLY


_CUES: Final[tuple[str, ...]] = (
    "no", "not", "n't", "without", "absen", "negative", "free", "exclud", "ruled", "there", "seen",
    "present", "show", "demonstrat", "reveal", "positive", "identified", "noted", "visible",
    "evident")


def may_state_finding(lowered: str) -> bool:
    """Whether ``lowered`` can state a finding at all (a cheap test: a cue word occurs)."""
    return any(c in lowered for c in _CUES)


@lru_cache(maxsize=4096)
def _question_words(question: str) -> tuple[frozenset[str], bool]:
    """The question's folded words, and whether it asks about normality or absence."""
    lowered = question.lower()
    return frozenset(fold(w) for w in _WORD.findall(lowered)), _FLIPS.search(lowered) is not None


def same_stem(a: str, b: str) -> bool:
    """Whether two folded words have one stem.

    Equal, or sharing a prefix of six letters or more that is at least three quarters of the
    shorter one ("ulcerated" / "ulceration", "enlarged" / "enlargement"; not "cardiomegaly" /
    "cardiomyopathy").

    >>> same_stem("ulcerated", "ulceration"), same_stem("cardiomegaly", "cardiomyopathy")
    (True, False)
    """
    if a == b:
        return True
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= 6 and n >= 0.75 * min(len(a), len(b))


def _content(x: str) -> frozenset[str]:
    return frozenset(fold(w) for w in _WORD.findall(x) if w not in _FILLER)


def _asked(x: str, question: str) -> bool:
    """X is the finding asked about (see the module docstring)."""
    words = _content(x)
    if not words:
        return False
    if not question:
        return not (words & _GENERAL)
    asked, flips = _question_words(question)
    return not flips and all(w in asked or any(same_stem(w, q) for q in asked) for w in words)


def _qualified(x: str, question: str) -> bool:
    """X carries every word of the question that asks about the finding's nature."""
    missing = _question_words(question)[0] & _QUALIFIERS
    return not missing or missing <= {fold(w) for w in _WORD.findall(x)}


def finding_answers(lowered: str, question: str) -> set[str]:
    """``{"yes"}``, ``{"no"}``, both (contradictory) or none, from the findings stated.

    Args:
        lowered: the lower-cased answer text (option texts blanked, "no doubt" blanked).
        question: the item's question ("" when unknown: only absent findings are read).
    """
    out: set[str] = set()
    start = 0
    for m in [*_clause_pattern(lowered).finditer(lowered), None]:
        end = m.start() if m is not None else len(lowered)
        clause = lowered[start:end]
        start = m.end() if m is not None else end
        if len(clause) < 4:
            continue
        got = _absent_lead(clause) or _match_if(_ABSENT_TAIL, _ABSENT_TAIL_NEEDS, clause)
        if got is not None:
            if _asked(got.group("x"), question):
                out.add("no")
            continue
        if question:
            pos = _match_if(_PRESENT, _PRESENT_NEEDS, clause)
            if pos is not None:
                x = next(g for g in pos.groups() if g is not None)
                if not _absent_lead(x) and _asked(x, question) and _qualified(x, question):
                    out.add("yes")
    return out


# What each finding pattern cannot match without: one of these substrings (its key words).
_ABSENT_LEAD_NEEDS: Final[tuple[str, ...]] = (
    "no", "without", "absence", "negative", "free")  # "no" in not
_ABSENT_TAIL_NEEDS: Final[tuple[str, ...]] = ("not", "absent", "excluded", "ruled")
_PRESENT_NEEDS: Final[tuple[str, ...]] = (
    "there", "present", "seen", "noted", "identified", "visible", "evident", "demonstrat", "show",
    "reveal", "positive")


def _match_if(pattern: re.Pattern[str], needs: tuple[str, ...], clause: str
              ) -> re.Match[str] | None:
    """``pattern.match(clause)``, not tried where ``clause`` holds none of ``needs``.

    Speed: a match of one of these patterns costs as much as twenty substring tests (its
    ``.+`` is tried against every tail of the clause), and most clauses hold none of their key
    words.
    """
    return pattern.match(clause) if any(w in clause for w in needs) else None


def _absent_lead(clause: str) -> re.Match[str] | None:
    """:data:`_ABSENT_LEAD`'s match of ``clause`` ("no X", "without X" …), or None."""
    return _match_if(_ABSENT_LEAD, _ABSENT_LEAD_NEEDS, clause)
