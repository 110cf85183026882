"""What around a located answer can undo it: the text after it, before it, between two answers.

The strict style credits a located answer only when nothing around it offers, keeps open or
reverses to another reading (the invariant of ``docs/answer-reading.md``):

- after it (:func:`tail_undoes`): a refusal or a hedge (in any language of the rule table);
  another option in a letter position ("Final answer: B⏎⏎A"), joined by "or", or asserted in
  a clause that states a conclusion ("… these features point to an endometrioma"); another
  option named after a change of mind ("Wait, actually A"); on a yes/no item, a finding that
  says the opposite ("Yes. No mass is seen.");
- before it (:func:`before_undoes`): a refusal; the chosen option negated and never asserted;
- between two located answers that differ (:func:`revised_between`): only a change of mind
  lets the later one stand ("Final answer: A … wait … Final answer: C"); without one, two
  different answers are ambiguous.
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._base import ParsedAnswer, abstain
from medvqa.reading._book import RuleBook, word_tokens
from medvqa.reading._conceded import CONCEDED, conceded_other
from medvqa.reading._forced import FORCED_AFTER_IF
from medvqa.reading._locate import Segment
from medvqa.reading._options import OptionSet
from medvqa.reading._scan import conclusion_asserts, scan
from medvqa.reading._text import prepare
from medvqa.reading.rules import Kind

__all__ = ["NEGATING", "before_undoes", "concluded_letter", "letter_closing", "negated_marker",
           "revised_between", "tail_undoes", "without_role_disclaimers"]

_CLAUSE_MARKS = ".;,!?\n:"
#: A capital letter standing alone (a letter position may be there).
LONE_CAPITAL: Final = re.compile(r"[A-Z](?<![A-Za-z][A-Z])(?![a-z])")
_LONE_CAPITAL = LONE_CAPITAL


def negated_marker(body: str, start: int, bk: RuleBook) -> bool:
    """A negation earlier in the marker's own clause ("I would not say the answer is A")."""
    if not clause_may_hold(body, start, _MARKER_NEGATIONS, bk):
        return False
    begin = 0
    for mark in _CLAUSE_MARKS:
        i = body.rfind(mark, begin, start)
        if i >= 0:
            begin = i + 1
    if begin >= start:
        return False
    fragment = body[begin:start].lower()
    words = word_tokens(fragment)
    neutral = bk.spans(Kind.NOT_NEGATION, fragment, words)
    if neutral:
        fragment = "".join(" " if any(s <= i < e for s, e, _ in neutral) else c
                           for i, c in enumerate(fragment))
        words = word_tokens(fragment)
    return (bk.search(Kind.NEG_BEFORE, fragment, words) is not None
            or bk.search(Kind.NEG_NOUN, fragment, words) is not None)


_MARKER_NEGATIONS: Final = frozenset({Kind.NEG_BEFORE, Kind.NEG_NOUN})
_MARKER_CONDITIONS: Final = frozenset({Kind.PLAN, Kind.CONDITION})


def clause_may_hold(body: str, start: int, kinds: frozenset[Kind], bk: RuleBook) -> bool:
    """False only where the text before ``start`` holds no phrase of ``kinds``: a gate.

    Where a space stands before ``start`` in an ASCII text, the words before it (from a
    clause mark on) are words of the text: a text without the kinds' words holds none there.
    """
    if not body.isascii() or (start and body[start - 1] != " "):
        return True
    lowered = body.lower()
    return bk.any_of(kinds, lowered, word_tokens(lowered))


def conditional_marker(body: str, start: int, bk: RuleBook) -> bool:
    """A condition or a plan earlier in the marker's sentence.

    "If it persists, the answer is A", "I'll assess each option: …".
    """
    if not clause_may_hold(body, start, _MARKER_CONDITIONS, bk):
        return False
    begin = max(body.rfind(c, 0, start) for c in ".!?\n") + 1
    fragment = body[begin:start].lower()
    words = word_tokens(fragment)
    if bk.search(Kind.PLAN, fragment, words) is not None:
        return True
    lowered = body.lower()  # "If forced to choose one, D": the forced words open the marker
    return any(FORCED_AFTER_IF.match(lowered, begin + stop) is None
               for _, stop, _ in bk.spans(Kind.CONDITION, fragment, words))


def revised_between(body: str, earlier: Segment, later: Segment, bk: RuleBook) -> bool:
    """Whether a change of mind stands between two located answers (or opens the later)."""
    between = body[earlier.start:later.start].lower()
    return bk.search(Kind.REVISION, between, word_tokens(between)) is not None


#: The kinds of rule by which the text after an answer can undo it (besides a letter, a
#: structure, "or" opening it, and on a yes/no item a finding).
TAIL_KINDS: Final = frozenset({Kind.REFUSAL, Kind.HEDGE, Kind.HEDGE_SCOPED,
                               Kind.EXCLUSION_HEDGE, Kind.REVISION,
                               Kind.CONCLUSION, Kind.LETTER_KEYWORD, Kind.ANSWER_MARKER,
                               Kind.NEG_BEFORE, Kind.NEG_NOUN, Kind.NEG_AFTER, Kind.STATUS,
                               Kind.CONTRAST, Kind.CONCESSION})
_FINDING_KINDS: Final = frozenset({Kind.FINDING_ABSENT, Kind.FINDING_PRESENT, Kind.NEG_NOUN,
                                   Kind.NEG_BEFORE})
#: The kinds by which the text before an answer can undo it: a refusal, a negation, a change
#: of mind from another answer.
BEFORE_KINDS: Final = frozenset({Kind.REFUSAL, Kind.NEG_BEFORE, Kind.NEG_NOUN, Kind.NEG_AFTER,
                                 Kind.STATUS, Kind.REVISION})
_STRUCTURE: Final = frozenset("<>{}[]|()\\")
# A heading of the options rejected after the answer: "Why not the others:", "Why the other
# choices are wrong:", "Incorrect options:". (Not "Other options:": it may keep one open.)
_REJECTED_OTHERS: Final = re.compile(
    r"(?im)^[ \t#>*_]*(?:why[ \t]+not[ \t]+(?:the[ \t]+)?others?|why[ \t]+(?:the[ \t]+)?other"
    r"[ \t]+(?:options|choices|answers)[ \t]+(?:are|were)[ \t]+(?:wrong|incorrect|less[ \t]+likely)"
    r"|(?:the[ \t]+)?(?:incorrect|wrong|rejected)[ \t]+(?:options|choices|answers)|distractors)"
    r"[ \t*_]*[:.]?[ \t*_]*$")
_OR_FIRST = re.compile(r"[\s,;.(\[\-\u2014\u2013]*(?:or|oder|ou|o|of|veya|или)\b")


_SENTENCES: Final = re.compile(r"[^.!?\n]+[.!?]*|\n+")


def _without_disclaimers(tail: str, chosen: frozenset[str], ix: OptionSet, qtype: str,
                         question: str, bk: RuleBook) -> str:
    """The tail without the sentences that only say how to confirm the answer or whom to see.

    Those sentences (``disclaimer.*``) naming no other option are no hedge or refusal of the
    answer.
    """
    lowered = tail.lower()
    if not bk.any_of(_DISCLAIMER, lowered, word_tokens(lowered)):
        return tail
    kept = []
    for m in _SENTENCES.finditer(tail):
        sentence = m.group()
        low = sentence.lower()
        if bk.search(Kind.DISCLAIMER, low, word_tokens(low)) is not None:
            r = scan(sentence, ix, qtype, question, hedge=False, bk=bk)
            if not (r.named - chosen) and r.verdict is None or r.verdict == "refusal" and not (
                    r.named - chosen):
                kept.append(" " * len(sentence))
                continue
        kept.append(sentence)
    return "".join(kept)


_DISCLAIMER: Final = frozenset({Kind.DISCLAIMER})
_ROLE: Final = frozenset({Kind.ROLE_DISCLAIMER})
# Refusals for want of an image or of knowledge: never a role disclaimer.
_SIGHT_REFUSALS: Final = frozenset({"refusal.no-image", "refusal.not-enough",
                                    "refusal.do-not-know"})


def without_role_disclaimers(before: str, bk: RuleBook) -> str | None:
    """The text before an answer with its role disclaimers blanked, or None where there are none.

    A sentence holding a refusal is a role disclaimer (``disclaimer.role``) only where it also
    declines a doctor's role and says nothing of what the model can see (``disclaimer.sight``).
    """
    lowered = before.lower()
    if not bk.any_of(_ROLE, lowered, word_tokens(lowered)):
        return None
    kept, blanked_any = [], False
    for m in _SENTENCES.finditer(before):
        sentence = m.group()
        low = sentence.lower()
        words = word_tokens(low)
        refusal = bk.search(Kind.REFUSAL, low, words)
        if refusal is not None and bk.search(Kind.ROLE_DISCLAIMER, low, words) is not None \
                and bk.search(Kind.SIGHT, low, words) is None and not any(
                    rule_id in _SIGHT_REFUSALS for _, _, rule_id in bk.spans(
                        Kind.REFUSAL, low, words)):
            kept.append(" " * len(sentence))
            blanked_any = True
            continue
        kept.append(sentence)
    return "".join(kept) if blanked_any else None


def _may_undo(text: str, kinds: frozenset[Kind], bk: RuleBook, yesno: bool) -> bool:
    """Whether a text can undo an answer at all: a gate before it is read."""
    if not text.isascii() or not _STRUCTURE.isdisjoint(text) or _LONE_CAPITAL.search(text):
        return True
    lowered = text.lower()
    tokens = word_tokens(lowered)
    return (bk.any_of(kinds, lowered, tokens) or _OR_FIRST.match(lowered) is not None
            or yesno and bk.any_of(_FINDING_KINDS, lowered, tokens))


def tail_undoes(tail: str, chosen: frozenset[str], ix: OptionSet, qtype: str, question: str,
                bk: RuleBook) -> ParsedAnswer | None:
    """What in the text after a located answer undoes it (the module docstring), or None."""
    if not _may_undo(tail, TAIL_KINDS, bk, ix.yesno):
        return None
    rejected = _REJECTED_OTHERS.search(tail)
    if rejected is not None:
        # "Why not the others:" heads a walk through the options rejected: no second answer
        tail = tail[:rejected.start()]
    tail = _without_disclaimers(tail, chosen, ix, qtype, question, bk)
    after = scan(tail, ix, qtype, question, bk=bk, answered=bool(chosen & {ix.yes, ix.no}))
    if after.verdict in ("refusal", "hedge"):
        return abstain(after.verdict, after.rule)
    others = (after.lettered - after.negated) - chosen
    if others or (after.letter_named - after.negated) - chosen:
        return abstain("ambiguous", "structural.tail-letter")
    if chosen & after.negated and not chosen & after.asserted:
        return abstain("ambiguous", "structural.negated-after")
    lowered = tail.lower()
    words = word_tokens(lowered)
    other_asserted = after.asserted - after.negated - chosen
    if other_asserted and bk.search(Kind.REVISION, lowered, words) is not None:
        return abstain("not_committed", "revision.change-of-mind")
    if other_asserted and _OR_FIRST.match(lowered) is not None:
        return abstain("ambiguous", "alternative.or")
    if other_asserted and ix.yesno and chosen & {ix.yes, ix.no}:
        return abstain("ambiguous", "structural.contradiction")
    everything_else = ix.keys - chosen
    if (after.named - after.negated) & everything_else and conceded_other(
            tail, chosen, ix, qtype, question, bk):
        return abstain("ambiguous", CONCEDED)
    if (after.named - after.negated) & everything_else and conclusion_asserts(
            tail, frozenset(everything_else), ix, qtype, question, bk):
        return abstain("ambiguous", "conclusion.points-to")
    if _LONE_CAPITAL.search(tail) is not None and (
            _letter_after(tail, ix, chosen) or concluded_letter(tail, ix, chosen, bk)
            or letter_closing(tail, ix, chosen | after.negated, bk)):
        return abstain("ambiguous", "structural.tail-letter")
    if _conditional_answer(tail, chosen, ix, qtype, question, bk):
        return abstain("ambiguous", "structural.conditional-answer")
    return None


_THEN: Final = re.compile(r"[,:]|\bthen\b")


def _conditional_answer(tail: str, chosen: frozenset[str], ix: OptionSet, qtype: str,
                        question: str, bk: RuleBook) -> bool:
    """A second answer offered on a condition after the first.

    Another option named in the consequence of an if-sentence ("If erosions are extensive:
    B (SJS)").
    """
    lowered = tail.lower()
    for _, e, _ in bk.spans(Kind.CONDITION, lowered, word_tokens(lowered)):
        end = min((i for i in (lowered.find(c, e) for c in ".!?\n") if i >= 0),
                  default=len(lowered))
        then = _THEN.search(lowered, e, end)
        if then is None:
            continue
        r = scan(tail[then.end():end], ix, qtype, question, hedge=False, bk=bk)
        if (r.named - r.negated) - chosen:
            return True
    return False


_LETTER_ALONE = re.compile(r"(?:^|[\n,;:.\u2192>\u2014\u2013]|=>|->)[ \t]*[(\[]?([A-Z])[)\]]?"
                           r"[ \t]*[.!]?[ \t]*(?=$|\n)")


def _letter_after(tail: str, ix: OptionSet, chosen: frozenset[str]) -> bool:
    """A lone capital letter of another option on a line or in a clause of its own."""
    text = prepare(tail)
    return any(m.group(1) in ix.keys and m.group(1) not in chosen
               for m in _LETTER_ALONE.finditer(text))


_LETTER_CLOSING = re.compile(r"(?<![\w'\u2019-])([A-Z])[)\]]?[ \t]*(?:[.!?\u3002]+[ \t]*)?(?=\n|$)")


def letter_closing(tail: str, ix: OptionSet, kept: frozenset[str], bk: RuleBook) -> bool:
    """Another option's letter closing a sentence after the answer, not negated ("… là B.").

    In a language whose hedges the table does not know, a letter is still a letter: a
    sentence that ends on another option's letter names a second reading. Not where its
    clause negates it first ("B, not A.", "B rather than A.") or a check-list's row marks it.
    """
    text = prepare(tail)
    for m in _LETTER_CLOSING.finditer(text):
        if m.group(1) not in ix.keys or m.group(1) in kept:
            continue
        line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
        if _MARKED_LINE.search(line):
            continue  # "[ ] D", "\u2717 D": the row marks its own letter
        clause = line[max(line.rfind(c) for c in _CLAUSE_MARKS) + 1:].lower()
        if not bk.any_of(NEGATING, clause, word_tokens(clause)):
            return True
    return False


#: The kinds that negate what follows them in a clause ("not C", "no effusion").
NEGATING: Final = frozenset({Kind.NEG_BEFORE, Kind.NEG_NOUN})


_MARKED_LINE: Final = re.compile(r"[\[\]|\u2610-\u2612\u2713-\u2718\u2705\u274c\u274e\U0001f534"
                                 r"\U0001f7e2\U0001f44d\U0001f44e]")


_LETTER_CONCLUDED = re.compile(r"[ \t]*[(\[]?([A-Z])[)\]]?[ \t]*(?=[.!,;:)]|$|\n)")


def concluded_letter(tail: str, ix: OptionSet, chosen: frozenset[str], bk: RuleBook) -> bool:
    """Another option's letter standing alone right after a conclusion ("…, so C.").

    A later conclusion that names another letter is a second answer, whether or not a change
    of mind was written before it.
    """
    lowered = tail.lower()
    for _, e, _ in bk.spans(Kind.CONCLUSION, lowered, word_tokens(lowered)):
        m = _LETTER_CONCLUDED.match(tail, e)
        if m is not None and m.group(1) in ix.keys and m.group(1) not in chosen:
            return True
    return False


def before_undoes(before: str, chosen: frozenset[str], ix: OptionSet, qtype: str,
                  question: str, bk: RuleBook) -> ParsedAnswer | None:
    """What in the text before a located answer undoes it (the module docstring), or None."""
    if not _may_undo(before, BEFORE_KINDS, bk, False):
        return None
    prior = scan(before, ix, qtype, question, hedge=False, bk=bk)
    if prior.verdict == "refusal":
        declined = without_role_disclaimers(before, bk)
        if declined is None:
            return abstain("refusal", prior.rule)
        prior = scan(declined, ix, qtype, question, hedge=False, bk=bk)
        if prior.verdict == "refusal":
            return abstain("refusal", prior.rule)
    lowered = before.lower()
    if (prior.lettered - chosen) and bk.search(Kind.REVISION, lowered,
                                               word_tokens(lowered)) is not None:
        return abstain("not_committed", "revision.change-of-mind")  # "Yes … Correction: No"
    if chosen & prior.negated and not chosen & prior.asserted:
        return abstain("ambiguous", "structural.negated-before")
    return None
