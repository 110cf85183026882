"""What beside a chosen answer offers another reading, wherever the answer was found.

A response is credited only when nothing around its answer offers, keeps open or reverses to
another reading. The located-answer checks (:mod:`._strict_checks`) read the text before and
after a located answer; this check runs on every choice, whichever path found it (the quick
reading of a plain sentence, a located answer, the whole text), so that three forms of a second
reading never leave a credit:

- a second reading offered in a sentence that names another option (``alternative.second-
  reading``: "second choice", "if not, C", "equally likely");
- a sentence binding the answer and another option each to a condition
  (``alternative.conditional``: "B if the line is real, A if it is a fold");
- a change of mind after which the answer is not restated (``revision.left-open``:
  "A. Actually, no.").
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._answer_words import NO_WORDS, YES_WORDS
from medvqa.reading._base import ParsedAnswer, abstain
from medvqa.reading._book import RuleBook, word_tokens
from medvqa.reading._options import OptionSet
from medvqa.reading._scan import scan
from medvqa.reading.rules import Kind

__all__ = ["offered_beside"]

_SECOND: Final = frozenset({Kind.SECOND_READING})
_CONDITION: Final = frozenset({Kind.CONDITION})
_REVISION: Final = frozenset({Kind.REVISION})
_CUES: Final = _SECOND | _CONDITION | _REVISION
_SENTENCES: Final = re.compile(r"(?<=[.!?])\s+|\n+")
_LONE: Final = re.compile(r"(?<![\w'\u2019-])([A-Z])(?![\w'\u2019-])")
_WORD_AFTER: Final = re.compile(r"\s+[a-z]")
_YES_NO: Final = re.compile(r"(?<!\w)(" + "|".join(
    re.escape(w) for w in sorted(YES_WORDS | NO_WORDS, key=len, reverse=True)) + r")(?!\w)")


def offered_beside(body: str, chosen: str, ix: OptionSet, qtype: str, question: str,
                   bk: RuleBook) -> ParsedAnswer | None:
    """The abstention a second reading beside ``chosen`` calls for, or None (the credit stays).

    ``body``: the response with its reasoning trace set aside.
    """
    lowered = body.lower()
    words = word_tokens(lowered)
    if not bk.any_of(_CUES, lowered, words):
        return None
    letters = frozenset((chosen,))
    whole = scan(body, ix, qtype, question, hedge=False, bk=bk)
    body_named = (whole.named | whole.asserted | _lone_letters(body, ix)) - whole.negated
    for sentence in _SENTENCES.split(body):
        undone = _sentence_offers(sentence, letters, body_named, ix, qtype, question, bk)
        if undone is not None:
            return undone
    return _left_open(body, lowered, words, letters, ix, qtype, question, bk)


def _sentence_offers(sentence: str, chosen: frozenset[str], body_named: frozenset[str],
                     ix: OptionSet, qtype: str, question: str,
                     bk: RuleBook) -> ParsedAnswer | None:
    low = sentence.lower()
    words = word_tokens(low)
    second = bk.search(Kind.SECOND_READING, low, words)
    conditional = second is None and bk.search(Kind.CONDITION, low, words) is not None
    if second is None and not conditional:
        return None
    r = scan(sentence, ix, qtype, question, hedge=False, bk=bk)
    rule_id = second[0] if second is not None else "alternative.conditional"
    if r.verdict == "ambiguous":
        return abstain("ambiguous", rule_id)
    named = (r.named | r.asserted | _lone_letters(sentence, ix) | _yes_no_said(low, ix)) \
        - r.negated
    if conditional:
        # "If it were an effusion, the angle would be blunted" names one option: a discussion
        return abstain("ambiguous", rule_id) if named - chosen and named & chosen else None
    if named - chosen:
        return abstain("ambiguous", rule_id)
    if named & chosen and (body_named - chosen):
        return abstain("ambiguous", rule_id)  # "Grade 2. Second choice: grade 3" read as 3
    return None


def _yes_no_said(lowered: str, ix: OptionSet) -> frozenset[str]:
    """On a yes/no item, the options whose words the sentence holds as whole words."""
    if not ix.yesno:
        return frozenset()
    said = {ix.yes if w in YES_WORDS else ix.no for w in _YES_NO.findall(lowered)}
    return frozenset(x for x in said if x is not None)


def _lone_letters(sentence: str, ix: OptionSet) -> frozenset[str]:
    """Option letters standing alone in a sentence ("if not, C", "C is equally likely").

    "A" and "I" followed by a lower-case word are the article and the pronoun.
    """
    return frozenset(m.group(1) for m in _LONE.finditer(sentence) if m.group(1) in ix.keys
                     and not (m.group(1) in "AI" and _WORD_AFTER.match(sentence, m.end())))


def _left_open(body: str, lowered: str, words: frozenset[str], chosen: frozenset[str],
               ix: OptionSet, qtype: str, question: str, bk: RuleBook) -> ParsedAnswer | None:
    """A change of mind whose text does not restate the answer (``revision.left-open``)."""
    if not bk.any_of(_REVISION, lowered, words):
        return None
    spans = bk.spans(Kind.REVISION, lowered, words)
    if not spans:
        return None
    end = max(e for _, e, _ in spans)
    rest = body[end:]
    if not rest.strip(" \t\n.,:;!?-\u2014\u2013*_"):
        # "… Final answer: B (revised)": the cue closes the text; nothing after it revises
        return None
    after = scan(rest, ix, qtype, question, bk=bk)
    if after.asserted & chosen and not (after.asserted - chosen):
        return None
    return abstain("not_committed", "revision.left-open")
