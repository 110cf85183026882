r"""``strict``: the default parser. It reads what a clinician reads, and never guesses.

Rules, applied in this order (each has its rows in the decision table of
``tests/score/test_parsers_strict_table.py``; an abstention carries its reason, one of
:data:`~._base.REASONS`):

1. Not text, or no options → invalid.
2. **Reasoning is set aside** (:mod:`._locate`): ``<think>``, ``<thinking>``, ``<reasoning>``,
   ``<thought>``, ``◁think▷`` blocks, a trailing unclosed block and everything before a stray
   closing tag. A tentative answer inside a trace is never read. A response that is only a
   trace has not committed (``not_committed``).
3. **The final answer is located** (:mod:`._locate`): the segments after "Final answer",
   "Answer:", "The answer is", "My answer", "I choose" (and the answer words of other
   languages), inside ``\boxed{…}`` and in a JSON answer field (bare or fenced; a ``confidence``
   of "low" in the same object makes it a hedge) — structured outputs. They are read from the
   last one back (a later explicit answer overrides an earlier one); a segment that names
   nothing or only negates is passed over, one that hedges or names two options decides
   (invalid). Once a segment is read, the rest still counts: a refusal anywhere, or a hedge
   after it, makes the response invalid; after it, another option chosen in a letter position
   (also a lone letter on a line or in a clause of its own: "Final answer: B⏎⏎A"), or a change
   of mind ("wait", "actually", "on reflection" …) that names another option, makes it
   ``ambiguous`` (or ``not_committed``); before it, the chosen option negated and never asserted
   makes it ``ambiguous`` ("B is excluded … the answer is B"). No segment: the whole
   (trace-free) response is read with rules 5–19, as before.
4. **Marked tables and check-lists** (:mod:`._marks`) are a segment too: the rows marked present
   / ✓ / Yes / ``[x]``, read only when every row of the block is marked and none is uncertain.
5. Markdown is dropped (``*``, ``_``, backticks, heading ``#``, quote ``>``); curly quotes become
   straight ones. A leading "I cannot say for sure, but" / "I'm not sure, but" is dropped: the
   answer after *but* is read (a hedge that goes on to commit).
6. LMOD's ``FIELD; Explanation: …`` form: only the text before ``Explanation:`` (also
   ``Reasoning:``, ``Rationale:``, ``Reason:``) is read for the answer.
7. Refusals are invalid for **every** question type, yes/no included: "I cannot determine…",
   "No image was provided", "No idea", "No way to tell", "I don't know", "unable to…",
   "insufficient information", "as an AI…" (:data:`~._cues.REFUSAL`). Option texts are blanked
   before this check, so an option called "Cannot be assessed" can still be chosen.
8. Hedges are invalid: "maybe", "perhaps", "possibly", "possible", "either … or", "could be",
   "might be", "not sure", "hard to say", "I doubt", "equivocal", "the differential includes",
   "borderline between", "worried about", "concerning for", "can look similar" …
   and the hedges that keep one finding open: "X cannot be excluded", "cannot rule out X", "X is
   not excluded / not ruled out" — a hedge about X, never a choice of X (:data:`~._cues.HEDGE`);
   radiology's words for a finding not confirmed: "questionable X", "query X", "?X", "r/o X",
   "indeterminate", "borderline", "not confirmed", "pending (staining)", "tentatively";
   pathology's and BI-RADS' non-diagnostic categories: "suspicious for X", "X suspect" (not
   "I suspect X", nor "suspicious calcifications"); a differential, not a choice: "consider
   X" opening a clause, "X should be considered", "X is a consideration", "X is in the
   differential", "DDx"; "X may (well) be / represent / reflect / suggest …"; a guess ("my
   best guess", "if I had to guess"); the reader's own low confidence ("low confidence", "not
   confident") or a view it says it needs ("I would need a lateral view", "need more views to
   decide").
9. An option is *mentioned* by its letter only in letter positions (:mod:`._letters`): the
   whole answer is a letter or a list of letters (``B``, ``(B)``, ``B.``, ``[B]``, ``A, C``,
   ``A; C``, ``A/C``, ``A and C``, optionally after ``Answer:``); ``(B)`` or ``[B]`` anywhere;
   after ``answer``, ``option``, ``choice`` or ``letter``; at the start of a line as ``B:``,
   ``B.``, ``B)``, ``B - …``, or set against another letter there ("B, not A", "B rather than
   A"); after "therefore", "thus", "hence", "both", "it is"; said to be
   the answer ("B is correct"); a clause of its own at the end, after a comma, colon, period,
   dash or arrow ("So, B.", "… in the image. B.", "Wait, no — A."); and the letters
   listed after one of these, or opening a line or following a colon, joined by ``,`` ``/``
   ``&`` "or" "and" ("Options B or C", "Density: B or C"). A
   letter that is not an option in the answer position ("The answer is E" with options A–D) is
   ``out_of_range``; letters joined by "or" are alternatives (``ambiguous``).
10. **Letters inside names are never option letters**: a letter followed by a period and a
    lower-case word (``E. coli``), by a lower-case word that is not a connective ("T cell", "A
    mass", "I think"), or by a hyphen or digit (``T2-weighted``) is part of a name, unless the
    option's own text follows it (``B. squamous cell carcinoma``); a letter after a naming word
    ("hepatitis E", "group B", "vitamin D", "type A") is in no letter position at all.
11. **Option texts as written by clinicians** (:mod:`._variants`): an option is mentioned where
    its words occur in order, compared after folding case, diacritics, hyphens (a hyphen and a
    space are one), possessives, plurals and British/American spellings (ae/oe → e, -our →
    -or, -ise → -ize, -tre → -ter …); an option ``Name (ABBR)`` is also named by each part, a
    binomial by its abbreviated genus (``S. aureus``), an option containing a tabled full name
    by the abbreviation in its place ("Moderate NPDR"). A
    hyphenated compound is one word ("glaucoma" is not in "non-glaucoma"); where option texts
    overlap, the longest one at a place wins, so "Fatty-glandular or Fatty" names two options.
12. **Abbreviations** (the shipped table ``resources/answers/abbreviations.yaml``: radiology,
    mammography, fundus/OCT, pathology, dermatology): "HCC" names the option "Hepatocellular
    carcinoma" (and "hepatocellular carcinoma" an option "HCC"), only in capitals, only when it
    names exactly one option (never when it maps to two: "PE" with both pulmonary embolism and
    pleural effusion offered is ``ambiguous``), never when it could be a list of option letters
    ("AD").
13. A **restated option list** (two or more lines ``X. its own text``) is not an answer: when
    the rest of the response chooses, the list is set aside.
14. **Yes/no words** (yes/no items: options whose texts are yes and no words of
    ``resources/answers/yes_no_words.yaml``, in English, Spanish, Portuguese, French, German,
    Italian, Chinese, Japanese): a yes or no word — also the clinical synonyms positive /
    negative, present / absent, affirmative, correct / incorrect, "not seen", and the
    informal or emphatic ones ("yep", "nope", "absolutely", "definitely not", "not at all")
    — counts only as
    the first word of the answer (after ``Answer:`` or a marker) followed by the end or
    punctuation ("Negative.", "Sí, …", "是的，…", "**No**"); "yes" (never an adjective) may also
    be followed by a word ("Yes there is a mass"), "no" by a pronoun ("No there isn't"); "yes
    or no" and "yes and no" are ``ambiguous`` (not "Yes, no abnormality": that "no" opens a
    noun phrase).
15. **Findings that answer a yes/no question** (:mod:`._findings`): "No evidence of X", "There is
    no X", "X is absent" read as No when X is the finding asked about (every word of X in the
    question, and the question not about normality); without a question, only a specific
    absent finding is read. With the question known, "There is X" / "X is seen" reads as Yes
    when X carries the question's words about the finding's nature ("suspicious", "malignant",
    "abnormal" …: "calcifications are present but benign" does not answer "Are there
    suspicious calcifications?").
    "No doubt, …" and "not only" are not negations.
16. **Negation scope**: a mention is *negated* when its clause (text between ``. ; , ! ?``, new
    lines, a spaced dash, an arrow ``→``, *but*, *however* …) has a negation before it ("not",
    "no", "neither", "nor", "without", "non-", "ruled out", "rather than", "more likely than",
    "unlikely", "wrong", "hardly", "inconsistent with", "fails to", "mimicking", "anything but",
    "negative (study) for" …) or right after it ("… is ruled out", "… can be excluded", "… is
    highly unlikely", "… does not fit", "… can't be it", "… is inconsistent", "… was considered
    and rejected", "… is the wrong answer", "… is the least likely", "… is a distractor / red
    herring", "… has resolved", "… is no longer seen"; after a subject of two options, "X and Y
    are excluded", for both; a quote allowed before it: "… is 'excluded'"), or as a status after
    the option as a label, on its line ("X: excluded", "X (ruled out)", "X [none seen]", "X —
    unlikely", "B - absent", "X -> no", "X: not present", "X: no evidence", "X - neg", "X | No",
    "X = no", "X ✗", a table's sign for absent after a colon, bracket or bar, "X: -", "X (-)",
    "X: 0"; after a comma or a semicolon only an adjective or participle that ends the clause:
    "X, unlikely.", "X, which is absent."), or as a mark right before it on its line: a cross or
    an empty box ("❌ X", "[ ] B.", "☐ X"). "No" is a status only where it ends the clause (or
    says "no evidence / signs") and "not" only before a participle, since either may open
    another option's negation ("X: not Y", "X: no Y seen" read as X). A negation before a list
    of short noun phrases reaches every item ("no mass, calcification, or distortion is seen":
    the list's commas end no clause), and the period of "vs." ends none either; "by elimination"
    negates nothing. So "not X but Y" → Y, "neither X nor Y — Z" → Z, and (with rule 3) "X is
    excluded; the answer is Y" → Y. A negation of a noun phrase ("no", "without", "absence of",
    "lack of") stops at a verb that states a conclusion after another word ("no markings beyond
    the line means pneumothorax") or at a colon after two words ("without inflammation or
    fibrosis: steatosis"), though not at an infinitive ("no evidence to suggest X" negates X);
    "not" and "never" reach the end of the clause. A negated option is never chosen; one both
    asserted and negated is ``ambiguous``.
17. **Discussed options** (verbose answers that mention other options only to dismiss them): a
    mention in a hypothetical or generic clause — "X would show …", "if this were X", "X
    typically …", "X would be my last choice" —, weighed against another in its clause ("X
    versus Y", "X vs. Y"), in a concession ("Although X is common here, …") or in a question
    ("Pleural effusion?") is neither chosen nor negated; a question the text answers at once is
    read with its answer ("Pleural effusion? No." negates, "Pneumothorax? Yes." chooses).
18. Single choice, yes/no, grade: exactly one option asserted → it; none → ``negated`` (all
    named were negated) or ``no_answer`` — ``not_committed`` when the response puts its answer
    off ("Let me reconsider …", "I need a closer look …"); two different options ("B or C") →
    ``ambiguous``.
19. Multiple choice: the set of asserted options (``Mass; Miscellaneous``, ``A, C``); none →
    invalid; alternatives joined by "or" → ``ambiguous``.

Speed: option tables (phrases, abbreviations, yes/no letters) are cached by option set; results
of short responses, which repeat verbatim across items, are memoised; the locate step tests a
few substrings before any pattern runs; a plain sentence in which no rule is cued is read from
its option texts alone, and a letter in a marked answer position ("The answer is X.", "X: …",
"… option X") beside such a sentence from that letter (:mod:`._quick`, checked against the
full reading by property tests).

Source: the project's own honest default (REFERENCE_SCORING.md, "Strict style"); the
accuracy-over-valid-responses figure it enables follows the oncology paper (seed 003).

>>> p = StrictParser()
>>> p.parse("**B**", {"A": "Left", "B": "Right"}, "single")
ParsedAnswer(choice='B', invalid=False, reason=None)
>>> p.parse("Left is ruled out.", {"A": "Left", "B": "Right"}, "single")
ParsedAnswer(choice=None, invalid=True, reason='negated')
>>> p.parse("<think>the answer is A</think> B", {"A": "Left", "B": "Right"}, "single").choice
'B'
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._base import INVALID, ParsedAnswer, abstain, one_choice
from medvqa.reading._cues import (
    DEFERRAL,
    DEFERRAL_WORDS,
    HEDGE_BUT,
    HEDGE_TRIGGERS,
    NEG_BEFORE,
    NEG_BEFORE_ASCII,
    NEG_STARTS,
    NEG_WORDS,
    NOT_NEGATIONS,
    NOT_NEGATIONS_ASCII,
    REFUSAL,
    REFUSAL_TRIGGERS,
    REVISION,
    REVISION_WORDS,
    Opening,
    WordStart,
    as_bytes,
    holds_neg_mark,
    line_starts,
    matches_at,
    word_tokens,
)
from medvqa.reading._letters import LETTER_KEYWORDS
from medvqa.reading._locate import Segment, final_segments, set_aside_reasoning
from medvqa.reading._marks import forget_kinds
from medvqa.reading._quick import quick_read
from medvqa.reading._reading import (
    LEAD,
    OptionSet,
    Reading,
    decide,
    forget_option_sets,
    holds_markup,
    letters_only,
    options_of,
    prepare,
    restated,
    scan,
)

__all__ = ["REFUSAL", "StrictParser", "clear_memo"]

_MEMO: Final[dict[tuple[str, ...] | tuple[object, ...], tuple[ParsedAnswer, bool]]] = {}
_MEMO_SIZE: Final = 1 << 15
_MEMO_LEN: Final = 64
# Readings of final-answer segments, by (text, question type, option set[, question]).
_SEGMENTS: Final[dict[tuple[object, ...], Reading]] = {}
_SEGMENT_LEN: Final = 96
_BLANK: Final = " \t\r\n*_#>.`"
_CLAUSE_MARKS: Final = ".;,!?\n:"
_TAIL_WORDS: Final = as_bytes(REFUSAL_TRIGGERS | HEDGE_TRIGGERS)
_BEFORE_WORDS: Final = as_bytes(REFUSAL_TRIGGERS | NEG_WORDS)
_REFUSAL_WORDS: Final = as_bytes(REFUSAL_TRIGGERS)
_LETTER_KEYWORD_BYTES: Final = as_bytes(LETTER_KEYWORDS)
# Keywords that take a letter: a tail holding one may name another option ("answer C too").
_TAIL_KEYS: Final[tuple[str, ...]] = ("answer", "option", "choice", "letter")
# A longer tail without Markdown is never letters only (prepare only strips it).
_LETTERS_ONLY_LEN: Final = 64
# A line that opens with a letter ("B.", "- C)", "A, C"): matched at each line start.
_LETTER_LINE: Final = re.compile(r"[ \t]*(?:[-*\u2022][ \t]*)?[A-Z](?:[.):]|\s*(?:,|/|&|or\b"
                                 r"|and\b))")
# "Bor" is a letter line for it: the "o" of "or" may follow the capital.
_LETTER_LINE_OPENS: Final = Opening(" \t-*\u2022", ".):,/&oa", space_after_capital=True)
# A capital letter that no letter precedes and no lower-case letter follows: every letter
# position but a keyword's and a letters-only answer holds one ("(B)", "B is correct", ", C.").
# Opened by the capital, which the engine skips to in C; the lookbehind then looks at the
# character before it (a pattern opened by a lookbehind is tried at every position).
_LONE_CAPITAL: Final = re.compile(r"[A-Z](?<![A-Za-z][A-Z])(?![a-z])")


def clear_memo() -> None:
    """Forget remembered results and option sets (benchmarks start cold with it)."""
    _MEMO.clear()
    _SEGMENTS.clear()
    forget_option_sets()
    forget_kinds()


class StrictParser:
    """The honest default: never guesses, reports abstentions as invalid with a reason."""

    style = "strict"
    compares_text = False

    def parse(self, response: object, options: dict[str, str], question_type: str, *,
              question: str = "") -> ParsedAnswer:
        """Parse one response; see the module docstring for the rules."""
        if not isinstance(response, str) or not options:
            return INVALID
        fast = response.strip()
        if fast in options:
            return ParsedAnswer([fast], False) if question_type == "multi" else one_choice(fast)
        ix = options_of(options)
        if len(fast) > _MEMO_LEN:
            return _parse(fast, question_type, ix, question)[0]
        # The question can change a reading only on a yes/no item (a finding answers it only
        # when it is what was asked), so there it is part of the key: a reading made without
        # the question, or for another one, is never reused for this one.
        # The option set stands for its items (one object per distinct items: a cheaper key).
        key = (fast, question_type, ix, question) if ix.yesno else (fast, question_type, ix)
        got = _MEMO.get(key)
        if got is None:
            got = _parse(fast, question_type, ix, question)
            # Full: keep what is there (the forms that repeat come early) and stop adding.
            if len(_MEMO) < _MEMO_SIZE:
                _MEMO[key] = got
        return got[0]


def _parse(text: str, qtype: str, ix: OptionSet, question: str) -> tuple[ParsedAnswer, bool]:
    """The parsed answer and whether it depended on the question (rules 2–19)."""
    reasoned = set_aside_reasoning(text)
    body = reasoned.text
    if reasoned.trace and not body.strip(_BLANK):
        return abstain("not_committed"), False
    if not reasoned.trace and not ix.yesno and qtype in ("single", "grade"):
        quick = quick_read(body, ix)  # a plain sentence: no rule is cued
        if quick is not None:
            return quick, False
    if body[:2].strip()[:1] in ("i", "I") and (m := HEDGE_BUT.match(body.strip())):
        body = body.strip()[m.end():]  # rule 5: a hedge that goes on to commit
    segments = final_segments(body)
    if segments and not _reads_as_whole(body, segments):
        got = _from_segments(body, segments, qtype, ix, question)
        if got is not None:
            return got
    reading = scan(body, ix, qtype, question)
    span = restated(body, ix) if reading.verdict is None else None
    if span is not None:
        rest = scan(body[:span[0]] + "\n" + body[span[1]:], ix, qtype, question)
        if rest.asserted:
            reading = rest
    parsed = decide(reading, qtype)
    if parsed.reason == "no_answer" and _search_cased(DEFERRAL, DEFERRAL_WORDS, body):
        parsed = abstain("not_committed")  # "Let me reconsider the options once more."
    return parsed, reading.used_question


def _scan_segment(text: str, ix: OptionSet, qtype: str, question: str) -> Reading:
    """:func:`scan` of a segment's text, remembered (segments repeat where responses do not).

    "Answer: B" ends many different responses. :func:`scan` is a pure function of its
    arguments; the question can matter only on a yes/no item (the finding rules), so only
    there is it part of the key.
    """
    if len(text) > _SEGMENT_LEN:
        return scan(text, ix, qtype, question)
    key = (text, qtype, ix, question) if ix.yesno else (text, qtype, ix)
    got = _SEGMENTS.get(key)
    if got is None:
        got = scan(text, ix, qtype, question)
        if len(_SEGMENTS) < _MEMO_SIZE:
            _SEGMENTS[key] = got
    return got


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
    lead = LEAD.match(body)  # the reader's own answer lead must cover the marker
    return lead is not None and body[lead.end():].strip(" \t*_").startswith(seg.text[8:])


def _tail_may_matter(tail: str, yesno: bool) -> bool:
    """Whether what follows the answer can undo it (the full reading runs only then).

    So when it has a refusal or hedge cue, a letter position or a change of mind. A letter
    position holds a capital standing alone ("Answer: D⏎⏎C", "… D.; C.") unless it follows a
    keyword that takes a letter ("therefore b") or the tail is letters only ("⏎b").
    """
    lowered = tail.lower()
    tokens = word_tokens(lowered)
    return (not _TAIL_WORDS.isdisjoint(tokens) or not _LETTER_KEYWORD_BYTES.isdisjoint(tokens)
            or _bracket_may_matter(tail, yesno) or _LONE_CAPITAL.search(tail) is not None
            or (len(tail) <= _LETTERS_ONLY_LEN or holds_markup(tail)) and letters_only(tail)
            or any(k in lowered for k in _TAIL_KEYS)
            or bool(matches_at(_LETTER_LINE, tail, line_starts(tail), _LETTER_LINE_OPENS))
            or _search_cased(REVISION, REVISION_WORDS, tail, lowered))


def _bracket_may_matter(tail: str, yesno: bool) -> bool:
    """Whether a tail with a bracket may hold a letter position (rule 9).

    Such a tail was always read in full; now only where a letter position may be in it: a
    capital letter standing alone (:data:`_LONE_CAPITAL`: ``(B)``, ``[C]``, "B is correct",
    ", D."), a keyword that takes a letter of either case ("therefore (b)": a word of
    LETTER_KEYWORDS once Markdown is dropped, as the reader does), or a tail of letters only
    ("(b)"). An aside — "(case 3)",
    "(squamous cell carcinoma)", "(see field 9)" — holds none. On a yes/no item every bracket
    still counts (a yes/no word opening the tail is a letter position there).
    """
    if "(" not in tail and "[" not in tail:
        return False
    if yesno or _LONE_CAPITAL.search(tail) is not None:
        return True
    text = prepare(tail)
    return not _LETTER_KEYWORD_BYTES.isdisjoint(word_tokens(text.lower())) or letters_only(text)


def _before_cued(before: str) -> bool:
    """Whether the text before the answer holds a refusal cue or a negation."""
    lowered = before.lower()
    return _cued_by(lowered, word_tokens(lowered))


def _cued_by(lowered: str, tokens: list[bytes]) -> bool:
    """:func:`_before_cued` of a lower-cased text and its word tokens."""
    return not _BEFORE_WORDS.isdisjoint(tokens) or "n't" in lowered or any(
        w in lowered for w in NEG_STARTS) or holds_neg_mark(lowered)


def _before_may_matter(before: str, chosen: frozenset[str], ix: OptionSet) -> bool:
    """Whether what precedes the answer can undo it (the full reading runs only then).

    It can by a refusal, or by negating the chosen option, so only where it has a refusal cue
    or a negation, and (for the second) names the chosen option: by one of its phrases'
    anchors or abbreviations (:meth:`~._variants.PhraseIndex.may_name`), its letter in
    capitals, or a keyword that takes a letter of either case. Read as the reader reads it
    (Markdown dropped). On a yes/no item, and in a text that is not ASCII, a cue is enough.
    """
    lowered = before.lower()
    tokens = word_tokens(lowered)
    if not _cued_by(lowered, tokens):
        return False
    if ix.yesno or not before.isascii():
        return True
    # Read as the reader reads it. An ASCII text without Markdown is prepared by a strip,
    # which changes neither its words nor what it holds: its tokens serve as they are.
    text = before
    if holds_markup(before):
        text = prepare(before)
        lowered = text.lower()
        tokens = word_tokens(lowered)
    if not _REFUSAL_WORDS.isdisjoint(tokens) or not _LETTER_KEYWORD_BYTES.isdisjoint(tokens):
        return True
    return any(letter in text or ix.phrases.may_name(text, lowered, letter) for letter in chosen)


def _search_cased(pattern: re.Pattern[str], twin: WordStart, text: str,
                  lowered: str | None = None) -> bool:
    """Whether ``pattern`` (IGNORECASE) matches ``text``.

    On ASCII text its case-sensitive twin is searched on the lower case instead, as a
    :class:`~._cues.WordStart`: the same answer, faster (see _cues.ascii_twin).
    """
    if text.isascii():
        return twin.search(text.lower() if lowered is None else lowered) is not None
    return pattern.search(text) is not None


def _negated_marker(body: str, start: int) -> bool:
    """A negation earlier in the marker's own clause ("I would not say the answer is A")."""
    # The last clause mark before the marker: each mark is looked for only after the last one
    # found (the first search stops at the nearest period; a search from the text's start
    # for each mark would read a long response seven times).
    begin = 0
    for mark in _CLAUSE_MARKS:
        i = body.rfind(mark, begin, start)
        if i >= 0:
            begin = i + 1
    if begin >= start:
        return False
    fragment = body[begin:start]
    if fragment.isascii():  # the case-sensitive twins on its lower case (_cues.ascii_twin)
        fragment = NOT_NEGATIONS_ASCII.sub(" ", fragment.lower())
        return NEG_BEFORE_ASCII.search(fragment) is not None
    fragment = NOT_NEGATIONS.sub(" ", fragment)
    return NEG_BEFORE.search(fragment) is not None


def _from_segments(body: str, segments: list[Segment], qtype: str, ix: OptionSet,
                   question: str) -> tuple[ParsedAnswer, bool] | None:
    """Rule 3: the last segment that reads, checked against what surrounds it.

    None when no segment names an option (the whole response is read then).
    """
    for seg in reversed(segments):
        reading = _scan_segment(seg.text, ix, qtype, question)
        parsed = decide(reading, qtype)
        if not parsed.invalid and _negated_marker(body, seg.start):
            continue  # "not Answer: A", "I would not say the answer is A"
        if not parsed.invalid:
            break
        if parsed.reason not in ("negated", "no_answer"):
            return parsed, reading.used_question
    else:
        return None
    chosen = frozenset(parsed.choice if isinstance(parsed.choice, list) else [parsed.choice or ""])
    tail = body[seg.end:]
    if tail.strip(_BLANK) and _tail_may_matter(tail, ix.yesno):
        after = scan(tail, ix, qtype, question)
        if after.verdict in ("refusal", "hedge"):
            return abstain(after.verdict), reading.used_question
        others = (after.lettered - after.negated) - chosen
        if others:
            return abstain("ambiguous"), reading.used_question
        if (after.asserted - chosen) and _search_cased(REVISION, REVISION_WORDS, tail):
            return abstain("not_committed"), reading.used_question
    before = body[:seg.start]
    if before.strip(_BLANK) and _before_may_matter(before, chosen, ix):
        prior = scan(before, ix, qtype, question, hedge=False)
        if prior.verdict == "refusal":
            return abstain("refusal"), reading.used_question
        if chosen & prior.negated and not chosen & prior.asserted:
            return abstain("ambiguous"), reading.used_question
    return parsed, reading.used_question
