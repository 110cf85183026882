r"""The phrase notation of the rule table, compiled to patterns and to the words that gate them.

A rule's words are written once, as phrases in a small notation, and everything the reader
needs is derived from them: the pattern that finds the phrase, the words without one of which
it cannot match (so a text without them is passed over before any pattern runs), and the words
the quick reading looks for.

The notation (case-insensitive; the text it is matched against is lower-cased):

- words separated by spaces: ``cannot be determined`` (white space of any length between them);
- ``(a|b c|d)``: one of the alternatives, each itself words (``(am|'m) not sure``);
- ``[x]`` / ``[a|b]``: optional words (``not [entirely|completely] sure``);
- ``word*``: the word and any ending (``exclud*`` for excluded, excludes, exclusion);
- ``...``: up to four words of anything but clause punctuation (``need ... to decide``);
- punctuation (``, : ; / ' - ? % _``) stands for itself, with optional white space around it;
- a phrase that opens (closes) with a letter or digit must open (close) at a word boundary.

Words of scripts written without spaces (Chinese, Japanese) are matched as substrings.

>>> compile_phrase("not [entirely|completely] sure").pattern.search("i'm not entirely sure").group()
'not entirely sure'
>>> sorted(compile_phrase("(cannot|can't) sure").anchors), compile_phrase("be exclud*").stems
(["can't", 'cannot'], frozenset({'exclud'}))
>>> compile_phrase("?x").pattern.pattern
'\\?\\s*x(?!\\w)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Final

__all__ = ["CompiledPhrase", "PhraseError", "compile_phrase", "expansions", "phrase_words"]

#: How many words ``...`` may stand for.
GAP_WORDS: Final = 4
_GAP: Final = r"(?:[^\s.;!?\n]+\s+){0," + str(GAP_WORDS) + r"}?"
_PUNCT: Final = frozenset(",:;/'-?%!=+&<>()[].\"_")
_IN_WORD: Final = frozenset("'-/.%*")


class PhraseError(ValueError):
    """A phrase that the notation cannot read (a test of the table catches it)."""


@dataclass(frozen=True)
class CompiledPhrase:
    """One phrase of the table, compiled.

    Attributes:
        source: the phrase as written in the table.
        pattern: the compiled pattern (IGNORECASE).
        anchors: words one of which every match holds as a whole word (lower case); for a
            phrase opened by a stem, the stem (see ``stems``).
        stems: word starts one of which every match holds (``exclud`` of ``exclud*``), where
            the phrase's first required word is a stem.
        substrings: text one of which every match holds, for words of scripts written without
            spaces (``可能``): looked for as substrings.
    """

    source: str
    pattern: re.Pattern[str]
    anchors: frozenset[str]
    stems: frozenset[str]
    substrings: frozenset[str]


def _tokens(source: str) -> list[str]:
    """The phrase split into words, groups, optionals, gaps and punctuation.

    ``' - / . % *`` inside a word belong to it ("can't", "r/o", "e.g", "exclud*"); standing
    alone, or any other mark, they are punctuation.
    """
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c.isspace():
            i += 1
        elif c in "([":
            if i and not source[i - 1].isspace() and source[i - 1] not in "([|":
                raise PhraseError(f"a group glued to a word in {source!r}: write each "
                                  "alternative whole")
            close = ")" if c == "(" else "]"
            depth, j = 0, i
            while j < n:
                if source[j] in "([":
                    depth += 1
                elif source[j] in ")]":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j >= n or source[j] != close:
                raise PhraseError(f"unbalanced {c!r} in {source!r}")
            out.append(source[i:j + 1])
            i = j + 1
        elif source.startswith("...", i):
            out.append("...")
            i += 3
        else:
            j = i
            while j < n and not source[j].isspace() and source[j] not in "([" and not (
                    source[j] in _PUNCT and source[j] not in _IN_WORD):
                if source.startswith("...", j):
                    break
                j += 1
            if j == i:  # a mark that is never part of a word
                out.append(c)
                i += 1
                continue
            word = source[i:j]
            if all(ch in _PUNCT for ch in word):
                out.extend(word)  # punctuation standing alone
            else:
                out.append(word)
            i = j
    return out


def _alternatives(group: str) -> list[str]:
    """The top-level ``|`` alternatives inside a group's brackets."""
    inner = group[1:-1]
    parts, depth, start = [], 0, 0
    for i, c in enumerate(inner):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "|" and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    return [p.strip() for p in parts]


def _is_word(token: str) -> bool:
    return token not in _PUNCT and token != "..." and token[:1] not in "(["


def _word_source(word: str) -> str:
    """A word (maybe a stem, maybe holding ' - / . %) as pattern source."""
    stem = word.endswith("*")
    body = word[:-1] if stem else word
    src = "".join(r"\s*-\s*" if c == "-" else r"\s*/\s*" if c == "/" else re.escape(c)
                  for c in body)
    return src + (r"\w*" if stem else "")


def _source(tokens: list[str]) -> str:
    """Pattern source of a token list: white space between words, optional around punctuation.

    An optional part carries the white space before it (after the first required part) or
    after it (before it), so a phrase matches the same text with or without it. Inside a
    group, each alternative carries its own separator ("i (am|'m)": "i am", "i'm").
    """
    out = ""
    emitted = False  # a required part has been written
    wordlike = False  # the last part written ends with a word
    spaced = False  # the last part written ends with the white space it needs (a gap)
    for tok in tokens:
        if tok == "...":
            out += ("" if spaced or not emitted else r"\s+") + _GAP
            spaced = True
            continue
        optional = tok[0] == "["
        if tok[:1] in "([":
            alts = _alternatives(tok)
            if not emitted:
                body = "(?:" + "|".join(_source(_tokens(a)) for a in alts if a) + ")"
                if optional:
                    out += f"(?:{body}\\s*)?"
                    spaced = True
                    continue
                out += body
                emitted, wordlike, spaced = True, True, False
                continue
            seps = [_sep(wordlike, spaced, _tokens(a)[0] if a else "") for a in alts]
            pairs = zip(seps, alts, strict=True)
            body = "(?:" + "|".join(sep + _source(_tokens(a)) for sep, a in pairs if a) + ")"
            out += f"(?:{body})?" if optional or "" in alts else body
            if not optional:
                wordlike = all(_tokens(a)[-1] not in _PUNCT for a in alts if a)
                spaced = False
            continue
        is_word = tok not in _PUNCT
        src = _word_source(tok) if is_word else re.escape(tok)
        if not emitted:
            out += src
            emitted, wordlike, spaced = True, is_word, False
            continue
        out += _sep(wordlike, spaced, tok) + src
        wordlike, spaced = is_word, False
    return out


def _sep(wordlike: bool, spaced: bool, next_token: str) -> str:
    """The white space between what was written and the next token."""
    if spaced:
        return ""
    if wordlike and next_token and next_token not in _PUNCT and next_token[0] not in "'":
        return r"\s+"
    return r"\s*"


#: Words too common to gate a phrase: another required word of the phrase is chosen.
_COMMON: Final = frozenset(
    "the a an is are was were be been being in on of to and or it its this that these those i "
    "we you he she they there with for as at by so if my me our from".split())


def _required(tokens: list[str]) -> list[tuple[set[str], set[str]]]:
    """Per required token: (words, stems) one of which every match holds there."""
    out: list[tuple[set[str], set[str]]] = []
    for tok in tokens:
        if tok == "..." or tok in _PUNCT or tok[0] == "[":
            continue
        if tok[0] == "(":
            words: set[str] = set()
            stems: set[str] = set()
            for alt in _alternatives(tok):
                if not alt:
                    break
                w, st = _best(_tokens(alt))
                if not w and not st:
                    break
                words |= w
                stems |= st
            else:
                out.append((words, stems))
            continue
        if tok.endswith("*"):
            out.append((set(), {tok[:-1].lower()}))
        else:
            out.append(({tok.lower()}, set()))
    return out


def _best(tokens: list[str]) -> tuple[set[str], set[str]]:
    """The required token that gates best: no common word among its alternatives, longest."""
    req = _required(tokens)
    if not req:
        return set(), set()

    def score(r: tuple[set[str], set[str]]) -> tuple[bool, int]:
        alts = r[0] | r[1]
        return (not (r[0] & _COMMON), min(len(a) for a in alts))

    return max(req, key=score)


_SPACELESS: Final = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


@cache
def compile_phrase(source: str) -> CompiledPhrase:
    """Compile one phrase of the notation (see the module docstring).

    Raises:
        PhraseError: unbalanced brackets, or a phrase with no required word (it would match
            everywhere).
    """
    tokens = _tokens(source.strip())
    if not tokens:
        raise PhraseError("empty phrase")
    body = _source(tokens)
    opens = r"(?<!\w)" if _opens_with_word(tokens) else ""
    closes = r"(?!\w)" if _closes_with_word(tokens) else ""
    pattern = re.compile(opens + body + closes, re.IGNORECASE)
    words, stems = _best(tokens)
    if not any(c.isalnum() for c in source):  # a mark standing for itself ("-", "\u2013")
        return CompiledPhrase(source, pattern, frozenset(), frozenset(),
                              frozenset({source.strip()}))
    if not words and not stems:
        if all(t in _PUNCT for t in tokens):
            return CompiledPhrase(source, pattern, frozenset(), frozenset(),
                                  frozenset({source.strip()}))
        raise PhraseError(f"no required word in {source!r}")
    substrings = frozenset(w for w in words if _SPACELESS.search(w) or w[:1] == "'"
                           or w[-1:] == "'" or "'" in w and not w.replace("'", "").isalnum())
    anchors = frozenset(_anchor_word(w) for w in words - substrings)
    return CompiledPhrase(source, pattern, anchors, frozenset(stems), substrings)


def _opens_with_word(tokens: list[str]) -> bool:
    """Whether a match may open with a letter or digit (then it must open at a word start)."""
    tok = tokens[0]
    if tok[:1] in "([":
        return any(_opens_with_word(_tokens(a)) for a in _alternatives(tok) if a) or (
            tok[0] == "[" and len(tokens) > 1 and _opens_with_word(tokens[1:]))
    return tok[:1].isalnum() and not _SPACELESS.match(tok[0])


def _closes_with_word(tokens: list[str]) -> bool:
    """Whether a match may close with a letter or digit (then it must close at a word end).

    A stem (``exclud*``) closes anywhere.
    """
    tok = tokens[-1]
    if tok[:1] in "([":
        alts = [a for a in _alternatives(tok) if a]
        if any(_closes_with_word(_tokens(a)) for a in alts):
            return True
        return tok[0] == "[" and len(tokens) > 1 and _closes_with_word(tokens[:-1])
    if tok.endswith("*"):
        return False
    return tok[-1:].isalnum() and not _SPACELESS.match(tok[-1])


def _anchor_word(word: str) -> str:
    """The word a text's word tokens hold for a required word ("can't", "r/o" stay whole).

    A word joined by other marks ("peut-être", "non-diagnostic", "100%") is held by its
    parts: the longest part anchors it.
    """
    word = word.strip(".,;:!?").lower()
    parts = [x for x in re.split(r"[^\w'/]+", word) if x]
    return max(parts, key=len) if parts else word


def expansions(source: str, limit: int = 64) -> list[str]:
    """The plain word sequences a phrase stands for (optional parts both ways; stems bare).

    Used by the table's tests: each expansion is a text the phrase must match.

    >>> expansions("not [entirely] sure")
    ['not sure', 'not entirely sure']
    """
    out = [""]
    for tok in _tokens(source.strip()):
        if tok == "...":
            choices = [""]
        elif tok[:1] in "([":
            alts = [e for a in _alternatives(tok) for e in (expansions(a, limit) if a else [""])]
            choices = ([""] if tok[0] == "[" else []) + alts
        else:
            choices = [tok[:-1] if tok.endswith("*") else tok]
        out = [f"{a} {c}".strip() if c and a and not (c in _PUNCT or a[-1:] in "'/-")
               else f"{a}{c}" for a in out for c in choices][:limit]
    return [" ".join(e.split()) for e in out]


def phrase_words(source: str) -> frozenset[str]:
    """Every literal word of a phrase, lower case (stems bare): its whole vocabulary."""
    words: set[str] = set()
    for tok in _tokens(source.strip()):
        if tok[:1] in "([":
            for alt in _alternatives(tok):
                words |= phrase_words(alt) if alt else set()
        elif _is_word(tok):
            words.add(tok.rstrip("*").lower())
    return frozenset(words)
