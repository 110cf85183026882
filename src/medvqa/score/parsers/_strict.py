"""``strict``: the default parser. It reads the forms models commonly use and never guesses.

Rules, applied in this order (each is a row family of the decision table in
``tests/score/test_parsers_strict_table.py``):

1. Not text, or no options → invalid.
2. Markdown is dropped (``*``, ``_``, backticks, heading ``#``, quote ``>``); curly quotes become
   straight ones. A leading "I cannot say for sure, but" / "I'm not sure, but" is dropped: the
   answer after *but* is read (a hedge that goes on to commit).
3. LMOD's ``FIELD; Explanation: …`` form: only the text before ``Explanation:`` (also
   ``Reasoning:``, ``Rationale:``, ``Reason:``) is read for the answer.
4. Refusals are invalid for **every** question type, yes/no included: "I cannot determine…",
   "No image was provided", "No idea", "No way to tell", "I don't know", "unable to…",
   "insufficient information", "as an AI…" (:data:`~._cues.REFUSAL`). Option texts are blanked
   before this check, so an option called "Cannot be assessed" can still be chosen.
5. Hedges are invalid: "maybe", "perhaps", "possibly", "either", "could be", "might be",
   "not sure", "hard to say", "I doubt" … (:data:`~._cues.HEDGE`).
6. An option is *mentioned* by its letter only in letter positions — the whole response is a
   letter or a list of letters (``B``, ``(B)``, ``B.``, ``[B]``, ``A, C``, ``A; C``, ``A/C``,
   ``A and C``, optionally after ``Answer:``); ``(B)`` or ``[B]`` anywhere; after ``answer``,
   ``option``, ``choice`` or ``letter`` (``The correct answer is: B``, ``option b``); or at the
   start of a line as ``B:``, ``B.``, ``B)`` (``B: Normal``, ``- A: Mass``). A capital ``A`` or
   ``I`` followed by an ordinary word is an article or pronoun, not a letter. By its text an
   option is mentioned where its text occurs as a whole phrase (a hyphenated compound is one
   word); where option texts overlap, the longest one at a place wins, so "Fatty-glandular or
   Fatty" mentions two options.
7. Yes/no items (the options' texts are yes and no): the words yes/no/true/false count only as
   the first word of the answer (after ``Answer:`` / ``The answer is``) followed by the end or
   punctuation ("Yes.", "No, there is …", "**No**"); a "no" elsewhere ("There is no mass") is
   not an answer.
8. A mention is *negated* when its clause (text between ``. ; , ! ?``, new lines, *but*,
   *however* …) has a negation before it ("not", "no", "without", "non-", "ruled out",
   "rather than", "unlikely", "wrong" …) or right after it ("… is ruled out", "… can be
   excluded", "… is unlikely", "… is incorrect"). A negated option is never chosen, and an
   option that is both asserted and negated makes the response invalid.
9. Single choice, yes/no, grade: exactly one option asserted → it; none, or two different
   options (however their texts overlap, in any order, "B or C") → invalid.
10. Multiple choice: the set of asserted options (``Mass; Miscellaneous``, ``A, C``,
    ``B: Normal``); none → invalid; alternatives joined by "or" → invalid.

Speed: per-option-set tables (one combined phrase pattern) are cached by the options, and the
results of short responses, which repeat verbatim across items, are memoised.

Source: the project's own honest default (REFERENCE_SCORING.md, "Strict style"); the
accuracy-over-valid-responses figure it enables follows the oncology paper (seed 003).

>>> p = StrictParser()
>>> p.parse("**B**", {"A": "Left", "B": "Right"}, "single")
ParsedAnswer(choice='B', invalid=False)
>>> p.parse("Left is ruled out.", {"A": "Left", "B": "Right"}, "single")
ParsedAnswer(choice=None, invalid=True)
>>> p.parse("No image was provided.", {"A": "Yes", "B": "No"}, "yesno")
ParsedAnswer(choice=None, invalid=True)
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from medvqa.score.parsers._base import INVALID, ParsedAnswer
from medvqa.score.parsers._cues import (
    CLAUSE_PUNCT,
    CLAUSE_WORDS,
    EXPLANATION,
    HEDGE_BUT,
    NEG_AFTER,
    NEG_AFTER_VERB,
    NEG_BEFORE,
    NEG_STARTS,
    NEG_WORDS,
    NO_WORDS,
    REFUSAL,
    WORD,
    YES_WORDS,
    hedges,
    refuses,
)

__all__ = ["REFUSAL", "StrictParser", "clear_memo"]

_MARKUP = re.compile(r"[*_`]+|^[ \t]*(?:#+|>+)[ \t]*", re.MULTILINE)
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
_LEAD = (r"(?:(?:the\s+)?(?:final\s+|correct\s+|best\s+|right\s+)?(?:answers?|options?|choices?)"
         r"\s*(?:is|are|would\s+be|:|=|-)?\s*:?\s*)")
_ONE = r"[(\[]?[A-Za-z][)\]]?"
_SEP = r"(?:\s*(?:,|;|/|&|\+|\band\b|\n)\s*|\s+)"
# The whole response is letters: "B", "(B).", "Answer: A, C", "The answers are A and C".
_ONLY_LETTERS = re.compile(rf"^\s*{_LEAD}?(?:option\s+|choice\s+)?({_ONE}(?:{_SEP}{_ONE})*)"
                           r"[\s.!:;,]*$", re.IGNORECASE)
_LETTER = re.compile(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])")
# Letters named inside text.
_P_PAREN = r"[(\[](?P<p>[A-Z])[)\]]"
_P_KEY = (r"(?i:\b(?:answers?|options?|choices?|letter)\s*(?:is|are|would\s+be|:|=|-|#)?\s*:?\s*"
          r"(?:not\s+)?(?:option\s+|choice\s+)?)[(\[]?(?P<k>[A-Za-z])[)\]]?(?![\w-])")
_P_LINE = r"^[ \t]*(?:[-*\u2022][ \t]*|\d+[.)][ \t]*)?(?P<l>[A-Z])[.):](?=\s|$)"
_IN_TEXT = re.compile(f"{_P_PAREN}|{_P_KEY}|{_P_LINE}", re.MULTILINE)
# Each letter position alone, run only when its literal cue is in the text.
_PAREN, _KEY, _LINE = (re.compile(p, re.MULTILINE) for p in (_P_PAREN, _P_KEY, _P_LINE))
_KEYWORDS = ("answer", "option", "choice", "letter")
_LINE_START = re.compile(r"(?:[-*\u2022]\s*|\d+[.)]\s*)?[A-Z][.):]")
_ARTICLE = re.compile(r"\s+[a-z]{2,}")
_NOT_ARTICLE = frozenset({"and", "or", "because", "since", "as", "is", "was", "with", "for",
                          "but", "which", "given", "due", "seems", "appears", "would"})
_YN_HEAD = re.compile(rf"^\s*{_LEAD}?(yes|no|true|false)(?=$|\s*[.,;:!)\-\u2014])",
                      re.IGNORECASE)
_YN_BOTH = re.compile(r"\b(yes|no|true|false)[\s,/]*(?:or\b)?[\s,/]*(?!\1\b)"
                      r"(?:yes|no|true|false)\b")
_OR = re.compile(r"\bor\b|\beither\b", re.IGNORECASE)
_MEMO: dict[tuple[str, str, tuple[tuple[str, str], ...]], ParsedAnswer] = {}
_MEMO_SIZE = 1 << 15
_MEMO_LEN = 64


class _OptionSet:
    """Per option set, computed once: letters, the phrase pattern, the yes and no letters."""

    __slots__ = ("by_length", "keys", "no", "owner", "pattern", "yes", "yesno")

    def __init__(self, items: tuple[tuple[str, str], ...]):
        self.keys = frozenset(k for k, _ in items)
        texts = [(k, " ".join(_MARKUP.sub("", v).lower().split()).rstrip(".")) for k, v in items]
        self.yes = next((k for k, t in texts if t == "yes"), None)
        self.no = next((k for k, t in texts if t == "no"), None)
        self.yesno = self.yes is not None and self.no is not None
        owner: dict[str, set[str]] = {}
        for k, t in texts:
            # Yes/no words are read only at the start of the answer (rule 7).
            if t and not (self.yesno and t in ("yes", "no")):
                owner.setdefault(t, set()).add(k)
        self.owner = owner
        phrases = sorted(owner, key=len, reverse=True)
        self.by_length = phrases
        self.pattern = (re.compile("(?<![\\w-])(?:" + "|".join(map(re.escape, phrases))
                                   + ")(?![\\w-])") if phrases else None)


@lru_cache(maxsize=4096)
def _index(items: tuple[tuple[str, str], ...]) -> _OptionSet:
    return _OptionSet(items)


def clear_memo() -> None:
    """Forget remembered results and option sets (benchmarks start cold with it)."""
    _MEMO.clear()
    _index.cache_clear()


class StrictParser:
    """The honest default: never guesses, reports abstentions as invalid."""

    style = "strict"
    compares_text = False

    def parse(self, response: str, options: dict[str, str], question_type: str) -> ParsedAnswer:
        """Parse one response; see the module docstring for the rules."""
        if not isinstance(response, str) or not options:
            return INVALID
        fast = response.strip()
        if fast in options:
            return ParsedAnswer([fast] if question_type == "multi" else fast, False)
        items = tuple(options.items())
        if len(fast) > _MEMO_LEN:
            return _parse(fast, question_type, _index(items))
        key = (fast, question_type, items)
        got = _MEMO.get(key)
        if got is None:
            got = _parse(fast, question_type, _index(items))
            # Full: keep what is there (the forms that repeat come early) and stop adding.
            if len(_MEMO) < _MEMO_SIZE:
                _MEMO[key] = got
        return got


def _parse(text: str, qtype: str, ix: _OptionSet) -> ParsedAnswer:
    if not text.isascii():
        text = text.translate(_QUOTES)
    if "*" in text or "_" in text or "`" in text or "#" in text or ">" in text:
        text = _MARKUP.sub("", text).strip()
    if text[:1] in "iI" and (m := HEDGE_BUT.match(text)):
        text = text[m.end():]
    lowered = text.lower()
    if len(lowered) != len(text):  # a character whose lower case is longer (İ): keep it
        lowered = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    spans = _phrases(lowered, ix)
    masked = lowered
    for start, end, _ in reversed(spans):
        masked = masked[:start] + " " * (end - start) + masked[end:]
    words = set(WORD.findall(masked))
    if not text or refuses(masked, words) or hedges(masked, words):
        return INVALID
    cut = (EXPLANATION.search(text) if ":" in text and (
        "expla" in lowered or "reason" in lowered or "rational" in lowered) else None)
    if cut is not None and cut.start() > 0:
        text, lowered, masked = text[:cut.start()], lowered[:cut.start()], masked[:cut.start()]
        spans = [s for s in spans if s[1] <= cut.start()]
    multi = qtype == "multi"
    only = _ONLY_LETTERS.match(text)
    if only is not None:
        letters = {c.upper() for c in _LETTER.findall(only.group(1))}
        if letters <= ix.keys and (multi or len(letters) == 1):
            return ParsedAnswer(sorted(letters) if multi else letters.pop(), False)
        return INVALID
    clause = _clause_ends(frozenset(words & CLAUSE_WORDS))
    # "A. Left": the period after a lone option letter ends no clause.
    ends = [e for m in clause.finditer(lowered) if not _letter_dot(text, e := m.end(), ix)]
    may_negate = (not NEG_WORDS.isdisjoint(words) or "n't" in masked
                  or any(w in masked for w in NEG_STARTS))
    asserted: set[str] = set()
    negated: set[str] = set()

    def mention(letters: set[str], start: int, end: int) -> None:
        i = bisect_right(ends, start)
        begin = ends[i - 1] if i else 0
        stop = ends[i] if i < len(ends) else len(lowered)
        neg = may_negate and NEG_BEFORE.search(masked, begin, start) is not None or (
            NEG_AFTER.match(masked[end:stop]) is not None) or (
            ("." in masked[end:end + 3] or ":" in masked[end:end + 3])
            and NEG_AFTER_VERB.match(masked[end:_next_end(ends, masked, end)]) is not None)
        (negated if neg else asserted).update(letters)

    for start, end, phrase in spans:
        mention(ix.owner[phrase], start, end)
    for m in _letter_positions(text, lowered):
        group = m.lastgroup or ""
        letter = m.group(group)
        if group == "k" and (letter.islower() and not _ends_clause(text, m.end())
                             or letter in "AI" and _is_word_after(text, m.end())):
            continue
        if letter.upper() in ix.keys:
            mention({letter.upper()}, m.start(group), m.end(group))
        elif group == "k":
            return INVALID  # "The answer is E" with options A–D
    if ix.yesno and _YN_BOTH.search(masked):
        return INVALID
    if ix.yesno and (yn := _YN_HEAD.match(text)) is not None:
        word = yn.group(1).lower()
        letter = ix.yes if word in YES_WORDS else ix.no if word in NO_WORDS else None
        if letter is not None:
            mention({letter}, yn.start(1), yn.end(1))
    if asserted & negated or not asserted:
        return INVALID
    if multi:
        if len(asserted) > 1 and _OR.search(masked):
            return INVALID
        return ParsedAnswer(sorted(asserted), False)
    return ParsedAnswer(asserted.pop(), False) if len(asserted) == 1 else INVALID


@lru_cache(maxsize=128)
def _clause_ends(present: frozenset[str]) -> re.Pattern[str]:
    """:data:`~._cues.CLAUSE_END` restricted to the conjunctions present (same ends)."""
    if not present:
        return CLAUSE_PUNCT
    return re.compile(r"[.;,!?\n]|\b(?:" + "|".join(sorted(present)) + r")\b", re.IGNORECASE)


def _letter_positions(text: str, lowered: str) -> list[re.Match[str]]:
    """Matches of the three letter positions (:data:`_IN_TEXT`), each only where cued.

    A bracket cues ``(B)``, a keyword cues ``answer is B``, a line start cues ``B: …``.
    """
    out: list[re.Match[str]] = []
    if "(" in text or "[" in text:
        out += _PAREN.finditer(text)
    if any(k in lowered for k in _KEYWORDS):
        out += _KEY.finditer(text)
    if "\n" in text or _LINE_START.match(text) is not None:
        out += _LINE.finditer(text)
    return out


def _phrases(lowered: str, ix: _OptionSet) -> list[tuple[int, int, str]]:
    """Whole-phrase option mentions (start, end, phrase), left to right, longest first.

    The same matches as ``ix.pattern.finditer`` (kept as the definition), found with
    ``str.find`` for the few phrases that occur at all: most responses name one or two.
    """
    present = [p for p in ix.by_length if p in lowered]
    if not present or ix.pattern is None:
        return []
    if len(present) > 1:
        return [(m.start(), m.end(), m.group()) for m in ix.pattern.finditer(lowered)]
    phrase = present[0]
    out = []
    n, i = len(phrase), lowered.find(phrase)
    while i >= 0:
        before = lowered[i - 1] if i else " "
        after = lowered[i + n] if i + n < len(lowered) else " "
        if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-"):
            out.append((i, i + n, phrase))
            i = lowered.find(phrase, i + n)
        else:
            i = lowered.find(phrase, i + 1)
    return out


def _next_end(ends: list[int], masked: str, end: int) -> int:
    """The clause end after ``end`` once the punctuation right after it is skipped."""
    j = end
    while j < len(masked) and masked[j] in " .):]*\t":
        j += 1
    i = bisect_right(ends, j)
    return ends[i] if i < len(ends) else len(masked)


def _letter_dot(text: str, end: int, ix: _OptionSet) -> bool:
    """The clause end just before ``end`` is the period of a lone option letter (``A.``)."""
    return (end >= 2 and text[end - 1] == "." and text[end - 2] in ix.keys
            and (end == 2 or not text[end - 3].isalnum()))


def _ends_clause(text: str, pos: int) -> bool:
    """True when only punctuation or white space up to a clause end follows ``pos``."""
    rest = text[pos:pos + 3]
    return not rest.strip() or rest.lstrip()[0] in ".,;:!?)\n"


def _is_word_after(text: str, pos: int) -> bool:
    """``A mass`` / ``I think``: an ordinary lower-case word follows the capital."""
    m = _ARTICLE.match(text, pos)
    return m is not None and m.group().strip() not in _NOT_ARTICLE
