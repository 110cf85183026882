"""``strict``: the default parser; it reads the forms models commonly use and never guesses.

Accepted (case-insensitive where sensible): a bare letter with optional markup or punctuation
(``B``, ``(B)``, ``B.``, ``**B**``, ``[B]``, ``B)``); ``Answer: B``; ``The answer is B``;
``B: Right`` or ``B. Right``; an exact option text (``Right``, ``right.``); LMOD's
``FIELD; Explanation: …`` forms (``GLAUCOMA; …``, ``Stage: 3; …``, ``Answer: Mass; …``) by their
leading field; yes/no phrasings (``Yes.``, ``No, there is …``, ``True``) for yes/no questions;
several letters or texts for multiple choice (``A, C``, ``A and C``). Otherwise an option is
*named* when its letter appears as ``(B)``/``option B``/``answer is B`` or its text appears as a
whole phrase; exactly one named option is chosen. No option, two different options (single
choice), or a refusal → invalid.

Speed (same decisions): one combined regex pass for the whole-response forms, per-option-set
tables cached by the options, literal pre-checks before each search, and a bounded memo of
short responses, which repeat verbatim across items.

Source: the project's own honest default (REFERENCE_SCORING.md, "Strict style"); the
accuracy-over-valid-responses figure it enables follows the oncology paper (seed 003).

>>> p = StrictParser()
>>> p.parse("**B**", {"A": "Left", "B": "Right"}, "single")
ParsedAnswer(choice='B', invalid=False)
>>> p.parse("Left or right, hard to say", {"A": "Left", "B": "Right"}, "single")
ParsedAnswer(choice=None, invalid=True)
"""

from __future__ import annotations

import re
from functools import lru_cache

from medvqa.score.parsers._base import INVALID, ParsedAnswer

_MARKUP = re.compile(r"[*_`]+")
# The whole-response forms, tried in this order; each form's pattern is also compiled alone for
# the rare case where an earlier form matches but names no option and the next must be tried.
_P_BARE = r"^[\s(\[{<]*(?P<b>[A-Za-z])[\s)\]}>.:,;!]*$"
_P_ANSWER_IS = (
    r"(?is:^(?:the\s+)?(?:final\s+|correct\s+|best\s+)?(?:answer|option|choice)\s*(?:is|:|=|-)?\s*"
    r"(?:option\s+)?[(\[]?(?P<a>[A-Za-z])(?![A-Za-z])[)\]]?\s*[.:)]?\s*(?P<ar>.*)$)"
)
_P_LETTER_TEXT = r"(?s:^[(\[]?(?P<l>[A-Z])[)\]]?\s*[:.)\-]\s+(?P<lr>.+)$)"
_P_FIELD = r"(?i:^(?:answer|stage|grade|diagnosis|type|level)\s*[:=]\s*(?P<f>.+)$)"
_LEAD = re.compile(f"(?P<bare>{_P_BARE})|(?P<ans>{_P_ANSWER_IS})|(?P<lt>{_P_LETTER_TEXT})"
                   f"|(?P<field>{_P_FIELD})")
_AFTER_ANSWER_IS = re.compile(f"(?P<lt>{_P_LETTER_TEXT})|(?P<field>{_P_FIELD})")
_FIELD = re.compile(f"(?P<field>{_P_FIELD})")
_NAMED_LETTER = re.compile(
    r"\(([A-Z])\)|\boption\s+([A-Z])\b|\banswer\s+is\s+\(?([A-Z])\b|\bchoice\s+([A-Z])\b"
)
_HEAD = re.compile(r"[;\n]")
_YES_NO_WORD = re.compile(r"[\s,.;:!]+")
_SPLIT_MULTI = re.compile(r"\s*(?:,|;|/|\band\b|&|\s)\s*", re.IGNORECASE)
_SPLIT_TEXTS = re.compile(r"\s*(?:,|;|\band\b)\s*")
_ANSWERS_ARE = re.compile(r"^(?:the\s+)?(?:correct\s+)?answers?\s*(?:are|is|:)\s*", re.I)
# What `[\s.!,;:]+$` removes: regex `\s` is str.isspace, and no such character lies above U+3000.
_END = "".join(c for c in map(chr, range(0x3001)) if c.isspace()) + ".!,;:"
_REFUSAL = re.compile(
    r"\b(?:i\s*(?:am|'m)\s+(?:sorry|unable|not able)|i\s+can(?:not|'t|\s+not)|unable\s+to"
    r"|not\s+possible\s+to|cannot\s+(?:be\s+)?determin|can't\s+(?:be\s+)?determin"
    r"|i\s+do(?:\s+not|n't)\s+know|insufficient\s+(?:information|evidence)"
    r"|as\s+an\s+ai|not\s+able\s+to\s+(?:see|view|determine))",
    re.IGNORECASE,
)
_YES = {"yes", "true", "y", "correct", "present", "positive"}
_NO = {"no", "false", "n", "incorrect", "absent", "negative"}
# Short responses repeat verbatim across items ("B", "Answer: B"): their results are kept.
_MEMO: dict[tuple[str, str, tuple[tuple[str, str], ...]], ParsedAnswer] = {}
_MEMO_SIZE = 1 << 15
_MEMO_LEN = 64


def _clean(text: str) -> str:
    """Drop markup, surrounding white space and trailing punctuation."""
    return _MARKUP.sub("", text).strip().rstrip(_END)


def _trim(text: str) -> str:
    """:func:`_clean` for text already free of markup."""
    return text.strip().rstrip(_END)


class _OptionSet:
    """Per option set, computed once: what every parse against it looks up.

    Keys, cleaned text → letter, whole-phrase patterns, the first letter whose text is "yes"
    and the first whose text is "no".
    """

    __slots__ = ("by_text", "keys", "no", "phrases", "yes")

    def __init__(self, items: tuple[tuple[str, str], ...]):
        cleaned = [(k, _clean(v).lower()) for k, v in items]
        self.keys = frozenset(k for k, _ in items)
        self.by_text = {p: k for k, p in cleaned}  # a repeated text maps to its last letter
        self.phrases = [(k, p, re.compile(rf"(?<!\w){re.escape(p)}(?!\w)"))
                        for k, p in cleaned if p]
        self.yes = next((k for k, p in cleaned if p == "yes"), None)
        self.no = next((k for k, p in cleaned if p == "no"), None)


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
        """Parse one response; see the module docstring for the accepted forms."""
        if not isinstance(response, str) or not options:
            return INVALID
        # Everything below depends on the stripped response only.
        fast = response.strip()
        if question_type == "multi":
            return _multi(fast, _index(tuple(options.items())))
        if fast in options:
            return ParsedAnswer(fast, False)
        items = tuple(options.items())
        if len(fast) > _MEMO_LEN:
            return _single(fast, question_type, _index(items))
        key = (fast, question_type, items)
        got = _MEMO.get(key)
        if got is None:
            if len(_MEMO) >= _MEMO_SIZE:
                _MEMO.clear()
            got = _MEMO[key] = _single(fast, question_type, _index(items))
        return got


def _unmarked(fast: str) -> str:
    if "*" in fast or "_" in fast or "`" in fast:
        return _MARKUP.sub("", fast).strip()
    return fast


def _single(fast: str, qtype: str, ix: _OptionSet) -> ParsedAnswer:
    """Single choice, yes/no, grade: a whole-response form, else exactly one named option."""
    text = _unmarked(fast)
    if not text:
        return INVALID
    head = _HEAD.split(text, maxsplit=1)[0].strip() if ";" in text or "\n" in text else text
    got = _leading(head, ix, qtype)
    if got is None and head != text:
        got = _leading(text, ix, qtype)
    if got is not None:
        return ParsedAnswer(got, False) if got else INVALID
    if _REFUSAL.search(text):
        return INVALID
    named = _named(text, ix)
    return ParsedAnswer(named.pop(), False) if len(named) == 1 else INVALID


def _leading(text: str, ix: _OptionSet, qtype: str) -> str | None:
    """A letter from a whole-response form; '' for a form that names a non-option."""
    m = _LEAD.match(text)
    if m is not None and m.lastgroup == "bare":
        letter = m["b"].upper()
        return letter if letter in ix.keys else ""
    if m is not None and m.lastgroup == "ans":
        letter, rest = m["a"].upper(), _trim(m["ar"])
        if letter in ix.keys:
            return letter if not rest or _text_agrees(rest, letter, ix) else ""
        m = _AFTER_ANSWER_IS.match(text)
    if m is not None and m.lastgroup == "lt":
        letter = m["l"]
        if letter in ix.keys:
            return letter if _text_agrees(_trim(m["lr"]), letter, ix) else ""
        m = _FIELD.match(text)
    if m is not None and m.lastgroup == "field":
        text = m["f"]
    cleaned = _trim(text).lower()
    if cleaned in ix.by_text:
        return ix.by_text[cleaned]
    if qtype == "yesno":
        first = _YES_NO_WORD.split(cleaned, maxsplit=1)[0]
        return ix.yes if first in _YES else ix.no if first in _NO else None
    return None


def _text_agrees(rest: str, letter: str, ix: _OptionSet) -> bool:
    """``B: Right`` counts for B unless the text names a different option."""
    other = ix.by_text.get(rest.lower())
    return other is None or other == letter


def _named(text: str, ix: _OptionSet) -> set[str]:
    """Options named anywhere: ``(B)``/``option B``/``answer is B``, or a whole option phrase."""
    named: set[str] = set()
    # Each letter form needs one of these literals; most sentences have none of them.
    if "(" in text or "option" in text or "answer" in text or "choice" in text:
        named = {next(g for g in m.groups() if g) for m in _NAMED_LETTER.finditer(text)}
        named &= ix.keys
    lowered = text.lower()
    hits = [(letter, phrase) for letter, phrase, pattern in ix.phrases
            if phrase in lowered and pattern.search(lowered)]
    # "benign lung tissue" also contains "lung tissue": keep only the longest phrases.
    for letter, phrase in hits:
        if not any(phrase != p and phrase in p for _, p in hits):
            named.add(letter)
    return named


def _multi(fast: str, ix: _OptionSet) -> ParsedAnswer:
    """Multiple choice: all option texts, or all single letters, else invalid."""
    text = _unmarked(fast)
    if not text or _REFUSAL.search(text):
        return INVALID
    head = _HEAD.split(text, maxsplit=1)[0]
    if m := _FIELD.match(head):
        head = m["f"]
    head = _ANSWERS_ARE.sub("", head)
    phrases = [p.strip() for p in _SPLIT_TEXTS.split(_clean(head))]
    if phrases and all(p.lower() in ix.by_text for p in phrases if p):
        letters = {ix.by_text[p.lower()] for p in phrases if p}
        return ParsedAnswer(sorted(letters), False) if letters else INVALID
    letters = set()
    for token in _SPLIT_MULTI.split(_clean(head)):
        if not token:
            continue
        t = token.strip("()[]{}.:")
        if len(t) == 1 and t.upper() in ix.keys:
            letters.add(t.upper())
        else:
            return INVALID
    return ParsedAnswer(sorted(letters), False) if letters else INVALID
