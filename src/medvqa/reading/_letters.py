"""Where a capital letter is an option letter, and where it is part of a name.

A letter names an option only in a *letter position* (strict rule 6):

- in brackets anywhere: ``(B)``, ``[B]``;
- right after an answer word: ``answer``, ``option``, ``choice``, ``letter`` (``The correct
  answer is: B``, ``option b``, ``Answer - C``);
- at the start of a line before ``.``, ``:`` or ``)`` (``B: Normal``, ``- A. Mass``);
- in a list of letters (joined by ``,``, ``/``, ``&``, "or", "and") that follows one of the
  positions above, opens a line or follows a colon ("Options B or C", "Density: B or C");
- after "therefore", "thus", "hence", "both", "it is" ("Therefore, B", "It's C because …");
- said to be the answer ("B is correct", "C is the most likely"), or opening a line before
  "is", "was", "seems" or a spaced dash ("B - Pneumothorax"), or set against another letter
  there ("B, not A", "B rather than A");
- a clause of its own at the end, after a comma, colon, period, dash or arrow ("So, B.",
  "Verdict: C", "Not A. B.", "Wait, no — A.").

It is part of a name, not a letter, when (rule 11) it is glued to what follows as one name:

- followed by a period and a lower-case word, as a genus is abbreviated (``E. coli``,
  ``S. aureus``);
- followed directly by a lower-case word that is not a connective ("T cell", "A mass" — an
  article, "I think" — a pronoun), where connectives are words that can follow an answer
  letter ("B because …", "C is …", "D, since …");
- followed by a hyphen or a digit (``T2-weighted``, ``B-lines``, ``C3``);

unless the words after it are that option's own text (``B. squamous cell carcinoma`` where B
is squamous cell carcinoma). A letter preceded by a naming word ("hepatitis E", "protein C",
"group B", "vitamin D", "type A", "class A") is in none of the positions above, so it is never
read; the whole response being a letter (``B``) is read by the caller.

>>> words = {"B": ("squamous", "cell", "carcinoma"), "E": ("candida",)}
>>> [(l, s) for l, s, _ in letter_mentions("The answer is E. coli", "the answer is e. coli", words,
...                                     ("answer",))]
[]
>>> text = "Answer: (B) squamous cell carcinoma"
>>> [(l, s) for l, s, _ in letter_mentions(text, text.lower(), words, ("answer",))]
[('B', 9)]
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from medvqa.reading._fold import fold
from medvqa.reading._text import Opening, line_starts, matches_at, positions_of

__all__ = ["key_pattern", "letter_mentions", "own_text_follows", "own_text_before"]

_P_PAREN = r"[(\[](?P<p>[A-Z])[)\]]"
_KEY_TAIL = (r"\s*(?:is|are|would\s+be|:|=|-|#|,)?\s*:?\s*"
             r"(?:(?:definitely|clearly|certainly|surely)\s+)?(?:not\s+)?(?:option\s+|choice\s+)?)"
             r"(?<![A-Za-z])(?P<kb>[(\[])?(?P<k>[A-Za-z])[)\]]?(?![\w-])")


@lru_cache(maxsize=8)
def key_pattern(keywords: tuple[str, ...]) -> re.Pattern[str]:
    """The letter-after-a-keyword position for these keywords (the rule table's)."""
    words = "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in sorted(keywords, key=len,
                                                                            reverse=True))
    return _key_pattern(words)


@lru_cache(maxsize=8)
def _key_pattern(words: str) -> re.Pattern[str]:
    return re.compile(r"(?i:\b(?:" + words + r")" + _KEY_TAIL, re.MULTILINE)


_P_LINE = (r"^[ \t]*(?:[-*\u2022][ \t]*|\d+[.)][ \t]*)?(?P<l>[A-Z])(?:[.):](?=\s|$)"
           r"|(?=[ \t]+[-\u2013\u2014][ \t])|(?=[ \t]+(?:is|was|seems|appears|would\s+be)\b)"
           # "B, the effusion": a comma and a word in lower case (an article is never followed
           # by a comma; "A, B" is a list, "A, and" or "A, or" the start of one; "I, not you"
           # the pronoun)
           r"|(?<!I)(?=,[ \t]+(?!(?:and|or)\b)[a-z])"
           # a letter alone on its line ("D⏎⏎The heart is normal …")
           r"|(?=[ \t]*$))")
# A letter opening a line that is set against another letter: "B, not A", "B rather than A".
_P_CONTRAST = (r"^[ \t]*(?:[-*\u2022][ \t]*)?(?P<v>[A-Z])(?=,?[ \t]+(?:not|rather[ \t]+than"
               r"|instead[ \t]+of)[ \t]+[(\[]?[A-Z](?![\w-]))")
# A letter that is said to be the answer ("B is correct", "I think C is the right one", "B fits
# better").
_P_IS = (r"(?P<i>[A-Z])(?<![\w.'-][A-Z])(?=[ \t]+(?:is|fits)[ \t]+(?:the[ \t]+)?(?:correct|right"
         r"|best|better|true|most[ \t]+likely|answer)\b)")
# A letter that is a clause of its own at the end: "Therefore, B." "Conclusion: C" "Not A. B."
# "Wait, no — A." "… ruled out, so B." "Only B." "Definitely C." (an adverb of commitment is no
# name's head, as "Vitamin B" or "Hepatitis C" are)
# A list of letters may close it: "So A and D.", "Therefore, A, C, D." (a comma inside such a list
# opens no clause of its own: "B, C, E." is one list, not E alone; nor does a ranking's ">":
# "B > D > A > C" ends on its last-ranked letter).
_LIST_TAIL = r"(?:[ \t]*(?:,|/|&|\band\b|\bor\b)[ \t]*[(\[]?[A-Z][)\]]?(?![\w-]))*"
_P_ALONE = (r"(?:(?<![^\w][A-Z])(?<![^\w][A-Z][ \t])(?<!^[A-Z])(?<!^[A-Z][ \t])"
            r"(?<![(\[][A-Z][)\]])[,>]|[;:.\u2192\u2014\u2013]|=>|->"
            r"|[ \t]-"
            r"|(?<![\w'])(?:[Ss]o|[Oo]nly|[Jj]ust"
            r"|[Dd]efinitely|[Cc]learly|[Cc]ertainly|[Ss]urely|[Oo]bviously|[Aa]bsolutely"
            r"|[Uu]ndoubtedly|[Uu]nequivocally)(?<![Nn]ot only))[ \t]*"
            r"[(\[]?(?P<z>[A-Z])[)\]]?(?![\w-])"
            r"(?=" + _LIST_TAIL + r"[ \t]*[.!]?[ \t]*$)")
# A list of letters that opens a line or follows a colon: "B or C", "Density: A/B".
@lru_cache(maxsize=8)
def _list_pattern(joins: tuple[str, ...]) -> re.Pattern[str]:
    """A list of letters that opens a line or follows a colon ("B or C", "Density: A/B")."""
    words = "|".join(rf"\b{re.escape(w)}\b" for w in ("or", *joins))
    return re.compile(r"(?:^|(?<=:))[ \t]*(?P<s>[A-Z])(?=\s*(?:,|/|&|" + words
                      + r")\s*[(\[]?[A-Z][)\]]?(?![\w-]))", re.MULTILINE)
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff01-\uff0f"
# A letter beside a script written without spaces is an option letter ("选A", "A に訂正").
_BESIDE_CJK: Final = re.compile(rf"(?<![A-Za-z])(?P<j>[A-Z])(?![A-Za-z])(?=\s?[{_CJK}])"
                                rf"|(?<=[{_CJK}])\s?(?P<h>[A-Z])(?![A-Za-z])")
_CJK_CHAR: Final = re.compile(rf"[{_CJK}]")
@lru_cache(maxsize=8)
def _continued_pattern(joins: tuple[str, ...]) -> re.Pattern[str]:
    """A letter listed after another: joined by a mark, "or", or a joiner of the table."""
    words = "|".join(rf"\b{re.escape(w)}\b" for w in ("or", *joins))
    # (a short gloss in brackets may follow a letter: "A (tubular glands) and C"; a comma may
    # stand before the last joiner: "A, C, and E")
    return re.compile(r"(?:[ \t]*\([^()\n]{1,40}\))?\s*(?:,\s*(?:" + words + r")|,|/|&|\+|"
                      + words + r")\s*(?:option\s+|choice\s+)?[(\[]?"
                      r"(?P<c>[A-Z])[)\]]?(?![\w-])")
# Each letter position alone, run only when its literal cue is in the text.
_PAREN: Final = re.compile(_P_PAREN, re.MULTILINE)
_LINE: Final = re.compile(_P_LINE, re.MULTILINE)
# What _LINE and _LIST may open with (each is matched at line starts, _LIST after colons too); a
# bare "or"/"and" after a letter needs a word boundary, so a space, between them.
_LINE_OPENS: Final = Opening(" \t-*\u2022", ".): \t,\n", digit=True)
_CONTRAST: Final = re.compile(_P_CONTRAST, re.MULTILINE)
_CONTRAST_OPENS: Final = Opening(" \t-*\u2022", ", \t")
_LIST_OPENS: Final = Opening(" \t", ",/&+", space_after_capital=True)
_IS: Final = re.compile(_P_IS, re.MULTILINE)
_ALONE: Final = re.compile(_P_ALONE, re.MULTILINE)
_LIST_REACH: Final = 80  # a list of every option's letter, with its commas and "and"
_TRAILING_LIST: Final = re.compile(r"[(\[]?[A-Z][)\]]?" + _LIST_TAIL + r"$")
# How far before its letters a clause of letters may open: "Unequivocally B".
_ALONE_REACH: Final = 18
_WORD_AFTER: Final = re.compile(r"[ \t]+([a-z][a-z'-]*)")
_GENUS: Final = re.compile(r"\.[ \t]*[a-z]")
_TOKEN: Final = re.compile(r"[^\W_]+(?:'[^\W_]+)*'?")
def letter_mentions(text: str, lowered: str, words: dict[str, tuple[str, ...]],
                    keywords: tuple[str, ...], present: frozenset[str] | None = None,
                    free: frozenset[str] = frozenset(), joins: tuple[str, ...] = ("and",)
                    ) -> list[tuple[str, int, int]]:
    """Option letters in letter positions: (upper-case letter, start, end), names skipped.

    Args:
        text: the prepared text (Markdown dropped), original case.
        lowered: ``text`` lower-cased (same length).
        words: letter → its option text's folded words (to recognise ``B. <its text>``).
        keywords: the words after which a letter of either case is an option letter (the
            rule table's ``letter.keyword``).
        present: the words of the text, when known (keywords absent from it are not looked
            for).
        free: the words that may follow an answer letter without making it part of a name
            (the rule table's ``letter.connective`` and the negations after a mention).
        joins: the words that join a list of letters (``letter.list-join``).
    """
    out = []
    seen: set[int] = set()
    for m in _positions(text, lowered, keywords, present, joins):
        name = m.lastgroup or ""
        if name == "kb":
            name = "k"
        if name not in m.re.groupindex:
            continue
        letter = m.group(name)
        end = m.end(name)
        start = m.start(name)
        group = "j" if name == "h" else name
        if group == "j" and letter.upper() not in words:
            continue  # a Latin letter in a word of another script ("S상결장"), not an option
        if group == "k" and letter.islower() and not _ends_clause(text, m.end()):
            continue
        bracketed = group == "p" or (group == "k" and m.group("kb") is not None)
        if not bracketed and group not in "sizvj" and _in_name(text, end,
                                                             words.get(letter.upper(), ()),
                                                             free):
            continue
        if start in seen:
            continue  # one letter found by two positions ("answer" and "answers")
        seen.add(start)
        out.append((letter.upper(), start, end))
        if group in ("k", "s", "z"):
            for got in _continued(text, m.end(), words, free, joins):
                if got[1] not in seen:
                    seen.add(got[1])
                    out.append(got)
    return out


def _continued(text: str, pos: int, words: dict[str, tuple[str, ...]],
               free: frozenset[str], joins: tuple[str, ...]) -> list[tuple[str, int, int]]:
    """Letters listed after a letter in a letter position: "Options B or C", "A, C and D"."""
    out = []
    continued = _continued_pattern(joins)
    while (m := continued.match(text, pos)) is not None:
        if _in_name(text, m.end("c"), words.get(m.group("c"), ()), free):
            break
        out.append((m.group("c"), m.start("c"), m.end("c")))
        pos = m.end()
    return out


@lru_cache(maxsize=8)
def _first_words(keywords: tuple[str, ...]) -> tuple[str, ...]:
    """Each keyword's first word, in the keywords' order (a keyword is looked for by it)."""
    return tuple(k.split()[0] for k in keywords)


def _positions(text: str, lowered: str, keywords: tuple[str, ...],
               present: frozenset[str] | None,
               joins: tuple[str, ...] = ("and",)) -> list[re.Match[str]]:
    """Matches of the three letter positions, each only where cued.

    A bracket cues ``(B)``, a keyword cues ``answer is B``, a line start cues ``B: …``.
    """
    out: list[re.Match[str]] = []
    if "(" in text or "[" in text:
        # Matched at each bracket, not searched (a search tests every character of the text).
        out += matches_at(_PAREN, text, positions_of(text, "(["))
    key_re = key_pattern(keywords)
    for first in _first_words(keywords):  # each tried only where its cue is, not everywhere
        if present is not None and first not in present:
            continue
        i = lowered.find(first)
        while i >= 0:
            if (m := key_re.match(text, i)) is not None:
                out.append(m)
            i = lowered.find(first, i + 1)
    starts = line_starts(text)
    out += matches_at(_LINE, text, starts, _LINE_OPENS)
    if " not " in text or " rather " in text or " instead " in text:
        out += matches_at(_CONTRAST, text, starts, _CONTRAST_OPENS)
    if (" is " in text or " fits " in text) and (
            "correct" in lowered or "right" in lowered or "best" in lowered or "better" in lowered
            or "true" in lowered or "likely" in lowered or "answer" in lowered):
        out += _IS.finditer(text)
    last = text.rstrip(" .!\t")
    if last[-1:].isupper() and (m := _ALONE.search(text, max(0, _list_start(last) - _ALONE_REACH))
                                ) is not None:
        out.append(m)
    if not text.isascii() and _CJK_CHAR.search(text) is not None:
        out += _BESIDE_CJK.finditer(text)
    if " or " in text or "/" in text or "," in text or "&" in text or " " in text.strip():
        starts += [i + 1 for i in positions_of(text, ":")]
        out += matches_at(_list_pattern(joins), text, starts, _LIST_OPENS)
    return out


def _list_start(last: str) -> int:
    """Where the list of letters that ends ``last`` starts (its last letter, where it is one)."""
    m = _TRAILING_LIST.search(last, max(0, len(last) - _LIST_REACH))
    return m.start() if m is not None else len(last)


def _in_name(text: str, end: int, own: tuple[str, ...], free: frozenset[str]) -> bool:
    """The letter ending at ``end`` is glued to a name (see the module docstring)."""
    after = text[end:end + 2]
    if not after:
        return False
    if after[0] in "-" or after[0].isdigit():
        return True
    genus = _GENUS.match(text, end)
    word = _WORD_AFTER.match(text, end)
    if genus is None and (word is None or word.group(1) in free):
        return False
    return not (own and own_text_follows(text, end, own))


def own_text_follows(text: str, pos: int, own: tuple[str, ...]) -> bool:
    """The option's own words come next (``B. squamous cell carcinoma``)."""
    if not own:
        return False
    toks = []
    for m in _TOKEN.finditer(text, pos):
        toks.append(fold(m.group()))
        if len(toks) == len(own):
            break
    return tuple(toks) == own


# An opening bracket before a letter, with the white space around it: "No (B)", "Right [B]".
_OPENS_BRACKET: Final = re.compile(r"[ \t]*[(\[][ \t]*$")


def own_text_before(text: str, pos: int, own: tuple[str, ...]) -> int | None:
    """Where the option's own words start, written just before its bracketed letter at ``pos``.

    "No (B)" on a yes/no item names the option No with its letter: the word "No" is its text,
    not a negation of it. None where the letter is not in brackets or other words come first.

    >>> own_text_before("Both No (B) and", 9, ("no",)), own_text_before("No B", 3, ("no",))
    (5, None)
    """
    if not own:
        return None
    bracket = _OPENS_BRACKET.search(text, max(0, pos - 4), pos)
    if bracket is None:
        return None
    toks = list(_TOKEN.finditer(text, max(0, bracket.start() - 24 * len(own)), bracket.start()))
    if len(toks) < len(own) or toks[-1].end() != len(text[:bracket.start()].rstrip()):
        return None
    last = toks[-len(own):]
    return last[0].start() if tuple(fold(m.group()) for m in last) == own else None


def _ends_clause(text: str, pos: int) -> bool:
    """True when only punctuation or white space up to a clause end follows ``pos``."""
    rest = text[pos:pos + 3]
    return not rest.strip() or rest.lstrip()[0] in ".,;:!?)\n"
