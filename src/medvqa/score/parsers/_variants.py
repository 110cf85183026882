"""Option texts as a clinician reads them: spelling, hyphens, plurals and abbreviations.

An option is named by its text when the response writes the same words in the same order,
compared word by word after :func:`fold` — a general spelling rule, not a word list:

- case and diacritics are ignored (``Ménétrier`` = ``menetrier``);
- a hyphen and a space between words are the same (``non-glaucoma`` = ``non glaucoma``), and a
  hyphenated option also matches its words written together (``nonglaucoma``); other
  punctuation inside an option text must be written as in the option (``E. coli``);
- possessives are dropped (``Crohn's`` = ``Crohn``), plurals are made singular
  (``-ies`` → ``-y``, ``-ices`` → ``-ex``, ``-ses`` → ``-sis``, ``-sses`` → ``-ss``,
  ``-xes``/``-ches``/``-shes`` → without ``-es``, ``-aces`` → ``-ax`` (pneumothoraces),
  ``-ae`` → ``-a``, ``-um`` → ``-a``, Latin ``-i`` → ``-us``,
  a final ``-s`` after anything but ``s``, ``u`` or ``i``);
- British and American spellings are one: ``ae`` and ``oe`` → ``e`` (haemorrhage, oedema,
  oesophagus, naevus), ``-our`` → ``-or`` (tumour), ``-ise``/``-isation`` → ``-ize`` …,
  ``-yse`` → ``-yze``, a final ``-tre``/``-bre``/``-vre`` → ``-ter`` … (centre, fibre);
- an option text with a part in brackets (``Glioblastoma (GBM)``) is also named by each part;
- a binomial name is also named with its genus abbreviated (``Staphylococcus aureus`` by
  ``S. aureus``), as microbiology writes it;
- an option text that contains the full name of a tabled abbreviation is also named with the
  abbreviation in its place ("Moderate non-proliferative diabetic retinopathy" by "Moderate
  NPDR"), in any case, as part of the longer phrase.

The folded forms are only compared with each other (never shown), so a rule that also folds an
unrelated word ("does" → "des") costs nothing. A hyphenated compound is one word: "glaucoma"
is not named inside "non-glaucoma", nor "fatty" inside "fatty-glandular".

Abbreviations come from the shipped table ``resources/answers/abbreviations.yaml`` (its header
says what is in it and why); they are read only in capitals, only when they name exactly one
option, and never when it could be a list of the item's option letters ("AD", not "BCC").

>>> fold("Haemorrhages"), fold("oedema"), fold("tumours"), fold("nuclei"), fold("Crohn's")
('hemorrhage', 'edema', 'tumor', 'nucleus', 'crohn')
>>> ix = PhraseIndex((("A", "Pulmonary oedema"), ("B", "Hepatocellular carcinoma")))
>>> text = "HCC, not pulmonary edema"
>>> [(s, e, sorted(k)) for s, e, k in ix.find(text, text.lower())]
[(0, 3, ['B']), (9, 24, ['A'])]
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

import yaml

from medvqa._resources import shipped_text

__all__ = ["PhraseIndex", "fold", "phrase_tokens"]

_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*'?")
_BRACKETED = re.compile(r"^(.+?)\s*[(\[](.+?)[)\]]\s*$")
_BINOMIAL = re.compile(r"^([A-Z][a-z]{3,})\s+([a-z]{3,})$")
_ABBR_TOKEN = re.compile(r"(?<![\w-])[A-Z][A-Z0-9]*[A-Z0-9](?:s|'s)?(?![\w-])")
_IS_TO_IZ = re.compile(r"(?<=[a-z])is(?=e|ation|ing|ed)")
_YS_TO_YZ = re.compile(r"(?<=[a-z])ys(?=e|ing|ed)")
_RE_END = re.compile(r"(?<=[a-z][tbv])re$")


@lru_cache(maxsize=1 << 16)
def fold(word: str) -> str:
    """One word's comparison form (see the module docstring for the rules).

    >>> fold("centre"), fold("Metastases"), fold("masses"), fold("bullae"), fold("opacities")
    ('center', 'metastas', 'mass', 'bulla', 'opacity')
    >>> fold("metastasis") == fold("metastases") and fold("disease") == fold("diseases")
    True
    """
    w = word.lower()
    if not w.isascii():
        w = "".join(c for c in unicodedata.normalize("NFKD", w) if not unicodedata.combining(c))
    if w.endswith("'s"):
        w = w[:-2]
    w = w.rstrip("'")
    if len(w) >= 4 and w.isalpha():
        w = _singular(w)
    if "ae" in w or "oe" in w:
        w = w.replace("ae", "e").replace("oe", "e")
    if "our" in w:
        w = w.replace("our", "or")
    if "is" in w or "ys" in w:
        w = _YS_TO_YZ.sub("yz", _IS_TO_IZ.sub("iz", w))
    if w.endswith("re") and _RE_END.search(w):
        w = w[:-2] + "er"
    return w


def _singular(w: str) -> str:
    """A plural made singular, and the endings that vary between a word's forms made one."""
    if w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith("ices"):
        return w[:-4] + "ex"
    if w.endswith("aces") and len(w) >= 7:
        return w[:-4] + "ax"  # pneumothoraces
    if w.endswith("ix"):
        return w[:-2] + "ex"
    if w.endswith("sses"):
        return w[:-2]
    if w.endswith(("sis", "ses")):
        return w[:-2]  # metastasis, metastases, diseases, viruses → one stem
    if w.endswith("se"):
        return w[:-1]  # disease → diseas (the stem of "diseases")
    if w.endswith(("xes", "ches", "shes", "zes")):
        return w[:-2]
    if w.endswith("ae"):
        return w[:-1]
    if w.endswith("um"):
        return w[:-2] + "a"  # diverticulum, diverticula
    if w.endswith("i") and not w.endswith("ii"):
        return w[:-1] + "us"
    if w.endswith("s") and w[-2] not in "siu":
        return w[:-1]
    return w


def _gap(text: str, start: int, end: int) -> str:
    """What separates two words: ``""`` for spaces or a hyphen, else the punctuation itself."""
    g = text[start:end].strip()
    return "" if g in ("", "-", "\u2010", "\u2011") else g


def phrase_tokens(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """An option text's folded words and the separators between them (:func:`_gap`).

    >>> phrase_tokens("E. coli"), phrase_tokens("Non-glaucoma")
    ((('e', 'colus'), ('.',)), (('non', 'glaucoma'), ('',)))
    """
    ms = list(_TOKEN.finditer(text.lower()))
    words = tuple(fold(m.group()) for m in ms)
    gaps = tuple(_gap(text, a.end(), b.start()) for a, b in zip(ms, ms[1:], strict=False))
    return words, gaps


Phrase = tuple[tuple[str, ...], tuple[str, ...], frozenset[str]]
_NONE: frozenset[str] = frozenset()


class PhraseIndex:
    """Per option set, built once: every way of naming each option by its words.

    Args:
        items: the options as (letter, text) pairs.
        skip: option texts not to index (yes/no words on a yes/no item).

    Attributes:
        first: first folded word → the phrases that start with it, longest first.
        anchors: (anchor, first word, fast entry): a substring every written form of the word
            contains; where the longest phrase's plain text holds the anchor, (offset of the
            anchor in it, the text, its words, its letters) to accept it in place.
        literals: first word → its phrases with their plain lower-case text (the fast path).
        abbreviations: capitalised abbreviation → the letters it names.
    """

    __slots__ = ("abbreviations", "anchors", "first", "literals")

    def __init__(self, items: tuple[tuple[str, str], ...], skip: frozenset[str] = frozenset()):
        owners: dict[tuple[tuple[str, ...], tuple[str, ...]], set[str]] = {}
        literal: dict[tuple[tuple[str, ...], tuple[str, ...]], str] = {}
        abbreviations: dict[str, set[str]] = {}
        letters = {k.upper() for k, _ in items}
        for letter, text in items:
            clean = " ".join(text.replace("*", " ").replace("`", " ").split()).rstrip(".")
            if not clean or clean.lower() in skip:
                continue
            for form in _forms(clean):
                key = phrase_tokens(form)
                if key[0]:
                    owners.setdefault(key, set()).add(letter)
                    literal.setdefault(key, " ".join(form.lower().split()))
            for abbr in _abbreviations_of(clean):
                if not (set(abbr) <= letters and len(set(abbr)) == len(abbr)):
                    abbreviations.setdefault(abbr, set()).add(letter)
        first: dict[str, list[Phrase]] = {}
        for (words, gaps), who in owners.items():
            first.setdefault(words[0], []).append((words, gaps, frozenset(who)))
        for phrases in first.values():
            phrases.sort(key=lambda p: len(p[0]), reverse=True)
        self.literals = {w: [(p[0], p[1], p[2], literal[(p[0], p[1])]) for p in phrases]
                         for w, phrases in first.items()}
        self.first = first
        self.anchors = [(a, w, _fast_entry(a, self.literals[w][0])) for w in first
                        for a in [anchor(w)]]
        self.abbreviations = {a: frozenset(w) for a, w in abbreviations.items()}

    def find(self, text: str, lowered: str) -> list[tuple[int, int, frozenset[str]]]:
        """Where options are named: (start, end, letters), left to right, longest first.

        The same spans as :meth:`find_by_tokens` (kept as the definition), found from the
        anchors of the phrases' first words with ``str.find``: most responses name one or two
        options, so only the words around an anchor are tokenised and folded.
        """
        view = lowered if lowered.isascii() else ascii_view(lowered)
        found: list[tuple[int, int, int, frozenset[str]]] = []
        n = len(view)
        for anchor, word, fast in self.anchors:
            j = view.find(anchor)
            while j >= 0:
                if fast is not None:  # the option written exactly as offered
                    s = j - fast[0]
                    e = s + len(fast[1])
                    if s >= 0 and view.startswith(fast[1], s) and not (
                            s and (view[s - 1].isalnum() or view[s - 1] in "-_'")) and not (
                            e < n and (view[e].isalnum() or view[e] in "-_'")):
                        found.append((s, e, fast[2], fast[3]))
                        j = view.find(anchor, e)
                        continue
                start = j
                while start and (view[start - 1].isalnum() or view[start - 1] == "'"):
                    start -= 1
                m = _TOKEN.match(view, start)
                if m is None:
                    j = view.find(anchor, j + 1)
                    continue
                if fold(m.group()) == word:
                    got = self._match_at(view, m, word)
                    if got is not None:
                        found.append(got)
                j = view.find(anchor, max(m.end(), j + 1))
        out = _leftmost_longest(found) if found else []
        return self._with_abbreviations(text, lowered, out)

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
        if self.abbreviations and text != lowered and any(a in text for a in self.abbreviations):
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


_VIEW: dict[int, str] = {}


def ascii_view(lowered: str) -> str:
    """``lowered`` with each accented letter replaced by its base letter, same length.

    Characters whose decomposition is not one ASCII letter are kept (CJK, dashes, ligatures),
    so positions in the view are positions in ``lowered``.

    >>> ascii_view("m\u00e9ningiome \u2014 \u6c14\u80f8")
    'meningiome \u2014 \u6c14\u80f8'
    """
    for c in set(lowered):
        if c.isascii() or ord(c) in _VIEW:
            continue
        base = "".join(x for x in unicodedata.normalize("NFKD", c) if not unicodedata.combining(x))
        _VIEW[ord(c)] = base if len(base) == 1 and base.isascii() else c
    return lowered.translate(_VIEW)


def anchor(word: str) -> str:
    """A substring of every lower-case ASCII word that folds to ``word`` (:func:`fold`).

    The ending may change (plurals, -re/-er, -ix/-ex), so the last two letters are left out
    of longer words; an ``a``/``o`` may be written before an ``e`` (so an ``e`` may only start
    the anchor), a ``u`` between ``o`` and ``r``, an ``s`` for a ``z``. The longest stretch
    that none of this touches is the anchor ("" when there is none: then every response is
    searched).

    >>> anchor("edema"), anchor("pneumothorax"), anchor("adenocarcinoma"), anchor("2")
    ('ed', 'eumotho', 'enocarcino', '2')
    """
    base = word[:-2] if len(word) >= 4 else word
    runs, run = [], ""
    for i, c in enumerate(base):
        if c == "z" or (c == "r" and i and base[i - 1] == "o"):
            runs.append(run)
            run = ""
            continue
        if c == "e":
            runs.append(run)
            run = "e"
            continue
        run += c
    runs.append(run)
    return max(runs, key=len)


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


def _leftmost_longest(found: list[tuple[int, int, int, frozenset[str]]]
                      ) -> list[tuple[int, int, frozenset[str]]]:
    """Non-overlapping matches, left to right, the longest at each start (the token scan's)."""
    out: list[tuple[int, int, frozenset[str]]] = []
    last = -1
    for start, end, _, who in sorted(found, key=lambda f: (f[0], -f[2])):
        if start >= last:
            out.append((start, end, who))
            last = end
    return out


def _forms(text: str) -> list[str]:
    """The texts that name one option.

    Itself, its bracketed parts, its hyphens closed up, and the full names of an abbreviation
    it is.
    """
    forms = [text]
    m = _BRACKETED.match(text)
    if m:
        forms += [m.group(1), m.group(2)]
    forms += [f.replace("-", "") for f in list(forms) if "-" in f]
    for f in list(forms):
        forms += _ABBREVIATIONS.get(f.strip(), [])
    b = _BINOMIAL.match(text)
    if b:
        forms.append(f"{b.group(1)[0]}. {b.group(2)}")
    forms += _abbreviated_inside(text)
    return forms


def _abbreviated_inside(text: str) -> list[str]:
    """The option text with a tabled full name inside it replaced by its abbreviation."""
    raw = _TOKEN.findall(text.lower())
    words = [fold(w) for w in raw]
    out: list[str] = []
    for (name, _gaps), abbrs in _BY_NAME.items():
        k = len(name)
        if 1 < k < len(words):
            for i in range(len(words) - k + 1):
                if tuple(words[i:i + k]) == name:
                    out += [" ".join([*raw[:i], a.lower(), *raw[i + k:]]) for a in abbrs]
    return out


def _abbreviations_of(text: str) -> list[str]:
    """The capitalised abbreviations whose full names include this option text (or a part)."""
    forms = [text]
    m = _BRACKETED.match(text)
    if m:
        forms += [m.group(1), m.group(2)]
    out = []
    for f in forms:
        out += _BY_NAME.get(phrase_tokens(f), [])
        if f.strip() in _ABBREVIATIONS:
            out.append(f.strip())
    return out


def _load() -> dict[str, list[str]]:
    data: Any = yaml.safe_load(shipped_text("resources", "answers", "abbreviations.yaml"))
    out: dict[str, list[str]] = {}
    for table in data["abbreviations"].values():
        for abbr, names in table.items():
            out.setdefault(str(abbr), []).extend(str(n) for n in names)
    return out


_ABBREVIATIONS = _load()
_BY_NAME: dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]] = {}
for _abbr, _names in _ABBREVIATIONS.items():
    for _name in _names:
        _BY_NAME.setdefault(phrase_tokens(_name), []).append(_abbr)
