"""Word folding: the comparison form of a word, the same for every way clinicians write it.

:func:`fold` is a general spelling rule, not a word list:

- case and diacritics are ignored (``Ménétrier`` = ``menetrier``);
- possessives are dropped (``Crohn's`` = ``Crohn``), plurals are made singular
  (``-ies`` → ``-y``, ``-ices`` → ``-ex``, ``-ses`` → ``-sis``, ``-sses`` → ``-ss``,
  ``-xes``/``-ches``/``-shes`` → without ``-es``, ``-aces`` → ``-ax`` (pneumothoraces),
  ``-ae`` → ``-a``, ``-um`` → ``-a``, Latin ``-i`` → ``-us``,
  a final ``-s`` after anything but ``s``, ``u`` or ``i``);
- British and American spellings are one: ``ae`` and ``oe`` → ``e`` (haemorrhage, oedema,
  oesophagus, naevus), ``-our`` → ``-or`` (tumour), ``-ise``/``-isation`` → ``-ize`` …,
  ``-yse`` → ``-yze``, a final ``-tre``/``-bre``/``-vre`` → ``-ter`` … (centre, fibre).

The folded forms are only compared with each other (never shown), so a rule that also folds an
unrelated word ("does" → "des") costs nothing. :func:`phrase_tokens` splits a phrase into folded
words and the separators between them (a hyphen and a space are the same); :func:`anchor` and
:func:`ascii_view` serve the fast option search of :mod:`._variants`.

>>> fold("Haemorrhages"), fold("oedema"), fold("tumours"), fold("nuclei"), fold("Crohn's")
('hemorrhage', 'edema', 'tumor', 'nucleus', 'crohn')
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

__all__ = ["TOKEN", "anchor", "ascii_view", "fold", "gap", "phrase_tokens"]

#: A word: letters and digits, with inner apostrophes ("crohn's").
TOKEN: Final = re.compile(r"[^\W_]+(?:'[^\W_]+)*'?")
_IS_TO_IZ: Final = re.compile(r"(?<=[a-z])is(?=e|ation|ing|ed)")
_YS_TO_YZ: Final = re.compile(r"(?<=[a-z])ys(?=e|ing|ed)")
_RE_END: Final = re.compile(r"(?<=[a-z][tbv])re$")


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


def gap(text: str, start: int, end: int) -> str:
    """What separates two words: ``""`` for spaces or a hyphen, else the punctuation itself."""
    g = text[start:end].strip()
    return "" if g in ("", "-", "\u2010", "\u2011") else g


def phrase_tokens(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """An option text's folded words and the separators between them (:func:`_gap`).

    >>> phrase_tokens("E. coli"), phrase_tokens("Non-glaucoma")
    ((('e', 'colus'), ('.',)), (('non', 'glaucoma'), ('',)))
    """
    ms = list(TOKEN.finditer(text.lower()))
    words = tuple(fold(m.group()) for m in ms)
    gaps = tuple(gap(text, a.end(), b.start()) for a, b in zip(ms, ms[1:], strict=False))
    return words, gaps


# Each non-ASCII character's base letter, or the character itself (see ascii_view).
_VIEW: Final[dict[str, str]] = {}
_NON_ASCII: Final = re.compile(r"[^\x00-\x7f]")


def ascii_view(lowered: str) -> str:
    """``lowered`` with each accented letter replaced by its base letter, same length.

    Characters whose decomposition is not one ASCII letter are kept (CJK, dashes, ligatures),
    so positions in the view are positions in ``lowered``.

    Speed: each character that changes is replaced with ``str.replace`` (a character for a
    character, so the same as ``str.translate`` with the mapping); ``translate`` looks every
    character of a non-ASCII text up in its mapping, ten times the cost.

    >>> ascii_view("m\u00e9ningiome \u2014 \u6c14\u80f8")
    'meningiome \u2014 \u6c14\u80f8'
    """
    view = lowered
    for c in set(_NON_ASCII.findall(lowered)):
        base = _VIEW.get(c)
        if base is None:
            base = "".join(x for x in unicodedata.normalize("NFKD", c)
                           if not unicodedata.combining(x))
            base = _VIEW[c] = base if len(base) == 1 and base.isascii() else c
        if base != c:
            view = view.replace(c, base)
    return view


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


