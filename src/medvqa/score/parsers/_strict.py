"""``strict``: the default parser. It reads the answer forms models commonly use and abstains
rather than guess.

Accepted (case-insensitive where sensible): a bare letter with optional markup or punctuation
(``B``, ``(B)``, ``B.``, ``**B**``, ``[B]``, ``B)``); ``Answer: B``; ``The answer is B``; ``B: Right``
or ``B. Right``; an exact option text (``Right``, ``right.``); LMOD's ``FIELD; Explanation: …``
forms (``GLAUCOMA; …``, ``Stage: 3; …``, ``Answer: Mass; …``) by their leading field; yes/no
phrasings (``Yes.``, ``No, there is …``, ``True``) for yes/no questions; several letters or texts
for multiple choice (``A, C``, ``A and C``). Otherwise an option is *named* when its letter appears
as ``(B)``/``option B``/``answer is B`` or its text appears as a whole phrase; exactly one named
option is chosen. No option, two different options (single choice), or a refusal → invalid.

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
_BARE = re.compile(r"^[\s(\[{<]*([A-Za-z])[\s)\]}>.:,;!]*$")
_ANSWER_IS = re.compile(
    r"^(?:the\s+)?(?:final\s+|correct\s+|best\s+)?(?:answer|option|choice)\s*(?:is|:|=|-)?\s*"
    r"(?:option\s+)?[(\[]?([A-Za-z])(?![A-Za-z])[)\]]?\s*[.:)]?\s*(.*)$",
    re.IGNORECASE | re.DOTALL,
)
_LETTER_TEXT = re.compile(r"^[(\[]?([A-Z])[)\]]?\s*[:.)\-]\s+(.+)$", re.DOTALL)
_FIELD = re.compile(r"^(?:answer|stage|grade|diagnosis|type|level)\s*[:=]\s*(.+)$", re.IGNORECASE)
_NAMED_LETTER = re.compile(
    r"\(([A-Z])\)|\boption\s+([A-Z])\b|\banswer\s+is\s+\(?([A-Z])\b|\bchoice\s+([A-Z])\b"
)
_SPLIT_MULTI = re.compile(r"\s*(?:,|;|/|\band\b|&|\s)\s*", re.IGNORECASE)
_ANSWERS_ARE = re.compile(r"^(?:the\s+)?(?:correct\s+)?answers?\s*(?:are|is|:)\s*", re.I)
_PUNCT_END = re.compile(r"[\s.!,;:]+$")
_REFUSAL = re.compile(
    r"\b(?:i\s*(?:am|'m)\s+(?:sorry|unable|not able)|i\s+can(?:not|'t|\s+not)|unable\s+to"
    r"|not\s+possible\s+to|cannot\s+(?:be\s+)?determin|can't\s+(?:be\s+)?determin"
    r"|i\s+do(?:\s+not|n't)\s+know|insufficient\s+(?:information|evidence)"
    r"|as\s+an\s+ai|not\s+able\s+to\s+(?:see|view|determine))",
    re.IGNORECASE,
)
_YES = {"yes", "true", "y", "correct", "present", "positive"}
_NO = {"no", "false", "n", "incorrect", "absent", "negative"}


def _clean(text: str) -> str:
    return _PUNCT_END.sub("", _MARKUP.sub("", text).strip())


_Phrases = list[tuple[str, str, "re.Pattern[str]"]]


@lru_cache(maxsize=4096)
def _index(items: tuple[tuple[str, str], ...]) -> tuple[dict[str, str], _Phrases]:
    """Per option set, computed once: cleaned text → letter, and whole-phrase patterns."""
    by_text = {_clean(v).lower(): k for k, v in items}
    phrases = [(k, p, re.compile(rf"(?<!\w){re.escape(p)}(?!\w)"))
               for k, v in items if (p := _clean(v).lower())]
    return by_text, phrases


class StrictParser:
    """The honest default: never guesses, reports abstentions as invalid."""

    style = "strict"

    def parse(self, response: str, options: dict[str, str], question_type: str) -> ParsedAnswer:
        """Parse one response; see the module docstring for the accepted forms."""
        if not isinstance(response, str) or not options:
            return INVALID
        fast = response.strip()
        if fast in options and question_type != "multi":
            return ParsedAnswer(fast, False)
        text = _MARKUP.sub("", fast).strip()
        if not text:
            return INVALID
        if question_type == "multi":
            return self._multi(text, options)
        head = re.split(r"[;\n]", text, maxsplit=1)[0].strip()
        for candidate in dict.fromkeys((head, text)):
            got = self._leading(candidate, options, question_type)
            if got is not None:
                return ParsedAnswer(got, False) if got else INVALID
        if _REFUSAL.search(text):
            return INVALID
        named = self._named(text, options)
        return ParsedAnswer(named.pop(), False) if len(named) == 1 else INVALID

    def _leading(self, text: str, options: dict[str, str], qtype: str) -> str | None:
        """A letter from a whole-response form; '' for a form that names a non-option."""
        if m := _BARE.match(text):
            letter = m.group(1).upper()
            return letter if letter in options else ""
        if m := _ANSWER_IS.match(text):
            letter, rest = m.group(1).upper(), _clean(m.group(2))
            if letter in options:
                return letter if not rest or self._text_agrees(rest, letter, options) else ""
        if m := _LETTER_TEXT.match(text):
            letter = m.group(1)
            if letter in options:
                return letter if self._text_agrees(_clean(m.group(2)), letter, options) else ""
        if m := _FIELD.match(text):
            text = m.group(1)
        cleaned = _clean(text).lower()
        by_text = self._by_text(options)
        if cleaned in by_text:
            return by_text[cleaned]
        if qtype == "yesno":
            return self._yes_no(cleaned, options)
        return None

    @staticmethod
    def _by_text(options: dict[str, str]) -> dict[str, str]:
        return _index(tuple(options.items()))[0]

    def _text_agrees(self, rest: str, letter: str, options: dict[str, str]) -> bool:
        """``B: Right`` counts for B unless the text names a different option."""
        other = self._by_text(options).get(rest.lower())
        return other is None or other == letter

    def _yes_no(self, cleaned: str, options: dict[str, str]) -> str | None:
        first = re.split(r"[\s,.;:!]+", cleaned, maxsplit=1)[0]
        polarity = "yes" if first in _YES else "no" if first in _NO else None
        if polarity is None:
            return None
        for letter, text in options.items():
            if _clean(text).lower() == polarity:
                return letter
        return None

    def _named(self, text: str, options: dict[str, str]) -> set[str]:
        named = {next(g for g in m.groups() if g) for m in _NAMED_LETTER.finditer(text)}
        named &= set(options)
        lowered = text.lower()
        hits = [(letter, phrase) for letter, phrase, pattern in _index(tuple(options.items()))[1]
                if pattern.search(lowered)]
        # "benign lung tissue" also contains "lung tissue": keep only the longest phrases.
        for letter, phrase in hits:
            if not any(phrase != p and phrase in p for _, p in hits):
                named.add(letter)
        return named

    def _multi(self, text: str, options: dict[str, str]) -> ParsedAnswer:
        if _REFUSAL.search(text):
            return INVALID
        head = re.split(r"[;\n]", text, maxsplit=1)[0]
        if m := _FIELD.match(head):
            head = m.group(1)
        head = _ANSWERS_ARE.sub("", head)
        by_text = self._by_text(options)
        by_text_phrases = [p.strip() for p in re.split(r"\s*(?:,|;|\band\b)\s*", _clean(head))]
        if by_text_phrases and all(p.lower() in by_text for p in by_text_phrases if p):
            letters = {by_text[p.lower()] for p in by_text_phrases if p}
            return ParsedAnswer(sorted(letters), False) if letters else INVALID
        tokens = [t for t in _SPLIT_MULTI.split(_clean(head)) if t]
        letters = set()
        for token in tokens:
            t = token.strip("()[]{}.:")
            if len(t) == 1 and t.upper() in options:
                letters.add(t.upper())
            else:
                return INVALID
        return ParsedAnswer(sorted(letters), False) if letters else INVALID
