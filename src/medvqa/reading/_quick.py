r"""The strict reader's fast path: a plain sentence that names options and nothing else.

Most explaining responses are one plain sentence that names one option ("Based on the glands
in field 9, this is most consistent with adenocarcinoma."). For such a sentence every rule but
the option texts is idle, because each rule is cued by a word or a character that is not there:
:func:`quick_read` checks that none is present and reads the option texts; otherwise it returns
None and the full reading runs. It never decides differently from the full reading (a property
test compares the two on generated sentences); it only decides sooner.

What the check looks for (all derived, none listed here by hand): a non-ASCII character, a
structural character (``< > { } [ ] | \ " * _ ` # ? /`` or a line break), a capital letter
standing alone (any letter position), where the options are values anything that may write one
(a digit, a number word, a Roman numeral or a scale word: ``OptionValues.may_hold``), and a word
of the rule table of any kind that can change a single-choice reading of a sentence
(:data:`KINDS`).
A letter marked as the answer at the start or end of the sentence ("The answer is B.", "B: …",
"… option B.") is read beside such a sentence when the rest names no other option.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from medvqa.reading._base import ParsedAnswer, abstain, one_choice
from medvqa.reading._book import RuleBook, word_tokens
from medvqa.reading._options import OptionSet, bag_mentions
from medvqa.reading.rules import Kind

__all__ = ["KINDS", "quick_read", "within"]

#: The kinds of rule that can change how a plain single-choice sentence is read. The others
#: cannot: they act only beside another cue (the end of a negation's reach, neutral phrases,
#: conclusions and changes of mind after a located answer, alternatives between two named
#: options — two named options are ambiguous anyway), on other question types (findings, sets)
#: or inside structures (keys, confidence). (An alternative beside one named option and a word
#: of another, "X or <a word of another option>", is left to the full reading: see quick_read.)
KINDS: Final = frozenset({
    Kind.REFUSAL, Kind.HEDGE, Kind.HEDGE_SCOPED, Kind.EXCLUSION_HEDGE, Kind.HEDGE_LEAD,
    Kind.NEG_BEFORE,
    Kind.NEG_NOUN, Kind.NEG_AFTER, Kind.STATUS, Kind.DISCUSSED_BEFORE, Kind.DISCUSSED_AFTER,
    Kind.CONDITION,
    Kind.CONCESSION, Kind.PLAN, Kind.DEFERRAL, Kind.ELIMINATION, Kind.ANSWER_MARKER,
    Kind.ANSWER_PICK, Kind.EXPLANATION})
_ALTERNATIVES: Final = frozenset({Kind.ALTERNATIVE})
# A letter keyword ("it is", "therefore") matters only before a letter: a one-letter word.
_KEYWORDS: Final = frozenset({Kind.LETTER_KEYWORD})
_STRUCTURE: Final = frozenset('<>{}[]|\\"*_`#?\n/')
# (one search for any of them: a set's ``isdisjoint`` hashes every character of the text)
_STRUCTURE_CHAR: Final = re.compile("[" + "".join(map(re.escape, sorted(_STRUCTURE))) + "]")
_STRUCTURE_BYTES: Final = "".join(sorted(_STRUCTURE)).encode("ascii")
# (the capital first, then what stands before it: a scan for capitals, not a look behind
# at every character)
_LONE_CAPITAL: Final = re.compile(r"[A-Z](?<![A-Za-z][A-Z])(?![a-zA-Z])")
# A table's sign for absent after a colon or bracket ("X (-)", "X: 0"): a status without a word.
_SIGN_OPENS: Final = ":(|"
_SIGN: Final = re.compile("[" + re.escape(_SIGN_OPENS) + r"][ \t]*[-0]")
_SHORT: Final = 48
# A letter marked as the answer where the rest is plain: "The answer is B." opening the text,
# "B: " / "B. " opening it, "option B." closing it.
_MARKED: Final = (re.compile(r"The answer is ([A-Z])\.\s+"), re.compile(r"([A-Z])[:.]\s+"))
_CLOSING: Final = re.compile(r"\s+(?:option|choice)\s+([A-Z])\.?$")
#: The kinds that read an answer where one is located or a letter is: a text without them and
#: naming no option decides by its refusals, hedges and plans alone.
_LOCATING: Final = frozenset({Kind.ANSWER_MARKER, Kind.ANSWER_PICK})
_VERDICT_KINDS: Final = KINDS - _LOCATING
# Where the full reading alone can tell whether a hedge keeps the answer open.
_UNSURE: Final = frozenset({Kind.HEDGE_LEAD, Kind.NOT_HEDGE})


def _plain_chars(text: str) -> bool:
    """Whether ``text`` is ASCII with no structural character, lone capital or sign."""
    return text.isascii() and not (_structured(text) or _LONE_CAPITAL.search(text)
                                   or _signed(text))


def _plain_words(text: str, ix: OptionSet, bk: RuleBook) -> tuple[str, frozenset[str], bool]:
    """The lower-cased text, its words, and whether no rule's words can apply to it."""
    lowered = text.lower()
    tokens = word_tokens(lowered)
    return lowered, tokens, not (bk.any_of(KINDS, lowered, tokens)
                                 or _letter_cued(lowered, tokens, ix, bk))


def _structured(text: str) -> bool:
    """Whether an ASCII ``text`` holds a structural character (:data:`_STRUCTURE_CHAR`).

    Deleting them with a byte table shortens it exactly then (cheaper than the search).
    """
    return len(text.encode().translate(None, _STRUCTURE_BYTES)) != len(text)


def _signed(text: str) -> bool:
    """Whether :data:`_SIGN` is in ``text``: searched only where one of its openers is."""
    for c in _SIGN_OPENS:
        if c in text:
            return _SIGN.search(text) is not None
    return False


def _letter_cued(lowered: str, tokens: frozenset[str], ix: OptionSet, bk: RuleBook) -> bool:
    """A letter keyword before a one-letter word that is an option letter ("it is b")."""
    if lowered.isascii():  # (its words are ASCII: the option letters' lower-case forms)
        lettered = not _ascii_letters(ix.keys).isdisjoint(tokens)
    else:
        lettered = any(len(t) == 1 and t.upper() in ix.keys for t in tokens)
    return lettered and bk.any_of(_KEYWORDS, lowered, tokens)


@lru_cache(maxsize=256)
def _ascii_letters(keys: frozenset[str]) -> frozenset[str]:
    """The ASCII characters whose upper case is one of ``keys`` (a one-letter word's test)."""
    return frozenset(c for c in map(chr, range(128)) if c.upper() in keys)


def quick_read(text: str, ix: OptionSet, bk: RuleBook,
               question: str = "") -> ParsedAnswer | None:
    """The reading of a plain sentence, or None where the full reading must run."""
    if len(text) <= _SHORT or ix.yesno:
        return None
    values = ix.values(question)
    if values is not None and values.may_hold(text):  # "… Grade three." is a value
        return None
    marked = None
    rest = text
    m = None
    if text.startswith("The answer is "):
        m = _MARKED[0].match(text)
    elif text[1:2] in (":", ".") and "A" <= text[0] <= "Z":
        m = _MARKED[1].match(text)
    elif text.rstrip(".")[-2:-1] == " " and ("option" in text or "choice" in text):
        m = _CLOSING.search(text, max(0, len(text) - 12))
    if m is not None:
        marked = m.group(1)
        rest = text[:m.start()] + " " + text[m.end():]
    if marked is not None and marked not in ix.keys:
        return None
    # (no rule but the option texts can apply to the rest: else, unmarked, its verdict; the
    # verdict's own character tests are the ones passed or failed here where rest is text)
    core = rest.strip()
    if not _plain_chars(core):
        return _verdict(text, ix, bk) if marked is None and core != text else None
    lowered, tokens, plain = _plain_words(core, ix, bk)
    if not plain:
        if marked is not None:
            return None
        return _verdict(text, ix, bk, (lowered, tokens) if core == text else None)
    spans = None if m is None else within(text, core, m.end() if m.start() == 0 else 0, ix)
    if spans is None:
        spans = ix.phrases.find(core, lowered)
    if ix.bags:
        spans = spans + bag_mentions(core, ix, spans, tokens)
    named = {k for _, _, letters in spans for k in letters}
    if marked is not None:
        if named - {marked}:
            return None
        return one_choice(marked, "structural.letter-position")
    if not named:
        return abstain("no_answer")
    if len(named) == 1:
        chosen = next(iter(named))
        if bk.any_of(_ALTERNATIVES, lowered, tokens) and any(
                w in tokens for k, words in ix.words.items() if k != chosen for w in words):
            return None  # "X or <a word of another option>": the full reading decides
        return one_choice(chosen, "structural.option-text")
    return abstain("ambiguous", "structural.two-options")


def within(text: str, core: str, at: int, ix: OptionSet
           ) -> list[tuple[int, int, frozenset[str]]] | None:
    """The options named in ``core``, which stands at ``at`` in ``text`` between white space.

    Found from the whole text's (the checks after a choice ask for those next): the same
    spans, moved, where none crosses an end of ``core`` (white space bounds every word the
    same way in both). None where that cannot be told (the full search of ``core`` then).
    """
    end = at + len(core)
    if not (text.isascii() and text.startswith(core, at) and (at == 0 or text[at - 1].isspace())
            and (end == len(text) or text[end].isspace())):
        return None
    spans = ix.phrases.find(text, text.lower())
    if any(s < at < e or s < end < e for s, e, _ in spans):
        return None
    return [(s - at, e - at, k) for s, e, k in spans if at <= s and e <= end]


def _verdict(text: str, ix: OptionSet, bk: RuleBook,
             plain: tuple[str, frozenset[str]] | None = None) -> ParsedAnswer | None:
    """A sentence that names no option and locates no answer: its refusal, hedge or plan.

    The full reading of such a text finds no mention, so only these decide it, in the same
    order (a hedge, a refusal or a kept-open finding, a plan or a deferral, else no answer).
    ``plain``: the lower-cased text and its words where :func:`_plain_chars` holds of it.
    """
    if ":" in text or plain is None and not _plain_chars(text):
        return None
    lowered, tokens = plain if plain is not None else (text.lower(), word_tokens(text.lower()))
    if (bk.any_of(_LOCATING, lowered, tokens) or _letter_cued(lowered, tokens, ix, bk)
            or ix.phrases.find(text, lowered) or ix.bags and bag_mentions(text, ix, [], tokens)):
        return None
    if bk.any_of(_UNSURE, lowered, tokens):
        return None  # (the full reading decides: a hedge's lead, not-a-hedge phrases)
    hedge = bk.search(Kind.HEDGE, lowered, tokens)
    if hedge is not None:
        return abstain("hedge", hedge[0])
    # (a scoped hedge keeps open only a sentence that names an option: none is named here)
    refusal = bk.search(Kind.REFUSAL, lowered, tokens)
    exclusion = bk.search(Kind.EXCLUSION_HEDGE, lowered, tokens)
    if refusal is not None:
        return abstain("hedge", exclusion[0]) if exclusion else abstain("refusal", refusal[0])
    if exclusion is not None:
        return abstain("hedge", exclusion[0])
    for kind in (Kind.PLAN, Kind.DEFERRAL):
        got = bk.search(kind, lowered, tokens)
        if got is not None:
            return abstain("not_committed", got[0])
    if bk.any_of(frozenset({Kind.HEDGE_LEAD, Kind.EXPLANATION}), lowered, tokens):
        return None
    return abstain("no_answer")
