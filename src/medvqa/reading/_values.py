"""Options read as values: ordered scales (grades, stages, categories …) and quantities.

A model often writes an option's value otherwise than the option text ("grade III" for
"Grade 3", "2 cm" for "10-20 mm", "Fitzpatrick 4" for "Type III-IV", "a PASI of 18" for
"Severe (PASI > 10)"). :func:`option_values` reads an option set as values (cached);
:meth:`OptionValues.find` lists a text's value mentions, each with the options its value is
compatible with. The caller credits an option only where ``letters`` hold one letter; a range,
alternative or bound across options is :attr:`ValueMention.spans_options` (kept open).

- **Scales** (:mod:`._scales`, names in :mod:`._scale_names`): a name, then a number, a letter
  value or a composite; options are points, ranges or bounds of the scale.
- **Quantities** (:mod:`._quantities`, units in :mod:`._units`): each option an interval of one
  dimension; the quantity may stand in an option's qualifier, after a name ("PASI > 10").
  Where only one option carries a quantity and the others are words ("Coils", "Microspheres
  (500-700 µm)"), a quantity inside its interval reads it and one outside names nothing.
- **Both**, where every option is a scale value with a quantity in its qualifier ("T2 (2-5
  cm)"): a number the two readings disagree on (a bare "2": grade 2 or 2 mm?) names nothing.

Numbers, bounds and statistical notation ("95% CI", "p < 0.05", "n = 40" are no values) are
shared (:mod:`._numbers`).

>>> ov = option_values((("A", "Grade 1"), ("B", "Grade 2"), ("C", "Grade 3")))
>>> [(m.start, m.end, sorted(m.letters)) for m in ov.find("This is a grade III tumour.")]
[(10, 19, ['C'])]
>>> q = option_values((("A", "< 5 mm"), ("B", "5-10 mm"), ("C", "> 10 mm")))
>>> [(sorted(m.letters), m.spans_options) for m in q.find("about 0.7 cm, maybe 8-12 mm")]
[(['B'], False), (['B', 'C'], True)]
>>> t = option_values((("A", "T1 (\u2264 2 cm)"), ("B", "T2 (2-5 cm)"), ("C", "T3 (> 5 cm)")))
>>> [sorted(m.letters) for m in t.find("a 3 cm tumour, T2")]
[['B'], ['B']]
>>> e = option_values((("A", "Coils"), ("B", "Gelfoam"), ("C", "Microspheres (500-700 µm)")))
>>> [sorted(m.letters) for m in e.find("particles of 0.5 to 0.7 mm, not 2 mm")]
[['C'], []]
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from medvqa.reading._numbers import OptionValues, ValueMention, fold
from medvqa.reading._quantities import Quantity, read_quantity
from medvqa.reading._scale_names import generic, question_names
from medvqa.reading._scales import Scale, read_scale
from medvqa.reading._units import UNITS

__all__ = ["UNITS", "OptionValues", "ValueMention", "option_values", "without_list_numbers"]


class _Both(OptionValues):
    """Options that are scale values with quantities in their qualifiers ("T2 (2-5 cm)")."""

    __slots__ = ("_quantity", "_scale")

    def __init__(self, scale: Scale, quantity: Quantity) -> None:
        super().__init__("scale", scale.letters | quantity.letters)
        self._scale, self._quantity = scale, quantity

    def may_hold(self, text: str) -> bool:
        """See :meth:`OptionValues.may_hold`."""
        return self._scale.may_hold(text) or self._quantity.may_hold(text)

    def find(self, text: str, *, bare: bool = False) -> list[ValueMention]:
        """Both readings' mentions; where they overlap and disagree, one that names nothing.

        A bare "2" is grade 2 or 2 mm: neither reading identifies the option alone.
        """
        found = sorted(self._scale.find(text, bare=bare) + self._quantity.find(text, bare=bare),
                       key=lambda m: (m.start, -m.end))
        out: list[ValueMention] = []
        for m in found:
            last = out[-1] if out else None
            if last is None or m.start >= last.end:
                out.append(m)
            elif (m.letters, m.spans_options) != (last.letters, last.spans_options):
                out[-1] = ValueMention(last.start, max(last.end, m.end), frozenset())
        return out


# A number opening a line as a list item's number: "1. Left lower lobe nodule".
_ITEM_BEFORE: Final = re.compile(r"(?:^|\n)[ \t]*(?:[-*\u2022][ \t]*)?\Z")
_ITEM_AFTER: Final = re.compile(r"[.)][ \t]+[^\W\d]")
_ITEMS: Final = re.compile(r"(?m)^[ \t]*(?:[-*\u2022][ \t]*)?\d+[.)][ \t]+\S")


def without_list_numbers(text: str, found: list[ValueMention]) -> list[ValueMention]:
    """``found`` without the numbers of list items ("1. 6 mm RUL nodule" is item 1, no value).

    A number opening a line, followed by a full stop or a bracket and a word, numbers a list
    of two items or more; a "3." standing alone, or one such line, is still read.
    """
    if not found or ("." not in text and ")" not in text) or len(_ITEMS.findall(text)) < 2:
        return found  # (one numbered line is no list: "3. Solid nodule" answers 3)
    return [m for m in found if not (
        text[m.start:m.end].isdigit() and _ITEM_AFTER.match(text, m.end) is not None
        and _ITEM_BEFORE.search(text, max(0, m.start - 8), m.start) is not None)]


@lru_cache(maxsize=4096)
def option_values(options: tuple[tuple[str, str], ...],
                  question: str = "") -> OptionValues | None:
    """The option set read as values, or None where it is none.

    Args:
        options: the options as (letter, text) pairs.
        question: the question; its scale names ("What is the Fazekas grade?") count with the
            options', and its words tie a unitless number ("the ratio is 3").

    Returns:
        A scale where two or more options are named scale values (or Roman, suffixed or
        composite ones, or plain numbers of a scale the question names); else a quantity where
        two or more options are numbers of one dimension, or where exactly one option carries
        a range or bound with a unit and no other option is a value; else None. Where every
        option is a scale value with a quantity in its qualifier ("T2 (2-5 cm)"), both are
        read.

    >>> option_values((("A", "Pneumonia"), ("B", "Stage 2"))) is None
    True
    >>> option_values((("A", "0"), ("B", "1"), ("C", "2")), "What is the Fazekas grade?").kind
    'scale'
    """
    qnames = question_names(question)
    scales = [(k, r) for k, t in options if (r := read_scale(t)) is not None]
    quants = [(k, qr) for k, t in options if (qr := read_quantity(t)) is not None]
    marked = sum(r.marked for _, r in scales)
    q = Quantity(quants, question) if len(quants) >= 2 else None
    q = q if q is not None and len(q.letters) >= 2 else None
    if marked >= 2 and (q is None or not q.strong or marked > len(q.letters)):
        return Scale(scales, qnames)
    if q is not None and q.strong:
        both = marked == len(q.letters) and all(qr.qualified for _, qr in quants) and not any(
            r.qualified for _, r in scales)  # "T2 (2-5 cm)": a scale head, a quantity after
        return _Both(Scale(scales, qnames), q) if both else q
    if len(scales) >= 2 and all(r.iv.lo == r.iv.hi for _, r in scales) and any(
            generic(fold(w[0])) or fold(w[0]).endswith("rads") for w in qnames):
        return Scale(scales, qnames)
    if q is not None:
        return q
    if len(quants) == 1 and not scales and (one := quants[0][1]).unit and one.iv.lo != one.iv.hi:
        alone = Quantity(quants, question)  # "Microspheres (500-700 µm)" among words
        return alone if alone.letters else None
    return None
