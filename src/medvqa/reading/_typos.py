"""A short answer that misspells one option's words ("subdurl hematoma", "nodualr").

Where nothing else reads an answer, a response of a few words is read as the one option whose
words it writes, allowing one slip (a letter left out, added, changed or two swapped; two in
words of nine letters or more) in words of six letters or more. Only where exactly one option
is so written, every word of the response is one of that option's words, a slip is needed (else
the ordinary reading would have read it), and no slipped word is as close to a word of another
option: a doubt never reads.
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._fold import fold
from medvqa.reading._options import OptionSet

__all__ = ["slip_distance", "typo_letter"]

#: At most this many words in a response read with slips.
MAX_WORDS: Final = 6
#: Words shorter than this are never read with a slip.
MIN_SLIP_LEN: Final = 6
_WORD: Final = re.compile(r"[^\W\d_]+")
_LITTLE: Final = frozenset({"the", "a", "an", "of", "and", "with", "is", "it", "this", "in"})


def slip_distance(a: str, b: str, cap: int) -> int:
    """Edits (insert, delete, change, swap of neighbours) from ``a`` to ``b``, up to ``cap + 1``.

    >>> slip_distance("nodualr", "nodular", 1), slip_distance("subdurl", "subdural", 1)
    (1, 1)
    >>> slip_distance("direct", "indirect", 1)
    2
    """
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        if min(row) > cap:
            return cap + 1
        prev2, prev = prev, row
    return min(prev[-1], cap + 1)


def _cap(word: str) -> int:
    return 0 if len(word) < MIN_SLIP_LEN else (1 if len(word) < 9 else 2)


def _words(text: str) -> list[str]:
    return [w for w in (fold(m.group()) for m in _WORD.finditer(text.lower()))
            if w not in _LITTLE]


def typo_letter(body: str, ix: OptionSet) -> str | None:
    """The one option a short response writes with slips, or None (see the module docstring)."""
    said = _words(body)
    if not said or len(said) > MAX_WORDS or ix.yesno:
        return None
    options = {k: set(_words(t)) for k, t in ix.items}
    fits = []
    for k, words in options.items():
        slipped = []
        for w in said:
            if w in words:
                continue
            near = [o for o in words if 0 < slip_distance(w, o, _cap(o)) <= _cap(o)]
            if not near:
                break
            slipped.append(w)
        else:
            if slipped:
                fits.append((k, slipped))
    if len(fits) != 1:
        return None
    letter, slipped = fits[0]
    for k, words in options.items():
        if k != letter and any(slip_distance(w, o, 1) <= 1 for w in slipped for o in words):
            return None  # a slip as close to another option's word: a doubt
    return letter
