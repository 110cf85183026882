"""The strict parser's reading of one piece of text: which options it asserts, negates or names.

:func:`scan` applies rules 2–12 of :mod:`._strict` to one text (a whole response, a located
final-answer segment, or what comes before or after it) and returns a :class:`Reading`;
:func:`decide` turns a reading into a :class:`~._base.ParsedAnswer` with the reason of an
abstention. Option tables (:class:`OptionSet`) are built once per option set.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import Final

from medvqa.reading._answer_words import NO_WORDS, YES_WORDS
from medvqa.reading._base import ParsedAnswer, abstain, one_choice
from medvqa.reading._cues import (
    CLAUSE_WORDS,
    CONCESSIVE,
    DISCUSSED_AFTER,
    DISCUSSED_BEFORE,
    DISCUSSED_WORDS,
    EXCLUSION_HEDGE,
    EXPLANATION,
    HEDGE_BUT,
    LIST_NEGATIONS,
    MARK_BEFORE,
    NEG_AFTER,
    NEG_AFTER_ASCII,
    NEG_AFTER_VERB,
    NEG_AFTER_VERB_ASCII,
    NEG_BEFORE,
    NEG_BEFORE_ASCII,
    NEG_STARTS,
    NEG_STOP,
    NEG_STOP_ASCII,
    NEG_WORDS,
    NOT_NEGATIONS,
    REJECTING_WORDS,
    STATUS_AFTER,
    STATUS_AFTER_ASCII,
    Opening,
    hedges,
    holds_dash,
    holds_neg_mark,
    line_starts,
    matches_at,
    may_start_negation,
    negated_lists,
    positions_of,
    refuses,
    status_may_follow,
    whole_word_ends,
    word_set,
)
from medvqa.reading._findings import finding_answers, may_state_finding
from medvqa.reading._fold import phrase_tokens
from medvqa.reading._letters import letter_mentions
from medvqa.reading._variants import PhraseIndex

__all__ = ["LEAD", "OptionSet", "Reading", "decide", "forget_option_sets", "letters_only",
           "option_set", "options_of", "restated", "scan"]

_MARKUP: Final = re.compile(r"[*_`]+|^[ \t]*(?:#+|>+)[ \t]*", re.MULTILINE)
# Curly quotes made straight, a no-break space made a space: one character for one.
_QUOTES: Final[tuple[tuple[str, str], ...]] = (
    ("\u2019", "'"), ("\u2018", "'"), ("\u201c", '"'), ("\u201d", '"'), ("\u00a0", " "))
_LEAD = (r"(?:(?:the\s+)?(?:final\s+|correct\s+|best\s+|right\s+)?(?:answers?|options?|choices?)"
         r"\s*(?:is|are|would\s+be|:|=|-)?\s*:?\s*)")
#: The reader's answer lead at the start of a text ("The correct answer is:", "Answer -").
LEAD: Final = re.compile(r"\s*" + _LEAD, re.IGNORECASE)
_ONE = r"[(\[]?[A-Za-z][)\]]?"
_SEP = r"(?:\s*(?:,|;|/|&|\+|\band\b|\bor\b|\n)\s*|\s+)"
# The whole response is letters: "B", "(B).", "Answer: A, C", "The answers are A and C".
_ONLY_LETTERS: Final = re.compile(rf"^\s*{_LEAD}?(?:option\s+|choice\s+)?({_ONE}(?:{_SEP}{_ONE})*)"
                                  r"[\s.!:;,]*$", re.IGNORECASE)
_ONLY_LETTERS_LEN: Final = 48  # longer texts are never letters only ("The answers are A, C and D.")
_LETTER: Final = re.compile(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])")
_YN_WORDS = "|".join(re.escape(w) for w in sorted(YES_WORDS | NO_WORDS, key=len, reverse=True))
_YN_HEAD: Final = re.compile(rf"^\s*{_LEAD}?(?:(?P<w>{_YN_WORDS})(?=$|\s*[.,;:!()\-\u2014"
                             r"\u3002\uff0c\uff01\uff1b\uff1a\u3001]|\s*\n)"
                             r"|(?P<f>yes|yeah|yep|s\u00ed|oui|ja|sim)(?=\s)"
                             r"|(?P<n>no|nein|non|n\u00e3o)(?=\s+(?:there|it|it's|i|the|this|that|we|you|"
                             r"this|these|they)\b))", re.IGNORECASE)
# "Yes or no", "yes/no", "Yes, no.": both words at once. Not "Yes, no abnormality": a "no" that
# opens a noun phrase is no answer word (but "Yes no wait", "yes, no, actually" take it back).
_YN_BOTH: Final = re.compile(r"\b(yes|no|true|false)(?:[\s,/]*(?:or|and)\b[\s,/]*(?!\1\b)"
                             r"(?:yes|no|true|false)|[\s,/]*(?!\1\b)(?:yes|true|false|no(?![ \t]+"
                             r"(?!(?:wait|actually|hmm|sorry|correction|scratch|i|on|let)\b)[a-z])))"
                             r"\b")
_OR: Final = re.compile(r"\bor\b|\beither\b", re.IGNORECASE)
# Radiology's query: a question mark opening a word ("?pneumothorax") asks, it does not state.
_QUERY: Final = re.compile(r"(?:^|[\s(\[,;:/])\?[a-z]")
_ANYTHING_BUT: Final = re.compile(r"\banything\s+but$")
# The text runs to the last character of its line that is not a space or a tab: the lazy
# ``(\S[^\n]*?)[ \t]*$`` ends there too, but tries the line's end after every character.
_RESTATED: Final = re.compile(r"^[ \t]*(?:[-*\u2022][ \t]*)?[(\[]?([A-Z])[.):\]][ \t]+"
                              r"(\S(?:[^\n]*[^ \t\n])?)[ \t]*$", re.MULTILINE)
_RESTATED_OPENS: Final = Opening(" \t-*\u2022([", ".):]")


class OptionSet:
    """Per option set, computed once: letters, phrases, yes and no letters, option words.

    Attributes:
        keys: the option letters.
        yes: the letter of the yes option on a yes/no item (None otherwise); ``no`` likewise.
        yesno: the options are a yes and a no (any language of the shipped table).
        phrases: how each option is named by its words (:class:`~._variants.PhraseIndex`).
        words: letter → the option text's folded words (a restated option list is recognised).
    """

    __slots__ = ("keys", "no", "phrases", "words", "yes", "yesno")

    def __init__(self, items: tuple[tuple[str, str], ...]):
        self.keys = frozenset(k for k, _ in items)
        texts = [(k, " ".join(_MARKUP.sub("", v).lower().split()).rstrip(".")) for k, v in items]
        self.yes = next((k for k, t in texts if t in YES_WORDS), None)
        self.no = next((k for k, t in texts if t in NO_WORDS), None)
        self.yesno = self.yes is not None and self.no is not None
        skip = frozenset(t for _, t in texts if t in YES_WORDS | NO_WORDS) if self.yesno else \
            frozenset()
        self.phrases = PhraseIndex(items, skip)
        self.words = {k: phrase_tokens(v)[0] for k, v in items}


@lru_cache(maxsize=4096)
def option_set(items: tuple[tuple[str, str], ...]) -> OptionSet:
    """The cached :class:`OptionSet` of ``items``."""
    return OptionSet(items)


# The option sets of the options dicts seen last, by the dict's identity: a run passes one
# item's dict with each of its responses, and building and hashing a tuple of its items costs
# more than the rest of reading a repeated short answer. Each entry holds the dict (so its id
# cannot be reused while it is here) and its items as they were, which confirm that it has not
# changed since.
_BY_DICT: Final[dict[int, tuple[dict[str, str], tuple[tuple[str, str], ...], OptionSet]]] = {}
_BY_DICT_SIZE: Final = 1024


def options_of(options: dict[str, str]) -> OptionSet:
    """``option_set(tuple(options.items()))``, found by the dict's identity where it can be."""
    got = _BY_DICT.get(id(options))
    if got is not None and got[0] is options and _holds(options, got[1]):
        return got[2]
    items = tuple(options.items())
    ix = option_set(items)
    if len(_BY_DICT) >= _BY_DICT_SIZE:
        _BY_DICT.clear()
    _BY_DICT[id(options)] = (options, items, ix)
    return ix


def _holds(options: dict[str, str], items: tuple[tuple[str, str], ...]) -> bool:
    """Whether ``options`` holds exactly ``items`` in order: the same key and value objects."""
    if len(options) != len(items):
        return False
    i = 0
    for key, value in options.items():
        if key is not items[i][0] or value is not items[i][1]:
            return False
        i += 1
    return True


def forget_option_sets() -> None:
    """Forget every remembered option set (benchmarks start cold with it)."""
    _BY_DICT.clear()
    option_set.cache_clear()


class Reading:
    """What one text says about the options (never changed once made).

    A plain class, not a NamedTuple: compiled, it is built without calling into the
    interpreter (a NamedTuple's ``__new__`` is Python code).

    Attributes:
        asserted: letters the text chooses.
        negated: letters it rejects.
        lettered: letters chosen in a letter position (``(B)``, ``Answer: B``, ``B: …``).
        verdict: an abstention found on the way (``refusal``, ``hedge``, ``ambiguous``,
            ``out_of_range``, ``empty``), else None.
        alternatives: options are joined by "or" / "either".
        used_question: the reading depended on the question (a finding rule).
    """

    __slots__ = ("alternatives", "asserted", "lettered", "negated", "used_question", "verdict")

    def __init__(self, asserted: frozenset[str], negated: frozenset[str],
                 lettered: frozenset[str], verdict: str | None, alternatives: bool = False,
                 used_question: bool = False):
        self.asserted = asserted
        self.negated = negated
        self.lettered = lettered
        self.verdict = verdict
        self.alternatives = alternatives
        self.used_question = used_question

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reading) and (
            self.asserted == other.asserted and self.negated == other.negated
            and self.lettered == other.lettered and self.verdict == other.verdict
            and self.alternatives == other.alternatives
            and self.used_question == other.used_question)

    def __repr__(self) -> str:
        return (f"Reading(asserted={sorted(self.asserted)}, negated={sorted(self.negated)}, "
                f"lettered={sorted(self.lettered)}, verdict={self.verdict!r}, "
                f"alternatives={self.alternatives}, used_question={self.used_question})")


_SELF_REPLY: Final = re.compile(r"\s*(yes|no)\b(?!\s+(?:doubt|question)\b)")
_EMPTY: Final[frozenset[str]] = frozenset()
_NOTHING: Final = Reading(_EMPTY, _EMPTY, _EMPTY, None)


def _stop(verdict: str) -> Reading:
    return Reading(_EMPTY, _EMPTY, _EMPTY, verdict)


def prepare(text: str) -> str:
    """Quotes made straight and Markdown dropped (rule 2)."""
    if not text.isascii():
        # str.replace, not str.translate: translate looks every character of a non-ASCII
        # text up in its table (ten times the cost of these five searches).
        for curly, straight in _QUOTES:
            if curly in text:
                text = text.replace(curly, straight)
    if holds_markup(text):
        text = _MARKUP.sub("", text)
    return text.strip()


def holds_markup(text: str) -> bool:
    """Whether ``text`` holds a Markdown character that :func:`prepare` drops."""
    return "*" in text or "_" in text or "`" in text or "#" in text or ">" in text


def letters_only(text: str) -> bool:
    """Whether :func:`scan` reads ``text`` as letters only ("(b)", "A, C"), whatever the options.

    >>> letters_only("(b)"), letters_only("(case 3)")
    (True, False)
    """
    text = prepare(text)
    return _only_letters(text) is not None


# The words of two or more letters that _ONLY_LETTERS has a place for: its answer lead, "option",
# "choice", "and", "or". The lead's key words and verbs may run into what follows them with no
# space ("answerisb", "beb"), so a word that starts with one of _LEAD_STARTS may be its too.
_LEAD_WORDS: Final = frozenset({b"the", b"final", b"correct", b"best", b"right", b"and", b"or"})
_LEAD_STARTS: Final[tuple[bytes, ...]] = (
    b"answer", b"option", b"choice", b"is", b"are", b"would", b"be")
# Every byte but an ASCII lower-case letter becomes a space.
_LETTER_BYTES: Final = bytes(b if 97 <= b <= 122 else 32 for b in range(256))


def _only_letters(text: str) -> re.Match[str] | None:
    """:data:`_ONLY_LETTERS`' match of a text of letters only, or None.

    Speed: the pattern costs more than the rest of reading a short text, and most short texts
    have a word it has no place for ("(case 3)", "Steatosis."), found first. Only on ASCII text:
    IGNORECASE lets some other letters stand for ASCII ones (the long s for "s").
    """
    if len(text) > _ONLY_LETTERS_LEN:
        return None
    if text.isascii():
        for w in text.lower().encode().translate(_LETTER_BYTES).split():
            if len(w) > 1 and w not in _LEAD_WORDS and not w.startswith(_LEAD_STARTS):
                return None
    return _ONLY_LETTERS.match(text)


def _spaces(m: re.Match[str]) -> str:
    """As many spaces as ``m`` matched: a replacement that keeps positions.

    A module function, not a lambda (see ``_locate._position``).
    """
    return " " * len(m.group())


def scan(text: str, ix: OptionSet, qtype: str, question: str = "", *,
         hedge: bool = True) -> Reading:
    """Read one text with rules 2–12 of the strict parser (``hedge``: check rule 5 too)."""
    text = prepare(text)
    if text[:1] in "iI" and (m := HEDGE_BUT.match(text)):
        text = text[m.end():]
    lowered = text.lower()
    if len(lowered) != len(text):  # a character whose lower case is longer (İ): keep it
        lowered = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    spans = ix.phrases.find(text, lowered)
    masked = _blank(lowered, spans) if spans else lowered
    words = word_set(masked)
    if not text:
        return _stop("empty")
    if hedge and hedges(masked, words):
        return _stop("hedge")
    if hedge and "?" in lowered and _QUERY.search(lowered) is not None:
        return _stop("hedge")  # "?pneumothorax": a finding queried, not stated
    if refuses(masked, words):
        return _stop("hedge" if EXCLUSION_HEDGE.search(masked) else "refusal")
    cut = (EXPLANATION.search(text) if ":" in text and (
        "expla" in lowered or "reason" in lowered or "rational" in lowered) else None)
    if cut is not None and cut.start() > 0:
        text, lowered, masked = text[:cut.start()], lowered[:cut.start()], masked[:cut.start()]
        spans = [s for s in spans if s[1] <= cut.start()]
    only = _only_letters(text)
    if only is not None:
        letters = {c.upper() for c in _LETTER.findall(only.group(1))}
        if len(letters) > 1 and _OR.search(only.group(1)):
            return _stop("ambiguous")  # "A or B": alternatives, whatever the question type
        if letters <= ix.keys and (qtype == "multi" or len(letters) == 1):
            got = frozenset(letters)
            return Reading(got, _EMPTY, got, None)
        return _stop("out_of_range" if not letters <= ix.keys else "ambiguous")
    if ("doubt" in masked or "only" in masked or "question" in masked or "wonder" in masked
            or "elimination" in masked):
        masked = NOT_NEGATIONS.sub(_spaces, masked)
    return _mentions(text, lowered, masked, words, spans, ix, qtype, question)


def _mentions(text: str, lowered: str, masked: str, words: set[str],
              spans: list[tuple[int, int, frozenset[str]]], ix: OptionSet, qtype: str,
              question: str) -> Reading:
    """Rules 6–12 once the text is prepared: each mention asserted, negated or discussed."""
    letter_spans = letter_mentions(text, lowered, ix.words, words)
    if not spans and not letter_spans and not ix.yesno:
        return _NOTHING  # nothing is named: no clause needs reading
    # NEG_BEFORE's word starts (exclud…, rul… out, lack…, den…, doubt…) begin a word.
    may_negate = (not NEG_WORDS.isdisjoint(words) or "n't" in masked
                  or may_start_negation(masked) and _NEG_START.search(masked) is not None)
    may_mark = holds_neg_mark(lowered)  # "[ ] B.", "\u274c Pneumothorax" (MARK_BEFORE)
    may_discuss = not DISCUSSED_WORDS.isdisjoint(words)
    # Speed: without any cue of a question, concession, discussion or negation, every mention
    # is asserted whatever its clause, so the clause ends are not computed (_clause_cued).
    may_label = status_may_follow(lowered, words)  # "X: excluded", "X ✗" (STATUS_AFTER)
    plain = not (may_negate or may_discuss or may_mark or may_label) and lowered.isascii() and (
        not _clause_cued(lowered))
    if plain and not ix.yesno:
        # Every mention is asserted (see below): the letters and the named options, at once.
        by_letter = frozenset([letter for letter, _, _ in letter_spans])
        if not by_letter <= ix.keys:
            return _stop("out_of_range")  # "The answer is E" with options A–D
        chosen = by_letter.union(*[letters for _, _, letters in spans])
        return Reading(chosen, _EMPTY, by_letter, None,
                       len(chosen) > 1 and _OR.search(masked) is not None)
    ends = [] if plain else _clause_ends(text, lowered, words, ix)
    # The cue patterns' case-sensitive twins where the text allows (see _cues.ascii_twin).
    ascii_text = lowered.isascii()
    neg_after = NEG_AFTER_ASCII if ascii_text else NEG_AFTER
    neg_after_verb = NEG_AFTER_VERB_ASCII if ascii_text else NEG_AFTER_VERB
    status_after = STATUS_AFTER_ASCII if ascii_text else STATUS_AFTER
    asserted: set[str] = set()
    negated: set[str] = set()
    lettered: set[str] = set()

    def mention(letters: frozenset[str], start: int, end: int, label: bool = True) -> bool:
        """Record one mention; True when it is asserted.

        ``label``: a status after it may negate it ("X: absent"); not after a yes/no word,
        which a status confirms ("Non, absent.").
        """
        if plain:
            asserted.update(letters)
            return True
        i = bisect_right(ends, start)
        begin = ends[i - 1] if i else 0
        stop = ends[i] if i < len(ends) else len(lowered)
        if stop and lowered[stop - 1] == "?":
            # asked, not stated — unless the text answers its own question: "X? No." / "X? Yes."
            reply = _SELF_REPLY.match(masked, stop)
            if reply is None:
                return False
            (asserted if reply.group(1) == "yes" else negated).update(letters)
            return reply.group(1) == "yes"
        if begin and CONCESSIVE.search(masked, max(0, begin - 12), begin) is not None:
            return False  # conceded, not chosen: "Although X is common here, …"
        if may_discuss and (DISCUSSED_BEFORE.search(masked, begin, start) is not None
                            or DISCUSSED_AFTER.match(masked[end:stop]) is not None):
            return False
        neg = may_negate and _negated_before(masked, begin, start) or (
            neg_after.match(masked[end:stop]) is not None) or (
            ("." in masked[end:end + 3] or ":" in masked[end:end + 3])
            # unmasked: another option's blanked name must not read as a missing subject
            and neg_after_verb.match(lowered[end:_next_end(ends, masked, end)]) is not None) or (
            label and may_label and status_after.match(lowered, end) is not None) or (
            may_mark and MARK_BEFORE.search(lowered, max(0, begin, start - 8), start) is not None)
        (negated if neg else asserted).update(letters)
        return not neg

    for start, end, letters in spans:
        mention(letters, start, end)
    for letter, start, end in letter_spans:
        if letter in ix.keys:
            if mention(frozenset((letter,)), start, end):
                lettered.add(letter)
        else:
            return _stop("out_of_range")  # "The answer is E" with options A–D
    used_question = False
    if ix.yesno:
        if _YN_BOTH.search(masked):
            return _stop("ambiguous")
        yn = _YN_HEAD.match(text)
        if yn is not None:
            group = yn.lastgroup or "w"
            word = yn.group(group).lower()
            said = ix.yes if word in YES_WORDS else ix.no
            if said is not None and mention(frozenset((said,)), yn.start(group), yn.end(group),
                                            False):
                lettered.add(said)
        if may_state_finding(masked):
            found = finding_answers(masked, question)
            used_question = bool(question)
            for word in found:
                said = ix.yes if word == "yes" else ix.no
                if said is not None:
                    asserted.add(said)
    return Reading(frozenset(asserted), frozenset(negated), frozenset(lettered), None,
                   len(asserted) > 1 and _OR.search(masked) is not None, used_question)


def _negated_before(masked: str, begin: int, start: int) -> bool:
    """A negation in the clause before a mention that still reaches it (rule 16)."""
    ascii_text = masked.isascii()  # lower case: the twins apply (see _cues.ascii_twin)
    cues = list((NEG_BEFORE_ASCII if ascii_text else NEG_BEFORE).finditer(masked, begin, start))
    if not cues:
        return False
    if cues[-1].group().split()[0] not in _NOUN_NEGATIONS or _DETERMINER.match(
            masked, cues[-1].end()):
        return True
    last = cues[-1].end()
    colon = masked.find(":", last, start)
    if colon >= 0 and len(masked[last:colon].split()) >= 2:
        return False  # "without inflammation or fibrosis: steatosis"
    stop = (NEG_STOP_ASCII if ascii_text else NEG_STOP).search(masked, last, start)
    return stop is None or not masked[last:stop.start()].strip(" -,")


# A word of the masked text (a WORD token, or a part of one joined by ' or /: word_tokens) that
# starts as NEG_BEFORE's word starts do: the same test as ``any(w.startswith(NEG_STARTS) for w
# in words)``, as one search.
_NEG_START: Final = re.compile(r"(?<![a-z])(?:" + "|".join(NEG_STARTS) + ")")
def _clause_cued(lowered: str) -> bool:
    """Whether the (lower-case, ASCII) text holds a literal that a clause test needs.

    The literals: "?" (a question), CONCESSIVE's words ("although" holds "though"), and the
    negation words of NEG_AFTER, NEG_AFTER_VERB and STATUS_AFTER (whose marks are not ASCII).
    Where none occurs (and neither a negation nor a discussion is cued), none of those tests
    can match, so a mention is asserted without looking at its clause. The masked text is the
    lower-cased one with spans blanked, so the lower-cased one holds every literal of either.
    Substring tests: faster than one pattern.
    """
    return ("?" in lowered or "though" in lowered or "despite" in lowered
            or "albeit" in lowered or "not" in lowered or "n't" in lowered
            or "never" in lowered or "ruled" in lowered or "excluded" in lowered
            or "unlikely" in lowered or "incorrect" in lowered or "wrong" in lowered
            or "absent" in lowered or "less" in lowered or "false" in lowered
            or "eliminated" in lowered or "out" in lowered
            or "improbable" in lowered or "neg" in lowered
            or any(w in lowered for w in REJECTING_WORDS)
            or "longer" in lowered or "resolved" in lowered or "disappeared" in lowered
            or "least" in lowered or "distractor" in lowered or "herring" in lowered
            or "decoy" in lowered)


_DETERMINER: Final = re.compile(r"\s+(?:the|this|that|these|those|a|an|it|i|we|there)\b")
# Negations of a noun phrase ("no markings"), whose reach a conclusion verb ends; "not" and
# "never" negate a verb or a whole clause and reach the end of it.
_NOUN_NEGATIONS: Final = frozenset({"no", "without", "absence", "absent", "lack", "lacks",
                                    "lacking", "free", "none", "nothing", "non"})


def _blank(lowered: str, spans: list[tuple[int, int, frozenset[str]]]) -> str:
    """``lowered`` with the spans replaced by spaces (option texts blanked, rule 7)."""
    parts, pos = [], 0
    for start, end, _ in spans:
        parts += [lowered[pos:start], " " * (end - start)]
        pos = end
    parts.append(lowered[pos:])
    return "".join(parts)


def decide(reading: Reading, qtype: str) -> ParsedAnswer:
    """Rules 13–14: one asserted option (single) or a set (multi); otherwise why not."""
    if reading.verdict is not None:
        return abstain(reading.verdict)
    asserted, negated = reading.asserted, reading.negated
    if asserted & negated:
        return abstain("ambiguous")
    if not asserted:
        return abstain("negated" if negated else "no_answer")
    if qtype == "multi":
        return abstain("ambiguous") if reading.alternatives else \
            ParsedAnswer(sorted(asserted), False)
    return one_choice(next(iter(asserted))) if len(asserted) == 1 else \
        abstain("ambiguous")


def restated(text: str, ix: OptionSet) -> tuple[int, int] | None:
    """The span of a restated option list (two or more lines ``X. its own text``), or None."""
    if "\n" not in text:
        return None
    # (a match is one line: the pattern is matched at each line start, not searched)
    lines = [m for m in matches_at(_RESTATED, text, line_starts(text), _RESTATED_OPENS)
             if m.group(1) in ix.keys and phrase_tokens(m.group(2))[0] == ix.words[m.group(1)]]
    if len(lines) < 2:
        return None
    return lines[0].start(), lines[-1].end()


# Where CLAUSE_END's punctuation ends a clause: one of these characters, or an arrow ``->``
# ``=>``. Found with ``str.find`` (see :func:`_punct_ends`).
_PUNCT_CHARS: Final = ".;,!?\n\u2192"
_ARROWS: Final[tuple[str, ...]] = ("->", "=>")
_LONE_DOT: Final = re.compile(r"[A-Z]\.(?<![^\W\d_][A-Z]\.)")
_DASH: Final = re.compile(r"\s[\u2014\u2013-]+\s")


def _punct_ends(lowered: str) -> list[int]:
    r"""Where each clause-ending punctuation mark or arrow of ``lowered`` ends, sorted.

    The ends of ``[.;,!?\n\u2192]|[=-]>``'s matches, found with ``str.find``: a pattern's
    search tests a character class at every character and builds a match object for each of
    the dozens of marks of a long response (a fifth of a long response's reading); ``find``
    skips to each mark in C. No two matches can overlap (a mark is one character; an arrow's
    ``>`` is no mark), so the positions are those of the pattern's ``finditer``.
    """
    ends = [i + 1 for i in positions_of(lowered, _PUNCT_CHARS)]
    if ">" in lowered:
        for arrow in _ARROWS:
            i = lowered.find(arrow)
            while i >= 0:
                ends.append(i + 2)
                i = lowered.find(arrow, i + 2)
    ends.sort()
    return ends


def _clause_ends(text: str, lowered: str, words: set[str], ix: OptionSet) -> list[int]:
    """Where clauses end (:data:`~._cues.CLAUSE_END`), sorted; each pattern runs only when cued.

    "A. Left": the period after a lone option letter ends no clause.
    """
    ends = _punct_ends(lowered)
    if "." in lowered and _LONE_DOT.search(text) is not None:
        ends = [e for e in ends if not _letter_dot(text, e, ix)]
    if "vs." in lowered:  # an abbreviation's period: "X vs. Y" is one clause
        ends = [e for e in ends if not lowered.endswith("vs.", 0, e)]
    if "," in lowered and not LIST_NEGATIONS.isdisjoint(words):
        lists = negated_lists(lowered)  # "no mass, calcification, or distortion"
        if lists:
            ends = [e for e in ends if not (lowered[e - 1] == "," and any(
                a < e <= b for a, b in lists))]
    extra = []
    if holds_dash(lowered):
        extra += [m.end() for m in _DASH.finditer(lowered)]
    for word in words & CLAUSE_WORDS:
        if word == "but" and "anything" in words:  # "anything but X" negates X (rule 16)
            extra += [e for e in whole_word_ends(lowered, word)
                      if _ANYTHING_BUT.search(lowered, max(0, e - 24), e) is None]
        else:
            extra += whole_word_ends(lowered, word)
    return sorted(ends + extra) if extra else ends


def _next_end(ends: list[int], masked: str, end: int) -> int:
    """The clause end after ``end`` once the punctuation right after it is skipped."""
    j = end
    while j < len(masked) and masked[j] in " .):]*\t":
        j += 1
    i = bisect_right(ends, j)
    return ends[i] if i < len(ends) else len(masked)


def _letter_dot(text: str, end: int, ix: OptionSet) -> bool:
    """The clause end just before ``end`` is the period of a lone option letter (``A.``)."""
    return (end >= 2 and text[end - 1] == "." and text[end - 2] in ix.keys
            and (end == 2 or not text[end - 3].isalnum()))
