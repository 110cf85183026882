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
from typing import Final

from medvqa.reading._base import ParsedAnswer, abstain, one_choice
from medvqa.reading._cues import (
    DEFERRAL_WORDS,
    DISCUSSED_WORDS,
    HEDGE_TRIGGERS,
    NEG_ADVERB_WORDS,
    NEG_STARTS,
    NEG_VERB_WORDS,
    NEG_WORDS,
    REFUSAL_TRIGGERS,
    REJECTING_WORDS,
    STATUS_AFTER_ASCII,
    STATUS_WORDS,
    as_bytes,
    may_start_negation,
    negated_lists,
    whole_word_ends,
    word_tokens,
)
from medvqa.reading._reading import OptionSet

__all__ = ["quick_read"]

_STRUCTURE: Final = frozenset('<>{}[]()|\\\n:"*_`#?')
_CUE_WORDS = frozenset(
    REFUSAL_TRIGGERS | HEDGE_TRIGGERS | NEG_WORDS | DISCUSSED_WORDS | STATUS_WORDS
    | {"although", "though", "despite", "albeit", "excluded", "eliminated", "improbable",
       "ruled", "out", "answer", "answers", "option", "options", "choice", "choices", "letter",
       "therefore", "thus", "hence", "both", "selection", "diagnosis", "choose", "pick",
       "select", "favour", "favor", "say", "go", "going", "opt", "respuesta", "resposta",
       "risposta", "reponse", "antwort", "it's", "doubt"})
_CUE_BYTES: Final = as_bytes(_CUE_WORDS)
# Negations of a noun phrase or a clause that cue no other rule (no hedge, refusal or
# discussion word, none that a clause test reads after a mention but "never" and "absent",
# which NEG_BEFORE holds too): a quick reading accepts them where they stand apart from every
# mention (:func:`_negations_apart`).
_APART_NEGATIONS = frozenset({"no", "never", "neither", "nor", "without", "none", "nothing",
                              "absence"}) & NEG_WORDS
# What NEG_AFTER and NEG_AFTER_VERB read after a mention without a word boundary after it
# ("wrongly", "unless likely"): a text holding one goes to the full reading.
_AFTER_STEMS: Final[tuple[str, ...]] = (
    "excluded", "unlikely", "incorrect", "wrong", "absent", "less likely", "eliminated",
    "improbable", *REJECTING_WORDS, "no longer", "resolved", "disappeared", "least likely",
    "distractor", "red herring", "decoy")
# The words NEG_AFTER allows between a mention and its negation ("… is clearly not …"), with
# any adverb in -ly (:func:`_after_reaches`).
_AFTER_WORDS: Final = frozenset(NEG_VERB_WORDS + NEG_ADVERB_WORDS)
_GAP_TOKEN: Final = re.compile(r"[a-z]+|[^\s)\]*'\"]")
_OTHER_CUE_BYTES: Final = as_bytes(_CUE_WORDS - _APART_NEGATIONS)
# Where NEG_BEFORE matches in a text whose only cue words are _APART_NEGATIONS and which has
# no ' or /: each of its alternatives is a whole word there (a word boundary on each side, so
# a WORD token), and every other word it could start with is a cue word or a NEG_STARTS start.
# So it matches exactly these words, found whole with str.find (:func:`_apart_negations`; a
# property test compares the two).
_APART_WORDS: Final = tuple(sorted(_APART_NEGATIONS))
_BOUNDARY: Final = re.compile(r"[.;,!?\n]")
_VERB_AFTER: Final = re.compile(r"[\s.)\]:*]+(?:is|are|was|were|can|could|should|would|has|have"
                                r"|must|seems|appears)")
_NEG_START_BYTES: Final = tuple(w.encode() for w in NEG_STARTS)
# Each byte of an ASCII text as its class for :func:`_structure_or_capital`: "S" a character of
# _STRUCTURE, "A" a capital letter, "a" another letter or a digit, " " anything else.
_CLASSES: Final = bytes(
    ord("S") if chr(b) in _STRUCTURE else ord("A") if 65 <= b <= 90
    else ord("a") if 97 <= b <= 122 or 48 <= b <= 57 else ord(" ") for b in range(256))
_SHORT: Final = 48


# The marked letter positions a quick reading accepts (the letter is group 1).
# After "X." a capital word: "X. coli" (a lower-case word) may be a name (rule 10).
_LEAD_LETTER: Final = re.compile(r"The answer is ([A-Z])\. (?=[A-Z][a-z])")
_HEAD_LETTER: Final = re.compile(r"([A-Z]): (?=[a-z])")
_TAIL_LETTER: Final = re.compile(r" option ([A-Z])\.?$")
# A parenthesis of lower-case words and numbers: no letter position, no option named in it.
_ASIDE: Final = re.compile(r"\([a-z0-9 ,.;-]*\)")
_EXPLAINS: Final[tuple[str, ...]] = ("expla", "reason", "rational")


_PLAIN: Final = 0
_NEGATED: Final = 1
_CUED: Final = 2


def _cues_of(text: str, lowered: str) -> int:
    """Which cues ``text`` (ASCII) holds: none, only apart-able negations, or others.

    :data:`_PLAIN`: none of the cues of the module docstring; :data:`_NEGATED`: only words of
    :data:`_APART_NEGATIONS`; :data:`_CUED`: any other.
    """
    if _structure_or_capital(text):
        return _CUED
    if "n't" in lowered or "it is" in lowered or any(t in lowered for t in _AFTER_STEMS):
        return _CUED
    # Cue words are looked for in the whole text, option texts included: a cue inside an
    # option text only sends the response to the full reading.
    words = word_tokens(lowered)
    if may_start_negation(lowered) and any(w.startswith(_NEG_START_BYTES) for w in words):
        return _CUED
    if _CUE_BYTES.isdisjoint(words):
        return _PLAIN
    if not _OTHER_CUE_BYTES.isdisjoint(words) or "'" in lowered or "/" in lowered:
        return _CUED  # (' and / join words into one token: see _APART_WORDS)
    return _NEGATED


def _structure_or_capital(text: str) -> bool:
    """Whether the ASCII ``text`` holds a character of _STRUCTURE or a capital standing alone.

    Alone: neither a letter nor a digit on either side ("B is", "(B)", "I'm"). One pass of
    ``bytes.translate`` into classes (:data:`_CLASSES`) and substring searches: a fifth of
    the cost of one search with a pattern, which tests a character set at every character.
    (The classes are decoded to str to be searched: ``in`` on bytes first tries its operand
    as a number and raises, and ``bytes.find`` parses its arguments the slow way.)
    """
    classes = text.encode().translate(_CLASSES).decode()
    return ("S" in classes or " A " in classes or classes.startswith("A ")
            or classes.endswith(" A") or classes == "A")


def _negations_apart(text: str, lowered: str, mentions: list[tuple[int, int]],
                     blanked: list[tuple[int, int]]) -> bool:
    r"""Whether no negation of ``lowered`` can reach a mention (start, end) under rule 16.

    A negation reads only within its clause: before a mention from the clause's start
    (``NEG_BEFORE``), after it to the clause's end (``NEG_AFTER``), and, when the mention is
    followed by "." or ":", in the next clause only if that clause opens with a verb
    (``NEG_AFTER_VERB``: "A. is ruled out"). So a negation cannot reach a mention when one of
    ``. ; , ! ? \n`` lies between them (each ends a clause, except a period after a lone
    letter, "B.": none such counts here), and no mention followed by "." or ":" is followed
    by one of those verbs. After a mention a negation is also out of reach when a word other
    than NEG_AFTER's verbs and adverbs stands between them outside the ``blanked`` option texts
    ("B. The glands show no atypia": "no" is in B's clause, but "the" stops NEG_AFTER). Overlap
    (a negation word inside an option text) fails the test.
    """
    if "," in lowered and negated_lists(lowered):
        return False  # "no mass, calcification, or distortion": the commas end no clause
    negations = _apart_negations(lowered)
    for start, end in mentions:
        if STATUS_AFTER_ASCII.match(lowered, end) is not None:
            return False  # "X - none", "X, no." (a status after a label reaches across it)
        if ("." in lowered[end:end + 3] or ":" in lowered[end:end + 3]) and (
                _VERB_AFTER.match(lowered, end) is not None):
            return False
        for n_start, n_end in negations:
            if n_end <= start:
                gap = (n_end, start)
            elif n_start >= end:
                gap = (end, n_start)
            else:
                return False
            b = _BOUNDARY.search(lowered, gap[0], gap[1])
            while b is not None and _after_lone_letter(text, b.start()):
                b = _BOUNDARY.search(lowered, b.end(), gap[1])
            if b is None and (n_end <= start or _after_reaches(lowered, end, n_start, blanked)):
                return False
    return True


def _apart_negations(lowered: str) -> list[tuple[int, int]]:
    r"""The spans of the whole words of :data:`_APART_NEGATIONS` in ``lowered``, in order.

    ``\b(?:no|never|…)\b``'s matches, found with ``str.find`` (a pattern is tried at every
    character that may open a word of it: most letters of a sentence).
    """
    spans = [(end - len(word), end) for word in _APART_WORDS
             for end in whole_word_ends(lowered, word)]
    spans.sort()
    return spans


def _after_reaches(lowered: str, end: int, n_start: int, blanked: list[tuple[int, int]]) -> bool:
    """Whether NEG_AFTER may read from a mention ending at ``end`` to a negation at ``n_start``.

    It may not when a character or word it does not allow there stands between them outside
    the blanked option texts (which the reader turns into spaces).
    """
    for t in _GAP_TOKEN.finditer(lowered, end, n_start):
        word = t.group()
        if word not in _AFTER_WORDS and not (word.endswith("ly") and word.isalpha()) and not any(
                a <= t.start() < b for a, b in blanked):
            return False
    return True


def _after_lone_letter(text: str, i: int) -> bool:
    """``text[i]`` is a period after a one-letter word ("B.", "e."): maybe no clause end."""
    return text[i] == "." and i >= 1 and text[i - 1].isalpha() and (
        i == 1 or not text[i - 2].isalnum())


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
    cues = _cues_of(text, lowered)
    if cues == _CUED:
        return None
    spans = ix.phrases.find(text, lowered)
    named_at = [(a, b) for a, b, _ in spans]
    if cues == _NEGATED and not _negations_apart(text, lowered, named_at, named_at):
        return None
    named = {letter for _, _, who in spans for letter in who}
    if not named:
        # As the full reading: a response that names nothing and puts its answer off ("let me
        # take a closer look") has not committed; only the others want a reading.
        return abstain("not_committed" if DEFERRAL_WORDS.search(lowered) else "no_answer")
    return one_choice(named.pop()) if len(named) == 1 else abstain("ambiguous")


def _marked(text: str, m: re.Match[str], ix: OptionSet) -> ParsedAnswer | None:
    """The reading of a letter in a marked answer position beside a plain rest, or None."""
    letter = m.group(1)
    if letter not in ix.keys:
        return None
    start, end = m.span()  # (each method call on a match costs a few hundred instructions)
    rest = text[:start] + " " * (end - start) + text[end:]
    lowered = rest.lower()
    asides = list(_ASIDE.finditer(rest)) if "(" in rest else []
    bare = rest.replace(":", " ")
    for a in asides:
        bare = bare[:a.start()] + " " * (a.end() - a.start()) + bare[a.end():]
    if ":" in rest and any(w in lowered for w in _EXPLAINS):
        return None
    cues = _cues_of(bare, bare.lower())
    if cues == _CUED:
        return None
    spans = ix.phrases.find(rest, lowered)
    if any(who != {letter} for _, _, who in spans) or any(
            a.start() < e and s < a.end() for s, e, _ in spans for a in asides):
        return None
    named_at = [(s, e) for s, e, _ in spans]
    if cues == _NEGATED and not _negations_apart(text, text.lower(), named_at + [m.span(1)],
                                                 named_at):
        return None
    return one_choice(letter)
