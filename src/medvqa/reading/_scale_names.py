"""The names a scale's values are written with: the options' and the question's.

A name is compared folded ("PI-RADS", "PIRADS", "pi rads" are one). Its short forms are derived,
never listed: initials of parts of one sort ("LI-RADS" → LR, "Kellgren-Lawrence" → KL,
"Keith Wagener Barker" → KWB, "grade group" → GG; "Lung-RADS" has none), "G" for grade, a
proper name's own parts ("Hess" of "Hunt-Hess") and the name with a one-letter lower-case prefix
("mTICI" for TICI). *Generic* words (grade, stage, score …) are no names: a *hard* one (grade,
stage, type, class …) says which kind of value follows, a *soft* one (score, category …) goes
with any scale.

>>> v = Vocabulary()
>>> v.add(["Keith-Wagener-Barker", "grade"])
(frozenset({'keithwagenerbarker'}), frozenset({'grade'}))
>>> v.lookup("KWB"), v.lookup("Barker")
(('keithwagenerbarker', frozenset()), ('keithwagenerbarker', frozenset()))
>>> question_names("What is the Kellgren Lawrence grade of the knee?")
[['Kellgren Lawrence'], ['grade']]
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._numbers import LEAD, QUESTION_STOP, fold

__all__ = ["HARD", "PLAIN", "SOFT", "Unit", "Vocabulary", "generic", "parts", "question_names",
           "runs", "sort_of"]

HARD: Final = frozenset("grade stage type group level class density tier pattern phase degree"
                        .split())
SOFT: Final = frozenset("score category classification assessment".split())
#: Capitalised words that are no scale name ("Not grade 3", "Only PI-RADS 5").
PLAIN: Final = frozenset((
    "not no nor neither either both only also just all any each every some more less high low "
    "higher lower unlikely certainly clearly the this that these those there here if then but "
    "and or for from in on by without mostly").split())
_ALIASES: Final = {"G": "grade"}

Unit = tuple[str | None, frozenset[str]]  # (a specific scale name, the generic words it means)


def generic(f: str) -> str | None:
    """The generic scale word a folded word is (plurals made singular), or None."""
    forms = [f, f[:-1], f[:-2], f[:-3] + "y"] if f.endswith("s") else [f]
    return next((g for g in forms if g in HARD or g in SOFT), None)


def parts(word: str) -> list[str]:
    """A compound's parts ("LI-RADS" and "LIRADS" → LI, RADS)."""
    out = [p for p in re.split(r"[-\s]+", word) if p]
    if len(out) == 1 and len(word) > 4 and word.lower().endswith("rads"):
        out = [word[:-4], word[-4:]]
    return out


def sort_of(part: str) -> str:
    """A name part's sort, for initials: generic word, acronym, proper name, or none."""
    if generic(fold(part)):
        return "g"
    if part.isalpha() and (part.isupper() or len(part) <= 2 or part.lower() == "rads"):
        return "a"
    return "p" if len(part) >= 3 and part[0].isupper() and part[1:].islower() else ""


def runs(ps: list[str]) -> list[tuple[int, int, str]]:
    """Maximal runs of two or more parts of one sort: (first, end, their initials).

    >>> runs(["LI", "RADS"]), runs(["Lung", "RADS"]), runs(["ISUP", "grade", "group"])
    ([(0, 2, 'LR')], [], [(1, 3, 'GG')])
    """
    out, i = [], 0
    while i < len(ps):
        j = i + 1
        while j < len(ps) and sort_of(ps[j]) == sort_of(ps[i]) != "":
            j += 1
        if j - i >= 2:
            out.append((i, j, "".join(p[0].upper() for p in ps[i:j])))
        i = j
    return out


class Vocabulary:
    """The scale names a text may use: folded forms, and short forms as written."""

    def __init__(self) -> None:
        self.units: dict[str, Unit] = {}
        self.shorts: dict[str, Unit] = {g: (None, frozenset([w])) for g, w in _ALIASES.items()}

    def add(self, words: list[str]) -> tuple[frozenset[str], frozenset[str]]:
        """Register a name's words; return its specific names and its hard generic words."""
        names, hards = set(), set()
        for w in words:
            f, known = fold(w), self.lookup(w)
            if g := generic(f):
                hards |= {g} & HARD
            elif known and known[0] is None:  # a generic word's short form: "G", "GG"
                hards |= known[1]
            elif len(f) > 2 or w.isupper():
                names.add(canon := known[0] if known and known[0] else f)
                table, key = (self.shorts, w) if len(f) <= 2 else (self.units, f)
                table.setdefault(key, (canon, frozenset()))
                ps = parts(w)
                for part in ps if "-" in w or " " in w else []:
                    if sort_of(part) == "p":  # "Hess" of "Hunt-Hess"
                        self.units.setdefault(fold(part), (canon, frozenset()))
                if (rs := runs(ps)) and rs[0][1] - rs[0][0] == len(ps):
                    self.shorts.setdefault(rs[0][2], (canon, frozenset()))
        ps = [p for w in words for p in parts(w)]
        for i, j, short in runs(ps):
            if sort_of(ps[i]) == "g":
                self.shorts.setdefault(short, (None, frozenset(
                    g for p in ps[i:j] if (g := generic(fold(p))) in HARD)))
        return frozenset(names), frozenset(hards)

    def lookup(self, raw: str) -> Unit | None:
        """The name a written word or compound is, or None."""
        hit = self.shorts.get(raw) or (self.units.get(fold(raw)) if len(raw) >= 3 else None)
        if hit is None and len(ps := parts(raw)) > 1:
            rs = runs(ps)
            hit = self.shorts.get(rs[0][2]) if rs and rs[0][1] - rs[0][0] == len(ps) else None
        if hit is None and len(raw) >= 3 and raw[0].islower() and raw[1:].isupper():
            prefixed = self.lookup(raw[1:])  # "mTICI" for TICI, "cT" for T
            hit = prefixed if prefixed is not None and prefixed[0] is not None else None
        return hit


def question_names(question: str) -> list[list[str]]:
    """The scale names a question uses ("Fazekas grade", "LI-RADS", "ISUP", "T stage").

    Proper names in a row before a generic word or an acronym are one name
    ("Keith Wagener Barker grade").
    """
    toks = re.findall(r"[^\W\d_]+(?:['\u2019\-][^\W\d_]+)*", question)
    out: list[list[str]] = []
    i = 0
    while i < len(toks):
        w = toks[i]
        j = i + 1
        while (j < len(toks) and sort_of(toks[j - 1]) == sort_of(toks[j]) == "p"
               and fold(toks[j]) not in LEAD | QUESTION_STOP | PLAIN):
            j += 1
        nxt = toks[j] if j < len(toks) else ""
        before_name = bool(nxt) and (generic(fold(nxt)) is not None or nxt.isupper())
        if j > i + 1 and before_name and fold(w) not in LEAD | QUESTION_STOP | PLAIN:
            out.append([" ".join(toks[i:j])])
            i = j
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        before_name = bool(nxt) and (generic(fold(nxt)) is not None or nxt.isupper()) or (
            i > 0 and sort_of(w) == "p" and nxt.islower() and i + 2 < len(toks)
            and generic(fold(toks[i + 2])) is not None)  # "Fitzpatrick skin type"
        if (generic(fold(w)) or fold(w).endswith("rads") or (w.isupper() and len(w) >= 2)
                or (sort_of(parts(w)[0]) in ("a", "p") and before_name
                    and fold(w) not in LEAD | QUESTION_STOP)):
            out.append([w])
        i += 1
    return out
