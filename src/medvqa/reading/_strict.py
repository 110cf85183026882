r"""``strict``: the default reader. It reads as a careful clinician-grader reads; it never guesses.

A response is read in this order (every rule is a row of the rule table,
:data:`medvqa.reading.RULES`, with its id, words, documentation and examples; the full list is
in ``docs/answer-reading.md``):

1. Not text, or no options → invalid (``not_text``); longer than any answer → ``too_long``.
2. The text is normalised (:mod:`._text`) and reasoning is set aside (:mod:`._locate`): a
   tentative answer inside a trace is never read; a response that is only a trace has not
   committed.
3. The final answer is located: structured output read by its shape (:mod:`._shapes`: every
   answer field must name the same option), answer markers in many languages, ``\boxed{}``,
   marked tables and check-lists. Where several answers are located and they differ, the last
   stands only after a change of mind; else the response is ambiguous.
4. The located answer (or, where none is, the whole response) is read (:mod:`._scan`): option
   texts in every form, values, letters in letter positions, yes/no words and findings, each
   asserted, negated or discussed by its clause; refusals and hedges decide.
5. Around the located answer, nothing may offer, keep open or reverse to another reading
   (:mod:`._strict_checks`).
6. Exactly one asserted reading (a set, for multiple choice) is the answer; else the response
   is invalid with its reason (:data:`~._base.REASONS`) and the rule that decided.

>>> p = StrictParser()
>>> p.parse("**B**", {"A": "Left", "B": "Right"}, "single").choice
'B'
>>> p.parse("Left is ruled out.", {"A": "Left", "B": "Right"}, "single").reason
'negated'
>>> p.parse("<think>the answer is A</think> B", {"A": "Left", "B": "Right"}, "single").choice
'B'
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._asked_back import ASKED_BACK, asked_back
from medvqa.reading._attributed import ATTRIBUTED, attributed_only
from medvqa.reading._base import ParsedAnswer, abstain, one_choice
from medvqa.reading._book import RuleBook, book, word_tokens
from medvqa.reading._code_answer import CODE, code_answer, without_code
from medvqa.reading._conditioned import CONDITIONED, conditioned_answer
from medvqa.reading._decide import decide, from_segments, read_shape
from medvqa.reading._despaced import despaced_letter
from medvqa.reading._held_back import held_back
from medvqa.reading._locate import Segment, final_segments, set_aside_reasoning
from medvqa.reading._marks import NONE_MARKED, forget_kinds
from medvqa.reading._offers import (
    letter_text_conflict,
    lone_letters,
    offered_beside,
    set_left_open,
    set_offered_beside,
)
from medvqa.reading._options import OptionSet, forget_option_sets, option_set, options_of
from medvqa.reading._options_listed import OPTIONS_LISTED, lists_every_option
from medvqa.reading._own_turn import invented_replies, own_turn, reasked_answers
from medvqa.reading._positions import position_letter, position_letters, strip_special_tokens
from medvqa.reading._quick import quick_read
from medvqa.reading._relabelled import RELABELLED, relabelled_answer
from medvqa.reading._scan import LEAD, Reading, restated, scan, without_yes_no_format
from medvqa.reading._scores import (
    SCORES,
    SCORES_TOP,
    letter_scores_blanked,
    option_scores,
    top_scored,
)
from medvqa.reading._status_rows import as_status_rows
from medvqa.reading._strict_checks import LONE_CAPITAL, without_role_disclaimers
from medvqa.reading._text import blanked, normalize
from medvqa.reading._typos import typo_letter
from medvqa.reading.rules import Kind

__all__ = ["MAX_RESPONSE_CHARS", "StrictParser", "clear_memo"]

#: Longer responses are runaway generations, not answers (``too_long``): reading them would
#: cost more than any answer is worth.
MAX_RESPONSE_CHARS: Final = 100_000
_MEMO: Final[dict[tuple[object, ...], tuple[ParsedAnswer, bool]]] = {}
_MEMO_SIZE: Final = 1 << 15
_MEMO_LEN: Final = 96
# Readings of located answers, which repeat where responses do not ("Answer: B" ends many).
_SEGMENTS: Final[dict[tuple[object, ...], tuple[ParsedAnswer, Reading]]] = {}
_SEGMENT_LEN: Final = 160
_BLANK: Final = " \t\r\n*_#>.`"
_NOT_TEXT: Final = abstain("not_text", "structural.not-text")
_LETTERS: Final = "structural.letters"
_OPTION_TEXT: Final = "structural.option-text"


def clear_memo() -> None:
    """Forget remembered results and option sets (benchmarks start cold with it)."""
    _MEMO.clear()
    _SEGMENTS.clear()
    forget_option_sets()
    forget_kinds()


class StrictParser:
    """The honest default: never guesses, reports abstentions as invalid with a reason.

    Args:
        rules: the rule book to read with (the shipped table by default; the table's tests
            pass one without a phrase).
        quick: take the fast path for plain sentences (:mod:`._quick`); the tests compare
            the decisions with and without it.
    """

    style = "strict"
    compares_text = False

    def __init__(self, rules: RuleBook | None = None, *, quick: bool = True):
        self._book = rules
        self._quick = quick

    def parse(self, response: object, options: dict[str, str], question_type: str, *,
              question: str = "") -> ParsedAnswer:
        """Parse one response; see the module docstring for the rules."""
        if not isinstance(response, str) or not options:
            return _NOT_TEXT
        fast = response.strip()
        if fast in options:
            return ParsedAnswer([fast], False, None, _LETTERS) if question_type == "multi" \
                else one_choice(fast, _LETTERS)
        if len(response) > MAX_RESPONSE_CHARS:
            return abstain("too_long", "structural.too-long")
        bk = self._book
        if bk is not None or not self._quick or len(fast) > _MEMO_LEN:
            return read_response(fast, question_type, options_of(options, bk), question,
                                 bk or book(), self._quick)[0]
        # the options' items stand for their option set in the key: a repeated answer is
        # found without building it; the question joins the key (it may name a finding or a
        # scale the reading depends on)
        key = (fast, question_type, tuple(options.items()), question)
        got = _MEMO.get(key)
        if got is None:
            got = read_response(fast, question_type, option_set(key[2]), question, book())
            if len(_MEMO) < _MEMO_SIZE:
                _MEMO[key] = got
        return got[0]


def read_response(text: str, qtype: str, ix: OptionSet, question: str,
                  bk: RuleBook, quick: bool = True) -> tuple[ParsedAnswer, bool]:
    """The parsed answer of a response and whether it depended on the question."""
    normal = normalize(text)
    own = own_turn(normal, question)
    full = strip_special_tokens(own)
    got, used, body, plain = _read(full, qtype, ix, question, bk, quick)
    if got.invalid and got.reason in _RELABEL_REASONS and ("\n" in full or "[" in full
                                                          or "(" in full):
        relabelled = _relabelled_reading(body, qtype, ix, question, bk, quick)
        if relabelled is not None:
            return relabelled, used
    if "```" in full and (got.reason in ("no_answer", "not_committed", "empty")
                          or got.rule == _OPTION_TEXT):
        # (an option's words in the program's comments are its reasoning, not its output)
        coded = _code_reading(full, qtype, ix, question, bk, quick)
        if coded is not None:
            return coded, used
    if qtype != "multi" and (got.rule in _SCORE_TABLE_RULES and got.reason in (
            "no_answer", "ambiguous") or not got.invalid and got.rule == _LETTER_POSITION):
        table = _score_table(body, ix, qtype, question, bk)
        if table is not None:
            got = table
    if qtype == "multi" and not got.invalid and _every_option_scored(body, ix):
        # every option scored: the set is what the words beside the scores choose ("Selecting
        # those above 0.5: A, D"); with none, which scores make the set is not said
        rest = _read(letter_scores_blanked(body), qtype, ix, question, bk, quick)[0]
        return (abstain("ambiguous", SCORES) if rest.reason in ("no_answer", "empty")
                else rest), used
    if own is not normal and got.reason in ("no_answer", "empty"):
        # what the model answered was all in the examples it went on to invent, or the user's
        return abstain("not_committed", "structural.continuation"), used
    if own is not normal and got.choice is not None and any(
            _read(strip_special_tokens(again), qtype, ix, question, bk, quick)[0].choice
            != got.choice for again in reasked_answers(normal, question)):
        # the examples it went on to invent ask its own question again and answer otherwise
        return abstain("ambiguous", "structural.continuation"), used
    if own is not normal and got.choice is not None and any(
            (reply := _read(strip_special_tokens(again), qtype, ix, question, bk, quick)[0]
             ).choice is not None and reply.choice != got.choice
            for again in invented_replies(normal)):
        # it went on to write the user's challenge and its own other answer to it
        return abstain("ambiguous", "structural.continuation"), used
    if got.choice is not None and attributed_only(body):
        return abstain("not_committed", ATTRIBUTED), used
    if isinstance(got.choice, str) and qtype != "multi":
        undone = offered_beside(full, body, got.choice, ix, qtype, question, bk,
                                one_named=plain)
        if undone is not None:
            return undone, used
        if conditioned_answer(body, got.choice, ix, bk):
            return abstain("not_committed", CONDITIONED), used
        if asked_back(body, got.choice, ix):
            return abstain("hedge", ASKED_BACK), used
    elif isinstance(got.choice, list):
        if letter_text_conflict(body, ix, qtype, question, bk):
            return abstain("ambiguous", "structural.letter-text-conflict"), used
        undone = set_offered_beside(body, ix, qtype, question, bk)
        if undone is not None:
            return undone, used
        if held_back(body, ix):
            return abstain("not_committed", "structural.bracketed-letter"), used
        if "?" in body and any(asked_back(body, k, ix) for k in lone_letters(body, ix)):
            return abstain("hedge", ASKED_BACK), used
        undone = set_left_open(body, frozenset(got.choice), ix, qtype, question, bk) \
            if got.rule != "structural.shape" else None
        if undone is not None:
            return undone, used
    return got, used


_RELABEL_REASONS: Final = frozenset({"no_answer", "ambiguous", "not_committed", "out_of_range"})


def _relabelled_reading(body: str, qtype: str, ix: OptionSet, question: str, bk: RuleBook,
                        quick: bool) -> ParsedAnswer | None:
    """The answer a response gives by a numbering of its own (:mod:`._relabelled`), or None."""
    def name_of(text: str) -> str | None:
        got = _read(text, "single", ix, question, bk, quick)[0]
        if isinstance(got.choice, str):
            return got.choice
        # a short form of one option's text ("subdural" for "Subdural hematoma")
        words = re.findall(r"[^\W_]+", text.lower())
        holding = [k for k, t in ix.items if words and all(
            re.search(rf"(?<!\w){re.escape(w)}(?!\w)", t.lower()) for w in words)]
        return holding[0] if len(holding) == 1 else None

    letters = relabelled_answer(body, ix.keys, name_of)
    if letters is None or qtype != "multi" and len(letters) != 1:
        return None
    return ParsedAnswer(letters if qtype == "multi" else letters[0], False, None, RELABELLED)


def _code_reading(full: str, qtype: str, ix: OptionSet, question: str, bk: RuleBook,
                  quick: bool) -> ParsedAnswer | None:
    """The answer a response gives only as code (:mod:`._code_answer`), or None."""
    coded = code_answer(full)
    if coded is None:
        return None
    prose = _read(without_code(full), qtype, ix, question, bk, quick)[0]
    if prose.reason not in ("no_answer", "empty"):
        return None  # the prose speaks of the options: it, not the program, answers
    got = _read("Answer: " + coded, qtype, ix, question, bk, quick)[0]
    return None if got.invalid else got._replace(rule=CODE)


def _every_option_scored(body: str, ix: OptionSet) -> bool:
    """Whether ``body`` gives every option a score (its separator first: a cheap test)."""
    return (":" in body or "=" in body or "\u2014" in body) and len(
        option_scores(body, ix)) == len(ix.keys)


def _scores_alone(body: str, ix: OptionSet, qtype: str, question: str, bk: RuleBook) -> bool:
    """Whether ``body`` is a table of scores alone, every option scored and nothing else said."""
    return _every_option_scored(body, ix) and decide(scan(
        letter_scores_blanked(body), ix, qtype, question, bk=bk), qtype).reason in (
            "no_answer", "empty")


def _score_table(body: str, ix: OptionSet, qtype: str, question: str,
                 bk: RuleBook) -> ParsedAnswer | None:
    """The reading of a response that is a table of scores alone, every option scored.

    Its clear top (:func:`~._scores.top_scored`), else ambiguous; None where the response is
    no such table (an option unscored, or words that answer beside the scores).
    """
    if not _scores_alone(body, ix, qtype, question, bk):
        return None
    top = top_scored(body, ix)
    return one_choice(top, SCORES_TOP) if top is not None else abstain("ambiguous", SCORES)


def _read(text: str, qtype: str, ix: OptionSet, question: str, bk: RuleBook,
          quick: bool = True) -> tuple[ParsedAnswer, bool, str, bool]:
    """The parsed answer of a normalized response and how it was read.

    Also whether it depended on the question, the body it read, and whether the quick reading
    read it (a plain sentence naming one option).
    """
    reasoned = set_aside_reasoning(text)
    body = without_echo(reasoned.text, question) if question else reasoned.text
    if '"' in body or "'" in body:
        body = without_quoted_answers(body, bk)
    if ix.yesno:
        body = without_yes_no_format(body)
    elif ("\n" in body or ". " in body or ":" in body) and len(body) < 600:
        body = as_status_rows(body) or body
    if lists_every_option(body, ix):
        return abstain("no_answer", OPTIONS_LISTED), False, body, False
    if reasoned.trace and not body.strip(_BLANK):
        return abstain("not_committed", "structural.trace-only"), False, body, False
    if ends_on_turn(body, bk):
        return abstain("not_committed", "structural.cut-off"), False, body, False
    stopped = before_stop_note(body)
    if stopped is not None:
        if not final_segments(stopped, bk):
            return abstain("not_committed", "structural.cut-off"), False, body, False
        body = stopped
    if _walk_cut(body, bk):
        return abstain("not_committed", "structural.cut-off"), False, body, False
    if cut_off(body) and not _subject_named(body, ix):
        kept = committed_before_cut(body, ix, bk)
        if kept is None:
            return abstain("not_committed", "structural.cut-off"), False, body, False
        salvaged = _read(kept, qtype, ix, question, bk, quick)
        if salvaged[0].choice is None:
            return abstain("not_committed", "structural.cut-off"), False, body, False
        return salvaged[0], salvaged[1], kept, False
    if quick and not reasoned.trace and qtype in ("single", "grade"):
        plain = quick_read(body.strip(), ix, bk, question)
        if plain is not None:
            return plain, False, body, True
    lowered = body.lower()
    tokens = word_tokens(lowered)
    lead = bk.search(Kind.HEDGE_LEAD, lowered, tokens)
    if lead is not None and lowered.lstrip().startswith(lead[1]):
        body = body.lstrip()[len(lead[1]):]
    segments = final_segments(body, bk)
    if segments and not _reads_as_whole(body, segments):

        def read_segment(seg: Segment) -> tuple[ParsedAnswer, Reading]:
            if seg.kind == "shape":
                got = read_shape(seg, ix, qtype, question, bk)
                if got is None:
                    return abstain("no_answer"), Reading(frozenset(), frozenset(), frozenset(),
                                                         None)
                return got
            key = (seg.text, qtype, ix, question if ix.yesno else "", bk)
            got_seg = _SEGMENTS.get(key)
            if got_seg is None:
                reading = scan(seg.text, ix, qtype, question, bare=True, bk=bk)
                got_seg = decide(reading, qtype), reading
                if len(_SEGMENTS) < _MEMO_SIZE and len(seg.text) <= _SEGMENT_LEN:
                    _SEGMENTS[key] = got_seg
            return got_seg

        rejected = [span for seg in segments for span in seg.rejected]
        # a marked list's negative rows are read by their marks: the checks set them aside
        # (an empty box's label is no option offered beside the answer)
        checked = blanked(body, rejected) if rejected else body
        got = from_segments(checked, segments, qtype, ix, question, bk, read_segment)
        if got is not None:
            return got[0], got[1], checked, False
        if any(seg.kind == "marks" and seg.text == _NONE_MARKED for seg in segments):
            # a marked list with every row negative: nothing chosen, its words are no answer
            return abstain("negated", "structural.all-negated"), False, checked, False
    reading = scan(body, ix, qtype, question, bare=len(body) <= 40, bk=bk)
    if reading.verdict == "refusal":
        declined = without_role_disclaimers(body, bk)  # "As an AI, I can't advise. … B."
        if declined is not None:
            answered = scan(declined, ix, qtype, question, bk=bk)
            if answered.lettered and answered.lettered == answered.asserted and not decide(
                    answered, qtype).invalid:
                reading = answered  # an answer by its letter: the disclaimer declined no more
    span = restated(body, ix) if reading.verdict is None else None
    if span is not None:
        rest = scan(body[:span[0]] + "\n" + body[span[1]:], ix, qtype, question, bk=bk)
        if rest.asserted:
            reading = rest
    parsed = decide(reading, qtype)
    if parsed.reason in ("no_answer", "out_of_range") and qtype == "multi":
        placed = position_letters(body, ix)
        if placed is not None and not reading.negated:
            return ParsedAnswer(placed, False, None, "structural.option-position"), False, \
                body, False
    if parsed.reason in ("no_answer", "out_of_range") and qtype != "multi":
        by_place = position_letter(body, ix)
        if by_place is not None and not reading.negated:
            return one_choice(by_place, "structural.option-position"), False, body, False
        slipped = typo_letter(body, ix) if parsed.reason == "no_answer" else None
        if slipped is not None and not reading.negated:
            return one_choice(slipped, "structural.option-slip"), False, body, False
        despaced = despaced_letter(body, ix, bk)
        if despaced is not None and not reading.negated:
            return one_choice(despaced, "structural.option-despaced"), False, body, False
    if parsed.reason == "no_answer":
        low = body.lower()
        words = word_tokens(low)
        plan = bk.search(Kind.PLAN, low, words)
        if plan is not None:
            return abstain("not_committed", plan[0]), reading.used_question, body, False
        deferral = bk.search(Kind.DEFERRAL, low, words)
        if deferral is not None:
            return abstain("not_committed", deferral[0]), reading.used_question, body, False
    return parsed, reading.used_question, body, False


_NONE_MARKED: Final = "Answer: " + NONE_MARKED
# What the reader makes of a table of scores alone: no answer, or its letters' lines as two.
_SCORE_TABLE_RULES: Final = (None, "structural.two-options", "structural.tail-letter")
_LETTER_POSITION: Final = "structural.letter-position"  # ("A: 0.45, B: 0.40 …" read as A)
# (lower case only: "Answer: A" ends with a letter, not the article)
# (nor on a call or an assignment left open: "submit_answer(answer=")
_OPEN_MARKS: Final = ",:=(\u2013\u2014-"
# (a sentence never ends on a connective, an article or a copula: "The ACL is", "… with")
_COPULAS: Final = frozenset({"is", "are", "was", "were"})
_OPEN_WORDS: Final = frozenset({"and", "or", "with", "of", "the", "a", "an"}) | _COPULAS
# An empty list item ending a list: "1. Mass⏎2. Cyst⏎3." ("3." alone is an answer).
_EMPTY_ITEM: Final = re.compile(r"\n[ \t]*(?:[-*\u2022]|\d+[.)])[ \t]*\S.*"
                               r"\n[ \t]*(?:[-*\u2022]|\d+[.)])[ \t]*$")


_ECHO_END: Final = re.compile(r"[ \t]*\?[ \t]*(?:[-\u2013\u2014:>]+[ \t]*)?")


def without_echo(body: str, question: str) -> str:
    """The response without the question it repeats ("Is there a pneumothorax? — No").

    A question echoed is asked, not answered: its words are no finding. An echo that opens the
    response is cut; one further on, closed by its question mark, is blanked.
    """
    asked = question.strip().rstrip("?").strip()
    if len(asked) < 12:
        return body
    head = body.lstrip(" \t*_#>")
    if head[:len(asked)].lower() == asked.lower():
        end = _ECHO_END.match(head, len(asked))
        if end is not None and end.end() > len(asked):
            body = head[end.end():]  # (not closed by its question mark: a statement)
    if asked.lower() not in body.lower():
        return body
    # quoted further on ('The answer to "Is there bleeding?" depends …'): asked there too
    quoted = re.compile(re.escape(asked) + r"[ \t]*\?", re.IGNORECASE)
    return quoted.sub(lambda m: " " * len(m.group()), body)


# A quotation on one line: double quotes, or single ones not inside a word ("it's").
_QUOTATION: Final = re.compile(r"\"[^\"\n]{1,120}\"|(?<![\w])'[^'\n]{1,120}'(?![\w])")


def without_quoted_answers(body: str, bk: RuleBook) -> str:
    """The response with every quotation that gives an answer blanked.

    An answer in quotation marks is someone else's (a colleague's, a textbook's): not the
    response's own (``structural.quoted-answer``). A structure's quoted values ('"answer": "B"')
    are no quotation of an answer: a quotation holding no answer marker stays.
    """
    out, last = [], 0
    depth, counted = 0, 0  # brackets open before the quotation, counted as the scan goes
    for m in _QUOTATION.finditer(body):
        part = body[counted:m.start()]
        depth += part.count("{") + part.count("[") - part.count("}") - part.count("]")
        counted = m.start()
        if depth > 0:
            continue  # a value inside a structure ('{"explanation": "the answer is …"}')
        inner = m.group()[1:-1]
        if len(inner.split()) < 3 or not any(seg.kind == "marker" for seg in final_segments(
                inner, bk)):
            continue
        out.append(body[last:m.start()] + " " * len(m.group()))
        last = m.end()
    return "".join(out) + body[last:] if out else body


def cut_off(body: str) -> bool:
    """Whether a response stops mid-answer.

    So where it ends in an unclosed structure, a trailing comma, dash or connective, or an empty
    list item (``{"present": ["a", ``, ``3. Choroid –``, ``- ``).
    """
    text = body.rstrip()
    if not text:
        return False
    if (text.count("{") > text.count("}") or text.count("[") > text.count("]")) and (
            "{" in text[-200:] or "[" in text[-200:] or text[-1] in ',:"'):
        return True
    if "\n" in text and _EMPTY_ITEM.search("\n" + text[-300:]) is not None:
        return True
    return _ends_open(text) and not text.endswith(("...", "etc."))


_LONGEST_OPEN: Final = max(map(len, _OPEN_WORDS))

#: The kinds of word that turn a sentence ("but", "although", "unless", "or"): a response that
#: stops on one was cut before the turn it announced.
TURN_KINDS: Final = (Kind.CLAUSE_END, Kind.CONCESSION, Kind.CONTRAST, Kind.ALTERNATIVE,
                     Kind.CONDITION)
_TURN_REACH: Final = 40
_TRAILING_OPEN: Final = " \t\n,;:\u2013\u2014-\u2026"


# A note that the generation was stopped, closing the response: "[truncated]", "[generation
# stopped: max_tokens]", "(output cut off)", "finish_reason: length".
_STOP_NOTE: Final = re.compile(
    r"(?:^|\n)[ \t]*[\[(<{*_]*[ \t]*(?:(?:generation|output|response|text)[ \t]+)?(?:stopped|"
    r"truncated|cut[ \t]+off)\b[^\n]{0,60}$|(?:^|\n)[ \t]*[\[(<{*_]*[ \t]*(?:max[_ ]tokens?|"
    r"finish_reason[\"']?[ \t]*[:=][ \t]*[\"']?length|stop_reason[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"max_tokens)\b[^\n]{0,60}$|[\[(](?:truncated|cut off)[\])][ \t.]*$", re.IGNORECASE)


# (the note's words, a test before the pattern; how far from the end a note may begin)
_STOP_WORDS: Final = ("trunc", "stop", "cut off", "length", "max_token", "max token")
_STOP_REACH: Final = 80


def before_stop_note(body: str) -> str | None:
    """The response before a note closing it that says its generation was stopped, or None."""
    text = body.rstrip()
    tail = text[-_STOP_REACH:].lower()
    for word in _STOP_WORDS:  # (a loop, not a generator: most tails hold none)
        if word in tail:
            break
    else:
        return None
    note = _STOP_NOTE.search(text, max(0, len(text) - _STOP_REACH))
    return text[:note.start()] if note is not None else None


def ends_on_turn(body: str, bk: RuleBook) -> bool:
    """Whether a response stops on a word that turns its sentence ("B, but", "B, however").

    What the turn would have said (another option, a doubt) is lost, so nothing before it is
    committed. A turn word closed by a full stop ("Pneumothorax, though.") is no cut.
    """
    text = body.rstrip(_TRAILING_OPEN)
    if not text or not (text[-1].isalpha() or ord(text[-1]) > 0x2e7f):
        return False
    tail = text[-_TURN_REACH:].lower()
    tokens = word_tokens(tail)
    return any(e == len(tail) for kind in TURN_KINDS for _, e, _ in bk.spans(kind, tail, tokens))


# A walk through the options announced: "Let's analyze each option:", "Going through the choices".
_WALK: Final = re.compile(
    r"\b(?:each|every|all|the)[ \t]+(?:of[ \t]+the[ \t]+)?(?:options?|choices?|answers?)[ \t]*"
    r"(?:one[ \t]+by[ \t]+one|in[ \t]+turn)?[ \t]*[:.]|\bgo(?:ing)?[ \t]+through[ \t]+"
    r"(?:each|the|all)", re.IGNORECASE)
_WALK_ITEM: Final = re.compile(r"[ \t]*(?:[-*\u2022][ \t]*)?(?:\*\*)?(?:(?:option|choice)[ \t]+)?"
                               r"[(\[]?[A-Z][.):\]]", re.IGNORECASE)
_CONCLUDES: Final = re.compile(r"\b(?:so|therefore|thus|hence|answer)\b", re.IGNORECASE)
_CLOSED: Final = ".!?)]*`\"'\u3002"


def _walk_cut(body: str, bk: RuleBook) -> bool:
    """Whether a walk through the options was announced and the text stops mid-walk.

    "Let's analyze each option:⏎⏎A. Glioblastoma – typically shows": cut off on an option's
    line that concludes nothing, with no answer located after the announcement, the walk had
    not reached its answer.
    """
    text = body.rstrip()
    if not text or text[-1] in _CLOSED or "\n" not in text:
        return False
    walk = _WALK.search(text)
    last = text[text.rfind("\n") + 1:]
    if walk is None or _WALK_ITEM.match(last) is None or _CONCLUDES.search(last) is not None:
        return False
    return not final_segments(text[walk.end():], bk)


def _subject_named(body: str, ix: OptionSet) -> bool:
    """Whether a response cut on a copula named an option before it.

    "Right pneumothorax, which is": the answer was given, its explanation cut (read as
    before); "The ACL is" was cut before anything was said.
    """
    text = body.rstrip()
    last = text.rsplit(None, 1)[-1] if text else ""
    return last in _COPULAS and bool(ix.phrases.find(text, text.lower()))


def _ends_open(text: str) -> bool:
    """Whether a stripped text ends on a separator or a connective word ("… with", "… and")."""
    if text[-1] in _OPEN_MARKS:
        return True
    if not (text[-1].isalnum() or text[-1] == "_"):
        return False  # (no word ends it: the common case, a full stop)
    start = len(text)
    while start > 0 and len(text) - start <= _LONGEST_OPEN and (text[start - 1].isalnum()
                                                    or text[start - 1] == "_"):
        start -= 1
    return text[start:] in _OPEN_WORDS and (start == 0 or not (
        text[start - 1].isalnum() or text[start - 1] == "_"))


#: What in a sentence broken off at the end could have undone the answer before it.
UNDO_KINDS: Final = frozenset({
    Kind.REFUSAL, Kind.HEDGE, Kind.HEDGE_SCOPED, Kind.EXCLUSION_HEDGE, Kind.REVISION,
    Kind.NEG_BEFORE, Kind.NEG_NOUN, Kind.NEG_AFTER, Kind.STATUS, Kind.ALTERNATIVE,
    Kind.SECOND_READING, Kind.CONDITION, Kind.CONCESSION, Kind.CONTRAST, Kind.DEFERRAL,
    Kind.PLAN})
_SENTENCE_END: Final = re.compile(r"[.!?](?=\s)|\n")


_EMPTY_ANSWER: Final = re.compile(r"\b(?:final[ \t]+)?(?:answer|prediction|output|response|choice)"
                                  r"[ \t]*:[ \t]*$", re.IGNORECASE)


def committed_before_cut(body: str, ix: OptionSet, bk: RuleBook) -> str | None:
    """The text before a cut-off last sentence, where that sentence cannot undo what precedes.

    "Answer: B. Pleural effusion. Explanation: … blunting of the costophrenic an" was cut after
    its answer: what precedes the broken sentence is read. Not where the broken sentence holds a
    word that could undo an answer (a hedge, a negation, "or", "if", a change of mind …), names
    an option, or is inside an unclosed structure (JSON, brackets).
    """
    ends = [m.end() for m in _SENTENCE_END.finditer(body)]
    if not ends or "{" in body or "[" in body:
        return None
    kept, broken = body[:ends[-1]], body[ends[-1]:]
    if not broken.strip():
        return None  # nothing broken off after the last sentence: no shorter text to read
    lowered = broken.lower()
    if not kept.strip() or bk.any_of(UNDO_KINDS, lowered, word_tokens(lowered)):
        return None
    if ix.phrases.find(broken, lowered) or LONE_CAPITAL.search(broken):
        return None
    if broken.rstrip().endswith(":") and not final_segments(kept, bk):
        return None  # "Step 3: Zone:": a label cut before its value, no answer given yet
    if _EMPTY_ANSWER.search(broken) is not None:
        return None  # "… Test: Q: Which is it? Answer:": cut where its own answer was to be
    return kept


def _reads_as_whole(body: str, segments: list[Segment]) -> bool:
    """Whether reading the whole response is the same as reading its one segment.

    So when one text marker opens the response and its content runs to the end ("Answer: B",
    "The answer is B. The nuclei …") and the reader's own answer lead covers the marker.
    """
    if len(segments) != 1:
        return False
    seg = segments[0]
    if seg.kind != "marker" or seg.end < len(body.rstrip(_BLANK)) or body[:seg.start].strip():
        return False
    lead = LEAD.match(body)
    return lead is not None and body[lead.end():].strip(" \t*_").startswith(seg.text[8:])
