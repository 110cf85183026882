"""Options read as quantities: each option an interval in one dimension's base unit.

Bounds are open or closed as written ("< 5 mm", "5-10 mm", "0.9 or more", "below the 3rd
percentile"), in the base unit of the dimension (:data:`~._units.UNITS`). A quantity may stand in
an option's qualifier ("Large (> 2 cm)") and after a name ("Severe (PASI > 10)"): the name ties
a number without a unit ("a PASI of ~18"). A point names the options holding it (two on a shared
bound); a range or bound names the options containing it, or spans those it crosses. A value
written as approximate ("about 20 %", "~55 %") names an option only where a fiftieth either side
stays inside it.

A number needs a unit, except in a bare answer (it takes the options' unit) and, for unitless
options, with a decimal point or tied to a word of the question or of the options' names
("ratio is 0.5"). A percentage reads unitless options that are fractions ("45 %" for
"0.40-0.50"); a bare fraction reads percentage options ("0.45" for "40-50 %"). Statistical
notation is no value ("95% CI", "p < 0.05", "OR 2.3", "n = 40").

>>> q = quantity_of(["< 5 mm", "5-10 mm", "> 10 mm"])
>>> [(sorted(m.letters), m.spans_options) for m in q.find("about 0.7 cm, maybe 8-12 mm")]
[(['B'], False), (['B', 'C'], True)]
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Final, NamedTuple

from medvqa.reading._numbers import (
    AFTER_RE,
    BETWEEN_AND,
    BIG_RE,
    BOUND_AFTER,
    BOUND_OF,
    BOUND_RE,
    LESS,
    NUMBER_WORDS,
    OR_BETWEEN_VALUES,
    ORDINAL_RE,
    QUESTION_STOP,
    RANGE_WORDS,
    SPELLED,
    TENS,
    WORD_NUM,
    OptionValues,
    ValueMention,
    between,
    bound_before,
    clocked,
    fold,
    follow_ok,
    lead_before,
    ordinal_value,
    statistical,
    word_before,
    word_starts,
)
from medvqa.reading._scale_names import HARD, generic
from medvqa.reading._units import UNIT_RE, unit

__all__ = ["QRead", "Quantity", "quantity_of", "read_quantity"]

_NUMQ: Final = r"[-\u2212]?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?|[-\u2212]?\.[0-9]+"
_ORDINAL: Final = re.compile(ORDINAL_RE)
# A value written as approximate ("about 20 %", "~55 %", "约55%"): it names an option only where
# every value within a fiftieth of it lies in that option.
_APPROX: Final = re.compile(
    r"(?:[~\u2248\u223c]|\b(?i:about|approx(?:imately|\.)?|around|roughly|circa|ca\.|nearly|"
    r"almost|environ|etwa|aproximadamente|cerca\s+de|circa|\u043e\u043a\u043e\u043b\u043e|"
    r"\u043f\u0440\u0438\u043c\u0435\u0440\u043d\u043e))[ \t]*\Z"
    r"|(?:\u7ea6|\u7d04|\u5927\u7ea6)[ \t]*\Z")
_THE: Final = r"(?:(?i:the)[ \t]+)?"
_OPTION_Q: Final = re.compile(
    rf"(?:(?P<op>{BOUND_RE}|(?i:between|from))[ \t]*{_THE})?(?P<a>{ORDINAL_RE}|{_NUMQ})"
    rf"[ \t]*(?P<ua>{UNIT_RE})?(?:[ \t]*(?:-|\u2013|\u2014|(?i:to|and))[ \t]*{_THE}"
    rf"(?P<b>{ORDINAL_RE}|{_NUMQ})[ \t]*(?P<ub>{UNIT_RE})?)?"
    rf"(?:[ \t]*(?P<plus>\+)|[ \t]*{AFTER_RE})?[ \t]*(?:[(\[,:;\u2013\u2014].*)?", re.S)
_BRACKETED: Final = re.compile(r"(.*?)[ \t]*[(\[]([^()\[\]]*)[)\]][ \t]*", re.S)
_NAME_PART: Final = re.compile(r"[^\W\d_][^\W\d_'\u2019\-]*")
_ORDINAL_WORDS: Final = tuple(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fifteenth twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth "
    "ninetieth hundredth".split())
_NUMBER_TOKEN: Final = (rf"(?<![\w.,])(?:{_NUMQ})(?![0-9])"
                        rf"|(?<![^\W\d_])(?P<w>(?i:{BIG_RE}))(?![^\W_])")
_ORDINAL_TOKEN: Final = rf"(?<![\w.,])(?P<o>{ORDINAL_RE})(?![^\W_])|"
#: A number where one starts (ordinals only where the options are percentiles: "3rd centile").
_Q_TOKEN: Final = re.compile(_NUMBER_TOKEN)
_Q_TOKEN_ORDINAL: Final = re.compile(_ORDINAL_TOKEN + _NUMBER_TOKEN)
_DIGITS: Final = re.compile(r"[0-9]+")
_Q_WORDS: Final = tuple(w for w in (*SPELLED, *TENS, "hundred")
                       if not any(v != w and v in w for v in (*SPELLED, *TENS)))
_NEXT_TOKEN: Final = rf"(?:{_NUMQ})(?![0-9])|(?P<w>(?i:{BIG_RE}))(?![^\W_])"
_Q_NEXT: Final = re.compile(_NEXT_TOKEN)
_Q_NEXT_ORDINAL: Final = re.compile(rf"{_THE}(?:(?P<o>{ORDINAL_RE})(?![^\W_])|{_NEXT_TOKEN})")
_UNIT_AFTER: Final = re.compile(rf"(?:[ \t]?|-)(?P<u>{UNIT_RE})(?![^\W_])")
# Between two numbers: a range ("8-12", "8 à 9", "4 bis 5", "55～60"), "and" (a range after
# "between"), "or", a product ("5 x 4"), a tolerance ("55 ± 5"), in the languages models answer in.
_Q_SEP: Final = re.compile(
    r"[ \t]*(?:(?P<r>-|\u2013|\u2014|(?i:to)(?!\w)|" + RANGE_WORDS + r")"
    r"|(?P<a>(?i:" + BETWEEN_AND + r")(?!\w))|(?P<o>(?i:" + OR_BETWEEN_VALUES + r")(?![^\W_]))"
    r"|(?P<x>x|\u00d7|(?i:by))|(?P<pm>\u00b1|\+/-|\+-))[ \t]*")
_CLOCK: Final = re.compile(r"(\d{1,2}):([0-5]\d)(?::([0-5]\d))?(?![\d:])(?![ \t]*(?i:[ap]\.?m))")
_AT: Final = re.compile(r"(?<![^\W\d_])(?i:at|by|until|from)[ \t]*\Z")
_TIE_GAP: Final = re.compile(
    r"(?:[ \t]*(?:=|:|~|\u2248|(?i:is|was|of|at|approximately|about|around|roughly|measured|"
    r"estimated|measuring)(?![^\W_])))*[ \t]*\Z")
_AFTER_WORD: Final = re.compile(r"[ \t]*([^\W\d_]+)")
#: Words between a tying name and its number ("PASI score of 18").
_TIE_FILLER: Final = frozenset(("index", "value", "total"))


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
    """A written number: digits ("1,000", "-0.5"), words ("eighty-five") or an ordinal."""
    if raw[-1].isdigit():
        return Fraction(raw.replace(",", "").replace("\u2212", "-"))
    if _ORDINAL.fullmatch(raw):
        return Fraction(ordinal_value(raw))
    words = re.split(r"[- \t]+", raw.lower())
    if words[-1] == "hundred":
        return Fraction(100)
    return Fraction(sum(TENS.get(w, WORD_NUM.get(w, 0)) for w in words))


class QRead(NamedTuple):
    """An option text read as a quantity."""

    iv: _Iv  # in the written unit
    unit: str | None
    strong: bool  # a unit, a range, a bound or a decimal point: plainly a quantity
    name: tuple[str, ...] = ()  # the words of a name written before it ("PASI")
    qualified: bool = False  # written in a bracketed qualifier ("Microspheres (500-700 µm)")


def _name_ok(words: list[str]) -> bool:
    """Whether words before a number may name a quantity (no scale word, bound or number)."""
    return all(_NAME_PART.fullmatch(w) and generic(fold(w)) not in HARD
               and not fold(w).endswith("rads") and w.lower() not in WORD_NUM
               and not re.fullmatch(BOUND_RE, w) for w in words)


def read_quantity(text: str) -> QRead | None:
    """An option text read as a quantity: its interval and unit, or None.

    >>> read_quantity("< 10 mm (microadenoma)").iv
    _Iv(lo=None, lo_in=False, hi=Fraction(10, 1), hi_in=False)
    >>> read_quantity("Severe (PASI > 10)").name
    ('pasi',)
    """
    core = " ".join(text.replace("*", " ").split()).rstrip(".")
    m = _OPTION_Q.fullmatch(core)
    name: tuple[str, ...] = ()
    if m is None:
        words = core.split(" ")
        for k in range(1, min(4, len(words))):
            if (m := _OPTION_Q.fullmatch(" ".join(words[k:]).lstrip(":= "))) and _name_ok(
                    [w.rstrip(":=") for w in words[:k]]):
                name = tuple(w.rstrip(":=").lower() for w in words[:k])
                break
        else:
            m = None
    if m is None:
        b = _BRACKETED.fullmatch(core)
        inner = read_quantity(b.group(2)) if b and b.group(1) else None
        return inner._replace(qualified=True) if inner else None
    a, written = _qnum(m["a"]), m["ub"] or m["ua"]
    if not (m["a"][-1].isdigit() and (m["b"] or "0")[-1].isdigit()) and not (
            written and unit(written)[0] == "percentile"):
        return None  # an ordinal counts only as a percentile ("3rd degree" is no angle)
    if m["b"]:
        b2 = _qnum(m["b"])
        if m["ua"] and m["ub"] and unit(m["ua"])[0] == unit(m["ub"])[0]:
            a = a * unit(m["ua"])[1] / unit(m["ub"])[1]
        iv = _Iv(min(a, b2), True, max(a, b2), True)
    elif m["op"] and (d := BOUND_OF.get(" ".join(m["op"].lower().split()))):
        iv = _bounded(a, d)
    elif m["plus"] or m["dir"]:
        iv = _bounded(a, "le" if m["dir"] and m["dir"].lower() in LESS else "ge")
    elif m["op"]:
        return None
    else:
        iv = _Iv(a, True, a, True)
    return QRead(iv, written, bool(written or m["b"] or m["op"] or m["plus"] or m["dir"]
                                   or "." in m["a"]), name)


class _Num(NamedTuple):
    value: Fraction
    unit: str | None
    end: int
    decimal: bool
    ordinal: bool


def _ends(iv: _Iv) -> list[Fraction]:
    return [b for b in (iv.lo, iv.hi) if b is not None]


class Quantity(OptionValues):
    """A quantity: each option an interval in the base unit of one dimension."""

    __slots__ = ("_dim", "_fractions", "_ivs", "_named", "_next", "_ties", "_token", "_unit",
                 "_whole_percent", "strong")

    def __init__(self, reads: list[tuple[str, QRead]], question: str) -> None:
        dims = [unit(r.unit)[0] for _, r in reads if r.unit]
        self._dim = max(sorted(set(dims)), key=dims.count) if dims else ""
        units = {unit(r.unit)[1] for _, r in reads if r.unit and unit(r.unit)[0] == self._dim}
        self._unit = units.pop() if len(units) == 1 else None if dims else Fraction(1)
        self._ivs = [(k, _scaled(r.iv, f)) for k, r in reads if (f := (
            unit(r.unit)[1] if unit(r.unit)[0] == self._dim else None) if r.unit
            else self._unit) is not None]
        super().__init__("quantity", frozenset(k for k, _ in self._ivs))
        self.strong = any(r.strong for _, r in reads)
        ends = [b for _, iv in self._ivs for b in _ends(iv)]
        # unitless fractions read a percentage; whole percentages read a bare fraction
        self._fractions = not self._dim and bool(ends) and all(0 <= b <= 1 for b in ends)
        self._whole_percent = self._dim == "percent" and all(b == 0 or b >= 1 for b in ends)
        names = {w.rstrip("s") for _, r in reads for n in r.name
                 for w in re.findall(r"[a-z]{2,}", n)}
        self._named = bool(names)
        ordinal = self._dim == "percentile"
        self._token = _Q_TOKEN_ORDINAL if ordinal else _Q_TOKEN
        self._next = _Q_NEXT_ORDINAL if ordinal else _Q_NEXT
        self._ties = names | frozenset(
            w.rstrip("s") for w in re.findall(r"[a-z]{3,}", question.lower())
            if w not in QUESTION_STOP)

    def may_hold(self, text: str) -> bool:
        """See :meth:`OptionValues.may_hold`."""
        if any(map(text.__contains__, "0123456789")):
            return True
        low = text.lower()  # ordinals hold no number word: "first percentile"
        return any(map(low.__contains__, NUMBER_WORDS)) or (
            self._dim == "percentile" and "centile" in low)

    def find(self, text: str, *, bare: bool = False) -> list[ValueMention]:
        """See :meth:`OptionValues.find`."""
        if not self.may_hold(text):
            return []
        out: list[ValueMention] = []
        pos = 0
        starts = {m.start() for m in _DIGITS.finditer(text)} | set(word_starts(text, _Q_WORDS))
        if self._dim == "percentile" and "centile" in text.lower():
            starts |= set(word_starts(text, _ORDINAL_WORDS))
        for s in sorted(starts):
            m = self._token.match(text, s - 1) if text[s - 1:s] in "-\u2212." and s else None
            if s >= pos and (m := m or self._token.match(text, s)) and m.start() >= pos and (
                    mention := self._mention(text, m, bare, pos)) is not None:
                out.append(mention)
                pos = mention.end
        return out

    def _tied(self, text: str, s: int, e: int) -> bool:
        """Whether a unitless number is tied to a word of the question or a name ("ratio 0.5")."""
        k = s
        for _ in range(2):
            gap = _TIE_GAP.search(text, max(0, k - 40), k)
            k = gap.start() if gap else k
            j = word_before(text, k, max(0, k - 30))
            before = text[j:k].lower().rstrip("s")
            if before in self._ties:
                return True
            if not before or not (generic(before) or before in _TIE_FILLER):
                break
            k = j  # a generic word between: "PASI score of 18"
        after = _AFTER_WORD.match(text, e)
        return bool(after and after[1].lower().rstrip("s") in self._ties)

    def _number(self, text: str, m: re.Match[str]) -> _Num | None:
        """A number token's value, written unit and end; None where it is no quantity."""
        s, e = m.span()
        if m.lastgroup == "o":
            u = _UNIT_AFTER.match(text, e)
            return _Num(_qnum(m["o"]), u["u"] if u else None, u.end() if u else e, False, True)
        if not m["w"] and text[e:e + 1] == ":" and text[e + 1:e + 2].isdigit():
            c = _CLOCK.match(text, s)  # a duration "0:02:45" where the options are times
            if (c is None or self._dim != "time" or _AT.search(text, max(0, s - 8), s)
                    or not (c[3] or c[1][0] == "0" or re.match(r"[ \t]*(?i:min)", text[c.end():]))):
                return None
            h, mi, sec = int(c[1]), int(c[2]), int(c[3] or 0)
            return _Num(Fraction(h * 3600 + mi * 60 + sec if c[3] else h * 60 + mi), "s",
                        c.end(), False, False)
        if not m["w"] and clocked(text, s, e):
            return None
        u = _UNIT_AFTER.match(text, e)
        if u is None and text[e:e + 1].isalpha() and not _Q_SEP.match(text, e):
            return None
        return _Num(_qnum(m.group()), u["u"] if u else None, u.end() if u else e,
                    "." in m.group(), False)

    def _mention(self, text: str, m: re.Match[str], bare: bool, lo: int) -> ValueMention | None:
        first = self._number(text, m)
        if first is None:
            return None
        s, nums, kind = m.start(), [first], ""
        while len(nums) < 3 and (sep := _Q_SEP.match(text, nums[-1].end)):
            t = self._next.match(text, sep.end())
            nxt = self._number(text, t) if t else None
            if nxt is None or kind and sep.lastgroup != kind or kind and kind != "x":
                break
            nums.append(nxt)
            kind = sep.lastgroup or ""
        opened = between(text, s, lo)
        if kind == "a" and not opened:
            nums, kind = nums[:1], ""
        bound = None if kind else bound_before(text, s, lo)
        after = None if kind or bound else BOUND_AFTER.match(text, nums[-1].end)
        start = bound.start() if bound else opened.start() if opened and kind else s
        end = after.end() if after else nums[-1].end
        units = [n.unit for n in nums if n.unit]
        dims = {unit(u)[0] for u in units} if units else set()
        if (not units or dims == {"percent"}) and statistical(text, s, m.end()):
            return ValueMention(start, end, frozenset())  # "95% CI", "p < 0.05", "n = 40"
        if self._token is _Q_TOKEN_ORDINAL and any(n.ordinal for n in nums) and dims != {
                "percentile"}:
            return None  # "3rd", "the second"
        if units:
            if dims == {"percent"} and self._fractions:  # "45 %" for "0.40-0.50"
                values = [n.value / 100 for n in nums]
            elif dims != {self._dim}:
                return ValueMention(start, end, frozenset())
            else:
                values = [n.value * unit(n.unit or units[-1])[1] for n in nums]
        else:
            if not (not self._dim and (self._tied(text, s, end) or any(
                    n.decimal for n in nums) and not self._named)
                    or bare and lead_before(text, start) and follow_ok(text, end)):
                return None
            if self._unit is None:
                return ValueMention(start, end, frozenset())
            values = [n.value * self._unit for n in nums]
            if self._fractions and any(v > 1 for v in values):  # "45" is no fraction
                return ValueMention(start, end, frozenset())
            if bare and self._whole_percent and all(
                    n.decimal and 0 <= n.value <= 1 for n in nums):  # "0.45" for "40-50 %"
                values = [v * 100 for v in values]
        if not (kind or bound or after) and _APPROX.search(text, max(0, start - 16), start):
            near = _Iv(values[0] - abs(values[0]) / 50, True, values[0] + abs(values[0]) / 50, True)
            if not any(_inside(near, o) for _, o in self._ivs):
                # "about 20 %" beside "3-20 %" and "21-50 %": it may lie on either side
                meets = frozenset(k for k, o in self._ivs if _meets(near, o))
                return ValueMention(start, end, meets, len(meets) > 1)
        return ValueMention(start, end, *self._named_by(values, kind, bound, after))

    def _named_by(self, values: list[Fraction], kind: str, bound: re.Match[str] | None,
                  after: re.Match[str] | None) -> tuple[frozenset[str], bool]:
        """The options written values name, and whether they span options."""
        if kind in ("o", "x") or not (kind or bound or after):
            sets = {frozenset(k for k, o in self._ivs if _inside(_Iv(v, True, v, True), o))
                    for v in values}
            hits = frozenset().union(*sets)
            return hits, len(sets) > 1 and len(hits) > 1
        if kind == "pm":
            iv = _Iv(values[0] - abs(values[1]), True, values[0] + abs(values[1]), True)
        elif kind:
            iv = _Iv(min(values), True, max(values), True)
        else:
            iv = _bounded(values[0], BOUND_OF[" ".join(bound["b"].lower().split())] if bound
                          else "le" if after and after["dir"].lower() in LESS else "ge")
        if inside := frozenset(k for k, o in self._ivs if _inside(iv, o)):
            return inside, False
        meets = frozenset(k for k, o in self._ivs if _meets(iv, o))
        return (meets, True) if len(meets) > 1 else (frozenset(), False)


def quantity_of(texts: list[str], question: str = "") -> Quantity:
    """The quantity of option texts lettered A, B, … (for examples and tests)."""
    reads = [(k, r) for k, t in zip("ABCDEFGHIJ", texts, strict=False)
             if (r := read_quantity(t)) is not None]
    return Quantity(reads, question)
