"""From readings to a decision: one committed reading, or an abstention and why.

:func:`decide` turns one :class:`~._scan.Reading` into a :class:`~._base.ParsedAnswer`.
:func:`read_shape` reads a structure's answer leaves, which must all name the same answer.
The invariant the strict style keeps (``docs/answer-reading.md``): a response is credited only
when its located answer commits to one reading and nothing after or around it offers, keeps
open or reverses to another. :func:`from_segments` checks the located answer against the rest
of the response: the other answers it gives, what follows it (a hedge in any language, a change
of mind, another option in a letter position or stated as a conclusion, "or Y") and what
precedes it (a refusal, the chosen option negated and never asserted).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from medvqa.reading._base import ParsedAnswer, abstain, one_choice
from medvqa.reading._book import RuleBook, word_tokens
from medvqa.reading._dialogue import speaker_lines
from medvqa.reading._findings import question_terms, same_stem
from medvqa.reading._locate import Segment
from medvqa.reading._offers import bare_text, lone_letters
from medvqa.reading._options import OptionSet
from medvqa.reading._scan import NOTHING, Reading, scan
from medvqa.reading._shapes import Leaf, key_words
from medvqa.reading._strict_checks import (
    before_undoes,
    conditional_marker,
    negated_marker,
    revised_between,
    tail_undoes,
)
from medvqa.reading.rules import Kind

__all__ = ["decide", "from_segments", "read_shape"]

_BLANK = " \t\r\n*_#>.`"


def decide(reading: Reading, qtype: str) -> ParsedAnswer:
    """One asserted option (single) or a set (multi); otherwise why not."""
    if reading.verdict is not None:
        return abstain(reading.verdict, reading.rule)
    asserted, negated = reading.asserted, reading.negated
    if asserted & negated:
        return abstain("ambiguous", "structural.asserted-and-negated")
    if not asserted:
        return abstain("negated" if negated else "no_answer",
                       "structural.all-negated" if negated else None)
    if reading.alternatives:
        return abstain("ambiguous", "alternative.or")
    if qtype == "multi":
        return ParsedAnswer(sorted(asserted), False, None, reading.rule)
    if len(asserted) == 1:
        return one_choice(next(iter(asserted)), reading.rule)
    return abstain("ambiguous", "structural.two-options")


def _finding_of(leaf: Leaf, question: str) -> str | None:
    """A boolean (or yes/no) leaf keyed by the question's finding: ``yes``/``no``, else None."""
    if not question:
        return None

    value = leaf.value.strip().lower()
    truthy = {"true", "yes", "present", "positive", "1", "y"}
    falsy = {"false", "no", "absent", "negative", "0", "n", "none"}
    if value not in truthy | falsy:
        return None
    terms = question_terms(question)
    words = [w for k in leaf.path[-1:] for w in key_words(k)]
    if not any(same_stem(w, t) or w == t for w in words for t in terms):
        return None
    flip = any(w in ("absent", "no", "not", "without", "negative") for w in words)
    said = value in truthy
    return "yes" if said != flip else "no"


# A key that gives the answer as a count of options ("index", "answer_idx", "option_index"),
# not the index of a case or a sample.
_INDEX_WORDS: Final = frozenset({"index", "idx"})
_INDEX_KEY_WORDS: Final = _INDEX_WORDS | {"answer", "option", "choice", "pred", "prediction",
                                          "predicted", "selected", "final", "label"}
_WHOLE: Final = re.compile(r"\s*(\d{1,2})\s*")


def _by_index(leaves: list[Leaf], ix: OptionSet) -> ParsedAnswer | None:
    """The answer of a structure that gives it by index, or None where none does.

    An index counts from 0 or from 1, and the structure does not say which: 0 can only be the
    first option and the number of options only the last; any other is two readings.
    """
    for leaf in leaves:
        value = _WHOLE.fullmatch(leaf.value) if leaf.role != "negative" else None
        if value is None or not _is_index(leaf):
            continue
        at, letters = int(value.group(1)), [k for k, _ in ix.items]
        if at == 0:
            return one_choice(letters[0], INDEX_BASE)
        if at == len(letters):
            return one_choice(letters[-1], INDEX_BASE)
        return abstain("ambiguous" if at < len(letters) else "out_of_range", INDEX_BASE)
    return None


def _is_index(leaf: Leaf) -> bool:
    """Whether a leaf's key names an answer's index ("index", "answer_idx", not "case_index")."""
    words = set(key_words(leaf.path[-1]))
    return bool(words & _INDEX_WORDS) and words <= _INDEX_KEY_WORDS


#: The rule of an answer given by an index whose base is unknown.
INDEX_BASE: Final = "structural.index-base"


def read_shape(seg: Segment, ix: OptionSet, qtype: str, question: str,
               bk: RuleBook) -> tuple[ParsedAnswer, Reading] | None:
    """The answer of a structure: every answer leaf must name the same one (or None)."""
    leaves = seg.leaves or []
    chosen: list[ParsedAnswer] = []
    rejected: set[str] = set()
    readings: list[Reading] = []
    for leaf in leaves:
        head = key_words(leaf.path[-1])[:1]
        if leaf.role == "other" and head in (["confidence"], ["certainty"]):
            low = bk.search(Kind.LOW_CONFIDENCE, leaf.value.lower(),
                            word_tokens(leaf.value.lower()))
            if low is not None and leaf.value.lower().split()[:2][-1:] != ["high"]:
                return abstain("hedge", low[0]), NOTHING
        if head and head[0] in _SURE_KEYS and leaf.value.strip().lower() in _FALSE:
            # {"answer": true, "certain": false}: the structure says it is not sure
            return abstain("hedge", "hedge.low-confidence-field"), NOTHING
        if leaf.role == "negative":
            r = scan(leaf.value, ix, qtype, question, bare=True, bk=bk)
            # a list of letters ("excluded": ["A", "B"]) rejects each of them
            rejected |= r.asserted or lone_letters(leaf.value, ix)
    counted = _by_index(leaves, ix) if qtype != "multi" and not any(
        leaf.role == "answer" and not _is_index(leaf) for leaf in leaves) else None
    if counted is not None:
        return counted, NOTHING
    keyed, left_open = _option_keyed(leaves, ix, bk)
    answers = [leaf for leaf in leaves if leaf.role == "answer" and leaf.value
               and id(leaf) not in keyed]
    if any(leaf.role == "answer" and not leaf.value.strip() and not leaf.boolean
           for leaf in leaves):
        # {"answer": null, "diagnosis": "Intermediate AMD"}: the answer field says none
        return abstain("not_committed", "structural.shape-open"), NOTHING
    if left_open and not answers:
        # {"mass": true, "lymphadenopathy": "indeterminate"}: an option neither in nor out
        return abstain("not_committed", "structural.shape-open"), NOTHING
    if keyed and not answers:
        yes = frozenset(k for leaf_id, (k, said) in keyed.items() if said)
        if qtype == "multi":
            return (ParsedAnswer(sorted(yes), False, None, "structural.shape") if yes else
                    abstain("negated", "structural.shape")), NOTHING
        if len(yes) == 1:
            return one_choice(next(iter(yes)), "structural.shape"), NOTHING
        return abstain("ambiguous" if yes else "negated", "structural.shape"), NOTHING
    if not answers and ix.yesno:
        said = {f for leaf in leaves if (f := _finding_of(leaf, question)) is not None}
        if len(said) == 1:
            letter = ix.yes if said == {"yes"} else ix.no
            return (one_choice(letter, "structural.shape"), NOTHING) if letter else None
        if len(said) > 1:
            return abstain("ambiguous", "structural.answers-disagree"), NOTHING
        if _finding_open(leaves, question, bk):
            return abstain("not_committed", "structural.shape-open"), NOTHING
    if not answers:
        answers = [leaf for leaf in leaves if leaf.role == "unknown" and leaf.value
                   and not leaf.boolean]
        answers = [leaf for leaf in answers if _names_scale(leaf, ix, qtype, question, bk)]
        if not answers:
            return None
    findings = {f for leaf in leaves if ix.yesno and leaf.role != "answer"
                and (f := _finding_of(leaf, question)) is not None}
    for leaf in answers:
        text = leaf.value
        if leaf.boolean and ix.yesno:
            text = "yes" if leaf.value == "true" else "no"
        reading = scan(text, ix, qtype, question, bare=True, bk=bk)
        parsed = decide(reading, qtype)
        if parsed.invalid and parsed.reason in ("no_answer",):
            if leaf.role == "unknown":
                continue
            reading = scan(f"{leaf.path[-1]} {text}", ix, qtype, question, bare=True, bk=bk)
            parsed = decide(reading, qtype)
            if parsed.invalid and parsed.reason == "no_answer":
                continue
        if parsed.invalid:
            return parsed, reading
        chosen.append(parsed)
        readings.append(reading)
    if not chosen:
        return None
    if qtype == "multi" and len({leaf.path for leaf in answers}) == 1 and len(chosen) > 1:
        # one key repeated (<option>B</option><option>C</option>): the items of one list
        union = sorted({k for c in chosen for k in (c.choice if isinstance(c.choice, list)
                                                    else [c.choice or ""])})
        return ParsedAnswer(union, False, None, "structural.shape"), readings[0]
    first = chosen[0]
    if any(c.choice != first.choice for c in chosen[1:]):
        return abstain("ambiguous", "structural.answers-disagree"), NOTHING
    letters = set(first.choice if isinstance(first.choice, list) else [first.choice or ""])
    if _second_values(leaves, answers, ix, bk) - letters:
        return abstain("ambiguous", "structural.shape-second-value"), NOTHING
    if letters & rejected:
        return abstain("ambiguous", "structural.answers-disagree"), NOTHING
    if findings and ix.yesno:
        letter = ix.yes if findings == {"yes"} else ix.no if findings == {"no"} else None
        if letter is None or letter not in letters:
            return abstain("ambiguous", "structural.answers-disagree"), NOTHING
    if isinstance(first.choice, list):
        return ParsedAnswer(first.choice, False, None, "structural.shape"), readings[0]
    return one_choice(first.choice or "", "structural.shape"), readings[0]


# Keys by which a structure says whether it is sure of its answer ({"certain": false}).
_SURE_KEYS: Final = frozenset({"certain", "confident", "sure", "definite", "definitive"})
_TRUE = frozenset({"true", "yes", "present", "positive", "1", "y", "seen", "detected"})
_FALSE = frozenset({"false", "no", "absent", "negative", "0", "n", "none", "not seen"})


def _option_keyed(leaves: list[Leaf], ix: OptionSet,
                  bk: RuleBook) -> tuple[dict[int, tuple[str, bool]], frozenset[str]]:
    """Leaves keyed by one option's name with a yes/no value: ``{"pleural_effusion": true}``.

    Also the options keyed with a value that leaves them open (``null``, "indeterminate").
    """
    if ix.yesno:
        return {}, frozenset()
    out: dict[int, tuple[str, bool]] = {}
    open_: set[str] = set()
    for leaf in leaves:
        value = leaf.value.strip().lower()
        decided = value in _TRUE | _FALSE
        if not decided and not _undecided(value, bk):
            continue
        key = leaf.path[-1].strip()
        name = " ".join(key_words(key))
        named = {key} if key in ix.keys else {  # {"A": true, "B": false}: keyed by letter
            k for s, e, ks in ix.phrases.find(name, name) if e - s >= len(name) - 1 for k in ks}
        if len(named) == 1:
            if decided:
                out[id(leaf)] = (next(iter(named)), value in _TRUE)
            else:
                open_ |= named
    return out, frozenset(open_)


def _undecided(value: str, bk: RuleBook) -> bool:
    """A value that states no answer: empty (``null``), or a hedge or refusal ("unclear")."""
    if not value:
        return True
    words = word_tokens(value)
    return bk.search(Kind.HEDGE, value, words) is not None or bk.search(
        Kind.REFUSAL, value, words) is not None


def _second_values(leaves: list[Leaf], answers: list[Leaf], ix: OptionSet,
                   bk: RuleBook) -> frozenset[str]:
    """Options that a leaf besides the answer's holds as its whole value.

    ``{"answer": "LA grade B", "alternative": "LA grade C"}``, ``{"dr_grade": "moderate NPDR",
    "answer": "D"}``: a structure that states a second option beside its answer.
    """
    taken = {id(leaf) for leaf in answers}
    # the content words of a second reading ("alternative", "second"), not "answer" or "is"
    offering = ({w for w in bk.words[Kind.SECOND_READING] if len(w) >= 5} - bk.words[
        Kind.ANSWER_KEY] - bk.words[Kind.ANSWER_MARKER]) | bk.words[Kind.SECOND_KEY]
    texts = {bare_text(t): k for k, t in ix.items}
    out = set()
    for leaf in leaves:
        if id(leaf) in taken or leaf.role == "negative" or leaf.boolean:
            continue
        words = set(key_words(leaf.path[-1]))
        if leaf.role != "unknown" and (not words & offering or words & bk.words[Kind.OTHER_KEY]):
            continue  # an explanation's value names what it explains ("alternatives considered")
        values = [v.strip() for v in leaf.value.split(",")] if leaf.role == "other" else [
            leaf.value.strip()]
        for value in values:
            k = value if value in ix.keys and leaf.role == "other" else texts.get(
                bare_text(value))
            if k is not None:
                out.add(k)
    return frozenset(out)


def _finding_open(leaves: list[Leaf], question: str, bk: RuleBook) -> bool:
    """A leaf keyed by the question's finding whose value says neither yes nor no.

    ``{"pneumothorax": null}``, ``{"metastasis": "isolated tumor cells"}``: the structure
    answers the finding's question with something else than a yes or a no.
    """
    if not question:
        return False

    terms = question_terms(question)
    for leaf in leaves:
        if leaf.role == "negative" or _finding_of(leaf, question) is not None:
            continue
        words = [w for k in leaf.path[-1:] for w in key_words(k)]
        if any(same_stem(w, t) or w == t for w in words for t in terms):
            return True
    return False


def _names_scale(leaf: Leaf, ix: OptionSet, qtype: str, question: str, bk: RuleBook) -> bool:
    """Whether a leaf of unknown role is keyed by the options' own words ("stage": "3")."""
    words = set(key_words(leaf.path[-1]))
    option_words = {w for ws in ix.words.values() for w in ws}
    return bool(words & option_words)


# A final answer's own marker word (the marker rule's words that say "this is the answer").
_ANSWER_WORD: Final = re.compile(r"\b(?:answer|final)\b")
# What says something: a word of three letters or more, or a number.
_WORD: Final = re.compile(r"[^\W\d_]{3,}|\d")
# Content that points back at an answer given before it ("as above", "see below").
_POINTER: Final = re.compile(r"(?i)\b(?:above|below|same|previous|earlier|aforementioned)\b")


def _says_other(body: str, seg: Segment) -> bool:
    """Whether a final answer's marker is followed by words that are no pointer back.

    Only a marker that says it is the answer ("Answer:", "Final answer:"): a finding's label
    ("Drusen is present: yellow deposits") or a diagnosis heading may be followed by a
    description.
    """
    if seg.kind != "marker":
        return False
    content = seg.text[len("Answer: "):] if seg.text.startswith("Answer: ") else seg.text
    at = body.find(content, seg.start)
    marker = body[seg.start:at if at >= 0 else seg.start].lower()
    return _ANSWER_WORD.search(marker) is not None and _WORD.search(content) is not None \
        and _POINTER.search(content) is None


def _dialogue_start(body: str, seg: Segment, bk: RuleBook) -> int:
    """Where the text that may undo a final answer begins: after the dialogue before it.

    0 where the response is no dialogue (``structural.dialogue``) or the answer is a
    speaker's; else the end of the last speaker's line, which the answer follows.
    """
    settled = 0
    for _, end, _ in speaker_lines(body, bk):
        if end > seg.start:
            return 0  # a speaker's answer, or one talking after it: one voice among others
        settled = end
    return settled


def from_segments(body: str, segments: list[Segment], qtype: str, ix: OptionSet, question: str,
                  bk: RuleBook, read_segment: Callable[[Segment], tuple[ParsedAnswer, Reading]]
                  ) -> tuple[ParsedAnswer, bool] | None:
    """The last segment that reads, checked against the rest (the module docstring).

    ``read_segment(seg)`` reads one segment into (parsed, reading). None when no segment
    names an option (the whole response is read then).
    """
    decided: list[tuple[Segment, ParsedAnswer, Reading]] = []
    names_none = False
    for seg in segments:
        parsed, reading = read_segment(seg)
        names_none = False
        if not parsed.invalid and seg.kind == "marker" and negated_marker(body, seg.start, bk):
            continue  # "not Answer: A", "I would not say the answer is A"
        if seg.kind == "marker" and conditional_marker(body, seg.start, bk):
            continue  # "If it is seen on one view only, the answer is A": a condition
        if parsed.invalid and parsed.reason in ("negated", "no_answer"):
            # (or it only discusses options: "Impression: pneumonia versus atelectasis")
            names_none = parsed.reason == "no_answer" and (
                _says_other(body, seg) or bool(reading.named) and seg.kind == "marker")
            continue
        decided.append((seg, parsed, reading))
    if names_none:
        # "Final answer: it depends on a prior study": the last answer given names no option;
        # an option named before it is not the answer
        return abstain("not_committed", "structural.final-names-none"), False
    if not decided:
        return None
    seg, parsed, reading = decided[-1]
    if parsed.invalid:
        return parsed, reading.used_question
    # a dialogue: the speakers' answers before the last speaker's line are its discussion
    settled = _dialogue_start(body, seg, bk) if ":" in body else 0
    for earlier, other, _ in decided[:-1]:
        if earlier.start < settled:
            continue
        if other.invalid or other.choice == parsed.choice:
            continue
        if revised_between(body, earlier, seg, bk):
            # an answer changed after it was given: which one stands is the reader's guess
            return abstain("not_committed", "revision.change-of-mind"), reading.used_question
        return abstain("ambiguous", "structural.answers-disagree"), reading.used_question
    chosen = frozenset(parsed.choice if isinstance(parsed.choice, list) else [parsed.choice or ""])
    tail = body[seg.end:]
    if tail.strip(_BLANK):
        undone = tail_undoes(tail, chosen, ix, qtype, question, bk)
        if undone is not None:
            return undone, reading.used_question
    before = body[settled:seg.start]
    if before.strip(_BLANK):
        undone = before_undoes(before, chosen, ix, qtype, question, bk)
        if undone is not None:
            return undone, reading.used_question
    return parsed, reading.used_question
