r"""The rule table compiled: per kind, its phrases' patterns and the words that gate them.

A :class:`RuleBook` is built once from :data:`~.rules.RULES` (:func:`book`). The reader asks
it, for one kind of rule, whether and where a phrase of that kind occurs in a text. Each
phrase is searched only where one of its anchor words (the words every match holds,
:mod:`._phrases`) is among the text's words, so a text without the words of a kind costs a
set intersection. :attr:`RuleBook.cue_words` (every anchor of every kind) is what the quick
reading looks for: a text that holds none of them, and none of the reader's structural
characters, is read from its option texts alone.

A book can be built without some phrases (``without``): the table's test removes each phrase
in turn and checks that an example's decision changes, on the quick path and the full one.

>>> b = book()
>>> b.search(Kind.HEDGE_SCOPED, "it could be pneumothorax", word_tokens("it could be pneumothorax"))
('hedge.modal', 'could be')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final

from medvqa.reading._memo import BoundedMemo
from medvqa.reading._phrases import CompiledPhrase, compile_phrase, phrase_words
from medvqa.reading.rules import RULES, Kind, Rule

__all__ = ["RuleBook", "book", "refuses", "word_tokens"]

_TOKEN: Final = re.compile(r"[^\W_]+(?:['/][^\W_]+)*")


_PLAIN_TOKEN: Final = re.compile(r"[^\W_]+")
# On ASCII text a word character less ``_`` is an ASCII letter or digit: every other byte
# made a space, the words are what ``split`` leaves (one table lookup a character, where the
# pattern asks the Unicode tables; the same words, a property test says).
_ASCII_WORD_BYTES: Final = bytes(c if chr(c).isalnum() else 32 for c in range(128)) \
    + bytes(32 for _ in range(128))
# The reader asks for the words of the same text at several steps: each is found once.
_TOKENS_SEEN: Final[BoundedMemo[str, frozenset[str]]] = BoundedMemo(1 << 12)


def word_tokens(lowered: str) -> frozenset[str]:
    """The words of a lower-case text a phrase's anchor may be, joins included.

    A word joined by ``'`` or ``/`` is kept whole and by its parts ("can't", "can"; "r/o",
    "r", "o"), so an anchor is found as a pattern's word boundary finds it.

    >>> sorted(word_tokens("it's r/o, 'no' café"))
    ['café', 'it', "it's", 'no', 'o', 'r', 'r/o', 's']
    """
    got = _TOKENS_SEEN.get(lowered)
    if got is not None:
        return got
    plain = frozenset(lowered.encode().translate(_ASCII_WORD_BYTES).decode().split()) \
        if lowered.isascii() else frozenset(_PLAIN_TOKEN.findall(lowered))
    if "'" not in lowered and "/" not in lowered:
        return _TOKENS_SEEN.remember(lowered, plain)
    return _TOKENS_SEEN.remember(lowered, frozenset(_TOKEN.findall(lowered)) | plain)


Entry = tuple[str, CompiledPhrase]


def _any_in(parts: tuple[str, ...], text: str) -> bool:
    """Whether any of ``parts`` is in ``text`` (a loop: cheaper than a pattern for a few)."""
    for p in parts:
        if p in text:
            return True
    return False


def _literals(parts: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern that finds any of ``parts`` as plain text, or None where there is none."""
    alternatives = sorted({re.escape(p) for p in parts})
    return re.compile("|".join(alternatives)) if alternatives else None


class RuleBook:
    """The rules compiled (see the module docstring).

    Args:
        rules: the table.
        without: phrase sources to leave out (the table's test).

    Attributes:
        cue_words: every anchor word of every phrase (lower case).
        cue_stems: every stem that opens a phrase (``exclud``).
        cue_substrings: every anchor of a script written without spaces (substrings).
        words: kind → every literal word of its phrases (what a key or a word list means).
    """

    def __init__(self, rules: Sequence[Rule] = RULES, without: frozenset[str] = frozenset()):
        self._by_kind: dict[Kind, list[Entry]] = {k: [] for k in Kind}
        self._anchors: dict[Kind, dict[str, list[Entry]]] = {k: {} for k in Kind}
        self._stems: dict[Kind, list[tuple[str, Entry]]] = {k: [] for k in Kind}
        self._subs: dict[Kind, list[tuple[str, Entry]]] = {k: [] for k in Kind}
        self.words: dict[Kind, frozenset[str]] = {}
        words: dict[Kind, set[str]] = {k: set() for k in Kind}
        cue_words: set[str] = set()
        cue_stems: set[str] = set()
        cue_subs: set[str] = set()
        for r in rules:
            for source in r.phrases:
                if source in without:
                    continue
                phrase = compile_phrase(source)
                entry = (r.id, phrase)
                self._by_kind[r.kind].append(entry)
                for a in phrase.anchors:
                    self._anchors[r.kind].setdefault(a, []).append(entry)
                self._stems[r.kind].extend((s, entry) for s in phrase.stems)
                self._subs[r.kind].extend((s, entry) for s in phrase.substrings)
                words[r.kind] |= phrase_words(source)
                cue_words |= phrase.anchors
                cue_stems |= phrase.stems
                cue_subs |= phrase.substrings
        self.words = {k: frozenset(v) for k, v in words.items()}
        self.cue_words = frozenset(cue_words)
        self.cue_stems = tuple(sorted(cue_stems))
        self.cue_substrings = tuple(sorted(cue_subs))
        self._keys = {k: frozenset(v) for k, v in self._anchors.items()}
        # Stems and substrings are both found inside words: one pattern per kind finds
        # whether any is there (most texts hold none), before each is looked for.
        self._loose: dict[Kind, list[tuple[str, Entry]]] = {
            k: self._stems[k] + self._subs[k] for k in Kind}
        self._loose_ascii = {k: tuple(x for x, _ in v if x.isascii()) for k, v in
                             self._loose.items()}
        self._loose_re = {k: _literals(x for x, _ in v) for k, v in self._loose.items() if v}
        self._order = {k: {id(e[1]): i for i, e in enumerate(v)}
                       for k, v in self._by_kind.items()}
        self._sources: dict[Kind, tuple[str, ...]] = {}
        self._gates: dict[frozenset[Kind], tuple[frozenset[str], re.Pattern[str] | None,
                                                 tuple[str, ...]]] = {}

    def sources(self, kind: Kind) -> tuple[str, ...]:
        """The phrases of ``kind`` as written in the table, sorted."""
        got = self._sources.get(kind)
        if got is None:
            got = self._sources[kind] = tuple(sorted(p.source for _, p in self._by_kind[kind]))
        return got

    def entries(self, kind: Kind) -> list[Entry]:
        """The (rule id, compiled phrase) of ``kind``, in table order."""
        return self._by_kind[kind]

    def candidates(self, kind: Kind, lowered: str, tokens: frozenset[str]) -> list[Entry]:
        """The phrases of ``kind`` that may match a text with these words, in table order."""
        hits = self._keys[kind] & tokens
        if lowered.isascii():
            parts = self._loose_ascii[kind]
            loose = bool(parts) and _any_in(parts, lowered)
        else:
            loose_re = self._loose_re.get(kind)
            loose = loose_re is not None and loose_re.search(lowered) is not None
        if not hits and not loose:
            return []
        index = self._anchors[kind]
        got: dict[int, Entry] = {}
        for w in hits:
            for entry in index[w]:
                got[id(entry[1])] = entry
        if loose:
            for part, entry in self._loose[kind]:
                if part in lowered:
                    got[id(entry[1])] = entry
        if len(got) <= 1:
            return list(got.values())
        order = self._order[kind]
        return sorted(got.values(), key=lambda e: order[id(e[1])])

    def search(self, kind: Kind, lowered: str, tokens: frozenset[str], start: int = 0,
               end: int | None = None) -> tuple[str, str] | None:
        """(rule id, matched text) of the leftmost phrase of ``kind`` in ``lowered[start:end]``."""
        best: tuple[int, str, str] | None = None
        stop = len(lowered) if end is None else end
        for rule_id, phrase in self.candidates(kind, lowered, tokens):
            m = phrase.pattern.search(lowered, start, stop)
            if m is not None and (best is None or m.start() < best[0]):
                best = (m.start(), rule_id, m.group())
        return None if best is None else (best[1], best[2])

    def spans(self, kind: Kind, lowered: str, tokens: frozenset[str], start: int = 0,
              end: int | None = None) -> list[tuple[int, int, str]]:
        """Every (start, end, rule id) of a phrase of ``kind``, sorted, overlaps kept."""
        found = self.candidates(kind, lowered, tokens)
        if not found:
            return []
        stop = len(lowered) if end is None else end
        out = [(m.start(), m.end(), rule_id) for rule_id, phrase in found
               for m in phrase.pattern.finditer(lowered, start, stop)]
        out.sort()
        return out

    def alternation(self, kinds: Iterable[Kind]) -> str:
        """One pattern source of every phrase of ``kinds``, each in a group named by its index.

        For anchored uses (a negation right after a mention) where a pattern is matched at a
        known position; :meth:`rule_of` names the rule of a match.
        """
        parts = []
        for k in kinds:
            for i, (_, phrase) in enumerate(self._by_kind[k]):
                parts.append(f"(?P<{k.name}_{i}>{phrase.pattern.pattern})")
        return "|".join(parts) if parts else "(?!)"

    def rule_of(self, m: re.Match[str]) -> str:
        """The rule id of a match of an :meth:`alternation` pattern."""
        name = m.lastgroup or ""
        kind_name, _, index = name.rpartition("_")
        return self._by_kind[Kind[kind_name]][int(index)][0]

    def any_of(self, kinds: frozenset[Kind], lowered: str, tokens: frozenset[str]) -> bool:
        """Whether a phrase of one of ``kinds`` may occur in a text: its words' gate.

        False means none can match (the quick reading's and the checks' gate); True only
        that one may.
        """
        gate = self._gates.get(kinds)
        if gate is None:
            words = frozenset().union(*(self._keys[k] for k in kinds))
            gate = self._gates[kinds] = (words, _literals(
                x for k in kinds for x, _ in self._loose[k]), tuple(sorted(
                    {x for k in kinds for x in self._loose_ascii[k]})))
        words, loose_re, loose_ascii = gate
        if not words.isdisjoint(tokens):
            return True
        if lowered.isascii():
            return bool(loose_ascii) and _any_in(loose_ascii, lowered)
        return loose_re is not None and loose_re.search(lowered) is not None


@lru_cache(maxsize=8)
def book(without: frozenset[str] = frozenset()) -> RuleBook:
    """The shipped table compiled (``without`` some phrases, for the table's test)."""
    return RuleBook(RULES, without)


def refuses(text: str) -> bool:
    """Whether ``text`` holds a refusal of the rule table (the free-text and region styles)."""
    lowered = text.lower()
    return book().search(Kind.REFUSAL, lowered, word_tokens(lowered)) is not None
