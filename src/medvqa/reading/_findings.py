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

from medvqa.reading._answer_words import NO_WORDS, YES_WORDS
from medvqa.reading._book import RuleBook, book, word_tokens
from medvqa.reading._fold import fold, phrase_tokens
from medvqa.reading.rules import Kind

__all__ = ["asked_parts", "finding_answers", "names_asked", "other_finding", "question_terms",
           "same_stem"]

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
    "acute", "significant", "active",
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
_NEGATED: Final = re.compile(r"\b(?:no|not|never|without|neither|nor)\b|n't\b")
# What may stand before a finding stated absent in its clause: nothing, "the film shows", or a
# conjunction, copula or preposition that opens the statement ("… and not a cavity", "…, with
# no deviation").
_LEAD_OK: Final = re.compile(r"(?:answer\s*:\s*)?(?:(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+"
                             r"(?:shows?|demonstrates?|reveals?|has))?|.*\b(?:and|but|or|is|are|"
                             r"was|were|with|there\s+is|there\s+are)")
# What keeps a clause from stating its finding: a discussion, a condition, a hedge, a plan.
_NOT_STATED: Final = frozenset({Kind.DISCUSSED_BEFORE, Kind.DISCUSSED_AFTER, Kind.CONDITION,
                                Kind.HEDGE, Kind.HEDGE_SCOPED, Kind.PLAN, Kind.CONCESSION,
                                Kind.EXCLUSION_HEDGE})
# A word in Markdown emphasis ("*no*", "_not_"): the word as written.
_EMPHASIS: Final = re.compile(r"(?<![*_\w])[*_]{1,2}([^\W_][^*_\n]{0,40}?)[*_]{1,2}(?![*_\w])")
_LIST_SPLIT: Final = re.compile(r"\s*(?:,|\bor\b|\bnor\b|\band\b)\s*")
_DETERMINERS: Final = re.compile(r"^(?:(?:a|an|the|any|some|small|tiny|large|few|several|"
                                 r"multiple)\s+)+")


def same_stem(a: str, b: str) -> bool:
    """Whether two folded words have one stem.

    Equal, or sharing a prefix of five letters or more that is at least seven tenths of the
    shorter one ("ulcerated" / "ulceration", "metastasis" / "metastatic"; not "cardiomegaly" /
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
    return n >= 5 and n >= 0.7 * min(len(a), len(b))


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


# Where a yes/no question's finding ends and its place begins ("a filling defect | in the
# pulmonary arteries", "free fluid | in Morison's pouch").
_PLACE: Final = re.compile(r"\b(?:in|within|inside|on|at|along|involving)\b")


@lru_cache(maxsize=4096)
def place_only(question: str) -> frozenset[str]:
    """The question's words that only say where its finding is (none where it names no place).

    A stated finding whose head is such a word ("The CT shows the pulmonary artery" to "Is
    there a filling defect in the pulmonary arteries?") names the place, not the finding.
    """
    lowered = question.lower()
    m = _PLACE.search(lowered)
    if m is None:
        return frozenset()
    finding = {fold(w) for w in _WORD.findall(lowered[:m.start()]) if w not in _FILLER}
    if not finding:
        return frozenset()
    place = {fold(w) for w in _WORD.findall(lowered[m.end():]) if w not in _FILLER}
    return frozenset(w for w in place if w not in finding and not any(
        same_stem(w, f) for f in finding))


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
    """X (or one item of the list X: "no ulceration or crusting") is the finding asked."""
    for item in _LIST_SPLIT.split(x):
        words = _content(item)
        if not words or all(w in YES_WORDS or w in NO_WORDS for w in words):
            continue  # "not yes": a yes/no word is no finding
        if not question:
            if not (set(words) & _GENERAL):
                return True
            continue
        asked, flips, abbrs = _question(question)
        if not flips and (all(_in_question(w, asked, abbrs) for w in words)
                          or _synonym_asked(item, question)):
            return True
    return False


def _absent_related(x: str, question: str) -> bool:
    """X stated absent shares a word's stem with the question's finding (not its place).

    "Yes. No macular thickening is identified." to "Is diabetic macular edema present?": not
    the finding asked, but a sign of it denied after a yes, which casts doubt on the yes.
    """
    if not question:
        return False
    asked, flips, _ = _question(question)
    if flips:
        return False
    terms = {w for w in asked if w not in _FILLER and w not in _GENERAL} - place_only(question)
    for item in _LIST_SPLIT.split(x):
        words = [w for w in _content(item) if w not in _GENERAL and len(w) >= 4]
        if any(same_stem(w, t) or w == t for w in words for t in terms):
            return True
    return False


def _present_asked(x: str, question: str, bk: RuleBook, lenient: bool = False) -> bool:
    finding = _DETERMINERS.sub("", x.strip())
    words = _content(finding)
    if not words or not question:
        return False
    asked, flips, abbrs = _question(question)
    if flips:
        return False
    nature = {fold(w) for w in bk.words[Kind.NATURE]}
    missing = _unstated(asked & nature, words)
    if _names_the_place(words, question):
        return False
    return not missing and ((_in_question(words[-1], asked, abbrs)
                             and (lenient or _qualifiers_kept(words, question)))
                            or _synonym_asked(finding, question))


def _names_the_place(words: list[str], question: str) -> bool:
    """Whether a stated finding's head is only the question's place ("the pulmonary artery")."""
    place = place_only(question)
    return bool(place) and (words[-1] in place or any(same_stem(words[-1], p) for p in place))


def _unstated(natures: frozenset[str], words: list[str]) -> set[str]:
    """The natures asked ("enlarged", "ulcerated") that the finding's words do not state."""
    return {n for n in natures if not any(w == n or same_stem(w, n) for w in words)}


def other_finding(label: str, question: str) -> bool:
    """Whether a label names a finding beside the asked one, not the asked one.

    "Perineural invasion" to a question about lymphovascular invasion: its "present" or
    "absent" does not answer the question.
    """
    words = _content(_DETERMINERS.sub("", label.strip().lower()))
    if not words or not question:
        return False
    asked = _question(question)[0]
    return any(same_stem(words[-1], q) for q in asked) and not _qualifiers_kept(words, question)


def names_asked(label: str, question: str) -> bool:
    """Whether a label names the asked finding ("Pneumothorax" to "Is there a pneumothorax?").

    In a list of labelled findings ("Pneumothorax: absent", "Pleural effusion: present") the
    asked one's line answers; the others' do not.
    """
    words = _content(_DETERMINERS.sub("", label.strip().lower()))
    if not words or not question:
        return False
    asked, _, abbrs = _question(question)
    return any(_in_question(w, asked, abbrs) for w in words) and not other_finding(label,
                                                                                   question)


# One labelled part of a findings list: a line, or a sentence or clause of one.
_PARTS: Final = re.compile(r"\n|[.;|][ \t]+")
_LABEL_MARKS: Final = " \t-*\u2022"
_LABEL_CHARS: Final = 40


def asked_parts(text: str, question: str) -> str | None:
    """The parts of a labelled findings list that name the asked finding, or None.

    "ACL: intact; Medial meniscus: tear" to "Is the ACL torn?": "ACL: intact" answers, the
    meniscus's tear does not. Only where two parts or more are labelled and some label names
    the asked finding.
    """
    if ":" not in text or not question:
        return None
    parts = [p for p in _PARTS.split(text) if p.strip()]
    # a part's label is the name before its last colon ("Answer: Pneumothorax: absent")
    labels = [(p.rpartition(":")[0].rpartition(":")[2].strip(_LABEL_MARKS),
               p.rpartition(":")[2].strip()) for p in parts if ":" in p]
    labelled = [(label, value) for label, value in labels if 0 < len(label) <= _LABEL_CHARS]
    if len(labelled) < 2:
        return None
    asked = [f"{label}: {value}" for label, value in labelled if names_asked(label, question)]
    return "\n".join(asked) if asked and len(asked) < len(labelled) else None


def _qualifiers_kept(words: list[str], question: str) -> bool:
    """The finding does not replace the question's qualifier of its head noun with another.

    "Perineural invasion is seen" does not answer "Is there lymphovascular invasion?" (and
    "A small pneumothorax" does not answer "Is there a large pneumothorax?"), while
    "Consistent with a tear" may answer "Is there a meniscal tear?" and "Multiple large soft
    drusen are seen" answers "Are drusen present?".
    """
    head, own = words[-1], words[:-1]
    asked = [fold(w) for w in _WORD.findall(question.lower())]
    for i in range(len(asked) - 1, -1, -1):
        if asked[i] == head or same_stem(asked[i], head):
            qualifiers: list[str] = []
            for w in reversed(asked[:i]):
                if w in _FILLER or w in _GENERAL:
                    break
                qualifiers.append(w)
            def said(q: str, among: list[str]) -> bool:
                return q in among or any(same_stem(q, w) for w in among)
            missing = [q for q in qualifiers if not said(q, own)]
            added = [w for w in own if not said(w, asked)]
            return not (missing and added)
    return True  # the head is the question's abbreviation: nothing to compare


def finding_answers(lowered: str, question: str, bk: RuleBook | None = None,
                    lenient: bool = False) -> set[str]:
    """``{"yes"}``, ``{"no"}``, both (contradictory) or none, from the findings stated.

    Args:
        lowered: the lower-cased answer text (option texts blanked, "no doubt" blanked).
        question: the item's question ("" when unknown: only absent findings are read).
        bk: the rule book.
        lenient: also count a present finding that drops the question's qualifier ("a tear"
            to "Is there a meniscal tear?"). Used only to find a yes or no word contradicted:
            a finding that answers must keep the qualifier, one that casts doubt need not.
    """
    bk = bk or book()
    if "*" in lowered or "_" in lowered:
        lowered = _EMPHASIS.sub(r"\1", lowered)  # "there is *no* free air": emphasis says it
    out, labelled = _labels(lowered, question, bk)
    start = 0
    nature = {fold(w) for w in bk.words[Kind.NATURE]}
    asked_nature = (_question(question)[0] & nature) if question else set()
    opens_sentence = True
    for m in [*_CLAUSE.finditer(lowered), None]:
        end = m.start() if m is not None else len(lowered)
        clause = lowered[start:end].strip()
        start = m.end() if m is not None else end
        sentence_start, opens_sentence = opens_sentence, m is not None and m.group() in ".;!?\n"
        # a clause that a colon ends names what follows: present only where a presence word
        # follows ("Pneumothorax: present"), not a state the rules do not read ("ACL: intact")
        labels_next = m is not None and m.group() == ":" and not _presence_follows(lowered,
                                                                                   m.end())
        if len(clause) < 3 or any(a <= end <= b for a, b in labelled):
            continue  # too short, or on a label's line ("LVI: absent", read whole)
        words = word_tokens(clause)
        got = _absent_in(clause, words, bk)
        if got is not None:
            if _absent_asked(got, question) or lenient and _absent_related(got, question):
                out.add("no")
            continue
        if asked_nature:
            stated = [w for w in bk.words[Kind.NATURE] if fold(w) in asked_nature
                      and re.search(rf"\b{re.escape(w)}\b", clause)]
            if stated:
                if any(re.search(rf"\b(?:not|non|no)[\s-]+(?:\w+\s+)?{re.escape(w)}\b", clause)
                       for w in stated):
                    out.add("no")  # "these are benign and not suspicious"
                elif not _NEGATED.search(clause):
                    out.add("yes")  # "this is highly suspicious"
                continue
        if question:
            none = bk.search(Kind.FINDING_NONE, clause, words)
            if none is not None and clause.strip(" .!") == none[1] and not _question(question)[1]:
                out.add("no")  # "None seen.": the question's finding
                continue
            x = _present_in(clause, words, bk)
            if x is not None and _present_asked(x, question, bk, lenient):
                out.add("yes")
            elif x is None and sentence_start and not labels_next and _noun_phrase_present(
                    clause, question, bk, lenient):
                out.add("yes")
    return out


_VALUE: Final = re.compile(r"[ \t*_]*([^.;,!?\n()*_]{1,30}?)[ \t*_]*(?:[.;,!?\n()*_]|$)")


def _presence_follows(lowered: str, at: int) -> bool:
    """Whether a label's value at ``at`` is a word saying present ("yes", "present", "seen")."""
    value = _VALUE.match(lowered, at)
    return value is not None and value.group(1).strip() in YES_WORDS


def _phrase(x: str, bk: RuleBook) -> str:
    """The finding's noun phrase: ``x`` up to the first word that ends it (``finding.end``)."""
    lowered = x.lower()
    ends = [s for s, _, _ in bk.spans(Kind.FINDING_END, lowered, word_tokens(lowered))
            if s > 0 and lowered[s - 1] != "-"]
    return x[:ends[0]].strip() if ends else x


_ASIDE: Final = re.compile(r"[ \t]*\([^()\n]{1,40}\)")


def _labels(lowered: str, question: str, bk: RuleBook
            ) -> tuple[set[str], list[tuple[int, int]]]:
    """Findings written as labels on their own lines stated absent ("LVI: absent").

    (One stated present, "NVD: present", opens its sentence and is read as a noun phrase.)

    Returns the answers and the (start, end) of each line read as a label.
    """
    out: set[str] = set()
    lines: list[tuple[int, int]] = []
    if ":" not in lowered and " - " not in lowered and "=" not in lowered:
        return out, lines
    offset = 0
    for line in lowered.split("\n"):
        at, offset = offset, offset + len(line) + 1
        words = word_tokens(line)
        for s, e, rule_id in bk.spans(Kind.FINDING_ABSENT, line, words):
            if rule_id != "finding.label" or line[e:].strip(" .;,)*"):
                continue
            # (an aside in brackets is no part of the label: "Extraprostatic extension (EPE)")
            label = _ASIDE.sub("", line[:s]).strip(" \t-*\u2022|")
            if _absent_asked(label, question):
                out.add("no")
                lines.append((at, at + len(line)))
    return out, lines


def _absent_in(clause: str, words: frozenset[str], bk: RuleBook) -> str | None:
    """The finding a clause states absent, or None."""
    for rule_id, phrase in bk.candidates(Kind.FINDING_ABSENT, clause, words):
        pat = phrase.pattern
        m = pat.search(clause)
        if m is None:
            continue
        if rule_id == "finding.label":
            continue  # read on its line (_labels)
        if rule_id == "finding.absent-tail":
            x = clause[:m.start()].strip()
            if x.endswith(("=", ":", "|")):
                continue  # a label's value ("LVI = absent"): read on its line (_labels)
            if _content(x) and m.end() >= len(clause.rstrip(" .")) - 1:
                return x
            continue
        lead = clause[:m.start()].strip()
        if lead and rule_id != "finding.absent-contrast" and not _LEAD_OK.fullmatch(lead):
            continue
        x = _phrase(clause[m.end():].strip(), bk)
        if _content(x):
            return x
    return None


def _present_in(clause: str, words: frozenset[str], bk: RuleBook) -> str | None:
    """The finding a clause states present, or None."""
    for _rule_id, phrase in bk.candidates(Kind.FINDING_PRESENT, clause, words):
        m = phrase.pattern.search(clause)
        if m is None:
            continue
        before, after = clause[:m.start()].strip(), clause[m.end():].strip()
        if phrase.source.startswith(("(is|are)", "(present")):
            if before and (phrase.source.startswith("(is|are)") or not after
                           or after[:1] in ",;:"):
                return _phrase(before, bk)
            continue
        if after:
            return _phrase(after, bk)
    return None


def _noun_phrase_present(clause: str, question: str, bk: RuleBook, lenient: bool = False
                         ) -> bool:
    """A clause that opens by naming the question's finding.

    With no negation, condition or hedge in it: "Central ulceration with a crust" answers
    "Is this lesion ulcerated?".
    """
    if _NEGATED.search(clause) or "?" in clause:
        return False
    words = word_tokens(clause)
    if bk.any_of(_NOT_STATED | {Kind.FINDING_ABSENT}, clause, words):
        return False  # "Lymphovascular invasion: absent" names the finding to deny it
    first = clause.split(None, 1)[0] if clause.split() else ""
    if bk.search(Kind.FINDING_ACTION, first, word_tokens(first)) is not None:
        return False  # "Identify the inked margin": an instruction
    head = _content(_DETERMINERS.sub("", _phrase(clause, bk)))[:4]
    if not head:
        return False
    asked, flips, abbrs = _question(question)
    nature = {fold(w) for w in bk.words[Kind.NATURE]}
    if flips or _unstated(asked & nature, head) or _names_the_place(head, question):
        return False
    return _in_question(head[-1], asked, abbrs) and (lenient or _qualifiers_kept(head, question))
