r"""The strict parser's fast path: a plain sentence that names options and nothing else.

Most explaining responses are one plain sentence that names one option ("Based on the glands
in field 9, this is most consistent with adenocarcinoma."). For such a sentence every rule but
the option texts (rules 11–12) is idle, because each rule is cued by a word or a character that
is not there. :func:`quick_read` checks that no cue is present and then reads the option texts;
otherwise it returns None and the full reading runs. It never decides differently from the full
reading (a property test compares the two); it only decides sooner.

The cues looked for: a non-ASCII character (other languages, symbols, reasoning tags), a
structural character (``< { [ ( | \ : " * _ ` # > ?`` or a line break: tags, JSON, boxes,
tables, brackets, Markdown, questions), a capital letter standing alone (any letter position),
a text of 48 characters or fewer (letters-only answers; those are memoised anyway), a response
starting with "I" ("I'm not sure, but …"), and a word of any cue list: refusals, hedges,
negations, discussed or conceded mentions, answer markers, letter keywords.
"""

from __future__ import annotations

import re

from medvqa.score.parsers._base import ParsedAnswer, abstain
from medvqa.score.parsers._cues import (
    DISCUSSED_WORDS,
    HEDGE_TRIGGERS,
    NEG_STARTS,
    NEG_WORDS,
    REFUSAL_TRIGGERS,
    WORD,
    may_start_negation,
)
from medvqa.score.parsers._variants import PhraseIndex

__all__ = ["quick_read"]

_STRUCTURE = frozenset('<>{}[]()|\\\n:"*_`#?')
_CUE_WORDS = frozenset(
    REFUSAL_TRIGGERS | HEDGE_TRIGGERS | NEG_WORDS | DISCUSSED_WORDS
    | {"although", "though", "despite", "albeit", "excluded", "eliminated", "improbable",
       "ruled", "out", "answer", "answers", "option", "options", "choice", "choices", "letter",
       "therefore", "thus", "hence", "both", "selection", "diagnosis", "choose", "pick",
       "select", "favour", "favor", "say", "go", "going", "opt", "respuesta", "resposta",
       "risposta", "reponse", "antwort", "it's", "doubt"})
def _has_structure(text: str) -> bool:
    """Whether ``text`` holds a character of :data:`_STRUCTURE` (substring tests: faster)."""
    return ("<" in text or ">" in text or "{" in text or "}" in text or "[" in text
            or "]" in text or "(" in text or ")" in text or "|" in text or "\\" in text
            or "\n" in text or ":" in text or '"' in text or "*" in text or "_" in text
            or "`" in text or "#" in text or "?" in text)


_LONE_CAPITAL = re.compile(r"[A-Z](?<![A-Za-z0-9][A-Z])(?![A-Za-z0-9])")
_SHORT = 48


def quick_read(text: str, phrases: PhraseIndex) -> ParsedAnswer | None:
    """The reading of a plain single-choice sentence, or None when any rule may be cued.

    Args:
        text: the stripped, trace-free response.
        phrases: the option set's phrase index.
    """
    if len(text) <= _SHORT or not text.isascii() or text[0] in "iI":
        return None
    if _has_structure(text) or _LONE_CAPITAL.search(text) is not None:
        return None
    lowered = text.lower()
    if "n't" in lowered or "it is" in lowered:
        return None
    # Cue words are looked for in the whole text, option texts included: a cue inside an
    # option text only sends the response to the full reading.
    words = set(WORD.findall(lowered))
    if not words.isdisjoint(_CUE_WORDS) or (may_start_negation(lowered) and any(
            w.startswith(NEG_STARTS) for w in words)):
        return None
    spans = phrases.find(text, lowered)
    named = {letter for _, _, who in spans for letter in who}
    if not named:
        return abstain("no_answer")
    return ParsedAnswer(named.pop(), False) if len(named) == 1 else abstain("ambiguous")
