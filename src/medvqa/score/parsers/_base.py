"""What every parser returns, and how a parsed choice is compared with the gold answer."""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import NamedTuple, Protocol


class ParsedAnswer(NamedTuple):
    """A parser's reading of one response.

    Attributes:
        choice: a letter; a sorted list of letters (multi) or region IDs (region); normalised
            text (open); None when the parser abstains.
        invalid: True when the parser abstained (no option named, several named, a refusal).
    """

    choice: str | list[str] | None
    invalid: bool


INVALID = ParsedAnswer(None, True)


class AnswerParser(Protocol):
    """Reads one free-text response into a choice. Instances may hold per-pass state.

    Attributes:
        style: the registry name.
        compares_text: True when a choice is judged by its option text rather than its letter
            (pathmmu): pass the options to :func:`is_correct` as ``texts``.
    """

    style: str
    compares_text: bool

    def parse(self, response: str, options: dict[str, str], question_type: str) -> ParsedAnswer:
        """Parse ``response`` given the options (letter → text, display order)."""
        ...


_ARTICLES = re.compile(r"\b(?:a|an|the)\b")
_PUNCT = str.maketrans({c: " " for c in string.punctuation})


def normalize_answer(text: str) -> str:
    """Lower-case, drop punctuation and articles, collapse white space."""
    return " ".join(_ARTICLES.sub(" ", text.lower().translate(_PUNCT)).split())


def is_correct(choice: str | list[str] | None, answer: str | list[str], question_type: str, *,
               texts: Mapping[str, str] | None = None) -> bool:
    """Whether a parsed choice matches the gold answer (sets for multi and region).

    With ``texts`` (letter → option text) a single choice is right when its option text equals
    the gold option's text, as PathMMU scores: two options with the same text are both right.

    >>> is_correct(["A", "C"], ["C", "A"], "multi")
    True
    >>> is_correct(None, "A", "single")
    False
    >>> is_correct("C", "A", "single", texts={"A": "Steatosis", "B": "Normal", "C": "Steatosis"})
    True
    """
    if choice is None:
        return False
    if question_type in {"multi", "region"}:
        gold = {answer} if isinstance(answer, str) else set(answer)
        got = {choice} if isinstance(choice, str) else set(choice)
        return got == gold
    if question_type == "open":
        return normalize_answer(str(choice)) == normalize_answer(str(answer))
    if texts is not None and isinstance(choice, str) and isinstance(answer, str):
        return texts.get(choice, choice) == texts.get(answer, answer)
    return choice == answer
