"""Options read as an ordered scale: grades, stages, types, classes, categories.

One grammar and no list of scales: a name (:mod:`._scale_names`), then a number (Arabic, Roman
I–XII, zero–twenty, an ordinal before a hard word: "second-degree") with an optional suffix
("4B", "IIF", "T2b"), a letter value ("Child-Pugh B", "LR-M") or a composite ("7 (3+4)",
"three plus four"). An option may be a point ("Grade 2"), a range of the scale ("Type III-IV",
"Grade 1-2") or a bound ("grade ≥ 3", "Grade 3 or higher"); a value names the options whose
range holds it.

Another scale's name makes a value name nothing: a *-RADS word, a capitalised name before the
value or its generic word ("Gleason grade 4"), an acronym right before the value ("LR 4B" for
Lung-RADS) and, where the set names its scale, any unknown acronym; so does statistical notation
("n = 3"). A number without a name counts only in a bare answer, and not as a count, date, time
or version ("3 cores", "2 of 5", "10:30", "v2"), except a value with the suffix of exactly one
option standing alone ("4A. Solid nodule …"). A value without an option's suffix is compatible
with each suffix ("BI-RADS 4" with 4A/4B/4C), a suffix the option lacks is ignored ("4B" reads
"BI-RADS 4", "Ia" reads "Type I"), and where both are offered the exact value wins.

>>> s = scale_of(["Type I-II", "Type III-IV", "Type V-VI"], "What is the Fitzpatrick type?")
>>> [(m.start, m.end, sorted(m.letters)) for m in s.find("Fitzpatrick 4 skin")]
[(0, 13, ['B'])]
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from medvqa.reading._numbers import (
    AFTER_RE,
    BOUND_AFTER,
    BOUND_OF,
    BOUND_RE,
    LEAD,
    LESS,
    NUMBER_WORDS,
    OR_BETWEEN_VALUES,
    ORDINAL_RE,
    PART_RE,
    RANGE_WORDS,
    ROMAN,
    ROMAN_RE,
    SMALL_RE,
    WORD_NUM,
    OptionValues,
    ValueMention,
    between,
    bound_before,
    clocked,
    fold,
    follow_ok,
    ordinal_value,
    statistical,
    word_starts,
)
from medvqa.reading._scale_names import (
    HARD,
    PLAIN,
    SOFT,
    Unit,
    Vocabulary,
    generic,
    parts,
    question_names,
)

__all__ = ["Read", "Scale", "read_scale", "scale_of"]

#: The number words no other contains ("four" stands in "fourteen"): where to look for one.
_BASE_WORDS: Final = tuple(w for w in WORD_NUM if not any(v != w and v in w for v in WORD_NUM))
_ORDINAL_WORDS: Final = tuple(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split())
_GENERAL_SUFFIX: Final = frozenset("ABCFX")
_CONNECT: Final = frozenset(("is", "was", "of", "be"))
_OWN, _HARD_WORD, _SOFT_WORD, _LEAD_WORD, _RADS, _ACRONYM, _CAPITAL, _OTHER = range(8)
_NOT_AFTER_FIRST: Final = frozenset("whisfrm")
_NOT_AFTER: Final = re.compile(r"(?i:[ \t-]?(?:weighted|wi?(?![^\W\d_])|(?:hyper|hypo|iso)-?"
                               r"intens|signal|sequence|flair|imag|relaxation|map))")


class Value(NamedTuple):
    """A point of a scale."""

    num: int | None  # None for a letter value
    suffix: str  # upper case, "" for none; a letter value's letters
    parts: tuple[int, int] | None = None  # a composite's parts


class _Iv(NamedTuple):
    """A stretch of the scale; None for an open side."""

    lo: Value | None
    lo_in: bool
    hi: Value | None
    hi_in: bool


def _point(v: Value) -> _Iv:
    return _Iv(v, True, v, True)


class _Option(NamedTuple):
    letter: str
    value: Value  # a point option's value; a range's or bound's first written value
    iv: _Iv
    names: frozenset[str]
    hards: frozenset[str]


def _compatible(v: Value, o: Value) -> bool:
    if v.num is None or o.num is None:
        return v.num is None and o.num is None and v.suffix == o.suffix
    return (v.num == o.num and (not v.suffix or not o.suffix or v.suffix == o.suffix)
            and (v.parts is None or o.parts is None or v.parts == o.parts))


def _at_least(o: Value, v: Value, strict: bool) -> bool:
    """Whether ``o`` is above ``v`` on the scale (or level with it, unless strict)."""
    if (o.num is None) != (v.num is None):
        return False
    if o.num != v.num:
        return (o.num or 0) > (v.num or 0)
    if not v.suffix or not o.suffix:
        return not strict
    return o.suffix > v.suffix or (not strict and o.suffix == v.suffix)


def _inside(t: _Iv, o: _Iv) -> bool:
    """Whether stretch ``t`` lies inside ``o``."""
    return ((o.lo is None or t.lo is not None and _at_least(t.lo, o.lo, t.lo_in and not o.lo_in))
            and (o.hi is None or t.hi is not None
                 and _at_least(o.hi, t.hi, t.hi_in and not o.hi_in)))


def _meets(a: _Iv, b: _Iv) -> bool:
    """Whether two stretches share a point."""
    return ((a.lo is None or b.hi is None or _at_least(b.hi, a.lo, not (a.lo_in and b.hi_in)))
            and (b.lo is None or a.hi is None
                 or _at_least(a.hi, b.lo, not (b.lo_in and a.hi_in))))


def _bounded(v: Value, direction: str) -> _Iv:
    return _Iv(v, direction == "ge", None, False) if direction[0] == "g" else _Iv(
        None, False, v, direction == "le")


_NAME_WORD: Final = r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?"
_NUMBER: Final = rf"\d{{1,2}}|(?i:{ROMAN_RE})|(?i:{SMALL_RE})"
_OPTION_SCALE: Final = re.compile(
    rf"(?P<name>(?:{_NAME_WORD}[ \t\-]+)*?{_NAME_WORD})??(?P<sep>[ \t:\-]*)"
    r"(?:(?P<a>[1-5])[ \t]*\+[ \t]*(?P<b>[1-5])(?:[ \t]*=[ \t]*(?P<t>\d{1,2}))?"
    rf"|(?P<o>{ORDINAL_RE})(?=[ \t\-](?i:{'|'.join(sorted(HARD))}))"
    rf"|(?P<n>{_NUMBER})(?P<s>[A-Za-z]\d?)?"
    rf"(?:[ \t]*(?:-|\u2013|\u2014|(?i:to))[ \t]*(?P<n2>{_NUMBER})(?P<s2>[A-Za-z]\d?)?)?"
    r"|(?P<l>[A-Za-z]{1,3}))"
    r"(?:[ \t\-](?P<post>(?i:" + "|".join(sorted(HARD)) + r")))?"
    r"(?P<rest>[ \t]*(?:[(\[,:;\u2013\u2014]|[ \t]-[ \t]).*)?", re.S)
_BRACKETED: Final = re.compile(r"(.*?)[ \t]*[(\[]([^()\[\]]*)[)\]][ \t]*", re.S)
_OPTION_BOUND: Final = re.compile(rf"(?P<b>{BOUND_RE})[ \t]*")
_OPTION_AFTER: Final = re.compile(rf"[ \t]*,?[ \t]*{AFTER_RE}\Z")


class Read(NamedTuple):
    """An option text read as a scale value."""

    words: list[str]  # the scale name's words
    value: Value
    marked: bool  # named, or Roman, suffixed or composite: plainly a scale value
    iv: _Iv
    qualified: bool = False  # read in a bracketed qualifier ("Mild (grade 1)")


def _number(word: str) -> int:
    """An Arabic, Roman or spelled number of a scale."""
    if word.isdigit():
        return int(word)
    return ROMAN.get(word.upper(), WORD_NUM.get(word.lower(), -1))


def read_scale(text: str) -> Read | None:
    """An option text read as a scale value, or None.

    >>> read_scale("Gleason 7 (3+4)").value, read_scale("LR-M").value
    (Value(num=7, suffix='', parts=(3, 4)), Value(num=None, suffix='M', parts=None))
    >>> r = read_scale("Grade 3 or higher"); r.iv.lo, r.iv.hi
    (Value(num=3, suffix='', parts=None), None)
    """
    core = " ".join(text.replace("*", " ").split()).rstrip(".")
    m = _BRACKETED.fullmatch(core)
    inner = read_scale(m.group(2)) if m else None
    core = m.group(1) if m else core
    direction = None
    if (after := _OPTION_AFTER.search(core)) is not None:
        direction = "le" if after["dir"].lower() in LESS else "ge"
        core = core[:after.start()]
    elif any(c in core for c in "<>\u2264\u2265\u2a7d\u2a7e") or " " in core:
        if (b := _OPTION_BOUND.search(core)) is not None:
            direction = BOUND_OF[" ".join(b["b"].lower().split())]
            core = (core[:b.start()] + " " + core[b.end():]).strip()
    r = _OPTION_SCALE.fullmatch(core) if core else None
    if r is None or r["l"] and not (r["name"] and r["sep"] or r["post"]):
        return inner._replace(qualified=True) if inner and inner.words else None
    words = r["name"].split() if r["name"] else []
    if r["name"] and not r["sep"]:  # glued: "T1c", "GG2", "cT2", "LR5"
        short = words[-1].lstrip("cpyr") or words[-1]
        if not (short.isupper() and len(short) <= 3 and r["l"] is None):
            return None
        words[-1] = short
    top = None
    if r["l"]:
        if r["sep"] != "-" and (len(r["l"]) > 1 or r["l"].upper() not in "ABCDEX"):
            return None
        value = Value(None, r["l"].upper())
    elif r["a"]:
        a, b2 = int(r["a"]), int(r["b"])
        if r["t"] and int(r["t"]) != a + b2:
            return None
        value = Value(a + b2, "", (a, b2))
    elif r["o"]:
        value = Value(ordinal_value(r["o"]), "")
    else:
        value = Value(_number(r["n"]), (r["s"] or "").upper())
        if inner and inner.value.parts and inner.value.num == value.num:
            value = value._replace(parts=inner.value.parts)
        if r["n2"]:
            top = Value(_number(r["n2"]), (r["s2"] or "").upper())
            if direction or not _at_least(top, value, True):
                return None
    if direction and (value.num is None or value.parts):
        return None
    if r["post"]:
        words.append(r["post"])
    roman = bool(r["n"]) and r["n"].upper() in ROMAN
    iv = _bounded(value, direction) if direction else _Iv(value, True, top or value, True)
    return Read(words, value, bool(words or value.suffix or value.parts or roman), iv)


class _Chain(NamedTuple):
    start: int
    names: frozenset[str]
    hards: frozenset[str]
    named: bool  # a name, a generic word or a short form is written (or another scale's)
    foreign: bool  # another scale's name
    lead: bool  # nothing, punctuation or a lead word before: a bare answer's value may stand


_BAD: Final = _Chain(-1, frozenset(), frozenset(), False, False, False)
_BACK: Final = re.compile(r"(?P<g>[^\W\d_]{1,12})?(?P<gap>[ \t*_:=#(\"'\-\u2013]{0,8})"
                          r"(?P<w>[^\W\d_]{1,30}(?:[ \-][^\W\d_]{1,30}){0,5})?")
_SPACED_SUFFIX: Final = re.compile(r"([ \t]|-)([A-Za-z])(?![^\W_])")
_PLUS: Final = re.compile(rf"[ \t]*(?:\+|(?i:plus))[ \t]*(?P<b>{PART_RE})(?![^\W_])"
                          r"(?:[ \t]*=[ \t]*(?P<t>\d{1,2})(?!\d))?")
_PARTS_AFTER: Final = re.compile(
    rf"[ \t]*[,:=(\[]?[ \t]*\(?(?P<a>{PART_RE})[ \t]*(?:\+|(?i:plus))[ \t]*(?P<b>{PART_RE})"
    r"(?![^\W_])[ \t]*[)\]]?")
# Between two values: a range ("2-3", "8 à 9", "4 bis 5", "55～60") or an alternative ("2 or 3",
# "4 или 5", "IIa または IIb"). Not a spaced em dash: "4A — 3-month follow-up" opens a clause.
_SCALE_SEP: Final = re.compile(r"[ \t]*(?:(?P<r>-|\u2013|(?i:to|through|thru)(?!\w)|" + RANGE_WORDS
                               + r")|(?P<o>/|(?i:and|vs\.?|versus)(?!\w)|(?i:" + OR_BETWEEN_VALUES
                               + r")(?![^\W_])))[ \t]*")
_NAME_AGAIN: Final = re.compile(r"([^\W\d_]+)[ \t\-]+")
_POSTFIX: Final = re.compile(r"[ \t\-](?i:(" + "|".join(sorted(HARD)) + r"))(?![^\W_])")
#: Where a scale token may start (a plain scan; the full token pattern decides at each).
_SCALE_FAST: Final = r"[0-9]+|[IVX]+"
_LOWER_ROMAN: Final = re.compile(r"[ivx](?<![^\W\d_].)[ivx]*(?:[a-cfx][0-9]?)?(?![^\W_])")
_SCALE_TOKEN: Final = (
    r"(?P<od>[0-9]{1,2}(?:st|nd|rd|th))(?![^\W_])"
    r"|(?P<ar>[0-9]+(?:\.[0-9]+)?)"
    rf"|(?<![^\W\d_])(?P<ro>(?i:{ROMAN_RE}))(?P<rs>[A-Ca-cFfXx]\d?)?(?![^\W_])"
    rf"|(?<![^\W\d_])(?P<sp>(?i:{SMALL_RE}))(?![^\W_])"
    rf"|(?<![^\W\d_])(?P<ow>(?i:{'|'.join(_ORDINAL_WORDS)}))(?![^\W_])")
#: What may stand before a value that stands alone: the text's start, a sentence's end or an
#: opening bracket or separator; and after it.
_ALONE_BEFORE: Final = frozenset(".!?\n([{:;,\u2013\u2014")
_ALONE_AFTER: Final = frozenset(".!?\n)]},;:\u2013\u2014")


class Scale(OptionValues):
    """A scale: a stretch for each option, and the names the set and its question use."""

    __slots__ = ("_chains", "_composites", "_cues", "_fast", "_hards", "_kinds", "_named",
                 "_options", "_qhards", "_qnames", "_suffix_letters", "_suffixes", "_token",
                 "_vocab")

    def __init__(self, reads: list[tuple[str, Read]], question: list[list[str]]) -> None:
        super().__init__("scale", frozenset(k for k, _ in reads))
        self._vocab = vocab = Vocabulary()
        asked = [vocab.add(words) for words in question]
        self._qnames = frozenset(n for names, _ in asked for n in names)
        self._qhards = frozenset(h for _, hards in asked for h in hards)
        self._options = [_Option(k, r.value, r.iv, *vocab.add(r.words)) for k, r in reads]
        self._named = bool(self._qnames or any(o.names for o in self._options))
        self._hards = {h for o in self._options for h in o.hards}
        self._kinds: dict[str, tuple[int, Unit | None]] = {}
        self._chains: dict[tuple[str, bool, bool], _Chain] = {}
        ends = [v for o in self._options for v in (o.iv.lo, o.iv.hi) if v is not None]
        self._suffixes = {v.suffix for v in ends if v.num is not None}
        self._suffix_letters = _GENERAL_SUFFIX | {x[:1] for x in self._suffixes}
        self._composites = any(o.value.parts for o in self._options)
        codes = sorted({o.value.suffix for o in self._options if o.value.num is None},
                       key=len, reverse=True)
        self._token = re.compile(_SCALE_TOKEN + (
            r"|(?<![^\W\d_])(?P<lv>(?i:" + "|".join(codes) + r"))(?![^\W_])" if codes else ""))
        self._fast = re.compile(_SCALE_FAST + "".join(
            rf"|[{c[0].lower()}{c[0]}](?<![^\W\d_].)(?i:{c[1:]})(?![^\W_])" for c in codes))
        written = [w for _, r in reads for w in r.words] + [w for ws in question for w in ws]
        self._cues = tuple({*HARD, *SOFT, *(p.lower() for w in written for p in parts(w))})

    def may_hold(self, text: str) -> bool:
        """See :meth:`OptionValues.may_hold`."""
        if any(map(text.__contains__, "0123456789IVX")):
            return True
        low = text.lower()
        return any(map(low.__contains__, NUMBER_WORDS)) or any(map(low.__contains__, self._cues))

    def find(self, text: str, *, bare: bool = False) -> list[ValueMention]:
        """See :meth:`OptionValues.find`."""
        if not self.may_hold(text):
            return []
        out: list[ValueMention] = []
        pos = 0
        starts = [m.start() for m in self._fast.finditer(text)]
        low = text.lower()
        if any(map(low.__contains__, self._cues)):  # "grade iii"
            starts += [m.start() for m in _LOWER_ROMAN.finditer(text)]
            if any(map(low.__contains__, self._hards)):  # "second-degree"
                starts += word_starts(text, _ORDINAL_WORDS)
        rev = text[::-1]
        for s in sorted({*starts, *word_starts(text, _BASE_WORDS)}):
            if s >= pos and (m := self._token.match(text, s)) and (
                    mention := self._mention(text, rev, m, bare, pos)) is not None:
                out.append(mention)
                pos = mention.end
        return out

    def _value(self, text: str, m: re.Match[str]) -> tuple[Value, int] | None:
        """A token's value and where it ends (its suffix included)."""
        e = m.end()
        if m["ar"] is not None:
            ar = m["ar"]
            if "." in ar or len(ar) > 2 or ar[0] == "0" < ar[1:] or text[
                    m.start() - 1:m.start()] in (".", ","):
                return None
            suffix, c = "", text[e:e + 1]
            if c.isalpha() and c.upper() in self._suffix_letters:
                two = text[e:e + 2].upper()
                suffix = two if two in self._suffixes and two[1:].isdigit() else c.upper()
                e += len(suffix)
            elif len(self._suffixes) > 1 and (s := _SPACED_SUFFIX.match(text, e)) and s[
                    2].upper() in self._suffixes and (s[1] == "-" or s[2].isupper()):
                suffix, e = s[2].upper(), s.end()
            c = text[e:e + 1]
            if (c.isalnum() or c == "_") and not (c.isupper() and text[e + 1:e + 2].isdigit()):
                return None
            return Value(int(ar), suffix), e
        if m["ro"] is not None:
            return Value(ROMAN[m["ro"].upper()], (m["rs"] or "").upper()), e
        if m["sp"] is not None:
            return Value(WORD_NUM[m["sp"].lower()], ""), e
        if m["od"] is not None or m["ow"] is not None:
            return Value(ordinal_value(m["od"] or m["ow"]), ""), e
        return Value(None, m["lv"].upper()), e

    def _classify(self, raw: str) -> tuple[int, Unit | None]:
        """What a word before a value is: an own name, a generic word, another name."""
        if (known := self._kinds.get(raw)) is None:
            if len(self._kinds) > 4096:
                self._kinds.clear()
            known = self._kinds[raw] = self._classified(raw)
        return known

    def _classified(self, raw: str) -> tuple[int, Unit | None]:
        if (unit := self._vocab.lookup(raw)) is not None:
            return _OWN, unit
        f = fold(raw)
        if g := generic(f):
            return (_HARD_WORD if g in HARD else _SOFT_WORD), (None, frozenset([g]) & HARD)
        if f in LEAD:
            return _LEAD_WORD, None
        if f in PLAIN:
            return _OTHER, None
        if f.endswith("rads"):
            return _RADS, None
        if len(raw) >= 2 and raw.isupper():
            return _ACRONYM, None
        return (_CAPITAL if len(raw) >= 3 and raw[0].isupper() and raw[1:].islower()
                else _OTHER), None

    def _chain(self, text: str, rev: str, s: int, lo: int) -> _Chain:
        """The scale name written before a value at ``s`` (not before ``lo``).

        One match of :data:`_BACK` on the reversed text ``rev`` takes the letters glued to the
        value, the separators and up to six words joined by spaces or hyphens; what they name
        is remembered by that text (a response repeats its names), ``start`` as an offset.
        """
        n = len(text)
        back = _BACK.match(rev, n - s, n - max(lo, s - 64))
        if back is None:
            return _Chain(s, frozenset(), frozenset(), False, False, True)
        k, j = n - back.end("gap"), s - len(back["g"] or "")
        key = (back.group(), text[k - 1:k].isdigit(), j > 0 and text[j - 1].isdigit())
        if (chain := self._chains.get(key)) is None:
            if len(self._chains) > 8192:
                self._chains.clear()
            chain = self._chains[key] = self._read_chain(*key)
        return chain if chain is _BAD else _Chain(s - chain.start, *chain[1:])

    def _read_chain(self, back_text: str, digit_before: bool, glued_to_digit: bool) -> _Chain:
        """:meth:`_chain` for a reversed stretch of text; ``start`` counted back from the value."""
        back = _BACK.match(back_text)
        assert back is not None
        names: set[str] = set()
        hards: set[str] = set()
        start, named = 0, False
        if g := back["g"][::-1] if back["g"] else "":  # glued: "G3", "cT2b", "T2bN1", not "CK7"
            unit = self._vocab.lookup(g) or (
                self._vocab.shorts.get(g[-1]) if len(g) <= 3 and g[:-1].islower() else None)
            if unit is None and (gen := generic(fold(g))):
                unit = (None, frozenset([gen]) & HARD)
            if unit is None:
                return _BAD
            names |= {unit[0]} if unit[0] else set()
            hards |= unit[1]
            start, named = len(g) if not glued_to_digit else 1, True
        strong = any(c in back["gap"] for c in ":=(")
        words: list[tuple[str, int]] = []
        e = back.end("gap")
        for w in back["w"].split(" ") if back["w"] else []:
            for part in w.split("-"):
                words.append((part[::-1], e + len(part)))
                e += len(part) + 1
        skipped = ""
        while len(words) > 1 and not named and words[0][0].lower() in _CONNECT and not skipped:
            skipped = words.pop(0)[0].lower()  # a connector: "grade is 3"
        words = words[:4]
        foreign = False
        lead = not words and not named and not digit_before
        i = 0
        while i < len(words):
            raw, at = words[i]
            kind, unit = self._classify(raw)
            if i + 1 < len(words):
                pair = self._classify(words[i + 1][0] + "-" + raw)
                if pair[0] in (_OWN, _RADS):
                    (kind, unit), at = pair, words[i + 1][1]
                    i += 1
            i += 1
            if kind in (_OWN, _HARD_WORD, _SOFT_WORD) and unit is not None:
                names |= {unit[0]} if unit[0] else set()
                hards |= unit[1]
                start, named = at, True
                continue
            if kind == _RADS or not names and (
                    kind == _CAPITAL and not (i == 1 and strong)  # not a label ("Findings: 1")
                    or kind == _ACRONYM and (self._named or not hards)):
                start, foreign = at, True
            elif kind == _ACRONYM and not names:  # "WHO grade 2" where the set names no scale
                start = at
                continue
            elif i == 1 and not named:
                lead = kind == _LEAD_WORD or strong
            break
        return _Chain(start, frozenset(names), frozenset(hards), named or foreign, foreign, lead)

    def _name_ok(self, o: _Option, chain: _Chain) -> bool:
        """Whether the name written with a value may be option ``o``'s."""
        for n in chain.names:
            if o.names and n not in o.names and n not in self._qnames:
                return False
        return bool(chain.names) or chain.hards <= o.hards | self._qhards

    def _letters(self, v: Value, chain: _Chain) -> frozenset[str]:
        """The options a value written with this name is compatible with (exact ones first)."""
        hits = [o for o in self._options if (
            _compatible(v, o.value) if o.iv.lo == o.iv.hi else _meets(_point(v), o.iv))]
        hits = [o for o in hits if self._name_ok(o, chain)] if chain.names or chain.hards else hits
        exact = [o for o in hits if o.value == v and o.iv.lo == o.iv.hi]
        return frozenset(o.letter for o in exact or hits)

    def _meeting(self, iv: _Iv, chain: _Chain) -> frozenset[str]:
        """The options whose stretch shares a point with ``iv`` (a bound's)."""
        return frozenset(o.letter for o in self._options
                         if self._name_ok(o, chain) and _meets(iv, o.iv))

    def _stretch(self, iv: _Iv, chain: _Chain) -> tuple[frozenset[str], bool]:
        """What a written range names: the option holding it, else the options it spans."""
        inside = frozenset(o.letter for o in self._options
                           if self._name_ok(o, chain) and _inside(iv, o.iv))
        if inside:
            return inside, False
        meets = self._meeting(iv, chain)
        return (meets, True) if len(meets) > 1 else (frozenset(), False)

    def _alone(self, text: str, v: Value, s: int, e: int) -> bool:
        """Whether a suffixed value of exactly one option stands alone ("4A. Solid nodule")."""
        if not v.suffix or v.num is None or sum(o.value == v for o in self._options) != 1:
            return False
        k = len(text[:s].rstrip(" \t*_\"'"))
        if k and text[k - 1] not in _ALONE_BEFORE:
            return False
        rest = text[e:].lstrip(" \t*_\"'")
        return not k or text[k - 1] in ".!?\n" or not rest or rest[0] in _ALONE_AFTER

    def _mention(self, text: str, rev: str, m: re.Match[str], bare: bool,
                 lo: int) -> ValueMention | None:
        got = self._value(text, m)
        if got is None:
            return None
        (v, e), s, bad = got, m.start(), False
        ordinal = m["od"] is not None or m["ow"] is not None
        if ordinal:  # only before a hard word of the set: "second-degree", "3rd degree"
            p = _POSTFIX.match(text, e)
            if p is None or p[1].lower() not in self._hards | self._qhards:
                return None
        nxt, num = text[e:e + 3].lstrip(" \t")[:1], v.num
        if num is not None and not v.suffix and nxt and nxt in "+pP,:=([":  # "3+4", "7 (3+4)"
            if num <= 5 and (p := _PLUS.match(text, e)):
                b = _number(p["b"])
                bad = bool(p["t"]) and int(p["t"]) != num + b
                v, e = Value(num + b, "", (num, b)), p.end()
            elif num >= 2 and (p := _PARTS_AFTER.match(text, e)):
                a, b = _number(p["a"]), _number(p["b"])
                bad = a + b != num
                v, e = v._replace(parts=(a, b)), p.end()
        if text[e:e + 2].lstrip(" \t-")[:1].lower() in _NOT_AFTER_FIRST and _NOT_AFTER.match(
                text, e):
            return None
        bound = bound_before(text, s, lo)
        chain = self._chain(text, rev, bound.start() if bound else s, lo)
        if chain is _BAD:
            return None
        if not chain.named and (p := _POSTFIX.match(text, e)) and p[1].lower() in self._hards:
            chain, e = chain._replace(named=True, hards=frozenset([p[1].lower()])), p.end()
        if bound is None and chain.start:
            bound = bound_before(text, chain.start, lo)
        start = min(chain.start, bound.start()) if bound else chain.start
        after = None if bound else BOUND_AFTER.match(text, e)
        alone = not (chain.named or bound or after) and chain.lead and self._alone(text, v, s, e)
        if not chain.named:
            if v.num is None or m["ro"] and not m["ro"].isupper() or clocked(text, s, e):
                return None
            if not (v.parts and (self._composites or bare)
                    or bare and chain.lead and not (m["ro"] == "I" and any(
                        c.isalpha() for c in text[e:]))
                    or (bound or after) and follow_ok(text, after.end() if after else e)
                    or alone) or statistical(text, s, e):  # "n = 3"
                return None
        if chain.foreign or bad:
            return ValueMention(start, e, frozenset())
        if bound or after:
            d = BOUND_OF[" ".join(bound["b"].lower().split())] if bound else (
                "le" if after and after["dir"].lower() in LESS else "ge")
            e = after.end() if after else e
            hits = self._meeting(_bounded(v, d), chain)
            spans = len(hits) > 1
            if not (chain.named or bare) and len(hits) < 2:
                hits = frozenset()
            return ValueMention(start, e, hits, spans)
        if (sep := _SCALE_SEP.match(text, e)) and (second := self._second(text, sep.end())):
            (v2, e2), opened = second, between(text, start, lo)
            if (v2.num is None) == (v.num is None):
                low, high = (v, v2) if _at_least(v2, v, False) else (v2, v)
                if sep["r"] or opened and sep["o"].lower() == "and":
                    hits, spans = self._stretch(_Iv(low, True, high, True), chain)
                else:  # an alternative: one option only where both values name it alone
                    one, two = self._letters(v, chain), self._letters(v2, chain)
                    hits = one | two if len(one | two) > 1 or one == two else frozenset()
                    spans = len(hits) > 1
                return ValueMention(opened.start() if opened else start, e2, hits, spans)
        if not (chain.named or v.parts or alone or follow_ok(text, e)):
            return None
        return ValueMention(start, e, self._letters(v, chain))

    def _second(self, text: str, p: int) -> tuple[Value, int] | None:
        """The second value of a range or alternative at ``p`` ("2-3", "2 or grade 3")."""
        for _ in range(2):  # the name written again
            w = _NAME_AGAIN.match(text, p)
            if w is None or self._classify(w[1])[0] not in (_OWN, _HARD_WORD, _SOFT_WORD):
                break
            p = w.end()
        m = self._token.match(text, p)
        return self._value(text, m) if m else None


def scale_of(texts: list[str], question: str = "") -> Scale:
    """The scale of option texts lettered A, B, … (for examples and tests)."""
    reads = [(k, r) for k, t in zip("ABCDEFGHIJ", texts, strict=False)
             if (r := read_scale(t)) is not None]
    return Scale(reads, question_names(question))
