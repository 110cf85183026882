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

from medvqa.reading._answer_words import YES_WORDS
from medvqa.reading._base import ParsedAnswer, abstain
from medvqa.reading._book import RuleBook, word_tokens
from medvqa.reading._conceded import CONCEDED, conceded_other
from medvqa.reading._coordinated import COORDINATED, coordinated_other, last_mention
from medvqa.reading._labelled import LABELLED, labelled_otherwise
from medvqa.reading._locate import TRACE_TAG as _TRACE_TAG
from medvqa.reading._memo import BoundedMemo
from medvqa.reading._options import OptionSet, bag_letters, bag_mentions, plain_text
from medvqa.reading._scan import YES_NO_WORDS, scan
from medvqa.reading._scores import SCORES, scored_otherwise
from medvqa.reading._strict_checks import LONE_CAPITAL, NEGATING, concluded_letter, letter_closing
from medvqa.reading.rules import Kind

__all__ = ["bare_text", "letter_text_conflict", "lone_letters", "offered_beside",
           "set_left_open", "set_offered_beside"]

_SECOND: Final = frozenset({Kind.SECOND_READING})
_CONDITION: Final = frozenset({Kind.CONDITION})
_REVISION: Final = frozenset({Kind.REVISION})
_CONCLUSION: Final = frozenset({Kind.CONCLUSION})
_CUES: Final = _SECOND | _CONDITION | _REVISION
# A letter opening the response, followed by its separator (not the article "A pneumothorax").
_HEAD_LETTER: Final = re.compile(r"\W{0,3}([A-Z])(?:[,:)\]]|\s+\(|\s*[-\u2013\u2014]\s)")
# "Option 2", "option #3", "choice 4", a boxed number, or a bare number as the whole response.
_POSITION: Final = re.compile(r"(?i:\b(?:option|choice)\s*#?\s*(\d+)\b)|\\boxed\{\s*(\d+)\s*\}|"
                              r"\A\W*(?=\d+\W*\Z)(\d+)")
_WHOLE_NUMBER: Final = re.compile(r"\W*\d+\W*\Z")
# A line that is one capital letter ("C", "(C)", "C.").
_LONE_LINE: Final = re.compile(r"(?m)^[ \t]*[(\[]?([A-Z])[)\]]?[.!]?[ \t]*$")
# The opening sentence up to its end or an opening bracket ("Right middle lobe (…). …").
_FIRST_SENTENCE: Final = re.compile(r"([^.!?\n(]+)(?:[.!\n]|\s\()")
_MARKS: Final = re.compile(r"[*_`#>:\-\u2013\u2014]+")
# What makes an opening fragment a label's name: an aside in brackets, markup, then a colon.
_LABEL_AFTER: Final = re.compile(r"\s*(?:\([^()\n]{1,40}\))?[*_`\s]*:")
#: Fewer words than this are a terse answer, not a response cut off mid-sentence.
_CUT_WORDS: Final = 8
# "X is the most likely …", "X is most likely": the conclusion's subject stands before it.
_SUBJECT_BEFORE: Final = re.compile(r"\b(?:is|are|was)\s+(?:the\s+)?\Z")
# "… and so is normal": "so" standing for "likewise", no conclusion.
_LIKEWISE: Final = re.compile(r"so\s+(?:is|are|was|were|does|do)\b")
_NO_BEFORE_WORD: Final = re.compile(r"\b(?:no|non|n\u00e3o|nao)\s+(?=\w)")
_SI_BEFORE_WORD: Final = re.compile(r"\bsi\s+(?=\w)")
_NOUN_BEFORE: Final = re.compile(r"\b(?:a|an|the|in|of|see|per|this|that)\s+\Z")
_CLOSED: Final = frozenset(".!?)]}\"'`*_\u3002")
_SENTENCES: Final = re.compile(r"(?<=[.!?])\s+|\n+")
_LONE: Final = re.compile(r"([A-Z])(?<![\w'\u2019-][A-Z])(?![\w'\u2019-])")
_WORD_AFTER: Final = re.compile(r"\s+[a-z]")
# A yes or no word ending the response after a clause ("…, no", "…? yes").
_TAIL_YES_NO: Final = re.compile(r"[,;?]\s*(" + YES_NO_WORDS + r")\W*\Z")
_YES_NO: Final = re.compile(r"(?<!\w)(" + YES_NO_WORDS + r")(?!\w)")


def offered_beside(full: str, body: str, chosen: str, ix: OptionSet, qtype: str,
                   question: str, bk: RuleBook, one_named: bool = False) -> ParsedAnswer | None:
    """The abstention a second reading beside ``chosen`` calls for, or None (the credit stays).

    ``full``: the whole (normalized) response; ``body``: the same with its reasoning trace set
    aside; ``one_named``: the quick reading read it, a plain sentence that names one option
    and no other, so no check that needs another option named can apply.
    """
    letters = frozenset((chosen,))
    if letter_text_conflict(body, ix, qtype, question, bk):
        return abstain("ambiguous", "structural.letter-text-conflict")
    if scored_otherwise(body, chosen, ix):
        return abstain("ambiguous", SCORES)
    conflict = _position_conflict(body, letters, ix, qtype, question, bk)
    if conflict is not None:
        return conflict
    undone = _cut_on_a_prefix(body, chosen, ix) or _image_side(body, ix, bk)
    if undone is not None:
        return undone
    if qtype != "multi" and coordinated_other(body, chosen, ix):
        return abstain("ambiguous", COORDINATED)
    if not one_named and qtype != "multi":
        mention = last_mention(body, chosen, ix)
        if mention is not None and conceded_other(body[mention[1]:], letters, ix, qtype,
                                                  question, bk):
            return abstain("ambiguous", CONCEDED)
    if one_named:
        lowered = body.lower()
        return _left_open(body, lowered, word_tokens(lowered), letters, ix, qtype, question, bk)
    undone = _yes_and_no(body, ix) or _two_answers(body, letters, ix, qtype, question, bk)
    if undone is not None:
        return undone
    reopened = _reopened(full, letters, ix, qtype, question, bk)
    if reopened is not None:
        return reopened
    contradicted = _concluded_otherwise(full, letters, ix, qtype, question, bk)
    if contradicted is not None:
        return contradicted
    if labelled_otherwise(body, letters, ix, qtype, question, bk):
        return abstain("ambiguous", LABELLED)
    lowered = body.lower()
    words = word_tokens(lowered)
    if not bk.any_of(_CUES, lowered, words):
        return _closing_yes_no(body, chosen, ix) or _letter_after_answer(
            body, chosen, ix, qtype, question, bk)
    whole = scan(body, ix, qtype, question, hedge=False, bk=bk)
    body_named = (whole.named | whole.asserted | lone_letters(body, ix)) - whole.negated
    for sentence in _SENTENCES.split(body):
        undone = _sentence_offers(sentence, letters, body_named, ix, qtype, question, bk)
        if undone is not None:
            return undone
    return _left_open(body, lowered, words, letters, ix, qtype, question, bk) or \
        _closing_yes_no(body, chosen, ix) or _letter_after_answer(body, chosen, ix, qtype,
                                                                  question, bk)


def _letter_after_answer(body: str, chosen: str, ix: OptionSet, qtype: str, question: str,
                         bk: RuleBook) -> ParsedAnswer | None:
    """Another option's letter after the answer's last mention, concluded or closing a sentence.

    "…, so C.", "… là B.": a second answer, unless its clause negates it.
    """
    if qtype == "multi" or not LONE_CAPITAL.search(body):
        return None
    letters = frozenset((chosen,))
    mention = last_mention(body, chosen, ix)
    said = max([m.end() for m in _LONE.finditer(body) if m.group(1) == chosen]
               + ([mention[1]] if mention is not None else []), default=None)
    if said is not None and (concluded_letter(body[said:], ix, letters, bk)
                             or _closing_other_letter(body[said:], letters, ix, qtype,
                                                      question, bk)):
        return abstain("ambiguous", "structural.tail-letter")
    return None


def _closing_other_letter(tail: str, chosen: frozenset[str], ix: OptionSet, qtype: str,
                          question: str, bk: RuleBook) -> bool:
    """Another option's letter closing a sentence after the answer's last mention, not negated."""
    if not LONE_CAPITAL.search(tail):
        return False
    negated = scan(tail, ix, qtype, question, hedge=False, bk=bk).negated
    return letter_closing(tail, ix, chosen | negated, bk)


# A letter label and the text it labels: "(B) Yes", "A (pleural effusion)", "C: pneumothorax".
# Either a letter and its text in brackets, anywhere, or a letter opening a line (or following
# a colon) with its text after it.
# The text a line-start label labels ends with its sentence ("C: pneumothorax. The lung edge
# …" labels "pneumothorax"); a point inside a number ("2.5 cm") does not end it.
_LABELLED_LETTER: Final = re.compile(
    r"(?<![\w'(\[])([A-Z])[ \t]*\(([^()\n]{1,60})\)"
    r"|(?:^|:)[ \t]*(?:[-*+\u2022][ \t]+)?[(\[]?([A-Z])"
    r"(?:[)\]][ \t]*|[ \t]*[:.\-\u2013\u2014][ \t]+)"
    r"((?:[^\n,;().!?]|[.!?](?![ \t]|$)){1,60})",
    re.MULTILINE)


def labelled_letters(body: str) -> list[re.Match[str]]:
    """Every match of :data:`_LABELLED_LETTER` in ``body``, in order.

    Its first form needs a bracket, its second a colon or a line's start: a text with no
    bracket, colon or line break can hold one only at its start (one match, the first).
    """
    if "(" in body or ":" in body or "\n" in body:
        return list(_LABELLED_LETTER.finditer(body))
    m = _LABELLED_LETTER.match(body)
    return [] if m is None else [m]


def letter_text_conflict(body: str, ix: OptionSet, qtype: str, question: str,
                         bk: RuleBook) -> bool:
    """Whether a letter labels a text that names another option ("(B) Yes" where B is No).

    The letter and its text say two things; neither is the answer.
    """
    if not LONE_CAPITAL.search(body):
        return False
    for m in labelled_letters(body):
        letter, part = m.group(1) or m.group(3), m.group(2) or m.group(4) or ""
        if letter not in ix.keys or not part.strip():
            continue
        if plain_text(part) == ix.text_of[letter]:
            continue  # the letter's own text, written out: it names the letter
        r = scan(part, ix, qtype, question, hedge=False, bk=bk)
        named = r.asserted - r.negated - lone_letters(part, ix)
        if named and letter not in named:
            return True
    return False


_CLAUSES: Final = re.compile(r"[^.;!?\n]+")
#: The kinds whose words, before a letter in its clause, leave that letter open in a set
#: ("… though C is hard to call", "C or D", "wait, also D", "except C").
_OPENING_KINDS: Final = (Kind.CONCESSION, Kind.CONTRAST, Kind.ALTERNATIVE, Kind.REVISION,
                         Kind.SECOND_READING)


def set_left_open(body: str, chosen: frozenset[str], ix: OptionSet, qtype: str,
                  question: str, bk: RuleBook) -> ParsedAnswer | None:
    """On a multiple-choice item, a clause that leaves one letter neither in the set nor out.

    A letter after a concession, a contrast, an "or", a change of mind or a second reading in
    its clause ("A, B, C — though C is hard to call", "A, B, and C or D"), a letter in a clause
    with a condition ("D too if that line is real"), or a chosen letter after an exception
    ("B through E, except C"): the set is not committed.
    """
    if not LONE_CAPITAL.search(body):
        return None
    for m in _CLAUSES.finditer(body):
        clause = m.group()
        letters = lone_letters(clause, ix)
        if not letters:
            continue
        low = clause.lower()
        tokens = word_tokens(low)
        # a letter after a negation in its clause is rejected, not open ("so not C or E")
        negations = [s for kind in NEGATING for s, _, _ in bk.spans(kind, low, tokens)]
        negated_from = min(negations, default=len(clause))
        at = [(mm.start(), mm.group(1)) for mm in _LONE.finditer(clause)
              if mm.group(1) in letters and mm.start() < negated_from]
        if any(k in chosen and mm.start() > negated_from
               for mm in _LONE.finditer(clause) if (k := mm.group(1)) in letters):
            return abstain("ambiguous", "structural.set-left-open")  # "B to E, except C"
        if not at:
            continue
        if bk.search(Kind.CONDITION, low, tokens) is not None:
            return abstain("not_committed", "structural.set-left-open")
        for kind in _OPENING_KINDS:
            for s, e, _ in bk.spans(kind, low, tokens):
                if kind is Kind.ALTERNATIVE and not (_LETTER_BEFORE.search(clause, 0, s)
                                                     and _LETTER_AFTER.match(clause, e)):
                    continue  # "or" between two letters ("C or D"), not "all of the above"
                after = {k for i, k in at if i >= e}
                # a change of mind that adds a letter the set read lacks ("Actually also A")
                if after and (kind is not Kind.REVISION or after - chosen):
                    return abstain("not_committed", "structural.set-left-open")
    return None


_LETTER_BEFORE: Final = re.compile(r"(?<![\w'])([A-Z])[)\].]?[ \t,]*\Z")
_LETTER_AFTER: Final = re.compile(r"[ \t]*[(\[]?[A-Z](?![\w'])")


def set_offered_beside(body: str, ix: OptionSet, qtype: str, question: str,
                       bk: RuleBook) -> ParsedAnswer | None:
    """On a multiple-choice item, a second set offered beside the answer ("Alternatively: …").

    A sentence or line with a second reading's words that names a set other than the rest of
    the response names leaves two answers.
    """
    lowered = body.lower()
    if not bk.any_of(_SECOND, lowered, word_tokens(lowered)):
        return None
    for part in _SENTENCES.split(body):
        low = part.lower()
        if not part.strip() or bk.search(Kind.SECOND_READING, low, word_tokens(low)) is None:
            continue
        offered = scan(part, ix, qtype, question, hedge=False, bk=bk)
        named = (offered.asserted | lone_letters(part, ix)) - offered.negated
        rest = scan(body.replace(part, " ", 1), ix, qtype, question, hedge=False, bk=bk)
        if named and rest.asserted and rest.asserted != named:
            return abstain("ambiguous", "alternative.second-reading")
    return None


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
    named = (r.named | r.asserted | lone_letters(sentence, ix) | _yes_no_said(low, ix)) \
        - r.negated
    if conditional:
        # "If it were an effusion, the angle would be blunted" names one option: a discussion
        return abstain("ambiguous", rule_id) if named - chosen and named & chosen else None
    if named - chosen:
        return abstain("ambiguous", rule_id)
    if named & chosen and (body_named - chosen):
        return abstain("ambiguous", rule_id)  # "Grade 2. Second choice: grade 3" read as 3
    return None


def _position_conflict(body: str, chosen: frozenset[str], ix: OptionSet, qtype: str,
                       question: str, bk: RuleBook) -> ParsedAnswer | None:
    """A letter or a position that names another option than the one read.

    The letter opening the response ("C, macular hole", "A (drusen)"), "Option 2" on a line
    whose text reads another option, or a bare number that is one option's position and
    another's value ("3" where B is "BI-RADS 3"): the response says two things.
    """
    if may_hold_lone_line(body) and _LONE_LINE.search(body) is not None and any(
            m.group(1) in ix.keys and m.group(1) not in chosen
            for m in _LONE_LINE.finditer(body)):
        return abstain("ambiguous", "structural.tail-letter")  # "… tear.\n\nReferences …\n\nC"
    head = _HEAD_LETTER.match(body)
    if head is not None and head.group(1) in ix.keys - {"I"} and head.group(1) not in chosen:
        clause = body[head.end():]
        clause = clause[:min((i for i in (clause.find(c) for c in ".!?\n") if i >= 0),
                             default=len(clause))]
        if chosen & scan(clause, ix, qtype, question, hedge=False, bk=bk).asserted:
            # "C, macular hole": the letter and the text beside it name two options
            return abstain("ambiguous", "structural.letter-text-conflict")
    lowered = body.lower()
    if not ("option" in lowered or "choice" in lowered or "\\boxed" in body
            or _WHOLE_NUMBER.match(body)):
        return None  # (none of the position's three forms can be there: the common case)
    keys = sorted(ix.keys)
    for m in _POSITION.finditer(body):
        n = int(m.group(1) or m.group(2) or m.group(3))
        if 1 <= n <= len(keys) and keys[n - 1] not in chosen:
            return abstain("ambiguous", "structural.position-conflict")
    return None


def may_hold_lone_line(body: str) -> bool:
    """False only where :data:`_LONE_LINE` cannot match: one line longer than its longest match.

    Without a line break the pattern's ``^`` and ``$`` are the text's ends, so it matches only
    a whole text of at most four characters between spaces and tabs.
    """
    return "\n" in body or len(body.strip(" \t")) <= _LONE_LINE_LEN


# (the longest line the pattern matches: a bracket, the letter, a bracket, a full stop)
_LONE_LINE_LEN: Final = 4


def _cut_on_a_prefix(body: str, chosen: str, ix: OptionSet) -> ParsedAnswer | None:
    """A response ending, unpunctuated, on the answer's text that opens another option's."""
    text = body.rstrip()
    if not text or text[-1] in _CLOSED or len(text.split()) < _CUT_WORDS or chosen in \
            lone_letters(text, ix):
        return None  # a terse "Type I", or "B) Type II" whose letter says which
    texts = dict(ix.items)
    own = texts.get(chosen, "").lower()
    if not own or not text.lower().endswith(own):
        return None
    if any(t.lower().startswith(own) and k != chosen for k, t in texts.items()):
        return abstain("not_committed", "structural.cut-off-prefix")
    return None


def _yes_and_no(body: str, ix: OptionSet) -> ParsedAnswer | None:
    """A yes and a no word among the first words of a yes/no answer ("Ja, nein — …")."""
    if not ix.yesno:
        return None
    # "Yes, no abnormality": a "no" before a word is its determiner, not the answer "no"
    head = " ".join(_NO_BEFORE_WORD.sub(" ", body[:120].lower()).split()[:4])
    # "non si osserva": an unaccented "si" before a verb is a pronoun (or "if"), not "sí"
    head = _SI_BEFORE_WORD.sub(" ", head)
    if len(_yes_no_said(head, ix)) == 2 and _LABELLED_VALUES.search(head) is None:
        return abstain("ambiguous", "structural.yes-no-both")
    return None


# Two labels with a yes or no word each ("pneumothorax: absent. effusion: present"): findings
# listed, which the asked finding's label answers (the scan reads them), not a yes and a no.
_LABELLED_VALUES: Final = re.compile(r":\s*\S+[^:]*:\s*\S")


def _closing_yes_no(body: str, chosen: str, ix: OptionSet) -> ParsedAnswer | None:
    """A bare yes or no closing the response after a clause that answered the other way.

    "The lesion is malignant melanoma, no", "Free fluid? no free fluid? yes".
    """
    if not ix.yesno:
        return None
    tail = _TAIL_YES_NO.search(body[-40:].lower())
    if tail is not None and _yes_no_said(tail.group(1), ix) - {chosen}:
        return abstain("ambiguous", "structural.yes-no-both")
    return None


def _two_answers(body: str, chosen: frozenset[str], ix: OptionSet, qtype: str, question: str,
                 bk: RuleBook) -> ParsedAnswer | None:
    """A short opening sentence naming another option than the answer read after it."""
    first = _FIRST_SENTENCE.match(body.lstrip())
    if first is None or len(first.group(1).split()) > 6 or len(first.group(0)) >= len(
            body.strip()):
        return None
    opening = bare_text(first.group(1))
    named = [k for k, t in ix.items if bare_text(t) == opening]
    if not named and ix.yesno and question and _LABEL_AFTER.match(body.lstrip(),
                                                                   first.end(1)) is None:
        # "No DME. Answer: A": a finding stated absent (or present) before a yes (or no); not
        # a label's name ("**Extraprostatic extension (EPE):** No" names, it states nothing)
        r = scan(first.group(1), ix, qtype, question, hedge=False, bk=bk)
        named = sorted(r.asserted - r.negated) if r.used_question and r.verdict is None else []
    if len(named) == 1 and named[0] not in chosen:
        return abstain("ambiguous", "structural.two-answers")
    return _closing_other(body, chosen, ix)


# The last sentence of a line of prose: after a sentence's end that is no letter's label
# ("D. Asymmetry" in a restated list is one line, not two sentences).
_CLOSING: Final = re.compile(r"(?m)^(?![ \t]*(?:[-*\u2022\[(]|[A-Z][.):]))[^\n]*?"
                             r"(?<![\s(\[][A-Z])[.!?][ \t]+([^.!?\n]{1,60}?)[.!]?[ \t]*\Z")


def _closing_other(body: str, chosen: frozenset[str], ix: OptionSet) -> ParsedAnswer | None:
    """A closing sentence that is another option's text alone, after the answer.

    "The answer is Grade II. Grade III.": the response ends on a second answer.
    """
    m = _CLOSING.search(body)
    if m is None:
        return None
    closing = bare_text(m.group(1))
    named = [k for k, t in ix.items if bare_text(t).rstrip(".") == closing]
    if len(named) == 1 and named[0] not in chosen:
        return abstain("ambiguous", "structural.two-answers")
    return None


def _image_side(body: str, ix: OptionSet, bk: RuleBook) -> ParsedAnswer | None:
    """A left or right answer given in the image's frame (``laterality.image-side``)."""
    sided = _SIDED.get(ix)
    if sided is None:
        sided = _SIDED.remember(ix, any(t.lower() in ("left", "right") for _, t in ix.items))
    if not sided:
        return None
    lowered = body.lower()
    if bk.search(Kind.IMAGE_SIDE, lowered, word_tokens(lowered)) is None:
        return None
    return abstain("ambiguous", "laterality.image-side")


# Per option set: whether an option is a side (left or right).
_SIDED: Final[BoundedMemo[OptionSet, bool]] = BoundedMemo(1 << 10)


def _reopened(full: str, chosen: frozenset[str], ix: OptionSet, qtype: str, question: str,
              bk: RuleBook) -> ParsedAnswer | None:
    """An answer followed by a reasoning block never closed that doubts it or names another.

    The open block is set aside as thinking ("B <think>let me double-check"), but what it says
    after the answer still reopens it: a hedge, a refusal, another option asserted, or a change
    of mind naming any option ("… Edit: on second look, A").
    """
    opened = list(_TRACE_TAG.finditer(full))
    if not opened or opened[-1].group(1) or opened[-1].group(2) or not full[
            :opened[-1].start()].strip():
        return None
    tail = full[opened[-1].end():]
    r = scan(tail, ix, qtype, question, bk=bk)
    if r.verdict in ("hedge", "refusal"):
        return abstain("not_committed", "structural.open-trace-after")
    others = (r.asserted | lone_letters(tail, ix)) - r.negated - chosen
    lowered = tail.lower()
    if (r.asserted - r.negated - chosen) or others and bk.any_of(
            _REVISION, lowered, word_tokens(lowered)):
        return abstain("not_committed", "structural.open-trace-after")
    return None


def _concluded_otherwise(full: str, chosen: frozenset[str], ix: OptionSet, qtype: str,
                         question: str, bk: RuleBook) -> ParsedAnswer | None:
    """A conclusion elsewhere, trace included, that asserts another option and not the answer.

    "Pleural effusion is the most likely diagnosis. … Final answer: D", a trace ending "so the
    answer is B" before "Answer: A", a score's arrow "4 points → TR4" before "Answer: E". A
    change of mind after the conclusion lets it go.
    """
    lowered = full.lower()
    words = word_tokens(lowered)
    arrows = [m.start() for m in _ARROWS.finditer(lowered)] if (
        "\u2192" in lowered or ">" in lowered) else []
    if not (arrows or bk.any_of(_CONCLUSION, lowered, words)) or not _names_another(
            full, lowered, chosen, ix):
        return None
    revised = [s for s, _, _ in bk.spans(Kind.REVISION, lowered, words)] \
        if bk.any_of(_REVISION, lowered, words) else []
    by_arrow: frozenset[str] = frozenset()
    closed = [m.start() for m in _TRACE_TAG.finditer(lowered) if m.group(1) or m.group(2)]
    for i, s in enumerate(arrows):
        if any(r > s for r in revised):
            continue
        # a score's arrows list a rule ("6-8 mm → 3; 8-15 mm → 4A"): the last one that names
        # an option is the conclusion drawn, and one inside an if-sentence is a case weighed
        sentence = lowered[max(lowered.rfind(c, 0, s) for c in ".!?\n") + 1:s]
        if bk.search(Kind.CONDITION, sentence, word_tokens(sentence)) is not None:
            continue
        end = min((i for i in (lowered.find(c, s + 1) for c in ".;\n") if i >= 0),
                  default=len(lowered))
        r = scan(full[s:end], ix, qtype, question, hedge=False, bk=bk)
        by_arrow = (r.asserted - r.negated) or by_arrow
        # the last arrow of a reasoning trace is its conclusion too ("→ TR5</think> → TR4")
        last_in_trace = any(s < c and (i + 1 == len(arrows) or arrows[i + 1] > c)
                            for c in closed)
        if last_in_trace and by_arrow and not by_arrow & chosen:
            return abstain("ambiguous", "conclusion.contradicts")
        if last_in_trace:
            by_arrow = frozenset()
    if by_arrow and not by_arrow & chosen:
        return abstain("ambiguous", "conclusion.contradicts")
    for s, _, _ in bk.spans(Kind.CONCLUSION, lowered, words):
        if any(r > s for r in revised) or _LIKEWISE.match(lowered, s):
            continue
        end = min((i for i in (lowered.find(c, s) for c in ".;\n") if i >= 0),
                  default=len(lowered))
        # the clause the phrase opens ("so the answer is B"); for a subject that the phrase
        # follows ("Glioblastoma is the most likely diagnosis"), the sentence from its start
        begin = s
        if _SUBJECT_BEFORE.search(lowered, max(0, s - 12), s):
            begin = max(lowered.rfind(c, 0, s) for c in ".;\n") + 1
        r = scan(full[begin:end], ix, qtype, question, hedge=False, bk=bk)
        said = r.asserted - r.negated
        if said and not said & chosen:
            return abstain("ambiguous", "conclusion.contradicts")
    return None


# An arrow that draws a conclusion ("4 points \u2192 TR4"), not an arrow of a tool call's log.
_ARROWS: Final = re.compile(r"\u2192|=>|(?<![-<])->")


def _names_another(text: str, lowered: str, chosen: frozenset[str], ix: OptionSet) -> bool:
    """Whether a text may name another option than ``chosen`` (its words, values or letter).

    A gate before clauses are read: False only where no other option can be asserted.
    """
    if ix.yesno or ix.values() is not None:
        return True  # yes/no words and values are read by their own rules
    if any(ks - chosen for _, _, ks in ix.phrases.find(text, lowered)):
        return True
    return bool(lone_letters(text, ix) - chosen) or bool(
        bag_letters(text, ix, chosen)) and bool(
        {k for _, _, ks in bag_mentions(text, ix, []) for k in ks} - chosen)


def bare_text(text: str) -> str:
    """``text`` without markup (``*_`#>:-``), lower-cased, its spaces made single.

    How an option's text and a fragment that may restate it are compared.
    """
    return " ".join(_MARKS.sub(" ", text).lower().split())


def _yes_no_said(lowered: str, ix: OptionSet) -> frozenset[str]:
    """On a yes/no item, the options whose words the sentence holds as whole words."""
    if not ix.yesno:
        return frozenset()
    said = {ix.yes if w in YES_WORDS else ix.no for w in _YES_NO.findall(lowered)}
    return frozenset(x for x in said if x is not None)


def lone_letters(sentence: str, ix: OptionSet) -> frozenset[str]:
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
    # a cue that opens a sentence or clause ("Wait, …", "… no. Actually …"), not a noun
    # inside one ("to follow in an addendum")
    spans = [sp for sp in bk.spans(Kind.REVISION, lowered, words)
             if not _NOUN_BEFORE.search(lowered, 0, sp[0])]
    if not spans:
        return None
    end = max(e for _, e, _ in spans)
    after = scan(body[end:], ix, qtype, question, bk=bk)
    said = after.asserted | (lone_letters(body[end:], ix) - after.negated)
    if said & chosen and not (after.asserted - chosen):
        return None
    return abstain("not_committed", "revision.left-open")
