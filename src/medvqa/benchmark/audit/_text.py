"""Text normalisation shared by the question and option checks (pure functions)."""

from __future__ import annotations

import re
import unicodedata

from medvqa.schema import CHOICE_TYPES, Item

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
    """Jaccard similarity of the word sets of two texts (1.0 for two empty texts).

    >>> jaccard("is the lung normal", "is the left lung normal")
    0.8
    """
    sa, sb = set(words(a)), set(words(b))
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / len(sa | sb)
