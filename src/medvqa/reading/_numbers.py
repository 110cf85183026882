"""What the value readers share: written numbers, bounds, the mention and the reader's face.

Numbers are written in digits, Roman numerals (I–XII), words ("zero" … "twenty", "eighty-five",
"a hundred") and ordinals ("3rd", "ninety-fifth"); bounds in words or signs ("at least", "≥",
"or more"). :class:`ValueMention` and :class:`OptionValues` are re-exported by :mod:`._values`;
the scale reader (:mod:`._scales`) and the quantity reader (:mod:`._quantities`) build on them.

>>> ordinal_value("ninety-fifth"), ordinal_value("3rd"), ordinal_value("Twentieth")
(95, 3, 20)
>>> statistical("OR 2.3 (95% CI 1.1-4.0)", 3, 6), statistical("a 95% CI", 2, 4)
(True, True)
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

__all__ = [
    "AFTER_RE", "BETWEEN", "BIG_RE", "BOUND_AFTER", "BOUND_OF", "BOUND_RE", "LEAD", "LESS",
    "NUMBER_WORDS", "ORDINAL_RE", "PART_RE", "QUESTION_STOP", "ROMAN", "ROMAN_RE", "SMALL_RE",
    "BETWEEN_AND", "OR_BETWEEN_VALUES", "RANGE_WORDS", "SPELLED", "TENS", "WORD_NUM",
    "OptionValues", "ValueMention", "between", "bound_before",
    "clocked", "follow_ok", "fold", "lead_before", "ordinal_value", "skip_seps", "statistical",
    "word_before", "word_starts",
]

# What joins two values into a range besides a dash and "to": "8 à 9 mm", "4 bis 5", "5 до 7",
# "55～60", "3至5".
RANGE_WORDS: Final = r"(?i:\u00e0|bis|\u0434\u043e)(?!\w)|[\uff5e\u301c~\u81f3\u5230]"


def _or_between_values() -> str:
    """"Or" between two values, in every language of the rule table ("2 or 3", "4 или 5").

    The words of ``alternative.or`` and ``alternative.other-languages`` that are plain words,
    less the Dutch "of" (in "2 of 5", a count).
    """
    from medvqa.reading.rules import rule_by_id

    words = [w for r in ("alternative.or", "alternative.other-languages")
             for w in rule_by_id(r).phrases
             if w != "of" and not any(c in w for c in "()[]|*.")]
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len,
                                                                       reverse=True))


#: "Or" between two values, any language of the rule table (a pattern source, no groups).
OR_BETWEEN_VALUES: Final = _or_between_values()

SPELLED: Final = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                  "fourteen fifteen sixteen seventeen eighteen nineteen twenty").split()
WORD_NUM: Final = {w: i for i, w in enumerate(SPELLED)}
TENS: Final = {w: 10 * i for i, w in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
ROMAN: Final = {r: i for i, r in enumerate("I II III IV V VI VII VIII IX X XI XII".split(), 1)}
ROMAN_RE: Final = "XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I"
SMALL_RE: Final = "|".join(sorted(SPELLED, key=len, reverse=True))
BIG_RE: Final = (r"(?:a|one)[ \t]+hundred|(?:" + "|".join(TENS) + r")(?:[- \t](?:"
                 + "|".join(SPELLED[1:10]) + "))?|" + SMALL_RE)
PART_RE: Final = r"[1-5]|(?i:one|two|three|four|five)"
#: Substrings of every number word: a text holding no digit and none of them has no number.
NUMBER_WORDS: Final = tuple(("zero one two three four five six seven eight nine ten eleven "
                             "twelve thirteen fifteen twenty thirty forty fifty sixty eighty "
                             "ninety hundred").split())

_ORDINAL_WORDS: Final = {w: i for i, w in enumerate(
    ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
     "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth").split(), 1)}
_ORDINAL_TENS: Final = {w[:-1] + "ieth": n for w, n in TENS.items()} | {"hundredth": 100}
#: An ordinal in digits ("3rd", "10th") or words ("ninety-fifth"); the caller adds boundaries.
ORDINAL_RE: Final = (
    r"[0-9]{1,3}(?:st|nd|rd|th)|(?i:(?:" + "|".join(TENS) + r")[- \t](?:"
    + "|".join(list(_ORDINAL_WORDS)[:9]) + ")|"
    + "|".join(sorted([*_ORDINAL_WORDS, *_ORDINAL_TENS], key=len, reverse=True)) + ")")


def ordinal_value(raw: str) -> int:
    """The number an ordinal written by :data:`ORDINAL_RE` stands for."""
    if raw[0].isdigit():
        return int(raw[:-2])
    words = re.split(r"[- \t]+", raw.lower())
    return sum(TENS.get(w, 0) + _ORDINAL_WORDS.get(w, 0) + _ORDINAL_TENS.get(w, 0)
               for w in words)


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


class OptionValues:
    """An option set read as values (see :mod:`._values`); made by ``option_values``.

    Attributes:
        kind: ``"scale"`` or ``"quantity"``.
        letters: the options that are values (the others take no part).
    """

    __slots__ = ("kind", "letters")

    def __init__(self, kind: str, letters: frozenset[str]) -> None:
        self.kind = kind
        self.letters = letters

    def may_hold(self, text: str) -> bool:
        """Whether ``text`` may hold a value (a cheap test, no regular expression).

        False only where :meth:`find` is sure to return nothing: no digit, no number word and,
        for a scale, no Roman numeral, scale word or name.
        """
        raise NotImplementedError

    def find(self, text: str, *, bare: bool = False) -> list[ValueMention]:
        """Every value mention in ``text`` that could name an option, left to right.

        Args:
            text: the response or a part of it, in its original case.
            bare: the text is the answer itself (a located final answer, a JSON leaf, a short
                reply), so a number standing alone counts; otherwise a number counts only
                with a scale word or a unit.

        Returns:
            Non-overlapping mentions; none, without a regular expression run, where
            :meth:`may_hold` is false.
        """
        raise NotImplementedError


def fold(word: str) -> str:
    """A name's comparison form: lower case, no accents, hyphens, apostrophes or spaces."""
    w = word.lower()
    if not w.isascii():
        w = "".join(c for c in unicodedata.normalize("NFKD", w) if not unicodedata.combining(c))
    return w.replace("-", "").replace("'", "").replace("\u2019", "").replace(" ", "")


#: Words that may stand before a bare answer's value ("The answer is 3", "Likely 3").
LEAD: Final = frozenset((
    "answer final likely probably possibly perhaps maybe definitely most overall estimated "
    "approximately about around roughly nearly is was be are diagnosis impression conclusion "
    "result therefore thus so hence would with as to at correct choose select").split())
#: Words that may follow a bare answer's value ("3 because ...", not "3 cores").
_FOLLOW: Final = frozenset("or and to is was because since as given based due with".split())
#: A question's words that name no scale and tie no number ("What is the …").
QUESTION_STOP: Final = frozenset((
    "what which how many much does did is are was the this that these there with from into for "
    "and image shown show seen most best likely value patient following according based").split())
_SEPS: Final = frozenset(" \t*_:=#-\u2013(\"'")

_BOUND_WORDS: Final = {
    "ge": ("at least", "no less than", "not less than", "no lower than", "not lower than",
           "no fewer than", "no smaller than", "a minimum of", "minimum of", ">=", "=>", "≥", "⩾"),
    "gt": ("greater than", "more than", "higher than", "larger than", "bigger than", "above",
           "over", "exceeding", "beyond", ">"),
    "le": ("at most", "up to", "no more than", "not more than", "no greater than",
           "no higher than", "no larger than", "a maximum of", "maximum of", "<=", "=<", "≤", "⩽"),
    "lt": ("less than", "lower than", "fewer than", "smaller than", "below", "under", "<"),
}
#: Bound words → their direction: ``ge``, ``gt``, ``le`` or ``lt``.
BOUND_OF: Final = {p: d for d, ps in _BOUND_WORDS.items() for p in ps}
BOUND_RE: Final = "|".join(
    (r"(?<![^\W\d_])(?i:" + r"[ \t]+".join(p.split()) + r")(?![^\W\d_])") if p[0].isalpha()
    else re.escape(p) for p in sorted(BOUND_OF, key=len, reverse=True))
# Bound words may end with "the" before an ordinal ("below the 3rd percentile").
_BOUND_BEFORE: Final = re.compile(rf"(?P<b>{BOUND_RE})(?:[ \t]+(?i:the))?[ \t]*\Z")
_BOUND_ENDS: Final = (*{p.split()[-1][-1] if not p[0].isalpha() else p.split()[-1]
                        for p in BOUND_OF}, "the")
_BOUND_LAST: Final = frozenset(w[-1] for w in _BOUND_ENDS)
LESS: Final = frozenset("less lower below under fewer smaller".split())
AFTER_RE: Final = (r"(?i:(?:or|and)[ \t]+(?P<dir>more|greater|higher|above|over|larger|"
                   r"bigger|worse|up|less|lower|below|under|fewer|smaller))(?![^\W\d_])")
BOUND_AFTER: Final = re.compile(rf"[ \t]*,?[ \t]*{AFTER_RE}")
def _between_words() -> tuple[str, ...]:
    """What opens a range of two values: the words of ``alternative.between``, and "from"."""
    from medvqa.reading.rules import rule_by_id

    return (*rule_by_id("alternative.between").phrases, "from")


_BETWEEN_WORDS: Final = _between_words()
BETWEEN: Final = re.compile(r"(?<![^\W\d_])(?i:" + "|".join(map(re.escape, _BETWEEN_WORDS))
                            + r")[ \t]+(?:(?i:the)[ \t]+)?\Z")
#: What joins the two values after "between" in the languages of ``alternative.between``
#: ("between 460 and 480", "zwischen 460 und 480", "entre 460 et 480", "между 460 и 480").
BETWEEN_AND: Final = r"and|und|et|y|e|\u0438"

#: Statistical labels before a number ("p < 0.05", "OR 2.3", "n = 40"); case as written.
_STAT_LABELS: Final = frozenset(
    "p P OR aOR HR aHR RR aRR IRR SD SE SEM IQR CI df n N r \u03c1 \u03ba kappa".split())
_STAT_GAP: Final = frozenset(" \t=:<>~\u2264\u2265\u2248")
_STAT_AFTER_FIRST: Final = frozenset("%CcUupP")
_STAT_AFTER: Final = re.compile(
    r"[ \t]*(?:%|(?i:percent|per[ \t]cent))?[ \t]*(?:CI|CrI|UI|(?i:confidence|credible)"
    r"(?:[ \t]+(?i:interval|level))?)(?![^\W_])")


def statistical(text: str, s: int, e: int) -> bool:
    """Whether the number at ``s:e`` is statistical notation, no value of the subject.

    A confidence level ("95% CI", "95 % confidence interval"), or a number right after a
    statistical label ("p < 0.05", "p-value 0.01", "OR 2.3", "HR = 1.4", "n = 40", "SD 2 mm").
    """
    if text[e:e + 6].lstrip(" \t")[:1] in _STAT_AFTER_FIRST and _STAT_AFTER.match(
            text, e) is not None:
        return True
    k = s
    while k > max(0, s - 6) and text[k - 1] in _STAT_GAP:
        k -= 1
    if k == s or not text[k - 1:k].isalpha():  # glued: "N1" is a node stage
        return False
    j = word_before(text, k, max(0, k - 8))
    if j < k and text[j:k].lower() in ("value", "values") and text[j - 1:j] in ("-", " "):
        k = j - 1
        j = word_before(text, k, max(0, k - 8))
    return j < k and text[j:k] in _STAT_LABELS and not text[j - 1:j].isalnum()


def skip_seps(text: str, s: int, lo: int) -> tuple[int, bool]:
    """Skip the separators before ``s``; whether one was ':', '=' or '('."""
    strong = False
    while s > lo and text[s - 1] in _SEPS:
        strong = strong or text[s - 1] in ":=("
        s -= 1
    return s, strong


def word_before(text: str, e: int, lo: int) -> int:
    """Where the word ending at ``e`` begins (not before ``lo``)."""
    s = e
    while s > lo and (text[s - 1].isalpha() or text[s - 1] in "'\u2019"):
        s -= 1
    return s


def lead_before(text: str, s: int) -> bool:
    """Whether only punctuation or a lead word stands before ``s`` (a bare answer's value)."""
    k, strong = skip_seps(text, s, max(0, s - 40))
    j = word_before(text, k, max(0, k - 30))
    return j == k and not text[k - 1:k].isdigit() or strong or fold(text[j:k]) in LEAD


def follow_ok(text: str, e: int) -> bool:
    """Whether what follows a bare value leaves it the answer (not "3 cores", "2 of 5")."""
    rest = text[e:e + 24].lstrip(" \t*_\"'")
    if rest[:1] == "-" and rest[1:2].isalpha():
        return False  # "3-month", "2-year": a compound word, a duration
    if not rest or rest[0] in "\n.;,!?)]}-\u2013\u2014(" and not rest[1:2].isdigit():
        return True
    word = re.match(r"[^\W\d_]+", rest)
    return word is not None and word.group().lower() in _FOLLOW


def bound_before(text: str, s: int, lo: int) -> re.Match[str] | None:
    """The bound words ending at ``s`` ("at least", "≥"); the regex runs only where one may."""
    lo = max(lo, s - 28)
    j = s - 1
    while j > lo and text[j] in " \t":
        j -= 1
    if j < lo or text[j].lower() not in _BOUND_LAST or not text[lo:s].rstrip(
            " \t").lower().endswith(_BOUND_ENDS):
        return None
    return _BOUND_BEFORE.search(text, lo, s)


def between(text: str, s: int, lo: int) -> re.Match[str] | None:
    """The word "between" or "from" ending at ``s`` (a range's opening)."""
    lo = max(lo, s - 16)
    return BETWEEN.search(text, lo, s) if text[lo:s].rstrip(" \t").lower().endswith(
        (*_BETWEEN_WORDS, "the")) else None


def word_starts(text: str, words: tuple[str, ...]) -> list[int]:
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


def clocked(text: str, s: int, e: int) -> bool:
    """Whether a number at ``s:e`` is part of a date, a fraction or a clock time."""
    return (text[e:e + 1] in (":", "/") and text[e + 1:e + 2].isdigit()
            or text[s - 1:s] in (":", "/") and text[s - 2:s - 1].isdigit())
