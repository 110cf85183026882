"""Text normalisation shared by the question and option checks (pure functions)."""

from __future__ import annotations

import re
import unicodedata

from medvqa.schema import CHOICE_TYPES, Item

#: Function words left out of word-overlap comparisons and of "content words".
STOP = frozenset(
    "the and for with from that this these those its his her their are was were has have had "
    "not but all any can may also into onto than then there which what when where who whom "
    "how why does did done being been other others some such only very more most less least "
    "of in on at to by or an a is be as it no do you see".split())

_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def normalise(text: str) -> str:
    """Case-folded, NFKC, punctuation dropped, runs of white space as one space.

    Two questions with the same normal form are "the same question" for the duplicate check.

    >>> normalise("  Is the LEFT lung  normal? ")
    'is the left lung normal'
    >>> normalise("Ｘ-ray: which side?") == normalise("x ray which side")
    True
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    return _SPACE.sub(" ", _PUNCT.sub(" ", text)).strip()


def words(text: str) -> list[str]:
    """The word tokens of ``normalise(text)``.

    >>> words("Mass, left breast (2 cm)")
    ['mass', 'left', 'breast', '2', 'cm']
    """
    return _WORD.findall(normalise(text))


def answer_key(item: Item) -> str:
    """The item's answer as comparable text, whatever the option order.

    Choice items: the normalised texts of the answer options (sorted, ``|``-joined); open
    items: the normalised answer; region items: the sorted region IDs.

    >>> it = Item(id="a", question="q", options={"A": "No", "B": "Yes"}, answer="B",
    ...           question_type="yesno")
    >>> answer_key(it)
    'yes'
    """
    if item.question_type in CHOICE_TYPES:
        return "|".join(sorted(normalise(item.options.get(a, a)) for a in item.answer_letters))
    if isinstance(item.answer, list):
        return "|".join(sorted(normalise(str(a)) for a in item.answer))
    return normalise(item.answer)


def jaccard(a: str, b: str) -> float:
    """Jaccard similarity of the content-word sets of two texts (1.0 for two empty texts).

    Function words (:data:`STOP`) are left out, so "is the heart enlarged" and "is the liver
    enlarged" share one word of three, not three of five.

    >>> jaccard("are there increased vascular markings", "are the vascular markings increased")
    1.0
    >>> round(jaccard("is the heart enlarged", "is the liver enlarged"), 3)
    0.333
    """
    sa = {w for w in words(a) if w not in STOP}
    sb = {w for w in words(b) if w not in STOP}
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / len(sa | sb)
