r"""Findings that answer a yes/no question: "No evidence of X" is No when X is what was asked.

A yes/no item ("Is there a pneumothorax?") is often answered with a finding instead of a yes or
a no. A clause answers it when it states that a finding X is absent — the rule table's
``finding.absent-*`` phrases: "No X", "No evidence of X", "There is no X", "Negative for X",
"X is not seen", "X is absent" — or present: ``finding.present``, "There is a X", "X is seen",
"… shows X", "consistent with X".

When is X the finding asked about?

- **Absent**: every content word of X (spelling-folded; a word of the same stem counts,
  "ulceration" for "ulcerated"; an abbreviation of the shipped table counts for its full name,
  "DVT" for "deep vein thrombosis") is a word of the question — "no large pneumothorax" does
  not answer "Is there a pneumothorax?" (a small one may be there) — and the question does not
  itself ask about normality or absence ("Is the lung normal?": there "no X" would mean yes).
- **Present**: X's head word (its last content word) is a word of the question, and X carries
  every word by which the question asks about the finding's nature (``finding.nature``:
  "calcifications are present but benign" does not answer "Are there suspicious
  calcifications?"); a nature word of the question negated ("not suspicious") is an absence.
- **Synonyms**: either way, X (bar filler words at its ends; for a present finding also a
  leading "small", "large" …) is also the finding asked about when it is a synonym of the
  shipped table for words the question writes in a row: "no pleural fluid" answers "Is there
  a pleural effusion?", "free air is seen" answers "Is there pneumoperitoneum?". The rules
  above still hold (not a question about normality; the nature words carried).
- With the question unknown, only a specific absent finding is read (not a word of
  normality or disease: "No evidence of malignancy" means No to "Is it malignant?" but Yes
  to "Is it benign?").

>>> sorted(finding_answers("there is no pneumothorax", "Is there a pneumothorax?"))
['no']
>>> sorted(finding_answers("no large pneumothorax", "Is there a pneumothorax?"))
[]
>>> sorted(finding_answers("no evidence of consolidation", ""))
['no']
>>> sorted(finding_answers("multiple large soft drusen are seen", "Are drusen present?"))
['yes']
>>> sorted(finding_answers("no pleural fluid", "Is there a pleural effusion?"))
['no']
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from medvqa.reading._book import RuleBook, book, word_tokens
from medvqa.reading._fold import fold, phrase_tokens
from medvqa.reading.rules import Kind

__all__ = ["finding_answers", "question_terms", "same_stem"]

# Words that say nothing about which finding: dropped before comparing with the question.
_FILLER: Final = frozenset({
    "a", "an", "the", "any", "some", "of", "for", "to", "evidence", "sign", "signs", "feature",
    "features", "finding", "findings", "definite", "definitive", "convincing", "clear", "obvious",
    "radiographic", "radiological", "sonographic", "mammographic", "histologic", "histological",
    "visible", "evident", "there", "is", "are", "was", "were", "in",
    "on", "at", "this", "that", "these", "image", "images", "scan", "radiograph", "film",
    "study", "photo", "photograph", "slide", "section", "picture", "mammogram", "view", "here",
    "seen", "identified", "noted", "present", "demonstrated", "suggest", "suggesting",
    "suggestive", "apparent", "appreciable", "detectable", "current", "provided", "given",
    "shown", "obviously", "clearly", "also", "and", "or", "nor", "be", "been", "it", "its",
    "does", "do", "did", "show", "shows", "have", "has", "patient", "lesion's",
})
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
_CLAUSE: Final = re.compile(r"[.;:,!?\n()]|\s[\u2014\u2013-]+\s|\b(?:but|however|whereas|although"
                            r"|though|while)\b")
_DETERMINERS: Final = re.compile(r"^(?:(?:a|an|the|any|some|small|tiny|large|few|several|"
                                 r"multiple)\s+)+")


def same_stem(a: str, b: str) -> bool:
    """Whether two folded words have one stem.

    Equal, or sharing a prefix of five letters or more that is at least three quarters of the
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
    return n >= 5 and n >= 0.75 * min(len(a), len(b))


@lru_cache(maxsize=4096)
def _question(question: str) -> tuple[frozenset[str], bool, frozenset[str]]:
    """The question's folded words, whether it asks about normality, its abbreviations' words."""
    lowered = question.lower()
    words = frozenset(fold(w) for w in _WORD.findall(lowered))
    from medvqa.reading._option_forms import abbreviations_of

    abbrs = frozenset(a.lower() for n in _noun_runs(question) for a in abbreviations_of(n))
    return words, _FLIPS.search(lowered) is not None, abbrs


def _noun_runs(question: str) -> list[str]:
    words = [w for w in _WORD.findall(question.lower()) if w not in _FILLER]
    return [" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 2, len(words) + 1)]


def question_terms(question: str) -> frozenset[str]:
    """The question's content words, folded (what a finding must be about)."""
    return frozenset(w for w in _question(question)[0] if w not in _FILLER)


def _content(x: str) -> list[str]:
    return [fold(w) for w in _WORD.findall(x) if w not in _FILLER]


def _in_question(w: str, asked: frozenset[str], abbrs: frozenset[str]) -> bool:
    return w in asked or w in abbrs or any(same_stem(w, q) for q in asked)


@lru_cache(maxsize=4096)
def _question_sequence(question: str) -> tuple[str, ...]:
    """The question's folded words in order (where a synonym's words are looked for)."""
    return phrase_tokens(question)[0]


def _synonym_asked(x: str, question: str) -> bool:
    """Whether X, bar filler words at its ends, is a synonym of words the question writes."""
    words = _WORD.findall(x)
    while words and words[0] in _FILLER:
        words.pop(0)
    while words and words[-1] in _FILLER:
        words.pop()
    if not words:
        return False
    from medvqa.reading._option_forms import synonyms_of

    asked = _question_sequence(question)
    for term in synonyms_of(" ".join(words)):
        key = phrase_tokens(term)[0]
        k = len(key)
        if any(asked[i:i + k] == key for i in range(len(asked) - k + 1)):
            return True
    return False


def _absent_asked(x: str, question: str) -> bool:
    words = _content(x)
    if not words:
        return False
    if not question:
        return not (set(words) & _GENERAL)
    asked, flips, abbrs = _question(question)
    return not flips and (all(_in_question(w, asked, abbrs) for w in words)
                          or _synonym_asked(x, question))


def _present_asked(x: str, question: str, bk: RuleBook) -> bool:
    finding = _DETERMINERS.sub("", x.strip())
    words = _content(finding)
    if not words or not question:
        return False
    asked, flips, abbrs = _question(question)
    if flips:
        return False
    nature = {fold(w) for w in bk.words[Kind.NATURE]}
    missing = (asked & nature) - set(words)
    return not missing and (_in_question(words[-1], asked, abbrs)
                            or _synonym_asked(finding, question))


def finding_answers(lowered: str, question: str, bk: RuleBook | None = None) -> set[str]:
    """``{"yes"}``, ``{"no"}``, both (contradictory) or none, from the findings stated.

    Args:
        lowered: the lower-cased answer text (option texts blanked, "no doubt" blanked).
        question: the item's question ("" when unknown: only absent findings are read).
        bk: the rule book.
    """
    bk = bk or book()
    out: set[str] = set()
    start = 0
    nature = {fold(w) for w in bk.words[Kind.NATURE]}
    asked_nature = (_question(question)[0] & nature) if question else set()
    for m in [*_CLAUSE.finditer(lowered), None]:
        end = m.start() if m is not None else len(lowered)
        clause = lowered[start:end].strip()
        start = m.end() if m is not None else end
        if len(clause) < 3:
            continue
        words = word_tokens(clause)
        got = _absent_in(clause, words, bk)
        if got is not None:
            if _absent_asked(got, question):
                out.add("no")
            continue
        if asked_nature and any(f"not {w}" in clause or f"non-{w}" in clause or f"non {w}"
                                in clause for w in bk.words[Kind.NATURE] if fold(w)
                                in asked_nature):
            out.add("no")  # "these are benign and not suspicious"
            continue
        if question:
            x = _present_in(clause, words, bk)
            if x is not None and _present_asked(x, question, bk):
                out.add("yes")
    return out


def _absent_in(clause: str, words: frozenset[str], bk: RuleBook) -> str | None:
    """The finding a clause states absent, or None."""
    for rule_id, phrase in bk.candidates(Kind.FINDING_ABSENT, clause, words):
        pat = phrase.pattern
        m = pat.search(clause)
        if m is None:
            continue
        if rule_id == "finding.absent-tail":
            x = clause[:m.start()].strip()
            if x and m.end() >= len(clause.rstrip(" ."))-1:
                return x
            continue
        lead = clause[:m.start()].strip()
        if lead and not re.fullmatch(r"(?:answer\s*:\s*)?(?:(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+"
                                     r"(?:shows?|demonstrates?|reveals?|has))?", lead):
            continue
        x = clause[m.end():].strip()
        if x:
            return x
    return None


def _present_in(clause: str, words: frozenset[str], bk: RuleBook) -> str | None:
    """The finding a clause states present, or None."""
    for _, phrase in bk.candidates(Kind.FINDING_PRESENT, clause, words):
        m = phrase.pattern.search(clause)
        if m is None:
            continue
        before, after = clause[:m.start()].strip(), clause[m.end():].strip()
        if phrase.source.startswith("(is|are)"):
            if before:
                return before
            continue
        if after:
            return after
    return None
