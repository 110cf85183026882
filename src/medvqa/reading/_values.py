"""Options read as values: ordered scales (grades, stages, categories …) and quantities.

A model often writes an option's value otherwise than the option text ("grade III" for "Grade
3", "2 cm" for "10-20 mm"). :func:`option_values` reads an option set as values (cached);
:meth:`OptionValues.find` lists a text's value mentions, each with the options its value is
compatible with. The caller credits an option only where ``letters`` hold one letter; a range,
alternative or bound across options is :attr:`ValueMention.spans_options` (kept open).

**Scales**, one grammar and no list of scales: a name, then a number (Arabic, Roman I–XII,
zero–twenty) with an optional suffix ("4B", "IIF", "T2b"), a letter value ("Child-Pugh B",
"LR-M") or a composite ("7 (3+4)", "three plus four"). A text may use the options' and the
question's names: their words, compounds joined or apart ("PI-RADS", "PIRADS", "PI RADS"),
initials of parts of one sort ("LI-RADS" → LR, "Kellgren-Lawrence" → KL, "grade group" → GG;
"Lung-RADS" has none) and "G" for grade. *Soft* generic words (score, category …) go with any
scale; a *hard* one (grade, stage, type, class …) where the options or question use it, or after
the options' own name ("Gleason grade 7").
Another scale's name makes a value name nothing: a *-RADS word, a capitalised name before the
value or its generic word ("Gleason grade 4"), an acronym right before the value ("LR 4B" for
Lung-RADS) and, where the set names its scale, any unknown acronym. A number without a name
counts only in a bare answer, and not as a count, date, time or version ("3 cores", "2 of 5",
"10:30", "v2"). A value without an option's suffix is compatible with each suffix ("BI-RADS 4"
with 4A/4B/4C), a suffix the option lacks is ignored ("4B" reads "BI-RADS 4"), and where both
are offered the exact value wins.

**Quantities**: each option is an interval, bounds open or closed as written ("< 5 mm", "5-10
mm", "0.9 or more"), in its dimension's base unit (:data:`UNITS`). A point names the options
holding it (two on a shared bound); a range or bound names the options containing it, or spans
those it crosses. A number needs a unit, except in a bare answer (it takes the options' unit)
and, for unitless options, with a decimal point or tied to a question word ("ratio is 0.5").

>>> ov = option_values((("A", "Grade 1"), ("B", "Grade 2"), ("C", "Grade 3")))
>>> [(m.start, m.end, sorted(m.letters)) for m in ov.find("This is a grade III tumour.")]
[(10, 19, ['C'])]
>>> q = option_values((("A", "< 5 mm"), ("B", "5-10 mm"), ("C", "> 10 mm")))
>>> [(sorted(m.letters), m.spans_options) for m in q.find("about 0.7 cm, maybe 8-12 mm")]
[(['B'], False), (['B', 'C'], True)]
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Final, NamedTuple

__all__ = ["UNITS", "OptionValues", "ValueMention", "option_values"]

_SPELLED: Final = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                   "fourteen fifteen sixteen seventeen eighteen nineteen twenty").split()
_WORD_NUM: Final = {w: i for i, w in enumerate(_SPELLED)}
_TENS: Final = {w: 10 * i for i, w in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
_ROMAN: Final = {r: i for i, r in enumerate("I II III IV V VI VII VIII IX X XI XII".split(), 1)}
_ROMAN_RE: Final = "XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I"
_SMALL_RE: Final = "|".join(sorted(_SPELLED, key=len, reverse=True))
_BIG_RE: Final = (r"(?:a|one)[ \t]+hundred|(?:" + "|".join(_TENS) + r")(?:[- \t](?:"
                  + "|".join(_SPELLED[1:10]) + "))?|" + _SMALL_RE)
_PART_RE: Final = r"[1-5]|(?i:one|two|three|four|five)"
#: The number words no other contains ("four" stands in "fourteen"): where to look for one.
_BASE_WORDS: Final = tuple(w for w in _SPELLED if not any(v != w and v in w for v in _SPELLED))
#: Substrings of every number word: a text holding no digit and none of them has no number.
_NUMBER_WORDS: Final = tuple(("zero one two three four five six seven eight nine ten eleven "
                              "twelve thirteen fifteen twenty thirty forty fifty sixty eighty "
                              "ninety hundred").split())
_HARD: Final = frozenset("grade stage type group level class density tier pattern phase degree"
                         .split())
_SOFT: Final = frozenset("score category classification assessment".split())
#: Words that may stand before a bare answer's value ("The answer is 3", "Likely 3").
_LEAD: Final = frozenset((
    "answer final likely probably possibly perhaps maybe definitely most overall estimated "
    "approximately about around roughly nearly is was be are diagnosis impression conclusion "
    "result therefore thus so hence would with as to at correct choose select").split())
#: Words that may follow a bare answer's value ("3 because ...", not "3 cores").
_FOLLOW: Final = frozenset("or and to is was because since as given based due with".split())
_CONNECT: Final = frozenset(("is", "was", "of", "be"))
#: Capitalised words that are no scale name ("Not grade 3", "Only PI-RADS 5").
_PLAIN: Final = frozenset((
    "not no nor neither either both only also just all any each every some more less high low "
    "higher lower unlikely certainly clearly the this that these those there here if then but "
    "and or for from in on by without mostly").split())
_QSTOP: Final = frozenset((
    "what which how many much does did is are was the this that these there with from into for "
    "and image shown show seen most best likely value patient following according based").split())
_ALIASES: Final = {"G": "grade"}
_GENERAL_SUFFIX: Final = frozenset("ABCFX")
_SEPS: Final = frozenset(" \t*_:=#-\u2013(\"'")
_OWN, _HARD_WORD, _SOFT_WORD, _LEAD_WORD, _RADS, _ACRONYM, _CAPITAL, _OTHER = range(8)

_BOUND_WORDS: Final = {
    "ge": ("at least", "no less than", "not less than", "no lower than", "not lower than",
           "no fewer than", "no smaller than", "a minimum of", "minimum of", ">=", "=>", "≥", "⩾"),
    "gt": ("greater than", "more than", "higher than", "larger than", "bigger than", "above",
           "over", "exceeding", "beyond", ">"),
    "le": ("at most", "up to", "no more than", "not more than", "no greater than",
           "no higher than", "no larger than", "a maximum of", "maximum of", "<=", "=<", "≤", "⩽"),
    "lt": ("less than", "lower than", "fewer than", "smaller than", "below", "under", "<"),
}
_BOUND_OF: Final = {p: d for d, ps in _BOUND_WORDS.items() for p in ps}
_BOUND_RE: Final = "|".join(
    (r"(?<![^\W\d_])(?i:" + r"[ \t]+".join(p.split()) + r")(?![^\W\d_])") if p[0].isalpha()
    else re.escape(p) for p in sorted(_BOUND_OF, key=len, reverse=True))
_BOUND_BEFORE: Final = re.compile(rf"(?P<b>{_BOUND_RE})[ \t]*\Z")
_BOUND_ENDS: Final = tuple({p.split()[-1][-1] if not p[0].isalpha() else p.split()[-1]
                            for p in _BOUND_OF})
_BOUND_LAST: Final = frozenset(w[-1] for w in _BOUND_ENDS)
_LESS: Final = frozenset("less lower below under fewer smaller".split())
_AFTER_RE: Final = (r"(?i:(?:or|and)[ \t]+(?P<dir>more|greater|higher|above|over|larger|"
                    r"bigger|worse|up|less|lower|below|under|fewer|smaller))(?![^\W\d_])")
_BOUND_AFTER: Final = re.compile(rf"[ \t]*,?[ \t]*{_AFTER_RE}")
_BETWEEN: Final = re.compile(r"(?<![^\W\d_])(?i:between|from)[ \t]+\Z")
_NOT_AFTER_FIRST: Final = frozenset("whisfrm")
_NOT_AFTER: Final = re.compile(r"(?i:[ \t-]?(?:weighted|wi?(?![^\W\d_])|(?:hyper|hypo|iso)-?"
                               r"intens|signal|sequence|flair|imag|relaxation|map))")


@dataclass(frozen=True, slots=True)
class ValueMention:
    """One value written in a text that could name an option.

    Attributes:
        start: where the mention begins (its scale name or bound words included).
        end: where it ends (its unit, suffix, range or bound words included).
        letters: the options the value is compatible with; empty for a value of another
            scale or dimension, or outside every option.
        spans_options: a range, alternative or bound that covers more than one option.
    """

    start: int
    end: int
    letters: frozenset[str]
    spans_options: bool = False


def _fold(word: str) -> str:
    """A name's comparison form: lower case, no accents, hyphens, apostrophes or spaces."""
    w = word.lower()
    if not w.isascii():
        w = "".join(c for c in unicodedata.normalize("NFKD", w) if not unicodedata.combining(c))
    return w.replace("-", "").replace("'", "").replace("\u2019", "").replace(" ", "")


def _generic(f: str) -> str | None:
    """The generic scale word a folded word is (plurals made singular), or None."""
    forms = [f, f[:-1], f[:-2], f[:-3] + "y"] if f.endswith("s") else [f]
    return next((g for g in forms if g in _HARD or g in _SOFT), None)


def _parts(word: str) -> list[str]:
    """A compound's parts ("LI-RADS" and "LIRADS" → LI, RADS)."""
    parts = [p for p in re.split(r"[-\s]+", word) if p]
    if len(parts) == 1 and len(word) > 4 and word.lower().endswith("rads"):
        parts = [word[:-4], word[-4:]]
    return parts


def _sort(part: str) -> str:
    """A name part's sort, for initials: generic word, acronym, proper name, or none."""
    if _generic(_fold(part)):
        return "g"
    if part.isalpha() and (part.isupper() or len(part) <= 2 or part.lower() == "rads"):
        return "a"
    return "p" if len(part) >= 3 and part[0].isupper() and part[1:].islower() else ""


def _runs(parts: list[str]) -> list[tuple[int, int, str]]:
    """Maximal runs of two or more parts of one sort: (first, end, their initials).

    >>> _runs(["LI", "RADS"]), _runs(["Lung", "RADS"]), _runs(["ISUP", "grade", "group"])
    ([(0, 2, 'LR')], [], [(1, 3, 'GG')])
    """
    out, i = [], 0
    while i < len(parts):
        j = i + 1
        while j < len(parts) and _sort(parts[j]) == _sort(parts[i]) != "":
            j += 1
        if j - i >= 2:
            out.append((i, j, "".join(p[0].upper() for p in parts[i:j])))
        i = j
    return out


Unit = tuple[str | None, frozenset[str]]  # (a specific scale name, the generic words it means)


class _Vocabulary:
    """The scale names a text may use: folded forms, and short forms as written."""

    def __init__(self) -> None:
        self.units: dict[str, Unit] = {}
        self.shorts: dict[str, Unit] = {g: (None, frozenset([w])) for g, w in _ALIASES.items()}

    def add(self, words: list[str]) -> tuple[frozenset[str], frozenset[str]]:
        """Register a name's words; return its specific names and its hard generic words."""
        names, hards = set(), set()
        for w in words:
            f, known = _fold(w), self.lookup(w)
            if g := _generic(f):
                hards |= {g} & _HARD
            elif known and known[0] is None:  # a generic word's short form: "G", "GG"
                hards |= known[1]
            elif len(f) > 2 or w.isupper():
                names.add(canon := known[0] if known and known[0] else f)
                table, key = (self.shorts, w) if len(f) <= 2 else (self.units, f)
                table.setdefault(key, (canon, frozenset()))
                for part in _parts(w) if "-" in w else []:  # "Hess" of "Hunt-Hess"
                    if _sort(part) == "p":
                        self.units.setdefault(_fold(part), (canon, frozenset()))
                if (runs := _runs(_parts(w))) and runs[0][1] - runs[0][0] == len(_parts(w)):
                    self.shorts.setdefault(runs[0][2], (canon, frozenset()))
        parts = [p for w in words for p in _parts(w)]
        for i, j, short in _runs(parts):
            if _sort(parts[i]) == "g":
                self.shorts.setdefault(short, (None, frozenset(
                    g for p in parts[i:j] if (g := _generic(_fold(p))) in _HARD)))
        return frozenset(names), frozenset(hards)

    def lookup(self, raw: str) -> Unit | None:
        """The name a written word or compound is, or None."""
        hit = self.shorts.get(raw) or (self.units.get(_fold(raw)) if len(raw) >= 3 else None)
        if hit is None and len(parts := _parts(raw)) > 1:
            runs = _runs(parts)
            hit = self.shorts.get(runs[0][2]) if runs and runs[0][1] - runs[0][0] == len(
                parts) else None
        return hit


class _Value(NamedTuple):
    num: int | None  # None for a letter value
    suffix: str  # upper case, "" for none; a letter value's letters
    parts: tuple[int, int] | None = None  # a composite's parts


class _Option(NamedTuple):
    letter: str
    value: _Value
    names: frozenset[str]
    hards: frozenset[str]


def _compatible(v: _Value, o: _Value) -> bool:
    if v.num is None or o.num is None:
        return v.num is None and o.num is None and v.suffix == o.suffix
    return (v.num == o.num and (not v.suffix or not o.suffix or v.suffix == o.suffix)
            and (v.parts is None or o.parts is None or v.parts == o.parts))


def _at_least(o: _Value, v: _Value, strict: bool) -> bool:
    """Whether ``o`` is above ``v`` on the scale (or level with it, unless strict)."""
    if (o.num is None) != (v.num is None):
        return False
    if o.num != v.num:
        return (o.num or 0) > (v.num or 0)
    if not v.suffix or not o.suffix:
        return not strict
    return o.suffix > v.suffix or (not strict and o.suffix == v.suffix)


_NAME_WORD: Final = r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?"
_OPTION_SCALE: Final = re.compile(
    rf"(?P<name>(?:{_NAME_WORD}[ \t\-]+)*?{_NAME_WORD})??(?P<sep>[ \t:\-]*)"
    r"(?:(?P<a>[1-5])[ \t]*\+[ \t]*(?P<b>[1-5])(?:[ \t]*=[ \t]*(?P<t>\d{1,2}))?"
    rf"|(?P<n>\d{{1,2}}|(?i:{_ROMAN_RE})|(?i:{_SMALL_RE}))(?P<s>[A-Za-z]\d?)?"
    r"|(?P<l>[A-Za-z]{1,3}))"
    r"(?:[ \t\-](?P<post>(?i:" + "|".join(sorted(_HARD)) + r")))?"
    r"(?P<rest>[ \t]*(?:[(\[,:;\u2013\u2014]|[ \t]-[ \t]).*)?", re.S)
_BRACKETED: Final = re.compile(r"(.*?)[ \t]*[(\[]([^()\[\]]*)[)\]][ \t]*", re.S)


class _Read(NamedTuple):
    words: list[str]  # the scale name's words
    value: _Value
    marked: bool  # named, or Roman, suffixed or composite: plainly a scale value


def _number(word: str) -> int:
    """An Arabic, Roman or spelled number of a scale."""
    if word.isdigit():
        return int(word)
    return _ROMAN.get(word.upper(), _WORD_NUM.get(word.lower(), -1))


def _read_scale(text: str) -> _Read | None:
    """An option text read as a scale value, or None.

    >>> _read_scale("Gleason 7 (3+4)").value, _read_scale("LR-M").value
    (_Value(num=7, suffix='', parts=(3, 4)), _Value(num=None, suffix='M', parts=None))
    """
    core = " ".join(text.replace("*", " ").split()).rstrip(".")
    m = _BRACKETED.fullmatch(core)
    inner = _read_scale(m.group(2)) if m else None
    core = m.group(1) if m else core
    r = _OPTION_SCALE.fullmatch(core) if core else None
    if r is None or r["l"] and not (r["name"] and r["sep"] or r["post"]):
        return inner if inner and inner.words else None
    words = r["name"].split() if r["name"] else []
    if r["name"] and not r["sep"]:  # glued: "T1c", "GG2", "cT2", "LR5"
        short = words[-1].lstrip("cpyr") or words[-1]
        if not (short.isupper() and len(short) <= 3 and r["l"] is None):
            return None
        words[-1] = short
    if r["l"]:
        if r["sep"] != "-" and (len(r["l"]) > 1 or r["l"].upper() not in "ABCDEX"):
            return None
        value = _Value(None, r["l"].upper())
    elif r["a"]:
        a, b = int(r["a"]), int(r["b"])
        if r["t"] and int(r["t"]) != a + b:
            return None
        value = _Value(a + b, "", (a, b))
    else:
        value = _Value(_number(r["n"]), (r["s"] or "").upper())
        if inner and inner.value.parts and inner.value.num == value.num:
            value = value._replace(parts=inner.value.parts)
    if r["post"]:
        words.append(r["post"])
    roman = bool(r["n"]) and r["n"].upper() in _ROMAN
    return _Read(words, value, bool(words or value.suffix or value.parts or roman))


def _question_names(question: str) -> list[list[str]]:
    """The scale names a question uses ("Fazekas grade", "LI-RADS", "ISUP", "T stage")."""
    toks = re.findall(r"[^\W\d_]+(?:['\u2019\-][^\W\d_]+)*", question)
    out: list[list[str]] = []
    for i, w in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        before_name = bool(nxt) and (_generic(_fold(nxt)) is not None or nxt.isupper())
        if (_generic(_fold(w)) or _fold(w).endswith("rads") or (w.isupper() and len(w) >= 2)
                or (_sort(_parts(w)[0]) in ("a", "p") and before_name
                    and _fold(w) not in _LEAD | _QSTOP)):
            out.append([w])
    return out


class OptionValues:
    """An option set read as values (see the module docstring); made by :func:`option_values`.

    Attributes:
        kind: ``"scale"`` or ``"quantity"``.
        letters: the options that are values (the others take no part).
    """

    __slots__ = ("kind", "letters")

    def __init__(self, kind: str, letters: frozenset[str]) -> None:
        self.kind = kind
        self.letters = letters

    def find(self, text: str, *, bare: bool = False) -> list[ValueMention]:
        """Every value mention in ``text`` that could name an option, left to right.

        Args:
            text: the response or a part of it, in its original case.
            bare: the text is the answer itself (a located final answer, a JSON leaf, a short
                reply), so a number standing alone counts; otherwise a number counts only
                with a scale word or a unit.

        Returns:
            Non-overlapping mentions; none, without a regular expression run, when the text
            holds no digit and no number word (nor, for a scale, a Roman numeral or a name).
        """
        raise NotImplementedError


def _skip_seps(text: str, s: int, lo: int) -> tuple[int, bool]:
    """Skip the separators before ``s``; whether one was ':', '=' or '('."""
    strong = False
    while s > lo and text[s - 1] in _SEPS:
        strong = strong or text[s - 1] in ":=("
        s -= 1
    return s, strong


def _word_before(text: str, e: int, lo: int) -> int:
    s = e
    while s > lo and (text[s - 1].isalpha() or text[s - 1] in "'\u2019"):
        s -= 1
    return s


def _lead_before(text: str, s: int) -> bool:
    """Whether only punctuation or a lead word stands before ``s`` (a bare answer's value)."""
    k, strong = _skip_seps(text, s, max(0, s - 40))
    j = _word_before(text, k, max(0, k - 30))
    return j == k and not text[k - 1:k].isdigit() or strong or _fold(text[j:k]) in _LEAD


def _follow_ok(text: str, e: int) -> bool:
    """Whether what follows a bare value leaves it the answer (not "3 cores", "2 of 5")."""
    rest = text[e:e + 24].lstrip(" \t*_\"'")
    if not rest or rest[0] in "\n.;,!?)]}-\u2013\u2014(" and not rest[1:2].isdigit():
        return True
    word = re.match(r"[^\W\d_]+", rest)
    return word is not None and word.group().lower() in _FOLLOW


def _bound(text: str, s: int, lo: int) -> re.Match[str] | None:
    """The bound words ending at ``s`` ("at least", "≥"); the regex runs only where one may."""
    lo = max(lo, s - 24)
    j = s - 1
    while j > lo and text[j] in " \t":
        j -= 1
    if j < lo or text[j].lower() not in _BOUND_LAST or not text[lo:s].rstrip(
            " \t").lower().endswith(_BOUND_ENDS):
        return None
    return _BOUND_BEFORE.search(text, lo, s)


def _between(text: str, s: int, lo: int) -> re.Match[str] | None:
    lo = max(lo, s - 12)
    return _BETWEEN.search(text, lo, s) if text[lo:s].rstrip(" \t").lower().endswith(
        ("between", "from")) else None


def _word_starts(text: str, words: tuple[str, ...]) -> list[int]:
    """Where the number words stand in ``text`` (``str.find``: far faster than a pattern)."""
    low = text.lower()
    if len(low) != len(text):
        return [i for i in range(len(text)) if text[i].isalpha()]
    out = []
    for w in words:
        i = low.find(w)
        while i >= 0:
            if not (i and low[i - 1].isalnum()):
                out.append(i - 2 if w == "hundred" and low[i - 2:i] == "a " else i)
            i = low.find(w, i + len(w))
    return out


def _clocked(text: str, s: int, e: int) -> bool:
    """Whether a number at ``s:e`` is part of a date, a fraction or a clock time."""
    return (text[e:e + 1] in (":", "/") and text[e + 1:e + 2].isdigit()
            or text[s - 1:s] in (":", "/") and text[s - 2:s - 1].isdigit())


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
_PLUS: Final = re.compile(rf"[ \t]*(?:\+|(?i:plus))[ \t]*(?P<b>{_PART_RE})(?![^\W_])"
                          r"(?:[ \t]*=[ \t]*(?P<t>\d{1,2})(?!\d))?")
_PARTS_AFTER: Final = re.compile(
    rf"[ \t]*[,:=(\[]?[ \t]*\(?(?P<a>{_PART_RE})[ \t]*(?:\+|(?i:plus))[ \t]*(?P<b>{_PART_RE})"
    r"(?![^\W_])[ \t]*[)\]]?")
_SCALE_SEP: Final = re.compile(r"[ \t]*(?:(?P<r>-|\u2013|\u2014|(?i:to|through|thru))|(?P<o>/|"
                               r"(?i:or|and|vs\.?|versus)))[ \t]*")
_NAME_AGAIN: Final = re.compile(r"([^\W\d_]+)[ \t\-]+")
_POSTFIX: Final = re.compile(r"[ \t\-](?i:(" + "|".join(sorted(_HARD)) + r"))(?![^\W_])")
#: Where a scale token may start (a plain scan; the full token pattern decides at each).
_SCALE_FAST: Final = r"[0-9]+|[IVX]+"
_LOWER_ROMAN: Final = re.compile(r"[ivx](?<![^\W\d_].)[ivx]*(?:[a-cfx][0-9]?)?(?![^\W_])")
_SCALE_TOKEN: Final = (
    r"(?P<ar>[0-9]+(?:\.[0-9]+)?)"
    rf"|(?<![^\W\d_])(?P<ro>(?i:{_ROMAN_RE}))(?P<rs>[A-Ca-cFfXx]\d?)?(?![^\W_])"
    rf"|(?<![^\W\d_])(?P<sp>(?i:{_SMALL_RE}))(?![^\W_])")


class _Scale(OptionValues):
    """A scale: a value for each option, and the names the set and its question use."""

    __slots__ = ("_chains", "_composites", "_cues", "_fast", "_hards", "_kinds", "_named",
                 "_options", "_qhards", "_qnames", "_suffix_letters", "_suffixes", "_token",
                 "_vocab")

    def __init__(self, reads: list[tuple[str, _Read]], question: list[list[str]]) -> None:
        super().__init__("scale", frozenset(k for k, _ in reads))
        self._vocab = vocab = _Vocabulary()
        asked = [vocab.add(words) for words in question]
        self._qnames = frozenset(n for names, _ in asked for n in names)
        self._qhards = frozenset(h for _, hards in asked for h in hards)
        self._options = [_Option(k, r.value, *vocab.add(r.words)) for k, r in reads]
        self._named = bool(self._qnames or any(o.names for o in self._options))
        self._hards = {h for o in self._options for h in o.hards}
        self._kinds: dict[str, tuple[int, Unit | None]] = {}
        self._chains: dict[tuple[str, bool, bool], _Chain] = {}
        self._suffixes = {o.value.suffix for o in self._options if o.value.num is not None}
        self._suffix_letters = _GENERAL_SUFFIX | {x[:1] for x in self._suffixes}
        self._composites = any(o.value.parts for o in self._options)
        codes = sorted({o.value.suffix for o in self._options if o.value.num is None},
                       key=len, reverse=True)
        self._token = re.compile(_SCALE_TOKEN + (
            r"|(?<![^\W\d_])(?P<lv>(?i:" + "|".join(codes) + r"))(?![^\W_])" if codes else ""))
        self._fast = re.compile(_SCALE_FAST + "".join(
            rf"|[{c[0].lower()}{c[0]}](?<![^\W\d_].)(?i:{c[1:]})(?![^\W_])" for c in codes))
        written = [w for _, r in reads for w in r.words] + [w for ws in question for w in ws]
        self._cues = tuple({*_HARD, *_SOFT, *(p.lower() for w in written for p in _parts(w))})

    def find(self, text: str, *, bare: bool = False) -> list[ValueMention]:
        """See :meth:`OptionValues.find`."""
        if not any(map(text.__contains__, "0123456789IVX")):
            low = text.lower()
            if not any(map(low.__contains__, _NUMBER_WORDS)) and not any(
                    map(low.__contains__, self._cues)):
                return []
        out: list[ValueMention] = []
        pos = 0
        starts = [m.start() for m in self._fast.finditer(text)]
        if any(map(text.lower().__contains__, self._cues)):  # "grade iii"
            starts += [m.start() for m in _LOWER_ROMAN.finditer(text)]
        rev = text[::-1]
        for s in sorted({*starts, *_word_starts(text, _BASE_WORDS)}):
            if s >= pos and (m := self._token.match(text, s)) and (
                    mention := self._mention(text, rev, m, bare, pos)) is not None:
                out.append(mention)
                pos = mention.end
        return out

    def _value(self, text: str, m: re.Match[str]) -> tuple[_Value, int] | None:
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
            return _Value(int(ar), suffix), e
        if m["ro"] is not None:
            return _Value(_ROMAN[m["ro"].upper()], (m["rs"] or "").upper()), e
        if m["sp"] is not None:
            return _Value(_WORD_NUM[m["sp"].lower()], ""), e
        return _Value(None, m["lv"].upper()), e

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
        f = _fold(raw)
        if g := _generic(f):
            return (_HARD_WORD if g in _HARD else _SOFT_WORD), (None, frozenset([g]) & _HARD)
        if f in _LEAD:
            return _LEAD_WORD, None
        if f in _PLAIN:
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
            if unit is None and (gen := _generic(_fold(g))):
                unit = (None, frozenset([gen]) & _HARD)
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

    def _letters(self, v: _Value, chain: _Chain) -> frozenset[str]:
        """The options a value written with this name is compatible with (exact ones first)."""
        hits = [o for o in self._options if _compatible(v, o.value)]
        hits = [o for o in hits if self._name_ok(o, chain)] if chain.names or chain.hards else hits
        exact = [o for o in hits if o.value == v]
        return frozenset(o.letter for o in exact or hits)

    def _mention(self, text: str, rev: str, m: re.Match[str], bare: bool,
                 lo: int) -> ValueMention | None:
        got = self._value(text, m)
        if got is None:
            return None
        (v, e), s, bad = got, m.start(), False
        nxt, num = text[e:e + 3].lstrip(" \t")[:1], v.num
        if num is not None and not v.suffix and nxt and nxt in "+pP,:=([":  # "3+4", "7 (3+4)"
            if num <= 5 and (p := _PLUS.match(text, e)):
                b = _number(p["b"])
                bad = bool(p["t"]) and int(p["t"]) != num + b
                v, e = _Value(num + b, "", (num, b)), p.end()
            elif num >= 2 and (p := _PARTS_AFTER.match(text, e)):
                a, b = _number(p["a"]), _number(p["b"])
                bad = a + b != num
                v, e = v._replace(parts=(a, b)), p.end()
        if text[e:e + 2].lstrip(" \t-")[:1].lower() in _NOT_AFTER_FIRST and _NOT_AFTER.match(
                text, e):
            return None
        bound = _bound(text, s, lo)
        chain = self._chain(text, rev, bound.start() if bound else s, lo)
        if chain is _BAD:
            return None
        if not chain.named and (p := _POSTFIX.match(text, e)) and p[1].lower() in self._hards:
            chain, e = chain._replace(named=True, hards=frozenset([p[1].lower()])), p.end()
        if bound is None and chain.start:
            bound = _bound(text, chain.start, lo)
        start = min(chain.start, bound.start()) if bound else chain.start
        after = None if bound else _BOUND_AFTER.match(text, e)
        if not chain.named:
            if v.num is None or m["ro"] and not m["ro"].isupper() or _clocked(text, s, e):
                return None
            if not (v.parts and (self._composites or bare)
                    or bare and chain.lead and not (m["ro"] == "I" and any(
                        c.isalpha() for c in text[e:]))
                    or (bound or after) and _follow_ok(text, after.end() if after else e)):
                return None
        if chain.foreign or bad:
            return ValueMention(start, e, frozenset())
        if bound or after:
            d = _BOUND_OF[" ".join(bound["b"].lower().split())] if bound else (
                "le" if after and after["dir"].lower() in _LESS else "ge")
            e = after.end() if after else e
            hits = frozenset(o.letter for o in self._options if self._name_ok(o, chain) and (
                _at_least(o.value, v, d[1] == "t") if d[0] == "g"
                else _at_least(v, o.value, d[1] == "t")))
            if not (chain.named or bare) and len(hits) < 2:
                hits = frozenset()
            return ValueMention(start, e, hits, len(hits) > 1)
        if (sep := _SCALE_SEP.match(text, e)) and (second := self._second(text, sep.end())):
            (v2, e2), between = second, _between(text, start, lo)
            if (v2.num is None) == (v.num is None):
                low, high = (v, v2) if _at_least(v2, v, False) else (v2, v)
                if sep["r"] or between and sep["o"].lower() == "and":
                    hits = frozenset(o.letter for o in self._options if self._name_ok(o, chain)
                                     and _at_least(o.value, low, False)
                                     and _at_least(high, o.value, False))
                else:
                    hits = self._letters(v, chain) | self._letters(v2, chain)
                return ValueMention(between.start() if between else start, e2,
                                    hits if len(hits) > 1 else frozenset(), len(hits) > 1)
        if not (chain.named or v.parts or _follow_ok(text, e)):
            return None
        return ValueMention(start, e, self._letters(v, chain))

    def _second(self, text: str, p: int) -> tuple[_Value, int] | None:
        """The second value of a range or alternative at ``p`` ("2-3", "2 or grade 3")."""
        for _ in range(2):  # the name written again
            w = _NAME_AGAIN.match(text, p)
            if w is None or self._classify(w[1])[0] not in (_OWN, _HARD_WORD, _SOFT_WORD):
                break
            p = w.end()
        m = self._token.match(text, p)
        return self._value(text, m) if m else None


def _unit_table() -> dict[str, tuple[str, Fraction]]:
    """:data:`UNITS` from its compact spelling ("(s)": the plural too; "_": a space)."""
    out: dict[str, tuple[str, Fraction]] = {}
    for line in _UNIT_SPEC.strip().splitlines():
        dim, groups = line.split(":", 1)
        for group in groups.split(";"):
            forms, factor = group.rsplit("=", 1)
            for form in forms.split():
                for f in ([form[:-3], form[:-3] + "s"] if form.endswith("(s)") else [form]):
                    out[f.replace("_", " ")] = (dim.strip(), Fraction(factor))
    return out


_UNIT_SPEC: Final = """
length: nm=1/1000000; \u00b5m \u03bcm um micron(s) micrometre(s) micrometer(s)=1/1000; mm \
millimetre(s) millimeter(s)=1; cm centimetre(s) centimeter(s)=10; m metre(s) meter(s)=1000
area: mm\u00b2 mm2 sq_mm=1; cm\u00b2 cm2 sq_cm=100; m\u00b2 m2=1000000
volume: \u00b5L \u03bcL uL microlitre(s) microliter(s)=1/1000; mL ml millilitre(s) \
milliliter(s) cc cm\u00b3 cm3=1; dL dl=100; L l litre(s) liter(s)=1000
mass: \u00b5g \u03bcg ug mcg microgram(s)=1/1000000; mg milligram(s)=1/1000; g gram(s)=1; kg \
kilogram(s)=1000
time: ms msec millisecond(s)=1/1000; s sec secs second(s)=1; min mins minute(s)=60; h hr hrs \
hour(s)=3600; day(s)=86400; wk wks week(s)=604800; month(s)=2629800; yr yrs year(s)=31557600
percent: % percent per_cent pct=1
velocity: mm/s=1/10; cm/s cm/sec=1; m/s m/sec=100
pressure: mmHg mm_Hg=1; kPa=750062/100000; cmH2O cm_H2O=735559/1000000
absorbed dose: Gy gray=1; cGy=1/100; mGy=1/1000
effective dose: Sv=1; mSv=1/1000; \u00b5Sv \u03bcSv uSv=1/1000000
attenuation: HU Hounsfield_unit(s)=1
rate: bpm beats_per_minute beats/min breaths_per_minute breaths/min /min=1
angle: \u00b0 deg degree(s)=1
frequency: Hz=1; kHz=1000; MHz=1000000
mass concentration: pg/mL=1/1000000; ng/mL \u00b5g/L=1/1000; mg/L \u00b5g/mL=1; mg/dL=10; \
g/L=1000; g/dL=10000
molar concentration: nmol/L=1/1000000; \u00b5mol/L umol/L=1/1000; mmol/L=1; mol/L=1000
"""
#: Written unit → (its dimension, its size in the dimension's base unit). One-letter units are
#: read only as written (m, s, h, g, l, L); the others in any case.
UNITS: Final = _unit_table()
_UNIT_CI: Final = {" ".join(k.lower().split()): v for k, v in UNITS.items() if len(k) > 1}
_UNIT_RE: Final = "|".join(
    (r"(?i:" + r"[ \t]+".join(map(re.escape, k.split())) + ")") if len(k) > 1 else re.escape(k)
    for k in sorted(UNITS, key=len, reverse=True))
_NUMQ: Final = r"[-\u2212]?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?|[-\u2212]?\.[0-9]+"
_OPTION_Q: Final = re.compile(
    rf"(?:(?P<op>{_BOUND_RE}|(?i:between|from))[ \t]*)?(?P<a>{_NUMQ})[ \t]*(?P<ua>{_UNIT_RE})?"
    rf"(?:[ \t]*(?:-|\u2013|\u2014|(?i:to|and))[ \t]*(?P<b>{_NUMQ})[ \t]*(?P<ub>{_UNIT_RE})?)?"
    rf"(?:[ \t]*(?P<plus>\+)|[ \t]*{_AFTER_RE})?[ \t]*(?:[(\[,:;\u2013\u2014].*)?", re.S)
_Q_TOKEN: Final = re.compile(
    rf"(?<![\w.,])(?:{_NUMQ})(?![0-9])|(?<![^\W\d_])(?P<w>(?i:{_BIG_RE}))(?![^\W_])")
_DIGITS: Final = re.compile(r"[0-9]+")
_Q_WORDS: Final = tuple(w for w in (*_SPELLED, *_TENS, "hundred")
                       if not any(v != w and v in w for v in (*_SPELLED, *_TENS)))
_Q_NEXT: Final = re.compile(rf"(?:{_NUMQ})(?![0-9])|(?P<w>(?i:{_BIG_RE}))(?![^\W_])")
_UNIT_AFTER: Final = re.compile(rf"(?:[ \t]?|-)(?P<u>{_UNIT_RE})(?![^\W_])")
_Q_SEP: Final = re.compile(
    r"[ \t]*(?:(?P<r>-|\u2013|\u2014|(?i:to))|(?P<a>(?i:and))|(?P<o>(?i:or))"
    r"|(?P<x>x|\u00d7|(?i:by))|(?P<pm>\u00b1|\+/-|\+-))[ \t]*")
_CLOCK: Final = re.compile(r"(\d{1,2}):([0-5]\d)(?::([0-5]\d))?(?![\d:])(?![ \t]*(?i:[ap]\.?m))")
_AT: Final = re.compile(r"(?<![^\W\d_])(?i:at|by|until|from)[ \t]*\Z")
_TIE_GAP: Final = re.compile(
    r"(?:[ \t]*(?:=|:|~|\u2248|(?i:is|was|of|at|approximately|about|around|roughly|measured|"
    r"estimated|measuring)(?![^\W_])))*[ \t]*\Z")
_AFTER_WORD: Final = re.compile(r"[ \t]*([^\W\d_]+)")


class _Iv(NamedTuple):
    """An interval; None for an unbounded side."""

    lo: Fraction | None
    lo_in: bool
    hi: Fraction | None
    hi_in: bool


def _inside(t: _Iv, o: _Iv) -> bool:
    """Whether interval ``t`` lies inside ``o``."""
    return ((o.lo is None or t.lo is not None and (t.lo > o.lo or t.lo == o.lo and (
        o.lo_in or not t.lo_in))) and (o.hi is None or t.hi is not None and (
            t.hi < o.hi or t.hi == o.hi and (o.hi_in or not t.hi_in))))


def _meets(a: _Iv, b: _Iv) -> bool:
    """Whether two intervals share a point."""
    return all(lo is None or hi is None or lo < hi or lo == hi and lo_in and hi_in
               for lo, lo_in, hi, hi_in in ((a.lo, a.lo_in, b.hi, b.hi_in),
                                            (b.lo, b.lo_in, a.hi, a.hi_in)))


def _bounded(p: Fraction, direction: str) -> _Iv:
    return _Iv(p, direction == "ge", None, False) if direction[0] == "g" else _Iv(
        None, False, p, direction == "le")


def _scaled(iv: _Iv, f: Fraction) -> _Iv:
    return _Iv(None if iv.lo is None else iv.lo * f, iv.lo_in,
               None if iv.hi is None else iv.hi * f, iv.hi_in)


def _qnum(raw: str) -> Fraction:
    """A written number: digits ("1,000", "-0.5") or words ("eighty-five", "a hundred")."""
    if raw[-1].isdigit():
        return Fraction(raw.replace(",", "").replace("\u2212", "-"))
    words = re.split(r"[- \t]+", raw.lower())
    if words[-1] == "hundred":
        return Fraction(100)
    return Fraction(sum(_TENS.get(w, _WORD_NUM.get(w, 0)) for w in words))


def _unit(written: str) -> tuple[str, Fraction]:
    return UNITS.get(written) or _UNIT_CI[" ".join(written.lower().split())]


class _QRead(NamedTuple):
    iv: _Iv  # in the written unit
    unit: str | None
    strong: bool  # a unit, a range, a bound or a decimal point: plainly a quantity


def _read_quantity(text: str) -> _QRead | None:
    """An option text read as a quantity: its interval and unit, or None.

    >>> _read_quantity("< 10 mm (microadenoma)")
    _QRead(iv=_Iv(lo=None, lo_in=False, hi=Fraction(10, 1), hi_in=False), unit='mm', strong=True)
    """
    core = " ".join(text.replace("*", " ").split()).rstrip(".")
    m = _OPTION_Q.fullmatch(core)
    if m is None:
        b = _BRACKETED.fullmatch(core)
        return _read_quantity(b.group(2)) if b and b.group(1) else None
    a, unit = _qnum(m["a"]), m["ub"] or m["ua"]
    if m["b"]:
        b2 = _qnum(m["b"])
        if m["ua"] and m["ub"] and _unit(m["ua"])[0] == _unit(m["ub"])[0]:
            a = a * _unit(m["ua"])[1] / _unit(m["ub"])[1]
        iv = _Iv(min(a, b2), True, max(a, b2), True)
    elif m["op"] and (d := _BOUND_OF.get(" ".join(m["op"].lower().split()))):
        iv = _bounded(a, d)
    elif m["plus"] or m["dir"]:
        iv = _bounded(a, "le" if m["dir"] and m["dir"].lower() in _LESS else "ge")
    elif m["op"]:
        return None
    else:
        iv = _Iv(a, True, a, True)
    return _QRead(iv, unit, bool(unit or m["b"] or m["op"] or m["plus"] or m["dir"]
                                 or "." in m["a"]))


class _Num(NamedTuple):
    value: Fraction
    unit: str | None
    end: int
    decimal: bool


class _Quantity(OptionValues):
    """A quantity: each option an interval in the base unit of one dimension."""

    __slots__ = ("_dim", "_ivs", "_ties", "_unit", "strong")

    def __init__(self, reads: list[tuple[str, _QRead]], question: str) -> None:
        dims = [_unit(r.unit)[0] for _, r in reads if r.unit]
        self._dim = max(sorted(set(dims)), key=dims.count) if dims else ""
        units = {_unit(r.unit)[1] for _, r in reads if r.unit and _unit(r.unit)[0] == self._dim}
        self._unit = units.pop() if len(units) == 1 else None if dims else Fraction(1)
        self._ivs = [(k, _scaled(r.iv, f)) for k, r in reads if (f := (
            _unit(r.unit)[1] if _unit(r.unit)[0] == self._dim else None) if r.unit
            else self._unit) is not None]
        super().__init__("quantity", frozenset(k for k, _ in self._ivs))
        self.strong = any(r.strong for _, r in reads)
        self._ties = frozenset(w.rstrip("s") for w in re.findall(r"[a-z]{3,}", question.lower())
                               if w not in _QSTOP)

    def find(self, text: str, *, bare: bool = False) -> list[ValueMention]:
        """See :meth:`OptionValues.find`."""
        if not any(map(text.__contains__, "0123456789")) and not any(
                map(text.lower().__contains__, _NUMBER_WORDS)):
            return []
        out: list[ValueMention] = []
        pos = 0
        runs = [m.start() for m in _DIGITS.finditer(text)]
        for s in sorted({*runs, *_word_starts(text, _Q_WORDS)}):
            m = _Q_TOKEN.match(text, s - 1) if text[s - 1:s] in "-\u2212." and s else None
            if s >= pos and (m := m or _Q_TOKEN.match(text, s)) and m.start() >= pos and (
                    mention := self._mention(text, m, bare, pos)) is not None:
                out.append(mention)
                pos = mention.end
        return out

    def _tied(self, text: str, s: int, e: int) -> bool:
        """Whether a unitless number is tied to a word of the question ("ratio is 0.5")."""
        gap = _TIE_GAP.search(text, max(0, s - 40), s)
        k = gap.start() if gap else s
        before = text[_word_before(text, k, max(0, k - 30)):k].lower().rstrip("s")
        after = _AFTER_WORD.match(text, e)
        return before in self._ties or bool(after and after[1].lower().rstrip("s") in self._ties)

    def _number(self, text: str, m: re.Match[str]) -> _Num | None:
        """A number token's value, written unit and end; None where it is no quantity."""
        s, e = m.span()
        if not m["w"] and text[e:e + 1] == ":" and text[e + 1:e + 2].isdigit():
            c = _CLOCK.match(text, s)  # a duration "0:02:45" where the options are times
            if (c is None or self._dim != "time" or _AT.search(text, max(0, s - 8), s)
                    or not (c[3] or c[1][0] == "0" or re.match(r"[ \t]*(?i:min)", text[c.end():]))):
                return None
            h, mi, sec = int(c[1]), int(c[2]), int(c[3] or 0)
            return _Num(Fraction(h * 3600 + mi * 60 + sec if c[3] else h * 60 + mi), "s",
                        c.end(), False)
        if not m["w"] and _clocked(text, s, e):
            return None
        u = _UNIT_AFTER.match(text, e)
        if u is None and text[e:e + 1].isalpha() and not _Q_SEP.match(text, e):
            return None
        return _Num(_qnum(m.group()), u["u"] if u else None, u.end() if u else e,
                    "." in m.group())

    def _mention(self, text: str, m: re.Match[str], bare: bool, lo: int) -> ValueMention | None:
        first = self._number(text, m)
        if first is None:
            return None
        s, nums, kind = m.start(), [first], ""
        while len(nums) < 3 and (sep := _Q_SEP.match(text, nums[-1].end)):
            t = _Q_NEXT.match(text, sep.end())
            nxt = self._number(text, t) if t else None
            if nxt is None or kind and sep.lastgroup != kind or kind and kind != "x":
                break
            nums.append(nxt)
            kind = sep.lastgroup or ""
        between = _between(text, s, lo)
        if kind == "a" and not between:
            nums, kind = nums[:1], ""
        bound = None if kind else _bound(text, s, lo)
        after = None if kind or bound else _BOUND_AFTER.match(text, nums[-1].end)
        start = bound.start() if bound else between.start() if between and kind else s
        end = after.end() if after else nums[-1].end
        units = [n.unit for n in nums if n.unit]
        if units:
            if {_unit(u)[0] for u in units} != {self._dim}:
                return ValueMention(start, end, frozenset())
            values = [n.value * _unit(n.unit or units[-1])[1] for n in nums]
        else:
            if not (not self._dim and (any(n.decimal for n in nums) or self._tied(text, s, end))
                    or bare and _lead_before(text, start) and _follow_ok(text, end)):
                return None
            if self._unit is None:
                return ValueMention(start, end, frozenset())
            values = [n.value * self._unit for n in nums]
        if kind in ("o", "x") or not (kind or bound or after):
            sets = {frozenset(k for k, o in self._ivs if _inside(_Iv(v, True, v, True), o))
                    for v in values}
            hits = frozenset().union(*sets)
            return ValueMention(start, end, hits, len(sets) > 1 and len(hits) > 1)
        if kind == "pm":
            iv = _Iv(values[0] - abs(values[1]), True, values[0] + abs(values[1]), True)
        elif kind:
            iv = _Iv(min(values), True, max(values), True)
        else:
            iv = _bounded(values[0], _BOUND_OF[" ".join(bound["b"].lower().split())] if bound
                          else "le" if after and after["dir"].lower() in _LESS else "ge")
        if inside := frozenset(k for k, o in self._ivs if _inside(iv, o)):
            return ValueMention(start, end, inside)
        meets = frozenset(k for k, o in self._ivs if _meets(iv, o))
        return ValueMention(start, end, meets if len(meets) > 1 else frozenset(), len(meets) > 1)


@lru_cache(maxsize=4096)
def option_values(options: tuple[tuple[str, str], ...],
                  question: str = "") -> OptionValues | None:
    """The option set read as values, or None when fewer than two options are values of one kind.

    Args:
        options: the options as (letter, text) pairs.
        question: the question; its scale names ("What is the Fazekas grade?") count with the
            options', and its words tie a unitless number ("the ratio is 3").

    Returns:
        A scale where two or more options are named scale values (or Roman, suffixed or
        composite ones, or plain numbers of a scale the question names); else a quantity where
        two or more options are numbers of one dimension; else None.

    >>> option_values((("A", "Pneumonia"), ("B", "Stage 2"))) is None
    True
    >>> option_values((("A", "0"), ("B", "1"), ("C", "2")), "What is the Fazekas grade?").kind
    'scale'
    """
    qnames = _question_names(question)
    scales = [(k, r) for k, t in options if (r := _read_scale(t)) is not None]
    quants = [(k, qr) for k, t in options if (qr := _read_quantity(t)) is not None]
    marked = sum(r.marked for _, r in scales)
    q = _Quantity(quants, question) if len(quants) >= 2 else None
    q = q if q is not None and len(q.letters) >= 2 else None
    if marked >= 2 and (q is None or not q.strong or marked > len(q.letters)):
        return _Scale(scales, qnames)
    if q is not None and q.strong:
        return q
    if len(scales) >= 2 and any(_generic(_fold(w[0])) or _fold(w[0]).endswith("rads")
                                for w in qnames):
        return _Scale(scales, qnames)
    return q
