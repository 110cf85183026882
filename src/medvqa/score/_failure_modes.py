"""Rule-based failure-mode tags for wrong, invalid and out-of-domain answers.

Two published taxonomies, counted side by side:

* LMOD (seed 002, §5 "Error Analysis"): E1 misclassification, E2 failure to abstain, E3
  inconsistent reasoning, E4 hallucination, E5 assertion without justification, E6 lack of
  domain-specific knowledge.
* MIRA (seed 001, Fig. 4, text-only errors): guess, refusal, hallucination, missing visual
  evidence.

Rules tag what the text alone shows: refusal phrases, a complaint that the image is missing,
an unreadable answer (``invalid_format``), a letter outside the options (E4 / hallucination),
visual detail described when no real image was shown (E4 / hallucination under ``blind``,
``noise``, ``text-only``), answering instead of abstaining on an out-of-domain photo (E2, every
``ood`` answer that does not abstain), a bare wrong answer with no reason given (E5), and any
readable wrong answer (E1; a MIRA ``guess`` unless tagged a hallucination). E3 and E6 need a
reader of the reasoning: readable wrong answers, and unreadable ones that are neither a refusal,
a missing-image complaint nor a hallucination, are ``judge_candidates`` for the optional LLM
judge (:mod:`medvqa.score._judge`). One response can carry several tags, so tag counts can
exceed the failures.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from medvqa.score._rows import ScoredRow

LMOD_TAGS = ("E1", "E2", "E3", "E4", "E5", "E6")
MIRA_TAGS = ("guess", "refusal", "hallucination", "missing visual evidence")
RULE_TAGS = ("invalid_format", "outside_options")

@functools.lru_cache(maxsize=1024)
def _removes(condition: str) -> frozenset[str]:
    from medvqa.conditions import describe

    return describe(condition).removes


def shows_no_image(condition: str) -> bool:
    """Whether ``condition`` shows no real image (describing one is then a hallucination).

    Read from what the condition declares it removes (``blind``, ``noise``, ``text-only``).
    """
    taken = _removes(condition)
    return "image" in taken and "domain" not in taken


def out_of_domain(condition: str) -> bool:
    """Whether ``condition`` shows an out-of-domain photo (abstaining is the right answer)."""
    return "domain" in _removes(condition)

_MISSING = re.compile(
    r"(no|without( an?| the)?|missing|lack of( an?| the)?) (medical )?(image|picture|scan|photo)"
    r"|(image|picture|scan)s? (is|are|was|were|has not been|have not been) (not )?"
    r"(provided|available|attached|included|shown|visible)"
    r"|can(no|')t (see|view|access) (the |an |any )?(image|picture)"
    r"|unable to (see|view|access) (the |an |any )?(image|picture)",
    re.IGNORECASE,
)
_REFUSAL = re.compile(
    r"\b(i can(no|')t|i am unable|i'm unable|i am not able|unable to (determine|answer|provide)"
    r"|i (won't|will not)|cannot (be )?(determined|determine|answer|provide|say|tell)"
    r"|not possible to (determine|tell|say)|i'm sorry|i am sorry|as an ai"
    r"|consult (a|your) (doctor|physician|specialist))",
    re.IGNORECASE,
)
_NOT_MEDICAL = re.compile(
    r"not (a |an )?(relevant |valid )?(medical|clinical|histolog\w*|patholog\w*|radiolog\w*"
    r"|mammo\w*|fundus|ophthalm\w*)( image)?"
    r"|(is|shows|appears to be|looks like|depicts) (a |an )?(photo|photograph|picture) of"
    r"|\b(a|an) (cat|dog|animal|person|man|woman|astronaut|rocket|cup|coffee)\b",
    re.IGNORECASE,
)
_VISUAL = re.compile(
    r"\b(the|this) (image|picture|slide|scan) (shows|demonstrates|reveals|depicts|displays)"
    r"|\bcan be seen\b|\bis (clearly )?visible\b|\bare (clearly )?visible\b|\bi (can )?see\b",
    re.IGNORECASE,
)
_LEADING_LETTER = re.compile(
    r"^\s*(?:the\s+)?(?:answer\s*(?:is)?\s*[:\-]?\s*)?(?:\(([A-Z])\)|([A-Z])(?:[.):]|\s*$))",
    re.IGNORECASE,
)


class _Text(NamedTuple):
    """What the rules read in a response's text (the same for every item it answers)."""

    missing: bool
    refusal: bool
    not_medical: bool
    visual: bool
    letter: str | None


_TEXTS: dict[str, _Text] = {}
#: Short responses ("B", "Answer: C") repeat across items: their reading is kept.
_CACHED_TEXTS, _CACHED_LENGTH = 8192, 100


def _read(response: str) -> _Text:
    """The rules' reading of ``response`` (cached for short, repeated responses)."""
    hit = _TEXTS.get(response)
    if hit is not None:
        return hit
    match = _LEADING_LETTER.match(response)
    text = _Text(bool(_MISSING.search(response)), bool(_REFUSAL.search(response)),
                 bool(_NOT_MEDICAL.search(response)), bool(_VISUAL.search(response)),
                 (match.group(1) or match.group(2)).upper() if match else None)
    if len(response) <= _CACHED_LENGTH:
        if len(_TEXTS) >= _CACHED_TEXTS:
            _TEXTS.clear()
        _TEXTS[response] = text
    return text


def abstains(response: str) -> bool:
    """Whether the response declines: a refusal, a missing-image complaint or an OOD rejection.

    >>> abstains("This is not a medical image; it shows a cat.")
    True
    >>> abstains("B")
    False
    """
    text = _read(response)
    return text.refusal or text.missing or text.not_medical


class _Outcome(NamedTuple):
    """What one response adds to a condition's counts."""

    tags: tuple[str, ...]
    abstained: bool
    failed: bool
    judge: bool


def tag_response(response: str, row: ScoredRow, options: dict[str, str]) -> tuple[str, ...]:
    r"""Failure tags of one scored response (empty for a right answer outside ``ood``).

    Args:
        response: the model's raw text.
        row: the scored row (condition, correctness, invalid flag).
        options: the options as shown (after any permutation).

    >>> from medvqa.score._rows import ScoredRow
    >>> row = ScoredRow("i", "text-only", False, True, None, "a", "\\x00invalid", 2, "single",
    ...                 "", "", "test", None)
    >>> tag_response("I cannot answer without the image.", row, {"A": "a", "B": "b"})
    ('missing visual evidence', 'refusal')
    """
    return _outcome(response, row, options).tags


def _outcome(response: str, row: ScoredRow, options: dict[str, str]) -> _Outcome:
    """Tags, abstention, failure and judge flag of one response (cached for short ones)."""
    text = _read(response)
    if len(response) > _CACHED_LENGTH:
        return _decide(response, text, row, options)
    # A short response's outcome depends on the response, the condition, the result and
    # whether its leading letter is an option: the same for every item answered alike.
    key = (response, row.condition, row.correct, row.invalid, bool(options),
           text.letter in options if text.letter else None)
    hit = _OUTCOMES.get(key)
    if hit is None:
        if len(_OUTCOMES) >= _CACHED_TEXTS:
            _OUTCOMES.clear()
        hit = _OUTCOMES[key] = _decide(response, text, row, options)
    return hit


_OUTCOMES: dict[tuple[object, ...], _Outcome] = {}


def _decide(response: str, text: _Text, row: ScoredRow, options: dict[str, str]) -> _Outcome:
    tags = _tags(response, text, row, options)
    return _Outcome(tags, text.refusal or text.missing or text.not_medical,
                    bool(tags) or (not row.correct and not out_of_domain(row.condition)),
                    needs_judge(tags, row))


def _tags(response: str, text: _Text, row: ScoredRow,
          options: dict[str, str]) -> tuple[str, ...]:
    tags: list[str] = []
    missing, refusal = text.missing, text.refusal
    declined = missing or refusal or text.not_medical
    if out_of_domain(row.condition):
        return () if declined else ("E2",)
    if row.correct:
        return ()
    if missing:
        tags.append("missing visual evidence")
    if refusal:
        tags.append("refusal")
    hallucinated = False
    letter = text.letter
    if options and letter and letter not in options and len(response) < 40:
        tags += ["outside_options", "E4"]
        hallucinated = True
    if shows_no_image(row.condition) and text.visual and not missing:
        if "E4" not in tags:
            tags.append("E4")
        hallucinated = True
    if hallucinated:
        tags.append("hallucination")
    if row.invalid and not declined and not hallucinated:
        tags.append("invalid_format")
    if not row.invalid:
        tags.append("E1")
        if len(response.split()) <= 3:
            tags.append("E5")
        if not hallucinated and not declined:
            tags.append("guess")
    return tuple(tags)


def needs_judge(tags: tuple[str, ...], row: ScoredRow) -> bool:
    r"""Whether a failure is left for the LLM judge: a wrong answer the rules cannot place.

    Readable wrong answers (E1: why wrong?) and unreadable ones tagged only ``invalid_format``;
    never right answers, never ``ood`` (abstaining is all that is asked there).

    >>> from medvqa.score._rows import ScoredRow
    >>> r = ScoredRow("i", "clean", False, True, None, "a", "\x00invalid", 2, "single",
    ...               "", "", "test", None)
    >>> needs_judge(("invalid_format",), r), needs_judge(("refusal",), r)
    (True, False)
    """
    if row.correct or out_of_domain(row.condition):
        return False
    return "E1" in tags or tags == ("invalid_format",)


@dataclass
class FailureCounts:
    """Tag counts of one condition.

    Each distinct outcome (tags, abstained, failed, judge) is counted once per response; the
    totals are summed from those counts when read (a scoring pass adds a million responses
    and reads the totals once).

    Attributes:
        n: responses scored.
        failures: wrong or invalid responses (for ``ood``: those that did not abstain).
        abstained: responses that declined (refusal, missing image, not a medical image).
        judge_candidates: failures the rules cannot place (:func:`needs_judge`).
        counts: tag → responses carrying it.

    """

    _outcomes: dict[_Outcome, int] = field(default_factory=dict)

    def add(self, response: str, row: ScoredRow, options: dict[str, str]) -> tuple[str, ...]:
        """Tag one response and count it."""
        outcome = _outcome(response, row, options)
        outcomes = self._outcomes
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        return outcome.tags

    @property
    def n(self) -> int:
        """Responses scored."""
        return sum(self._outcomes.values())

    @property
    def failures(self) -> int:
        """Wrong or invalid responses (for ``ood``: those that did not abstain)."""
        return sum(k for o, k in self._outcomes.items() if o.failed)

    @property
    def abstained(self) -> int:
        """Responses that declined."""
        return sum(k for o, k in self._outcomes.items() if o.abstained)

    @property
    def judge_candidates(self) -> int:
        """Failures the rules cannot place."""
        return sum(k for o, k in self._outcomes.items() if o.judge)

    @property
    def counts(self) -> Counter[str]:
        """Tag → responses carrying it."""
        counts: Counter[str] = Counter()
        for outcome, k in self._outcomes.items():
            for tag in outcome.tags:
                counts[tag] += k
        return counts

    def as_dict(self) -> dict[str, object]:
        """JSON-ready summary with every taxonomy tag present (zeros included)."""
        n, abstained, counts = self.n, self.abstained, self.counts
        return {
            "n": n,
            "failures": self.failures,
            "abstained": abstained,
            "abstention_rate": round(abstained / n, 6) if n else None,
            "judge_candidates": self.judge_candidates,
            "lmod": {t: counts.get(t, 0) for t in LMOD_TAGS},
            "mira": {t: counts.get(t, 0) for t in MIRA_TAGS},
            "rules": {t: counts.get(t, 0) for t in RULE_TAGS},
        }
