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

A letter in a marked answer position is read there too, when it is the response's only letter
and the rest of the text is such a plain sentence that names no other option (all of it
asserted, then, and nothing negated, discussed, hedged or revised): the answer lead "The
answer is X." opening the response (the locate step finds that one marker and nothing else),
"X: " opening it (a letter line, rule 9), or "option X" closing it (a letter after a keyword).
The option's letter and what the plain rest names are then the same one option; a rest that
names another option, or a letter that is not an option, goes to the full reading. Beside a
marked letter a colon is allowed in the rest (it only matters next to a capital letter, a
negation or an explanation word, none of which is there) and so are parentheses around
lower-case words that name no option ("(field 9)"; a letter in brackets is a capital).
"""

from __future__ import annotations

import re

from medvqa.score.parsers._base import ParsedAnswer, abstain
from medvqa.score.parsers._cues import (
    DEFERRAL_ASCII,
    DISCUSSED_WORDS,
    HEDGE_TRIGGERS,
    NEG_STARTS,
    NEG_WORDS,
    REFUSAL_TRIGGERS,
    as_bytes,
    may_start_negation,
    word_tokens,
)
from medvqa.score.parsers._reading import OptionSet

__all__ = ["quick_read"]

_STRUCTURE = frozenset('<>{}[]()|\\\n:"*_`#?')
_CUE_WORDS = frozenset(
    REFUSAL_TRIGGERS | HEDGE_TRIGGERS | NEG_WORDS | DISCUSSED_WORDS
    | {"although", "though", "despite", "albeit", "excluded", "eliminated", "improbable",
       "ruled", "out", "answer", "answers", "option", "options", "choice", "choices", "letter",
       "therefore", "thus", "hence", "both", "selection", "diagnosis", "choose", "pick",
       "select", "favour", "favor", "say", "go", "going", "opt", "respuesta", "resposta",
       "risposta", "reponse", "antwort", "it's", "doubt"})
_CUE_BYTES = as_bytes(_CUE_WORDS)
_NEG_START_BYTES = tuple(w.encode() for w in NEG_STARTS)
# A character of _STRUCTURE, or a capital letter standing alone: one search, led by a character
# class (the engine skips the other characters in C). After a structural character the first
# lookbehind holds at once; after a capital the other two test that it stands alone.
_STRUCTURE_OR_CAPITAL = re.compile(
    "[" + re.escape("".join(sorted(_STRUCTURE))) + "A-Z]"
    r"(?:(?<=[^A-Z])|(?<![A-Za-z0-9][A-Z])(?![A-Za-z0-9]))")
_SHORT = 48


# The marked letter positions a quick reading accepts (the letter is group 1).
# After "X." a capital word: "X. coli" (a lower-case word) may be a name (rule 10).
_LEAD_LETTER = re.compile(r"The answer is ([A-Z])\. (?=[A-Z][a-z])")
_HEAD_LETTER = re.compile(r"([A-Z]): (?=[a-z])")
_TAIL_LETTER = re.compile(r" option ([A-Z])\.?$")
# A parenthesis of lower-case words and numbers: no letter position, no option named in it.
_ASIDE = re.compile(r"\([a-z0-9 ,.;-]*\)")
_EXPLAINS = ("expla", "reason", "rational")


def _plain(text: str, lowered: str) -> bool:
    """Whether ``text`` has none of the cues of the module docstring (it is ASCII)."""
    if _STRUCTURE_OR_CAPITAL.search(text) is not None:
        return False
    if "n't" in lowered or "it is" in lowered:
        return False
    # Cue words are looked for in the whole text, option texts included: a cue inside an
    # option text only sends the response to the full reading.
    words = word_tokens(lowered)
    return _CUE_BYTES.isdisjoint(words) and not (may_start_negation(lowered) and any(
        w.startswith(_NEG_START_BYTES) for w in words))


def quick_read(text: str, ix: OptionSet) -> ParsedAnswer | None:
    """The reading of a plain single-choice sentence, or None when any rule may be cued.

    Args:
        text: the stripped, trace-free response.
        ix: the option set (its letters and phrase index).
    """
    if len(text) <= _SHORT or not text.isascii() or text[0] in "iI":
        return None
    m = _TAIL_LETTER.search(text, len(text) - 10) if " option " in text[-10:] else None
    if m is None:
        m = _LEAD_LETTER.match(text) if text[0] == "T" else (
            _HEAD_LETTER.match(text) if text[1] == ":" else None)
    if m is not None:
        return _marked(text, m, ix)
    lowered = text.lower()
    if not _plain(text, lowered):
        return None
    spans = ix.phrases.find(text, lowered)
    named = {letter for _, _, who in spans for letter in who}
    if not named:
        # As the full reading: a response that names nothing and puts its answer off ("let me
        # take a closer look") has not committed; only the others want a reading.
        return abstain("not_committed" if DEFERRAL_ASCII.search(lowered) else "no_answer")
    return ParsedAnswer(named.pop(), False) if len(named) == 1 else abstain("ambiguous")


def _marked(text: str, m: re.Match[str], ix: OptionSet) -> ParsedAnswer | None:
    """The reading of a letter in a marked answer position beside a plain rest, or None."""
    letter = m.group(1)
    if letter not in ix.keys:
        return None
    rest = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    lowered = rest.lower()
    asides = list(_ASIDE.finditer(rest)) if "(" in rest else []
    bare = rest.replace(":", " ")
    for a in asides:
        bare = bare[:a.start()] + " " * (a.end() - a.start()) + bare[a.end():]
    if ":" in rest and any(w in lowered for w in _EXPLAINS):
        return None
    if not _plain(bare, bare.lower()):
        return None
    spans = ix.phrases.find(rest, lowered)
    if any(who != {letter} for _, _, who in spans) or any(
            a.start() < e and s < a.end() for s, e, _ in spans for a in asides):
        return None
    return ParsedAnswer(letter, False)
