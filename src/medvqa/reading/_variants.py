"""Option texts as a clinician reads them: where a response names an option by its words.

An option is named by its text when the response writes the same words in the same order,
compared word by word after :func:`~._fold.fold` (case, diacritics, possessives, plurals,
British/American spelling), a hyphen and a space being the same; other punctuation inside an
option text must be written as in the option (``E. coli``). Each option is also named by the
other forms of :mod:`._option_forms` (bracketed parts, binomial short forms, abbreviations and
synonyms of the shipped tables). A hyphenated compound is one word: "glaucoma" is not named inside
"non-glaucoma", nor "fatty" inside "fatty-glandular"; where forms overlap, the longest one at a
place wins.

Abbreviations are read only in capitals, only when they name exactly one option, and never when
they could be a list of the item's option letters ("AD", not "BCC"). A synonym (or an
abbreviation of one) names an option only where no other option is written that way: an
option's own text, parts and abbreviations come first, and a synonym of two options names
neither (a phrase of two letters names no option in the scan).

>>> ix = PhraseIndex((("A", "Pulmonary oedema"), ("B", "Hepatocellular carcinoma")))
>>> text = "HCC, not pulmonary edema"
>>> [(s, e, sorted(k)) for s, e, k in ix.find(text, text.lower())]
[(0, 3, ['B']), (9, 24, ['A'])]
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._fold import TOKEN as _TOKEN
from medvqa.reading._fold import anchor, ascii_view, fold, phrase_tokens
from medvqa.reading._fold import gap as _gap
from medvqa.reading._memo import BoundedMemo
from medvqa.reading._option_forms import abbreviations_of as _abbreviations_of
from medvqa.reading._option_forms import forms as _forms
from medvqa.reading._option_forms import synonym_forms as _synonym_forms

__all__ = ["PhraseIndex", "fold", "phrase_tokens"]

_ABBR_TOKEN: Final = re.compile(r"(?<![\w-])[A-Z][A-Z0-9]*[A-Z0-9](?:s|'s)?(?![\w-])")


Phrase = tuple[tuple[str, ...], tuple[str, ...], frozenset[str]]
_NONE: Final[frozenset[str]] = frozenset()
_FOUND_SIZE: Final = 1 << 10


class PhraseIndex:
    """Per option set, built once: every way of naming each option by its words.

    Args:
        items: the options as (letter, text) pairs.
        skip: option texts not to index (yes/no words on a yes/no item).
        extra: letter → more texts that name it (its distinguishing head).
        initials: letter → abbreviations made of its words' initials.

    Attributes:
        first: first folded word → the phrases that start with it, longest first.
        anchors: (anchor, first word, fast entry, whole): a substring every written form of
            the word contains; where the longest phrase's plain text holds the anchor, (offset
            of the anchor in it, the text, its words, its letters) to accept it in place;
            whether only a whole token can be the word (:func:`_whole_token`).
        cues_of: letter → (the anchors of its phrases, its abbreviations): what a text must
            hold for the letter to be named in it (:meth:`may_name`).
        literals: first word → its phrases with their plain lower-case text (the fast path).
        abbreviations: capitalised abbreviation → the letters it names.
        written: a pattern that finds any of the abbreviations as a substring (one search
            instead of a test per abbreviation); None when there are none.
    """

    __slots__ = ("_found", "abbreviations", "anchors", "cues_of", "few_written", "first",
                 "literals", "written")

    def __init__(self, items: tuple[tuple[str, str], ...], skip: frozenset[str] = frozenset(),
                 extra: dict[str, list[str]] | None = None,
                 initials: dict[str, list[str]] | None = None):
        owners: dict[tuple[tuple[str, ...], tuple[str, ...]], set[str]] = {}
        literal: dict[tuple[tuple[str, ...], tuple[str, ...]], str] = {}
        abbreviations: dict[str, set[str]] = {}
        by_synonym: dict[tuple[tuple[str, ...], tuple[str, ...]], set[str]] = {}
        abbreviated_synonyms: dict[str, set[str]] = {}
        self._found: BoundedMemo[tuple[str, str], list[tuple[int, int, frozenset[str]]]] = \
            BoundedMemo(_FOUND_SIZE)
        letters = {k.upper() for k, _ in items}
        for letter, text in items:
            clean = " ".join(text.replace("*", " ").replace("`", " ").split()).rstrip(".")
            if not clean or clean.lower() in skip:
                continue
            for form in _forms(clean, synonyms=False) + (extra or {}).get(letter, []):
                key = phrase_tokens(form)
                if key[0]:
                    owners.setdefault(key, set()).add(letter)
                    literal.setdefault(key, " ".join(form.lower().split()))
            for form in _synonym_forms(clean):
                key = phrase_tokens(form)
                if key[0]:
                    by_synonym.setdefault(key, set()).add(letter)
                    literal.setdefault(key, " ".join(form.lower().split()))
            own = _abbreviations_of(clean, synonyms=False)
            for abbr in own + (initials or {}).get(letter, []):
                if not (set(abbr) <= letters and len(set(abbr)) == len(abbr)):
                    abbreviations.setdefault(abbr, set()).add(letter)
            for abbr in _abbreviations_of(clean)[len(own):]:
                if not (set(abbr) <= letters and len(set(abbr)) == len(abbr)):
                    abbreviated_synonyms.setdefault(abbr, set()).add(letter)
        # A synonym never takes a form that is how another option is written.
        for key, who in by_synonym.items():
            owners.setdefault(key, who)
        for abbr, who in abbreviated_synonyms.items():
            abbreviations.setdefault(abbr, who)
        first: dict[str, list[Phrase]] = {}
        for (words, gaps), who in owners.items():
            first.setdefault(words[0], []).append((words, gaps, frozenset(who)))
        for phrases in first.values():
            phrases.sort(key=lambda p: len(p[0]), reverse=True)
        self.literals = {w: [(p[0], p[1], p[2], literal[(p[0], p[1])]) for p in phrases]
                         for w, phrases in first.items()}
        self.first = first
        self.anchors = [(a, w, _fast_entry(a, self.literals[w][0]), _whole_token(w))
                        for w in first for a in [anchor(w)]]
        self.abbreviations = {a: frozenset(w) for a, w in abbreviations.items()}
        self.written = re.compile("|".join(re.escape(a) for a in sorted(self.abbreviations))) \
            if self.abbreviations else None
        # (a few abbreviations are looked for one by one: a substring test each is cheaper
        # than the pattern, which tries every position of the text)
        self.few_written = tuple(sorted(self.abbreviations)) \
            if len(self.abbreviations) <= _FEW_WRITTEN else None
        cues: dict[str, set[str]] = {k: set() for k, _ in items}
        for anc, word, _, _ in self.anchors:
            for phrase in first[word]:
                for letter in phrase[2]:
                    cues[letter].add(anc)
        self.cues_of = {k: (tuple(sorted(v)), tuple(sorted(
            a for a, named in self.abbreviations.items() if k in named)))
            for k, v in cues.items()}

    def find(self, text: str, lowered: str) -> list[tuple[int, int, frozenset[str]]]:
        """Where options are named: (start, end, letters), left to right, longest first.

        The same spans as :meth:`find_by_tokens` (kept as the definition), found from the
        anchors of the phrases' first words with ``str.find``: most responses name one or two
        options, so only the words around an anchor are tokenised and folded. The reader asks
        for the same text at several steps: each text is searched once (callers never change
        the list they get).
        """
        key = (text, lowered)
        got = self._found.get(key)
        return got if got is not None else self._found.remember(key, self._find(text, lowered))

    def _find(self, text: str, lowered: str) -> list[tuple[int, int, frozenset[str]]]:
        view = lowered if lowered.isascii() else ascii_view(lowered)
        found: list[tuple[int, int, int, frozenset[str]]] = []
        n = len(view)
        for anc, word, fast, whole in self.anchors:
            j = view.find(anc)
            while j >= 0:
                if fast is not None:  # the option written exactly as offered
                    s = j - fast[0]
                    e = s + len(fast[1])
                    if s >= 0 and view.startswith(fast[1], s) and not (
                            s and (view[s - 1].isalnum() or view[s - 1] in "-_'")) and not (
                            e < n and (view[e].isalnum() or view[e] in "-_'")):
                        found.append((s, e, fast[2], fast[3]))
                        j = view.find(anc, e)
                        continue
                if whole and ((j and _joins(view, j)) or (j + 1 < n and view[j + 1].isalnum())):
                    j = view.find(anc, j + 1)  # inside a longer word: not this one-letter word
                    continue
                start = j
                while start and _joins(view, start):
                    start -= 1
                m = _TOKEN.match(view, start)
                if m is None:
                    j = view.find(anc, j + 1)
                    continue
                if fold(m.group()) == word:
                    got = self._match_at(view, m, word)
                    if got is not None:
                        found.append(got)
                j = view.find(anc, max(m.end(), j + 1))
        out = _leftmost_longest(found) if found else []
        return self._with_abbreviations(text, lowered, out)

    def may_name(self, text: str, view: str, letter: str) -> bool:
        """False only when :meth:`find` cannot name ``letter`` in ``text``.

        So when none of the anchors of its phrases is in ``view`` (``text`` lower-cased,
        ASCII) and none of its abbreviations in ``text``.
        """
        anchors, abbreviations = self.cues_of.get(letter, ((), ()))
        return any(a in view for a in anchors) or any(a in text for a in abbreviations)

    def find_by_tokens(self, text: str, lowered: str) -> list[tuple[int, int, frozenset[str]]]:
        """:meth:`find` by tokenising and folding every word (the definition; non-ASCII text)."""
        out: list[tuple[int, int, frozenset[str]]] = []
        if self.first:
            toks = [(m.start(), m.end(), fold(m.group())) for m in _TOKEN.finditer(lowered)]
            i, n = 0, len(toks)
            while i < n:
                k, who = self._match(lowered, toks, i)
                if k:
                    out.append((toks[i][0], toks[i + k - 1][1], who))
                    i += k
                else:
                    i += 1
        return self._with_abbreviations(text, lowered, out)

    def _with_abbreviations(self, text: str, lowered: str,
                            out: list[tuple[int, int, frozenset[str]]]
                            ) -> list[tuple[int, int, frozenset[str]]]:
        if self.written is not None and text != lowered and (
                _written_in(self.few_written, text) if self.few_written is not None
                else self.written.search(text) is not None):
            found = self._abbreviations(text)
            if found:
                taken = {(s, e) for s, e, _ in out}
                out = sorted(out + [f for f in found if (f[0], f[1]) not in taken])
        return out

    def _match_at(self, lowered: str, first: re.Match[str],
                  word: str) -> tuple[int, int, int, frozenset[str]] | None:
        """The longest phrase starting with the word ``first``: (start, end, words, letters)."""
        start = first.start()
        n = len(lowered)
        for words, _, who, literal in self.literals[word] if not (
                start and lowered[start - 1] in "-_") else ():
            # The common case: the option written exactly as offered (the longest first).
            end = start + len(literal)
            if lowered.startswith(literal, start) and (end >= n or not (
                    lowered[end].isalnum() or lowered[end] in "-_'")):
                return start, end, len(words), who
            break  # a longer phrase not written literally: compare word by word
        toks = [(first.start(), first.end(), word)]
        longest = len(self.first[word][0][0])
        pos = first.end()
        while len(toks) < longest:
            m = _TOKEN.search(lowered, pos)
            if m is None:
                break
            toks.append((m.start(), m.end(), fold(m.group())))
            pos = m.end()
        k, who = self._match(lowered, toks, 0)
        return (toks[0][0], toks[k - 1][1], k, who) if k else None

    def _match(self, lowered: str, toks: list[tuple[int, int, str]],
               i: int) -> tuple[int, frozenset[str]]:
        """Words matched at token ``i`` by the longest phrase that fits, and its letters."""
        phrases = self.first.get(toks[i][2])
        if not phrases:
            return 0, _NONE
        n = len(toks)
        for words, gaps, who in phrases:
            k = len(words)
            if i + k > n:
                continue
            if k > 1 and any(toks[i + j][2] != words[j]
                             or _gap(lowered, toks[i + j - 1][1], toks[i + j][0]) != gaps[j - 1]
                             for j in range(1, k)):
                continue
            start, end = toks[i][0], toks[i + k - 1][1]
            if (start and lowered[start - 1] in "-_") or (end < len(lowered)
                                                          and lowered[end] in "-_"):
                continue
            return k, who
        return 0, _NONE

    def _abbreviations(self, text: str) -> list[tuple[int, int, frozenset[str]]]:
        out = []
        for m in _ABBR_TOKEN.finditer(text):
            tok = m.group()
            who = self.abbreviations.get(tok) or self.abbreviations.get(
                tok[:-2] if tok.endswith("'s") else tok[:-1] if tok.endswith("s") else "")
            if who:
                out.append((m.start(), m.end(), who))
        return out


_FEW_WRITTEN: Final = 8


def _written_in(parts: tuple[str, ...], text: str) -> bool:
    """Whether one of ``parts`` is in ``text``: what the alternation of them searches for."""
    for p in parts:
        if p in text:
            return True
    return False


def _joins(view: str, i: int) -> bool:
    """Whether ``view[i - 1]`` belongs to the token holding ``view[i]`` (``i`` > 0).

    A letter or digit does, and an apostrophe between two of them ("crohn's"); an apostrophe
    after another one ends a token (:data:`~._fold.TOKEN`: "x''p" is "x'" and "p").
    """
    before = view[i - 1]
    return before.isalnum() or (before == "'" and i >= 2 and view[i - 2].isalnum())


def _whole_token(word: str) -> bool:
    """Whether only a token that *is* ``word`` (bar "'s") folds to it: a one-letter word.

    A one-letter first word (the genus of "S. aureus", a letter-named option) is found
    everywhere its letter is written; :func:`~._fold.fold` makes no longer token a single
    letter but "ae"/"oe" → "e", so for every letter except ``e`` a hit with a letter or
    digit beside it (or an apostrophe before it) is passed over without tokenising.
    """
    return len(word) == 1 and word != "e"


def _fast_entry(anc: str, phrase: tuple[tuple[str, ...], tuple[str, ...], frozenset[str], str]
                ) -> tuple[int, str, int, frozenset[str]] | None:
    """The fast-path entry of a phrase: (offset of the anchor, plain text, words, letters).

    None (no fast path) unless its plain text holds the anchor and begins and ends with a
    letter or digit.
    """
    words, _, who, literal = phrase
    offset = literal.find(anc) if anc else -1
    if offset < 0 or not (literal[:1].isalnum() and literal[-1:].isalnum()):
        return None
    return offset, literal, len(words), who


def _leftmost_then_longest(match: tuple[int, int, int, frozenset[str]]) -> tuple[int, int]:
    """The order of matches: by start, then the most words first (see ``_locate._position``)."""
    return match[0], -match[2]


def _leftmost_longest(found: list[tuple[int, int, int, frozenset[str]]]
                      ) -> list[tuple[int, int, frozenset[str]]]:
    """Non-overlapping matches, left to right, the longest at each start (the token scan's)."""
    if len(found) == 1:  # one match: nothing to order or drop
        return [(found[0][0], found[0][1], found[0][3])]
    out: list[tuple[int, int, frozenset[str]]] = []
    last = -1
    for start, end, _, who in sorted(found, key=_leftmost_then_longest):
        if start >= last:
            out.append((start, end, who))
            last = end
    return out


